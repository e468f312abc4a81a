//! SplitMix64 (Steele, Lea and Flood 2014): a small, fast, seedable generator, good enough for
//! random games and positions, and the seed of a randomised test.

use proofnum_game::{Player, Value};

/// The golden-ratio increment of SplitMix64's state.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijection of `u64`, so distinct inputs keep distinct outputs.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64: a seedable generator with the helpers the random games use.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; `n` must not be 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform index into a slice of `len` elements (`len` must not be 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// True with probability `p_percent / 100`.
    pub fn chance(&mut self, p_percent: u64) -> bool {
        self.below(100) < p_percent
    }

    /// Either player, with equal probability.
    pub fn player(&mut self) -> Player {
        if self.chance(50) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// A win, a loss or a draw, with equal probability.
    pub fn value(&mut self) -> Value {
        match self.below(3) {
            0 => Value::Win,
            1 => Value::Loss,
            _ => Value::Draw,
        }
    }

    /// A branching factor in `1..=max`, biased towards small values.
    pub fn branching(&mut self, max: u64) -> usize {
        let a = 1 + self.below(max);
        let b = 1 + self.below(max);
        a.min(b) as usize
    }
}

/// The seed for a randomised test: `PROOFNUM_SEED` if set, else fresh from the clock, so every
/// run explores new games; failures print it for reproduction.
pub fn seed() -> u64 {
    match std::env::var("PROOFNUM_SEED") {
        Ok(s) => s.parse().expect("PROOFNUM_SEED must be an integer"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_are_splitmix64s() {
        // The reference outputs for seed 0 (Vigna's splitmix64.c).
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = Rng::new(7);
        assert!((0..10_000).all(|_| rng.below(3) < 3));
    }
}
