//! The tests' shared games and oracles: the random game graphs, tic-tac-toe, their
//! brute-force oracles and SplitMix64 live in `proofnum-test-support` (shared with the fuzz
//! targets); the doors game is kept here.
#![allow(dead_code, unused_imports)]

pub mod doors;

pub use proofnum_test_support::*;

pub mod oracle;
