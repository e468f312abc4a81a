//! The parallel solver's calls.
//!
//! They exist in every build so the header is one ABI. Without the `std` feature they return
//! `PN_STATUS_UNSUPPORTED`; with it they run the core's parallel PN-DFPN
//! (`proofnum::parallel`): worker threads that each search their own copy of the game
//! (`copies`) and share the solver's transposition table.
//!
//! # Memory
//! The table is the solver's own: for the call its bytes are viewed as a
//! [`SharedTable`](proofnum_core::SharedTable) (the same bytes and layout, nothing copied), so
//! what a parallel search stores is there for a later `pn_solve`, `pn_principal_variation`,
//! `pn_verify` or `pn_table_save`, and what they stored is there for it. Unlike the rest of
//! the interface the parallel calls allocate, and free before returning: the threads, one
//! df-pn stack and one move buffer per thread, the root PN tree, and byte copies of the game.
//! The walk that confirms an answer (`confirm`) runs on the calling thread once the workers
//! are done, over the shared table, on one more copy of the game, with the solver's
//! verification memo and a df-pn stack the call allocates; the solver's own stack and move
//! buffer are not used.
//!
//! # Limits
//! The node limit and the stop flag (`pn_solver_stop`, from any thread) work as for the serial
//! calls, except that the node limit is checked when a job starts, so a search may overrun it
//! by up to one job per thread. The time limit is wall time on the system's monotonic clock:
//! the limits' `clock` is not called, since it was never promised to be callable from other
//! threads.

#[cfg(feature = "std")]
pub(crate) mod copies;

use crate::config::pn_limits;
use crate::game::pn_game;
use crate::result::pn_result;
use crate::solver::pn_solver;
use crate::status::pn_status;

/// True when the parallel calls work in this build.
pub(crate) const AVAILABLE: bool = cfg!(feature = "std");

/// `pn_solve` with worker threads: can `attacker` (0 or 1, a `pn_side`) force a win from the
/// game's position? Returns `PN_STATUS_UNSUPPORTED` when `pn_features()` lacks
/// `PN_FEATURE_PARALLEL`.
///
/// The search is always the parallel PN-DFPN, whatever the configuration's `engine` (a PNS
/// solver's arena is left unused). The solver's configuration gives the threads (`threads`, 0
/// for one per core), the depth and the moves per position; its transposition table is
/// shared by the threads and keeps what they found for later calls. Each thread searches its
/// own copy of the game, made before the search with the game's `clone` callback (or as a
/// byte copy of `copy_size` bytes) and released with `free` before returning; the game's own
/// position is only read. See `pn_game` for the threading contract of the callbacks. Unlike
/// the rest of the interface, the call allocates (threads, their search stacks and move
/// buffers, the root search tree, byte copies of the game), and frees everything before
/// returning.
///
/// The answer is confirmed as `pn_solve`'s is (by default, and always over a loaded table):
/// once the workers are done, the walk runs on the calling thread over the shared table, on
/// one more copy of the game (so `clone` makes one copy more than there are threads), and a
/// refuted answer is searched again in parallel over new table keys.
///
/// Statuses and what is written are as for `pn_solve`, with these differences:
/// `PN_STATUS_MISSING_CALLBACK` when the game has neither `clone` and `free` nor
/// `copy_size`, `PN_STATUS_INVALID_ARGUMENT` when it has both `clone` and `copy_size`, and
/// `PN_STATUS_CALLBACK_FAILED` (a non-zero return) or `PN_STATUS_CALLBACK_INVALID` (a NULL
/// copy, or the original) when `clone` cannot make the copies; in these cases nothing is
/// searched and nothing is written. `distance` is 0. `max_time_us` is wall time on the
/// system's monotonic clock (the limits' `clock` is never called), the node limit may be
/// overrun by one job per thread, and `progress` is called from the worker threads, one call
/// at a time. The statistics add `jobs`, `threads` and `worker_idle_per_mille`.
/// `PN_STATUS_MEMORY_LIMIT` means the call could not have the memory or threads it needs: it
/// never aborts the process for them. When a worker thread, its search stack or its move
/// buffer could not be had the result is written; when the byte copies of the game
/// (`copy_size`) could not be, nothing is searched and nothing is written.
///
/// # Safety
/// As `pn_solve`; the game's callbacks must also keep the threading contract of `pn_game`,
/// and with `copy_size` the game's `ctx` must point to that many readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solve_parallel(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
    limits: *const pn_limits,
    out_result: *mut pn_result,
) -> pn_status {
    #[cfg(feature = "std")]
    {
        // SAFETY: forwarded from the caller.
        unsafe { imp::solve(solver, game, Some(attacker), limits, out_result) }
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = (solver, game, attacker, limits, out_result);
        pn_status::Unsupported
    }
}

