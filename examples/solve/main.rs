//! Solve a position of any bundled game from the command line.
//!
//! ```sh
//! cargo run --release --example solve -- connect4 4453
//! cargo run --release --example solve -- tictactoe 40 --verify
//! cargo run --release --example solve -- uttt "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX"
//! cargo run --release --example solve -- atarigo                # the 6×6 crosscut
//! cargo run --release --example solve -- atarigo "X;..../.XO./.OX./...." --attacker white
//! cargo run --release --example solve -- connect4 "" --table-mib 512 --nodes 100000000
//! cargo run --release --example solve -- connect4 647262774144 --engine pns --arena-mib 512
//! cargo run --release --features std --example solve -- connect4 4453 --threads 2
//! ```
//!
//! Prints the board, then either the value for the side to move (win, draw or loss: two
//! searches at most) or, with `--attacker`, the answer to "can this side force a win?" (one
//! search); the best move and the principal variation with what each of them is; and the
//! search's figures: MID calls, positions, positions per second, time, table fill and memory.
//! A progress line shows on long runs. `--help` lists the options.
//!
//! Exit codes: 0 answered, 1 stopped by a limit (the answer is unknown), 2 bad input (unknown
//! game or option, a position that cannot be read or contains an illegal move), 3 `--verify`
//! refuted the answer (a bug: please report it).

mod games;
#[cfg(feature = "std")]
mod parallel;
mod report;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use proofnum::table::Table;
use proofnum::{
    Dfpn, DfpnConfig, Epsilon, Limits, Player, Pns, PnsConfig, Progress, Reason, Stats, Status,
    Value,
};
use proofnum_games::atarigo::AtariGo;
use proofnum_games::connect4::ConnectFour;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_games::uttt::Uttt;

use games::{Bundled, GAMES_HELP, atarigo_size};

/// Table memory when `--table-mib` is not given: a budget an embedded engine can spare.
const DEFAULT_TABLE_MIB: usize = 64;
/// PNS node arena when `--arena-mib` is not given.
const DEFAULT_ARENA_MIB: usize = 256;
/// PN²'s second-level nodes when `--second-level` is not given.
const DEFAULT_SECOND_LEVEL: usize = 1 << 20;
/// Seconds between progress lines.
const PROGRESS_EVERY_S: f64 = 1.0;

/// Exit code for bad input: an unknown game or option, a position that cannot be read.
const EXIT_BAD_INPUT: u8 = 2;

const USAGE_HEAD: &str = "\
usage: solve <game> [position] [options]

games and positions:
";

const USAGE_OPTIONS: &str = "
options:
  --attacker P    ask only \"can P force a win?\" (one search): P is first, second, X, O
                  (atarigo also black, white); prints proven or disproven
  --table-mib N   transposition table memory in MiB (default 64)
  --epsilon X     the 1+epsilon trick's epsilon, 0 for classic df-pn (default 0.25)
  --nodes N       stop after N positions
  --seconds S     stop after S seconds
  --search-stale  search positions whose table entry was lost even when their numbers
                  already reach their thresholds (helps when the table is far too small)
  --weak-delta    weak proof numbers against over-counting in DAGs (DfpnConfig::weak_delta):
                  (faster on some positions, far slower on others: measure)
  --verify        walk the whole proof again and report the check
  --quiet         no progress line
  --engine E      dfpn (default), pns (best-first proof-number search) or pn2 (PN²)
  --arena-mib N   pns, pn2: the node arena in MiB (default 256)
  --second-level N  pn2: nodes of the second-level region (default 1048576)
  --threads N     parallel PN-DFPN with N worker threads sharing the table (0: one per
                  core); needs a build with the std feature (--features std)

Without --attacker, solve prints the value for the side to move (win, draw or loss). The
output says what the best move and the principal variation are: when the side to move wins,
the shortest win in the proof found, and the line is that win against the longest
resistance; when it loses, the defence that resists longest; in a draw, the move that keeps
the opponent from winning, and the line is a drawn one. The line always starts with the
best move. The principal variation and --verify use df-pn over the table whichever engine
solved.

exit codes: 0 answered, 1 stopped by a limit, 2 bad input, 3 --verify refuted the answer
";

