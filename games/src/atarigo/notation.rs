//! Atari Go positions and moves as text.
//!
//! # Points
//! Go coordinates, as in the Go Text Protocol: a column letter from `a` on the left, then the
//! row number from `1` at the bottom (GTP skips the letter `i`; boards here are at most 7 wide,
//! so the letters are `a` to `g`). On 6×6 the crosscut's black stones are on `c4` and `d3`, its
//! white stones on `d4` and `c3`.
//!
//! # Positions
//! Two forms:
//! - **Moves from the crosscut**: points separated by spaces, commas or nothing, played from
//!   [`AtariGo::crosscut`] with Black first. `""` is the crosscut itself; `"b5 e2"` (or
//!   `"b5e2"`) is the crosscut after Black b5 and White e2.
//! - **A setup**: `S;ROWS` or `S;ROWS;MOVES`: the side to move `S` (`X` for Black, `O` for
//!   White), the board as `N` rows from the top separated by `/`, each of `N` characters `X`
//!   (Black), `O` (White) or `.` (empty), then optionally moves played from there. The board
//!   size is the number of rows ([`setup_size`]), and no group may be without liberties.
//!   `"O;....../....../..XO../..OX../..X.../......"` is the 6×6 crosscut after Black c2.
//!
//! Every move must be legal: on an empty point of the board, not a suicide, and not after a
//! capture (the first capture ends the game). [`AtariGo::notation`] writes the setup form,
//! which reads back to the same position; a finished game cannot be written that way (its
//! captured group is still on the board, without liberties), so the setup of a finished game
//! is refused when read.

use core::fmt;
use core::str::FromStr;

use proofnum::Player;

use super::{AtariGo, Point};
use crate::input::quote;

/// A position string or point that cannot be read or played; the message says what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
        }
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The last move captured: the game is over.
    GameOver,
    /// The point is not on the board (a guard-column bit or beyond the last row).
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberty and captures nothing.
    Suicide,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::GameOver => "the game is over (the last move captured)",
            MoveError::OffBoard => "the point is not on the board",
            MoveError::Occupied => "the point is taken",
            MoveError::Suicide => "suicide: the stone would have no liberty and captures nothing",
        })
    }
}

/// The board size a position string declares: the number of rows of a setup, `None` for a list
/// of moves (played from the crosscut of whatever size the caller chooses).
pub fn setup_size(position: &str) -> Option<usize> {
    let rows = position.trim().split(';').nth(1)?;
    Some(
        rows.split(['/', '\n'])
            .filter(|r| !r.trim().is_empty())
            .count(),
    )
}

impl<const N: usize> AtariGo<N> {
    /// The last column's letter.
    const LAST_COLUMN: char = (b'a' + N as u8 - 1) as char;

