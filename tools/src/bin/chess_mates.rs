//! The chess knowledge, measured: the mate suite `games/suites/chess-mates-random.epd` (mates in 2 to 8,
//! Stockfish-verified) proved with df-pn under each knowledge setting, printing per setting the
//! positions proved, MID calls, positions evaluated, time and positions per second (medians over
//! `--runs`), and with `--distance` the cost of making each mate distance exact.
//!
//! ```sh
//! cargo run --release -p proofnum-tools --bin chess_mates                    # all knowledge, then each rule off, then none
//! cargo run --release -p proofnum-tools --bin chess_mates -- --runs 1 --cap 5
//! cargo run --release -p proofnum-tools --bin chess_mates -- --distance      # mate in N: proof, line, exactness
//! cargo run --release -p proofnum-tools --bin chess_mates -- --checks-only   # the attacker may only give check
//! ```
//!
//! Options: `--help` (the suite, runs, cap per position, table size, one line per position,
//! the default knowledge only, mate-in-one detection for the attacker only).

use std::time::{Duration, Instant};

use clap::Parser;

use proofnum::{Dfpn, Game, Limits, Status, Table};
use proofnum_games::chess::mate::{Exactness, MateConfig, solve_mate};
use proofnum_games::chess::{Chess, Knowledge, MAX_MOVES};

const SUITE: &str = include_str!("../../../games/suites/chess-mates-random.epd");

/// Stack depth for the proofs (plies).
const MAX_PLIES: usize = 600;

/// The chess knowledge, measured on a mate suite.
#[derive(Parser)]
#[command(name = "chess_mates")]
struct Options {
    /// Runs per setting (medians are reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Seconds per position (a capped position counts as unproved; its figures still add up).
    #[arg(long = "cap", default_value_t = 10.0)]
    cap_s: f64,
    /// The transposition table, MiB.
    #[arg(long, default_value_t = 64)]
    table_mib: usize,
    /// Mate in N: proof, line, exactness.
    #[arg(long)]
    distance: bool,
    /// The attacker may only give check.
    #[arg(long)]
    checks_only: bool,
    /// One line per position.
    #[arg(long)]
    verbose: bool,
    /// Another EPD suite (its `bm #N` lines with N from 2 to 8) instead of
    /// games/suites/chess-mates-random.epd.
    #[arg(long)]
    suite: Option<String>,
    /// Mate-in-one detection where the attacker is to move only (`Chess::set_attacker`).
    #[arg(long)]
    attacker_mates_only: bool,
    /// Only the default knowledge, not each rule off in turn.
    #[arg(long)]
    default_only: bool,
}

impl Options {
    fn cap(&self) -> Duration {
        Duration::from_secs_f64(self.cap_s)
    }
}

/// One suite line: the position and the mate distance it is known to have.
struct Position {
    fen: String,
    mate_in: u32,
    id: String,
}

/// The lines of an EPD suite with `bm #N`, N from 2 to 8 (the side to move mates).
fn suite(text: &str) -> Vec<Position> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let (fen, ops) = line.split_once(" bm #")?;
            let (n, rest) = ops.split_once(';')?;
            let mate_in: i32 = n.trim().parse().ok()?;
            let id = rest.split("id \"").nth(1)?.split('"').next()?.to_string();
            (2..=8).contains(&mate_in).then(|| Position {
                fen: fen.to_string(),
                mate_in: mate_in as u32,
                id,
            })
        })
        .collect()
}

/// Totals of one pass over the suite.
#[derive(Clone, Copy, Default)]
struct Totals {
    proved: usize,
    mid_calls: u64,
    nodes: u64,
    seconds: f64,
}

