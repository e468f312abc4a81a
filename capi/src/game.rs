//! The game as a table of C callbacks, and the adapter that makes it a [`Game`].
//!
//! Every callback takes the game's `void *ctx` first and returns an `int`: 0 for success,
//! anything else for an error the game wants to report. Values come back through
//! out-pointers that the adapter pre-fills with an impossible value, so a callback that
//! reports garbage, or nothing, is caught: the adapter records the first failure, answers the
//! solver with a harmless placeholder, and [`Game::has_failed`] stops the search with an error
//! status. A result found after a failure is never reported.
//!
//! A `play` that fails is taken as not played. The solvers take back every move they play as
//! they unwind, failed or not, so the adapter keeps the game out of it: from a failed `play`
//! until the solver takes that move back, no callback is called (the solver gets placeholders
//! for a position that does not exist), and the `undo` that ends it is not passed on. The game
//! never sees an `undo` of a move it did not play, and the moves it did play are taken back.

use core::cell::Cell;
use core::ffi::{c_int, c_void};

use proofnum_core::Numbers;
use proofnum_core::{Decided, Game, MoveList, Outcome, Player, RepetitionRule, Value};

use crate::boundary::SizedStruct;
use crate::error::Error;
use crate::fail;
use crate::status::pn_status;

mod dominance;
pub use dominance::{
    pn_decided, pn_material_at_least_fn, pn_material_fn, pn_material_join_fn, pn_material_needed_fn,
};

/// A player: the first player to move in the game, or the other one.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_side {
    /// The player who moves first from the game's start.
    First = 0,
    /// The other player.
    Second = 1,
}

/// What is known about a position, or what a search found.
///
/// The game's `outcome` callback reports, for the side to move, `UNKNOWN`, an exact value
/// (`WIN`, `LOSS`, `DRAW`) or a bound (`CANNOT_WIN`, `CANNOT_LOSE`). A bound is one-sided
/// knowledge of an unfinished position: the solver uses it where it answers the
/// question of a search (an attacker to move that cannot win, or a defender to move that cannot
/// lose, has no forced win for the attacker) and searches the position otherwise, so the game
/// must still list its moves. A bound must be true; a false one is the game's bug. Any other
/// value from the callback is `PN_STATUS_CALLBACK_INVALID`.
///
/// `pn_solve_value` reports `WIN`, `LOSS`, `DRAW` (for the side to move) or `UNKNOWN`;
/// `pn_solve` reports `PROVEN` (the attacker forces a win), `DISPROVEN` (it cannot) or
/// `UNKNOWN`. Results never hold a bound, so callers whose games report none never see one.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_outcome {
    /// Not known (without search), or the search ended without an answer.
    Unknown = 0,
    /// The side to move wins.
    Win = 1,
    /// The side to move loses.
    Loss = 2,
    /// Neither side can force a win (or the game ended drawn).
    Draw = 3,
    /// The attacker of `pn_solve` can force a win.
    Proven = 4,
    /// The attacker of `pn_solve` cannot force a win.
    Disproven = 5,
    /// From the `outcome` callback only: the side to move cannot win (a draw or a loss), and
    /// the game goes on.
    CannotWin = 6,
    /// From the `outcome` callback only: the side to move cannot lose (a draw or a win), and
    /// the game goes on.
    CannotLose = 7,
}

/// How a game scores a position that repeats one on the current line; it decides how the
/// solver shares results between transpositions.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_repetition {
    /// A repeated position is a draw (the default, and the rule of most games with cycles).
    /// Solved results are shared between transpositions; unsolved numbers are kept per line.
    Draw = 0,
    /// Positions never repeat (stones only accumulate, cells only fill): no repetition checks
    /// and every result shared, the fastest setting. A game that does repeat under it can end
    /// on a limit, never with a wrong answer.
    Acyclic = 1,
    /// A repeated position is scored by the game's `repetition_value` callback, which may
    /// favour either side; results are shared only between identical sets of positions on
    /// the line.
    ByPosition = 2,
}

/// The rule of each [`pn_repetition`], as the adapter's const parameter.
pub(crate) const RULE_DRAW: u8 = 0;
/// See [`RULE_DRAW`].
pub(crate) const RULE_ACYCLIC: u8 = 1;
/// See [`RULE_DRAW`].
pub(crate) const RULE_BY_POSITION: u8 = 2;

impl pn_repetition {
    /// The rule with this value from C.
    pub fn from_u32(value: u32) -> Result<pn_repetition, pn_status> {
        match value {
            0 => Ok(pn_repetition::Draw),
            1 => Ok(pn_repetition::Acyclic),
            2 => Ok(pn_repetition::ByPosition),
            _ => Err(pn_status::InvalidArgument),
        }
    }
}

