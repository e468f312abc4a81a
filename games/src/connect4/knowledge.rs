//! What the Connect Four game tells the solver beyond the rules, all from a few bitboard
//! operations per position (no allocation, no loops over cells), and a switch to turn each
//! piece off so that tests and benchmarks can compare search with and without it.
//!
//! # The knowledge
//! Each piece is one bit of a [`rules`] set; [`Board`] uses [`rules::ALL`], and
//! [`Restricted`] any subset.
//! - [`rules::WIN_NOW`]: the side to move can connect four with its next stone: a win.
//! - [`rules::THREATS`]: the opponent's *threats* (empty cells that would complete its four).
//!   A playable threat must be blocked, so it is the only move listed; two playable threats
//!   cannot both be blocked, a loss. A move right below an opponent's threat lets the opponent
//!   connect four on top of it at once: it loses and is left out (so a single threat whose
//!   blocking cell lies under a second threat is a loss too, as is a position where every
//!   move lies under one). Leaving out a losing move is sound while another move remains, and
//!   when none remains the position is reported as the loss it is.
//! - [`rules::ORDER`]: moves are listed by the number of threats they leave the mover (empty
//!   cells where one more stone connects four), most first, centre first among equals
//!   (Pascal Pons, "Solving Connect 4", 2016, orders his alpha-beta search the same way).
//!   df-pn breaks ties between children in list order.
//! - [`rules::BOUNDS`]: the value bounds [`Outcome::CannotWin`] and [`Outcome::CannotLose`]
//!   (and [`Outcome::Draw`] when both hold), from the *claimeven* strategy of Victor Allis'
//!   thesis ("A knowledge-based approach of connect-four", 1988): when every column has an
//!   even number of empty cells and one player is to move, the other can answer every move
//!   with a stone right on top of it, and so takes, in every column, every second empty cell
//!   starting from the second. The side to move then gets at most the others, which are the
//!   cells of the rows of the same parity as the board height. If its stones and those cells
//!   hold no four in a row, the side to move cannot win. When exactly one column has an odd
//!   number of empty cells, the side to move can play there and follow up itself from then
//!   on: if the opponent's stones and the opponent's cells of that strategy hold no four, the
//!   side to move cannot lose. With no such column pattern the plain test remains: a player
//!   whose stones and the empty cells hold no four cannot win.
//! - [`rules::ESTIMATE`]: df-pn+ initial numbers (Nagai 2002) for the side to move, from its
//!   `m` moves left after the threat analysis and the threats `t` (its own) and `u` (the
//!   opponent's): (φ, δ) = (1 + u, 2^m · (1 + t)). Refuting a position takes a refutation of
//!   every move, and each threat is one more way to win; the opponent's threats are ways the
//!   attack can fail. The form was chosen by measurement on the shipped suites (`c4suite run
//!   --rules`): about half the MID calls of (1, 1), and fewer than (1, m), (1, 4m) or
//!   (1, 2^m).
//!

use proofnum::Numbers;
use proofnum::{Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule};

use super::{Board, Column};

/// The pieces of knowledge, as bits of a `u8` set (`rules::THREATS | rules::ORDER`).
pub mod rules {
    /// Only the rules: finished games are scored, every legal move is listed centre first.
    pub const NONE: u8 = 0;
    /// A stone that connects four at once is reported as a win.
    pub const WIN_NOW: u8 = 1;
    /// Forced blocks, double threats, moves under the opponent's threats left out (includes
    /// [`WIN_NOW`], which the threat analysis relies on).
    pub const THREATS: u8 = 2;
    /// Moves listed by the threats they create.
    pub const ORDER: u8 = 4;
    /// Claimeven and open-line value bounds.
    pub const BOUNDS: u8 = 8;
    /// df-pn+ initial numbers from the number of moves.
    pub const ESTIMATE: u8 = 16;
    /// What [`super::Board`] uses.
    pub const ALL: u8 = WIN_NOW | THREATS | ORDER | BOUNDS | ESTIMATE;
}

