//! The game's copies for the worker threads (`std` builds): how they are made and released,
//! and the adapter that makes a copy a [`Game`] the parallel solver can send to a thread.
//!
//! # Ownership
//! - The game's own context is the caller's: this module never frees it, never plays on it,
//!   and reads it only to copy it (the `clone` callback or a byte copy) and through the root
//!   adapter the solver keeps on the calling thread.
//! - Every copy is owned by exactly one holder at a time: the spare list of [`Copies`], or one
//!   [`WorkerGame`]. A worker's adapter gives its copy back to the spare list when dropped
//!   (the solver drops it when the worker ends, with the position back at the root), or
//!   releases it if one of its callbacks failed; dropping [`Copies`] releases the spare ones.
//!   So each copy is released exactly once, before the parallel call returns, also when a
//!   panic unwinds through it.
//! - One copy is made per worker thread before the search starts ([`Copies::fill`]), so a copy
//!   that cannot be made ends the call before anything is searched. The solver clones the root
//!   adapter once per worker and search, and each clone takes a spare copy; the second search
//!   of a value call reuses the first one's copies.

use core::ffi::c_void;
use core::mem::MaybeUninit;
use core::ptr::NonNull;
use std::boxed::Box;
use std::sync::{Mutex, PoisonError};
use std::vec::Vec;

use proofnum_core::Numbers;
use proofnum_core::{Decided, Game, MoveList, Outcome, Player, RepetitionRule, Value};

use crate::error::Error;
use crate::fail;
use crate::game::{CGame, pn_game};
use crate::status::pn_status;

type CloneFn = unsafe extern "C" fn(*mut c_void, *mut *mut c_void) -> core::ffi::c_int;
type FreeFn = unsafe extern "C" fn(*mut c_void);

/// A zeroed move buffer of `len` moves, or `MemoryLimit` when the allocator cannot give it.
fn move_buffer(len: usize) -> Result<Vec<u32>, pn_status> {
    let mut moves = Vec::new();
    moves
        .try_reserve_exact(len)
        .map_err(|_| pn_status::MemoryLimit)?;
    moves.resize(len, 0);
    Ok(moves)
}

/// The unit of a byte copy's memory: 16 bytes, 16-aligned (what `malloc` gives on the
/// platforms we target, so a plain-data position may hold any scalar type).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Chunk([u8; 16]);

/// How the copies of one game are made and released.
#[derive(Clone, Copy, Debug)]
enum Method {
    /// The game's `clone` and `free` callbacks.
    Callbacks { clone: CloneFn, free: FreeFn },
    /// A byte copy of the context's first `bytes` bytes, in `chunks` [`Chunk`]s.
    Bytes { bytes: usize, chunks: usize },
}

/// A copy's context, owned by whoever holds this value.
#[derive(Debug)]
struct OwnedCtx(NonNull<c_void>);

// SAFETY: an `OwnedCtx` is a copy's context pointer with nothing attached; holding it on
// another thread only moves the right to use the copy there, which the header allows (the
// callbacks may run on any thread, one thread per context at a time), and the copy is
// independent of every other context (`clone`'s contract, or our own byte copy).
unsafe impl Send for OwnedCtx {}

/// The copies of one game for one parallel call.
pub(crate) struct Copies {
    method: Method,
    /// Copies not held by any worker, each at the game's root position.
    spare: Mutex<Vec<OwnedCtx>>,
    /// The first failure of any copy's callbacks, or of making a copy.
    failure: Mutex<Option<Error>>,
}

impl Copies {
    /// Chooses how to copy `game` from its `clone`, `free` and `copy_size`: the callbacks, or
    /// a byte copy, never both, and nothing without either.
    pub(crate) fn new(game: &pn_game) -> Result<Copies, Error> {
        let method = match (game.clone, game.free, game.copy_size) {
            (Some(_), _, bytes @ 1..) => {
                return Err(fail!(
                    pn_status::InvalidArgument,
                    "game->clone is set and game->copy_size is {bytes}; the parallel calls \
                     copy a game one way: clone and free, or copy_size"
                ));
            }
            (Some(clone), Some(free), 0) => Method::Callbacks { clone, free },
            (Some(_), None, 0) => {
                return Err(fail!(
                    pn_status::MissingCallback,
                    "game->free is NULL; the parallel calls need it with game->clone"
                ));
            }
            (None, _, 0) => {
                return Err(fail!(
                    pn_status::MissingCallback,
                    "game->clone is NULL and game->copy_size is 0; the parallel calls copy the \
                     game with clone and free, or copy_size bytes of ctx"
                ));
            }
            (None, _, bytes) => {
                if bytes > isize::MAX as usize - size_of::<Chunk>() {
                    return Err(fail!(
                        pn_status::InvalidArgument,
                        "game->copy_size is {bytes}; more than fits in the address space"
                    ));
                }
                Method::Bytes {
                    bytes,
                    chunks: bytes.div_ceil(size_of::<Chunk>()),
                }
            }
        };
        Ok(Copies {
            method,
            spare: Mutex::new(Vec::new()),
            failure: Mutex::new(None),
        })
    }

