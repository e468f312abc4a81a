//! The solver object, built inside the caller's memory: its lock, its handle check and the
//! layout of its memory. The searchers it keeps per repetition rule are in `searcher`, the
//! exported calls that build and use it in [`calls`].
//!
//! `pn_solver_init` lays one caller buffer out as
//! `[pn_solver][transposition table][df-pn stack][PNS arena][move buffer][verification memo]`:
//! the object first (so the buffer's start must be aligned for it), then regions carved with
//! the core's [`Carver`](proofnum_core::memory::Carver), each with its alignment slack counted
//! in `pn_solver_memory_requirements`. The PNS arena is empty unless the configuration's
//! engine is PNS or PN²; the df-pn stack is always there, for the principal variation and
//! `pn_verify`, which walk the table with df-pn whichever engine filled it. The object keeps
//! `'static` borrows of its regions: they live as long as the caller keeps the memory, which
//! is the contract of the C API.
//!
//! # Sharing
//! Only [`pn_solver_stop`] may run while another call uses the solver. Everything the other
//! calls change sits behind an `UnsafeCell` that a call borrows through `pn_solver::lock`:
//! an atomic busy flag makes a second, overlapping call (another thread, or a callback calling
//! back in) return `PN_STATUS_BUSY` instead of aliasing the first one's state. The stop flag is
//! atomic and outside the cell, so `pn_solver_stop` never touches what the search holds.
//! A call also claims the solver's address range in `claims`, where
//! `pn_solver_init` looks before it writes anything: an init over the memory of a running call
//! (from one of its callbacks, or another thread) returns `PN_STATUS_BUSY` instead of
//! rebuilding the solver under it.

use core::cell::UnsafeCell;
use core::mem::size_of;
use core::sync::atomic::{AtomicBool, Ordering};

use proofnum_core::memory::bytes_for;
use proofnum_core::{Dfpn, Pns};

use crate::boundary::{self, guard};
use crate::claims;
use crate::config::{SerialEngine, Settings, pn_config, pn_limits};
use crate::confirm;
use crate::error::{Error, Message};
use crate::fail;
use crate::game::{CGame, RULE_DRAW};
use crate::result::pn_result;
use crate::status::pn_status;

// In the order the header presents the calls: the searchers export nothing.
pub mod calls;
pub(crate) mod searcher;

pub(crate) use calls::read_game;
pub use calls::{
    pn_solve, pn_solve_value, pn_solver_config, pn_solver_init, pn_solver_memory_requirements,
    pn_solver_stop,
};
pub(crate) use searcher::{Searcher, with_rule};

/// Marks memory that holds a solver ("PNSOLVER" in ASCII).
const SOLVER_MAGIC: u64 = u64::from_be_bytes(*b"PNSOLVER");

/// A solver living in caller memory. Opaque to C: made by `pn_solver_init`, used through
/// its pointer, never freed (the caller owns the memory).
///
/// `#[repr(C)]` so that `magic` and `address` are its first `HANDLE_CHECK_BYTES` bytes: the
/// handle check reads those and nothing else.
#[repr(C)]
pub struct pn_solver {
    /// [`SOLVER_MAGIC`] once initialised.
    magic: u64,
    /// The address the solver was built at: its regions are borrowed by address, so a copy
    /// at another address is not a solver.
    address: usize,
    /// The first byte after the solver's memory (for overlap checks of caller buffers).
    end: usize,
    /// Set while a call holds [`Inner`].
    busy: AtomicBool,
    /// Set by `pn_solver_stop` while a call holds the solver; cleared when a call takes the
    /// solver ([`lock`](pn_solver::lock)) and when a search ends, so a request reaches only
    /// the call that was running when it was made.
    stop: AtomicBool,
    inner: UnsafeCell<Inner>,
}

/// What the calls change, borrowed through [`pn_solver::lock`].
pub(crate) struct Inner {
    pub(crate) config: pn_config,
    pub(crate) searcher: Searcher,
    /// The table's region; `Table::attach` reads its header at each call.
    pub(crate) table: &'static mut [u8],
    /// False while the table holds bytes from `pn_table_load` (until `pn_table_clear`):
    /// solved answers are then confirmed before they are reported even when the
    /// configuration opted out (see `confirm`).
    pub(crate) table_trusted: bool,
    /// The buffer the game's `generate_moves` writes into.
    pub(crate) moves: &'static mut [u32],
    /// Scratch memory of the verification walks (`pn_verify`, `pn_certify` and the walks
    /// that confirm answers): the set of positions verified.
    pub(crate) memo: &'static mut [u64],
    /// What the last call that used the solver found wrong (`pn_solver_last_error`): empty
    /// when it succeeded. A call's code may note a detail here (a callback's failure) that
    /// its error, when it has no message of its own, leaves in place (see [`with_solver`]).
    pub(crate) last_error: Message,
}