/// `pn_solve_value` with worker threads: the value of the position for its side to move,
/// from two parallel searches sharing the table (the second reuses the first one's copies of
/// the game). Everything else is as for `pn_solve_parallel`.
///
/// # Safety
/// As `pn_solve_parallel`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solve_value_parallel(
    solver: *mut pn_solver,
    game: *const pn_game,
    limits: *const pn_limits,
    out_result: *mut pn_result,
) -> pn_status {
    #[cfg(feature = "std")]
    {
        // SAFETY: forwarded from the caller.
        unsafe { imp::solve(solver, game, None, limits, out_result) }
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = (solver, game, limits, out_result);
        pn_status::Unsupported
    }
}

/// The calls' bodies (`std` builds).
#[cfg(feature = "std")]
mod imp {
    use core::ffi::c_void;
    use core::sync::atomic::AtomicBool;
    use std::time::Duration;

    use proofnum_core::parallel::{
        ParallelConfig, ParallelLimits, ParallelProgress, ParallelSolver,
    };
    use proofnum_core::{Player, SharedTable, Status, Table, Value};

    use super::copies::{Copies, WorkerGame};
    use crate::boundary::{Arg, out_struct};
    use crate::config::{PN_UNLIMITED, pn_limits, pn_progress};
    use crate::error::Error;
    use crate::game::{RULE_ACYCLIC, RULE_BY_POSITION, RULE_DRAW, pn_game, pn_outcome};
    use crate::game::{pn_repetition, pn_side};
    use crate::result::{pn_result, pn_stats};
    use crate::solver::{Inner, handle, pn_solver, read_game, with_solver};
    use crate::status::pn_status;

    const _: () =
        assert!(crate::config::PN_MAX_THREADS as usize == proofnum_core::parallel::MAX_THREADS);

    /// Both exports: `attacker` for `pn_solve_parallel`, `None` for the value.
    ///
    /// # Safety
    /// As `pn_solve_parallel`.
    pub(super) unsafe fn solve(
        solver: *mut pn_solver,
        game: *const pn_game,
        attacker: Option<u32>,
        limits: *const pn_limits,
        out_result: *mut pn_result,
    ) -> pn_status {
        // SAFETY: forwarded from the caller.
        let solver = unsafe { handle(solver) };
        with_solver(solver, |locked| {
            // SAFETY: forwarded from the caller.
            let (game, limits, out_result) = unsafe {
                (
                    read_game(game)?,
                    pn_limits::read_any(limits)?,
                    out_struct(out_result).struct_arg(out_result, "out_result")?,
                )
            };
            let attacker = attacker.map(|a| pn_side::arg(a, "attacker")).transpose()?;
            let inner = &mut *locked.inner;
            let stop = locked.solver.stop_flag();
            let result = match pn_repetition::of(&game)? {
                pn_repetition::Draw => run::<RULE_DRAW>(inner, &game, attacker, &limits, stop),
                pn_repetition::Acyclic => {
                    run::<RULE_ACYCLIC>(inner, &game, attacker, &limits, stop)
                }
                pn_repetition::ByPosition => {
                    run::<RULE_BY_POSITION>(inner, &game, attacker, &limits, stop)
                }
            };
            locked.finish(result, out_result, &limits)
        })
    }

