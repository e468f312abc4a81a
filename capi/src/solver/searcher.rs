//! The searchers a solver keeps, one per repetition rule, and the runs of a search with the
//! searcher typed for a game's rule.
//!
//! # Repetition rules
//! The core's searcher is generic over the game type, and the repetition rule is part of that
//! type (`Game::REPETITION_RULE`), while a C game names its rule at run time. The solver keeps
//! one searcher in its stack region, typed for the rule of the last game it searched
//! ([`Engine`]); a game with another rule replaces it (re-carving the stack, the only cost).
//! The PNS searcher in the arena region ([`PnsEngine`]) is kept and replaced the same way.

use core::ptr::NonNull;
use core::sync::atomic::AtomicBool;

use proofnum_core::{Dfpn, Game, Pns, Status, Table, Value};

use super::Inner;
use crate::config::{SerialEngine, Settings, pn_limits};
use crate::confirm::Serial;
use crate::error::Error;
use crate::game::{CGame, Failure, RULE_ACYCLIC, RULE_BY_POSITION, RULE_DRAW, pn_game, pn_outcome};
use crate::result::{pn_result, pn_stats};
use crate::status::pn_status;

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

/// Implements [`Engined`] for the game adapter of each rule, whose searchers sit in the
/// engines' variant of the same name.
macro_rules! engined {
    ($($rule:ident => $variant:ident),* $(,)?) => {$(
        impl Engined for CGame<$rule> {
            fn slot(engine: &mut Engine) -> Option<&mut Dfpn<'static, Self>> {
                match engine {
                    Engine::$variant(d) => Some(d),
                    _ => None,
                }
            }
            fn wrap(dfpn: Dfpn<'static, Self>) -> Engine {
                Engine::$variant(dfpn)
            }
            fn pns_slot(engine: &mut PnsEngine) -> Option<&mut Pns<'static, Self>> {
                match engine {
                    PnsEngine::$variant(p) => Some(p),
                    _ => None,
                }
            }
            fn pns_wrap(pns: Pns<'static, Self>) -> PnsEngine {
                PnsEngine::$variant(pns)
            }
        }
    )*};
}

engined!(
    RULE_ACYCLIC => Acyclic,
    RULE_DRAW => Draw,
    RULE_BY_POSITION => ByPosition,
);

/// The searchers and the regions they live in.
pub(crate) struct Searcher {
    pub(super) engine: Engine,
    /// The stack region, kept as a raw pointer: the searcher borrows it, and a searcher for
    /// another rule borrows it again once the old one is dropped.
    pub(super) stack: NonNull<u8>,
    pub(super) stack_bytes: usize,
    /// The PNS searcher (empty for a df-pn solver).
    pub(super) pns: PnsEngine,
    /// The arena region, kept as `stack` is (0 bytes for a df-pn solver).
    pub(super) arena: NonNull<u8>,
    pub(super) arena_bytes: usize,
    pub(super) settings: Settings,
}

impl Searcher {
    /// The searcher for game type `G`, built in the stack region if the current one is for
    /// another type.
    pub(super) fn get<G: Engined>(&mut self) -> Result<&mut Dfpn<'static, G>, pn_status> {
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
    pub(super) fn get_pns<G: Engined>(&mut self) -> Result<&mut Pns<'static, G>, pn_status> {
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

    /// Notes a callback's failure as the call's last error (see
    /// [`with_solver`](super::with_solver)) and returns its status.
    pub(crate) fn note_failure(&mut self, failure: Option<Failure>) -> Option<pn_status> {
        Some(self.note(Error::from(failure?)))
    }

    /// Notes an error the call reports through its result as the call's last error (see
    /// [`with_solver`](super::with_solver)) and returns its status.
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
    pub(super) fn solve(
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
    pub(super) fn solve_value(
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