    /// Makes `count` copies of the context `ctx` (the game's own) into the spare list. On
    /// failure the copies already made stay there, to be released with the list.
    ///
    /// # Safety
    /// As [`make`](Copies::make).
    pub(crate) unsafe fn fill(&self, ctx: *mut c_void, count: usize) -> Result<(), Error> {
        // Room for every copy now, so giving one back never allocates.
        self.spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .try_reserve_exact(count)
            .map_err(|_| pn_status::MemoryLimit)?;
        for _ in 0..count {
            // SAFETY: forwarded from the caller.
            let copy = unsafe { self.make(ctx)? };
            self.give_back(copy);
        }
        Ok(())
    }

    /// A new copy of the position at `ctx`.
    ///
    /// # Safety
    /// `ctx` is the game's own context or a copy's, used by no other thread during the call,
    /// and with [`Method::Bytes`] it points to `bytes` readable bytes (the header's contract
    /// for `copy_size`; a copy's own memory is at least that long).
    unsafe fn make(&self, ctx: *mut c_void) -> Result<OwnedCtx, Error> {
        match self.method {
            Method::Callbacks { clone, .. } => {
                let mut copy: *mut c_void = core::ptr::null_mut();
                // SAFETY: the caller of the parallel call promised `clone` may be called with
                // the game's or a copy's context from any thread, one thread per context at
                // a time (this function's contract); `copy` is a valid `void *` to write.
                let rc = unsafe { clone(ctx, &mut copy) };
                if rc != 0 {
                    return Err(fail!(
                        pn_status::CallbackFailed,
                        "callback clone returned {rc}; expected 0 (a non-zero return is the \
                         game's error)"
                    ));
                }
                if copy == ctx {
                    // Not a copy: two threads would share one position.
                    return Err(fail!(
                        pn_status::CallbackInvalid,
                        "callback clone wrote its own ctx ({ctx:p}) to *out_ctx; expected a \
                         new, independent copy"
                    ));
                }
                NonNull::new(copy).map(OwnedCtx).ok_or_else(|| {
                    fail!(
                        pn_status::CallbackInvalid,
                        "callback clone returned 0 but wrote NULL to *out_ctx; expected a copy"
                    )
                })
            }
            Method::Bytes { bytes, chunks } => {
                // Fallibly: a `copy_size` the allocator cannot give is `MemoryLimit`, not an
                // abort. An exact reservation makes `into_boxed_slice` keep the allocation.
                let mut block: Vec<MaybeUninit<Chunk>> = Vec::new();
                block
                    .try_reserve_exact(chunks)
                    .map_err(|_| pn_status::MemoryLimit)?;
                block.resize(chunks, MaybeUninit::uninit());
                let mut block = block.into_boxed_slice();
                // SAFETY: `ctx` holds `bytes` readable bytes (this function's contract) and
                // `block` `chunks * 16 >= bytes` writable ones, freshly allocated, so they do
                // not overlap; the copy is untyped.
                unsafe {
                    core::ptr::copy_nonoverlapping(
                        ctx.cast::<u8>(),
                        block.as_mut_ptr().cast::<u8>(),
                        bytes,
                    )
                };
                let raw = Box::into_raw(block).cast::<c_void>();
                // `Box::into_raw` never returns NULL.
                NonNull::new(raw)
                    .map(OwnedCtx)
                    .ok_or(pn_status::InternalError.into())
            }
        }
    }

    /// Releases a copy: `free`, or the byte copy's memory.
    fn release(&self, copy: OwnedCtx) {
        match self.method {
            // SAFETY: `copy` came from `clone` (it is only ever made by `make`), is released
            // once (it is moved in here), and no adapter uses it any more; the header lets
            // `free` run on any thread.
            Method::Callbacks { free, .. } => unsafe { free(copy.0.as_ptr()) },
            Method::Bytes { chunks, .. } => {
                let slice = core::ptr::slice_from_raw_parts_mut(
                    copy.0.as_ptr().cast::<MaybeUninit<Chunk>>(),
                    chunks,
                );
                // SAFETY: `copy` is a `Box<[MaybeUninit<Chunk>]>` of `chunks` elements that
                // `make` leaked with `Box::into_raw`, released once (it is moved in here).
                drop(unsafe { Box::from_raw(slice) });
            }
        }
    }

