//! One run of the command line: the options, the solver's memory, the engine that answers, and
//! the report with its figures.
//!
//! Prints the board, then either the value for the side to move (win, draw or loss: two
//! searches at most) or, with `--attacker`, the answer to "can this side force a win?" (one
//! search); the best move and the principal variation with what each of them is (see
//! [`report`]); and the search's figures: MID calls, positions, positions per
//! second, time, table fill and memory. A progress line shows on long runs
//! ([`progress`]).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Limits, Pns, PnsConfig, Progress};
use proofnum_games::input::{self, QUOTED_CHARS};

use crate::answer::{Found, Question};
use crate::games::{Bundled, WithGame};
use crate::outln;
use crate::progress::{self, ProgressLine};
use crate::report::{self, count};

/// Table memory when `--table-mib` is not given: a budget an embedded engine can spare.
pub const DEFAULT_TABLE_MIB: usize = 64;
/// PNS node arena when `--arena-mib` is not given.
pub const DEFAULT_ARENA_MIB: usize = 256;
/// PN²'s second-level nodes when `--second-level` is not given.
pub const DEFAULT_SECOND_LEVEL: usize = 1 << 20;
/// The confirmation walk's memory of the positions it verified, as a share of the table's
/// bytes: 1/4 (16 bytes a position, so a quarter of the table remembers as many positions as
/// the table holds entries). See `report::CONFIRM_FIGURES` for what it costs.
pub const MEMO_SHARE_OF_TABLE: usize = 4;

/// Exit code for bad input: an unknown game or option, a position that cannot be read (clap
/// uses the same code for the errors it finds).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Which search solves the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Engine {
    /// Depth-first proof-number search with the 1+ε trick.
    Dfpn,
    /// Best-first proof-number search over a node arena.
    Pns,
    /// PN²: best-first search whose leaves are sized by a second-level search.
    Pn2,
}

/// The search options, shared by every game (and by other binaries that flatten them into
/// their own arguments).
#[derive(Args, Clone, Debug)]
pub struct Options {
    /// Ask only "can P force a win?" (one search): P is first, second, X, O (atarigo also
    /// black, white); prints proven or disproven
    #[arg(long, value_name = "P")]
    pub attacker: Option<String>,
    /// Transposition table memory in MiB
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TABLE_MIB)]
    pub table_mib: usize,
    /// The 1+epsilon trick's epsilon, 0 for classic df-pn
    #[arg(long, value_name = "X", default_value = "0.25", value_parser = parse_epsilon, allow_negative_numbers = true)]
    pub epsilon: Epsilon,
    /// Stop after N positions
    #[arg(long = "nodes", value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop after S seconds
    #[arg(long = "seconds", value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub max_seconds: Option<f64>,
    /// Search positions whose table entry was lost even when their numbers already reach their
    /// thresholds (helps when the table is far too small)
    #[arg(long)]
    pub search_stale: bool,
    /// Weak proof numbers against over-counting in DAGs (DfpnConfig::weak_delta): faster on
    /// some positions, far slower on others: measure
    #[arg(long)]
    pub weak_delta: bool,
    /// Keep df-pn's unsolved numbers per path in games with repetitions (DfpnConfig::
    /// share_unsolved off): slower where positions transpose, but termination never rests on ε
    #[arg(long)]
    pub path_keyed_unsolved: bool,
    /// Walk the whole proof again and report the check (every answer is confirmed by such a
    /// walk anyway, unless --no-confirm)
    #[arg(long)]
    pub verify: bool,
    /// Report answers without confirming them: faster, but an answer then rests on the table,
    /// where a false match or two positions the game's hash confuses could make it wrong
    #[arg(long)]
    pub no_confirm: bool,
    /// Write the proof of the answer as a certificate to FILE (a draw's two disproofs to
    /// FILE.first and FILE.second); check it with `proofnum check GAME POSITION FILE`
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<std::path::PathBuf>,
    /// No progress line
    #[arg(long)]
    pub quiet: bool,
    /// The search
    #[arg(long, value_name = "E", value_enum, default_value_t = Engine::Dfpn)]
    pub engine: Engine,
    /// pns, pn2: the node arena in MiB
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ARENA_MIB)]
    pub arena_mib: usize,
    /// pn2: nodes of the second-level region
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SECOND_LEVEL)]
    pub second_level: usize,
    /// Parallel PN-DFPN with N worker threads sharing the table (0: one per core; at most
    /// 1024); df-pn only
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// chess: the attacker may only give check (proves mates by checks only)
    #[arg(long)]
    pub checks_only: bool,
    /// chess: the fifty-move rule (a position whose halfmove clock reached 100 is a draw)
    #[arg(long)]
    pub fifty_move: bool,
}

