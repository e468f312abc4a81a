//! Proof and disproof numbers in the (φ, δ) form: what [`Game::estimate`](crate::Game::estimate)
//! returns, and what a proof-number search keeps for every position.
//!
//! Every position carries two numbers seen from its side to move: φ, how many leaves must
//! still be solved for the side to move to win, and δ, how many to show it does not. 0 means
//! shown, [`INFINITE`] means impossible. (The arithmetic on them, with its saturation rules,
//! lives in the solver, `proofnum::number`.)

/// The sentinel for an infinite proof or disproof number: the node is solved.
pub const INFINITE: u32 = u32::MAX;

/// The largest finite number; finite sums saturate here instead of reaching [`INFINITE`].
pub const MAX_FINITE: u32 = u32::MAX - 1;

/// A node's numbers from the side to move's view: φ to prove a win, δ to disprove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Numbers {
    /// φ: how many leaves must still be solved for the side to move to win.
    pub phi: u32,
    /// δ: how many leaves must still be solved to show the side to move does not win.
    pub delta: u32,
}

impl Default for Numbers {
    /// [`Numbers::UNIT`].
    fn default() -> Self {
        Numbers::UNIT
    }
}

impl Numbers {
    /// An unexplored leaf in classic (P)NS: one leaf to prove, one to disprove.
    pub const UNIT: Numbers = Numbers { phi: 1, delta: 1 };
    /// The side to move wins: φ = 0, δ = ∞.
    pub const WIN: Numbers = Numbers {
        phi: 0,
        delta: INFINITE,
    };
    /// The side to move does not win (in the attacker framing: loses): φ = ∞, δ = 0.
    pub const LOSS: Numbers = Numbers {
        phi: INFINITE,
        delta: 0,
    };

    /// Builds numbers from φ and δ.
    #[inline]
    pub const fn new(phi: u32, delta: u32) -> Numbers {
        Numbers { phi, delta }
    }

    /// Clamps a heuristic estimate into the range of an unsolved node (1 ..= [`MAX_FINITE`]), so
    /// a game's estimate can never claim a solution.
    #[inline]
    pub const fn unsolved_estimate(phi: u32, delta: u32) -> Numbers {
        const fn clamp(x: u32) -> u32 {
            if x == 0 {
                1
            } else if x > MAX_FINITE {
                MAX_FINITE
            } else {
                x
            }
        }
        Numbers {
            phi: clamp(phi),
            delta: clamp(delta),
        }
    }

    /// True when the side to move has been shown to win.
    #[inline]
    pub const fn is_win(self) -> bool {
        self.phi == 0
    }

    /// True when the side to move has been shown not to win.
    #[inline]
    pub const fn is_loss(self) -> bool {
        self.delta == 0
    }

    /// True when the node is solved either way.
    #[inline]
    pub const fn is_solved(self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    /// True when either number has reached its threshold: MID returns to the parent.
    #[inline]
    pub const fn reaches(self, threshold: Numbers) -> bool {
        self.phi >= threshold.phi || self.delta >= threshold.delta
    }

    /// The numbers as the parent sees this child's contribution: the parent's side to move is
    /// this node's opponent, so φ and δ swap roles.
    #[inline]
    pub const fn swapped(self) -> Numbers {
        Numbers {
            phi: self.delta,
            delta: self.phi,
        }
    }
}
