//! Connect Four test suites: generate them with the independent alpha-beta solver, and run
//! them with proofnum's df-pn.
//!
//! ```sh
//! # 100 positions of 28 to 36 stones, exact scores from the alpha-beta solver (not proofnum)
//! cargo run --release --example c4suite -- generate --stones 28..36 --count 100 --seed 1 > late.txt
//! # For each line: does the side to move win, and win/draw/loss, by df-pn; checks the signs
//! cargo run --release --example c4suite -- run games/suites/c4-late.txt
//! ```
//!
//! Lines are `<moves> <score>`: the moves as 1-based columns, the score in Pascal Pons'
//! convention (positive: the side to move wins, 22 − k on 7×6 when its k-th stone connects;
//! 0: draw; negative: it loses). Generated positions are unfinished games in which the side
//! to move cannot connect four at once.

use std::time::Instant;

use proofnum::table::Table;
use proofnum::{Dfpn, DfpnConfig, Limits};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_games::connect4::suite;

fn usage() -> ! {
    eprintln!(
        "usage: c4suite generate --stones A..B --count N [--seed S]\n\
         \x20      c4suite run FILE [--table-mib N] [--cap SECONDS]"
    );
    std::process::exit(2)
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

fn run(path: &str, table_mib: f64, cap_s: f64) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let lines = suite::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let mut memory = vec![0u8; (table_mib * (1 << 20) as f64) as usize];
    let mut table = Table::new(&mut memory).expect("table memory");
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<ConnectFour>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
    let (mut passed, mut failed) = (0, 0);
    let all = Instant::now();
    for line in &lines {
        table.clear();
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: (cap_s * 1e6) as u64,
            ..Limits::none()
        };
        let verdict = suite::solve_line(line, &mut dfpn, &mut table, &mut limits).unwrap();
        let ok = verdict.agrees_with(line);
        println!(
            "{} {:<42} {:>4}  wins: {:<10} value: {:<18} {:>10} MID {:>8.3} s",
            if ok { "ok  " } else { "FAIL" },
            line.moves,
            line.score,
            verdict.wins.to_string(),
            format!("{:?}", verdict.value),
            verdict.mid_calls,
            start.elapsed().as_secs_f64()
        );
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("{path}: {:.2} s", all.elapsed().as_secs_f64());
    println!("{passed} passed, {failed} failed");
    failed == 0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |i: usize| args.get(i + 1).cloned().unwrap_or_else(|| usage());
    match args.first().map(String::as_str) {
        Some("generate") => {
            let (mut stones, mut count, mut seed) = (None, 20, 1);
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--stones" => {
                        let v = value(i);
                        let (a, b) = v.split_once("..").unwrap_or_else(|| usage());
                        let (a, b) = (
                            a.parse().unwrap_or_else(|_| usage()),
                            b.parse().unwrap_or_else(|_| usage()),
                        );
                        if a >= b || b > 42 {
                            usage();
                        }
                        stones = Some((a, b));
                    }
                    "--count" => count = value(i).parse().unwrap_or_else(|_| usage()),
                    "--seed" => seed = value(i).parse().unwrap_or_else(|_| usage()),
                    _ => usage(),
                }
                i += 2;
            }
            generate(stones.unwrap_or_else(|| usage()), count, seed);
        }
        Some("run") => {
            let path = args.get(1).cloned().unwrap_or_else(|| usage());
            let (mut table_mib, mut cap_s) = (64.0, 600.0);
            let mut i = 2;
            while i < args.len() {
                match args[i].as_str() {
                    "--table-mib" => table_mib = value(i).parse().unwrap_or_else(|_| usage()),
                    "--cap" => cap_s = value(i).parse().unwrap_or_else(|_| usage()),
                    _ => usage(),
                }
                i += 2;
            }
            if !run(&path, table_mib, cap_s) {
                std::process::exit(1);
            }
        }
        _ => usage(),
    }
}
