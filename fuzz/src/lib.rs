//! Shared pieces of the fuzz targets: games built from fuzz input and oracles that never use
//! the solver.
//!
//! - [`graph`]: a small game graph (tree, DAG or cyclic) read from the input, and its value by
//!   brute force over paths (exact for every repetition rule), cross-checked by retrograde
//!   analysis under the draw rule.
//! - [`tictactoe`]: tic-tac-toe and its value for every position by negamax.
//!
//! The oracles, tic-tac-toe and the hash mixer come from `proofnum-test-support`, which
//! proofnum's own tests use too.
//!
//! Each target checks its properties itself and panics on a violation, which libFuzzer reports
//! as a crash with the input that caused it.

pub mod graph;
pub mod tictactoe;

pub use proofnum_test_support::{attacker_wins, better};
