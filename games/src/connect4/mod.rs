//! Connect Four on a `W`×`H` board as a bitboard; [`ConnectFour`] is the standard 7×6 game.
//!
//! # Representation
//! The column-major bitboard with a sentinel row, from John Tromp's Fhourstones benchmark
//! (1996; explained step by step in Pascal Pons' tutorial "Solving Connect 4: how to build a
//! perfect AI", 2016): bit `c·(H+1) + r` is row `r` (0 = bottom) of column `c`, and each column
//! has one spare bit on top that always stays empty. Lines of bits shifted by a fixed stride
//! then never wrap from one column into the next:
//! - stride 1 is vertical, `H+1` horizontal, `H` and `H+2` the two diagonals;
//! - a position is two words: `mask` (every stone) and `current` (the stones of the side to
//!   move), so a move is two instructions and needs no colour test;
//! - the cell a move in column `c` fills is `(mask + bottom(c)) & column(c)`: adding the
//!   column's bottom bit carries up to the first empty cell;
//! - `current + mask` is a unique 64-bit key (Tromp's key minus the constant bottom row), so
//!   the hash needs no Zobrist table and can never collide.
//!
//! # What the game tells the solver
//! Threat analysis, from a few bitboard operations per position ([`knowledge`] has the
//! details and the sources): [`outcome`](Game::outcome) reports immediate wins, double threats
//! and positions where every move hands the opponent a four as exact results, and value
//! bounds from pairing strategies (Allis' claimeven and baseinverse: the side to move cannot
//! win, or cannot lose);
//! [`generate_moves`](Game::generate_moves) lists only the forced block when the opponent
//! threatens to connect four, leaves out moves that let the opponent connect four on top of
//! them, and lists the rest by the threats they create, centre first among equals;
//! [`estimate`](Game::estimate) gives df-pn+ numbers from the moves and threats left. Every
//! piece can be switched off with [`Restricted`], which tests and benchmarks use to compare
//! search with and without it.
//!
//! Positions are written as the usual string of 1-based column digits (`"4453"`: the first
//! player in column 4, the second in 4, the first in 5, the second in 3).

pub mod knowledge;
pub mod reference;
pub mod suite;

pub use knowledge::{Restricted, rules};

use core::fmt;
use core::str::FromStr;

use proofnum::Numbers;
use proofnum::{Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule};

use knowledge::{has_four, winning_cells};

/// Standard Connect Four: 7 columns, 6 rows.
pub type ConnectFour = Board<7, 6>;

/// A column, 0-based inside; prints 1-based like the move strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl Column {
    /// The 0-based index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The column does not exist on this board.
    NoSuchColumn,
    /// The column has no empty cell.
    ColumnFull,
    /// The game has ended (four in a row, or a full board).
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::NoSuchColumn => "no such column",
            MoveError::ColumnFull => "the column is full",
            MoveError::GameOver => "the game is already over",
        })
    }
}

/// A move string that does not describe a legal game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 0-based position of the offending character in the string.
    pub index: usize,
    /// The offending character.
    pub found: char,
    /// What is wrong with it.
    pub kind: MoveError,
    /// Columns of the board the string was parsed for.
    pub width: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, c) = (self.index + 1, self.found);
        match self.kind {
            MoveError::NoSuchColumn => write!(
                f,
                "move {n} ({c:?}): not a column; use digits 1 to {}",
                self.width
            ),
            MoveError::ColumnFull => write!(f, "move {n} ({c:?}): column {c} is full"),
            MoveError::GameOver => write!(f, "move {n} ({c:?}): the game is already over"),
        }
    }
}

impl std::error::Error for ParseError {}

/// A Connect Four position on a board of `W` columns and `H` rows.
///
/// `W` ≤ 9 (columns are written as single digits) and `W·(H+1)` ≤ 64 (the bitboard); other
/// shapes fail to compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board<const W: usize, const H: usize> {
    /// Stones of the side to move.
    current: u64,
    /// Every stone.
    mask: u64,
    /// Stones on the board.
    moves: u8,
}

impl<const W: usize, const H: usize> Default for Board<W, H> {
    fn default() -> Self {
        Self::new()
    }
}

/// Bits per column: `H` cells and the sentinel.
const fn stride(h: usize) -> usize {
    h + 1
}

