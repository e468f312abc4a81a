//! One interface to the solvers' common entry points: [`Search`].
//!
//! df-pn ([`Dfpn`]), best-first PNS and PN² ([`Pns`]) and, with the `std` feature, the
//! parallel PN-DFPN solver (`ParallelSolver`, module `parallel`) all answer the same two
//! questions: "does this attacker force a win?" (`solve`) and "what is the position worth to
//! the side to move?" (`solve_value`). [`Search`] names those two, so code that only asks them
//! (a test harness against an oracle, an engine that lets its user pick the solver) is written
//! once.
//!
//! What the solvers do not share stays out of the trait: the table is a type parameter (df-pn
//! and PNS take any [`TranspositionTable`], the parallel solver a `SharedTable`), the budgets
//! an associated type ([`Limits`] or `ParallelLimits`), and each solver keeps its own result
//! types (their statistics differ), read through [`Answer`] and [`ValueAnswer`]. Everything
//! else (memory, configuration, proofs and principal variations, confirmation) is the
//! solvers' own.
//!
//! Each implementation delegates to the solver's inherent method of the same name, which
//! method-call syntax still prefers: existing calls are unchanged.

use crate::dfpn::Dfpn;
use crate::game::{Game, Player, Value};
use crate::limits::{Limits, Reason};
use crate::pns::Pns;
use crate::result::{SearchResult, Status};
use crate::table::TranspositionTable;
use crate::value::ValueResult;

/// A solver of `G`'s positions with tables of type `T`: the entry points df-pn, PNS and the
/// parallel solver share.
///
/// Generic code names the solver and the table and calls through the trait:
///
/// ```
/// use proofnum::{Answer, Search, ValueAnswer};
/// use proofnum::{Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Player, Pns, PnsConfig};
/// use proofnum::{Table, Value};
///
/// /// Take one or two stones; whoever takes the last stone wins.
/// #[derive(Clone)]
/// struct Pile(u32, Player);
///
/// impl Game for Pile {
///     type Move = u32;
///     fn side_to_move(&self) -> Player { self.1 }
///     fn hash(&self) -> u64 { (self.0 as u64) << 1 | self.1.index() as u64 }
///     fn outcome(&self) -> Outcome {
///         if self.0 == 0 { Outcome::Loss } else { Outcome::Unknown }
///     }
///     fn generate_moves(&self, moves: &mut MoveList<'_, u32>) {
///         for take in 1..=self.0.min(2) { moves.push(take); }
///     }
///     fn play(&mut self, take: u32) { self.0 -= take; self.1 = self.1.opponent(); }
///     fn undo(&mut self, take: u32) { self.0 += take; self.1 = self.1.opponent(); }
/// }
///
/// /// The value of a pile by any solver.
/// fn value<S: for<'t> Search<Pile, Table<'t>, Limits<'static> = Limits<'static>>>(
///     solver: &mut S,
///     stones: u32,
/// ) -> Value {
///     let mut memory = vec![0u8; Table::required_bytes(64)];
///     let mut table = Table::new(&mut memory).unwrap();
///     let mut pile = Pile(stones, Player::First);
///     let answer = solver.solve_value(&mut pile, &mut table, &mut Limits::default());
///     answer.value().unwrap()
/// }
///
/// let mut stack = vec![0u8; Dfpn::<Pile>::stack_bytes(16, 2)];
/// let mut dfpn = Dfpn::<Pile>::new(&mut stack, 16, 2, DfpnConfig::default()).unwrap();
/// let config = PnsConfig::PNS;
/// let mut arena = vec![0u8; Pns::<Pile>::required_bytes(256, 16, 2, config)];
/// let mut pns = Pns::<Pile>::new(&mut arena, 16, 2, config).unwrap();
/// // Multiples of three are lost for the side to move.
/// assert_eq!(value(&mut dfpn, 9), Value::Loss);
/// assert_eq!(value(&mut pns, 10), Value::Win);
/// ```
pub trait Search<G: Game, T: ?Sized> {
    /// The budgets of one call: [`Limits`] for df-pn and PNS, `ParallelLimits` for the
    /// parallel solver.
    type Limits<'l>;
    /// What [`solve`](Search::solve) reports: [`SearchResult`] or `ParallelResult`.
    type Solved: Answer<G::Move>;
    /// What [`solve_value`](Search::solve_value) reports: [`ValueResult`] or
    /// `ParallelValueResult`.
    type Valued: ValueAnswer<G::Move>;

