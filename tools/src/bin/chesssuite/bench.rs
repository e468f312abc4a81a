//! proofnum against Stockfish's `go mate N`, side by side on the same positions and machine,
//! one thread each.
//!
//! For every line where the side to move mates (`bm #N`, N > 0; Stockfish's `go mate` only
//! stops early for the side to move's own mates) with N from `--min-mate` to `--max-mate`,
//! each program runs `--runs` times back to back on the same position, in alternating order,
//! from a cold start each time (proofnum on a cleared table, Stockfish after `ucinewgame`),
//! each capped at `--cap` seconds:
//! - proofnum, twice: df-pn for the side to move until the mate is proven (the time to prove
//!   *that* a mate exists: "proof s", its MID calls and deepest ply); and the chess game's
//!   `solve_mate` (the **exact** distance N and a line: "pn N", "N s", its MID calls over all
//!   its searches), judged like `run` does, so a wrong answer fails the bench; and the time
//!   until `solve_mate` had proven a mate within the line's N ("N≤ s", `MateReport::bounds`):
//!   the answer `go mate N` gives, a mate within N found but none shorter ruled out;
//! - Stockfish: `go mate N` until it announces a mate in at most N moves (`bestmove` read).
//!
//! Times are medians of the runs. A program "solves" a line when it answers within the cap in
//! every run; proofnum's exact distance is "faster" when it is exact in every run and its
//! median time is below Stockfish's, and its bound is "first" when a mate within N was proven
//! in every run, its median time below Stockfish's (a line Stockfish leaves unsolved counts for
//! proofnum in both). Per mate length: the lines, exact distances, the faster and first
//! share, the median times and ratios; then the worst lines by time ratio, and every proof
//! or distance search that stopped at the depth limit (a dive: df-pn followed one line
//! `solve::MAX_DEPTH` plies down). `--write-baseline` keeps the figures (answer: proofnum's
//! N; MID calls: `solve_mate`'s; peer: Stockfish's nodes and ms), `--baseline` compares a
//! build with them. The load average (`/proc/loadavg`) is printed before and after.

use std::time::Duration;

use proofnum::{Reason, Status};
use proofnum_games::chess::mate::Exactness;
use proofnum_tools::stockfish::{Go, Stockfish};

use crate::baseline::{self, Record};
use crate::epd::Line;
use crate::run::{self, Verdict};
use crate::solve::{Claim, MAX_DEPTH, Solver};

/// What `bench` measures.
pub struct Options {
    /// Lines with a mate of at least this many moves.
    pub min_mate: u32,
    /// And at most this many.
    pub max_mate: u32,
    /// Seconds per program and run.
    pub cap_s: f64,
    /// Runs per program and line (the median is reported).
    pub runs: usize,
    /// proofnum's table and Stockfish's hash, MiB.
    pub memory_mib: u32,
    /// How `run`'s checks judge proofnum's answers.
    pub judge: run::Options,
    /// Compare with this baseline.
    pub baseline: Option<String>,
    /// Write the figures as a baseline to this file.
    pub write_baseline: Option<String>,
    /// Positions `solve_mate` may evaluate per line (a deterministic cap besides the time).
    pub solve_positions: u64,
}

/// One line's figures.
struct Row {
    id: String,
    n: u32,
    proof_s: f64,
    proof_mid: u64,
    proof_depth: u32,
    proof_status: Status,
    proved_every_run: bool,
    found: String,
    exact_every_run: bool,
    exactness: Exactness,
    solve_s: f64,
    /// Median time until a mate within N was proven (set when it was in every run).
    bound_s: f64,
    bound_every_run: bool,
    solve_mid: u64,
    solve_depth: u32,
    sf_s: f64,
    sf_nodes: u64,
    sf_found: String,
    sf_every_run: bool,
}

