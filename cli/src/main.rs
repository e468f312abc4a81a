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
//! ```
//!
//! Exit codes: 0 answered, 1 stopped by a limit (the answer is unknown), 2 bad input (unknown
//! game or option, a position that cannot be read or contains an illegal move), 3 `--verify`
//! refuted the answer (a bug: please report it), 141 standard output closed before the report
//! was written (`proofnum ... | head`: the run ends there quietly, as a Unix tool that SIGPIPE
//! ends). `--help` says the rest.

use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{CommandFactory, Parser};
use proofnum_cli::games::{GAMES, with_game};
use proofnum_cli::solve::{EXIT_BAD_INPUT, Options, Solve};

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

fn main() -> ExitCode {
    let cli = Cli::parse();
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
