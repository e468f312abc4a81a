//! Tic-tac-toe and its value for every position by negamax: the test-support crate's, shared
//! with proofnum's own tests.

pub use proofnum_test_support::TicTacToe;
