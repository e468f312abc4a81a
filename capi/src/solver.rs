//! The solver object, built inside the caller's memory, and the solve calls.
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
//! # Repetition rules
//! The core's searcher is generic over the game type, and the repetition rule is part of that
//! type (`Game::REPETITION_RULE`), while a C game names its rule at run time. The solver keeps
//! one searcher in its stack region, typed for the rule of the last game it searched
//! ([`Engine`]); a game with another rule replaces it (re-carving the stack, the only cost).
//! The PNS searcher in the arena region ([`PnsEngine`]) is kept and replaced the same way.
//!
//! # Sharing
//! Only [`pn_solver_stop`] may run while another call uses the solver. Everything the other
//! calls change sits behind an `UnsafeCell` that a call borrows through [`pn_solver::lock`]:
//! an atomic busy flag makes a second, overlapping call (another thread, or a callback calling
//! back in) return `PN_STATUS_BUSY` instead of aliasing the first one's state. The stop flag is
//! atomic and outside the cell, so `pn_solver_stop` never touches what the search holds.
//! A call also claims the solver's address range in [`claims`](crate::claims), where
//! `pn_solver_init` looks before it writes anything: an init over the memory of a running call
//! (from one of its callbacks, or another thread) returns `PN_STATUS_BUSY` instead of
//! rebuilding the solver under it.

use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::mem::{align_of, size_of};
use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, Ordering};

use proofnum_core::memory::{Carver, bytes_for};
use proofnum_core::{Dfpn, Game, Pns, Status, Table, Value};

use crate::boundary::{self, Arg, guard, out, out_struct, out_version, read_input};
use crate::claims;
use crate::config::{SerialEngine, Settings, pn_config, pn_limits};
use crate::error::{Error, Message};
use crate::fail;
use crate::game::{
    CGame, Failure, RULE_ACYCLIC, RULE_BY_POSITION, RULE_DRAW, pn_game, pn_outcome, pn_side,
};
use crate::result::{pn_result, pn_stats};
use crate::status::pn_status;

/// Marks memory that holds a solver ("PNSOLVER" in ASCII).
const SOLVER_MAGIC: u64 = u64::from_be_bytes(*b"PNSOLVER");

/// A solver living in caller memory. Opaque to C: made by `pn_solver_init`, used through
/// its pointer, never freed (the caller owns the memory).
///
/// `#[repr(C)]` so that `magic` and `address` are its first [`HANDLE_CHECK_BYTES`] bytes: the
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