/// Writes the side to move (0 or 1) to `*out_side`.
pub type pn_side_to_move_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_side: *mut u32) -> c_int>;
/// Writes a 64-bit hash of the position, including the side to move, to `*out_hash`. Equal
/// positions must hash equal; different ones should differ (Zobrist hashing is the usual way).
pub type pn_hash_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, out_hash: *mut u64) -> c_int>;
/// Writes what is known about the position without search to `*out_outcome`: one of
/// `PN_OUTCOME_UNKNOWN`, `PN_OUTCOME_WIN`, `PN_OUTCOME_LOSS`, `PN_OUTCOME_DRAW`, or a bound
/// `PN_OUTCOME_CANNOT_WIN` / `PN_OUTCOME_CANNOT_LOSE`, for the side to move. An exact value
/// (`WIN`, `LOSS`, `DRAW`) ends the search there, whether the game is over or the value is
/// known without search (a mate in one, say); with `UNKNOWN` or a bound the solver asks for
/// the moves (see `pn_outcome`). As `repetition_value`, only `WIN`, `LOSS` and `DRAW` are valid.
pub type pn_outcome_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_outcome: *mut u32) -> c_int>;
/// Lists the legal moves of a position that is not over (its outcome is unknown or a bound):
/// writes up to `cap` moves to `moves` and the number of legal moves to `*out_n`. When there
/// are more than `cap`, write none and report the true count: the search stops with
/// `PN_STATUS_TOO_MANY_MOVES`. A position without moves is lost for the side to move (report
/// other results through `outcome`). A move known to lose for the mover may be left out while
/// another move is listed (see the `Game` trait's docs in the Rust crate).
pub type pn_generate_moves_fn = Option<
    unsafe extern "C" fn(ctx: *mut c_void, moves: *mut u32, cap: usize, out_n: *mut usize) -> c_int,
>;
/// Plays a move that `generate_moves` listed in this position, or takes back the move just
/// played. A `play` that returns non-zero must leave the position as it was: the move counts
/// as not played, the search stops, and the library never calls `undo` for it.
pub type pn_move_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, mv: u32) -> c_int>;
/// Optional: a heuristic estimate of how hard the side to move's win is to prove
/// (`*out_phi`) and to disprove (`*out_delta`), df-pn+ style; clamped to 1 ..= 2^32 - 2.
/// Without it every position starts at (1, 1).
pub type pn_estimate_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_phi: *mut u32, out_delta: *mut u32) -> c_int>;
/// Optional: writes to `*out_n` how many of the moves that `generate_moves` just listed in this
/// position, counted from the end of its list, the df-pn engines may leave unplayed until the
/// moves before them have failed for the side to move, then play one at a time, each once the
/// one before has failed too (delayed expansion; see the `Game` trait's `deferred_moves` in
/// the Rust crate). A count above the number of moves means all of them,
/// except `SIZE_MAX`, which reads as nothing written (`PN_STATUS_CALLBACK_INVALID`). Asked
/// right after `generate_moves`, in the same position; it changes the order of the
/// search, never a value. PNS and PN² do not ask.
pub type pn_deferred_moves_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_n: *mut usize) -> c_int>;
/// Optional, for the parallel calls: makes an independent copy of the position (sharing
/// nothing that `play` or `undo` change) and writes its context to `*out_ctx`. Called with the
/// game's own `ctx` or with a copy's; a non-zero return or a NULL copy ends the call with
/// `PN_STATUS_CALLBACK_FAILED` or `PN_STATUS_CALLBACK_INVALID`.
pub type pn_clone_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_ctx: *mut *mut c_void) -> c_int>;
/// Optional, for the parallel calls: releases a copy made by `clone`. Called exactly once for
/// every copy, before the parallel call returns, and never with the game's own `ctx`.
pub type pn_free_fn = Option<unsafe extern "C" fn(ctx: *mut c_void)>;

/// The most bytes an exact position encoding may have: the `cap` the `encode` callback gets.
pub const PN_ENCODING_CAPACITY: usize = 256;

const _: () = assert!(PN_ENCODING_CAPACITY == proofnum_core::ENCODING_CAPACITY);

