//! Test support for proofnum: the games the tests and fuzz targets solve, oracles that never
//! use a solver, and a seedable random number generator.
//!
//! - [`rng`]: SplitMix64 ([`Rng`]), its finaliser ([`mix`]) and the seed of a randomised test
//!   ([`seed`]).
//! - [`tictactoe`]: tic-tac-toe ([`TicTacToe`]) and its value for every position by negamax.
//! - [`graph`]: explicit game graphs (random trees, DAGs and cyclic graphs, or any graph built
//!   node by node), played as a game ([`GraphGame`]), and their values by brute force over
//!   paths (exact under every repetition rule) and by retrograde analysis (infinite play is a
//!   draw).
//!
//! The crate depends on the `Game` trait's crate only, not on the solver: the oracles share
//! nothing with the search they check, and a development dependency on this crate adds no
//! second copy of `proofnum` to its test builds. It is not published.

pub mod graph;
pub mod rng;
pub mod tictactoe;

pub use graph::{
    ACYCLIC, BY_POSITION, DEFER, DRAW, Graph, GraphGame, LEAVES, NO_ENCODING, Node, Shape,
    attacker_wins, better, repetition_part,
};
pub use rng::{Rng, mix, seed};
pub use tictactoe::TicTacToe;
