//! Solve a position of any bundled game from the command line.
//!
//! ```sh
//! cargo run --release --example solve -- connect4 4453
//! cargo run --release --example solve -- tictactoe 40 --verify
//! cargo run --release --example solve -- connect4 "" --table-mib 512 --nodes 100000000
//! cargo run --release --example solve -- connect4 647262774144 --engine pns --arena-mib 512
//! cargo run --release --features std --example solve -- connect4 4453 --threads 2
//! ```
//!
//! Prints the value for the side to move, the best move, the principal variation, and the
//! search's figures: MID calls, positions, positions per second, time, table fill and memory.
//! A progress line shows on long runs. `--help` lists the options.

use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use proofnum::table::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Game, Limits, Pns, PnsConfig, Progress, Status, Value};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::tictactoe::TicTacToe;

/// Table memory when `--table-mib` is not given: a budget an embedded engine can spare.
const DEFAULT_TABLE_MIB: usize = 64;
/// PNS node arena when `--arena-mib` is not given.
const DEFAULT_ARENA_MIB: usize = 256;
/// PN²'s second-level nodes when `--second-level` is not given.
const DEFAULT_SECOND_LEVEL: usize = 1 << 20;
/// Seconds between progress lines.
const PROGRESS_EVERY_S: f64 = 1.0;

const USAGE: &str = "\
usage: solve <game> [position] [options]

games and positions:
  connect4   1-based columns played so far, e.g. 4453 (empty: the start)
  tictactoe  cells 0..8 played so far, e.g. 40

options:
  --table-mib N   transposition table memory in MiB (default 64)
  --epsilon X     the 1+epsilon trick's epsilon, 0 for classic df-pn (default 0.25)
  --nodes N       stop after N positions
  --seconds S     stop after S seconds
  --search-stale  search positions whose table entry was lost even when their numbers
                  already reach their thresholds (helps when the table is far too small)
  --verify        walk the whole proof again and report the check
  --quiet         no progress line
  --engine E      dfpn (default), pns (best-first proof-number search) or pn2 (PN²)
  --arena-mib N   pns, pn2: the node arena in MiB (default 256)
  --second-level N  pn2: nodes of the second-level region (default 1048576)
  --threads N     parallel PN-DFPN with N worker threads sharing the table (0: one per
                  core); needs a build with the std feature (--features std)

The principal variation and --verify use df-pn over the table whichever engine solved.
";

/// Which search solves the position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Engine {
    Dfpn,
    Pns,
    Pn2,
}

/// What the command line needs to know about a game.
trait Bundled: Game<Move: Send> + Clone + Send + Display + Sized {
    /// The game's name in messages.
    const TITLE: &'static str;
    /// Longest line, in plies, the stack must hold.
    const MAX_DEPTH: usize;
    /// Most moves in a position.
    const MAX_MOVES: usize;
    fn parse(position: &str) -> Result<Self, String>;
    fn show_move(mv: Self::Move) -> String;
}

impl Bundled for ConnectFour {
    const TITLE: &'static str = "Connect Four";
    const MAX_DEPTH: usize = 42;
    const MAX_MOVES: usize = 7;
    fn parse(position: &str) -> Result<Self, String> {
        ConnectFour::from_moves(position).map_err(|e| e.to_string())
    }
    fn show_move(mv: Self::Move) -> String {
        mv.to_string()
    }
}

impl Bundled for TicTacToe {
    const TITLE: &'static str = "Tic-tac-toe";
    const MAX_DEPTH: usize = 9;
    const MAX_MOVES: usize = 9;
    fn parse(position: &str) -> Result<Self, String> {
        position
            .parse()
            .map_err(|e: proofnum_games::tictactoe::ParseError| e.to_string())
    }
    fn show_move(mv: u8) -> String {
        mv.to_string()
    }
}

