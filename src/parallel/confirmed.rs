//! The parallel solver's answers confirmed before they are reported, as the serial searches'
//! are ([`crate::confirm`]): the verification walk runs on the calling thread over the shared
//! table once the workers are done, and a refuted answer is searched again over the rekeyed
//! table.

use std::time::Instant;
use std::vec::Vec;

use crate::confirm::MAX_SEARCHES;
use crate::dfpn::Dfpn;
use crate::game::{Game, Player};
use crate::limits::{Limits, Reason};
use crate::number::Numbers;
use crate::proof::Verdict;
use crate::result::Status;
use crate::table::SharedTable;

use super::{
    ParallelLimits, ParallelResult, ParallelSolver, ParallelStats, ParallelValueResult,
    combine_stats, value_by,
};

impl ParallelSolver {
    /// [`solve`](ParallelSolver::solve), with a solved answer confirmed by the verification
    /// walk before it is returned (see [`crate::confirm`]): on the calling thread, over
    /// `table`, with `memo` as the walk's scratch memory (two words a position it verifies).
    /// A refuted answer is searched again over the [rekeyed](SharedTable::rekey) table, up to
    /// [`MAX_SEARCHES`] searches; the budgets of `limits` cover searches and walks together.
    /// The walk's df-pn stack is allocated here; when it cannot be, the result is
    /// [`Reason::MemoryLimit`].
    pub fn solve_confirmed<G>(
        &self,
        game: &G,
        attacker: Player,
        table: &mut SharedTable<'_>,
        memo: &mut [u64],
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        self.run_confirmed(game, attacker, false, table, memo, limits)
    }

    /// `solve_confirmed`, or with `reads_opponent` `solve_after_opponent` confirmed.
    fn run_confirmed<G>(
        &self,
        game: &G,
        attacker: Player,
        reads_opponent: bool,
        table: &mut SharedTable<'_>,
        memo: &mut [u64],
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        let start = Instant::now();
        let stack_bytes = Dfpn::<G>::stack_bytes(self.config.max_depth, self.config.max_moves);
        let mut stack = Vec::new();
        if stack.try_reserve_exact(stack_bytes).is_err() {
            return unconfirmed(Reason::MemoryLimit, ParallelStats::default());
        }
        stack.resize(stack_bytes, 0u8);
        let config = self.config;
        let Ok(mut walker) =
            Dfpn::<G>::new(&mut stack, config.max_depth, config.max_moves, config.dfpn)
        else {
            return unconfirmed(Reason::MemoryLimit, ParallelStats::default());
        };
        let mut position = game.clone();
        let mut spent = ParallelStats::default();
        for _ in 0..MAX_SEARCHES {
            let mut r = limits.after(&spent, |l| {
                self.run(game, attacker, reads_opponent, &[], table, l)
            });
            spent = combine_stats(&spent, &r.stats);
            spent.threads = r.stats.threads;
            spent.elapsed = start.elapsed();
            let claim = r.status;
            if let Status::Unknown(_) = claim {
                r.stats = spent;
                return r;
            }
            let v = limits.after(&spent, |l| {
                let mut clock = || start.elapsed().as_micros() as u64;
                let mut walk_limits = Limits {
                    max_nodes: l.max_nodes,
                    stop: l.stop,
                    clock: Some(&mut clock),
                    max_time_us: l.max_time.map_or(u64::MAX, |t| t.as_micros() as u64),
                    ..Limits::none()
                };
                let mut handle = table.handle();
                walker.verify(
                    &mut position,
                    attacker,
                    claim,
                    &mut handle,
                    memo,
                    &mut walk_limits,
                )
            });
            spent.confirm_nodes += v.stats.nodes + v.stats.search_nodes;
            spent.elapsed = start.elapsed();
            match v.verdict {
                Verdict::Verified => {
                    r.best_move = v.winning_move.or(r.best_move);
                    r.stats = spent;
                    return r;
                }
                Verdict::Unknown(reason) => {
                    r.status = Status::Unknown(reason);
                    r.stats = spent;
                    return r;
                }
                Verdict::Refuted => {
                    spent.refutations += 1;
                    table.rekey();
                }
            }
        }
        unconfirmed(Reason::Unconfirmed, spent)
    }

    /// [`solve_value`](ParallelSolver::solve_value) with each search's answer confirmed
    /// ([`solve_confirmed`](ParallelSolver::solve_confirmed)).
    pub fn solve_value_confirmed<G>(
        &self,
        game: &G,
        table: &mut SharedTable<'_>,
        memo: &mut [u64],
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelValueResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        // The second search reads the first's proofs, as in `solve_value`.
        let me = game.side_to_move();
        let read = crate::value::reads_opponent_pays(&table.handle());
        value_by(game, limits, |attacker, limits| {
            self.run_confirmed(game, attacker, read && attacker != me, table, memo, limits)
        })
    }
}

/// No answer, for `reason`.
fn unconfirmed<M>(reason: Reason, stats: ParallelStats) -> ParallelResult<M> {
    ParallelResult {
        status: Status::Unknown(reason),
        best_move: None,
        numbers: Numbers::UNIT,
        stats,
    }
}
