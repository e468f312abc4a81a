//! The tests' shared games and oracles: the random game graphs, tic-tac-toe, their
//! brute-force oracles and SplitMix64 live in `proofnum-test-support` (shared with the fuzz
//! targets); the doors game is kept here.
#![allow(dead_code, unused_imports)]

pub mod doors;

pub use proofnum_test_support::*;

pub mod oracle;

/// What reading the first search's proofs saved in a value's second search, over many games:
/// the work (nodes or MID calls) with and without reading, and on how many games it was less.
pub struct Savings {
    /// The seed the games came from, for the failure message.
    pub seed: u64,
    /// Total work of the second searches that read the first search's proofs.
    pub reading: u64,
    /// Total work of the same searches without reading them.
    pub plain: u64,
    /// Games on which reading did less work.
    pub fewer: usize,
}

impl Savings {
    /// Asserts that reading saved work in total and on some game. Only meaningful on acyclic
    /// games: there the first search's proofs hold for every path and the saving is several
    /// percent on every seed tried (ratios 0.94–0.975 over 100 seeds). On cyclic games with a
    /// draw rule most proofs depend on the path, the saving is under 0.6% and a few seeds in a
    /// hundred lose a few nodes, so there the test checks only the answers.
    pub fn assert_saved(&self, work: &str) {
        assert!(
            self.reading < self.plain && self.fewer > 0,
            "seed {}: reading the first search's proofs should save {work}: {} against {}, fewer on {} games",
            self.seed,
            self.reading,
            self.plain,
            self.fewer
        );
    }
}