struct Options {
    table_mib: usize,
    epsilon: Epsilon,
    max_nodes: u64,
    max_seconds: Option<f64>,
    verify: bool,
    quiet: bool,
    search_stale: bool,
    engine: Engine,
    arena_mib: usize,
    second_level: usize,
    threads: Option<usize>,
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
        engine: Engine::Dfpn,
        arena_mib: DEFAULT_ARENA_MIB,
        second_level: DEFAULT_SECOND_LEVEL,
        threads: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .cloned()
        };
        match arg.as_str() {
            "--table-mib" => {
                o.table_mib = value(arg)?
                    .parse()
                    .map_err(|_| "--table-mib takes a whole number".to_string())?
            }
            "--epsilon" => o.epsilon = parse_epsilon(&value(arg)?)?,
            "--nodes" => {
                o.max_nodes = value(arg)?
                    .parse()
                    .map_err(|_| "--nodes takes a whole number".to_string())?
            }
            "--seconds" => {
                let s: f64 = value(arg)?
                    .parse()
                    .map_err(|_| "--seconds takes a number".to_string())?;
                o.max_seconds = Some(s);
            }
            "--engine" => {
                o.engine = match value(arg)?.as_str() {
                    "dfpn" => Engine::Dfpn,
                    "pns" => Engine::Pns,
                    "pn2" => Engine::Pn2,
                    other => return Err(format!("--engine takes dfpn, pns or pn2, got {other:?}")),
                }
            }
            "--arena-mib" => {
                o.arena_mib = value(arg)?
                    .parse()
                    .map_err(|_| "--arena-mib takes a whole number".to_string())?
            }
            "--second-level" => {
                o.second_level = value(arg)?
                    .parse()
                    .map_err(|_| "--second-level takes a whole number".to_string())?
            }
            "--threads" => {
                if !cfg!(feature = "std") {
                    return Err("--threads needs a build with --features std".into());
                }
                o.threads = Some(
                    value(arg)?
                        .parse()
                        .map_err(|_| "--threads takes a whole number".to_string())?,
                );
            }
            "--verify" => o.verify = true,
            "--search-stale" => o.search_stale = true,
            "--quiet" => o.quiet = true,
            other => return Err(format!("unknown option {other:?}")),
        }
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return if args.is_empty() {
            ExitCode::from(2)
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
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let outcome = match game {
        "connect4" => run::<ConnectFour>(position, &options),
        "tictactoe" => run::<TicTacToe>(position, &options),
        other => Err(format!("unknown game {other:?}")),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run<G: Bundled>(position: &str, o: &Options) -> Result<ExitCode, String> {
    let mut game = G::parse(position)?;
    let mover = game.side_to_move();
    println!("{}, {:?} player to move:\n{game}", G::TITLE, mover);

    // All of the solver's memory, given up front.
    let table_bytes = o
        .table_mib
        .checked_mul(1 << 20)
        .ok_or("--table-mib is too large")?;
    let mut table_memory = vec![0u8; table_bytes];
    let mut table = Table::new(&mut table_memory).map_err(|e| e.to_string())?;
    let stack_bytes = Dfpn::<G>::stack_bytes(G::MAX_DEPTH, G::MAX_MOVES);
    let mut stack_memory = vec![0u8; stack_bytes];
    let config = DfpnConfig {
        epsilon: o.epsilon,
        search_stale_entries: o.search_stale,
        ..DfpnConfig::default()
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
    let result = match (pns.as_mut(), o.threads) {
        #[cfg(feature = "std")]
        (None, Some(threads)) => {
            let (result, back) = parallel::solve_value(&game, table, threads, o, &stop, &start)?;
            table = back;
            result
        }
        (Some(pns), _) => pns.solve_value(&mut game, &mut table, &mut limits),
        _ => dfpn.solve_value(&mut game, &mut table, &mut limits),
    };
    let elapsed = start.elapsed().as_secs_f64();
    if interactive && !quiet && last_report > 0.0 {
        eprint!("\r\x1b[K");
    }

    let stats = result.stats;
    let code = match result.value {
        Ok(value) => {
            let who = match value {
                Value::Win => format!("win for {mover:?}"),
                Value::Loss => format!("win for {:?}", mover.opponent()),
                Value::Draw => "draw".to_string(),
            };
            println!("value: {value:?} for the side to move ({who})");
            if let Some(mv) = result.best_move {
                println!("best move: {}", G::show_move(mv));
            }
            // The line, and optionally the proof check, for the winner (for the side to move's
            // failure to win when it is a draw).
            let (attacker, claim) = match value {
                Value::Win => (mover, Status::Proven),
                Value::Loss => (mover.opponent(), Status::Proven),
                Value::Draw => (mover, Status::Disproven),
            };
            let mut line = vec![G::Move::default(); G::MAX_DEPTH];
            let pv = dfpn.principal_variation(
                &mut game,
                attacker,
                &mut table,
                &mut line,
                &mut Limits::default(),
            );
            let moves: Vec<String> = line[..pv.len].iter().map(|&m| G::show_move(m)).collect();
            println!("principal variation: {}", moves.join(" "));
            if o.verify {
                let check_start = Instant::now();
                let mut memo = vec![0u64; 1 << 22];
                let check = dfpn.verify(
                    &mut game,
                    attacker,
                    claim,
                    &mut table,
                    &mut memo,
                    &mut Limits::default(),
                );
                println!(
                    "proof check: {:?} ({} positions walked, {} searched again, {:.2} s)",
                    check.verdict,
                    count(check.stats.nodes),
                    check.stats.searches,
                    check_start.elapsed().as_secs_f64()
                );
            }
            ExitCode::SUCCESS
        }
        Err(reason) => {
            println!("value: unknown ({reason})");
            ExitCode::from(1)
        }
    };
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

/// The parallel solver (`--threads`), over the same table memory.
#[cfg(feature = "std")]
mod parallel {
    use super::*;
    use proofnum::table::SharedTable;
    use proofnum::{
        ParallelConfig, ParallelLimits, ParallelProgress, ParallelSolver, Stats, ValueResult,
    };
    use std::time::Duration;

    /// Solves the value with `threads` workers; hands the table back for the line and check.
    pub(super) fn solve_value<'t, G: Bundled + Clone + Send>(
        game: &G,
        table: Table<'t>,
        threads: usize,
        o: &Options,
        stop: &AtomicBool,
        start: &Instant,
    ) -> Result<(ValueResult<G::Move>, Table<'t>), String>
    where
        G::Move: Send,
    {
        let solver = ParallelSolver::new(ParallelConfig {
            threads,
            dfpn: DfpnConfig {
                epsilon: o.epsilon,
                search_stale_entries: o.search_stale,
                ..DfpnConfig::default()
            },
            max_depth: G::MAX_DEPTH,
            max_moves: G::MAX_MOVES,
            ..ParallelConfig::default()
        })
        .map_err(|e| e.to_string())?;
        let quiet = o.quiet;
        let interactive = std::io::stderr().is_terminal();
        let mut last_report = 0.0f64;
        let mut report = |p: &ParallelProgress| {
            let seconds = p.elapsed.as_secs_f64();
            if quiet || seconds - last_report < PROGRESS_EVERY_S {
                return;
            }
            last_report = seconds;
            let line = format!(
                "  {:.1} s  {} MID calls  {}/s  {} jobs  tree {}  root (φ, δ) = ({}, {})",
                seconds,
                count(p.mid_calls),
                count((p.nodes as f64 / seconds) as u64),
                count(p.jobs),
                count(p.tree_nodes as u64),
                p.root.phi,
                p.root.delta
            );
            show_progress(&line, interactive);
        };
        let shared = SharedTable::from_table(table);
        let mut limits = ParallelLimits {
            max_nodes: o.max_nodes,
            stop: Some(stop),
            max_time: o.max_seconds.map(Duration::from_secs_f64),
            progress: Some(&mut report),
            ..ParallelLimits::none()
        };
        let r = solver.solve_value(game, &shared, &mut limits);
        if interactive && !quiet && last_report > 0.0 {
            eprint!("\r\x1b[K");
        }
        let s = r.stats;
        println!(
            "parallel: {} threads, {} jobs, root tree peak {} nodes, workers idle {:.1}%, tree locked {:.2}% of the time ({:.3} s since start)",
            s.threads,
            count(s.jobs),
            count(s.tree_nodes_peak as u64),
            100.0 * s.worker_idle_share,
            100.0 * s.coordinator_busy_share,
            start.elapsed().as_secs_f64()
        );
        let stats = Stats {
            mid_calls: s.mid_calls,
            nodes: s.nodes,
            max_depth: s.max_depth,
            repetitions: s.repetitions,
            table: s.table,
            elapsed_us: Some(s.elapsed.as_micros() as u64),
        };
        Ok((
            ValueResult {
                value: r.value,
                best_move: r.best_move,
                stats,
            },
            shared.into_table(),
        ))
    }
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