/// Optional: writes an exact encoding of the position into `out` (room for `cap` bytes, which
/// is `PN_ENCODING_CAPACITY`) and its length, at most `cap`, to `*out_length`. Exact means
/// equal bytes for equal positions (side to move included, and anything else the position's
/// value depends on, as for `hash`) and different bytes for different ones, where a hash only
/// makes that likely. The walks that confirm answers and write certificates tell positions
/// apart by it, so two positions the game's `hash` confuses cannot make a confirmed answer
/// wrong; a certificate names its root by it, and `pn_certificate_check` compares positions by
/// it (required there for games whose positions can repeat). A length above `cap`, or none
/// written, is `PN_STATUS_CALLBACK_INVALID`.
pub type pn_encode_fn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        out: *mut u8,
        cap: usize,
        out_length: *mut usize,
    ) -> c_int,
>;

/// A game, as a context pointer and callbacks. The position is one mutable state that `play`
/// and `undo` change; the serial calls restore it before they return (unless a callback
/// fails: then they take back the moves they played, except one whose `play` failed, as far
/// as `undo` lets them). Callbacks must not unwind (C++ exceptions) or `longjmp` out, and
/// must not call this solver (only `pn_solver_stop`).
///
/// The serial calls run every callback on the calling thread. The parallel calls never play
/// on the game's own position: they make one copy per worker thread (with `clone`, or as a
/// byte copy of `copy_size` bytes) and run the callbacks on the copies, from the worker
/// threads. Callbacks may then run at the same time on different contexts, from any thread,
/// but each context (the game's own, and each copy) is used by one thread at a time; the
/// game's own `ctx` is only read, by `clone` (or the byte copy) and `side_to_move`.
///
/// Zero the whole struct before filling it in (`pn_game game = {0};` or `memset`), then set
/// `struct_size = sizeof(pn_game)`: every field that `struct_size` covers is read, and a field
/// this header added that a program leaves uninitialised (an optional callback such as
/// `encode`) would be called as garbage.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pn_game {
    /// `sizeof(pn_game)`.
    pub struct_size: usize,
    /// Passed as the first argument of every callback.
    pub ctx: *mut c_void,
    /// Required.
    pub side_to_move: pn_side_to_move_fn,
    /// Required.
    pub hash: pn_hash_fn,
    /// Required.
    pub outcome: pn_outcome_fn,
    /// Required.
    pub generate_moves: pn_generate_moves_fn,
    /// Required.
    pub play: pn_move_fn,
    /// Required.
    pub undo: pn_move_fn,
    /// Optional (NULL: every position starts at (1, 1)).
    pub estimate: pn_estimate_fn,
    /// For the parallel calls (with `free`), unless `copy_size` is set; unused otherwise.
    pub clone: pn_clone_fn,
    /// Required with `clone`.
    pub free: pn_free_fn,
    /// Required with `PN_REPETITION_BY_POSITION`, unused otherwise: writes the value, for its
    /// side to move, of a position that repeats one on the current line (`PN_OUTCOME_WIN`,
    /// `PN_OUTCOME_LOSS` or `PN_OUTCOME_DRAW`).
    pub repetition_value: pn_outcome_fn,
    /// A `pn_repetition`; 0 (`PN_REPETITION_DRAW`) is right for every game, and
    /// `PN_REPETITION_ACYCLIC` much faster for games whose positions never repeat.
    pub repetition_rule: u32,
    /// For the parallel calls, instead of `clone` and `free`, when the position is plain data:
    /// the `copy_size` bytes at `ctx`, holding no pointer to anything `play` or `undo` change
    /// (pointers to constant tables are fine). A copy is then a byte copy in memory the library
    /// allocates (aligned to 16 bytes) and frees. 0 (the default) when `clone` is used; setting
    /// both is `PN_STATUS_INVALID_ARGUMENT`. Callers built against a header without this field
    /// pass the smaller `struct_size` and get 0.
    pub copy_size: usize,
    /// Optional (NULL: the game has no exact encoding; the walks then tell positions apart by
    /// `hash`, and a certificate of a game whose positions can repeat cannot be checked).
    /// Callers built against a header without this field pass the smaller `struct_size` and
    /// get NULL.
    pub encode: pn_encode_fn,
    /// Optional, with `material` and `material_at_least`: these three declare *dominance*
    /// (NULL, the default: none). This one writes the hash of the position without its
    /// material (side to move included, and everything else `hash` covers) to `*out_hash`:
    /// positions that differ only in material share it, others should not. With all three,
    /// a position is solved from a solved one of its class: a win for the side to move found
    /// with material no better for it (`material_at_least`), or a failure found with material
    /// no worse. This must be *true* of the game (as when material only adds options for its
    /// owner: stones or pieces in hand one may drop), or answers can be wrong (the walk that
    /// confirms answers, on by default, then reports `PN_STATUS_UNCONFIRMED` instead; with
    /// `confirm` off a wrong answer is reported). Give all three or none (one or two are
    /// `PN_STATUS_MISSING_CALLBACK`), and only under `PN_REPETITION_ACYCLIC` or
    /// `PN_REPETITION_DRAW` (under `PN_REPETITION_BY_POSITION` they are
    /// `PN_STATUS_INVALID_ARGUMENT`). `class_hash` and `material` are asked together, once
    /// each time the solver looks up or stores a position's class entries. Callers built
    /// against a header without these fields pass the smaller `struct_size` and get NULL.
    pub class_hash: pn_hash_fn,
    /// Optional, with `class_hash` and `material_at_least`: the position's material (see
    /// `pn_material_fn`).
    pub material: pn_material_fn,
    /// Optional, with `class_hash` and `material`: the order of materials in a class (see
    /// `pn_material_at_least_fn`), a partial order that must be true of the game.
    pub material_at_least: pn_material_at_least_fn,
    /// Optional (NULL: every move is played at once): deferred moves (see
    /// `pn_deferred_moves_fn`), for example a tsume defender's drops on a square after the
    /// first there. Callers built against a header without this field pass the smaller
    /// `struct_size` and get NULL.
    pub deferred_moves: pn_deferred_moves_fn,
    /// Optional, with the dominance callbacks (unused without them; NULL: classes are told
    /// apart by `class_hash`): writes an exact encoding of the position's class, the position
    /// without its material, as `encode` does the position's (same contract, same `cap`):
    /// equal bytes for positions of one class, different bytes for different classes. The
    /// walks that confirm answers and write certificates key classes by it, and
    /// `pn_certificate_check` compares a dominance record's two classes by it, so two classes
    /// whose `class_hash` collides cannot make a confirmed answer or a checked certificate
    /// wrong. Callers built against a header without this field pass the smaller
    /// `struct_size` and get NULL.
    pub encode_class: pn_encode_fn,
    /// Optional, with the dominance callbacks and `material_join` (NULL: a solved result is
    /// kept with the position's own material): the least material a solved result needs (see
    /// `pn_material_needed_fn`), so that it settles every position of its class with material
    /// at least as good for the winner. Callers built against a header without this field
    /// pass the smaller `struct_size` and get NULL.
    pub material_needed: pn_material_needed_fn,
    /// Required with `material_needed` (see `pn_material_join_fn`).
    pub material_join: pn_material_join_fn,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, then a raw pointer, optional function
