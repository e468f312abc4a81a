//! Atari Go (capture Go) on an `N`×`N` board; [`AtariGo6`] is the 6×6 game of the 1+ε paper's
//! experiment (Pawlewicz and Lew 2007, section 4.2), which starts from a crosscut.
//!
//! # Rules
//! - Black moves first; players alternately put a stone on an empty point.
//! - A move that leaves an opponent group without liberties captures it, and the first player
//!   to capture wins at once.
//! - Suicide is illegal: a move that leaves its own group without liberties and captures
//!   nothing may not be played.
//! - There is no passing. A player without a legal move loses (the usual convention, as in
//!   normal-play games; with the first capture winning it rarely matters).
//! - Stones only accumulate (the game ends at the first capture), so no position repeats.
//!
//! The crosscut start ([`AtariGo::crosscut`]) has Black on the two points of one diagonal of
//! the central 2×2 square and White on the other, Black to move. The published result for
//! 6×6 (Pawlewicz and Lew, and Cazenave's earlier solution) is a win for Black.
//!
//! # Representation
//! One 64-bit word per colour, row-major with a guard column (stride `N + 1`), so a point's
//! four neighbours are shifts by 1 and `N + 1` and the guard column stops wrapping. Groups are
//! flood fills over the word; the hash is Zobrist's, kept up to date by `play` and `undo`.
//!
//! # What the game tells the solver
//! Exactly true facts only: the side to move wins if it can capture now (some opponent group
//! has one liberty); it loses if two of its groups are in atari on different points (it can
//! save one, and cannot capture). With one point in atari, every other move loses to the
//! capture there, so [`generate_moves`](Game::generate_moves) offers only that point (or
//! nothing, a loss, when that point is suicide).
//!
//! # Notation
//! Points in Go coordinates (`c4`: column c from the left, row 4 from the bottom), positions as
//! moves from the crosscut (`"b5 e2"`) or as a setup (`"O;....../....../..XO../..OX../....../......"`),
//! read by [`FromStr`](core::str::FromStr) and written by [`AtariGo::notation`]: see
//! [`notation`] for the details.

pub mod notation;

use proofnum::{Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule};

pub use notation::{MoveError, ParseError};

/// The 6×6 board of the 1+ε paper's experiment.
pub type AtariGo6 = AtariGo<6>;

/// SplitMix64 as a `const fn`, for the Zobrist keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: 64 per colour, one for White to move, one for "the last move captured".
const KEYS: [u64; 130] = {
    let mut k = [0u64; 130];
    let mut state = 0xA7A2_160F_6E0D_D1CEu64;
    let mut i = 0;
    while i < 130 {
        let (s, z) = splitmix(state);
        state = s;
        k[i] = z;
        i += 1;
    }
    k
};
const KEY_WHITE_TO_MOVE: usize = 128;
const KEY_CAPTURED: usize = 129;

/// A point, as its bit index (`row·(N+1) + column`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point(pub u8);

/// An Atari Go position on an `N`×`N` board (`2 <= N <= 7`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtariGo<const N: usize> {
    /// Black's and White's stones.
    stones: [u64; 2],
    to_move: Player,
    /// The last move captured: the game is over and the side to move has lost.
    captured: bool,
    hash: u64,
}

impl<const N: usize> Default for AtariGo<N> {
    fn default() -> Self {
        Self::empty()
    }
}

/// Atari facts of one colour's groups.
struct Ataris {
    /// Liberties of groups with exactly one liberty.
    points: u64,
}

impl<const N: usize> AtariGo<N> {
    const SHAPE_OK: () = assert!(N >= 2 && N <= 7, "Atari Go boards are 2×2 to 7×7");
    const STRIDE: usize = N + 1;
    /// Every point of the board (guard column excluded).
    const BOARD: u64 = {
        let mut b = 0u64;
        let mut r = 0;
        while r < N {
            b |= ((1u64 << N) - 1) << (r * (N + 1));
            r += 1;
        }
        b
    };

