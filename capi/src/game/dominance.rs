//! Dominance through the C ABI: the optional `class_hash`, `material` and `material_at_least`
//! callbacks of a [`pn_game`], and how the adapter answers the core's
//! [`Game::dominance`](proofnum_core::Game::dominance) and its three companions with them.
//!
//! A game declares dominance by giving all three callbacks: positions of one *class* (equal
//! but for their material: pieces in hand, stones to drop, a move budget) are then ordered by
//! their material, and the solvers solve a position from a solved one of its class whose
//! material is no better for the winner (a win) or no worse for the loser (a failure). One or
//! two of the three is `PN_STATUS_MISSING_CALLBACK`; the three under
//! `PN_REPETITION_BY_POSITION`, where the core keeps results per line and would ignore them,
//! `PN_STATUS_INVALID_ARGUMENT`.
//!
//! # What a failing callback can leave behind
//! The solver stores a solved result under its class and material ("remember dominant") right
//! after asking the game for both, and the table outlives the call. So a `class_hash` or
//! `material` that fails there must not leave an entry with a placeholder in the table, where
//! a later call (with working callbacks) could take it as the game's word. The adapter
//! therefore asks for both when the solver asks whether dominance applies to the position
//! ([`CGame::dominance_applies`], which the solver calls before it uses either), keeps them
//! until the position changes, and answers "no dominance here" when either failed: the solver
//! then neither stores nor probes a class entry, and stops on the failure as for any other.
//! A `material_at_least` that fails, or reports garbage, counts as "does not dominate": the
//! entry is not used, and the search stops with the failure.

use core::cell::Cell;
use core::ffi::{c_int, c_void};

use proofnum_core::{Decided, Player};

use super::{CGame, HashFn, RULE_BY_POSITION, RULE_SALT, UNSET_U32, pn_game, pn_side};
use crate::error::Error;
use crate::fail;
use crate::status::pn_status;

/// Optional, with `class_hash` and `material_at_least` (dominance): writes the position's
/// material, packed into 32 bits as the game likes (the attacker's pieces in hand, a few bits
/// a piece type; the stones one side may still drop), to `*out_material`. Positions of one
/// class (equal `class_hash`) differ in their material only.
pub type pn_material_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, out_material: *mut u32) -> c_int>;

/// Optional, with `class_hash` and `material` (dominance): writes 1 to `*out_at_least` when,
/// in the current position's class, material `a` is at least as good for the player `side`
/// (0 or 1, a `pn_side`) as material `b`, and 0 otherwise; any other value is
/// `PN_STATUS_CALLBACK_INVALID`. It must be a partial order for each side (reflexive: `a` is
/// at least `a`; transitive), and it must be *true*: a position is then at least as good for
/// `side` as every position of its class whose material is no better for `side` (for shogi's
/// attacker: at least as many pieces of every type in hand). The usual case is material that
/// only adds options for its owner, where `side` is the owner: more is at least as good, and
/// for the other side, less is.
pub type pn_material_at_least_fn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        side: u32,
        a: u32,
        b: u32,
        out_at_least: *mut u32,
    ) -> c_int,
>;

/// How the solver settled a position it asks `material_needed` about (the `decided`
/// argument of [`pn_material_needed_fn`]).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_decided {
    /// The game's `outcome` settled it (a finished game, or a rule such as a mate in one);
    /// `mv` and `material` are 0.
    ByOutcome = 0,
    /// The side to move wins by `mv`, after which the position keeps its result with
    /// `material` (or any at least as good for the winner).
    ByMove = 1,
    /// The side to move loses to every move, `mv` is one of them, after which the position
    /// keeps its result with `material`: what this position needs for the result through
    /// `mv` (joined over every move with `material_join`, then asked as
    /// `PN_DECIDED_BY_EVERY_MOVE`).
    ThroughLosingMove = 2,
    /// The side to move loses to every move; `material` is the join (`material_join`, for
    /// the winner) of what it needs through each of them, and what it needs in all adds what
    /// the moves it does not have need (a drop of a piece it lacks). `mv` is 0.
    ByEveryMove = 3,
}

/// Optional, with the dominance callbacks and `material_join`: the least material with which
/// a solved result of the current position still holds (tsume-shogi's proof pieces: a mate
/// found with a full hand may need one gold; a move budget: a mate found with 9 moves left
/// may need 5), so that the solver's class entry covers every position of the class whose
/// material is at least as good for the winner as that. `decided` (a `pn_decided`) says how
/// the solver settled the position, with `mv` and `material` as it describes; the winner is
/// the side to move when it won and the other side when it lost. Write 1 to `*out_known` and
/// the material to `*out_material`, or 0 to `*out_known` to say nothing (the position's own
/// material is kept); any other value is `PN_STATUS_CALLBACK_INVALID`. It must be *true*:
/// every position of the class with material at least as good for the winner has the same
/// result, given the same of the positions after its moves with the material they were
/// found to need; a claim that is not true makes answers wrong (the confirming walk, on by
/// default, then reports `PN_STATUS_UNCONFIRMED`). A material not at most as good for the
/// winner as the position's own is ignored.
pub type pn_material_needed_fn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        decided: u32,
        mv: u32,
        material: u32,
        out_known: *mut u32,
        out_material: *mut u32,
    ) -> c_int,
