//! The exported calls that build a solver and search with it, in the order a caller uses
//! them: its memory, its init, its configuration, the two solve calls, and the stop request.

use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::mem::{align_of, size_of};
use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, Ordering};

use proofnum_core::Table;
use proofnum_core::memory::Carver;

use super::searcher::{Engine, PnsEngine, Searcher};
use super::{Inner, Layout, SOLVER_MAGIC, handle, memory_layout, pn_solver, with_solver};
use crate::boundary::{self, Arg, guard, out, out_struct, out_version, read_input};
use crate::claims;
use crate::config::{SerialEngine, pn_config, pn_limits};
use crate::error::{Error, Message};
use crate::game::{CGame, RULE_DRAW, pn_game, pn_side};
use crate::result::pn_result;
use crate::status::pn_status;

/// How much memory, and aligned to what, a solver with this configuration needs: writes the
/// byte count to `*out_bytes` and the alignment of its start to `*out_align`. Fails with
/// `PN_STATUS_INVALID_ARGUMENT` for an out-of-range configuration.
///
/// # Safety
/// Every pointer is NULL or valid for its type (`config` for reading, the others for writing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solver_memory_requirements(
    config: *const pn_config,
    out_bytes: *mut usize,
    out_align: *mut usize,
) -> pn_status {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (config, out_bytes, out_align) =
            unsafe { (read_input(config)?, out(out_bytes)?, out(out_align)?) };
        let layout = memory_layout(&config)?;
        out_bytes.write(layout.total_bytes);
        out_align.write(align_of::<pn_solver>());
        Ok(())
    })
}

/// Builds a solver inside `memory` (`memory_bytes` long) and writes its pointer to
/// `*out_solver`. The memory must be at least as large and as aligned as
/// `pn_solver_memory_requirements` says (otherwise `PN_STATUS_BUFFER_TOO_SMALL` or
/// `PN_STATUS_MISALIGNED`, and the memory is untouched). The solver uses only this memory and
/// owns nothing else: there is nothing to free. It must stay in place, untouched by anything
/// else, while the solver is used; afterwards the memory is the caller's again.
///
/// Memory that a call is using right now (`pn_solver_init` from inside a callback of that
/// call, or from another thread) is not rebuilt: the init returns `PN_STATUS_BUSY` and
/// touches nothing, and a call on a solver whose memory an init is rebuilding returns
/// `PN_STATUS_BUSY` too. The library tracks 64 calls and inits at once in static memory;
/// while more run, an init returns `PN_STATUS_BUSY`.
///
/// # Safety
/// `memory` is NULL or valid for reads and writes of `memory_bytes` bytes for as long as the
/// solver is used; the other pointers are NULL or valid for their types.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solver_init(
    memory: *mut c_void,
    memory_bytes: usize,
    config: *const pn_config,
    out_solver: *mut *mut pn_solver,
) -> pn_status {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (config, out_solver) = unsafe { (read_input(config)?, out(out_solver)?) };
        let settings = config.settings()?;
        let layout = Layout::of(&settings)?;
        let base = boundary::non_null(memory as *const pn_solver)?.as_ptr();
        if memory_bytes < layout.total_bytes {
            return Err(pn_status::BufferTooSmall);
        }
        // Memory that a running call uses (from one of its callbacks, or another thread) is
        // left alone; the claim also keeps calls off this memory until the solver is built.
        let _claim = claims::claim(
            claims::Kind::Init,
            base as usize,
            (base as usize).saturating_add(layout.total_bytes),
        )?;
        // Everything is checked; from here on the memory is the solver's.
        let base_bytes = base as *mut u8;
        // SAFETY: the caller gives `memory_bytes >= total_bytes` writable bytes at `memory`.
        // Zeroing them first makes every byte initialised before Rust slices cover them.
        unsafe { core::ptr::write_bytes(base_bytes, 0, layout.total_bytes) };
        let head = size_of::<pn_solver>();
        // SAFETY: the bytes after the object are in bounds (`total_bytes` counts them),
        // initialised, and borrowed only by this solver for as long as the caller keeps the
        // memory, which the C contract makes the lifetime of the solver ('static here).
        let regions: &'static mut [u8] = unsafe {
            core::slice::from_raw_parts_mut(base_bytes.add(head), layout.total_bytes - head)
        };
        let mut carver = Carver::new(regions);
        let table = carver.take_filled::<u8>(settings.table_bytes, 0);
        let stack = carver.take_filled::<u8>(layout.stack_bytes, 0);
        let arena = carver.take_filled::<u8>(layout.arena_bytes, 0);
        let moves = carver.take_filled::<u32>(settings.max_moves, 0);
        let memo = carver.take_filled::<u64>(settings.verify_memo_entries, 0);
        carver.finish().map_err(|_| pn_status::InternalError)?;
        let (Some(table), Some(stack), Some(arena), Some(moves), Some(memo)) =
            (table, stack, arena, moves, memo)
        else {
            return Err(pn_status::InternalError);
        };
        Table::new(&mut *table).map_err(pn_status::from_table_error)?;
        let mut searcher = Searcher {
            engine: Engine::Empty,
            stack_bytes: stack.len(),
            stack: NonNull::from(stack).cast(),
            pns: PnsEngine::Empty,
            arena_bytes: arena.len(),
            arena: NonNull::from(arena).cast(),
            settings,
        };
        // The default rule's searchers now, so a layout mistake shows here and not later.
        searcher.get::<CGame<RULE_DRAW>>()?;
        if settings.engine != SerialEngine::Dfpn {
            searcher.get_pns::<CGame<RULE_DRAW>>()?;
        }
        let solver = pn_solver {
            magic: SOLVER_MAGIC,
            address: base as usize,
            end: base as usize + layout.total_bytes,
            busy: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            inner: UnsafeCell::new(Inner {
                config,
                searcher,
                table,
                table_trusted: true,
                moves,
                memo,
                last_error: Message::EMPTY,
            }),
        };
        // SAFETY: `base` is aligned for `pn_solver` (checked by `non_null`) and the first
        // `size_of::<pn_solver>()` bytes are in bounds and borrowed by no region.
        unsafe { base.write(solver) };
        out_solver.write(base);
        Ok(())
    })
}