    /// The empty board, Black to move.
    pub fn empty() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::SHAPE_OK;
        AtariGo {
            stones: [0, 0],
            to_move: Player::First,
            captured: false,
            hash: 0,
        }
    }

    /// The crosscut start: Black on one diagonal of the central 2×2 square, White on the other,
    /// Black to move (for odd `N`, the square just up and left of the centre).
    pub fn crosscut() -> Self {
        let mut g = Self::empty();
        let c = N / 2;
        g.stones[0] = Self::bit(c - 1, c - 1) | Self::bit(c, c);
        g.stones[1] = Self::bit(c - 1, c) | Self::bit(c, c - 1);
        g.hash = g.full_hash();
        g
    }

    /// The bit of `row`, `column`.
    pub const fn bit(row: usize, column: usize) -> u64 {
        1 << (row * Self::STRIDE + column)
    }

    /// The stone on `row`, `column`.
    pub fn at(&self, row: usize, column: usize) -> Option<Player> {
        let b = Self::bit(row, column);
        if self.stones[0] & b != 0 {
            Some(Player::First)
        } else if self.stones[1] & b != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// True when the last move captured (the game is over).
    pub fn is_over(&self) -> bool {
        self.captured
    }

    fn full_hash(&self) -> u64 {
        let mut h = 0;
        for colour in 0..2 {
            let mut s = self.stones[colour];
            while s != 0 {
                h ^= KEYS[colour * 64 + s.trailing_zeros() as usize];
                s &= s - 1;
            }
        }
        if self.to_move == Player::Second {
            h ^= KEYS[KEY_WHITE_TO_MOVE];
        }
        if self.captured {
            h ^= KEYS[KEY_CAPTURED];
        }
        h
    }

    #[inline]
    fn empty_points(&self) -> u64 {
        Self::BOARD & !(self.stones[0] | self.stones[1])
    }

    /// The points next to `x`.
    #[inline]
    fn neighbours(x: u64) -> u64 {
        ((x << 1) | (x >> 1) | (x << Self::STRIDE) | (x >> Self::STRIDE)) & Self::BOARD
    }

    /// The group of `stones` that contains `seed`.
    #[inline]
    fn group(stones: u64, seed: u64) -> u64 {
        let mut g = seed;
        loop {
            let grown = (g | Self::neighbours(g)) & stones;
            if grown == g {
                return g;
            }
            g = grown;
        }
    }

    /// Each group of `stones` with the number of its liberties.
    fn groups(stones: u64, empty: u64) -> impl Iterator<Item = (u64, u32)> {
        let mut rest = stones;
        core::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let g = Self::group(stones, rest & rest.wrapping_neg());
            rest &= !g;
            Some((g, (Self::neighbours(g) & empty).count_ones()))
        })
    }

    /// Points with at least two empty neighbours (a stone there has two liberties).
    #[inline]
    fn two_empty_neighbours(empty: u64) -> u64 {
        // The guard column is never empty, so shifted rows cannot wrap.
        let (l, r) = (empty << 1, empty >> 1);
        let (u, d) = (empty << Self::STRIDE, empty >> Self::STRIDE);
        ((l & r) | ((l | r) & (u | d)) | (u & d)) & Self::BOARD
    }

    /// The liberties of `colour`'s groups that are in atari.
    #[inline]
    fn ataris(&self, colour: usize) -> Ataris {
        let empty = self.empty_points();
        let stones = self.stones[colour];
        // Groups holding a stone with two empty neighbours are safe: one flood fill finds them
        // all, and only the rest are counted group by group.
        let safe = Self::group(stones, stones & Self::two_empty_neighbours(empty));
        let mut rest = stones & !safe;
        let mut points = 0;
        while rest != 0 {
            let g = Self::group(stones, rest & rest.wrapping_neg());
            rest &= !g;
            let libs = Self::neighbours(g) & empty;
            if libs.count_ones() == 1 {
                points |= libs;
            }
        }
        Ataris { points }
    }

    /// May the side to move play on empty point `p` (a single bit)? Illegal only as suicide.
    #[inline]
    fn is_legal(&self, p: u64) -> bool {
        let empty = self.empty_points();
        let around = Self::neighbours(p);
        if around & empty != 0 {
            return true;
        }
        let me = self.to_move.index();
        let mine = self.stones[me] | p;
        if Self::neighbours(Self::group(mine, p)) & (empty & !p) != 0 {
            return true;
        }
        // Otherwise legal only if it captures an adjacent opponent group.
        let theirs = self.stones[1 - me];
        let mut adjacent = around & theirs;
        while adjacent != 0 {
            let g = Self::group(theirs, adjacent & adjacent.wrapping_neg());
            adjacent &= !g;
            if Self::neighbours(g) & (empty & !p) == 0 {
                return true;
            }
        }
        false
    }
}

/// A point's code is its bit index (`row·(N+1) + column`); codes of guard bits decode but are
/// never legal.
impl<const N: usize> MoveCodec for AtariGo<N> {
    fn encode_move(mv: Point) -> u64 {
        mv.0 as u64
    }

    fn decode_move(code: u64) -> Option<Point> {
        (code < (N * (N + 1)) as u64).then_some(Point(code as u8))
    }
}

impl<const N: usize> Game for AtariGo<N> {
    type Move = Point;