// pointers and integers, all valid for every bit pattern. The older versions end where
// `copy_size`, `encode`, `class_hash`, `deferred_moves`, `encode_class` and `material_needed`
// begin (asserted below to be those versions' `sizeof`).
unsafe impl SizedStruct for pn_game {
    const OLDER_SIZES: &'static [usize] = &[
        core::mem::offset_of!(pn_game, copy_size),
        core::mem::offset_of!(pn_game, encode),
        core::mem::offset_of!(pn_game, class_hash),
        core::mem::offset_of!(pn_game, deferred_moves),
        core::mem::offset_of!(pn_game, encode_class),
        core::mem::offset_of!(pn_game, material_needed),
    ];
}

// Version 6 ended with `encode_class`, a pointer, so with no tail padding: `material_needed`
// (a pointer) starts exactly there.
const _: () = assert!(
    core::mem::offset_of!(pn_game, encode_class) + size_of::<usize>()
        == core::mem::offset_of!(pn_game, material_needed)
);

// Version 5 ended with `deferred_moves`, a pointer, so with no tail padding: `encode_class`
// (a pointer) starts exactly there.
const _: () = assert!(
    core::mem::offset_of!(pn_game, deferred_moves) + size_of::<usize>()
        == core::mem::offset_of!(pn_game, encode_class)
);

// Version 4 ended with `material_at_least`, a pointer, so with no tail padding:
// `deferred_moves` (a pointer) starts exactly there.
const _: () = assert!(
    core::mem::offset_of!(pn_game, material_at_least) + size_of::<usize>()
        == core::mem::offset_of!(pn_game, deferred_moves)
);

// Version 3 ended with `encode`, a pointer, so with no tail padding: `class_hash` (a pointer)
// starts exactly there.
const _: () = assert!(
    core::mem::offset_of!(pn_game, encode) + size_of::<usize>()
        == core::mem::offset_of!(pn_game, class_hash)
);

// Version 2 ended with `copy_size`, a `size_t`, so with no tail padding: `encode` (a pointer)
// starts exactly there.
const _: () = assert!(
    core::mem::offset_of!(pn_game, copy_size) + size_of::<usize>()
        == core::mem::offset_of!(pn_game, encode)
);