fn prove_all(positions: &[Position], knowledge: Knowledge, options: &Options) -> Totals {
    let mut table_bytes = proofnum_tools::timed_table_memory(options.table_mib << 20);
    let mut stack = vec![0u8; Dfpn::<Chess>::stack_bytes(MAX_PLIES, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<Chess>::new(&mut stack, MAX_PLIES, MAX_MOVES, Default::default()).unwrap();
    let mut totals = Totals::default();
    for p in positions {
        let mut table = Table::new(&mut table_bytes).unwrap();
        let mut chess = Chess::from_fen(&p.fen).unwrap().with_knowledge(knowledge);
        let attacker = chess.side_to_move();
        if options.checks_only {
            chess = chess.with_checks_only(attacker);
        }
        if options.attacker_mates_only {
            chess.set_attacker(Some(attacker));
        }
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: options.cap().as_micros() as u64,
            ..Limits::none()
        };
        let result = dfpn.solve(&mut chess, attacker, &mut table, &mut limits);
        let seconds = start.elapsed().as_secs_f64();
        if options.verbose {
            println!(
                "  {:<10} #{} {:<12} MID calls {:>10}  positions {:>11}  {:>8.3} s",
                p.id,
                p.mate_in,
                result.status.to_string(),
                result.stats.mid_calls,
                result.stats.nodes,
                seconds
            );
        }
        totals.proved += usize::from(result.status == Status::Proven);
        totals.mid_calls += result.stats.mid_calls;
        totals.nodes += result.stats.nodes;
        totals.seconds += seconds;
    }
    totals
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn ablation(positions: &[Position], options: &Options) {
    let mut settings = vec![("all".to_string(), Knowledge::ALL)];
    for (name, rule) in Knowledge::EACH.iter().filter(|_| !options.default_only) {
        settings.push((format!("all but {name}"), Knowledge::ALL.without(*rule)));
    }
    if !options.default_only {
        for (name, rule) in Knowledge::EACH {
            settings.push((format!("only {name}"), rule));
        }
        settings.push(("none".to_string(), Knowledge::NONE));
    }
    println!(
        "{} positions, cap {:.0} s each, table {} MiB, {} run(s){}",
        positions.len(),
        options.cap().as_secs_f64(),
        options.table_mib,
        options.runs as usize,
        if options.checks_only {
            ", checks only"
        } else {
            ""
        }
    );
    println!(
        "{:<24} {:>7} {:>12} {:>13} {:>9} {:>12}",
        "knowledge", "proved", "MID calls", "positions", "time s", "positions/s"
    );
    for (name, knowledge) in settings {
        let runs: Vec<Totals> = (0..options.runs as usize)
            .map(|_| prove_all(positions, knowledge, options))
            .collect();
        let t = runs[0];
        let seconds = median(runs.iter().map(|r| r.seconds).collect());
        println!(
            "{:<24} {:>4}/{:<2} {:>12} {:>13} {:>9.2} {:>12.0}",
            name,
            t.proved,
            positions.len(),
            t.mid_calls,
            t.nodes,
            seconds,
            t.nodes as f64 / seconds
        );
    }
}

fn distances(positions: &[Position], options: &Options) {
    let config = MateConfig {
        table_bytes: options.table_mib << 20,
        max_time: Some(options.cap()),
        ..MateConfig::default()
    };
    let (mut exact, mut agree) = (0, 0);
    let start = Instant::now();
    for p in positions {
        let mut chess = Chess::from_fen(&p.fen).unwrap();
        let attacker = chess.side_to_move();
        if options.checks_only {
            chess = chess.with_checks_only(attacker);
        }
        let report = solve_mate(&mut chess, attacker, &config);
        let n = report
            .mate_in
            .map_or_else(|| "?".to_string(), |n| n.to_string());
        let proven = report.status == Status::Proven;
        exact += usize::from(proven && report.exactness == Exactness::Exact);
        let how = if proven {
            report.exactness.to_string()
        } else {
            String::new()
        };
        agree += usize::from(report.mate_in == Some(p.mate_in));
        println!(
            "{:<10} #{} found {:<12} {:>2} {:<28} proof MID calls {:>9}  all {:>10}  {:>7.3} s",
            p.id,
            p.mate_in,
            report.status.to_string(),
            n,
            how,
            report.proof_stats.mid_calls,
            report.stats.mid_calls,
            report.elapsed.as_secs_f64()
        );
    }
    println!(
        "{} positions: {exact} exact, {agree} equal to the suite's N, {:.1} s",
        positions.len(),
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let options = Options::parse();
    let text = match &options.suite {
        Some(path) => std::fs::read_to_string(path).expect("a readable suite file"),
        None => SUITE.to_string(),
    };
    let positions = suite(&text);
    if options.distance {
        distances(&positions, &options);
    } else {
        ablation(&positions, &options);
    }
}