impl Options {
    /// The checks across options that the parser cannot make.
    pub fn check(&self) -> Result<(), String> {
        if self.threads.is_some() && self.engine != Engine::Dfpn {
            return Err(
                "--threads runs the parallel PN-DFPN: it cannot be combined with --engine pns \
                 or pn2"
                    .into(),
            );
        }
        Ok(())
    }

    /// The df-pn settings these options ask for.
    pub fn dfpn_config(&self) -> DfpnConfig {
        DfpnConfig {
            epsilon: self.epsilon,
            search_stale_entries: self.search_stale,
            weak_delta: self.weak_delta,
            share_unsolved: !self.path_keyed_unsolved,
        }
    }
}

/// ε as a fraction over 1000 (enough precision for a command line).
fn parse_epsilon(s: &str) -> Result<Epsilon, String> {
    // (Not quoted: the parser's message quotes the value, cut short by `parse_error_text`.)
    let x: f64 = s.parse().map_err(|_| "not a number".to_string())?;
    if !(0.0..=16.0).contains(&x) {
        return Err("epsilon must be between 0 and 16".into());
    }
    Ok(Epsilon::new((x * 1000.0).round() as u32, 1000).expect("non-zero denominator"))
}

/// A thread count the parallel solver takes: 0 (one per core) to its `MAX_THREADS`.
fn parse_threads(s: &str) -> Result<usize, String> {
    let max = proofnum::parallel::MAX_THREADS;
    let bound = || format!("threads must be 0 (one per core) to {max}");
    let threads: usize = s.parse().map_err(|_| bound())?;
    if threads > max {
        return Err(bound());
    }
    Ok(threads)
}

/// A time limit: a number of seconds, not negative, that a `Duration` holds (infinity and
/// 1e300 would panic the time limits' `Duration::from_secs_f64`; leave `--seconds` out for no
/// limit).
fn parse_seconds(s: &str) -> Result<f64, String> {
    let seconds: f64 = s.parse().map_err(|_| "not a number".to_string())?;
    if seconds.is_nan() || seconds < 0.0 {
        return Err("seconds must not be negative".into());
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| "too many seconds (leave --seconds out for no limit)".to_string())?;
    Ok(seconds)
}

/// The message of a command-line parse error when it quotes an argument of `args` longer than
/// [`QUOTED_CHARS`]: clap's own text with each such argument (or the value of a
/// `--flag=value`) cut short ([`input::shortened`]), so that a 100 KB argument does not
/// make a 100 KB message. `None` otherwise: print the error as clap does (in colour on a
/// terminal).
pub fn parse_error_text(error: &clap::Error, args: &[String]) -> Option<String> {
    let mut long: Vec<&str> = Vec::new();
    for arg in args {
        let value = arg
            .strip_prefix("--")
            .and_then(|flag| flag.split_once('='))
            .map(|(_, value)| value);
        for text in [Some(arg.as_str()), value].into_iter().flatten() {
            if text.chars().nth(QUOTED_CHARS).is_some() {
                long.push(text);
            }
        }
    }
    if long.is_empty() {
        return None;
    }
    // The whole argument before its value, which is part of it.
    long.sort_by_key(|text| core::cmp::Reverse(text.len()));
    let mut text = error.render().to_string();
    for arg in long {
        text = text.replace(arg, &input::shortened(arg));
    }
    Some(text)
}

