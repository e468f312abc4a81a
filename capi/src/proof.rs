//! After a search: the principal variation into a caller buffer, and the independent check of
//! a proof (the core's `proof` module).

use proofnum_core::proof::Verdict;
use proofnum_core::{Reason, Status, Verification};

use crate::boundary::{Arg, out, out_buffer, out_struct};
use crate::config::pn_limits;
use crate::error::Error;
use crate::fail;
use crate::game::{pn_game, pn_outcome, pn_side};
use crate::result::{pn_result, pn_stats};
use crate::solver::{handle, pn_solver, read_game, with_rule, with_solver};
use crate::status::pn_status;

/// Writes the principal variation of `attacker`'s search from the game's position into
/// `moves` (room for `moves_capacity` moves) and its length to `*out_length`: the winner's
/// shortest win and the loser's longest resistance, as far as the proofs found tell. Call it
/// after a solve of the same position (what the table no longer holds is searched again,
/// within `limits`); each move of the line is checked to win, or resist, on this very line.
///
/// Returns `PN_STATUS_OK` when the line reaches the end of the game (or a repetition). When
/// the walk ran but the line was cut, the moves found so far are written all the same and the
/// status says why: `PN_STATUS_BUFFER_TOO_SMALL` (the buffer is full: the line goes on), a
/// limit (`NODE_LIMIT`, `TIME_LIMIT`, `STOPPED`, `DEPTH_LIMIT`, `TOO_MANY_MOVES`), or
/// `PN_STATUS_REFUTED` (the position does not go the way the search said). After a failed
/// callback `*out_length` is 0. For any other status nothing is written. Only the first
/// `*out_length` moves are the line; the rest of the buffer may be overwritten.
///
/// # Safety
/// As `pn_solve`; `moves` is NULL or writable for `moves_capacity` moves (its contents need
/// not be initialised) and does not overlap the solver's memory; `out_length` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_principal_variation(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
    limits: *const pn_limits,
    moves: *mut u32,
    moves_capacity: usize,
    out_length: *mut usize,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        // SAFETY: forwarded from the caller.
        let (game, limits, out_length) = unsafe {
            (
                read_game(game)?,
                pn_limits::read(limits)?,
                out(out_length).arg(out_length, "out_length")?,
            )
        };
        let attacker = pn_side::arg(attacker, "attacker")?;
        if moves.is_null() && moves_capacity > 0 {
            return Err(fail!(
                pn_status::NullPointer,
                "moves is NULL with moves_capacity {moves_capacity}"
            ));
        }
        let bytes = moves_capacity.saturating_mul(size_of::<u32>());
        if moves_capacity > 0 && locked.solver.overlaps(moves as *const u8, bytes) {
            return Err(fail!(
                pn_status::InvalidArgument,
                "moves ({moves:p}, {moves_capacity} moves) overlaps the solver's memory"
            ));
        }
        // SAFETY: forwarded from the caller; the buffer is not the solver's memory.
        let line = unsafe { out_buffer(moves, moves_capacity) }.arg(moves, "moves")?;
        let stop = locked.solver.stop_flag();
        let (variation, failure) = with_rule!(locked.inner, &game, |dfpn, g, table, _memo| {
            // The walk runs: from here the buffer is written (zeroed first, since the
            // caller's memory may be uninitialised and a slice must cover
            // initialised values).
            let line = line.zeroed();
            limits.with(stop, |l| {
                dfpn.principal_variation(g, attacker, table, line, l)
            })
        })?;
        stop.store(false, core::sync::atomic::Ordering::Relaxed);
        let status = match (failure, variation.cut) {
            (Some(status), _) => {
                out_length.write(0);
                return Err(status.into());
            }
            (None, None) => pn_status::Ok,
            // The walker's own check: the buffer was full before the line ended.
            (None, Some(Reason::TooManyMoves)) if variation.len == moves_capacity => {
                out_length.write(variation.len);
                return Err(fail!(
                    pn_status::BufferTooSmall,
                    "moves holds {moves_capacity} moves (moves_capacity) and the line goes \
                     on; the first {moves_capacity} are written"
                ));
            }
            // The walker found the root's result changed under it.
            (None, Some(Reason::Thresholds)) => pn_status::Refuted,
            (None, Some(reason)) => pn_status::from_reason(reason),
        };
        out_length.write(variation.len);
        match status {
            pn_status::Ok => Ok(()),
            status => Err(status.into()),
        }
    })
}

/// Checks a result independently: walks the whole proof tree (`claim` is
/// `PN_OUTCOME_PROVEN`: `attacker` wins) or disproof tree (`PN_OUTCOME_DISPROVEN`) from the
/// game's position, accepting only leaves the game itself scores (finished games, positions
/// without moves, repetitions). The table only suggests which move to try, so a wrong entry
/// (a collision of its 32-bit check) cannot pass; positions it no longer holds are searched
/// again within `limits`. Verified positions are remembered in the configured
/// `verify_memo_entries`.
///
/// Returns `PN_STATUS_OK` when the claim is verified (`outcome` is the claim, `best_move` the
/// winning move when the winner is to move), `PN_STATUS_REFUTED` when it does not hold, or
/// the status of a limit; `*out_result` is written in those cases, with the positions walked
/// in `stats.nodes`. For any other status nothing is written.
///
/// # Safety
/// As `pn_solve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_verify(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
    claim: u32,
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
        let claim_status = claim_of(claim)?;
        let stop = locked.solver.stop_flag();
        let result = with_rule!(locked.inner, &game, |dfpn, g, table, memo| {
            limits.with(stop, |l| {
                dfpn.verify(g, attacker, claim_status, table, memo, l)
            })
        })
        .map(|(v, failure)| walked(&v, failure, claim_status));
        locked.finish(result, out_result, &limits)
    })
}

/// The claim `PN_OUTCOME_PROVEN` or `PN_OUTCOME_DISPROVEN` from C.
pub(crate) fn claim_of(claim: u32) -> Result<Status, Error> {
    match claim {
        x if x == pn_outcome::Proven as u32 => Ok(Status::Proven),
        x if x == pn_outcome::Disproven as u32 => Ok(Status::Disproven),
        _ => Err(fail!(
            pn_status::InvalidArgument,
            "claim is {claim}; expected 4 (PN_OUTCOME_PROVEN) or 5 (PN_OUTCOME_DISPROVEN)"
        )),
    }
}

/// The result of a verification walk of `claim` (`pn_verify`, `pn_certify`): the claim when
/// verified (with the checked winning move), `PN_STATUS_REFUTED`, or why the walk ended
/// without a verdict; a broken callback's status overrides all of them. `stats.nodes` counts
/// the positions walked.
pub(crate) fn walked(
    v: &Verification<u32>,
    failure: Option<pn_status>,
    claim: Status,
) -> pn_result {
    let stats = pn_stats {
        nodes: v.stats.nodes,
        ..pn_stats::default()
    };
    let result = match (failure, v.verdict) {
        (Some(status), _) => pn_result::new(status, pn_outcome::Unknown),
        (None, Verdict::Verified) => {
            let outcome = if claim == Status::Proven {
                pn_outcome::Proven
            } else {
                pn_outcome::Disproven
            };
            pn_result::new(pn_status::Ok, outcome).with_move(v.winning_move)
        }
        (None, Verdict::Refuted) => pn_result::new(pn_status::Refuted, pn_outcome::Unknown),
        (None, Verdict::Unknown(reason)) => {
            pn_result::new(pn_status::from_reason(reason), pn_outcome::Unknown)
        }
    };
    pn_result { stats, ..result }
}