// Version 1 ended with `repetition_rule`, padded to the struct's alignment (pointers then as
// now): `copy_size` starts exactly there.
const _: () = assert!(
    (core::mem::offset_of!(pn_game, repetition_rule) + size_of::<u32>())
        .next_multiple_of(align_of::<pn_game>())
        == core::mem::offset_of!(pn_game, copy_size)
);

type SideFn = unsafe extern "C" fn(*mut c_void, *mut u32) -> c_int;
type HashFn = unsafe extern "C" fn(*mut c_void, *mut u64) -> c_int;
type GenerateFn = unsafe extern "C" fn(*mut c_void, *mut u32, usize, *mut usize) -> c_int;
type MoveFn = unsafe extern "C" fn(*mut c_void, u32) -> c_int;
type EstimateFn = unsafe extern "C" fn(*mut c_void, *mut u32, *mut u32) -> c_int;
type EncodeFn = unsafe extern "C" fn(*mut c_void, *mut u8, usize, *mut usize) -> c_int;
type CountFn = unsafe extern "C" fn(*mut c_void, *mut usize) -> c_int;

/// How a game broke its contract, and where; the first failure is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A callback returned non-zero.
    Failed {
        /// The callback's field name in `pn_game`.
        callback: &'static str,
        /// What it returned.
        code: c_int,
        /// The move it was given (`play`, `undo`).
        mv: Option<u32>,
    },
    /// A callback reported an out-of-range value.
    Invalid {
        /// The callback's field name in `pn_game`.
        callback: &'static str,
        /// What it wrote, or `None` when it wrote nothing.
        value: Option<u64>,
        /// The values it may write.
        expected: &'static str,
    },
}

impl From<Failure> for pn_status {
    fn from(f: Failure) -> pn_status {
        match f {
            Failure::Failed { .. } => pn_status::CallbackFailed,
            Failure::Invalid { .. } => pn_status::CallbackInvalid,
        }
    }
}

impl From<Failure> for Error {
    /// The failure in words: which callback, what it returned or wrote, what was expected.
    fn from(f: Failure) -> Error {
        match f {
            Failure::Failed {
                callback,
                code,
                mv: Some(mv),
            } => fail!(
                pn_status::from(f),
                "callback {callback} returned {code} for move {mv}; expected 0 (a non-zero \
                 return is the game's error)"
            ),
            Failure::Failed { callback, code, .. } => fail!(
                pn_status::from(f),
                "callback {callback} returned {code}; expected 0 (a non-zero return is the \
                 game's error)"
            ),
            Failure::Invalid {
                callback,
                value: Some(value),
                expected,
            } => fail!(
                pn_status::from(f),
                "callback {callback} wrote {value}; expected {expected}"
            ),
            Failure::Invalid {
                callback,
                value: None,
                expected,
            } => fail!(
                pn_status::from(f),
                "callback {callback} returned 0 but wrote nothing; expected {expected}"
            ),
        }
    }
}

/// What `side_to_move` may write.
const EXPECTED_SIDE: &str = "0 (PN_SIDE_FIRST) or 1 (PN_SIDE_SECOND)";
/// What `outcome` may write.
const EXPECTED_OUTCOME: &str = "PN_OUTCOME_UNKNOWN (0), WIN (1), LOSS (2), DRAW (3), \
                                CANNOT_WIN (6) or CANNOT_LOSE (7)";
/// What `repetition_value` may write.
const EXPECTED_VALUE: &str = "PN_OUTCOME_WIN (1), LOSS (2) or DRAW (3)";

/// A [`pn_game`] whose required callbacks are present, as a [`Game`] for the core solvers;
/// `RULE` is its repetition rule (`RULE_DRAW`, `RULE_ACYCLIC` or `RULE_BY_POSITION`).
pub struct CGame<const RULE: u8> {
    ctx: *mut c_void,
    side_to_move: SideFn,
    hash: HashFn,
    outcome: SideFn,
    generate_moves: GenerateFn,
    play: MoveFn,
    undo: MoveFn,
    estimate: Option<EstimateFn>,
    repetition_value: Option<SideFn>,
    encode: Option<EncodeFn>,
    encode_class: Option<EncodeFn>,
    deferred_moves: Option<CountFn>,
    /// The dominance callbacks, when the game gives them (see [`dominance`]).
    dominance: Option<dominance::Dominance>,
    /// The move buffer handed to `generate_moves` (carved from the solver's memory).
    moves: *mut u32,
    moves_cap: usize,
    failure: Cell<Option<Failure>>,
    /// Set from a failed `play` until the solver takes that move back: how many moves it has
    /// played beyond it since (none of which reach the game). See the module docs.
    inside_failed_play: Option<u32>,
}