/// Writes the configuration the solver was built with to `*out_config`: the version of the
/// struct `pn_solver_init` was given (its `struct_size` bytes, `struct_size` included).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `out_config` is NULL or writable for
/// the `struct_size` given to `pn_solver_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solver_config(
    solver: *mut pn_solver,
    out_config: *mut pn_config,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        let config = locked.inner.config;
        // SAFETY: forwarded from the caller, who gave `pn_solver_init` this `struct_size`.
        let out_config =
            unsafe { out_version(out_config, config.struct_size) }.arg(out_config, "out_config")?;
        out_config.write(config);
        Ok(())
    })
}

/// Can `attacker` (0 or 1, a `pn_side`) force a win from the game's position? The search is
/// the configuration's `engine`: depth-first proof-number search (df-pn with the 1+ε trick,
/// the default), or best-first PNS or PN² in the solver's arena, within `limits` (NULL: no
/// limit). Draws count against the attacker. With PNS and PN² the statistics' `mid_calls`
/// count expansions.
///
/// The answer is confirmed before it is reported (unless the configuration's `confirm` opted
/// out, and always over a loaded table): the walk of `pn_verify` checks it without trusting
/// the table's solved entries, within the same limits, and an answer it refutes is searched
/// again over new table keys (`pn_stats.refutations`).
///
/// Returns `PN_STATUS_OK` when solved (`outcome` is `PN_OUTCOME_PROVEN` or
/// `PN_OUTCOME_DISPROVEN`). When the search ran but ended without an answer it returns why —
/// `PN_STATUS_NODE_LIMIT`, `TIME_LIMIT`, `STOPPED`, `DEPTH_LIMIT`, `TOO_MANY_MOVES`,
/// `CALLBACK_FAILED`, `CALLBACK_INVALID`, (PNS and PN²: the arena was full even after
/// freeing solved subtrees) `MEMORY_LIMIT`, or `UNCONFIRMED` (every search's answer was
/// refuted by its confirmation: positions the game's hash does not tell apart, most likely) —
/// and `*out_result` is written with that status, `PN_OUTCOME_UNKNOWN` and the counters. For
/// any other status nothing is written.
///
/// The game's position is restored before returning, unless a callback failed. The
/// transposition table keeps what this search learnt for later calls.
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `game` and `limits` are NULL or valid
/// for reading, with callbacks that are safe to call with their contexts during the call;
/// `out_result` is NULL or valid for writing, with `struct_size` set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solve(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
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
                pn_limits::read(limits)?,
                out_struct(out_result).struct_arg(out_result, "out_result")?,
            )
        };
        let attacker = pn_side::arg(attacker, "attacker")?;
        let stop = locked.solver.stop_flag();
        let result = locked.inner.solve(&game, attacker, &limits, stop);
        locked.finish(result, out_result, &limits)
    })
}

/// The game-theoretic value of the position for its side to move: `PN_OUTCOME_WIN`,
/// `PN_OUTCOME_DRAW` or `PN_OUTCOME_LOSS`. Two searches of the configured engine ("can the
/// side to move win?", then "can the opponent?") share the table and the limits. Statuses
/// and what is written are as for `pn_solve`; `distance` is 0.
///
/// # Safety
/// As `pn_solve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solve_value(
    solver: *mut pn_solver,
    game: *const pn_game,
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
                pn_limits::read(limits)?,
                out_struct(out_result).struct_arg(out_result, "out_result")?,
            )
        };
        let stop = locked.solver.stop_flag();
        let result = locked.inner.solve_value(&game, &limits, stop);
        locked.finish(result, out_result, &limits)
    })
}

/// Asks the running solve call to stop soon; it then returns `PN_STATUS_STOPPED` (or its
/// answer, if it found one first). The request reaches only the call running when it is made:
/// with no call running it does nothing, and every call starts without a request, so a late
/// stop (one meant for a search that has already returned) never stops a later search. To
/// cancel a search that another thread is about to start, repeat the request until that call
/// returns (a request racing with the end of one call and the start of the next may reach
/// either). A request made after the call has started, as the caller knows through its own
/// synchronisation (a callback that signals with release/acquire atomics, a mutex, a
/// channel), always reaches it. This is the one call that may be made from another thread, or from a callback,
/// while the solver is in use.
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solver_stop(solver: *mut pn_solver) -> pn_status {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let solver = unsafe { handle(solver)? };
        // A request while no call runs would be dropped by the next call's `lock` anyway;
        // skipping it here keeps the flag clear between calls. (A request racing with the end
        // of one call and the start of the next may reach either.)
        if solver.busy.load(Ordering::Acquire) {
            solver.stop.store(true, Ordering::Relaxed);
        }
        Ok(())
    })
}

/// Reads the game argument of a call, its errors said of `game`.
///
/// # Safety
/// As [`read_input`].
pub(crate) unsafe fn read_game(game: *const pn_game) -> Result<pn_game, Error> {
    // SAFETY: forwarded from the caller.
    unsafe { read_input(game).struct_arg(game, "game") }
}