/// `mib` MiB in bytes, for the option `flag`.
pub fn mib_to_bytes(flag: &str, mib: usize) -> Result<usize, String> {
    mib.checked_mul(1 << 20)
        .ok_or_else(|| format!("{flag} {mib}: more memory than this machine can address"))
}

/// A zeroed buffer of `bytes` for the option `flag`: a size the allocator refuses is bad input
/// (exit code 2 with a message), not an abort. The allocator is asked first without touching
/// the memory, then `proofnum::memory::table_memory` takes zeroed pages the system hands out
/// lazily, advised for huge pages (a large table's probes then stop walking page tables).
pub fn zeroed_buffer(flag: &str, bytes: usize) -> Result<Vec<u8>, String> {
    check_allocatable(flag, bytes)?;
    Ok(proofnum::memory::table_memory(bytes))
}

/// A zeroed buffer of `words` 64-bit words for the option `flag` (as [`zeroed_buffer`]).
pub fn zeroed_words(flag: &str, words: usize) -> Result<Vec<u64>, String> {
    check_allocatable(flag, words.saturating_mul(8))?;
    Ok(vec![0u64; words])
}

/// Whether the allocator can give `bytes` now, for the option `flag`, whose memory is
/// allocated elsewhere (the chess mate search's table).
pub fn check_allocatable(flag: &str, bytes: usize) -> Result<(), String> {
    Vec::<u8>::new()
        .try_reserve_exact(bytes)
        .map_err(|_| format!("{flag}: cannot allocate {} bytes", count(bytes as u64)))
}

/// Solves one position with [`Options`]: the command line's run, for
/// [`with_game`](crate::games::with_game).
pub struct Solve<'a>(pub &'a Options);

impl WithGame for Solve<'_> {
    type Output = Result<ExitCode, String>;

    fn run<G: Bundled>(self, position: &str) -> Self::Output {
        run::<G>(position, self.0)
    }
}