    /// A position from a diagram: `N` rows of `N` characters (`X` Black, `O` White, `.` empty),
    /// separated by `/` or newlines, and the side to move.
    pub fn from_diagram(diagram: &str, to_move: Player) -> Result<Self, String> {
        let mut g = Self::empty();
        let rows: Vec<&str> = diagram
            .split(['/', '\n'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != N {
            return Err(format!("expected {N} rows, found {}", rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != N {
                return Err(format!(
                    "row {}: expected {N} points, found {}",
                    r + 1,
                    chars.len()
                ));
            }
            for (c, ch) in chars.into_iter().enumerate() {
                match ch {
                    'X' => g.stones[0] |= Self::bit(r, c),
                    'O' => g.stones[1] |= Self::bit(r, c),
                    '.' => {}
                    _ => return Err(format!("row {}: {ch:?} is not X, O or .", r + 1)),
                }
            }
        }
        for colour in 0..2 {
            if Self::groups(g.stones[colour], g.empty_points()).any(|(_, libs)| libs == 0) {
                return Err("a group without liberties: captures are removed at once".into());
            }
        }
        g.to_move = to_move;
        g.hash = g.full_hash();
        Ok(g)
    }

    /// The point on `row` (from the top) and `column` (from the left), both 0-based.
    pub const fn point(row: usize, column: usize) -> Point {
        Point((row * Self::STRIDE + column) as u8)
    }

    /// The row (from the top) and column (from the left) of `p`, if it lies on the board.
    pub fn coordinates(p: Point) -> Option<(usize, usize)> {
        let (row, column) = (p.0 as usize / Self::STRIDE, p.0 as usize % Self::STRIDE);
        (row < N && column < N).then_some((row, column))
    }

    /// `p` in Go coordinates (`c4`); a point off the board prints as its bit index (`#6`).
    pub fn point_name(p: Point) -> String {
        match Self::coordinates(p) {
            Some((row, column)) => format!("{}{}", char::from(b'a' + column as u8), N - row),
            None => p.to_string(),
        }
    }

    /// A point in Go coordinates (`c4`).
    pub fn parse_point(s: &str) -> Result<Point, ParseError> {
        let mut chars = s.trim().chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(letter), Some(digit), None) => Self::point_of(letter, digit),
            _ => None,
        }
        .ok_or_else(|| {
            ParseError::new(format!(
                "point {}: expected a column a to {} and a row 1 to {N}, like c4",
                quote(s),
                Self::LAST_COLUMN
            ))
        })
    }

    fn point_of(letter: char, digit: char) -> Option<Point> {
        let column = (letter as u32).checked_sub('a' as u32)? as usize;
        let rank = digit.to_digit(10)? as usize;
        (column < N && (1..=N).contains(&rank)).then(|| Self::point(N - rank, column))
    }

    /// Plays `p` after checking that it is legal.
    pub fn try_play(&mut self, p: Point) -> Result<(), MoveError> {
        if self.captured {
            return Err(MoveError::GameOver);
        }
        let (row, column) = Self::coordinates(p).ok_or(MoveError::OffBoard)?;
        if self.at(row, column).is_some() {
            return Err(MoveError::Occupied);
        }
        if !self.is_legal(Self::bit(row, column)) {
            return Err(MoveError::Suicide);
        }
        proofnum::Game::play(self, p);
        Ok(())
    }

    /// Plays a list of points (spaces, commas or nothing between them), checking each move.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), ParseError> {
        let mut chars = moves.chars();
        let mut number = 0;
        while let Some(letter) = chars.next() {
            if letter.is_whitespace() || letter == ',' {
                continue;
            }
            number += 1;
            let digit = chars.next();
            let point = digit
                .and_then(|d| Self::point_of(letter, d))
                .ok_or_else(|| {
                    let text: String = [Some(letter), digit].into_iter().flatten().collect();
                    ParseError::new(format!(
                        "move {number} ({text:?}): expected a point a1 to {}{N}",
                        Self::LAST_COLUMN
                    ))
                })?;
            self.try_play(point).map_err(|e| {
                ParseError::new(format!("move {number} ({}): {e}", Self::point_name(point)))
            })?;
        }
        Ok(())
    }

    /// The position in the setup form of the module docs (`X;rows`); `parse` reads it back.
    pub fn notation(&self) -> String {
        let mut s = String::from(match self.to_move {
            Player::First => "X;",
            Player::Second => "O;",
        });
        for r in 0..N {
            if r > 0 {
                s.push('/');
            }
            (0..N).for_each(|c| s.push(self.stone_char(r, c)));
        }
        s
    }

    /// A picture of the board in Go coordinates: row numbers on the left (the top row is `N`),
    /// column letters below; `X` Black, `O` White, `.` empty.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for r in 0..N {
            s.push_str(&format!("{} ", N - r));
            for c in 0..N {
                s.push(self.stone_char(r, c));
                s.push(if c + 1 == N { '\n' } else { ' ' });
            }
        }
        s.push(' ');
        for c in 0..N {
            s.push(' ');
            s.push(char::from(b'a' + c as u8));
        }
        s
    }

    fn stone_char(&self, row: usize, column: usize) -> char {
        match self.at(row, column) {
            Some(Player::First) => 'X',
            Some(Player::Second) => 'O',
            None => '.',
        }
    }
}

impl<const N: usize> FromStr for AtariGo<N> {
    type Err = ParseError;

    /// Reads either form of the module docs.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let sections: Vec<&str> = s.trim().split(';').collect();
        let (mut g, moves) = match sections[..] {
            [moves] => (Self::crosscut(), moves),
            [side, rows, ref rest @ ..] if rest.len() <= 1 => {
                let to_move = match side.trim() {
                    "X" => Player::First,
                    "O" => Player::Second,
                    other => {
                        return Err(ParseError::new(format!(
                            "side to move {}: expected X (Black) or O (White)",
                            quote(other)
                        )));
                    }
                };
                let g = Self::from_diagram(rows, to_move)
                    .map_err(|e| ParseError::new(format!("board: {e}")))?;
                (g, rest.first().copied().unwrap_or(""))
            }
            _ => {
                return Err(ParseError::new(format!(
                    "expected moves from the crosscut, or SIDE;ROWS or SIDE;ROWS;MOVES, found {} \
                     sections separated by ';'",
                    sections.len()
                )));
            }
        };
        g.play_moves(moves)?;
        Ok(g)
    }
}

