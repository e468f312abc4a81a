//! The position and move notation of Nelson Elhage's public UTTT solver `ultimattt` (see the
//! module docs of [`super`]), read with clear errors and written back exactly.

use core::fmt;
use core::str::FromStr;

use proofnum::Player;

use super::tables::{FULL, THREE};
use super::{ANY, BoardState, Move, Uttt};
use crate::input::quote;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |i: usize| char::from(b'a' + i as u8);
        write!(f, "{}{}", letter(self.board()), letter(self.cell()))
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Two letters `a`–`i`: board, then cell.
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let index = |ch: char| {
            ('a'..='i')
                .contains(&ch)
                .then(|| ch as usize - 'a' as usize)
        };
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(b), Some(c), None) => match (index(b), index(c)) {
                (Some(b), Some(c)) => Ok(Move::new(b, c)),
                _ => Err(ParseError::new(format!(
                    "move {}: board and cell are letters a to i",
                    quote(s)
                ))),
            },
            _ => Err(ParseError::new(format!(
                "move {}: expected two letters, board then cell",
                quote(s)
            ))),
        }
    }
}

/// A position string or move that cannot be read; the message says what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    fn new(message: String) -> ParseError {
        ParseError { message }
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

impl FromStr for Uttt {
    type Err = ParseError;

    /// Reads the notation of the module docs. The board marks must agree with the cells, the
    /// stone counts with the side to move, and at most one board may be marked `@`.
    fn from_str(s: &str) -> Result<Uttt, ParseError> {
        let err = |m: String| Err(ParseError::new(m));
        let sections: Vec<&str> = s.trim().split(';').collect();
        let [player, big, cells] = sections[..] else {
            return err(format!(
                "expected three sections separated by ';' (side;boards;cells), found {}",
                sections.len()
            ));
        };
        let mut g = Uttt::new();
        g.to_move = match player {
            "X" => Player::First,
            "O" => Player::Second,
            _ => {
                return err(format!("side to move {}: expected X or O", quote(player)));
            }
        };
        let marks: Vec<char> = big.chars().collect();
        if marks.len() != 9 {
            return err(format!(
                "board section {}: expected 9 characters, found {}",
                quote(big),
                marks.len()
            ));
        }
        let groups: Vec<&str> = cells.split('/').collect();
        if groups.len() != 9 {
            return err(format!(
                "cell section: expected 9 groups of 9 cells separated by '/', found {} groups",
                groups.len()
            ));
        }
        for (b, group) in groups.iter().enumerate() {
            let name = char::from(b'a' + b as u8);
            let chars: Vec<char> = group.chars().collect();
            if chars.len() != 9 {
                return err(format!(
                    "board {name} ({}): expected 9 cells, found {}",
                    quote(group),
                    chars.len()
                ));
            }
            for (c, &ch) in chars.iter().enumerate() {
                match ch {
                    'X' => g.cells[0][b] |= 1 << c,
                    'O' => g.cells[1][b] |= 1 << c,
                    '.' => {}
                    _ => {
                        return err(format!(
                            "board {name}, cell {}: {ch:?} is not X, O or .",
                            char::from(b'a' + c as u8)
                        ));
                    }
                }
            }
        }
        for (b, &mark) in marks.iter().enumerate() {
            let name = char::from(b'a' + b as u8);
            let (x, o) = (g.cells[0][b], g.cells[1][b]);
            let actual = match (THREE[x as usize], THREE[o as usize]) {
                (true, true) => {
                    return err(format!("board {name}: both players have three in a row"));
                }
                (true, false) => BoardState::Won(Player::First),
                (false, true) => BoardState::Won(Player::Second),
                _ if x | o == FULL => BoardState::Drawn,
                _ => BoardState::Open,
            };
            let marked = match mark {
                'X' => BoardState::Won(Player::First),
                'O' => BoardState::Won(Player::Second),
                '#' => BoardState::Drawn,
                '.' | '@' => BoardState::Open,
                ch => {
                    return err(format!("board {name}: mark {ch:?} is not X, O, #, . or @"));
                }
            };
            if marked != actual {
                return err(format!(
                    "board {name} is marked {mark:?} but its cells make it {actual:?}"
                ));
            }
            match actual {
                BoardState::Won(p) => {
                    g.won[p.index()] |= 1 << b;
                    g.closed |= 1 << b;
                }
                BoardState::Drawn => g.closed |= 1 << b,
                BoardState::Open => {}
            }
            if mark == '@' {
                if g.target != ANY {
                    return err("two boards are marked @ (at most one is forced)".into());
                }
                g.target = b as u8;
            }
        }
        if THREE[g.won[0] as usize] && THREE[g.won[1] as usize] {
            return err("both players have three won boards in a row".into());
        }
        let (nx, no) = (
            g.cells[0].iter().map(|m| m.count_ones()).sum::<u32>(),
            g.cells[1].iter().map(|m| m.count_ones()).sum::<u32>(),
        );
        let consistent = match g.to_move {
            Player::First => nx == no,
            Player::Second => nx == no + 1,
        };
        if !consistent {
            return err(format!(
                "{nx} X and {no} O stones cannot have {player} to move (X moves first)"
            ));
        }
        for b in 0..9 {
            if g.closed & 1 << b == 0 {
                g.refresh_alive(b);
            } else {
                g.alive[0] &= !(1 << b);
                g.alive[1] &= !(1 << b);
            }
        }
        g.hash = g.full_hash();
        Ok(g)
    }
}

/// The position in the notation of the module docs (it reads back with `parse`).
impl fmt::Display for Uttt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.to_move {
            Player::First => "X;",
            Player::Second => "O;",
        })?;
        for b in 0..9 {
            let ch = match self.board_state(b) {
                _ if self.target as usize == b => '@',
                BoardState::Won(Player::First) => 'X',
                BoardState::Won(Player::Second) => 'O',
                BoardState::Drawn => '#',
                BoardState::Open => '.',
            };
            write!(f, "{ch}")?;
        }
        f.write_str(";")?;
        for b in 0..9 {
            if b > 0 {
                f.write_str("/")?;
            }
            for c in 0..9 {
                let ch = match self.at(b, c) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}
