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
//!   (and [`Outcome::Draw`] when both hold), from pairing strategies, after the *claimeven*
//!   and *baseinverse* rules of Victor Allis' thesis ("A knowledge-based approach of
//!   connect-four", 1988). A player pairs up every empty cell and answers each stone of the
//!   other on its pair's other cell: in a column, the cell right above it (so the pairing
//!   player gets the upper cell of each vertical pair); across two columns, the two first
//!   empty cells (each is playable, and stays so until the other side plays there: the
//!   pairing player gets one of the two). The other player then gets at most the lower
//!   cell of every vertical pair and one cell of every pair across columns; if its stones
//!   and those cells hold no four, it cannot win. Such a pairing exists, with the other
//!   player to move, when an even number of columns have an odd number of empty cells: they
//!   are paired across two by two at their first empty cells, every other empty cell lies in
//!   a vertical pair, and the lower cells are those of the rows `r` (counted from 0 at the
//!   bottom) with `r ≡ H (mod 2)`: rows 1, 3, 5 counted from 1 on the standard board (with no
//!   odd column this is plain claimeven). So with an even number of odd columns the side to
//!   move cannot win when its stones, those rows' empty cells and the odd columns' first
//!   cells hold no four (counting all the cells paired across, not one of each: simpler, and
//!   it only errs towards "can win"); with an odd number, the side to move cannot lose when
//!   it has a stone after which the same holds for the opponent. The other direction of each
//!   (the first player's, who cannot pair) has the plain open-line test: a player whose
//!   stones and the empty cells hold no four cannot win. A pairing bound is a strategy
//!   followed to the end of the game, so it is exact knowledge, not a guess; the
//!   random-position test checks each kind against the reference solver. The pairing player
//!   may also win by it (Allis' *aftereven*): it gets the upper cell of every vertical pair,
//!   so a four of its stones and such cells is completed once those cells are filled; when
//!   every four left to the side to move needs, in each column where such a four of the
//!   pairing player has empty cells, a cell above them (it fills only later), or no four is
//!   left to it at all, the side to move loses ([`Outcome::Loss`]). Only the pairing
//!   player's side of this is used: the side to move's own (a stone, then its pairing) cost
//!   more per position than it saved.
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

use super::{Board, Column, stride};

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
    /// Pairing (claimeven, baseinverse) and open-line value bounds, and the losses the
    /// opponent's pairing forces (aftereven).
    pub const BOUNDS: u8 = 8;
    /// df-pn+ initial numbers from the number of moves.
    pub const ESTIMATE: u8 = 16;
    /// What [`super::Board`] uses.
    pub const ALL: u8 = WIN_NOW | THREATS | ORDER | BOUNDS | ESTIMATE;
}

/// The first cells (lowest bit) of the fours in a row within `stones` along the line of
/// stride `shift` (1 vertical, `H + 1` horizontal, `H` and `H + 2` the diagonals).
#[inline(always)]
fn four_starts(stones: u64, shift: usize) -> u64 {
    let pairs = stones & down(stones, shift);
    pairs & down(pairs, 2 * shift)
}

/// True when `stones` hold four in a row on a board of height `H`.
#[inline(always)]
pub(crate) fn has_four<const H: usize>(stones: u64) -> bool {
    // Written out per direction so every shift is a constant the compiler folds.
    (four_starts(stones, 1)
        | four_starts(stones, H + 1)
        | four_starts(stones, H)
        | four_starts(stones, H + 2))
        != 0
}

