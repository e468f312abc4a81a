//! Connect Four test suites: generate them with the independent alpha-beta solver, and run
//! them with proofnum's df-pn.
//!
//! ```sh
//! # 100 positions of 28 to 36 stones, exact scores from the alpha-beta solver (not proofnum)
//! cargo run --release --example c4suite -- generate --stones 28..36 --count 100 --seed 1 > late.txt
//! # For each line: does the side to move win, and win/draw/loss, by df-pn; checks the signs
//! cargo run --release --example c4suite -- run games/suites/c4-late.txt
//! # The same with less of the game's knowledge (see `connect4::knowledge`), and the reference
//! # alpha-beta solver's time on the same lines
//! cargo run --release --example c4suite -- run games/suites/c4-middle.txt --rules threats
//! cargo run --release --example c4suite -- run games/suites/c4-middle.txt --reference
//! ```
//!
//! Lines are `<moves> <score>`: the moves as 1-based columns, the score in Pascal Pons'
//! convention (positive: the side to move wins, 22 − k on 7×6 when its k-th stone connects;
//! 0: draw; negative: it loses). Generated positions are unfinished games in which the side
//! to move cannot connect four at once.

use std::time::Instant;

use clap::Parser;

use proofnum::table::Table;
use proofnum::{Dfpn, DfpnConfig, Limits};
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_games::connect4::suite;
use proofnum_games::connect4::{Restricted, rules};

/// Connect Four test suites.
#[derive(Parser)]
#[command(name = "c4suite")]
enum Cli {
    /// Positions with exact scores from the alpha-beta solver (not proofnum), to standard
    /// output.
    Generate {
        /// Stones on the board, as A..B (A < B <= 42).
        #[arg(long, value_parser = parse_stones)]
        stones: (usize, usize),
        /// Positions to make.
        #[arg(long, default_value_t = 20)]
        count: usize,
        /// The random games' seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solves every line with df-pn and checks it against the line's score; exits 1 on any
    /// disagreement.
    Run {
        /// The suite (lines `<moves> <score>`).
        file: String,
        /// df-pn's table, MiB.
        #[arg(long, default_value_t = 64.0)]
        table_mib: f64,
        /// Seconds per line.
        #[arg(long = "cap", default_value_t = 600.0)]
        cap_s: f64,
        /// The game's knowledge (see `connect4::knowledge`).
        #[arg(long, default_value = "all", value_parser = clap::builder::PossibleValuesParser::new(RULE_SETS.split(", ")))]
        rules: String,
        /// Ask df-pn only for the win/draw/loss value (not also "does it win").
        #[arg(long)]
        value_only: bool,
        /// df-pn with weak proof numbers (`DfpnConfig::weak_delta`).
        #[arg(long)]
        weak_delta: bool,
        /// Time the reference alpha-beta solver instead of df-pn.
        #[arg(long)]
        reference: bool,
    },
}

fn parse_stones(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?} is not A..B with A < B <= 42");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b || b > 42 {
        return Err(bad());
    }
    Ok((a, b))
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn generate(stones: (usize, usize), count: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut solver = Solver::<7, 6>::new(1 << 24);
    let mut seen = std::collections::HashSet::new();
    let mut made = 0;
    while made < count {
        let n = stones.0 + rng.below(stones.1 - stones.0);
        let mut p = Position::<7, 6>::new();
        let mut moves = String::new();
        let mut ok = true;
        for _ in 0..n {
            let open: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
            let c = open[rng.below(open.len())];
            p.play(c);
            moves.push(char::from(b'1' + c as u8));
            if p.is_over() {
                ok = false;
                break;
            }
        }
        if !ok || p.can_win_now() || !seen.insert(moves.clone()) {
            continue;
        }
        let start = Instant::now();
        let score = solver.score(&mut p).expect("an unfinished game");
        eprintln!("{moves} {score} ({:.2?})", start.elapsed());
        println!("{moves} {score}");
        made += 1;
    }
}

/// The suite's lines, or exit with the parse error.
fn read_suite(path: &str) -> Vec<suite::Line> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    suite::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    })
}

/// The summary lines: total MID calls, total, mean and median time per position.
fn summary(path: &str, what: &str, mid_calls: u64, mut seconds: Vec<f64>) {
    let total: f64 = seconds.iter().sum();
    seconds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{path} ({what}): {} positions, {mid_calls} MID calls, {total:.2} s, mean {:.2} ms, \
         median {:.2} ms per position",
        seconds.len(),
        1e3 * total / seconds.len().max(1) as f64,
        1e3 * seconds[seconds.len() / 2],
    );
}

/// How `run` solves: `value_only` asks only for the win/draw/loss value (`solve_value`), not
/// also "does the side to move win"; `weak_delta` is `DfpnConfig::weak_delta`.
#[derive(Clone, Copy)]
struct RunOptions {
    value_only: bool,
    weak_delta: bool,
}

