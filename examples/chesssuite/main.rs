//! Chess mate suites refereed by Stockfish: make them, run proofnum on them, and time proofnum
//! against Stockfish's `go mate N` side by side.
//!
//! ```sh
//! # A suite from Stockfish-vs-weakened-Stockfish games (proofnum takes no part)
//! cargo run --release --example chesssuite -- generate --seed 1 --nodes 1000000 > mates.epd
//! # proofnum alone on the mates of 5+ moves, counted (MID calls, positions; a MID budget)
//! cargo run --release --example chesssuite -- prove games/suites/chess-mates.epd --max-mid 300000
//! ```

mod bench;
mod epd;
mod generate;
mod oracle;
mod prove;
mod replay;
mod run;
mod solve;

fn usage() -> ! {
    eprintln!(
        "usage: chesssuite generate [--seed S] [--nodes N] [--play-nodes N] [--per-bucket K]\n\
         \x20                         [--per-bucket-mated K] [--no-mate K] [--min-mate N] [--max-games G]\n\
         \x20      chesssuite run FILE.epd [--table-mib M] [--cap SECONDS] [--oracle-max K]\n\
         \x20                         [--oracle-nodes N] [--checks-only] [--referee]\n\
         \x20      chesssuite bench FILE.epd [--min-mate N] [--cap SECONDS] [--runs R] [--memory-mib M]\n\
         \x20      chesssuite prove FILE.epd [--min-mate N] [--max-mate N] [--ids A,B,..] [--max-mid N]\n\
         \x20                         [--table-mib M] [--epsilon A/B] [--weak-delta] [--stale] [--checks-only]\n\
         \x20                         [--without mate-in-one|cannot-win|order|estimate] [--checks-first MID]"
    );
    std::process::exit(2)
}

fn parse<T: std::str::FromStr>(text: Option<&String>) -> T {
    text.and_then(|t| t.parse().ok()).unwrap_or_else(|| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") => {
            let mut options = generate::Options {
                seed: 1,
                budget_nodes: 1_000_000,
                play_nodes: 5_000,
                per_bucket: 8,
                per_bucket_mated: 2,
                no_mate: 20,
                min_mate: 1,
                max_games: 1000,
            };
            let mut i = 1;
            while i < args.len() {
                let value = args.get(i + 1);
                match args[i].as_str() {
                    "--seed" => options.seed = parse(value),
                    "--nodes" => options.budget_nodes = parse(value),
                    "--play-nodes" => options.play_nodes = parse(value),
                    "--per-bucket" => options.per_bucket = parse(value),
                    "--per-bucket-mated" => options.per_bucket_mated = parse(value),
                    "--no-mate" => options.no_mate = parse(value),
                    "--min-mate" => options.min_mate = parse(value),
                    "--max-games" => options.max_games = parse(value),
                    _ => usage(),
                }
                i += 2;
            }
            if let Err(e) = generate::generate(&options) {
                eprintln!("chesssuite: {e}");
                std::process::exit(2);
            }
        }
        Some("run") => {
            let path = args.get(1).cloned().unwrap_or_else(|| usage());
            let mut options = run::Options {
                table_mib: 64.0,
                cap_s: 60.0,
                oracle_max: 3,
                oracle_nodes: 20_000_000,
                checks_only: false,
                referee: false,
            };
            let mut i = 2;
            while i < args.len() {
                let value = args.get(i + 1);
                match args[i].as_str() {
                    "--table-mib" => options.table_mib = parse(value),
                    "--cap" => options.cap_s = parse(value),
                    "--oracle-max" => options.oracle_max = parse(value),
                    "--oracle-nodes" => options.oracle_nodes = parse(value),
                    "--checks-only" => {
                        options.checks_only = true;
                        i += 1;
                        continue;
                    }
                    "--referee" => {
                        options.referee = true;
                        i += 1;
                        continue;
                    }
                    _ => usage(),
                }
                i += 2;
            }
            let lines = read_suite(&path);
            match run::run(&path, &lines, &options) {
                Ok(true) => {}
                Ok(false) => std::process::exit(1),
                Err(e) => {
                    eprintln!("chesssuite: {e}");
                    std::process::exit(2)
                }
            }
        }
        Some("bench") => {
            let path = args.get(1).cloned().unwrap_or_else(|| usage());
            let mut options = bench::Options {
                min_mate: 5,
                cap_s: 10.0,
                runs: 3,
                memory_mib: 64,
                judge: run::Options {
                    table_mib: 64.0,
                    cap_s: 10.0,
                    oracle_max: 3,
                    oracle_nodes: 20_000_000,
                    checks_only: false,
                    referee: false,
                },
            };
            let mut i = 2;
            while i < args.len() {
                let value = args.get(i + 1);
                match args[i].as_str() {
                    "--min-mate" => options.min_mate = parse(value),
                    "--cap" => options.cap_s = parse(value),
                    "--runs" => options.runs = parse(value),
                    "--memory-mib" => options.memory_mib = parse(value),
                    _ => usage(),
                }
                i += 2;
            }
            if options.runs == 0 {
                usage();
            }
            let lines = read_suite(&path);
            match bench::bench(&path, &lines, &options) {
                Ok(true) => {}
                Ok(false) => std::process::exit(1),
                Err(e) => {
                    eprintln!("chesssuite: {e}");
                    std::process::exit(2)
                }
            }
        }
        Some("prove") => {
            let path = args.get(1).cloned().unwrap_or_else(|| usage());
            let mut options = prove::Options {
                min_mate: 5,
                max_mate: u32::MAX,
                ids: Vec::new(),
                max_mid_calls: 2_000_000,
                table_mib: 64.0,
                config: proofnum::DfpnConfig::default(),
                checks_only: false,
                knowledge: proofnum_games::chess::Knowledge::ALL,
                checks_first: 0,
            };
            let mut i = 2;
            while i < args.len() {
                let value = args.get(i + 1);
                match args[i].as_str() {
                    "--min-mate" => options.min_mate = parse(value),
                    "--max-mate" => options.max_mate = parse(value),
                    "--without" => {
                        let name = value.unwrap_or_else(|| usage());
                        let (_, rule) = proofnum_games::chess::Knowledge::EACH
                            .into_iter()
                            .find(|(n, _)| n == name)
                            .unwrap_or_else(|| usage());
                        options.knowledge = options.knowledge.without(rule);
                    }
                    "--ids" => {
                        options.ids = value
                            .unwrap_or_else(|| usage())
                            .split(',')
                            .map(String::from)
                            .collect()
                    }
                    "--max-mid" => options.max_mid_calls = parse(value),
                    "--checks-first" => options.checks_first = parse(value),
                    "--table-mib" => options.table_mib = parse(value),
                    "--epsilon" => {
                        options.config.epsilon = value
                            .and_then(|v| prove::epsilon(v))
                            .unwrap_or_else(|| usage())
                    }
                    "--weak-delta" | "--stale" | "--checks-only" => {
                        if args[i] == "--checks-only" {
                            options.checks_only = true;
                        } else if args[i] == "--stale" {
                            options.config.search_stale_entries = true;
                        } else {
                            options.config.weak_delta = true;
                        }
                        i += 1;
                        continue;
                    }
                    _ => usage(),
                }
                i += 2;
            }
            let lines = read_suite(&path);
            if let Err(e) = prove::prove(&path, &lines, &options) {
                eprintln!("chesssuite: {e}");
                std::process::exit(2)
            }
        }
        _ => usage(),
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
