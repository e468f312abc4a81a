//! The parallel solver (`--threads`), over the same table memory as the serial searches.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use proofnum::{
    ParallelConfig, ParallelLimits, ParallelProgress, ParallelSolver, ParallelStats, Stats, Status,
};
use proofnum::{SharedTable, Table};

use crate::answer::{Answer, Found, Question};
use crate::games::Bundled;
use crate::outln;
use crate::progress::{self, ProgressLine};
use crate::report::count;
use crate::solve::Options;

/// Answers `question` with `threads` workers (confirmed with `memo` unless `--no-confirm`);
/// hands the table back for the line and check.
#[allow(clippy::too_many_arguments)]
pub fn solve<'t, G: Bundled>(
    game: &G,
    question: Question,
    table: Table<'t>,
    memo: &mut [u64],
    threads: usize,
    o: &Options,
    stop: &AtomicBool,
    start: &Instant,
) -> Result<(Found<G::Move>, Table<'t>), String> {
    let solver = ParallelSolver::new(ParallelConfig {
        threads,
        dfpn: o.dfpn_config(),
        max_depth: G::MAX_DEPTH,
        max_moves: G::MAX_MOVES,
        ..ParallelConfig::default()
    })
    .map_err(|e| format!("--threads: {e}"))?;
    let mut line = ProgressLine::new(o.quiet);
    let mut show = |p: &ParallelProgress| {
        line.show(p.elapsed.as_secs_f64(), || progress::parallel(p));
    };
    let mut shared = SharedTable::from_table(table);
    let mut limits = ParallelLimits {
        max_nodes: o.max_nodes.unwrap_or(u64::MAX),
        stop: Some(stop),
        max_time: o.max_seconds.map(Duration::from_secs_f64),
        progress: Some(&mut show),
        ..ParallelLimits::none()
    };
    let (answer, best_move, s) = match question {
        Question::Value => {
            let r = if o.no_confirm {
                solver.solve_value(game, &shared, &mut limits)
            } else {
                solver.solve_value_confirmed(game, &mut shared, memo, &mut limits)
            };
            (r.value.map(Answer::Value), r.best_move, r.stats)
        }
        Question::CanWin(attacker) => {
            let r = if o.no_confirm {
                solver.solve(game, attacker, &shared, &mut limits)
            } else {
                solver.solve_confirmed(game, attacker, &mut shared, memo, &mut limits)
            };
            let answer = match r.status {
                Status::Unknown(reason) => Err(reason),
                settled => Ok(Answer::Status(settled)),
            };
            (answer, r.best_move, r.stats)
        }
    };
    line.finish();
    outln!(
        "parallel: {} threads, {} jobs, root tree peak {} nodes, workers idle {:.1}%, tree locked {:.2}% of the time ({:.3} s since start)",
        s.threads,
        count(s.jobs),
        count(s.tree_nodes_peak as u64),
        100.0 * s.worker_idle_share,
        100.0 * s.coordinator_busy_share,
        start.elapsed().as_secs_f64()
    );
    let found = Found {
        answer,
        best_move,
        stats: serial_stats(&s),
    };
    Ok((found, shared.into_table()))
}

/// The counters the parallel and serial searches share.
fn serial_stats(s: &ParallelStats) -> Stats {
    Stats {
        mid_calls: s.mid_calls,
        nodes: s.nodes,
        max_depth: s.max_depth,
        repetitions: s.repetitions,
        table: s.table,
        elapsed_us: Some(s.elapsed.as_micros() as u64),
        confirm_nodes: s.confirm_nodes,
        refutations: s.refutations,
    }
}