>;

/// Required with `material_needed`: writes to `*out_material` the least material at least as
/// good for the player `winner` (a `pn_side`) as both `a` and `b`, in the current position's
/// class (for shogi's attacker: the larger count of every piece type; for a failure, the
/// smaller).
pub type pn_material_join_fn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        winner: u32,
        a: u32,
        b: u32,
        out_material: *mut u32,
    ) -> c_int,
>;

type MaterialFn = unsafe extern "C" fn(*mut c_void, *mut u32) -> c_int;
type NeededFn = unsafe extern "C" fn(*mut c_void, u32, u32, u32, *mut u32, *mut u32) -> c_int;
type JoinFn = unsafe extern "C" fn(*mut c_void, u32, u32, u32, *mut u32) -> c_int;
type AtLeastFn = unsafe extern "C" fn(*mut c_void, u32, u32, u32, *mut u32) -> c_int;

/// The dominance callbacks of a game that gives them, and what they said of the current
/// position.
pub(super) struct Dominance {
    class_hash: HashFn,
    material: MaterialFn,
    at_least: AtLeastFn,
    /// The current position's class hash (salted for the rule, as `hash` is) and material,
    /// from the last [`CGame::dominance_applies`]; cleared by every `play` and `undo`.
    known: Cell<Option<(u64, u32)>>,
    /// `material_needed` and `material_join`, when the game gives them.
    needs: Option<(NeededFn, JoinFn)>,
}

impl Dominance {
    /// The game's dominance callbacks under repetition rule `rule`: all three, or none (no
    /// dominance); one or two is `MissingCallback`, and the three under the by-position rule
    /// `InvalidArgument` (the core would ignore them there, and the caller thinks they work).
    pub(super) fn new(game: &pn_game, rule: u8) -> Result<Option<Dominance>, Error> {
        let given = |f: bool| if f { "set" } else { "NULL" };
        let needs = match (game.material_needed, game.material_join) {
            (None, None) => None,
            (Some(needed), Some(join)) => Some((needed, join)),
            (n, j) => {
                return Err(fail!(
                    pn_status::MissingCallback,
                    "game->material_needed is {}, material_join {}; give both or neither",
                    given(n.is_some()),
                    given(j.is_some())
                ));
            }
        };
        match (game.class_hash, game.material, game.material_at_least) {
            (None, None, None) if needs.is_some() => Err(fail!(
                pn_status::MissingCallback,
                "game->material_needed and material_join are set without class_hash, material \
                 and material_at_least; they refine dominance, which needs those three"
            )),
            (None, None, None) => Ok(None),
            (Some(_), Some(_), Some(_)) if rule == RULE_BY_POSITION => Err(fail!(
                pn_status::InvalidArgument,
                "game->class_hash, material and material_at_least (dominance) are set with \
                 PN_REPETITION_BY_POSITION, which cannot use them; use PN_REPETITION_DRAW or \
                 ACYCLIC, or leave them NULL"
            )),
            (Some(class_hash), Some(material), Some(at_least)) => Ok(Some(Dominance {
                class_hash,
                material,
                at_least,
                known: Cell::new(None),
                needs,
            })),
            (c, m, a) => Err(fail!(
                pn_status::MissingCallback,
                "game->class_hash is {}, material {}, material_at_least {}; dominance needs \
                 all three or none",
                given(c.is_some()),
                given(m.is_some()),
                given(a.is_some())
            )),
        }
    }

    /// The position changed: what the callbacks said of the last one no longer holds.
    #[inline]
    pub(super) fn forget(&self) {
        self.known.set(None);
    }
}

impl<const RULE: u8> CGame<RULE> {
    /// Whether dominance applies to the current position ([`Game::dominance`]): the game gave
    /// the callbacks, no callback has failed, and `class_hash` and `material` answered for
    /// this position (asked now, once per position; see the module docs).
    ///
    /// [`Game::dominance`]: proofnum_core::Game::dominance
    pub(super) fn dominance_applies(&self) -> bool {
        let Some(dominance) = &self.dominance else {
            return false;
        };
        if self.failure.get().is_some() {
            return false;
        }
        if dominance.known.get().is_some() {
            return true;
        }
        let (mut class, mut material) = (0u64, 0u32);
        // SAFETY: `new`'s contract: the callbacks may be called with `ctx` here; `class` and
        // `material` are valid, aligned integers for them to write.
        let rc = unsafe { (dominance.class_hash)(self.ctx, &mut class) };
        if !self.ok(rc, "class_hash", None) {
            return false;
        }
        // SAFETY: as above.
        let rc = unsafe { (dominance.material)(self.ctx, &mut material) };
        if !self.ok(rc, "material", None) {
            return false;
        }
        dominance
            .known
            .set(Some((class ^ RULE_SALT[RULE as usize], material)));
        true
    }

