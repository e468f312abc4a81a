//! The parallel solver's calls (`std` builds).
//!
//! They exist in every build so the header is one ABI. Until the core's parallel solver is
//! available they return `PN_STATUS_UNSUPPORTED`, as they always do without `std`;
//! `pn_features()` says which is the case.

use crate::config::pn_limits;
use crate::game::pn_game;
use crate::result::pn_result;
use crate::solver::pn_solver;
use crate::status::pn_status;

/// True when the parallel calls work in this build.
pub(crate) const AVAILABLE: bool = false;

/// `pn_solve` with `threads` worker threads (from the configuration), each with its own copy
/// of the game made by the game's `clone` callback. Returns `PN_STATUS_UNSUPPORTED` when
/// `pn_features()` lacks `PN_FEATURE_PARALLEL`.
///
/// # Safety
/// As `pn_solve`; the game's callbacks must also be safe to call on copies from other
/// threads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solve_parallel(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
    limits: *const pn_limits,
    out_result: *mut pn_result,
) -> pn_status {
    let _ = (solver, game, attacker, limits, out_result);
    pn_status::Unsupported
}

/// `pn_solve_value` with worker threads, as `pn_solve_parallel`.
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
    let _ = (solver, game, limits, out_result);
    pn_status::Unsupported
}
