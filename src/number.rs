//! Proof and disproof numbers in the (φ, δ) form, with saturating arithmetic.
//!
//! Every node carries two numbers seen from the side to move (Nagai's φ/δ form; the guide's
//! chapter on how the solver works): φ is the proof number of "the side to move wins" and δ
//! its disproof number. A child's numbers feed its parent as
//! `φ(n) = min δ(c)` and `δ(n) = Σ φ(c)`, so OR and AND nodes share one code path.
//!
//! Numbers are `u32` with one sentinel, [`INFINITE`]. Finite sums saturate at [`MAX_FINITE`] and
//! never reach the sentinel, so an overflowing sum can never turn into a false "solved". The
//! child-threshold expressions, which other solvers compute with wrapping arithmetic, are
//! computed in 64 bits and clamped.
//!
//! [`Numbers`], [`INFINITE`] and [`MAX_FINITE`] come from the `proofnum-game` crate, since
//! [`Game::estimate`](crate::Game::estimate) returns numbers.

pub use proofnum_game::{INFINITE, MAX_FINITE, Numbers};

/// Adds two numbers: infinite if either is, otherwise the sum saturated at [`MAX_FINITE`].
#[inline]
pub const fn add(a: u32, b: u32) -> u32 {
    if a == INFINITE || b == INFINITE {
        return INFINITE;
    }
    let sum = a as u64 + b as u64;
    if sum > MAX_FINITE as u64 {
        MAX_FINITE
    } else {
        sum as u32
    }
}

/// The ε of the 1+ε trick as an exact fraction `numerator / denominator`.
///
/// Pawlewicz and Lew (2007, section 3.2) loosen the
/// selected child's threshold from `δ₂ + 1` to `⌈δ₂ (1 + ε)⌉`, so a child is re-entered a
/// logarithmic instead of linear number of times when the table cannot hold its subtree. They
/// found ε = 1/4 best for df-pn (section 4.1); ε = 0 is classic df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Epsilon {
    numerator: u32,
    denominator: u32,
}

impl Epsilon {
    /// ε = 0: classic df-pn thresholds (`δ₂ + 1`).
    pub const ZERO: Epsilon = Epsilon {
        numerator: 0,
        denominator: 1,
    };
    /// ε = 1/4, the value the 1+ε paper found best for df-pn; the default.
    pub const QUARTER: Epsilon = Epsilon {
        numerator: 1,
        denominator: 4,
    };

    /// ε = `numerator / denominator`; `None` for a zero denominator.
    pub const fn new(numerator: u32, denominator: u32) -> Option<Epsilon> {
        if denominator == 0 {
            None
        } else {
            Some(Epsilon {
                numerator,
                denominator,
            })
        }
    }

    /// The numerator of ε.
    pub const fn numerator(self) -> u32 {
        self.numerator
    }

    /// The denominator of ε (never zero).
    pub const fn denominator(self) -> u32 {
        self.denominator
    }