/// The df-pn searcher for the current game's repetition rule, in the stack region.
pub(crate) enum Engine {
    /// No searcher (only while one is replaced).
    Empty,
    /// For games whose positions never repeat.
    Acyclic(Dfpn<'static, CGame<RULE_ACYCLIC>>),
    /// For games where a repetition is a draw.
    Draw(Dfpn<'static, CGame<RULE_DRAW>>),
    /// For games that score repetitions themselves.
    ByPosition(Dfpn<'static, CGame<RULE_BY_POSITION>>),
}

/// The PNS searcher for the current game's repetition rule, in the arena region.
pub(crate) enum PnsEngine {
    /// No searcher (df-pn solvers, and only while one is replaced otherwise).
    Empty,
    /// For games whose positions never repeat.
    Acyclic(Pns<'static, CGame<RULE_ACYCLIC>>),
    /// For games where a repetition is a draw.
    Draw(Pns<'static, CGame<RULE_DRAW>>),
    /// For games that score repetitions themselves.
    ByPosition(Pns<'static, CGame<RULE_BY_POSITION>>),
}

/// A game adapter type with its places in [`Engine`] and [`PnsEngine`].
pub(crate) trait Engined: Game<Move = u32> + Sized {
    /// The searcher, if the engine holds this type's.
    fn slot(engine: &mut Engine) -> Option<&mut Dfpn<'static, Self>>;
    /// The engine holding this searcher.
    fn wrap(dfpn: Dfpn<'static, Self>) -> Engine;
    /// The PNS searcher, if the engine holds this type's.
    fn pns_slot(engine: &mut PnsEngine) -> Option<&mut Pns<'static, Self>>;
    /// The PNS engine holding this searcher.
    fn pns_wrap(pns: Pns<'static, Self>) -> PnsEngine;
}

impl Engined for CGame<RULE_ACYCLIC> {
    fn slot(engine: &mut Engine) -> Option<&mut Dfpn<'static, Self>> {
        match engine {
            Engine::Acyclic(d) => Some(d),
            _ => None,
        }
    }
    fn wrap(dfpn: Dfpn<'static, Self>) -> Engine {
        Engine::Acyclic(dfpn)
    }
    fn pns_slot(engine: &mut PnsEngine) -> Option<&mut Pns<'static, Self>> {
        match engine {
            PnsEngine::Acyclic(p) => Some(p),
            _ => None,
        }
    }
    fn pns_wrap(pns: Pns<'static, Self>) -> PnsEngine {
        PnsEngine::Acyclic(pns)
    }
}

impl Engined for CGame<RULE_DRAW> {
    fn slot(engine: &mut Engine) -> Option<&mut Dfpn<'static, Self>> {
        match engine {
            Engine::Draw(d) => Some(d),
            _ => None,
        }
    }
    fn wrap(dfpn: Dfpn<'static, Self>) -> Engine {
        Engine::Draw(dfpn)
    }
    fn pns_slot(engine: &mut PnsEngine) -> Option<&mut Pns<'static, Self>> {
        match engine {
            PnsEngine::Draw(p) => Some(p),
            _ => None,
        }
    }
    fn pns_wrap(pns: Pns<'static, Self>) -> PnsEngine {
        PnsEngine::Draw(pns)
    }
}

impl Engined for CGame<RULE_BY_POSITION> {
    fn slot(engine: &mut Engine) -> Option<&mut Dfpn<'static, Self>> {
        match engine {
            Engine::ByPosition(d) => Some(d),
            _ => None,
        }
    }
    fn wrap(dfpn: Dfpn<'static, Self>) -> Engine {
        Engine::ByPosition(dfpn)
    }
    fn pns_slot(engine: &mut PnsEngine) -> Option<&mut Pns<'static, Self>> {
        match engine {
            PnsEngine::ByPosition(p) => Some(p),
            _ => None,
        }
    }
    fn pns_wrap(pns: Pns<'static, Self>) -> PnsEngine {
        PnsEngine::ByPosition(pns)
    }
}

/// The searchers and the regions they live in.
pub(crate) struct Searcher {
    engine: Engine,
    /// The stack region, kept as a raw pointer: the searcher borrows it, and a searcher for
    /// another rule borrows it again once the old one is dropped.
    stack: NonNull<u8>,
    stack_bytes: usize,
    /// The PNS searcher (empty for a df-pn solver).
    pns: PnsEngine,
    /// The arena region, kept as `stack` is (0 bytes for a df-pn solver).
    arena: NonNull<u8>,
    arena_bytes: usize,
    settings: Settings,
}

/// The searcher the solve calls use for game type `G`.
pub(crate) enum Serial<'a, G: Engined> {
    /// Df-pn, which also walks to confirm its answers.
    Dfpn(&'a mut Dfpn<'static, G>),
    /// PNS or PN², with the df-pn searcher that walks to confirm their answers.
    Pns(&'a mut Pns<'static, G>, &'a mut Dfpn<'static, G>),
}

impl Searcher {
    /// The searcher for game type `G`, built in the stack region if the current one is for
    /// another type.
    fn get<G: Engined>(&mut self) -> Result<&mut Dfpn<'static, G>, pn_status> {
        if G::slot(&mut self.engine).is_none() {
            // Drop the other rule's searcher first: it is the only user of the stack region.
            self.engine = Engine::Empty;
            // SAFETY: `stack` points to `stack_bytes` bytes of this solver's memory, carved for
            // the stack at init and used by nothing else; the searcher that borrowed them was
            // dropped above, and the new one keeps them for as long as the solver lives
            // ('static by the C contract). The old searcher's typed values may have left
            // padding bytes uninitialised, so the bytes are zeroed (through the raw pointer)
            // before a `[u8]` slice covers them.
            let stack: &'static mut [u8] = unsafe {
                core::ptr::write_bytes(self.stack.as_ptr(), 0, self.stack_bytes);
                core::slice::from_raw_parts_mut(self.stack.as_ptr(), self.stack_bytes)
            };
            let s = &self.settings;
            let dfpn = Dfpn::<G>::new(stack, s.max_depth, s.max_moves, s.dfpn)
                .map_err(pn_status::from_memory_error)?;
            self.engine = G::wrap(dfpn);
        }
        G::slot(&mut self.engine).ok_or(pn_status::InternalError)
    }

    /// The PNS searcher for game type `G`, built in the arena region if the current one is
    /// for another type; `InternalError` for a df-pn solver, which has no arena.
    fn get_pns<G: Engined>(&mut self) -> Result<&mut Pns<'static, G>, pn_status> {
        let SerialEngine::Pns { config, .. } = self.settings.engine else {
            return Err(pn_status::InternalError);
        };
        if G::pns_slot(&mut self.pns).is_none() {
            // Drop the other rule's searcher first: it is the only user of the arena region.
            self.pns = PnsEngine::Empty;
            // SAFETY: as for the stack in `get`: the arena's `arena_bytes` bytes, used by
            // nothing else now that the old searcher is dropped, zeroed first because its
            // typed values may have left padding bytes uninitialised.
            let arena: &'static mut [u8] = unsafe {
                core::ptr::write_bytes(self.arena.as_ptr(), 0, self.arena_bytes);
                core::slice::from_raw_parts_mut(self.arena.as_ptr(), self.arena_bytes)
            };
            let s = &self.settings;
            let pns = Pns::<G>::new(arena, s.max_depth, s.max_moves, config)
                .map_err(pn_status::from_memory_error)?;
            self.pns = G::pns_wrap(pns);
        }
        G::pns_slot(&mut self.pns).ok_or(pn_status::InternalError)
    }

    /// The searcher of the solve calls for game type `G`, as the configuration's engine says.
    fn serial<G: Engined>(&mut self) -> Result<Serial<'_, G>, pn_status> {
        match self.settings.engine {
            SerialEngine::Dfpn => Ok(Serial::Dfpn(self.get::<G>()?)),
            SerialEngine::Pns { .. } => {
                self.get::<G>()?;
                self.get_pns::<G>()?;
                let walker = G::slot(&mut self.engine).ok_or(pn_status::InternalError)?;
                let pns = G::pns_slot(&mut self.pns).ok_or(pn_status::InternalError)?;
                Ok(Serial::Pns(pns, walker))
            }
        }
    }

    /// Whether the configuration asks for confirmed answers.
    pub(crate) fn confirm(&self) -> bool {
        self.settings.confirm
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
/// address, judged from its first [`HANDLE_CHECK_BYTES`] bytes.
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

/// Runs `$body` with the searcher, game adapter, table and memo typed for the game's
/// repetition rule (the body is expanded once per rule). Evaluates to
/// `Result<(body's value, a broken callback's status), pn_status>`.
/// With a method name first (`run_serial`), the body gets that method's searcher instead.
macro_rules! with_rule {
    ($inner:expr, $game:expr, |$dfpn:ident, $g:ident, $table:ident, $memo:ident| $body:expr) => {
        with_rule!($inner, $game, run, |$dfpn, $g, $table, $memo| $body)
    };
    (
        $inner:expr, $game:expr, $run:ident,
        |$dfpn:ident, $g:ident, $table:ident, $memo:ident| $body:expr
    ) => {
        match $crate::game::pn_repetition::of($game) {
            Err(error) => Err(error),
            Ok($crate::game::pn_repetition::Draw) => $inner
                .$run::<{ $crate::game::RULE_DRAW }, _>($game, |$dfpn, $g, $table, $memo| $body),
            Ok($crate::game::pn_repetition::Acyclic) => $inner
                .$run::<{ $crate::game::RULE_ACYCLIC }, _>($game, |$dfpn, $g, $table, $memo| $body),
            Ok($crate::game::pn_repetition::ByPosition) => $inner
                .$run::<{ $crate::game::RULE_BY_POSITION }, _>(
                    $game,
                    |$dfpn, $g, $table, $memo| $body,
                ),
        }
    };
}
pub(crate) use with_rule;

impl Inner {
    /// Runs `search` with the searcher for rule `R`, the game adapter, the table and the
    /// memo, and reports a broken callback, which overrides whatever the search found.
    pub(crate) fn run<const R: u8, Out>(
        &mut self,
        game: &pn_game,
        search: impl FnOnce(
            &mut Dfpn<'static, CGame<R>>,
            &mut CGame<R>,
            &mut Table<'_>,
            &mut [u64],
        ) -> Out,
    ) -> Result<(Out, Option<pn_status>), Error>
    where
        CGame<R>: Engined,
    {
        // SAFETY: the caller of the solve call promised the callbacks may be called with
        // `ctx` on this thread during the call; `moves` is this solver's own buffer, used by
        // nothing else while the game lives (it is dropped at the end of this function).
        let mut cgame = unsafe { CGame::<R>::new(game, self.moves)? };
        let mut table = Table::attach(self.table).map_err(|_| pn_status::InvalidHandle)?;
        let dfpn = self.searcher.get::<CGame<R>>()?;
        let out = search(dfpn, &mut cgame, &mut table, self.memo);
        Ok((out, self.note_failure(cgame.failure())))
    }

    /// Notes a callback's failure as the call's last error (see [`with_solver`]) and returns
    /// its status.
    pub(crate) fn note_failure(&mut self, failure: Option<Failure>) -> Option<pn_status> {
        Some(self.note(Error::from(failure?)))
    }

    /// Notes an error the call reports through its result as the call's last error (see
    /// [`with_solver`]) and returns its status.
    pub(crate) fn note(&mut self, error: Error) -> pn_status {
        self.last_error = error.text();
        error.status
    }

    /// As [`run`](Inner::run), with the solve calls' searcher: df-pn or PNS, as configured.
    pub(crate) fn run_serial<const R: u8, Out>(
        &mut self,
        game: &pn_game,
        search: impl FnOnce(Serial<'_, CGame<R>>, &mut CGame<R>, &mut Table<'_>, &mut [u64]) -> Out,
    ) -> Result<(Out, Option<pn_status>), Error>
    where
        CGame<R>: Engined,
    {
        // SAFETY: as in `run`: the caller of the solve call promised the callbacks may be
        // called with `ctx` on this thread during the call, and `moves` is this solver's own
        // buffer, used by nothing else while the game lives.
        let mut cgame = unsafe { CGame::<R>::new(game, self.moves)? };
        let mut table = Table::attach(self.table).map_err(|_| pn_status::InvalidHandle)?;
        let serial = self.searcher.serial::<CGame<R>>()?;
        let out = search(serial, &mut cgame, &mut table, self.memo);
        Ok((out, self.note_failure(cgame.failure())))
    }

    /// `pn_solve`'s search, its answer confirmed unless the caller opted out (see
    /// [`confirm`](crate::confirm)).
    fn solve(
        &mut self,
        game: &pn_game,
        attacker: proofnum_core::Player,
        limits: &pn_limits,
        stop: &AtomicBool,
    ) -> Result<pn_result, Error> {
        let confirm = self.confirms();
        let (r, failure) = with_rule!(self, game, run_serial, |serial, g, table, memo| {
            limits.with(stop, |l| serial.solve(g, attacker, table, memo, confirm, l))
        })?;
        let stats = pn_stats::from(&r.stats);
        let result = match (failure, r.status) {
            (Some(status), _) => pn_result::new(status, pn_outcome::Unknown),
            (None, Status::Proven | Status::Disproven) => {
                let outcome = if r.status == Status::Proven {
                    pn_outcome::Proven
                } else {
                    pn_outcome::Disproven
                };
                let mut res = pn_result::new(pn_status::Ok, outcome).with_move(r.best_move);
                res.distance = r.distance as u32;
                res
            }
            (None, Status::Unknown(reason)) => {
                pn_result::new(pn_status::from_reason(reason), pn_outcome::Unknown)
                    .with_move(r.best_move)
            }
        };
        Ok(pn_result { stats, ..result })
    }

    /// `pn_solve_value`'s searches, each answer confirmed unless the caller opted out.
    fn solve_value(
        &mut self,
        game: &pn_game,
        limits: &pn_limits,
        stop: &AtomicBool,
    ) -> Result<pn_result, Error> {
        let confirm = self.confirms();
        let (r, failure) = with_rule!(self, game, run_serial, |serial, g, table, memo| {
            limits.with(stop, |l| serial.solve_value(g, table, memo, confirm, l))
        })?;
        let stats = pn_stats::from(&r.stats);
        let result = match (failure, r.value) {
            (Some(status), _) => pn_result::new(status, pn_outcome::Unknown),
            (None, Ok(value)) => {
                let outcome = match value {
                    Value::Win => pn_outcome::Win,
                    Value::Loss => pn_outcome::Loss,
                    Value::Draw => pn_outcome::Draw,
                };
                pn_result::new(pn_status::Ok, outcome).with_move(r.best_move)
            }
            (None, Err(reason)) => {
                pn_result::new(pn_status::from_reason(reason), pn_outcome::Unknown)
                    .with_move(r.best_move)
            }
        };
        Ok(pn_result { stats, ..result })
    }
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

/// Reads the game argument of a call, its errors said of `game`.
///
/// # Safety
/// As [`read_input`].
pub(crate) unsafe fn read_game(game: *const pn_game) -> Result<pn_game, Error> {
    // SAFETY: forwarded from the caller.
    unsafe { read_input(game).struct_arg(game, "game") }
}