    /// Stones only accumulate: no position can repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Both players' stones, the side to move, and whether the last move captured. 18 bytes.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        out[..8].copy_from_slice(&self.stones[0].to_le_bytes());
        out[8..16].copy_from_slice(&self.stones[1].to_le_bytes());
        out[16] = self.to_move.index() as u8;
        out[17] = self.captured as u8;
        Some(18)
    }

    fn outcome(&self) -> Outcome {
        if self.captured {
            return Outcome::Loss;
        }
        let me = self.to_move.index();
        if self.ataris(1 - me).points != 0 {
            return Outcome::Win; // capture now (a capturing move is always legal)
        }
        if self.ataris(me).points.count_ones() >= 2 {
            return Outcome::Loss; // two points to defend, one move
        }
        Outcome::Unknown
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Point>) {
        let me = self.to_move.index();
        let capture = self.ataris(1 - me).points;
        let defend = self.ataris(me).points;
        let candidates = if capture != 0 {
            capture // they win at once: nothing else matters
        } else if defend != 0 {
            defend // anything else loses to the capture
        } else {
            self.empty_points()
        };
        // Points next to stones first (the fights), the rest after.
        let near = Self::neighbours(self.stones[0] | self.stones[1]);
        for set in [candidates & near, candidates & !near] {
            let mut rest = set;
            while rest != 0 {
                let p = rest & rest.wrapping_neg();
                rest &= rest - 1;
                if capture != 0 || self.is_legal(p) {
                    moves.push(Point(p.trailing_zeros() as u8));
                }
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Point) {
        let p = 1u64 << mv.0;
        let me = self.to_move.index();
        let them = 1 - me;
        self.stones[me] |= p;
        self.hash ^= KEYS[me * 64 + mv.0 as usize];
        let empty = self.empty_points();
        // An adjacent stone with an empty neighbour of its own keeps its group alive.
        let mut adjacent = Self::neighbours(p) & self.stones[them] & !Self::neighbours(empty);
        while adjacent != 0 {
            let g = Self::group(self.stones[them], adjacent & adjacent.wrapping_neg());
            adjacent &= !g;
            if Self::neighbours(g) & empty == 0 {
                self.captured = true;
                self.hash ^= KEYS[KEY_CAPTURED];
                break;
            }
        }
        self.to_move = self.to_move.opponent();
        self.hash ^= KEYS[KEY_WHITE_TO_MOVE];
    }

    #[inline]
    fn undo(&mut self, mv: Point) {
        self.to_move = self.to_move.opponent();
        self.hash ^= KEYS[KEY_WHITE_TO_MOVE];
        if self.captured {
            // The game went on only while nothing had been captured.
            self.captured = false;
            self.hash ^= KEYS[KEY_CAPTURED];
        }
        let me = self.to_move.index();
        self.stones[me] &= !(1u64 << mv.0);
        self.hash ^= KEYS[me * 64 + mv.0 as usize];
    }
}

/// Atari Go with nothing but its rules: a position is over only after a capture, and every
/// legal move is listed (no capture-now win, no double-atari loss, no moves left out). The
/// value of every position is [`AtariGo`]'s; proof certificates are written and checked
/// against this game, so a check rests on the rules alone, not on the knowledge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesOnly<const N: usize>(pub AtariGo<N>);

impl<const N: usize> Game for RulesOnly<N> {
    type Move = Point;
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        self.0.to_move
    }

    fn hash(&self) -> u64 {
        self.0.hash
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.0.encode(out)
    }

    fn outcome(&self) -> Outcome {
        if self.0.captured {
            Outcome::Loss
        } else {
            Outcome::Unknown
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Point>) {
        let mut rest = self.0.empty_points();
        while rest != 0 {
            let p = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if self.0.is_legal(p) {
                moves.push(Point(p.trailing_zeros() as u8));
            }
        }
    }

    fn play(&mut self, mv: Point) {
        self.0.play(mv)
    }

    fn undo(&mut self, mv: Point) {
        self.0.undo(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crosscut_start() {
        let g = AtariGo6::crosscut();
        assert_eq!(
            g.to_string(),
            "......\n......\n..XO..\n..OX..\n......\n......\nBlack (X) to move"
        );
        assert_eq!(g.outcome(), Outcome::Unknown);
    }

    #[test]
    fn capture_ends_the_game_and_undo_restores() {
        // White's stone at the corner has one liberty left.
        let mut g = AtariGo::<4>::from_diagram("OX../..../..../....", Player::First).unwrap();
        assert_eq!(g.outcome(), Outcome::Win);
        let before = g.clone();
        let p = Point(5); // row 1, column 0 (stride 5)
        g.play(p);
        assert!(g.is_over());
        assert_eq!(g.outcome(), Outcome::Loss);
        g.undo(p);
        assert_eq!(g, before);
        assert_eq!(g.hash, g.full_hash());
    }
}