/// Reads the position, solves it and prints the report; an `Err` is bad input.
fn run<G: Bundled>(position: &str, o: &Options) -> Result<ExitCode, String> {
    let mut game = G::parse(position).map_err(|e| format!("{} position: {e}", G::title()))?;
    let question = Question::asked::<G>(o.attacker.as_deref())?;

    // All of the solver's memory, given up front.
    let table_bytes = mib_to_bytes("--table-mib", o.table_mib)?;
    let mut table_memory = zeroed_buffer("--table-mib", table_bytes)?;
    let mut table = Table::new(&mut table_memory).map_err(|e| format!("--table-mib: {e}"))?;
    let stack_bytes = Dfpn::<G>::stack_bytes(G::MAX_DEPTH, G::MAX_MOVES);
    let mut stack_memory = vec![0u8; stack_bytes];
    let mut dfpn = Dfpn::<G>::new(
        &mut stack_memory,
        G::MAX_DEPTH,
        G::MAX_MOVES,
        o.dfpn_config(),
    )
    .map_err(|e| e.to_string())?;
    // The confirmation walk's memory (none with --no-confirm and no walk asked for).
    let walks = !o.no_confirm || o.verify || o.certificate.is_some();
    let memo_bytes = if walks {
        table_bytes / MEMO_SHARE_OF_TABLE
    } else {
        0
    };
    let mut memo = zeroed_words("--table-mib", memo_bytes / 8)?;
    let pns_config = match o.engine {
        Engine::Pn2 => PnsConfig::pn2(o.second_level),
        _ => PnsConfig::PNS,
    };
    let arena_bytes = if o.engine == Engine::Dfpn {
        0
    } else {
        mib_to_bytes("--arena-mib", o.arena_mib)?
    };
    let mut arena_memory = zeroed_buffer("--arena-mib", arena_bytes)?;
    let mut pns = match o.engine {
        Engine::Dfpn => None,
        Engine::Pns | Engine::Pn2 => Some(
            Pns::<G>::new(&mut arena_memory, G::MAX_DEPTH, G::MAX_MOVES, pns_config)
                .map_err(|e| format!("--arena-mib: {e}"))?,
        ),
    };
    // Printed once the input is known to be good: bad input prints nothing on stdout.
    report::position(&game);
    let work = if o.engine == Engine::Dfpn {
        report::Work::MidCalls
    } else {
        report::Work::Expansions
    };

    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let found = match (pns.as_mut(), o.threads) {
        (None, Some(threads)) => {
            let (found, back) = crate::parallel::solve(
                &game, question, table, &mut memo, threads, o, &stop, &start,
            )?;
            table = back;
            found
        }
        (pns, _) => {
            let mut clock = || start.elapsed().as_micros() as u64;
            let mut line = ProgressLine::new(o.quiet);
            let mut show = |p: &Progress| {
                let seconds = start.elapsed().as_secs_f64();
                line.show(seconds, || progress::serial(p, work, seconds));
            };
            let mut limits = Limits {
                max_nodes: o.max_nodes.unwrap_or(u64::MAX),
                stop: Some(&stop),
                clock: Some(&mut clock),
                max_time_us: o
                    .max_seconds
                    .map_or(u64::MAX, |s| (s * 1e6).min(u64::MAX as f64) as u64),
                progress: Some(&mut show),
                ..Limits::default()
            };
            let (g, t, m, l) = (&mut game, &mut table, &mut memo[..], &mut limits);
            let found = match (pns, question, o.no_confirm) {
                (Some(pns), Question::Value, true) => Found::from_value(pns.solve_value(g, t, l)),
                (Some(pns), Question::CanWin(a), true) => Found::from_search(pns.solve(g, a, t, l)),
                (None, Question::Value, true) => Found::from_value(dfpn.solve_value(g, t, l)),
                (None, Question::CanWin(a), true) => Found::from_search(dfpn.solve(g, a, t, l)),
                (Some(pns), Question::Value, false) => {
                    Found::from_value(pns.solve_value_confirmed(&mut dfpn, g, t, m, l))
                }
                (Some(pns), Question::CanWin(a), false) => {
                    Found::from_search(pns.solve_confirmed(&mut dfpn, g, a, t, m, l))
                }
                (None, Question::Value, false) => {
                    Found::from_value(dfpn.solve_value_confirmed(g, t, m, l))
                }
                (None, Question::CanWin(a), false) => {
                    Found::from_search(dfpn.solve_confirmed(g, a, t, m, l))
                }
            };
            line.finish();
            found
        }
    };
    let elapsed = start.elapsed().as_secs_f64();

    let chooser = if o.threads.is_some() {
        report::Chooser::Work
    } else {
        report::Chooser::Distance
    };
    let mut code = report::answer(
        &mut dfpn, &mut game, &mut table, question, &found, chooser, o.verify,
    );
    if let (Some(path), Ok(answer)) = (&o.certificate, found.answer) {
        let written = report::certificates(&game, &mut table, &mut memo, question, answer, path);
        if let Err(e) = written {
            eprintln!("error: {e}");
            code = ExitCode::from(report::EXIT_UNKNOWN);
        }
    }
    report::figures(work, &found.stats, elapsed, &table);
    match &pns {
        None if o.threads.is_some() => outln!(
            "memory: table {} bytes; the parallel solver also allocates a df-pn stack per worker \
             and its root tree",
            count(table_bytes as u64)
        ),
        None => outln!(
            "memory: table {} bytes + stack {} bytes + confirmation memo {} bytes (all the \
             solver uses)",
            count(table_bytes as u64),
            count(stack_bytes as u64),
            count(memo_bytes as u64)
        ),
        Some(pns) => {
            let a = pns.arena_stats();
            outln!(
                "arena: {} nodes of {} bytes, peak {} (last search), {} compactions",
                count(a.capacity as u64),
                Pns::<G>::bytes_per_node(),
                count(a.peak_nodes as u64),
                a.compactions
            );
            outln!(
                "memory: table {} bytes + arena {} bytes + df-pn stack {} bytes for the line and check",
                count(table_bytes as u64),
                count(arena_bytes as u64),
                count(stack_bytes as u64)
            );
        }
    }
    Ok(code)
}