    /// The current position's class hash and material, as [`dominance_applies`] found them
    /// (asking for them first if it has not), or placeholders when dominance does not apply
    /// (the solver does not use them then).
    ///
    /// [`dominance_applies`]: CGame::dominance_applies
    pub(super) fn class_and_material(&self) -> (u64, u32) {
        if !self.dominance_applies() {
            return (RULE_SALT[RULE as usize], 0);
        }
        self.dominance
            .as_ref()
            .and_then(|d| d.known.get())
            .unwrap_or((RULE_SALT[RULE as usize], 0))
    }

    /// Whether the game gave `material_needed` (and dominance applies to the position).
    pub(super) fn reduces(&self) -> bool {
        self.dominance.as_ref().is_some_and(|d| d.needs.is_some()) && self.dominance_applies()
    }

    /// [`Game::material_needed`](proofnum_core::Game::material_needed) through the callback:
    /// `None` without it, after a failure, when it says nothing, fails, or writes anything
    /// but 0 or 1 to `*out_known`.
    pub(super) fn needed(&self, decided: Decided<u32>) -> Option<u32> {
        let (needed, _) = self.dominance.as_ref()?.needs?;
        if self.failure.get().is_some() {
            return None;
        }
        let (how, mv, material) = match decided {
            Decided::ByOutcome => (pn_decided::ByOutcome, 0, 0),
            Decided::ByMove { mv, after } => (pn_decided::ByMove, mv, after),
            Decided::ThroughLosingMove { mv, after } => (pn_decided::ThroughLosingMove, mv, after),
            Decided::ByEveryMove { joined } => (pn_decided::ByEveryMove, 0, joined),
        };
        let (mut known, mut out) = (UNSET_U32, 0u32);
        // SAFETY: `new`'s contract; `known` and `out` are valid, aligned `uint32_t`s to write.
        let rc = unsafe { needed(self.ctx, how as u32, mv, material, &mut known, &mut out) };
        if !self.ok(rc, "material_needed", None) {
            return None;
        }
        match known {
            0 => None,
            1 => Some(out),
            _ => {
                self.invalid(
                    "material_needed",
                    known.into(),
                    UNSET_U32.into(),
                    "0 or 1 in *out_known",
                );
                None
            }
        }
    }

    /// [`Game::material_join`](proofnum_core::Game::material_join) through the callback: `a`
    /// when it fails (the failure stops the search, and nothing joined is stored).
    pub(super) fn join(&self, winner: Player, a: u32, b: u32) -> u32 {
        let Some((_, join)) = self.dominance.as_ref().and_then(|d| d.needs) else {
            return a;
        };
        if self.failure.get().is_some() {
            return a;
        }
        let side = side_code(winner);
        let mut out = 0u32;
        // SAFETY: `new`'s contract; `out` is a valid, aligned `uint32_t` to write.
        let rc = unsafe { join(self.ctx, side, a, b, &mut out) };
        if !self.ok(rc, "material_join", None) {
            return a;
        }
        out
    }

    /// [`Game::material_at_least`](proofnum_core::Game::material_at_least) through the
    /// callback: false (the entry compared is not used) without the callbacks, after a
    /// failure, and when the callback fails or reports anything but 0 or 1.
    pub(super) fn at_least(&self, player: Player, a: u32, b: u32) -> bool {
        let Some(dominance) = &self.dominance else {
            return a == b;
        };
        if self.failure.get().is_some() {
            return false;
        }
        let side = side_code(player);
        let mut at_least = UNSET_U32;
        // SAFETY: `new`'s contract; `at_least` is a valid, aligned `uint32_t` to write.
        let rc = unsafe { (dominance.at_least)(self.ctx, side, a, b, &mut at_least) };
        if !self.ok(rc, "material_at_least", None) {
            return false;
        }
        match at_least {
            0 => false,
            1 => true,
            _ => {
                self.invalid(
                    "material_at_least",
                    at_least.into(),
                    UNSET_U32.into(),
                    "0 or 1 in *out_at_least",
                );
                false
            }
        }
    }
}

/// The `pn_side` of a player, as the callbacks take it.
fn side_code(player: Player) -> u32 {
    let side = match player {
        Player::First => pn_side::First,
        Player::Second => pn_side::Second,
    };
    side as u32
}
