//! Chess mate suites refereed by Stockfish: make them, run proofnum on them, and time proofnum
//! against Stockfish's `go mate N` side by side.
//!
//! ```sh
//! # A suite from Stockfish-vs-weakened-Stockfish games (proofnum takes no part)
//! cargo run --release -p proofnum-tools --bin chesssuite -- generate --seed 1 --nodes 1000000 > mates.epd
//! # proofnum alone on the mates of 5+ moves, counted (MID calls, positions; a MID budget)
//! cargo run --release -p proofnum-tools --bin chesssuite -- prove games/suites/chess-mates.epd --max-mid 300000
//! ```

mod bench;
mod dive;
mod epd;
mod generate;
mod oracle;
mod prove;
mod replay;
mod run;
mod solve;

use clap::{Args, Parser, Subcommand};
use proofnum_games::chess::Knowledge;
use proofnum_tools::{baseline, trace};

/// Chess mate suites refereed by Stockfish.
#[derive(Parser)]
#[command(name = "chesssuite")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Makes a suite from Stockfish-vs-weakened-Stockfish games (proofnum takes no part); EPD
    /// lines to standard output.
    Generate(generate::Options),
    /// Runs proofnum on every line and judges each answer; exits 1 on any wrong one.
    Run {
        /// The suite (EPD lines with `bm #N`).
        file: String,
        #[command(flatten)]
        judge: Judge,
        /// Seconds per line before proofnum's answer is "unknown".
        #[arg(long = "cap", default_value_t = 60.0)]
        cap_s: f64,
        /// Checks-only mode (mates by checks only; "no mate" then means none by checks).
        #[arg(long)]
        checks_only: bool,
        /// Ask Stockfish again on this machine and judge against its answer.
        #[arg(long)]
        referee: bool,
    },
    /// Times proofnum against Stockfish's `go mate N`, line by line, one thread each.
    Bench {
        /// The suite (EPD lines with `bm #N`).
        file: String,
        /// Lines with a mate of at least this many moves.
        #[arg(long, default_value_t = 5)]
        min_mate: u32,
        /// And at most this many.
        #[arg(long, default_value_t = u32::MAX)]
        max_mate: u32,
        /// Compare with this baseline (`benches/baselines/chess-mates.tsv`).
        #[arg(long)]
        baseline: Option<String>,
        /// Write the figures as a baseline to this file.
        #[arg(long)]
        write_baseline: Option<String>,
        /// Positions proofnum's distance search (`solve_mate`) may evaluate per line: a cap
        /// that, unlike the time, gives the same figures on every run.
        #[arg(long, default_value_t = u64::MAX)]
        solve_positions: u64,
        /// Seconds per program and run.
        #[arg(long = "cap", default_value_t = 10.0)]
        cap_s: f64,
        /// Runs per program and line (the median is reported).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
        runs: u64,
        /// proofnum's table and Stockfish's hash, MiB.
        #[arg(long, default_value_t = 64)]
        memory_mib: u32,
    },
    /// Where one proof goes deep: MID calls per depth and the line of the deepest dive.
    Dive {
        /// The suite (EPD lines with `bm #N`).
        file: String,
        /// The line's id.
        id: String,
        /// MID calls for the proof.
        #[arg(long = "max-mid", default_value_t = 2_000_000)]
        max_mid_calls: u64,
        /// proofnum's table, MiB.
        #[arg(long, default_value_t = 64.0)]
        table_mib: f64,
    },
    /// df-pn alone on the mates, with a MID-call budget, so that counts repeat exactly.
    Prove {
        /// The suite (EPD lines with `bm #N`).
        file: String,
        /// Lines with a mate of at least this many moves.
        #[arg(long, default_value_t = 5)]
        min_mate: u32,
        /// At most this many.
        #[arg(long, default_value_t = u32::MAX)]
        max_mate: u32,
        /// Only the lines with these ids (comma-separated; all when absent).
        #[arg(long, value_delimiter = ',')]
        ids: Vec<String>,
        /// MID calls per line.
        #[arg(long = "max-mid", default_value_t = 2_000_000)]
        max_mid_calls: u64,
        /// proofnum's table, MiB.
        #[arg(long, default_value_t = 64.0)]
        table_mib: f64,
        /// df-pn's 1+ε as A/B (ε = A/B).
        #[arg(long, value_parser = parse_epsilon)]
        epsilon: Option<proofnum::Epsilon>,
        /// df-pn's weak δ.
        #[arg(long)]
        weak_delta: bool,
        /// Search stale table entries again.
        #[arg(long)]
        stale: bool,
        /// Keep unsolved numbers per path (`DfpnConfig::share_unsolved` off).
        #[arg(long)]
        path_keyed_unsolved: bool,
        /// Checks-only mode.
        #[arg(long)]
        checks_only: bool,
        /// Switch off one rule of the chess knowledge (repeatable).
        #[arg(long, value_parser = parse_rule)]
        without: Vec<Knowledge>,
        /// MID calls of a checks-only pass first (0: none).
        #[arg(long = "checks-first", default_value_t = 0)]
        checks_first: u64,
    },
}

