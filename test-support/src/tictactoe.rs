//! Tic-tac-toe, and the value of every position by negamax: a draw from the empty board, the
//! classic result (known since antiquity; the test below checks it by brute force).
//!
//! The hash is the board read as a base-3 number and the side to move, so a table saved after a
//! solve (the fuzz target `table_load_solve`'s seed corpus) holds entries under keys the next
//! solve looks up.

use std::sync::OnceLock;

use proofnum_game::{Game, MoveList, Outcome, Player, Value};

use crate::graph::better;

/// The eight lines of three cells.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Boards: 3^9 base-3 codes.
const BOARDS: usize = 19_683;

/// A position: cells 0 (empty), 1 (first player) or 2 (second player).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe {
    /// The board, row by row.
    pub cells: [u8; 9],
    /// 0 when the first player moves, 1 otherwise.
    pub to_move: u8,
}

impl TicTacToe {
    /// The board as a base-3 number (`0..3^9`).
    pub fn code(&self) -> usize {
        self.cells.iter().fold(0, |h, &c| h * 3 + c as usize)
    }

    /// Whether the game is over (a line, or a full board).
    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::Unknown
    }

    /// The value for the side to move, by negamax over every position (computed once). The
    /// position must have been reached by play from the empty board.
    pub fn value(&self) -> Value {
        static VALUES: OnceLock<Vec<Option<Value>>> = OnceLock::new();
        let values = VALUES.get_or_init(|| {
            let mut values = vec![None; BOARDS];
            negamax(&mut TicTacToe::default(), &mut values);
            values
        });
        values[self.code()].expect("a position reached by play from the empty board")
    }

    /// Calls `f` on this position and every position reachable from it in up to `plies` moves
    /// (a position once per line that reaches it; none beyond a finished game). The position
    /// is restored before each call returns.
    pub fn walk(&mut self, plies: usize, f: &mut dyn FnMut(&mut TicTacToe)) {
        f(self);
        if plies == 0 || self.is_over() {
            return;
        }
        for m in 0..9u8 {
            if self.cells[m as usize] == 0 {
                self.play(m);
                self.walk(plies - 1, f);
                self.undo(m);
            }
        }
    }
}

/// The value for the side to move, memoised by board (the side to move follows from the
/// counts of stones in positions reached by play, and every search here starts from one).
fn negamax(p: &mut TicTacToe, memo: &mut [Option<Value>]) -> Value {
    if let Some(v) = memo[p.code()] {
        return v;
    }
    let v = match p.outcome() {
        Outcome::Loss => Value::Loss,
        Outcome::Draw => Value::Draw,
        _ => {
            let mut best = Value::Loss;
            for i in 0..9 {
                if p.cells[i] == 0 {
                    p.play(i as u8);
                    best = better(best, negamax(p, memo).flipped());
                    p.undo(i as u8);
                }
            }
            best
        }
    };
    memo[p.code()] = Some(v);
    v
}

impl Game for TicTacToe {
    type Move = u8;

    fn side_to_move(&self) -> Player {
        if self.to_move == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn hash(&self) -> u64 {
        (self.code() as u64) << 1 | self.to_move as u64
    }
    fn outcome(&self) -> Outcome {
        let line = LINES.iter().any(|l| {
            let c = self.cells[l[0]];
            c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]
        });
        if line {
            Outcome::Loss // the previous player completed it
        } else if self.cells.iter().all(|&c| c != 0) {
            Outcome::Draw
        } else {
            Outcome::Unknown
        }
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                moves.push(i as u8);
            }
        }
    }
    fn play(&mut self, mv: u8) {
        assert_eq!(self.cells[mv as usize], 0, "a move onto an occupied cell");
        self.cells[mv as usize] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn undo(&mut self, mv: u8) {
        self.cells[mv as usize] = 0;
        self.to_move ^= 1;
    }
    /// The cells and the side to move.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        out[..9].copy_from_slice(&self.cells);
        out[9] = self.to_move;
        Some(10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax without memo: a second, slower route to the same values.
    fn minimax(g: &mut TicTacToe) -> Value {
        match g.outcome() {
            Outcome::Loss => return Value::Loss,
            Outcome::Draw => return Value::Draw,
            _ => {}
        }
        let mut best = Value::Loss;
        for m in 0..9u8 {
            if g.cells[m as usize] == 0 {
                g.play(m);
                best = better(best, minimax(g).flipped());
                g.undo(m);
            }
        }
        best
    }

    #[test]
    fn the_empty_board_is_a_draw() {
        assert_eq!(TicTacToe::default().value(), Value::Draw);
    }

    #[test]
    fn memoised_values_equal_plain_minimax() {
        let mut positions = 0;
        TicTacToe::default().walk(3, &mut |g| {
            assert_eq!(g.value(), minimax(g), "{:?}", g.cells);
            positions += 1;
        });
        // 1 + 9 + 72 + 504 positions along lines of up to three moves.
        assert_eq!(positions, 586);
    }

    #[test]
    fn a_completed_line_is_a_loss_for_the_side_to_move() {
        let mut g = TicTacToe::default();
        for m in [0, 3, 1, 4, 2] {
            g.play(m);
        }
        assert_eq!(g.outcome(), Outcome::Loss);
        assert_eq!(g.value(), Value::Loss);
    }
}