/// Calls `f` with every four in a row within `stones` (as a mask of its four cells) while `f`
/// returns true; returns whether it always did.
#[inline]
fn each_four<const H: usize>(stones: u64, mut f: impl FnMut(u64) -> bool) -> bool {
    for shift in [1, H + 1, H, H + 2] {
        let mut starts = four_starts(stones, shift);
        while starts != 0 {
            let start = starts & starts.wrapping_neg();
            starts ^= start;
            if !f(start | up(start, shift) | up(start, 2 * shift) | up(start, 3 * shift)) {
                return false;
            }
        }
    }
    true
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

    /// The pairing and open-line bounds of the module docs, for a position that is not over.
    #[inline]
    fn bound(&self) -> Outcome {
        let empty = Self::BOARD & !self.mask;
        let mine = self.current;
        let theirs = self.current ^ self.mask;
        // One bit per column at its first empty row (the sentinel for a full column): the
        // bit lies on a "first" row exactly when the column has an even number of empty cells.
        let odd_columns = (self.mask + Self::BOTTOM) & !Self::FIRST_ROWS;
        let they_have_a_line = has_four::<H>(theirs | empty);
        let (can_win, can_lose) = if odd_columns.count_ones() % 2 == 0 {
            if Self::opponent_wins_by_aftereven(mine, theirs, empty, odd_columns) {
                return Outcome::Loss;
            }
            // The opponent pairs every empty cell and answers each stone with its pair's
            // other cell, so the mover gets one cell of each pair at most.
            (
                !Self::pairing_refutes(mine, empty, odd_columns),
                they_have_a_line,
            )
        } else {
            // The mover plays one stone, after which it can pair the cells itself.
            (
                has_four::<H>(mine | empty),
                they_have_a_line
                    && Self::opponent_beats_every_pairing(
                        theirs,
                        empty,
                        self.possible(),
                        odd_columns,
                    ),
            )
        };
        match (can_win, can_lose) {
            (true, true) => Outcome::Unknown,
            (false, true) => Outcome::CannotWin,
            (true, false) => Outcome::CannotLose,
            (false, false) => Outcome::Draw,
        }
    }

    /// True when the player to move, holding `stones`, cannot connect four because its
    /// opponent pairs the `empty` cells (an even number of columns with an odd number of empty
    /// cells, `odd_columns` holding each such column's first empty cell): in every column the
    /// cells above form vertical pairs, answered on top, so the mover gets the lower cell of
    /// each (the "first" rows); the odd columns' first cells are paired two by two across
    /// columns (Allis' baseinverse), the mover getting one of each pair. The test counts them
    /// all as the mover's: choosing the pairs so that each four the mover could make holds
    /// one was tried and moved the MID calls on Pons' sets by −10% to +2%, not worth its code.
    #[inline(always)]
    fn pairing_refutes(stones: u64, empty: u64, odd_columns: u64) -> bool {
        !has_four::<H>(stones | (empty & Self::FIRST_ROWS) | odd_columns)
    }

    /// True when the opponent, pairing the `empty` cells as in
    /// [`pairing_refutes`](Self::pairing_refutes) (the mover to move, an even number of odd
    /// columns), wins (Allis' *aftereven*): the pairing gives it the upper cell of every
    /// vertical pair, so a four of its stones and such cells is completed once those cells
    /// are filled, and every four the mover could still make holds, in each column where
    /// that four of the opponent's has empty cells, a cell above them: it is completed later.
    /// With no four left to the mover at all, any such four of the opponent's wins (the board
    /// fills up). Each of the mover's fours may be outrun by a different four of the
    /// opponent's: the pairing is one strategy, and whichever four of the opponent's fills up
    /// first wins.
    #[inline]
    fn opponent_wins_by_aftereven(mine: u64, theirs: u64, empty: u64, odd_columns: u64) -> bool {
        // The upper cells of the vertical pairs: rows off the "first" ones, outside the cells
        // paired across columns.
        let upper = empty & !Self::FIRST_ROWS & !odd_columns;
        let theirs = theirs | upper;
        if !has_four::<H>(theirs) {
            return false;
        }
        let mover = mine | (empty & Self::FIRST_ROWS) | odd_columns;
        each_four::<H>(mover, |line| {
            let mut outrun = false;
            each_four::<H>(theirs, |four| {
                outrun = Self::fills_after(line, four & empty);
                !outrun
            });
            outrun
        })
    }

    /// True when the cells `line` fill up only after the empty cells `cells` (none in some
    /// column means the line needs no cell above them there): in every column holding one of
    /// `cells`, `line` has a cell above the highest of them.
    #[inline]
    fn fills_after(line: u64, cells: u64) -> bool {
        let mut rest = cells;
        while rest != 0 {
            let column = Self::column_cells(rest.trailing_zeros() as usize / stride(H));
            let top = 63 - (cells & column).leading_zeros();
            // `top` is a board cell, so below bit 63: the shift cannot overflow.
            if line & column & !((2u64 << top) - 1) == 0 {
                return false;
            }
            rest &= !column;
        }
        true
    }

    /// True unless the mover, with an odd number of columns having an odd number of empty
    /// cells (their first empty cells in `odd_columns`), has a stone on one of the playable
    /// cells `moves` after which the opponent's stones `theirs` and the cells it can get
    /// against the mover's pairing ([`pairing_refutes`](Self::pairing_refutes), the opponent
    /// to move) hold no four: then the mover cannot lose.
    #[inline]
    fn opponent_beats_every_pairing(
        theirs: u64,
        empty: u64,
        mut moves: u64,
        odd_columns: u64,
    ) -> bool {
        // Cells the opponent gets whatever the stone (a "first" row's cell not playable now):
        // a four there beats every pairing, and most positions have one.
        if has_four::<H>(theirs | (empty & Self::FIRST_ROWS & !moves)) {
            return true;
        }
        while moves != 0 {
            let cell = moves & moves.wrapping_neg();
            moves ^= cell;
            // The column's parity flips: an odd column loses its first cell from the pairing,
            // an even one gets its next cell (the column had two empty cells at least).
            let odd_after = if odd_columns & cell != 0 {
                odd_columns ^ cell
            } else {
                odd_columns | (cell << 1)
            };
            if Self::pairing_refutes(theirs, empty ^ cell, odd_after) {
                return false;
            }
        }
        true
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
