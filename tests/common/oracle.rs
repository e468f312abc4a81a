//! One oracle harness for every solver: a random graph game solved through
//! [`proofnum::Search`] for both attackers and for its value, each answer compared with the
//! brute-force oracle's (`Graph::oracle_value`, computed by the caller, never by a solver).
//!
//! What a solver checks beyond that (df-pn's proofs and principal variations, PNS's small
//! arenas, the parallel solver's jobs) runs in the caller's hook after each attacker search.

use proofnum::{Answer, Search, ValueAnswer};
use proofnum::{Game, Outcome, Player, Status, Value};

use super::{Graph, GraphGame};

/// A game played on a [`Graph`]: where it stands, so the harness can check that every search
/// restores the position.
pub trait OnGraph {
    /// The current node.
    fn at(&self) -> u32;
}

impl<const RULE: u8> OnGraph for GraphGame<'_, RULE> {
    fn at(&self) -> u32 {
        self.at
    }
}

/// One game and its known answer.
pub struct Case<'a> {
    pub graph: &'a Graph,
    /// The root's value for its side to move, by the oracle.
    pub expected: Value,
    /// Whether the game scores repetitions by position (else a repetition is a draw).
    pub by_position: bool,
    /// Printed with every failure: the seed, the game, the configuration.
    pub context: &'a str,
}

impl Case<'_> {
    /// The status an attacker search must report.
    pub fn status_for(&self, attacker: Player) -> Status {
        if self.graph.attacker_wins(self.expected, attacker) {
            Status::Proven
        } else {
            Status::Disproven
        }
    }

    /// Solves the game for both attackers and for its value with `solver`, each search under
    /// fresh budgets from `limits`, and asserts: each status is the oracle's, the position is
    /// restored, a proven root with moves names a best move that is a move of the root and
    /// keeps the win by the oracle, and the value is the oracle's. `prepare` runs on the table
    /// before each attacker search (to clear it, say); `after` runs after each, for the
    /// solver's own checks.
    pub fn check<G, T, S>(
        &self,
        solver: &mut S,
        game: &mut G,
        table: &mut T,
        mut limits: impl FnMut() -> S::Limits<'static>,
        mut prepare: impl FnMut(&mut T),
        mut after: impl FnMut(&mut S, &mut G, &mut T, Player, &S::Solved),
    ) where
        G: Game<Move = u64> + OnGraph,
        T: ?Sized,
        S: Search<G, T>,
    {
        let (graph, context) = (self.graph, self.context);
        assert_eq!(
            game.at(),
            graph.root,
            "{context}: the game starts at the root"
        );
        for attacker in [Player::First, Player::Second] {
            prepare(table);
            let r = solver.solve(game, attacker, table, &mut limits());
            assert_eq!(game.at(), graph.root, "{context}: position not restored");
            let expected = self.expected;
            assert_eq!(
                r.status(),
                self.status_for(attacker),
                "{context}: attacker {attacker:?}, oracle value {expected:?} for the side to move\n{graph:#?}"
            );
            self.assert_best_move_wins(attacker, r.status(), r.best_move());
            after(solver, game, table, attacker, &r);
        }
        let v = solver.solve_value(game, table, &mut limits());
        assert_eq!(game.at(), graph.root, "{context}: position not restored");
        assert_eq!(
            v.value(),
            Ok(self.expected),
            "{context}: solve_value\n{graph:#?}"
        );
    }

    /// Solves a game that may be beyond the solver (a cyclic graph declared acyclic) for both
    /// attackers: an answer may be missing, but every answer given must be the oracle's and
    /// the position restored. Returns how many searches answered.
    pub fn answers_never_wrong<G, T, S>(
        &self,
        solver: &mut S,
        game: &mut G,
        table: &mut T,
        mut limits: impl FnMut() -> S::Limits<'static>,
        mut prepare: impl FnMut(&mut T),
    ) -> usize
    where
        G: Game<Move = u64> + OnGraph,
        T: ?Sized,
        S: Search<G, T>,
    {
        let (graph, context) = (self.graph, self.context);
        let mut answered = 0;
        for attacker in [Player::First, Player::Second] {
            prepare(table);
            let r = solver.solve(game, attacker, table, &mut limits());
            assert_eq!(game.at(), graph.root, "{context}: position not restored");
            if let Status::Unknown(_) = r.status() {
                continue;
            }
            answered += 1;
            assert_eq!(
                r.status(),
                self.status_for(attacker),
                "{context} {attacker:?}\n{graph:#?}"
            );
        }
        answered
    }

    /// A proven root with moves must name a best move, a move of the root that keeps the win
    /// for `attacker` by the oracle.
    pub fn assert_best_move_wins(&self, attacker: Player, status: Status, best_move: Option<u64>) {
        let (graph, context) = (self.graph, self.context);
        let root = graph.node(graph.root);
        if status != Status::Proven || root.outcome != Outcome::Unknown || root.children.is_empty()
        {
            return;
        }
        let mv = best_move.expect("a proven interior root has a best move");
        assert_eq!(
            (mv >> 32) as u32,
            graph.root,
            "{context}: best move {mv:#x} not from the root"
        );
        assert!(
            graph.child_wins_for(mv as u32, attacker, self.by_position),
            "{context}: best move {mv:#x} does not win\n{graph:#?}"
        );
    }
}