/// The bottom cell of every column.
const fn bottom_row(w: usize, h: usize) -> u64 {
    let mut bits = 0u64;
    let mut c = 0;
    while c < w {
        bits |= 1 << (c * stride(h));
        c += 1;
    }
    bits
}

/// Columns ordered from the centre outwards: `W/2`, then alternately left and right.
const fn centre_first<const W: usize>() -> [u8; W] {
    let mut order = [0u8; W];
    let mut i = 0;
    while i < W {
        let step = (i as isize + 1) / 2;
        let side = if i % 2 == 1 { -1 } else { 1 };
        order[i] = (W as isize / 2 + side * step) as u8;
        i += 1;
    }
    order
}

impl<const W: usize, const H: usize> Board<W, H> {
    /// Columns.
    pub const WIDTH: usize = W;
    /// Rows.
    pub const HEIGHT: usize = H;
    /// Cells on the board: the most moves a game can have.
    pub const CELLS: usize = W * H;
    /// Fails the build for shapes the bitboard or the notation cannot hold.
    const SHAPE_OK: () = assert!(
        W >= 1 && W <= 9 && H >= 1 && W * (H + 1) <= 64,
        "Connect Four boards need 1..=9 columns and W·(H+1) <= 64"
    );
    const BOTTOM: u64 = bottom_row(W, H);
    /// Every playable cell (the sentinel row excluded).
    const BOARD: u64 = Self::BOTTOM * ((1 << H) - 1);
    /// The order in which moves are generated.
    pub const MOVE_ORDER: [u8; W] = centre_first::<W>();

    /// The empty board, first player to move.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::SHAPE_OK;
        Board {
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// The position after the moves in `moves`, 1-based column digits (`"4453"`).
    pub fn from_moves(moves: &str) -> Result<Self, ParseError> {
        let mut board = Self::new();
        for (index, found) in moves.chars().enumerate() {
            let error = |kind| ParseError {
                index,
                found,
                kind,
                width: W,
            };
            let column = found
                .to_digit(10)
                .filter(|&d| d >= 1 && d as usize <= W)
                .ok_or(error(MoveError::NoSuchColumn))?;
            board.try_play(column as usize - 1).map_err(error)?;
        }
        Ok(board)
    }

    /// Plays in 0-based `column` after checking that the move is legal.
    pub fn try_play(&mut self, column: usize) -> Result<(), MoveError> {
        if column >= W {
            return Err(MoveError::NoSuchColumn);
        }
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if !self.can_play(column) {
            return Err(MoveError::ColumnFull);
        }
        self.play_column(column);
        Ok(())
    }

    /// True when 0-based `column` exists and has an empty cell.
    #[inline]
    pub fn can_play(&self, column: usize) -> bool {
        column < W && self.mask & Self::top_cell(column) == 0
    }

    /// Stones on the board.
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// The unique key of the position: `current + mask` (see the module docs).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The player whose stone is in `column`, `row` (0-based, row 0 at the bottom).
    pub fn cell(&self, column: usize, row: usize) -> Option<Player> {
        if column >= W || row >= H {
            return None;
        }
        let bit = 1u64 << (column * stride(H) + row);
        if self.mask & bit == 0 {
            return None;
        }
        let mover = self.side();
        Some(if self.current & bit != 0 {
            mover
        } else {
            mover.opponent()
        })
    }

    /// The winner, if a player has four in a row (only the player who moved last can).
    pub fn winner(&self) -> Option<Player> {
        has_four::<H>(self.current ^ self.mask).then(|| self.side().opponent())
    }

    /// True when someone has four in a row or the board is full.
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.moves as usize == Self::CELLS
    }

    /// True when playing 0-based `column` connects four for the side to move.
    pub fn is_winning_move(&self, column: usize) -> bool {
        self.can_play(column)
            && winning_cells::<W, H>(self.current, self.mask)
                & self.possible()
                & Self::column_cells(column)
                != 0
    }

    /// The cells where the side to move's next stone can go, one per open column.
    #[inline]
    fn possible(&self) -> u64 {
        (self.mask + Self::BOTTOM) & Self::BOARD
    }