    /// Puts a copy, at the root position, back on the spare list.
    fn give_back(&self, copy: OwnedCtx) {
        self.spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(copy);
    }

    /// A spare copy, if any.
    fn take(&self) -> Option<OwnedCtx> {
        self.spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
    }

    /// Records a failure; the first one is kept.
    fn record(&self, error: Error) {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(error);
    }

    /// The first failure of a copy, if any.
    pub(crate) fn failure(&self) -> Option<Error> {
        *self.failure.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many copies are spare (for tests).
    #[cfg(test)]
    pub(crate) fn spare_count(&self) -> usize {
        self.spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl Drop for Copies {
    fn drop(&mut self) {
        let spare = core::mem::take(self.spare.get_mut().unwrap_or_else(PoisonError::into_inner));
        for copy in spare {
            self.release(copy);
        }
    }
}

/// A game adapter the parallel solver can clone for its workers and send to their threads:
/// the root adapter over the game's own context, or a worker's over a copy it holds.
pub(crate) struct WorkerGame<'c, const RULE: u8> {
    /// The callbacks over this adapter's context, or why the copy could not be made (then
    /// every call answers a placeholder and [`Game::has_failed`] is true).
    game: Result<CGame<RULE>, Error>,
    /// The copy this adapter holds; `None` for the root adapter (the caller's context) and
    /// for a copy that could not be made.
    copy: Option<OwnedCtx>,
    /// The buffer `game` lists moves into: this adapter's own heap memory, which moves with
    /// the adapter and is touched only through `game`.
    moves: Vec<u32>,
    /// The callbacks, to make adapters for new copies.
    table: pn_game,
    copies: &'c Copies,
}

// SAFETY: a `WorkerGame` holds one context (the game's own for the root adapter, a copy for a
// worker's; never one twice: `make` rejects a `clone` that returns its argument, and each
// copy has one holder), the game's callbacks, its own move buffer (moved with it) and a shared
// reference to `Copies` (`Sync`: its state is behind mutexes). Sending it to another thread
// means its callbacks then run with its context on that thread. The header's contract for the
// parallel calls allows exactly that: callbacks may run on any thread, at the same time on
// different contexts, with each context (the game's own, and each copy) used by one thread at
// a time. The adapter is not `Sync` (`CGame` holds a `Cell`), so only the thread holding it
// calls the callbacks with its context.
unsafe impl<const RULE: u8> Send for WorkerGame<'_, RULE> {}

impl<'c, const RULE: u8> WorkerGame<'c, RULE> {
    /// The root adapter over the game's own context, checking the required callbacks.
    ///
    /// # Safety
    /// The game's callbacks are safe to call with `table.ctx` on the calling thread for as
    /// long as the adapter lives.
    pub(crate) unsafe fn root(
        table: &pn_game,
        copies: &'c Copies,
        max_moves: usize,
    ) -> Result<WorkerGame<'c, RULE>, Error> {
        let mut moves = move_buffer(max_moves)?;
        // SAFETY: the callbacks may be called with `ctx` (this function's contract), and
        // `moves` is this adapter's own buffer, used only through the `CGame`, which lives no
        // longer than it (they are fields of one value).
        let game = unsafe { CGame::new(table, &mut moves)? };
        Ok(WorkerGame {
            game: Ok(game),
            copy: None,
            moves,
            table: *table,
            copies,
        })
    }

    /// An adapter over `copy`, or a failed one (without a copy) when `copy` could not be
    /// made; the failure is recorded.
    fn adopt(&self, copy: Result<OwnedCtx, Error>) -> WorkerGame<'c, RULE> {
        let mut moves = move_buffer(self.moves.len()).unwrap_or_default();
        let copy = if moves.len() == self.moves.len() {
            copy
        } else {
            // No memory for the move buffer: a failed adapter, and the copy goes back.
            if let Ok(copy) = copy {
                self.copies.give_back(copy);
            }
            Err(pn_status::MemoryLimit.into())
        };
        let game = copy.as_ref().map_err(|&error| error).and_then(|c| {
            let table = pn_game {
                ctx: c.0.as_ptr(),
                ..self.table
            };
            // SAFETY: the caller of the parallel call promised the callbacks may be called
            // with a copy's context from any thread, one thread per context at a time, and
            // the new adapter is the copy's one holder; `moves` is the new adapter's own
            // buffer, used only through this `CGame`. (The root adapter passed the same
            // callbacks through this check, so it cannot fail.)
            unsafe { CGame::new(&table, &mut moves) }
        });
        if let Err(error) = game {
            self.copies.record(error);
        }
        WorkerGame {
            game,
            copy: copy.ok(),
            moves,
            table: self.table,
            copies: self.copies,
        }
    }

