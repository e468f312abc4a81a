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

use proofnum_core::Player;

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

type MaterialFn = unsafe extern "C" fn(*mut c_void, *mut u32) -> c_int;
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
}

impl Dominance {
    /// The game's dominance callbacks under repetition rule `rule`: all three, or none (no
    /// dominance); one or two is `MissingCallback`, and the three under the by-position rule
    /// `InvalidArgument` (the core would ignore them there, and the caller thinks they work).
    pub(super) fn new(game: &pn_game, rule: u8) -> Result<Option<Dominance>, Error> {
        let given = |f: bool| if f { "set" } else { "NULL" };
        match (game.class_hash, game.material, game.material_at_least) {
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
        let side = match player {
            Player::First => pn_side::First,
            Player::Second => pn_side::Second,
        } as u32;
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