/// Solves every line with df-pn on a game with the knowledge `R` (a `rules` set).
fn run<const R: u8>(
    path: &str,
    rules_name: &str,
    table_mib: f64,
    cap_s: f64,
    options: RunOptions,
) -> bool {
    type G<const R: u8> = Restricted<7, 6, R>;
    let RunOptions {
        value_only,
        weak_delta,
    } = options;
    let config = DfpnConfig {
        weak_delta,
        ..DfpnConfig::default()
    };
    let lines = read_suite(path);
    let mut memory = vec![0u8; (table_mib * (1 << 20) as f64) as usize];
    let mut table = Table::new(&mut memory).expect("table memory");
    let mut stack = vec![0u8; Dfpn::<G<R>>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<G<R>>::new(&mut stack, 42, 7, config).unwrap();
    let (mut passed, mut failed) = (0, 0);
    let (mut mid_calls, mut seconds) = (0, Vec::new());
    for line in &lines {
        table.clear();
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: (cap_s * 1e6) as u64,
            ..Limits::none()
        };
        let verdict = if value_only {
            let mut position = G::<R>::from(line.position().unwrap());
            let v = dfpn.solve_value(&mut position, &mut table, &mut limits);
            suite::Verdict {
                wins: proofnum::Status::Unknown(proofnum::Reason::Stopped), // not asked
                value: v.value,
                mid_calls: v.stats.mid_calls,
            }
        } else {
            suite::solve_line(line, &mut dfpn, &mut table, &mut limits).unwrap()
        };
        let elapsed = start.elapsed().as_secs_f64();
        let ok = if value_only {
            verdict.value == Ok(line.value())
        } else {
            verdict.agrees_with(line)
        };
        println!(
            "{} {:<42} {:>4}  wins: {:<10} value: {:<18} {:>10} MID {:>8.3} s",
            if ok { "ok  " } else { "FAIL" },
            line.moves,
            line.score,
            if value_only {
                "-".to_string()
            } else {
                verdict.wins.to_string()
            },
            format!("{:?}", verdict.value),
            verdict.mid_calls,
            elapsed
        );
        mid_calls += verdict.mid_calls;
        seconds.push(elapsed);
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    let question = if value_only {
        "value only"
    } else {
        "both questions"
    };
    summary(
        path,
        &format!("df-pn, rules {rules_name}, {question}"),
        mid_calls,
        seconds,
    );
    println!("{passed} passed, {failed} failed");
    failed == 0
}

/// Times the reference alpha-beta solver's win/draw/loss answer (one null-window search
/// around 0, like Pons' "weak" mode) on every line, as a same-machine peer figure; checks the
/// sign.
fn run_reference(path: &str) -> bool {
    let lines = read_suite(path);
    let mut solver = Solver::<7, 6>::new(1 << 24);
    let mut failed = 0;
    let mut seconds = Vec::new();
    for line in &lines {
        let mut p = Position::<7, 6>::from_moves(&line.moves).unwrap();
        let start = Instant::now();
        let nodes = solver.nodes();
        let value = solver.value(&mut p);
        let elapsed = start.elapsed().as_secs_f64();
        let ok = value == Some(line.value());
        println!(
            "{} {:<42} {:>4}  value: {:<12} {:>10} nodes {:>8.3} s",
            if ok { "ok  " } else { "FAIL" },
            line.moves,
            line.score,
            format!("{value:?}"),
            solver.nodes() - nodes,
            elapsed
        );
        failed += usize::from(!ok);
        seconds.push(elapsed);
        solver = Solver::<7, 6>::new(1 << 24); // a fresh table per line, like df-pn's
    }
    summary(path, "reference alpha-beta", 0, seconds);
    println!("{} passed, {failed} failed", lines.len() - failed);
    failed == 0
}

/// The knowledge sets `--rules` accepts: the threat analysis alone (what the game knew
/// before move ordering, bounds and estimates), each step added, and `all` without each.
const RULE_SETS: &str = "plain, threats, threats+order, threats+order+bounds, all, \
                         all-order, all-bounds, all-estimate";

fn run_rules(name: &str, path: &str, table_mib: f64, cap_s: f64, options: RunOptions) -> bool {
    use rules::*;
    const T: u8 = WIN_NOW | THREATS;
    match name {
        "plain" => run::<NONE>(path, name, table_mib, cap_s, options),
        "threats" => run::<T>(path, name, table_mib, cap_s, options),
        "threats+order" => run::<{ T | ORDER }>(path, name, table_mib, cap_s, options),
        "threats+order+bounds" => {
            run::<{ T | ORDER | BOUNDS }>(path, name, table_mib, cap_s, options)
        }
        "all" => run::<ALL>(path, name, table_mib, cap_s, options),
        "all-order" => run::<{ ALL & !ORDER }>(path, name, table_mib, cap_s, options),
        "all-bounds" => run::<{ ALL & !BOUNDS }>(path, name, table_mib, cap_s, options),
        "all-estimate" => run::<{ ALL & !ESTIMATE }>(path, name, table_mib, cap_s, options),
        _ => {
            eprintln!("unknown --rules {name:?}; one of {RULE_SETS}");
            std::process::exit(2)
        }
    }
}

fn main() {
    match Cli::parse() {
        Cli::Generate {
            stones,
            count,
            seed,
        } => generate(stones, count, seed),
        Cli::Run {
            file,
            table_mib,
            cap_s,
            rules,
            value_only,
            weak_delta,
            reference,
        } => {
            let ok = if reference {
                run_reference(&file)
            } else {
                let options = RunOptions {
                    value_only,
                    weak_delta,
                };
                run_rules(&rules, &file, table_mib, cap_s, options)
            };
            if !ok {
                std::process::exit(1);
            }
        }
    }
}