    /// The first failure of this adapter's callbacks (or of making its copy), if any.
    pub(crate) fn failure(&self) -> Option<Error> {
        match &self.game {
            Ok(game) => game.failure().map(Error::from),
            Err(error) => Some(*error),
        }
    }
}

impl<const RULE: u8> Clone for WorkerGame<'_, RULE> {
    /// The root adapter hands out spare copies (they are at its position: the solver holds it
    /// by shared reference and never plays on it); when none is spare, and for a worker's
    /// adapter, the position is copied now.
    fn clone(&self) -> Self {
        let spare = if self.copy.is_none() {
            self.copies.take()
        } else {
            None
        };
        let copy = match (spare, &self.game) {
            (Some(copy), _) => Ok(copy),
            // SAFETY: `game.ctx()` is this adapter's context, which only this thread uses
            // (the adapter is not `Sync`), and a byte copy reads `copy_size` bytes of it: the
            // game's own holds them by the header's contract, a copy's memory is as long.
            (None, Ok(game)) => unsafe { self.copies.make(game.ctx()) },
            (None, Err(error)) => Err(*error),
        };
        self.adopt(copy)
    }
}

impl<const RULE: u8> Drop for WorkerGame<'_, RULE> {
    fn drop(&mut self) {
        let failure = self.failure();
        if let Some(error) = failure {
            self.copies.record(error);
        }
        if let Some(copy) = self.copy.take() {
            // A copy whose callbacks failed may be anywhere: only a sound one, back at the
            // root (the solver undoes every move it plays), is worth keeping.
            if failure.is_some() {
                self.copies.release(copy);
            } else {
                self.copies.give_back(copy);
            }
        }
    }
}

impl<const RULE: u8> Game for WorkerGame<'_, RULE> {
    type Move = u32;

    const REPETITION_RULE: RepetitionRule = <CGame<RULE> as Game>::REPETITION_RULE;

    fn side_to_move(&self) -> Player {
        self.game.as_ref().map_or(Player::First, Game::side_to_move)
    }

    fn hash(&self) -> u64 {
        self.game.as_ref().map_or(0, Game::hash)
    }

    fn outcome(&self) -> Outcome {
        self.game.as_ref().map_or(Outcome::Unknown, Game::outcome)
    }

    fn generate_moves(&self, list: &mut MoveList<'_, u32>) {
        if let Ok(game) = &self.game {
            game.generate_moves(list);
        }
    }

    fn deferred_moves(&self) -> usize {
        self.game.as_ref().map_or(0, Game::deferred_moves)
    }

    fn play(&mut self, mv: u32) {
        if let Ok(game) = &mut self.game {
            game.play(mv);
        }
    }

    fn undo(&mut self, mv: u32) {
        if let Ok(game) = &mut self.game {
            game.undo(mv);
        }
    }

    fn estimate(&self) -> Numbers {
        self.game.as_ref().map_or(Numbers::UNIT, Game::estimate)
    }

    fn repetition_value(&self) -> Value {
        self.game
            .as_ref()
            .map_or(Value::Draw, Game::repetition_value)
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.game.as_ref().ok()?.encode(out)
    }

    fn dominance(&self) -> bool {
        self.game.as_ref().is_ok_and(Game::dominance)
    }

    fn class_hash(&self) -> u64 {
        self.game.as_ref().map_or(0, Game::class_hash)
    }

    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        self.game.as_ref().ok()?.encode_class(out)
    }

    fn material(&self) -> u32 {
        self.game.as_ref().map_or(0, Game::material)
    }

    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        self.game
            .as_ref()
            .is_ok_and(|game| game.material_at_least(player, a, b))
    }

    fn material_needed(&self, decided: Decided<u32>) -> Option<u32> {
        self.game.as_ref().ok()?.material_needed(decided)
    }

    fn reduces_material(&self) -> bool {
        self.game.as_ref().is_ok_and(Game::reduces_material)
    }

    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        self.game
            .as_ref()
            .map_or(a, |game| game.material_join(winner, a, b))
    }

    fn has_failed(&self) -> bool {
        self.game.as_ref().map_or(true, Game::has_failed)
    }
}
