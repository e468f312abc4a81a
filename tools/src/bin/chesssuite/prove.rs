//! proofnum alone on the suite's mates, counted: for every line where the side to move mates
//! in at least `--min-mate` moves, df-pn's proof with a budget of MID calls (so every figure
//! but the time is deterministic), printing MID calls and positions evaluated per line and in
//! total. The yardstick for changes to the chess game's knowledge and to df-pn's settings:
//! run it before and after, and under `valgrind --tool=callgrind` for instructions.

use proofnum::{DfpnConfig, Epsilon, Reason, Status};

use crate::epd::Line;
use proofnum_games::chess::Knowledge;

use crate::solve::Solver;

/// What `prove` measures.
pub struct Options {
    /// Lines with a mate of at least this many moves.
    pub min_mate: u32,
    /// At most this many.
    pub max_mate: u32,
    /// Only the lines with these ids (all when empty).
    pub ids: Vec<String>,
    /// MID calls per line.
    pub max_mid_calls: u64,
    /// proofnum's table, MiB.
    pub table_mib: f64,
    /// df-pn's settings.
    pub config: DfpnConfig,
    /// Checks-only mode (mates by checks only).
    pub checks_only: bool,
    /// The chess knowledge in use.
    pub knowledge: Knowledge,
    /// MID calls of a checks-only search before the full one (0: none).
    pub checks_first: u64,
}

/// Parses `--epsilon A/B`.
pub fn epsilon(text: &str) -> Option<Epsilon> {
    let (a, b) = text.split_once('/')?;
    Epsilon::new(a.parse().ok()?, b.parse().ok()?)
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Proves every selected line; prints one row per line and the totals.
pub fn prove(path: &str, lines: &[Line], options: &Options) -> Result<(), String> {
    let lines: Vec<&Line> = lines
        .iter()
        .filter(|l| {
            l.mate.is_some_and(|m| {
                m >= 0 && (options.min_mate..=options.max_mate).contains(&m.unsigned_abs())
            })
        })
        .filter(|l| options.ids.is_empty() || options.ids.contains(&l.id))
        .collect();
    println!(
        "{path}: {} lines with the side to move mating in {} to {}; budget {} MID calls, \
         table {} MiB, {:?}, {:?}",
        lines.len(),
        options.min_mate,
        options.max_mate,
        options.max_mid_calls,
        options.table_mib,
        options.config,
        options.knowledge
    );
    println!(
        "{:<14} {:>4} {:>10} {:>12} {:>12} {:>12} {:>9}",
        "id", "N", "status", "MID calls", "positions", "table hits", "seconds"
    );
    let mut solver = Solver::new(options.table_mib, options.checks_only);
    solver.knowledge = options.knowledge;
    solver.checks_first = options.checks_first;
    let (mut proven, mut mid, mut nodes, mut seconds) = (0, 0, 0, 0.0);
    let mut per_line = Vec::new();
    for line in &lines {
        let attacker = line.board().side_to_move();
        let p = solver.prove_within(
            &line.fen,
            attacker,
            f64::MAX / 4.0,
            options.max_mid_calls,
            options.config,
        )?;
        let status = match p.status {
            Status::Proven => "proven",
            Status::Disproven => "DISPROVEN",
            Status::Unknown(Reason::DepthLimit) => "depth",
            Status::Unknown(_) => "open",
        };
        if p.status == Status::Disproven && !options.checks_only {
            return Err(format!(
                "{}: a mate the suite states was disproven",
                line.id
            ));
        }
        proven += usize::from(p.status == Status::Proven);
        mid += p.mid_calls;
        nodes += p.nodes;
        seconds += p.seconds;
        per_line.push(p.mid_calls);
        println!(
            "{:<14} {:>4} {:>10} {:>12} {:>12} {:>12} {:>9.3}",
            line.id,
            line.mate.unwrap_or(0),
            status,
            p.mid_calls,
            p.nodes,
            p.table_hits,
            p.seconds
        );
    }
    // The geometric mean weighs a halving on a short proof as much as on a long one (an open
    // line counts at the budget).
    let geometric = (per_line
        .iter()
        .map(|&m| (m.max(1) as f64).ln())
        .sum::<f64>()
        / per_line.len().max(1) as f64)
        .exp();
    println!(
        "proven {proven}/{}; MID calls {mid} (median {}, geometric mean {geometric:.0}), \
         positions {nodes}, {seconds:.2} s",
        lines.len(),
        median(per_line)
    );
    Ok(())
}
