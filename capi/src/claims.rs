//! Memory that a running call or a `pn_solver_init` is using right now, in a small static
//! table of address ranges, so that `pn_solver_init` never rebuilds memory under a call that
//! is still using it (from inside one of its callbacks, or from another thread) and a call
//! never starts on memory that an init is rebuilding. Either side gets `PN_STATUS_BUSY`.
//!
//! The table lives in static atomics, so it works without the standard library, and it never
//! reads the memory it describes: an init can ask about memory that is not initialised.
//!
//! # Protocol
//! A claimant takes a free slot (compare-and-swap of its state from `FREE` to `WRITING`),
//! writes its range, publishes it (state `CALL` or `INIT`), and only then scans the other
//! slots for an overlapping range of a kind it conflicts with; on a conflict it releases its
//! slot and returns `Busy`. Publication and scan are separated by `SeqCst` fences (as in
//! Dekker's algorithm), so of two overlapping claimants at least the later one sees the
//! other: they cannot both go ahead (both may back off, which is only a spurious `Busy` for
//! a caller who raced an init against a call on the same memory). A slot seen in `WRITING` is
//! skipped: its owner has not scanned yet and will see this claim. A range read while its
//! slot is being recycled belongs to a claim that has ended, so a wrong answer there can only
//! be a spurious `Busy`, never a missed conflict with a live claim.
//!
//! # Capacity
//! [`SLOTS`] claims at once. A call that finds no free slot still runs, counted in
//! `UNRECORDED`; while any such call runs, every init returns `Busy` (it cannot rule out
//! that the call is on its memory). An init that finds no free slot returns `Busy`.

use core::sync::atomic::{AtomicU8, AtomicUsize, Ordering, fence};

use crate::status::pn_status;

/// Claims that can be recorded at once: calls running at the same time on all solvers of
/// the process, plus inits in progress.
pub(crate) const SLOTS: usize = 64;

const FREE: u8 = 0;
const WRITING: u8 = 1;
const CALL: u8 = 2;
const INIT: u8 = 3;

/// One recorded claim.
struct Slot {
    state: AtomicU8,
    start: AtomicUsize,
    end: AtomicUsize,
}

#[allow(
    clippy::declare_interior_mutable_const,
    reason = "the initialiser of the static array"
)]
const FREE_SLOT: Slot = Slot {
    state: AtomicU8::new(FREE),
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
};

static CLAIMS: [Slot; SLOTS] = [FREE_SLOT; SLOTS];
/// Calls running without a slot (the table was full when they started).
static UNRECORDED: AtomicUsize = AtomicUsize::new(0);

/// What a claim is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A call using a solver (conflicts with inits only; the solver's busy flag orders calls
    /// on one solver).
    Call,
    /// `pn_solver_init` building a solver (conflicts with everything).
    Init,
}

/// A recorded claim on `[start, end)`, released when dropped.
pub(crate) struct Claim {
    /// The slot, or `None` for a call recorded only in `UNRECORDED`.
    slot: Option<usize>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        match self.slot {
            Some(i) => CLAIMS[i].state.store(FREE, Ordering::Release),
            None => {
                UNRECORDED.fetch_sub(1, Ordering::Release);
            }
        }
    }
}

/// Claims `[start, end)` (`end > start`) for `kind`, or `Busy` when a live claim conflicts:
/// an init over memory that a call or another init uses, or a call on memory being
/// initialised.
pub(crate) fn claim(kind: Kind, start: usize, end: usize) -> Result<Claim, pn_status> {
    let Some(slot) = take_free_slot() else {
        return match kind {
            Kind::Init => Err(pn_status::Busy),
            Kind::Call => {
                UNRECORDED.fetch_add(1, Ordering::Relaxed);
                fence(Ordering::SeqCst);
                let claim = Claim { slot: None };
                if conflicts(kind, start, end, usize::MAX) {
                    return Err(pn_status::Busy); // `claim` is dropped: uncounted again
                }
                Ok(claim)
            }
        };
    };
    let s = &CLAIMS[slot];
    s.start.store(start, Ordering::Relaxed);
    s.end.store(end, Ordering::Relaxed);
    let state = match kind {
        Kind::Call => CALL,
        Kind::Init => INIT,
    };
    s.state.store(state, Ordering::Release);
    fence(Ordering::SeqCst);
    let claim = Claim { slot: Some(slot) };
    if conflicts(kind, start, end, slot) {
        return Err(pn_status::Busy); // `claim` is dropped: the slot is free again
    }
    if kind == Kind::Init && UNRECORDED.load(Ordering::Relaxed) > 0 {
        return Err(pn_status::Busy);
    }
    Ok(claim)
}

/// A free slot, now in state `WRITING` and owned by the caller.
fn take_free_slot() -> Option<usize> {
    (0..SLOTS).find(|&i| {
        CLAIMS[i]
            .state
            .compare_exchange(FREE, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    })
}

/// True when a published claim other than slot `own` overlaps `[start, end)` and conflicts
/// with a claim of `kind`.
fn conflicts(kind: Kind, start: usize, end: usize, own: usize) -> bool {
    (0..SLOTS).filter(|&i| i != own).any(|i| {
        let s = &CLAIMS[i];
        let other = s.state.load(Ordering::Acquire);
        let relevant = match kind {
            Kind::Init => other == CALL || other == INIT,
            Kind::Call => other == INIT,
        };
        relevant && s.start.load(Ordering::Relaxed) < end && start < s.end.load(Ordering::Relaxed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The table is process-wide and the tests of this crate run in parallel, so these ranges
    // lie at the top of the address space, where no allocation of a real solver can be
    // (nothing here is dereferenced), each test in its own.
    const A: usize = usize::MAX - 0x10_0000;
    const B: usize = usize::MAX - 0x8_0000;

    #[test]
    fn an_init_over_a_running_call_is_busy_until_the_call_ends() {
        let call = claim(Kind::Call, A, A + 0x1000).unwrap();
        // Overlapping at the start, inside, and at the last byte.
        for (start, end) in [
            (A - 0x1000, A + 1),
            (A + 0x800, A + 0x900),
            (A + 0xFFF, A + 0x2000),
        ] {
            assert_eq!(claim(Kind::Init, start, end).err(), Some(pn_status::Busy));
        }
        // Adjacent memory is not the call's.
        drop(claim(Kind::Init, A + 0x1000, A + 0x2000).unwrap());
        drop(call);
        drop(claim(Kind::Init, A, A + 0x1000).unwrap());
    }

    #[test]
    fn a_call_on_memory_being_initialised_is_busy_and_calls_do_not_exclude_each_other() {
        let init = claim(Kind::Init, B, B + 0x1000).unwrap();
        assert_eq!(
            claim(Kind::Call, B, B + 0x1000).err(),
            Some(pn_status::Busy)
        );
        drop(init);
        let first = claim(Kind::Call, B, B + 0x1000).unwrap();
        let second = claim(Kind::Call, B, B + 0x1000).unwrap();
        drop((first, second));
    }
}