/// How `run` (and `bench`, with its defaults) checks proofnum's answers.
#[derive(Args)]
struct Judge {
    /// proofnum's table, MiB.
    #[arg(long, default_value_t = 64.0)]
    table_mib: f64,
    /// The exhaustive search checks mates up to this many moves.
    #[arg(long, default_value_t = 3)]
    oracle_max: u32,
    /// Its node budget per check.
    #[arg(long, default_value_t = 20_000_000)]
    oracle_nodes: u64,
}

fn parse_epsilon(text: &str) -> Result<proofnum::Epsilon, String> {
    prove::epsilon(text).ok_or_else(|| format!("{text:?} is not A/B with 0 < B"))
}

fn parse_rule(text: &str) -> Result<Knowledge, String> {
    Knowledge::EACH
        .into_iter()
        .find(|(name, _)| *name == text)
        .map(|(_, rule)| rule)
        .ok_or_else(|| {
            let names: Vec<&str> = Knowledge::EACH.iter().map(|(n, _)| *n).collect();
            format!("{text:?} is none of {}", names.join(", "))
        })
}

/// Ends the program after a subcommand: 1 when an answer was wrong, 2 on an error.
fn finish(result: Result<bool, String>) {
    match result {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("chesssuite: {e}");
            std::process::exit(2)
        }
    }
}

fn main() {
    match Cli::parse().command {
        Command::Generate(options) => finish(generate::generate(&options).map(|()| true)),
        Command::Run {
            file,
            judge,
            cap_s,
            checks_only,
            referee,
        } => {
            let options = run::Options {
                table_mib: judge.table_mib,
                cap_s,
                oracle_max: judge.oracle_max,
                oracle_nodes: judge.oracle_nodes,
                checks_only,
                referee,
            };
            finish(run::run(&file, &read_suite(&file), &options));
        }
        Command::Bench {
            file,
            min_mate,
            max_mate,
            baseline,
            write_baseline,
            solve_positions,
            cap_s,
            runs,
            memory_mib,
        } => {
            let options = bench::Options {
                min_mate,
                max_mate,
                baseline,
                write_baseline,
                solve_positions,
                cap_s,
                runs: runs as usize,
                memory_mib,
                judge: run::Options {
                    table_mib: f64::from(memory_mib),
                    cap_s,
                    oracle_max: 3,
                    oracle_nodes: 20_000_000,
                    checks_only: false,
                    referee: false,
                },
            };
            finish(bench::bench(&file, &read_suite(&file), &options));
        }
        Command::Dive {
            file,
            id,
            max_mid_calls,
            table_mib,
        } => {
            let lines = read_suite(&file);
            let Some(line) = lines.iter().find(|l| l.id == id) else {
                eprintln!("{file}: no line {id:?}");
                std::process::exit(2)
            };
            finish(dive::dive(line, max_mid_calls, table_mib).map(|()| true));
        }
        Command::Prove {
            file,
            min_mate,
            max_mate,
            ids,
            max_mid_calls,
            table_mib,
            epsilon,
            weak_delta,
            stale,
            path_keyed_unsolved,
            checks_only,
            without,
            checks_first,
        } => {
            let mut config = proofnum::DfpnConfig::default();
            if let Some(epsilon) = epsilon {
                config.epsilon = epsilon;
            }
            config.weak_delta = weak_delta;
            config.search_stale_entries = stale;
            config.share_unsolved = !path_keyed_unsolved;
            let options = prove::Options {
                min_mate,
                max_mate,
                ids,
                max_mid_calls,
                table_mib,
                config,
                checks_only,
                knowledge: without
                    .into_iter()
                    .fold(Knowledge::ALL, |all, rule| all.without(rule)),
                checks_first,
            };
            finish(prove::prove(&file, &read_suite(&file), &options).map(|()| true));
        }
    }
}

/// The suite's lines, or exit with the error.
fn read_suite(path: &str) -> Vec<epd::Line> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    epd::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    })
}