impl Row {
    /// proofnum's exact distance faster than Stockfish's `go mate N`.
    fn exact_faster(&self) -> bool {
        self.exact_every_run && (!self.sf_every_run || self.solve_s < self.sf_s)
    }
    /// proofnum's proof of a mate within N before Stockfish's `go mate N` answered.
    fn bound_first(&self) -> bool {
        self.bound_every_run && (!self.sf_every_run || self.bound_s < self.sf_s)
    }
    /// The time ratio proofnum (exact N) / Stockfish, a capped run counted at the cap.
    fn ratio(&self, cap_s: f64) -> f64 {
        let pn = if self.exact_every_run {
            self.solve_s
        } else {
            cap_s
        };
        let sf = if self.sf_every_run { self.sf_s } else { cap_s };
        pn / sf.max(1e-6)
    }
    fn depth_limited(&self) -> bool {
        self.proof_status == Status::Unknown(Reason::DepthLimit)
            || matches!(
                self.exactness,
                Exactness::UpperBound(Reason::DepthLimit) | Exactness::Unknown(Reason::DepthLimit)
            )
    }
}

/// Runs the comparison; true when proofnum was never wrong or disputed.
pub fn bench(path: &str, lines: &[Line], options: &Options) -> Result<bool, String> {
    let lines: Vec<&Line> = lines
        .iter()
        .filter(|l| {
            l.mate.is_some_and(|m| {
                m > 0 && (options.min_mate..=options.max_mate).contains(&m.unsigned_abs())
            })
        })
        .collect();
    let mut sf = Stockfish::start(options.memory_mib).map_err(|e| e.to_string())?;
    let mut solver = Solver::new(f64::from(options.memory_mib), false);
    solver.max_positions = options.solve_positions;
    let load_before = baseline::load_average();
    println!(
        "{path}: {} lines with the side to move mating in {} to {}; {} and proofnum, one thread, \
         {} MiB each, cap {} s, median of {} runs; load before: {load_before}",
        lines.len(),
        options.min_mate,
        options.max_mate,
        sf.name(),
        options.memory_mib,
        options.cap_s,
        options.runs,
    );
    println!(
        "{:<14} {:>3} {:>9} {:>10} {:>5} {:>8} {:>9} {:>9} {:>11} {:>5} {:>6} {:>9} {:>11}  exact faster",
        "id",
        "N",
        "proof s",
        "proof MID",
        "depth",
        "pn N",
        "N≤ s",
        "N s",
        "N MID",
        "depth",
        "sf",
        "sf s",
        "sf nodes"
    );
    let mut failures = 0;
    let mut rows = Vec::new();
    for line in &lines {
        let n = line.mate.unwrap().unsigned_abs();
        let attacker = line.board().side_to_move();
        let (mut proof_s, mut solve_s, mut sf_s) = (Vec::new(), Vec::new(), Vec::new());
        let mut bound_s = Vec::new();
        let mut row = Row {
            id: line.id.clone(),
            n,
            proof_s: 0.0,
            proof_mid: 0,
            proof_depth: 0,
            proof_status: Status::Unknown(Reason::Stopped),
            proved_every_run: true,
            found: String::new(),
            exact_every_run: true,
            exactness: Exactness::UpperBoundNotChecked,
            solve_s: 0.0,
            bound_s: 0.0,
            bound_every_run: true,
            solve_mid: 0,
            solve_depth: 0,
            sf_s: 0.0,
            sf_nodes: 0,
            sf_found: String::new(),
            sf_every_run: true,
        };
        for run_index in 0..options.runs {
            for program in [run_index % 2, 1 - run_index % 2] {
                if program == 0 {
                    let proved = solver.prove(&line.fen, attacker, options.cap_s)?;
                    proof_s.push(proved.seconds);
                    row.proof_mid = proved.mid_calls;
                    row.proof_depth = proved.max_depth;
                    row.proof_status = proved.status;
                    row.proved_every_run &= proved.status == Status::Proven;
                    let solved = solver.solve(&line.fen, attacker, options.cap_s)?;
                    solve_s.push(solved.seconds);
                    // The first proof of a mate within the line's N.
                    match solved.bounds.iter().find(|&&(k, _)| k <= n) {
                        Some(&(_, t)) => bound_s.push(t),
                        None => row.bound_every_run = false,
                    }
                    row.solve_mid = solved.mid_calls;
                    row.solve_depth = solved.max_depth;
                    row.exact_every_run &= solved.exactness == Exactness::Exact
                        && matches!(solved.claim, Claim::Mate { .. });
                    row.exactness = solved.exactness;
                    if run_index == 0 {
                        row.found = run::shown(&solved.claim, false);
                        let (verdict, _) = run::judge(line, &solved.claim, &options.judge);
                        if matches!(verdict, Verdict::Wrong(_) | Verdict::Disputed(_)) {
                            println!("{}: proofnum {verdict:?}", line.id);
                            failures += 1;
                        }
                    }
                } else {
                    sf.new_game().map_err(|e| e.to_string())?;
                    let timeout = Duration::from_secs_f64(options.cap_s);
                    let a = sf
                        .go(&line.fen, Go::Mate(n), timeout)
                        .map_err(|e| e.to_string())?;
                    let mated = a.mate().is_some_and(|m| m > 0 && m as u32 <= n) && !a.stopped;
                    sf_s.push(a.elapsed.as_secs_f64());
                    row.sf_nodes = a.nodes;
                    row.sf_found = a.mate().map_or("?".into(), |m| format!("#{m}"));
                    row.sf_every_run &= mated;
                }
            }
        }
        row.proof_s = baseline::median(&proof_s);
        row.solve_s = baseline::median(&solve_s);
        if row.bound_every_run {
            row.bound_s = baseline::median(&bound_s);
        }
        row.sf_s = baseline::median(&sf_s);
        println!(
            "{:<14} {:>3} {:>9.3} {:>10} {:>5} {:>8} {:>9} {:>9.3} {:>11} {:>5} {:>6} {:>9.3} {:>11}  {}{}",
            row.id,
            n,
            row.proof_s,
            row.proof_mid,
            row.proof_depth,
            row.found,
            if row.bound_every_run {
                format!("{:.3}", row.bound_s)
            } else {
                "-".into()
            },
            row.solve_s,
            row.solve_mid,
            row.solve_depth,
            row.sf_found,
            row.sf_s,
            row.sf_nodes,
            if row.exact_faster() {
                "proofnum"
            } else {
                "stockfish"
            },
            if row.depth_limited() {
                "  DEPTH LIMIT"
            } else {
                ""
            }
        );
        rows.push(row);
    }
    summary(&rows, options);
    let load_after = baseline::load_average();
    println!("proofnum wrong or disputed: {failures}; load after: {load_after}");
    let records: Vec<Record> = rows
        .iter()
        .map(|r| Record {
            id: r.id.clone(),
            answer: if r.exact_every_run || r.found == "?" {
                r.found.clone()
            } else {
                format!("{}({})", r.found, short(r.exactness))
            },
            mid_calls: r.solve_mid,
            median_ms: 1e3 * r.solve_s,
            peer_work: Some(r.sf_nodes),
            peer_ms: Some(1e3 * r.sf_s),
        })
        .collect();
    if let Some(b) = &options.baseline {
        baseline::compare(&baseline::read(b), &records);
    }
    if let Some(out) = &options.write_baseline {
        let header = vec![
            format!(
                "chesssuite bench {path} --min-mate {} --max-mate {} --cap {} --runs {} --memory-mib {} --solve-positions {}; load {load_before} before, {load_after} after",
                options.min_mate, options.max_mate, options.cap_s, options.runs, options.memory_mib, options.solve_positions
            ),
            "answer: proofnum's N from solve_mate (#N exact; #≤N(reason) a bound); mid_calls and median_ms: solve_mate's (every search: proof, distance, line, confirmation)".into(),
            "peer: Stockfish `go mate N`, one thread, same hash: nodes and median ms".into(),
        ];
        std::fs::write(out, baseline::format(&header, &records)).map_err(|e| e.to_string())?;
        println!("baseline written to {out}");
    }
    Ok(failures == 0)
}