/// Which search solves the position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Engine {
    Dfpn,
    Pns,
    Pn2,
}

/// What the command line asks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Win, draw or loss for the side to move.
    Value,
    /// Can this player force a win?
    CanWin(Player),
}

/// What a search found, whichever engine ran it.
pub struct Found<M> {
    /// The answer, or why the search stopped without one.
    pub answer: Result<Answer, Reason>,
    /// The engine's own best move (what it is depends on the answer; see `report`).
    pub best_move: Option<M>,
    /// Counters of every search run.
    pub stats: Stats,
}

/// A settled answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// The value for the side to move.
    Value(Value),
    /// The attacker of `--attacker` can force a win (`Proven`) or cannot (`Disproven`).
    Status(Status),
}

impl<M> Found<M> {
    fn from_search(r: proofnum::SearchResult<M>) -> Self {
        Found {
            answer: match r.status {
                Status::Unknown(reason) => Err(reason),
                settled => Ok(Answer::Status(settled)),
            },
            best_move: r.best_move,
            stats: r.stats,
        }
    }

    fn from_value(r: proofnum::ValueResult<M>) -> Self {
        Found {
            answer: r.value.map(Answer::Value),
            best_move: r.best_move,
            stats: r.stats,
        }
    }
}

/// The command line's options.
pub struct Options {
    table_mib: usize,
    epsilon: Epsilon,
    max_nodes: u64,
    max_seconds: Option<f64>,
    verify: bool,
    quiet: bool,
    search_stale: bool,
    weak_delta: bool,
    engine: Engine,
    arena_mib: usize,
    second_level: usize,
    threads: Option<usize>,
    attacker: Option<String>,
}

fn whole<T: std::str::FromStr>(name: &str, value: String) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{name} takes a whole number, got {value:?}"))
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        table_mib: DEFAULT_TABLE_MIB,
        epsilon: Epsilon::QUARTER,
        max_nodes: u64::MAX,
        max_seconds: None,
        verify: false,
        quiet: false,
        search_stale: false,
        weak_delta: false,
        engine: Engine::Dfpn,
        arena_mib: DEFAULT_ARENA_MIB,
        second_level: DEFAULT_SECOND_LEVEL,
        threads: None,
        attacker: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .cloned()
        };
        match arg.as_str() {
            "--table-mib" => o.table_mib = whole(arg, value(arg)?)?,
            "--epsilon" => o.epsilon = parse_epsilon(&value(arg)?)?,
            "--nodes" => o.max_nodes = whole(arg, value(arg)?)?,
            "--seconds" => {
                let s = value(arg)?;
                let seconds: f64 = s
                    .parse()
                    .map_err(|_| format!("--seconds takes a number, got {s:?}"))?;
                if seconds.is_nan() || seconds < 0.0 {
                    return Err("--seconds must not be negative".into());
                }
                o.max_seconds = Some(seconds);
            }
            "--engine" => {
                o.engine = match value(arg)?.as_str() {
                    "dfpn" => Engine::Dfpn,
                    "pns" => Engine::Pns,
                    "pn2" => Engine::Pn2,
                    other => return Err(format!("--engine takes dfpn, pns or pn2, got {other:?}")),
                }
            }
            "--arena-mib" => o.arena_mib = whole(arg, value(arg)?)?,
            "--second-level" => o.second_level = whole(arg, value(arg)?)?,
            "--threads" => {
                if !cfg!(feature = "std") {
                    return Err("--threads needs a build with --features std".into());
                }
                o.threads = Some(whole(arg, value(arg)?)?);
            }
            "--attacker" => o.attacker = Some(value(arg)?),
            "--verify" => o.verify = true,
            "--search-stale" => o.search_stale = true,
            "--weak-delta" => o.weak_delta = true,
            "--quiet" => o.quiet = true,
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if o.threads.is_some() && o.engine != Engine::Dfpn {
        return Err(
            "--threads runs the parallel PN-DFPN: it cannot be combined with --engine pns or pn2"
                .into(),
        );
    }
    Ok(o)
}

