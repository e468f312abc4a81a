//! Soak test of the parallel solver, run on demand (not in CI): thousands of solves of random
//! games on 2 to 8 threads with random stops, limits and games that panic, for a given time.
//!
//! ```sh
//! cargo run --release --features std --example soak -- --minutes 5
//! ```
//!
//! Options: `--minutes N` (default 2), `--seed N` (default from the clock), `--hang-seconds N`
//! (default 60).
//!
//! Each solve is a random tree, DAG or cyclic graph (the generator and the brute-force oracle of
//! `tests/common`), a random thread count, job budget, table size and ε, and one of:
//! - no limit: the value must equal brute force;
//! - a node or work budget, a time limit, or a stop set by another thread after a random
//!   delay: the value must equal brute force, or be unknown for that very reason;
//! - a game that panics after a random number of moves: the panic must reach the caller (or,
//!   when the search ends before the panic, the value must be right).
//!
//! It counts wrong answers (a value that differs from brute force, or an unknown value for a
//! reason the solve did not set up), hangs (a watchdog thread aborts the process when no solve
//! finished for `--hang-seconds`) and leaks (resident memory from `/proc/self/statm`, sampled
//! after every 100 solves: the growth after the first tenth of the run is reported). It exits
//! non-zero on a wrong answer, a hang, or growth above 64 MiB.

#[path = "../tests/common/mod.rs"]
mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{BY_POSITION, DRAW, Graph, GraphGame, Rng, Shape};
use proofnum::{
    DfpnConfig, Epsilon, Game, MoveList, Numbers, Outcome, ParallelConfig, ParallelLimits,
    ParallelSolver, Player, Reason, RepetitionRule, Value,
};
use proofnum::{SharedTable, Table};

/// The message of the planned panics (the panic hook keeps them quiet).
const PLANNED_PANIC: &str = "soak: the game panics as planned";
/// The watchdog's count of finished solves once the run is over.
const RUN_OVER: u64 = u64::MAX;
/// Resident memory growth, after the first tenth of the run, taken as a leak.
const LEAK_BYTES: u64 = 64 << 20;

/// A graph game that panics once a shared countdown of moves runs out.
#[derive(Clone)]
struct Panicking<'g, const RULE: u8> {
    inner: GraphGame<'g, RULE>,
    moves_left: &'g AtomicU32,
}

impl<const RULE: u8> Game for Panicking<'_, RULE> {
    type Move = u64;
    const REPETITION_RULE: RepetitionRule = <GraphGame<RULE> as Game>::REPETITION_RULE;
    fn side_to_move(&self) -> Player {
        self.inner.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn outcome(&self) -> Outcome {
        self.inner.outcome()
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u64>) {
        self.inner.generate_moves(moves)
    }
    fn play(&mut self, mv: u64) {
        if self.moves_left.fetch_sub(1, Ordering::Relaxed) == 1 {
            panic!("{PLANNED_PANIC}");
        }
        self.inner.play(mv)
    }
    fn undo(&mut self, mv: u64) {
        self.inner.undo(mv)
    }
    fn estimate(&self) -> Numbers {
        self.inner.estimate()
    }
    fn repetition_value(&self) -> Value {
        self.inner.repetition_value()
    }
    fn no_moves_value(&self) -> Value {
        self.inner.no_moves_value()
    }
}

/// What one solve was set up to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    Plain,
    Nodes,
    Work,
    Time,
    Stop,
    Panic,
}

#[derive(Default, Debug)]
struct Counts {
    solves: u64,
    answered: u64,
    unknown_as_set_up: u64,
    panics_caught: u64,
    wrong: u64,
}

struct Options {
    minutes: f64,
    seed: u64,
    hang_seconds: u64,
}

