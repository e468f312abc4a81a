//! `proofnum`: solve a position of any bundled game from the command line.
//!
//! ```sh
//! proofnum connect4 4453
//! proofnum tictactoe 40 --verify
//! proofnum uttt "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX"
//! proofnum atarigo                                   # the 6×6 crosscut
//! proofnum atarigo "X;..../.XO./.OX./...." --attacker white
//! proofnum connect4 "" --table-mib 512 --nodes 100000000
//! proofnum connect4 647262774144 --engine pns --arena-mib 512
//! proofnum connect4 4453 --threads 2
//! proofnum chess "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"  # mate in 2 (exact), the line
//! proofnum chess "<FEN>" --checks-only --seconds 10   # only mates by checks
//! proofnum shogi "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"  # tsume: mate in 1 ply
//! proofnum connect4 444444 --certificate c4.cert      # the proof as a certificate
//! proofnum check connect4 444444 c4.cert               # checked from the rules alone
//! ```
//!
//! Exit codes: 0 answered, 1 stopped by a limit (the answer is unknown), 2 bad input (unknown
//! game or option, a position that cannot be read or contains an illegal move), 3 `--verify`
//! refuted the answer (a bug: please report it) or `proofnum check` found the certificate
//! invalid, 141 standard output closed before the report was written (`proofnum ... | head`: the run ends there quietly, as a Unix tool that SIGPIPE
//! ends). `--help` says the rest.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{CommandFactory, Parser};
use proofnum::{Game, Player};
use proofnum_cli::check::{CheckCertificate, load, report};
use proofnum_cli::games::{GAMES, with_game};
use proofnum_cli::solve::{EXIT_BAD_INPUT, Options, Solve, parse_error_text};
use proofnum_games::chess::{Chess, Knowledge, Rules};
use proofnum_games::shogi::Tsume;

/// What `--help` says after the options: what the report means, and the exit codes.
const AFTER_HELP: &str = "\
Without --attacker, proofnum prints the value for the side to move (win, draw or loss). The
output says what the best move and the principal variation are: when the side to move wins,
the shortest win in the proof found, and the line is that win against the longest resistance;
when it loses, the defence that resists longest; in a draw, the move that keeps the opponent
from winning, and the line is a drawn one. The line always starts with the best move. The
principal variation and --verify use df-pn over the table whichever engine solved.

Exit codes: 0 answered, 1 stopped by a limit, 2 bad input, 3 --verify refuted the answer;
141 standard output closed early (| head): the run ends quietly, as other Unix tools do.";

/// Solve a position of a bundled game by proof-number search.
///
/// Prints the value for the side to move (win, draw or loss), or with --attacker whether one
/// side can force a win; then the best move, the principal variation and the search's figures.
#[derive(Parser)]
#[command(name = "proofnum", version, after_help = AFTER_HELP, arg_required_else_help = true)]
struct Cli {
    /// The game
    #[arg(value_parser = game_names())]
    game: String,
    /// The position in the game's notation (left out or empty: the start; --help lists each
    /// game's notation)
    #[arg(default_value = "", hide_default_value = true)]
    position: String,
    #[command(flatten)]
    options: Options,
}

/// The games' names with their notations: `-h` lists the names, `--help` the notations too.
fn game_names() -> PossibleValuesParser {
    PossibleValuesParser::new(
        GAMES
            .iter()
            .map(|g| PossibleValue::new(g.name).help(g.notation)),
    )
}

/// Check a proof certificate (`--certificate FILE`) against a position, from the game's rules
/// alone: the checker shares no code with the search.
///
/// Exit codes: 0 valid, 1 stopped by --max-positions, 2 bad input (unknown game, a position
/// that cannot be read, an unreadable file), 3 invalid (the first faulty step is printed).
#[derive(Parser)]
#[command(name = "proofnum check", version, arg_required_else_help = true)]
struct CheckCli {
    /// The game
    #[arg(value_parser = game_names())]
    game: String,
    /// The position the certificate is about, in the game's notation (as given to solve it)
    position: String,
    /// The certificate file
    file: PathBuf,
    /// Stop after judging N positions
    #[arg(long, value_name = "N", default_value_t = u64::MAX, hide_default_value = true)]
    max_positions: u64,
    /// chess: the certificate was written with --checks-only
    #[arg(long)]
    checks_only: bool,
    /// chess: the certificate was written with --fifty-move
    #[arg(long)]
    fifty_move: bool,
}