    /// ε as a float, for printing.
    pub fn as_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl Default for Epsilon {
    fn default() -> Self {
        Epsilon::QUARTER
    }
}

/// The δ threshold of the selected child: `min(φ_t, max(δ₂ + 1, ⌈δ₂ (1 + ε)⌉))`.
///
/// `phi_t` is the parent's φ threshold and `delta_2` the second-smallest δ among the parent's
/// children. The child must return when its δ passes its sibling's (the most-proving child
/// changes) or when the parent's φ would reach its own threshold.
#[inline]
pub const fn child_delta_threshold(phi_t: u32, delta_2: u32, epsilon: Epsilon) -> u32 {
    if delta_2 == INFINITE {
        return phi_t;
    }
    let d2 = delta_2 as u64;
    // ⌈d2 · num / den⌉, at least 1 so the threshold always exceeds δ₂.
    let scaled = (d2 * epsilon.numerator as u64).div_ceil(epsilon.denominator as u64);
    let step = if scaled == 0 { 1 } else { scaled };
    let loosened = d2 + step;
    let loosened = if loosened > MAX_FINITE as u64 {
        INFINITE
    } else {
        loosened as u32
    };
    if loosened < phi_t { loosened } else { phi_t }
}

/// The φ threshold of the selected child: `δ_t − δ + φ_c`, without wrapping.
///
/// `delta_t` is the parent's δ threshold, `delta` the parent's current δ (the sum of its
/// children's φ) and `phi_c` the selected child's φ. The child must return once its φ has grown
/// enough to push the parent's δ to its threshold. An infinite `delta_t` gives an infinite
/// threshold; a result beyond [`MAX_FINITE`] is infinite too (no finite φ can reach it).
#[inline]
pub const fn child_phi_threshold(delta_t: u32, delta: u32, phi_c: u32) -> u32 {
    if delta_t == INFINITE {
        return INFINITE;
    }
    let raw = delta_t as u64 + phi_c as u64;
    let t = raw.saturating_sub(delta as u64);
    if t > MAX_FINITE as u64 {
        INFINITE
    } else {
        t as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn add_is_infinite_only_when_an_operand_is() {
        assert_eq!(add(INFINITE, 0), INFINITE);
        assert_eq!(add(3, INFINITE), INFINITE);
        assert_eq!(add(MAX_FINITE, MAX_FINITE), MAX_FINITE);
        assert_eq!(add(MAX_FINITE, 1), MAX_FINITE);
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn epsilon_zero_is_classic_dfpn() {
        assert_eq!(child_delta_threshold(100, 7, Epsilon::ZERO), 8);
        assert_eq!(child_delta_threshold(5, 7, Epsilon::ZERO), 5);
    }

    #[test]
    fn epsilon_quarter_rounds_up() {
        // ⌈8 · 1.25⌉ = 10, ⌈9 · 1.25⌉ = ⌈11.25⌉ = 12, and tiny δ₂ still grows by one.
        assert_eq!(child_delta_threshold(INFINITE, 8, Epsilon::QUARTER), 10);
        assert_eq!(child_delta_threshold(INFINITE, 9, Epsilon::QUARTER), 12);
        assert_eq!(child_delta_threshold(INFINITE, 1, Epsilon::QUARTER), 2);
        assert_eq!(child_delta_threshold(INFINITE, 0, Epsilon::QUARTER), 1);
    }

    #[test]
    fn child_phi_threshold_near_the_top_does_not_wrap() {
        // A wrapping u32 computation of MAX_FINITE - 1 + MAX_FINITE would wrap to a tiny value.
        assert_eq!(child_phi_threshold(MAX_FINITE, 1, MAX_FINITE), INFINITE);
        assert_eq!(child_phi_threshold(10, 20, 5), 0);
        assert_eq!(child_phi_threshold(INFINITE, 20, 5), INFINITE);
    }

    fn number() -> impl Strategy<Value = u32> {
        prop_oneof![
            0u32..64,
            (MAX_FINITE - 64)..=MAX_FINITE,
            Just(INFINITE),
            any::<u32>()
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        #[cfg_attr(miri, ignore = "proptest's harness: minutes a property under Miri")]
        fn add_matches_wide_arithmetic(a in number(), b in number()) {
            let s = add(a, b);
            if a == INFINITE || b == INFINITE {
                prop_assert_eq!(s, INFINITE);
            } else {
                prop_assert_eq!(s as u64, (a as u64 + b as u64).min(MAX_FINITE as u64));
                prop_assert!(s != INFINITE);
            }
        }

        #[test]
        #[cfg_attr(miri, ignore = "proptest's harness: minutes a property under Miri")]
        fn add_is_monotone(a in number(), b in number(), c in number()) {
            // a ≤ b implies a + c ≤ b + c: a larger child never lowers its parent's sum.
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(add(lo, c) <= add(hi, c));
        }

        #[test]
        #[cfg_attr(miri, ignore = "proptest's harness: minutes a property under Miri")]
        fn child_phi_threshold_matches_exact_arithmetic(t in number(), d in number(), p in number()) {
            let got = child_phi_threshold(t, d, p);
            if t == INFINITE {
                prop_assert_eq!(got, INFINITE);
            } else {
                let exact = t as i128 - d as i128 + p as i128;
                let want = if exact <= 0 { 0 } else if exact > MAX_FINITE as i128 { INFINITE as i128 } else { exact };
                prop_assert_eq!(got as i128, want);
            }
        }

        #[test]
        #[cfg_attr(miri, ignore = "proptest's harness: minutes a property under Miri")]
        fn child_phi_threshold_lets_the_child_search(
            others in prop_oneof![0u32..64, (MAX_FINITE - 64)..MAX_FINITE, 0..MAX_FINITE],
            p in prop_oneof![0u32..64, (MAX_FINITE - 64)..MAX_FINITE, 0..MAX_FINITE],
            slack in prop_oneof![1u32..4, 1..=MAX_FINITE],
        ) {
            // Whenever the parent is below its δ threshold (δ < δ_t), the child's threshold
            // exceeds the child's own φ, so the child call makes progress.
            let delta = add(others, p);
            // A saturated δ can only be below an infinite threshold.
            let t = if delta == MAX_FINITE { INFINITE } else { add(delta, slack) };
            prop_assert!(child_phi_threshold(t, delta, p) > p);
        }

        #[test]
        #[cfg_attr(miri, ignore = "proptest's harness: minutes a property under Miri")]
        fn child_delta_threshold_bounds(phi_t in number(), d2 in number(), num in 0u32..8, den in 1u32..8) {
            let eps = Epsilon::new(num, den).unwrap();
            let got = child_delta_threshold(phi_t, d2, eps);
            prop_assert!(got <= phi_t);
            if d2 != INFINITE {
                let exact = d2 as u128 + ((d2 as u128 * num as u128).div_ceil(den as u128)).max(1);
                let loosened = if exact > MAX_FINITE as u128 { INFINITE as u128 } else { exact };
                prop_assert_eq!(got as u128, loosened.min(phi_t as u128));
                // Never below classic df-pn's δ₂ + 1 (unless the parent's threshold binds).
                prop_assert!(got as u128 >= (d2 as u128 + 1).min(phi_t as u128));
            } else {
                prop_assert_eq!(got, phi_t);
            }
        }
    }
}