/// ε as a fraction over 1000 (enough precision for a command line).
fn parse_epsilon(s: &str) -> Result<Epsilon, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("--epsilon takes a number, got {s:?}"))?;
    if !(0.0..=16.0).contains(&x) {
        return Err("--epsilon must be between 0 and 16".into());
    }
    Ok(Epsilon::new((x * 1000.0).round() as u32, 1000).expect("non-zero denominator"))
}

fn usage() -> String {
    format!("{USAGE_HEAD}{GAMES_HELP}\n{USAGE_OPTIONS}")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage());
        return if args.is_empty() {
            ExitCode::from(EXIT_BAD_INPUT)
        } else {
            ExitCode::SUCCESS
        };
    }
    let game = args[0].as_str();
    let (position, rest) = match args.get(1) {
        Some(p) if !p.starts_with("--") => (p.as_str(), &args[2..]),
        _ => ("", &args[1..]),
    };
    let options = match parse_options(rest) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n\n{}", usage());
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let outcome = match game {
        "connect4" => run::<ConnectFour>(position, &options),
        "tictactoe" => run::<TicTacToe>(position, &options),
        "uttt" => run::<Uttt>(position, &options),
        "atarigo" => match atarigo_size(position) {
            2 => run::<AtariGo<2>>(position, &options),
            3 => run::<AtariGo<3>>(position, &options),
            4 => run::<AtariGo<4>>(position, &options),
            5 => run::<AtariGo<5>>(position, &options),
            6 => run::<AtariGo<6>>(position, &options),
            7 => run::<AtariGo<7>>(position, &options),
            n => Err(format!(
                "an Atari Go setup of {n} rows: boards are 2x2 to 7x7"
            )),
        },
        other => Err(format!(
            "unknown game {other:?}: expected connect4, tictactoe, uttt or atarigo"
        )),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Reads the position, solves it and prints the report; an `Err` is bad input.
fn run<G: Bundled>(position: &str, o: &Options) -> Result<ExitCode, String> {
    let mut game = G::parse(position).map_err(|e| format!("{} position: {e}", G::title()))?;
    let question = match &o.attacker {
        Some(name) => Question::CanWin(G::player_named(name)?),
        None => Question::Value,
    };
    let mover = game.side_to_move();
    println!(
        "{}, {} to move:\n{}",
        G::title(),
        G::side_label(mover),
        game.diagram()
    );
    if let Some(notation) = game.notation() {
        println!("position: {notation}");
    }

    // All of the solver's memory, given up front.
    let table_bytes = o
        .table_mib
        .checked_mul(1 << 20)
        .ok_or("--table-mib is too large")?;
    let mut table_memory = vec![0u8; table_bytes];
    let mut table = Table::new(&mut table_memory).map_err(|e| format!("--table-mib: {e}"))?;
    let stack_bytes = Dfpn::<G>::stack_bytes(G::MAX_DEPTH, G::MAX_MOVES);
    let mut stack_memory = vec![0u8; stack_bytes];
    let config = DfpnConfig {
        epsilon: o.epsilon,
        search_stale_entries: o.search_stale,
        weak_delta: o.weak_delta,
    };
    let mut dfpn = Dfpn::<G>::new(&mut stack_memory, G::MAX_DEPTH, G::MAX_MOVES, config)
        .map_err(|e| e.to_string())?;
    let pns_config = match o.engine {
        Engine::Pn2 => PnsConfig::pn2(o.second_level),
        _ => PnsConfig::PNS,
    };
    let arena_bytes = if o.engine == Engine::Dfpn {
        0
    } else {
        o.arena_mib
            .checked_mul(1 << 20)
            .ok_or("--arena-mib is too large")?
    };
    let mut arena_memory = vec![0u8; arena_bytes];
    let mut pns = match o.engine {
        Engine::Dfpn => None,
        Engine::Pns | Engine::Pn2 => Some(
            Pns::<G>::new(&mut arena_memory, G::MAX_DEPTH, G::MAX_MOVES, pns_config)
                .map_err(|e| format!("--arena-mib: {e}"))?,
        ),
    };
    let work = if o.engine == Engine::Dfpn {
        "MID calls"
    } else {
        "expansions"
    };

    let start = Instant::now();
    let mut clock = || start.elapsed().as_micros() as u64;
    let mut last_report = 0.0f64;
    let interactive = std::io::stderr().is_terminal();
    let quiet = o.quiet;
    let mut report = |p: &Progress| {
        let seconds = start.elapsed().as_secs_f64();
        if quiet || seconds - last_report < PROGRESS_EVERY_S {
            return;
        }
        last_report = seconds;
        let line = format!(
            "  {:.1} s  {} {work}  {}/s  root (φ, δ) = ({}, {})  depth {}",
            seconds,
            count(p.mid_calls),
            count((p.nodes as f64 / seconds) as u64),
            p.root.phi,
            p.root.delta,
            p.max_depth
        );
        show_progress(&line, interactive);
    };
    let stop = AtomicBool::new(false);
    let mut limits = Limits {
        max_nodes: o.max_nodes,
        stop: Some(&stop),
        clock: Some(&mut clock),
        max_time_us: o
            .max_seconds
            .map_or(u64::MAX, |s| (s * 1e6).min(u64::MAX as f64) as u64),
        progress: Some(&mut report),
        ..Limits::default()
    };
    let found = match (pns.as_mut(), o.threads) {
        #[cfg(feature = "std")]
        (None, Some(threads)) => {
            let (found, back) = parallel::solve(&game, question, table, threads, o, &stop, &start)?;
            table = back;
            found
        }
        (Some(pns), _) => match question {
            Question::Value => {
                Found::from_value(pns.solve_value(&mut game, &mut table, &mut limits))
            }
            Question::CanWin(a) => {
                Found::from_search(pns.solve(&mut game, a, &mut table, &mut limits))
            }
        },
        _ => match question {
            Question::Value => {
                Found::from_value(dfpn.solve_value(&mut game, &mut table, &mut limits))
            }
            Question::CanWin(a) => {
                Found::from_search(dfpn.solve(&mut game, a, &mut table, &mut limits))
            }
        },
    };
    let elapsed = start.elapsed().as_secs_f64();
    if interactive && !quiet && last_report > 0.0 {
        eprint!("\r\x1b[K");
    }

    let chooser = if o.threads.is_some() {
        report::Chooser::Work
    } else {
        report::Chooser::Distance
    };
    let code = report::answer(
        &mut dfpn, &mut game, &mut table, question, &found, chooser, o.verify,
    );
    let stats = found.stats;
    println!(
        "{work}: {}   positions: {}   time: {:.3} s   positions/s: {}",
        count(stats.mid_calls),
        count(stats.nodes),
        elapsed,
        count((stats.nodes as f64 / elapsed.max(1e-9)) as u64)
    );
    let t = stats.table;
    println!(
        "table: {} entries, fill {}‰, {} probes, {:.1}% hits, {} stores, {} replaced",
        count(table.capacity() as u64),
        table.fill_per_mille(),
        count(t.probes),
        100.0 * t.hits as f64 / t.probes.max(1) as f64,
        count(t.stores),
        count(t.drops)
    );
    match &pns {
        None if o.threads.is_some() => println!(
            "memory: table {} bytes; the parallel solver also allocates a df-pn stack per worker \
             and its root tree",
            count(table_bytes as u64)
        ),
        None => println!(
            "memory: table {} bytes + stack {} bytes (all the solver uses)",
            count(table_bytes as u64),
            count(stack_bytes as u64)
        ),
        Some(pns) => {
            let a = pns.arena_stats();
            println!(
                "arena: {} nodes of {} bytes, peak {} (last search), {} compactions",
                count(a.capacity as u64),
                Pns::<G>::bytes_per_node(),
                count(a.peak_nodes as u64),
                a.compactions
            );
            println!(
                "memory: table {} bytes + arena {} bytes + df-pn stack {} bytes for the line and check",
                count(table_bytes as u64),
                count(arena_bytes as u64),
                count(stack_bytes as u64)
            );
        }
    }
    Ok(code)
}

/// Prints a progress line: in place on a terminal, one line each otherwise.
fn show_progress(line: &str, interactive: bool) {
    if interactive {
        eprint!("\r{line}\x1b[K");
    } else {
        eprintln!("{line}");
    }
    let _ = std::io::stderr().flush();
}

/// 1234567 → "1,234,567".
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