/// Parses the arguments as `parser` does, with long arguments quoted short in errors.
fn parse_or_exit<P: Parser>() -> P {
    P::try_parse().unwrap_or_else(|e| {
        let args: Vec<String> = std::env::args_os()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        match parse_error_text(&e, &args) {
            Some(text) => {
                eprint!("{text}");
                std::process::exit(e.exit_code())
            }
            None => e.exit(),
        }
    })
}

/// `proofnum check GAME POSITION FILE`.
fn check_main() -> ExitCode {
    // The arguments after `check`, with the program's name in front.
    let args: Vec<_> = std::env::args_os()
        .enumerate()
        .filter(|&(i, _)| i != 1)
        .map(|(_, a)| a)
        .collect();
    let cli = CheckCli::try_parse_from(&args).unwrap_or_else(|e| e.exit());
    let certificate = match load(&cli.file) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let check = CheckCertificate {
        certificate: &certificate,
        path: &cli.file,
        max_positions: cli.max_positions,
    };
    let result = if cli.game == "chess" {
        chess_check(&cli, check)
    } else if cli.game == "shogi" {
        shogi_check(&cli, check)
    } else {
        with_game(&cli.game, &cli.position, check).and_then(|r| r)
    };
    result.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

/// Checks a tsume-shogi certificate: the problem with the rules and hand dominance alone, as
/// it was written.
fn shogi_check(cli: &CheckCli, check: CheckCertificate<'_>) -> Result<ExitCode, String> {
    let tsume = Tsume::from_sfen(&cli.position).map_err(|e| e.to_string())?;
    let mut rules_only = tsume.with_knowledge(proofnum_games::shogi::Knowledge::CERTIFICATE);
    let name = |p: Player| match p {
        Player::First => "Black",
        Player::Second => "White",
    };
    Ok(report(&mut rules_only, "shogi", check, &name, &|mv| {
        proofnum_games::shogi::notation::usi(mv)
    }))
}

/// Checks a chess certificate: the position with the rules it was solved under.
fn chess_check(cli: &CheckCli, check: CheckCertificate<'_>) -> Result<ExitCode, String> {
    let mut chess = if cli.position.trim().is_empty() {
        Chess::startpos()
    } else {
        Chess::from_fen(&cli.position).map_err(|e| e.to_string())?
    };
    let attacker = match check.certificate {
        Ok(c) => c.heading.attacker,
        Err(_) => chess.side_to_move(),
    };
    // The rules alone, as the certificate was written.
    chess = chess
        .with_rules(Rules {
            fifty_move_rule: cli.fifty_move,
            checks_only: cli.checks_only.then_some(attacker),
        })
        .with_knowledge(Knowledge::NONE);
    let name = |p: Player| match p {
        Player::First => "White",
        Player::Second => "Black",
    };
    // Moves as cozy-chess writes them (UCI-like; castling as the king taking its rook).
    Ok(report(
        &mut chess,
        "chess",
        check,
        &name,
        &|mv: proofnum_games::chess::Move| mv.to_cozy().to_string(),
    ))
}

fn main() -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|a| a == "check") {
        return check_main();
    }
    let cli: Cli = parse_or_exit();
    if let Err(e) = cli.options.check() {
        Cli::command()
            .error(clap::error::ErrorKind::ArgumentConflict, e)
            .exit();
    }
    let chess_only = cli.options.checks_only || cli.options.fifty_move;
    if cli.game == "chess" {
        return match proofnum_cli::chess::run(&cli.position, &cli.options) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(EXIT_BAD_INPUT)
            }
        };
    } else if cli.game == "shogi" && !chess_only {
        return match proofnum_cli::shogi::run(&cli.position, &cli.options) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(EXIT_BAD_INPUT)
            }
        };
    } else if chess_only {
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--checks-only and --fifty-move are chess options",
            )
            .exit();
    }
    match with_game(&cli.game, &cli.position, Solve(&cli.options)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) | Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