impl Inner {
    /// Whether the solve calls confirm their answers now (see [`confirm`]): as the
    /// configuration says, and always over a loaded table.
    pub(crate) fn confirms(&self) -> bool {
        confirm::required(self.searcher.confirm(), self.table_trusted)
    }
}

/// Exclusive use of a solver's [`Inner`] for one call; dropping it releases the solver.
pub(crate) struct Locked<'a> {
    /// The solver taken.
    pub(crate) solver: &'a pn_solver,
    pub(crate) inner: &'a mut Inner,
    /// The solver's memory claimed for the call, so that `pn_solver_init` cannot rebuild it
    /// under the call (released after the busy flag, when this is dropped).
    _claim: claims::Claim,
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        self.solver.busy.store(false, Ordering::Release);
    }
}

impl pn_solver {
    /// Takes the solver for one call, or `Busy` if another call has it. The call starts with
    /// no stop request: one made while no call was running is dropped here.
    pub(crate) fn lock(&self) -> Result<Locked<'_>, pn_status> {
        let claim = claims::claim(claims::Kind::Call, self.address, self.end)?;
        self.busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| pn_status::Busy)?;
        self.stop.store(false, Ordering::Relaxed);
        // SAFETY: the busy flag was false and is now ours, so no other `Locked` exists and
        // no other `&mut Inner` is alive (every access to `inner` goes through `lock`); the
        // flag is released only when this `Locked` is dropped.
        let inner = unsafe { &mut *self.inner.get() };
        Ok(Locked {
            solver: self,
            inner,
            _claim: claim,
        })
    }

    /// The stop flag.
    pub(crate) fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// True when `len` bytes at `ptr` overlap this solver's memory, where no buffer the
    /// caller hands in may be.
    pub(crate) fn overlaps(&self, ptr: *const u8, len: usize) -> bool {
        let (a, b) = (ptr as usize, (ptr as usize).saturating_add(len.max(1)));
        a < self.end && self.address < b
    }

    /// Ends a search call: clears the stop request, writes the result, returns its status.
    pub(crate) fn finish(
        &self,
        result: Result<pn_result, Error>,
        out_result: boundary::Out<'_, pn_result>,
    ) -> Result<(), Error> {
        let result = result?;
        self.stop.store(false, Ordering::Relaxed);
        out_result.write(result);
        match result.status() {
            pn_status::Ok => Ok(()),
            status => Err(status.into()),
        }
    }
}

impl Locked<'_> {
    /// [`pn_solver::finish`], with the limit a search hit said with its value.
    pub(crate) fn finish(
        &mut self,
        result: Result<pn_result, Error>,
        out_result: boundary::Out<'_, pn_result>,
        limits: &pn_limits,
    ) -> Result<(), Error> {
        self.solver.finish(result, out_result).map_err(|error| {
            let config = &self.inner.config;
            match error.status {
                pn_status::NodeLimit => fail!(
                    error.status,
                    "node limit reached without an answer: limits->max_nodes is {}",
                    limits.max_nodes
                ),
                pn_status::TimeLimit => fail!(
                    error.status,
                    "time limit reached without an answer: limits->max_time_us is {}",
                    limits.max_time_us
                ),
                pn_status::DepthLimit => fail!(
                    error.status,
                    "a line is deeper than config.max_depth ({} plies)",
                    config.max_depth
                ),
                pn_status::TooManyMoves => fail!(
                    error.status,
                    "a position has more moves than config.max_moves ({})",
                    config.max_moves
                ),
                _ => error,
            }
        })
    }
}

/// Bytes at the start of a solver that [`handle`] reads to recognise it (`magic` and
/// `address`): 16 on 64-bit targets, 12 on 32-bit ones.
pub(crate) const HANDLE_CHECK_BYTES: usize =
    core::mem::offset_of!(pn_solver, address) + size_of::<usize>();
const _: () = assert!(core::mem::offset_of!(pn_solver, magic) == 0);
const _: () = assert!(
    HANDLE_CHECK_BYTES <= 16,
    "the header promises at most 16 bytes"
);