/// Rows from the top, `X` Black, `O` White, `.` empty, then the side to move.
impl<const N: usize> fmt::Display for AtariGo<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..N {
            for c in 0..N {
                write!(f, "{}", self.stone_char(r, c))?;
            }
            writeln!(f)?;
        }
        let side = match self.to_move {
            Player::First => "Black (X)",
            Player::Second => "White (O)",
        };
        write!(f, "{side} to move")
    }
}

/// The bit index (`#14`): a point does not know its board's size; see
/// [`AtariGo::point_name`] for Go coordinates.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::AtariGo6;
    use super::*;
    use proofnum::{Game, Outcome};

    #[test]
    fn crosscut_points_in_go_coordinates() {
        let g = AtariGo6::crosscut();
        let black = |name| {
            let (row, column) =
                AtariGo6::coordinates(AtariGo6::parse_point(name).unwrap()).unwrap();
            g.at(row, column)
        };
        assert_eq!(black("c4"), Some(Player::First));
        assert_eq!(black("d3"), Some(Player::First));
        assert_eq!(black("d4"), Some(Player::Second));
        assert_eq!(black("c3"), Some(Player::Second));
        assert_eq!(AtariGo6::point_name(AtariGo6::point(5, 0)), "a1");
        assert_eq!(AtariGo6::point_name(AtariGo6::point(0, 5)), "f6");
        for bad in ["g1", "a7", "a0", "c", "c44", "C4"] {
            assert!(AtariGo6::parse_point(bad).is_err(), "{bad}");
        }
        assert_eq!(
            g.diagram(),
            "6 . . . . . .\n5 . . . . . .\n4 . . X O . .\n3 . . O X . .\n\
             2 . . . . . .\n1 . . . . . .\n  a b c d e f"
        );
    }

    #[test]
    fn both_forms_read_and_the_setup_reads_back() {
        let after: AtariGo6 = "c2".parse().unwrap();
        let setup: AtariGo6 = "O;....../....../..XO../..OX../..X.../......"
            .parse()
            .unwrap();
        assert_eq!(after, setup);
        assert_eq!(setup.notation().parse::<AtariGo6>().unwrap(), setup);
        assert_eq!("".parse::<AtariGo6>().unwrap(), AtariGo6::crosscut());
        let two: AtariGo6 = "b5, e2".parse().unwrap();
        assert_eq!(two, "b5e2".parse().unwrap());
        assert_eq!(two.side_to_move(), Player::First);
        assert_eq!(setup_size("X;..../..../..../...."), Some(4));
        assert_eq!(setup_size("b5 e2"), None);
        let small: AtariGo<4> = "X;..../.XO./.OX./....".parse().unwrap();
        assert_eq!(small, AtariGo::<4>::crosscut());
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason() {
        let err = |s: &str| s.parse::<AtariGo6>().unwrap_err().to_string();
        assert!(err("c4").contains("taken"), "{}", err("c4"));
        // a1 between White's a2 and b1 captures nothing: suicide.
        let suicide = "X;....../....../....../....../O...../.O....;a1";
        assert!(err(suicide).contains("suicide"), "{}", err(suicide));
        // Black a2 captures White's a1; nothing may follow.
        let mut g: AtariGo6 = "X;....../....../....../....../....../OX....;a2"
            .parse()
            .unwrap();
        assert_eq!(g.outcome(), Outcome::Loss);
        assert_eq!(g.try_play(AtariGo6::point(0, 0)), Err(MoveError::GameOver));
        assert_eq!(g.try_play(Point(6)), Err(MoveError::GameOver));
        let mut fresh = AtariGo6::crosscut();
        assert_eq!(fresh.try_play(Point(6)), Err(MoveError::OffBoard));
        assert!(err("Z;....../....../....../....../....../......").contains("side to move"));
        assert!(err("X;....../......").contains("rows"));
        assert!(err("X;a;b;c").contains("sections"));
        assert!(err("c2 z9").contains("move 2"));
    }
}
