//! Constant tables of the 3×3 geometry (shared by the small boards and the grid of boards) and
//! the Zobrist keys, all computed at compile time.

/// The eight lines of a 3×3 board, as 9-bit masks (bit `3·row + column`).
pub(super) const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
/// All nine cells (or boards).
pub(super) const FULL: u16 = 0x1FF;

const fn has_line(m: u16) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if m & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// `THREE[m]`: mask `m` holds three in a row.
pub(super) static THREE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = has_line(m as u16);
        m += 1;
    }
    t
};

/// `COMPLETES[m]`: the cells `c` (free or not) for which `m | 1 << c` holds three in a row.
pub(super) static COMPLETES: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut c = 0;
        while c < 9 {
            if has_line(m as u16 | 1 << c) {
                t[m] |= 1 << c;
            }
            c += 1;
        }
        m += 1;
    }
    t
};

/// `LINE_FREE[blocked]`: some line avoids every cell (or board) in `blocked`.
pub(super) static LINE_FREE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if m as u16 & LINES[i] == 0 {
                t[m] = true;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// SplitMix64 (Steele, Lea and Flood 2014) as a `const fn`, to fill the Zobrist tables.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: 162 for (player, cell), 10 for the forced board (or none), one for O to move.
pub(super) const KEYS: [u64; 173] = {
    let mut k = [0u64; 173];
    let mut state = 0x5EED_0F00_717A_7E00_u64;
    let mut i = 0;
    while i < 173 {
        let (s, z) = splitmix(state);
        state = s;
        k[i] = z;
        i += 1;
    }
    k
};
/// The first forced-board key (`KEY_TARGET + board`, or `+ 9` for a free choice).
pub(super) const KEY_TARGET: usize = 162;
/// The key XORed in while O is to move.
pub(super) const KEY_O_TO_MOVE: usize = 172;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert!(THREE[0b000_000_111]);
        assert!(!THREE[0b000_000_011]);
        assert_eq!(COMPLETES[0b000_000_011], 0b000_000_100);
        assert_eq!(COMPLETES[0b000_010_001], 0b100_000_000);
        assert!(LINE_FREE[0]);
        assert!(!LINE_FREE[0b001_010_100 | 0b100_010_001 | 0b010_000_010 | 0b000_101_000]);
    }
}