/// True when `stones` hold four in a row on a board of height `H`.
#[inline(always)]
pub(crate) fn has_four<const H: usize>(stones: u64) -> bool {
    // Written out per direction so every shift is a constant the compiler folds.
    #[inline(always)]
    fn along(stones: u64, shift: usize) -> u64 {
        let pairs = stones & down(stones, shift);
        pairs & down(pairs, 2 * shift)
    }
    (along(stones, 1) | along(stones, H + 1) | along(stones, H) | along(stones, H + 2)) != 0
}

/// `x << s`, and 0 once every bit is shifted out (tall, narrow boards have long strides).
#[inline(always)]
const fn up(x: u64, s: usize) -> u64 {
    if s < 64 { x << s } else { 0 }
}

/// `x >> s`, and 0 once every bit is shifted out.
#[inline(always)]
const fn down(x: u64, s: usize) -> u64 {
    if s < 64 { x >> s } else { 0 }
}

/// Empty cells where one more stone of `stones` would make four in a row.
#[inline(always)]
pub(crate) fn winning_cells<const W: usize, const H: usize>(stones: u64, mask: u64) -> u64 {
    /// The missing stone at either end of three, or in either gap of two and one, along a
    /// line of stride `shift`.
    #[inline(always)]
    fn along(stones: u64, shift: usize) -> u64 {
        let pair_before = up(stones, shift) & up(stones, 2 * shift);
        let pair_after = down(stones, shift) & down(stones, 2 * shift);
        (pair_before & (up(stones, 3 * shift) | down(stones, shift)))
            | (pair_after & (up(stones, shift) | down(stones, 3 * shift)))
    }
    // Vertical: three stones straight below.
    let vertical = (stones << 1) & (stones << 2) & (stones << 3);
    let cells = vertical | along(stones, H + 1) | along(stones, H) | along(stones, H + 2);
    cells & Board::<W, H>::BOARD & !mask
}

/// Every cell (the sentinel row included) of a row `r` with `r ≡ H (mod 2)`: in a column with
/// an even number of empty cells, the cells the first player to move there gets when the other
/// always answers on top.
const fn first_in_column_rows(w: usize, h: usize) -> u64 {
    let mut bits = 0u64;
    let mut c = 0;
    while c < w {
        let mut r = h % 2;
        while r <= h {
            bits |= 1 << (c * (h + 1) + r);
            r += 2;
        }
        c += 1;
    }
    bits
}

impl<const W: usize, const H: usize> Board<W, H> {
    /// See [`first_in_column_rows`].
    const FIRST_ROWS: u64 = first_in_column_rows(W, H);

    /// True when the side to move can connect four with its next stone.
    #[inline]
    pub fn can_win_now(&self) -> bool {
        winning_cells::<W, H>(self.current, self.mask) & self.possible() != 0
    }

    /// [`Game::outcome`] with the knowledge in `R` (see the module docs).
    #[inline]
    pub(crate) fn outcome_with<const R: u8>(&self) -> Outcome {
        if has_four::<H>(self.current ^ self.mask) {
            return Outcome::Loss; // the opponent's last move connected four
        }
        if self.moves as usize == Self::CELLS {
            return Outcome::Draw;
        }
        if R & (rules::WIN_NOW | rules::THREATS) != 0 && self.can_win_now() {
            return Outcome::Win;
        }
        if R & rules::THREATS != 0 && self.non_losing_cells() == 0 {
            return Outcome::Loss;
        }
        if R & rules::BOUNDS != 0 {
            return self.bound();
        }
        Outcome::Unknown
    }

    /// The claimeven and open-line bounds of the module docs, for a position that is not over.
    #[inline]
    fn bound(&self) -> Outcome {
        let empty = Self::BOARD & !self.mask;
        let mine = self.current;
        let theirs = self.current ^ self.mask;
        // One bit per column at its first empty row (the sentinel for a full column): the
        // bit lies on a "first" row exactly when the column has an even number of empty cells.
        let odd_columns = (self.mask + Self::BOTTOM) & !Self::FIRST_ROWS;
        let (my_cells, their_cells) = if odd_columns == 0 {
            (empty & Self::FIRST_ROWS, empty)
        } else if odd_columns & (odd_columns - 1) == 0 {
            // Play in the odd column (`odd_columns` is its first empty cell), then answer on top.
            (empty, empty & !odd_columns & Self::FIRST_ROWS)
        } else {
            (empty, empty)
        };
        match (
            has_four::<H>(mine | my_cells),
            has_four::<H>(theirs | their_cells),
        ) {
            (true, true) => Outcome::Unknown,
            (false, true) => Outcome::CannotWin,
            (true, false) => Outcome::CannotLose,
            (false, false) => Outcome::Draw,
        }
    }