    /// The cells of the moves that do not hand the opponent an immediate four, for a position
    /// where the side to move cannot connect four at once: the one cell blocking a single
    /// threat, or any cell, but never one right below an opponent's winning cell. Empty when
    /// every move loses.
    #[inline]
    pub fn non_losing_cells(&self) -> u64 {
        self.non_losing_cells_given(winning_cells::<W, H>(self.current ^ self.mask, self.mask))
    }

    /// [`non_losing_cells`](Self::non_losing_cells) given the opponent's winning cells.
    #[inline]
    fn non_losing_cells_given(&self, threats: u64) -> u64 {
        let possible = self.possible();
        let forced = possible & threats;
        let candidates = if forced == 0 {
            possible
        } else if forced & (forced - 1) != 0 {
            return 0; // two threats: only one can be blocked
        } else {
            forced
        };
        candidates & !(threats >> 1)
    }

    /// The cells of column `c`.
    #[inline]
    const fn column_cells(c: usize) -> u64 {
        ((1 << H) - 1) << (c * stride(H))
    }

    /// The top cell of column `c`.
    #[inline]
    const fn top_cell(c: usize) -> u64 {
        1 << (H - 1 + c * stride(H))
    }

    #[inline]
    fn side(&self) -> Player {
        if self.moves & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Drops a stone in `column` (which must have room): the side to move's stones become
    /// the opponent's view.
    #[inline]
    fn play_column(&mut self, column: usize) {
        self.current ^= self.mask;
        self.mask |= self.mask + (1 << (column * stride(H)));
        self.moves += 1;
    }

    /// Takes the top stone back out of `column`.
    #[inline]
    fn undo_column(&mut self, column: usize) {
        let col = Self::column_cells(column);
        // The bit above the top stone, moved down one: the top stone.
        let top = ((self.mask & col) + (1 << (column * stride(H)))) >> 1;
        self.mask ^= top;
        self.current ^= self.mask;
        self.moves -= 1;
    }
}

/// A column's code is its 0-based index (for jobs sent between processes).
impl<const W: usize, const H: usize> MoveCodec for Board<W, H> {
    fn encode_move(mv: Column) -> u64 {
        mv.0 as u64
    }

    fn decode_move(code: u64) -> Option<Column> {
        u8::try_from(code)
            .ok()
            .filter(|&c| (c as usize) < W)
            .map(Column)
    }
}

impl<const W: usize, const H: usize> Game for Board<W, H> {
    type Move = Column;

    /// Stones only accumulate: no position can repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.key()
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        self.outcome_with::<{ rules::ALL }>()
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<'_, Column>) {
        self.moves_with::<{ rules::ALL }>(moves)
    }

    #[inline]
    fn estimate(&self) -> Numbers {
        self.estimate_with::<{ rules::ALL }>()
    }

    #[inline]
    fn play(&mut self, mv: Column) {
        self.play_column(mv.index());
    }

    #[inline]
    fn undo(&mut self, mv: Column) {
        self.undo_column(mv.index());
    }

    /// The position key (`current + mask`, Pons' encoding): exact, as the hash.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        out[..8].copy_from_slice(&self.key().to_le_bytes());
        Some(8)
    }
}

impl<const W: usize, const H: usize> FromStr for Board<W, H> {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::from_moves(s)
    }
}

/// The board from the top row down, `X` for the first player, `O` for the second, then the
/// column numbers.
impl<const W: usize, const H: usize> fmt::Display for Board<W, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..H).rev() {
            for column in 0..W {
                let c = match self.cell(column, row) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                let sep = if column + 1 == W { "\n" } else { " " };
                write!(f, "{c}{sep}")?;
            }
        }
        for column in 0..W {
            let sep = if column + 1 == W { "" } else { " " };
            write!(f, "{}{sep}", column + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_first_orders() {
        assert_eq!(ConnectFour::MOVE_ORDER, [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(Board::<4, 4>::MOVE_ORDER, [2, 1, 3, 0]);
        assert_eq!(Board::<5, 4>::MOVE_ORDER, [2, 1, 3, 0, 4]);
        assert_eq!(Board::<1, 4>::MOVE_ORDER, [0]);
    }

    #[test]
    fn play_and_undo_restore_the_position() {
        let mut b = ConnectFour::from_moves("4453").unwrap();
        let before = b;
        for c in 0..7 {
            b.play(Column(c));
            assert_ne!(b.key(), before.key());
            b.undo(Column(c));
            assert_eq!(b, before);
        }
    }
}
