//! proofnum against Stockfish's `go mate N`, side by side on the same positions and machine,
//! one thread each.
//!
//! For every line where the side to move mates (`bm #N`, N > 0; Stockfish's `go mate` only
//! stops early for the side to move's own mates) with N at least `--min-mate`, each program
//! runs `--runs` times back to back on the same position, in alternating order, from a cold
//! start each time (proofnum on a cleared table, Stockfish after `ucinewgame`), both capped at
//! `--cap` seconds:
//! - proofnum: df-pn for the side to move until the mate is proven (the time to prove: "pn
//!   s"); then, once and outside the comparison, the chess game's `solve_mate` for the mate
//!   distance and a line ("pn N", its time "pn N s", within the same cap), judged like `run`
//!   does, so a wrong answer fails the bench;
//! - Stockfish: `go mate N` until it announces a mate in at most N moves (`bestmove` read).
//!
//! Times are medians of the runs. A program "solves" a line when it answers within the cap in
//! every run. The load average (`/proc/loadavg`) is printed before and after.

use std::time::Duration;

use proofnum::Status;
use proofnum_games::stockfish::{Go, Stockfish};

use crate::epd::Line;
use crate::run::{self, Verdict};
use crate::solve::Solver;

/// What `bench` measures.
pub struct Options {
    /// Lines with a mate of at least this many moves.
    pub min_mate: u32,
    /// Seconds per program and run.
    pub cap_s: f64,
    /// Runs per program and line (the median is reported).
    pub runs: usize,
    /// proofnum's table and Stockfish's hash, MiB.
    pub memory_mib: u32,
    /// How `run`'s checks judge proofnum's answers.
    pub judge: run::Options,
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// One program's runs on one line.
#[derive(Default)]
struct Runs {
    seconds: Vec<f64>,
    solved_every_run: bool,
    work: u64,
    found: String,
}

/// Runs the comparison; true when proofnum was never wrong or disputed.
pub fn bench(path: &str, lines: &[Line], options: &Options) -> Result<bool, String> {
    let lines: Vec<&Line> = lines
        .iter()
        .filter(|l| l.mate.is_some_and(|m| m >= options.min_mate as i32))
        .collect();
    let mut sf = Stockfish::start(options.memory_mib).map_err(|e| e.to_string())?;
    let mut solver = Solver::new(f64::from(options.memory_mib), false);
    println!(
        "{path}: {} lines with the side to move mating in {}+; {} and proofnum, one thread, \
         {} MiB each, cap {} s, median of {} runs; load before: {}",
        lines.len(),
        options.min_mate,
        sf.name(),
        options.memory_mib,
        options.cap_s,
        options.runs,
        load()
    );
    println!(
        "{:<14} {:>4} {:>7} {:>10} {:>12} {:>10} {:>7} {:>10} {:>12}  faster",
        "id", "N", "pn N", "pn s", "pn MID", "pn N s", "sf", "sf s", "sf nodes"
    );
    let (mut pn_solved, mut sf_solved, mut pn_faster, mut failures) = (0, 0, 0, 0);
    let mut ratios = Vec::new();
    for line in &lines {
        let n = line.mate.unwrap().unsigned_abs();
        let (mut pn, mut st) = (
            Runs {
                solved_every_run: true,
                ..Runs::default()
            },
            Runs::default(),
        );
        st.solved_every_run = true;
        for run_index in 0..options.runs {
            for program in [run_index % 2, 1 - run_index % 2] {
                if program == 0 {
                    let attacker = line.board().side_to_move();
                    let proved = solver.prove(&line.fen, attacker, options.cap_s)?;
                    pn.seconds.push(proved.seconds);
                    pn.work = proved.mid_calls;
                    pn.solved_every_run &= proved.status == Status::Proven;
                } else {
                    sf.new_game().map_err(|e| e.to_string())?;
                    let timeout = Duration::from_secs_f64(options.cap_s);
                    let a = sf
                        .go(&line.fen, Go::Mate(n), timeout)
                        .map_err(|e| e.to_string())?;
                    let mated = a.mate().is_some_and(|m| m > 0 && m as u32 <= n) && !a.stopped;
                    st.seconds.push(a.elapsed.as_secs_f64());
                    st.work = a.nodes;
                    st.found = a.mate().map_or("?".into(), |m| format!("#{m}"));
                    st.solved_every_run &= mated;
                }
            }
        }
        // The distance and the line, once, untimed in the comparison: judged like `run`.
        let solved = solver.solve(&line.fen, line.board().side_to_move(), options.cap_s)?;
        pn.found = run::shown(&solved.claim, false);
        let (verdict, _) = run::judge(line, &solved.claim, &options.judge);
        if matches!(verdict, Verdict::Wrong(_) | Verdict::Disputed(_)) {
            println!("{}: proofnum {verdict:?}", line.id);
            failures += 1;
        }
        let (pn_s, sf_s) = (median(pn.seconds), median(st.seconds));
        let faster = match (pn.solved_every_run, st.solved_every_run) {
            (true, true) if pn_s < sf_s => "proofnum",
            (true, false) => "proofnum",
            (false, false) => "neither",
            _ => "stockfish",
        };
        pn_solved += usize::from(pn.solved_every_run);
        sf_solved += usize::from(st.solved_every_run);
        pn_faster += usize::from(faster == "proofnum");
        if pn.solved_every_run && st.solved_every_run {
            ratios.push(pn_s / sf_s);
        }
        println!(
            "{:<14} {:>4} {:>7} {:>10.3} {:>12} {:>10.3} {:>7} {:>10.3} {:>12}  {faster}",
            line.id, n, pn.found, pn_s, pn.work, solved.seconds, st.found, sf_s, st.work
        );
    }
    let share = |k: usize| 100.0 * k as f64 / lines.len().max(1) as f64;
    println!(
        "solved within {} s: proofnum {pn_solved}/{} ({:.0}%), Stockfish {sf_solved}/{} ({:.0}%); \
         proofnum faster on {pn_faster}/{} ({:.0}%); median time ratio proofnum/Stockfish where \
         both solve: {}; proofnum wrong or disputed: {failures}; load after: {}",
        options.cap_s,
        lines.len(),
        share(pn_solved),
        lines.len(),
        share(sf_solved),
        lines.len(),
        share(pn_faster),
        if ratios.is_empty() {
            "-".to_string()
        } else {
            format!("{:.2}", median(ratios))
        },
        load()
    );
    Ok(failures == 0)
}