/// A short reason for a bound in the baseline's answer column.
fn short(exactness: Exactness) -> &'static str {
    match exactness {
        Exactness::Exact => "exact",
        Exactness::UpperBoundNotChecked => "unchecked",
        Exactness::UpperBound(Reason::DepthLimit) | Exactness::Unknown(Reason::DepthLimit) => {
            "depth"
        }
        Exactness::UpperBound(Reason::TimeLimit) | Exactness::Unknown(Reason::TimeLimit) => "time",
        Exactness::UpperBound(_) | Exactness::Unknown(_) => "limit",
    }
}

/// Per mate length, the worst lines and the depth-limit aborts.
fn summary(rows: &[Row], options: &Options) {
    let cap = options.cap_s;
    println!(
        "{:>6} {:>5} {:>7} {:>7} {:>9} {:>9} {:>12} {:>10} {:>10} {:>10} {:>12} {:>11}",
        "N",
        "lines",
        "proven",
        "exact",
        "sf finds",
        "faster",
        "bound first",
        "med N s",
        "med sf s",
        "med ratio",
        "med N MID",
        "depth lim."
    );
    let mut lengths: Vec<u32> = rows.iter().map(|r| r.n).collect();
    lengths.sort();
    lengths.dedup();
    let groups: Vec<(String, Vec<&Row>)> = lengths
        .iter()
        .map(|&n| (n.to_string(), rows.iter().filter(|r| r.n == n).collect()))
        .chain([
            (
                "5-12".to_string(),
                rows.iter().filter(|r| (5..=12).contains(&r.n)).collect(),
            ),
            ("all".to_string(), rows.iter().collect()),
        ])
        .collect();
    for (name, group) in groups {
        if group.is_empty() {
            continue;
        }
        let k = group.len();
        let count = |f: &dyn Fn(&Row) -> bool| group.iter().filter(|r| f(r)).count();
        let med = |f: &dyn Fn(&Row) -> f64| {
            baseline::median(&group.iter().map(|r| f(r)).collect::<Vec<_>>())
        };
        let faster = count(&|r| r.exact_faster());
        let first = count(&|r| r.bound_first());
        println!(
            "{:>6} {:>5} {:>7} {:>7} {:>9} {:>5} {:>2.0}% {:>8} {:>2.0}% {:>10.3} {:>10.3} {:>10.2} {:>12.0} {:>11}",
            name,
            k,
            count(&|r| r.proved_every_run),
            count(&|r| r.exact_every_run),
            count(&|r| r.sf_every_run),
            faster,
            100.0 * faster as f64 / k as f64,
            first,
            100.0 * first as f64 / k as f64,
            med(&|r| if r.exact_every_run { r.solve_s } else { cap }),
            med(&|r| if r.sf_every_run { r.sf_s } else { cap }),
            med(&|r| r.ratio(cap)),
            med(&|r| r.solve_mid as f64),
            count(&|r| r.depth_limited())
        );
    }
    let mut worst: Vec<&Row> = rows.iter().collect();
    worst.sort_by(|a, b| b.ratio(cap).partial_cmp(&a.ratio(cap)).unwrap());
    println!(
        "worst lines by time ratio (proofnum's exact N / Stockfish's go mate N; a capped run counts at the cap):"
    );
    for r in worst.iter().take(10) {
        println!(
            "  {:<14} N {:>2}: ratio {:>8.1}, proofnum {} in {:.3} s ({} MID, {}; proof {:.3} s, {} MID, depth {}), Stockfish {} in {:.3} s",
            r.id,
            r.n,
            r.ratio(cap),
            r.found,
            r.solve_s,
            r.solve_mid,
            r.exactness,
            r.proof_s,
            r.proof_mid,
            r.proof_depth,
            r.sf_found,
            r.sf_s
        );
    }
    let dives: Vec<&&Row> = worst.iter().filter(|r| r.depth_limited()).collect();
    println!(
        "depth-limit aborts (a search reached {MAX_DEPTH} plies for the proof, or the distance searches' limit): {}",
        dives.len()
    );
    for r in dives {
        println!(
            "  {:<14} N {:>2}: proof {:?} after {} MID calls (depth {}), distance {}",
            r.id, r.n, r.proof_status, r.proof_mid, r.proof_depth, r.exactness
        );
    }
}