impl<const RULE: u8> CGame<RULE> {
    /// Checks the required callbacks and adopts the move buffer.
    ///
    /// # Safety
    /// The callbacks must be safe to call with `game.ctx` on this thread while the `CGame`
    /// lives (the C caller's contract), and `moves` must stay valid for writes and unused by
    /// anything else while the `CGame` lives.
    pub(crate) unsafe fn new(game: &pn_game, moves: &mut [u32]) -> Result<CGame<RULE>, Error> {
        if RULE == RULE_BY_POSITION && game.repetition_value.is_none() {
            return Err(fail!(
                pn_status::MissingCallback,
                "game->repetition_value is NULL; PN_REPETITION_BY_POSITION needs it"
            ));
        }
        let missing = |name: &str| {
            fail!(
                pn_status::MissingCallback,
                "game->{name} is NULL; side_to_move, hash, outcome, generate_moves, play and \
                 undo are required"
            )
        };
        let side_to_move = game.side_to_move.ok_or_else(|| missing("side_to_move"))?;
        let hash = game.hash.ok_or_else(|| missing("hash"))?;
        let outcome = game.outcome.ok_or_else(|| missing("outcome"))?;
        let generate_moves = game
            .generate_moves
            .ok_or_else(|| missing("generate_moves"))?;
        let play = game.play.ok_or_else(|| missing("play"))?;
        let undo = game.undo.ok_or_else(|| missing("undo"))?;
        let dominance = dominance::Dominance::new(game, RULE)?;
        Ok(CGame {
            ctx: game.ctx,
            side_to_move,
            hash,
            outcome,
            generate_moves,
            play,
            undo,
            estimate: game.estimate,
            repetition_value: game.repetition_value,
            encode: game.encode,
            encode_class: game.encode_class,
            deferred_moves: game.deferred_moves,
            dominance,
            moves: moves.as_mut_ptr(),
            moves_cap: moves.len(),
            failure: Cell::new(None),
            inside_failed_play: None,
        })
    }

    /// The context the callbacks get.
    pub fn ctx(&self) -> *mut c_void {
        self.ctx
    }

    /// The first failure, if a callback broke the contract.
    pub fn failure(&self) -> Option<Failure> {
        self.failure.get()
    }

    fn fail(&self, failure: Failure) {
        if self.failure.get().is_none() {
            self.failure.set(Some(failure));
        }
    }

    /// True while the solver is at or below a move whose `play` failed: the game is not in
    /// the position the solver thinks, so no callback is called.
    fn detached(&self) -> bool {
        self.inside_failed_play.is_some()
    }

    /// The position is about to change: forgets what the dominance callbacks said of it.
    #[inline]
    fn forget_position(&self) {
        if let Some(dominance) = &self.dominance {
            dominance.forget();
        }
    }

    /// Records a non-zero return code of `callback` (given move `mv`); true when the call
    /// succeeded.
    fn ok(&self, rc: c_int, callback: &'static str, mv: Option<u32>) -> bool {
        if rc != 0 {
            self.fail(Failure::Failed {
                callback,
                code: rc,
                mv,
            });
        }
        rc == 0
    }

    /// Records that `callback` wrote `value` (or, if it is `unset`, nothing), which is not
    /// one of `expected`.
    fn invalid(&self, callback: &'static str, value: u64, unset: u64, expected: &'static str) {
        self.fail(Failure::Invalid {
            callback,
            value: (value != unset).then_some(value),
            expected,
        });
    }
}

/// XORed into the game's hashes under each rule (indexed by `RULE`), so that what a search
/// stores under one repetition rule is never read under another: the same position can have
/// different values under different rules, and the solver's table outlives any one game.
/// The draw rule, the default, keeps the game's hashes as they are; the others are arbitrary
/// odd constants (the golden-ratio and xxHash primes).
const RULE_SALT: [u64; 3] = [0, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];

/// Out-values the callbacks must overwrite: no valid side, outcome or count has them.
const UNSET_U32: u32 = u32::MAX;
const UNSET_COUNT: usize = usize::MAX;

impl<const RULE: u8> CGame<RULE> {
    /// Calls the encoding callback `encode` (`encode` or `encode_class`, named `name`) into
    /// `out`; `None` when there is none or it broke its contract (recorded as the failure).
    fn encode_by(
        &self,
        encode: Option<EncodeFn>,
        name: &'static str,
        out: &mut [u8],
    ) -> Option<usize> {
        let encode = encode?;
        if self.detached() {
            return None;
        }
        let cap = out.len().min(PN_ENCODING_CAPACITY);
        let mut length = UNSET_COUNT;
        // SAFETY: `new`'s contract; `out` holds `cap` writable bytes that nothing else uses
        // while the callback runs, and `length` is a valid `size_t` to write.
        let rc = unsafe { encode(self.ctx, out.as_mut_ptr(), cap, &mut length) };
        if !self.ok(rc, name, None) {
            return None;
        }
        if length > cap {
            // Over the capacity, or not written at all: a broken contract, and the bytes
            // past `cap` were never ours to read.
            self.invalid(
                name,
                length as u64,
                UNSET_COUNT as u64,
                "a length of at most PN_ENCODING_CAPACITY (256) in *out_length",
            );
            return None;
        }
        Some(length)
    }
}

