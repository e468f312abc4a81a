//! Tic-tac-toe: the smallest real game, a draw with perfect play.
//!
//! A position is two 9-bit masks (row-major cells 0..8), written as the string of cells played
//! so far (`"40"`: X in the centre, O in the top-left corner).

use core::fmt;
use core::str::FromStr;

use proofnum::{Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule};

/// The eight lines of three, as bit masks over the cells.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine cells.
const FULL: u16 = 0b111_111_111;

/// A tic-tac-toe position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe {
    marks: [u16; 2],
    to_move: usize,
}

/// Why a position string cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl TicTacToe {
    /// True when the player who just moved has three in a row.
    fn previous_player_won(&self) -> bool {
        let marks = self.marks[1 - self.to_move];
        LINES.iter().copied().any(|line| (marks & line) == line)
    }
}

impl FromStr for TicTacToe {
    type Err = ParseError;

    fn from_str(cells: &str) -> Result<Self, ParseError> {
        let mut game = TicTacToe::default();
        for (i, ch) in cells.chars().enumerate() {
            let cell = ch
                .to_digit(10)
                .filter(|&c| c < 9)
                .ok_or_else(|| ParseError(format!("move {}: {ch:?} is not a cell 0..8", i + 1)))?;
            if (game.marks[0] | game.marks[1]) & (1 << cell) != 0 {
                return Err(ParseError(format!("move {}: cell {cell} is taken", i + 1)));
            }
            if game.outcome() != Outcome::Unknown {
                return Err(ParseError(format!("move {}: the game is over", i + 1)));
            }
            game.play(cell as u8);
        }
        Ok(game)
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3 {
            for col in 0..3 {
                let bit = 1 << (row * 3 + col);
                let c = if self.marks[0] & bit != 0 {
                    'X'
                } else if self.marks[1] & bit != 0 {
                    'O'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A move's code is its cell, 0..9.
impl MoveCodec for TicTacToe {
    fn encode_move(cell: u8) -> u64 {
        cell as u64
    }

    fn decode_move(code: u64) -> Option<u8> {
        (code < 9).then_some(code as u8)
    }
}

impl Game for TicTacToe {
    /// A cell, 0..8 row-major.
    type Move = u8;

    /// Marks only accumulate: no position repeats.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        if self.to_move == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn hash(&self) -> u64 {
        // Exact: both masks and the side to move.
        self.marks[0] as u64 | (self.marks[1] as u64) << 9 | (self.to_move as u64) << 18
    }

    /// The hash's bytes: it is exact.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        out[..4].copy_from_slice(&(self.hash() as u32).to_le_bytes());
        Some(4)
    }

    fn outcome(&self) -> Outcome {
        if self.previous_player_won() {
            Outcome::Loss
        } else if self.marks[0] | self.marks[1] == FULL {
            Outcome::Draw
        } else {
            Outcome::Unknown
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        let taken = self.marks[0] | self.marks[1];
        // Centre, corners, edges: the strongest cells first.
        for cell in [4u8, 0, 2, 6, 8, 1, 3, 5, 7] {
            if taken & (1 << cell) == 0 {
                moves.push(cell);
            }
        }
    }

    fn play(&mut self, cell: u8) {
        self.marks[self.to_move] |= 1 << cell;
        self.to_move ^= 1;
    }

    fn undo(&mut self, cell: u8) {
        self.to_move ^= 1;
        self.marks[self.to_move] &= !(1 << cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plays_and_prints() {
        let g: TicTacToe = "40".parse().unwrap();
        assert_eq!(g.to_string(), "O..\n.X.\n...\n");
        assert_eq!(g.side_to_move(), Player::First);
        assert!("44".parse::<TicTacToe>().is_err());
        assert!("9".parse::<TicTacToe>().is_err());
        // X takes the top row (0, 1, 2) on the fifth move; a sixth move is refused.
        assert!("031425".parse::<TicTacToe>().is_err());
        let won: TicTacToe = "03142".parse().unwrap();
        assert_eq!(won.outcome(), Outcome::Loss);
    }
}