    /// One parallel call for a game with repetition rule `R`.
    fn run<const R: u8>(
        inner: &mut Inner,
        game: &pn_game,
        attacker: Option<Player>,
        limits: &pn_limits,
        stop: &AtomicBool,
    ) -> Result<pn_result, Error> {
        let settings = inner.config.settings()?;
        let parallel = ParallelSolver::new(ParallelConfig {
            threads: settings.threads as usize,
            dfpn: settings.dfpn,
            max_depth: settings.max_depth,
            max_moves: settings.max_moves,
            ..ParallelConfig::default()
        })
        .map_err(pn_status::from_memory_error)?;
        let copies = Copies::new(game)?;
        // SAFETY: the caller of the parallel call promised the callbacks may be called with
        // the game's own context on this thread during the call.
        let root = unsafe { WorkerGame::<R>::root(game, &copies, settings.max_moves)? };
        let confirm = inner.confirms();
        // The table before the copies: a table that does not read is not worth copying for.
        let table = Table::attach(&mut *inner.table).map_err(|_| pn_status::InvalidHandle)?;
        let memo = &mut *inner.memo;
        // One copy per worker, and one for the walk that confirms the answers on this thread.
        let copies_needed = parallel.threads() + usize::from(confirm);
        // SAFETY: `game.ctx` is the game's own context, used only by this thread here; with a
        // byte copy it holds `copy_size` readable bytes (the caller's contract).
        unsafe { copies.fill(game.ctx, copies_needed)? };
        let mut table = SharedTable::from_table(table);
        let (outcome, best_move, stats) = with_limits(limits, stop, |l| match attacker {
            Some(attacker) => {
                let r = if confirm {
                    parallel.solve_confirmed(&root, attacker, &mut table, memo, l)
                } else {
                    parallel.solve(&root, attacker, &table, l)
                };
                let outcome = match r.status {
                    Status::Proven => Ok(pn_outcome::Proven),
                    Status::Disproven => Ok(pn_outcome::Disproven),
                    Status::Unknown(reason) => Err(reason),
                };
                (outcome, r.best_move, r.stats)
            }
            None => {
                let r = if confirm {
                    parallel.solve_value_confirmed(&root, &mut table, memo, l)
                } else {
                    parallel.solve_value(&root, &table, l)
                };
                let outcome = r.value.map(|v| match v {
                    Value::Win => pn_outcome::Win,
                    Value::Loss => pn_outcome::Loss,
                    Value::Draw => pn_outcome::Draw,
                });
                (outcome, r.best_move, r.stats)
            }
        });
        // Every worker's adapter is gone (the solver joined its threads), so every failure of
        // a copy is recorded; the root adapter's own is read before it goes too.
        let failure = root.failure().or(copies.failure());
        drop(root);
        let result = match (failure.map(|error| inner.note(error)), outcome) {
            (Some(status), _) => pn_result::new(status, pn_outcome::Unknown),
            (None, Ok(outcome)) => pn_result::new(pn_status::Ok, outcome).with_move(best_move),
            (None, Err(reason)) => {
                pn_result::new(pn_status::from_reason(reason), pn_outcome::Unknown)
            }
        };
        Ok(pn_result {
            stats: pn_stats::from(&stats),
            ..result
        })
    }

    /// The progress callback's context, sent to the worker thread that reports.
    struct ProgressCtx(*mut c_void);

    // SAFETY: the header's contract for the parallel calls: `progress` may be called with
    // `progress_ctx` from the worker threads, one call at a time (the solver reports under its
    // tree lock).
    unsafe impl Send for ProgressCtx {}

    impl ProgressCtx {
        fn get(&self) -> *mut c_void {
            self.0
        }
    }

    /// Runs `body` with the C limits as the parallel solver's: the node limit, the stop flag,
    /// the time limit as wall time, and progress reports.
    fn with_limits<Out>(
        limits: &pn_limits,
        stop: &AtomicBool,
        body: impl FnOnce(&mut ParallelLimits<'_>) -> Out,
    ) -> Out {
        let progress = limits.progress;
        let ctx = ProgressCtx(limits.progress_ctx);
        let mut report = move |p: &ParallelProgress| {
            if let Some(f) = progress {
                let snapshot = pn_progress {
                    struct_size: size_of::<pn_progress>(),
                    mid_calls: p.mid_calls,
                    nodes: p.nodes,
                    max_depth: 0,
                    elapsed_us: u64::try_from(p.elapsed.as_micros()).unwrap_or(u64::MAX),
                    root_phi: p.root.phi,
                    root_delta: p.root.delta,
                };
                // SAFETY: the caller of the parallel call promised that `progress` may be
                // called with `progress_ctx` from a worker thread, one call at a time; the
                // snapshot lives across the call. (`ctx.get()` makes the closure capture the
                // whole `ProgressCtx`, which is `Send`, not its raw pointer.)
                unsafe { f(ctx.get(), &snapshot) }
            }
        };
        let mut l = ParallelLimits {
            max_nodes: limits.max_nodes,
            max_time: (limits.max_time_us != PN_UNLIMITED)
                .then(|| Duration::from_micros(limits.max_time_us)),
            stop: Some(stop),
            ..ParallelLimits::none()
        };
        if progress.is_some() {
            l.progress = Some(&mut report);
        }
        body(&mut l)
    }
}