fn parse() -> Options {
    let mut o = Options {
        minutes: 2.0,
        seed: common::seed(),
        hang_seconds: 60,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .unwrap_or_else(|| panic!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--minutes" => o.minutes = value.parse().expect("--minutes N"),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            "--hang-seconds" => o.hang_seconds = value.parse().expect("--hang-seconds N"),
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    o
}

/// Resident memory in bytes (`/proc/self/statm`'s second field, in pages of 4 KiB).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0)
        * 4096
}

fn main() {
    let options = parse();
    println!(
        "soak: seed {} for {} minutes",
        options.seed, options.minutes
    );
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let planned = info
            .payload()
            .downcast_ref::<String>()
            .is_some_and(|m| m == PLANNED_PANIC);
        if !planned {
            default_hook(info);
        }
    }));

    // The watchdog: a solve that does not finish within `hang_seconds` is a hang.
    let finished = AtomicU64::new(0);
    let hang = Duration::from_secs(options.hang_seconds);
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(options.minutes * 60.0);
    let mut rng = Rng::new(options.seed);
    let mut counts = Counts::default();
    let mut rss_after_warm_up = None;
    let mut rss_max = 0;
    std::thread::scope(|s| {
        let finished = &finished;
        s.spawn(move || {
            let mut last = (0, Instant::now());
            loop {
                std::thread::sleep(Duration::from_secs(1));
                let now = finished.load(Ordering::Relaxed);
                if now == RUN_OVER {
                    return;
                }
                if now != last.0 {
                    last = (now, Instant::now());
                } else if last.1.elapsed() > hang {
                    eprintln!("soak: HANG: no solve finished for {hang:?} (after {now} solves)");
                    std::process::exit(2);
                }
            }
        });
        while Instant::now() < deadline {
            let context = format!("seed {} solve {}", options.seed, counts.solves);
            one_solve(&mut rng, &mut counts, &context);
            counts.solves += 1;
            finished.store(counts.solves, Ordering::Relaxed);
            if counts.solves % 100 == 0 {
                let rss = resident_bytes();
                rss_max = rss_max.max(rss);
                if rss_after_warm_up.is_none() && start.elapsed() > (deadline - start) / 10 {
                    rss_after_warm_up = Some(rss);
                }
                if counts.solves % 2000 == 0 {
                    println!(
                        "soak: {:>6} solves, {} wrong, resident {} MiB, {:.0} s",
                        counts.solves,
                        counts.wrong,
                        rss >> 20,
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
        finished.store(RUN_OVER, Ordering::Relaxed);
    });
    let rss_end = resident_bytes();
    let warm = rss_after_warm_up.unwrap_or(rss_end);
    let growth = rss_end.saturating_sub(warm);
    println!("soak: {counts:?}");
    println!(
        "soak: resident memory {} MiB after the first tenth, {} MiB at the end, {} MiB at most; growth {} KiB",
        warm >> 20,
        rss_end >> 20,
        rss_max.max(rss_end) >> 20,
        growth >> 10
    );
    if counts.wrong > 0 || growth > LEAK_BYTES {
        eprintln!(
            "soak: FAILED ({} wrong answers, {} KiB growth)",
            counts.wrong,
            growth >> 10
        );
        std::process::exit(1);
    }
    println!(
        "soak: passed: {} solves, 0 wrong, no hang, no leak",
        counts.solves
    );
}

fn one_solve(rng: &mut Rng, counts: &mut Counts, context: &str) {
    let shape = [Shape::Tree, Shape::Dag, Shape::Cyclic][rng.below(3) as usize];
    let graph = Graph::random(rng, shape);
    // Trees and DAGs under the draw rule; cyclic graphs under the draw or by-position rule.
    let by_position = shape == Shape::Cyclic && rng.chance(50);
    let value = graph.oracle_value(by_position, context);
    let config = ParallelConfig {
        threads: 2 + rng.below(7) as usize,
        job_work: [1, 3, 10, 100][rng.below(4) as usize],
        split_work: [0, 2, 20, 200][rng.below(4) as usize],
        dfpn: DfpnConfig {
            epsilon: if rng.chance(50) {
                Epsilon::ZERO
            } else {
                Epsilon::QUARTER
            },
            search_stale_entries: rng.chance(20),
            weak_delta: rng.chance(30),
            share_unsolved: false, // can loop: see DfpnConfig::share_unsolved
        },
        job_thresholds: rng.chance(70),
        max_depth: 64,
        max_moves: 8,
    };
    let scenario = [
        Scenario::Plain,
        Scenario::Nodes,
        Scenario::Work,
        Scenario::Time,
        Scenario::Stop,
        Scenario::Panic,
    ][rng.below(6) as usize];
    let buckets = [1, 4, 64, 4096][rng.below(4) as usize];
    let knob = rng.next_u64();
    if by_position {
        solve::<BY_POSITION>(
            &graph, value, config, scenario, buckets, knob, counts, context,
        );
    } else {
        solve::<DRAW>(
            &graph, value, config, scenario, buckets, knob, counts, context,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn solve<const RULE: u8>(
    graph: &Graph,
    value: Value,
    config: ParallelConfig,
    scenario: Scenario,
    buckets: usize,
    knob: u64,
    counts: &mut Counts,
    context: &str,
) {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let table = SharedTable::new(&mut memory).unwrap();
    let solver = ParallelSolver::new(config).unwrap();
    let stop = AtomicBool::new(false);
    let moves_left = AtomicU32::new(1 + (knob % 200) as u32);
    let mut limits = ParallelLimits::none();
    match scenario {
        Scenario::Nodes => limits.max_nodes = knob % 300,
        Scenario::Work => limits.max_work = knob % 100,
        Scenario::Time => limits.max_time = Some(Duration::from_micros(knob % 2000)),
        Scenario::Stop => limits.stop = Some(&stop),
        Scenario::Plain | Scenario::Panic => {}
    }
    let game = GraphGame::<RULE>::new(graph);
    let result = std::thread::scope(|s| {
        if scenario == Scenario::Stop {
            let stop = &stop;
            s.spawn(move || {
                std::thread::sleep(Duration::from_micros(knob % 3000));
                stop.store(true, Ordering::Relaxed);
            });
        }
        if scenario == Scenario::Panic {
            let game = Panicking {
                inner: game.clone(),
                moves_left: &moves_left,
            };
            catch_unwind(AssertUnwindSafe(|| {
                solver.solve_value(&game, &table, &mut limits).value
            }))
        } else {
            Ok(solver.solve_value(&game, &table, &mut limits).value)
        }
    });
    let set_up_reason = match scenario {
        Scenario::Nodes => Some(Reason::NodeLimit),
        Scenario::Work => Some(Reason::WorkLimit),
        Scenario::Time => Some(Reason::TimeLimit),
        Scenario::Stop => Some(Reason::Stopped),
        Scenario::Plain | Scenario::Panic => None,
    };
    match result {
        Ok(Ok(v)) if v == value => counts.answered += 1,
        Ok(Err(reason)) if Some(reason) == set_up_reason => counts.unknown_as_set_up += 1,
        Err(payload) if scenario == Scenario::Panic => {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .unwrap_or("");
            if message == PLANNED_PANIC {
                counts.panics_caught += 1;
            } else {
                counts.wrong += 1;
                eprintln!("soak: WRONG: {context}: another panic reached the caller: {message:?}");
            }
        }
        other => {
            counts.wrong += 1;
            eprintln!(
                "soak: WRONG: {context}: {other:?} for oracle value {value:?} ({scenario:?}, {buckets} buckets, {config:?})\n{graph:?}"
            );
        }
    }
}