    /// Whether `attacker` forces a win from `game`'s position: a proof, a disproof or, within
    /// `limits`, neither. The position is restored before it returns.
    fn solve(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Self::Limits<'_>,
    ) -> Self::Solved;

    /// The position's value for its side to move (two attacker searches sharing `table` and
    /// the budgets of `limits`). The position is restored before it returns.
    fn solve_value(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Self::Limits<'_>,
    ) -> Self::Valued;
}

/// What every solver's `solve` reports: the status and the move that proves it.
pub trait Answer<M> {
    /// Proven, disproven, or unknown and why.
    fn status(&self) -> Status;
    /// The proving move of a proven position whose attacker moves (a defence otherwise), if
    /// the solver reports one.
    fn best_move(&self) -> Option<M>;
}

/// What every solver's `solve_value` reports: the value and a move that achieves it.
pub trait ValueAnswer<M> {
    /// The value for the side to move, or why it is not known.
    fn value(&self) -> Result<Value, Reason>;
    /// A move that achieves the value, if the solver reports one.
    fn best_move(&self) -> Option<M>;
}

impl<M: Copy> Answer<M> for SearchResult<M> {
    fn status(&self) -> Status {
        self.status
    }
    fn best_move(&self) -> Option<M> {
        self.best_move
    }
}

impl<M: Copy> ValueAnswer<M> for ValueResult<M> {
    fn value(&self) -> Result<Value, Reason> {
        self.value
    }
    fn best_move(&self) -> Option<M> {
        self.best_move
    }
}

impl<G: Game, T: TranspositionTable> Search<G, T> for Dfpn<'_, G> {
    type Limits<'l> = Limits<'l>;
    type Solved = SearchResult<G::Move>;
    type Valued = ValueResult<G::Move>;

    fn solve(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        Dfpn::solve(self, game, attacker, table, limits)
    }

    fn solve_value(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        Dfpn::solve_value(self, game, table, limits)
    }
}

impl<G: Game, T: TranspositionTable> Search<G, T> for Pns<'_, G> {
    type Limits<'l> = Limits<'l>;
    type Solved = SearchResult<G::Move>;
    type Valued = ValueResult<G::Move>;

    fn solve(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        Pns::solve(self, game, attacker, table, limits)
    }

    fn solve_value(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        Pns::solve_value(self, game, table, limits)
    }
}

#[cfg(feature = "std")]
mod parallel {
    use super::{Answer, Search, ValueAnswer};
    use crate::game::{Game, Player, Value};
    use crate::limits::Reason;
    use crate::parallel::{ParallelLimits, ParallelResult, ParallelSolver, ParallelValueResult};
    use crate::result::Status;
    use crate::table::SharedTable;

    impl<M: Copy> Answer<M> for ParallelResult<M> {
        fn status(&self) -> Status {
            self.status
        }
        fn best_move(&self) -> Option<M> {
            self.best_move
        }
    }

    impl<M: Copy> ValueAnswer<M> for ParallelValueResult<M> {
        fn value(&self) -> Result<Value, Reason> {
            self.value
        }
        fn best_move(&self) -> Option<M> {
            self.best_move
        }
    }

    /// The parallel solver reads the position and the table through shared references (its
    /// workers clone the game and share the table); the trait's `&mut` borrows are simply
    /// more than it needs.
    impl<'t, G> Search<G, SharedTable<'t>> for ParallelSolver
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        type Limits<'l> = ParallelLimits<'l>;
        type Solved = ParallelResult<G::Move>;
        type Valued = ParallelValueResult<G::Move>;

        fn solve(
            &mut self,
            game: &mut G,
            attacker: Player,
            table: &mut SharedTable<'t>,
            limits: &mut ParallelLimits<'_>,
        ) -> ParallelResult<G::Move> {
            ParallelSolver::solve(self, game, attacker, table, limits)
        }

        fn solve_value(
            &mut self,
            game: &mut G,
            table: &mut SharedTable<'t>,
            limits: &mut ParallelLimits<'_>,
        ) -> ParallelValueResult<G::Move> {
            ParallelSolver::solve_value(self, game, table, limits)
        }
    }
}
