//! The suite generators' random numbers: SplitMix64, with `below` by modulo, so a seed
//! written in a suite's header makes the same positions again.

/// SplitMix64 (Steele, Lea and Flood 2014) from a seed.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}