    /// The cells of the moves `R` lists in a position whose outcome is unknown.
    #[inline]
    fn move_cells<const R: u8>(&self) -> u64 {
        if R & rules::THREATS != 0 {
            self.non_losing_cells()
        } else {
            self.possible()
        }
    }

    /// [`Game::generate_moves`] with the knowledge in `R`.
    #[inline]
    pub(crate) fn moves_with<const R: u8>(&self, moves: &mut MoveList<'_, Column>) {
        let cells = self.move_cells::<R>();
        if R & rules::ORDER == 0 {
            for c in Self::MOVE_ORDER {
                if cells & Self::column_cells(c as usize) != 0 {
                    moves.push(Column(c));
                }
            }
            return;
        }
        // (threats after the move, column), centre first; a stable insertion sort by threats.
        let mut scored = [(0u32, 0u8); W];
        let mut n = 0;
        for c in Self::MOVE_ORDER {
            let cell = cells & Self::column_cells(c as usize);
            if cell == 0 {
                continue;
            }
            let threats = winning_cells::<W, H>(self.current | cell, self.mask | cell).count_ones();
            let mut i = n;
            while i > 0 && scored[i - 1].0 < threats {
                scored[i] = scored[i - 1];
                i -= 1;
            }
            scored[i] = (threats, c);
            n += 1;
        }
        for &(_, c) in &scored[..n] {
            moves.push(Column(c));
        }
    }

    /// [`Game::estimate`] with the knowledge in `R`.
    #[inline]
    pub(crate) fn estimate_with<const R: u8>(&self) -> Numbers {
        if R & rules::ESTIMATE == 0 {
            return Numbers::UNIT;
        }
        let mine = winning_cells::<W, H>(self.current, self.mask);
        let theirs = winning_cells::<W, H>(self.current ^ self.mask, self.mask);
        let cells = if R & rules::THREATS != 0 {
            self.non_losing_cells_given(theirs)
        } else {
            self.possible()
        };
        // At most W moves and about W·H/2 threats: far below the largest finite number.
        let phi = 1 + theirs.count_ones();
        let delta = (1 << cells.count_ones()) * (1 + mine.count_ones());
        Numbers { phi, delta }
    }
}

/// A [`Board`] that tells the solver only the knowledge in `R` (a [`rules`] set): for tests
/// and benchmarks that compare search with and without each piece. `Restricted<W, H,
/// { rules::ALL }>` searches exactly like `Board<W, H>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Restricted<const W: usize, const H: usize, const R: u8>(pub Board<W, H>);

impl<const W: usize, const H: usize, const R: u8> From<Board<W, H>> for Restricted<W, H, R> {
    fn from(board: Board<W, H>) -> Self {
        Restricted(board)
    }
}

/// As the board's: a column's 0-based index.
impl<const W: usize, const H: usize, const R: u8> MoveCodec for Restricted<W, H, R> {
    fn encode_move(mv: Column) -> u64 {
        Board::<W, H>::encode_move(mv)
    }

    fn decode_move(code: u64) -> Option<Column> {
        Board::<W, H>::decode_move(code)
    }
}

impl<const W: usize, const H: usize, const R: u8> Game for Restricted<W, H, R> {
    type Move = Column;

    /// Stones only accumulate: no position can repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.0.key()
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        self.0.outcome_with::<R>()
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<'_, Column>) {
        self.0.moves_with::<R>(moves)
    }

    #[inline]
    fn play(&mut self, mv: Column) {
        self.0.play(mv)
    }

    #[inline]
    fn undo(&mut self, mv: Column) {
        self.0.undo(mv)
    }

    #[inline]
    fn estimate(&self) -> Numbers {
        self.0.estimate_with::<R>()
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.0.encode(out)
    }
}