impl<const RULE: u8> Game for CGame<RULE> {
    type Move = u32;

    const REPETITION_RULE: RepetitionRule = match RULE {
        RULE_ACYCLIC => RepetitionRule::Acyclic,
        RULE_BY_POSITION => RepetitionRule::ByPosition,
        _ => RepetitionRule::Draw,
    };

    fn side_to_move(&self) -> Player {
        if self.detached() {
            return Player::First;
        }
        let mut side = UNSET_U32;
        // SAFETY: `new`'s contract: the callback may be called with `ctx` here; `side` is a
        // valid, aligned `uint32_t` for it to write.
        let rc = unsafe { (self.side_to_move)(self.ctx, &mut side) };
        match side {
            _ if !self.ok(rc, "side_to_move", None) => Player::First,
            0 => Player::First,
            1 => Player::Second,
            _ => {
                self.invalid("side_to_move", side.into(), UNSET_U32.into(), EXPECTED_SIDE);
                Player::First
            }
        }
    }

    fn hash(&self) -> u64 {
        let mut hash = 0;
        if !self.detached() {
            // SAFETY: as in `side_to_move`, with a `uint64_t` to write.
            let rc = unsafe { (self.hash)(self.ctx, &mut hash) };
            self.ok(rc, "hash", None);
        }
        hash ^ RULE_SALT[RULE as usize]
    }

    fn outcome(&self) -> Outcome {
        if self.detached() {
            return Outcome::Unknown;
        }
        let mut outcome = UNSET_U32;
        // SAFETY: as in `side_to_move`.
        let rc = unsafe { (self.outcome)(self.ctx, &mut outcome) };
        if !self.ok(rc, "outcome", None) {
            return Outcome::Unknown;
        }
        match outcome {
            x if x == pn_outcome::Unknown as u32 => Outcome::Unknown,
            x if x == pn_outcome::Win as u32 => Outcome::Win,
            x if x == pn_outcome::Loss as u32 => Outcome::Loss,
            x if x == pn_outcome::Draw as u32 => Outcome::Draw,
            x if x == pn_outcome::CannotWin as u32 => Outcome::CannotWin,
            x if x == pn_outcome::CannotLose as u32 => Outcome::CannotLose,
            _ => {
                self.invalid(
                    "outcome",
                    outcome.into(),
                    UNSET_U32.into(),
                    EXPECTED_OUTCOME,
                );
                Outcome::Unknown
            }
        }
    }

    fn generate_moves(&self, list: &mut MoveList<'_, u32>) {
        if self.detached() {
            return;
        }
        let cap = self.moves_cap.min(list.capacity());
        let mut n = UNSET_COUNT;
        // SAFETY: `new`'s contract; `self.moves` holds `moves_cap >= cap` writable `u32`s used
        // by nothing else while the callback runs, and `n` is a valid `size_t` to write.
        let rc = unsafe { (self.generate_moves)(self.ctx, self.moves, cap, &mut n) };
        if !self.ok(rc, "generate_moves", None) {
            return;
        }
        if n == UNSET_COUNT {
            self.invalid(
                "generate_moves",
                UNSET_COUNT as u64,
                UNSET_COUNT as u64,
                "the number of legal moves in *out_n",
            );
            return;
        }
        // SAFETY: `self.moves` holds `moves_cap` initialised `u32`s (carved and zeroed by the
        // solver), which the callback may have overwritten with other `u32`s; no reference to
        // them exists outside this function.
        let written = unsafe { core::slice::from_raw_parts(self.moves, n.min(cap)) };
        for &mv in written {
            list.push(mv);
        }
        if n > cap {
            // More moves than the buffer holds: push one more so the list records the
            // overflow and the solver stops with `TooManyMoves`.
            list.push(0);
        }
    }

    fn deferred_moves(&self) -> usize {
        let Some(deferred_moves) = self.deferred_moves.filter(|_| !self.detached()) else {
            return 0;
        };
        let mut n = UNSET_COUNT;
        // SAFETY: `new`'s contract; `n` is a valid `size_t` to write.
        let rc = unsafe { deferred_moves(self.ctx, &mut n) };
        if !self.ok(rc, "deferred_moves", None) {
            return 0;
        }
        if n == UNSET_COUNT {
            self.invalid(
                "deferred_moves",
                UNSET_COUNT as u64,
                UNSET_COUNT as u64,
                "a number of moves in *out_n",
            );
            return 0;
        }
        n
    }