/// Checks a solver pointer: non-NULL, aligned, and a solver built by `pn_solver_init` at this
/// address, judged from its first `HANDLE_CHECK_BYTES` bytes.
///
/// Nothing can tell whether memory is initialised without reading it, and reading
/// uninitialised memory is undefined behaviour, so the check relies on the header's contract
/// that those bytes are initialised (any bytes the program wrote: zeroed, overwritten or
/// copied memory is told apart from a solver; memory never written is not a valid argument).
///
/// # Safety
/// `ptr` is NULL, or misaligned for `pn_solver`, or points to at least
/// [`HANDLE_CHECK_BYTES`] readable, initialised bytes; when it is a solver, that solver stays in
/// place for `'a`.
pub(crate) unsafe fn handle<'a>(ptr: *mut pn_solver) -> Result<&'a pn_solver, pn_status> {
    let p = boundary::non_null(ptr)?;
    // SAFETY: `p` is aligned, and its first `HANDLE_CHECK_BYTES` bytes, which hold exactly
    // these two plain integer fields (`#[repr(C)]`, asserted above), are readable and
    // initialised (caller). Reading them through raw pointers forms no reference to the rest
    // of the struct, which need not be a solver.
    let (magic, address) = unsafe {
        (
            core::ptr::addr_of!((*p.as_ptr()).magic).read(),
            core::ptr::addr_of!((*p.as_ptr()).address).read(),
        )
    };
    if magic != SOLVER_MAGIC || address != p.as_ptr() as usize {
        return Err(pn_status::InvalidHandle);
    }
    // SAFETY: the magic and address say `pn_solver_init` wrote a whole `pn_solver` here;
    // shared references are fine because everything mutable is atomic or inside the
    // `UnsafeCell`.
    Ok(unsafe { &*p.as_ptr() })
}

/// Runs the body of an export that uses the solver at `ptr`, with the solver taken
/// ([`pn_solver::lock`]), and keeps what it found wrong as the solver's last error.
///
/// A solver argument that is not a solver, and a solver in use by another call, give their
/// status and leave the last error alone (it belongs to another call). Otherwise the last
/// error is cleared, and a failure of the body is kept: its message, or when it has none, a
/// detail the body noted in [`Inner::last_error`], or else its status's description.
///
/// `solver` is the export's solver argument as [`handle`] judged it.
pub(crate) fn with_solver(
    solver: Result<&pn_solver, pn_status>,
    body: impl FnOnce(&mut Locked<'_>) -> Result<(), Error>,
) -> pn_status {
    guard(|| {
        let mut locked = solver?.lock()?;
        locked.inner.last_error = Message::EMPTY;
        match body(&mut locked) {
            // A success leaves no message, whatever the body noted on the way.
            Ok(()) => {
                locked.inner.last_error = Message::EMPTY;
                Ok(())
            }
            Err(error) => {
                let noted = !locked.inner.last_error.as_bytes().is_empty();
                if !(noted && error.message.as_bytes().is_empty()) {
                    locked.inner.last_error = error.text();
                }
                Err(error.status)
            }
        }
    })
}

/// Byte counts of the regions of a solver's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    stack_bytes: usize,
    /// The PNS arena: 0 for df-pn.
    arena_bytes: usize,
    total_bytes: usize,
}

impl Layout {
    fn of(settings: &Settings) -> Result<Layout, Error> {
        // Every rule's searcher has the same layout (moves are `u32` for all of them).
        let stack_bytes =
            Dfpn::<CGame<RULE_DRAW>>::stack_bytes(settings.max_depth, settings.max_moves);
        // `required_bytes` saturates, so an arena too large to count is `usize::MAX`, which
        // fails the sum below.
        let arena_bytes = match settings.engine {
            SerialEngine::Dfpn => 0,
            SerialEngine::Pns { nodes, config, .. } => Pns::<CGame<RULE_DRAW>>::required_bytes(
                nodes,
                settings.max_depth,
                settings.max_moves,
                config,
            ),
        };
        let total_bytes = size_of::<pn_solver>()
            .checked_add(settings.table_bytes)
            .and_then(|n| n.checked_add(stack_bytes))
            .and_then(|n| n.checked_add(arena_bytes))
            .and_then(|n| n.checked_add(bytes_for::<u32>(settings.max_moves)))
            .and_then(|n| n.checked_add(bytes_for::<u64>(settings.verify_memo_entries)))
            .filter(|&n| n <= isize::MAX as usize && stack_bytes < usize::MAX)
            .ok_or_else(|| {
                fail!(
                    pn_status::InvalidArgument,
                    "the memory this configuration needs does not fit in the address space \
                     (config.table_bytes {}, verify_memo_entries {}, max_depth {}, max_moves \
                     {}, arena_nodes {})",
                    settings.table_bytes,
                    settings.verify_memo_entries,
                    settings.max_depth,
                    settings.max_moves,
                    match settings.engine {
                        SerialEngine::Dfpn => 0,
                        SerialEngine::Pns { nodes, .. } => nodes,
                    }
                )
            })?;
        Ok(Layout {
            stack_bytes,
            arena_bytes,
            total_bytes,
        })
    }
}

/// The layout of a solver's memory for `config`, or what is wrong with it.
pub(crate) fn memory_layout(config: &pn_config) -> Result<Layout, Error> {
    Layout::of(&config.settings()?)
}