    fn play(&mut self, mv: u32) {
        self.forget_position();
        if let Some(beyond) = &mut self.inside_failed_play {
            *beyond += 1;
            return;
        }
        // SAFETY: `new`'s contract.
        let rc = unsafe { (self.play)(self.ctx, mv) };
        if !self.ok(rc, "play", Some(mv)) {
            self.inside_failed_play = Some(0);
        }
    }

    fn undo(&mut self, mv: u32) {
        self.forget_position();
        match self.inside_failed_play {
            // Takes back the move whose `play` failed: the game never played it.
            Some(0) => self.inside_failed_play = None,
            Some(beyond) => self.inside_failed_play = Some(beyond - 1),
            None => {
                // SAFETY: `new`'s contract.
                let rc = unsafe { (self.undo)(self.ctx, mv) };
                self.ok(rc, "undo", Some(mv));
            }
        }
    }

    fn estimate(&self) -> Numbers {
        let Some(estimate) = self.estimate.filter(|_| !self.detached()) else {
            return Numbers::UNIT;
        };
        let (mut phi, mut delta) = (1, 1);
        // SAFETY: `new`'s contract; two valid `uint32_t`s to write.
        let rc = unsafe { estimate(self.ctx, &mut phi, &mut delta) };
        if !self.ok(rc, "estimate", None) {
            return Numbers::UNIT;
        }
        // The core clamps estimates into the unsolved range, so any value is safe.
        Numbers::new(phi, delta)
    }

    fn repetition_value(&self) -> Value {
        let Some(repetition_value) = self.repetition_value else {
            return Value::Draw; // only called under the by-position rule, which requires it
        };
        if self.detached() {
            return Value::Draw;
        }
        let mut value = UNSET_U32;
        // SAFETY: as in `side_to_move`.
        let rc = unsafe { repetition_value(self.ctx, &mut value) };
        if !self.ok(rc, "repetition_value", None) {
            return Value::Draw;
        }
        match value {
            x if x == pn_outcome::Win as u32 => Value::Win,
            x if x == pn_outcome::Loss as u32 => Value::Loss,
            x if x == pn_outcome::Draw as u32 => Value::Draw,
            _ => {
                self.invalid(
                    "repetition_value",
                    value.into(),
                    UNSET_U32.into(),
                    EXPECTED_VALUE,
                );
                Value::Draw
            }
        }
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.encode_by(self.encode, "encode", out)
    }

    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        self.encode_by(
            self.encode_class.filter(|_| self.dominance.is_some()),
            "encode_class",
            out,
        )
    }

    fn dominance(&self) -> bool {
        self.dominance_applies()
    }

    fn class_hash(&self) -> u64 {
        self.class_and_material().0
    }

    fn material(&self) -> u32 {
        self.class_and_material().1
    }

    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        self.at_least(player, a, b)
    }

    fn material_needed(&self, decided: Decided<u32>) -> Option<u32> {
        self.needed(decided)
    }

    fn reduces_material(&self) -> bool {
        self.reduces()
    }

    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        self.join(winner, a, b)
    }

    fn has_failed(&self) -> bool {
        self.failure.get().is_some()
    }
}

impl pn_side {
    /// The side with this value from C.
    pub fn player(value: u32) -> Result<Player, pn_status> {
        match value {
            0 => Ok(Player::First),
            1 => Ok(Player::Second),
            _ => Err(pn_status::InvalidArgument),
        }
    }

    /// The side with this value from C, given as the argument `what`.
    pub(crate) fn arg(value: u32, what: &str) -> Result<Player, Error> {
        pn_side::player(value).map_err(|status| {
            fail!(
                status,
                "{what} is {value}; expected 0 (PN_SIDE_FIRST) or 1 (PN_SIDE_SECOND)"
            )
        })
    }
}

impl pn_repetition {
    /// The game's rule, or an error naming the field.
    pub(crate) fn of(game: &pn_game) -> Result<pn_repetition, Error> {
        pn_repetition::from_u32(game.repetition_rule).map_err(|status| {
            fail!(
                status,
                "game->repetition_rule is {}; expected 0 (PN_REPETITION_DRAW), 1 \
                 (PN_REPETITION_ACYCLIC) or 2 (PN_REPETITION_BY_POSITION)",
                game.repetition_rule
            )
        })
    }
}
