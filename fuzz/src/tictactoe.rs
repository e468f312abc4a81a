//! Tic-tac-toe, and the value of every position by negamax (a draw from the empty board, the
//! classic result).
//!
//! The hash is the board read as a base-3 number and the side to move, so a table saved after a
//! solve (the seed corpus of `table_load_solve`) holds entries the fuzzer can mutate under keys
//! the next solve looks up.

use std::sync::OnceLock;

use proofnum::{Game, MoveList, Outcome, Player, Value};

use crate::better;

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

/// A position: cells 0 (empty), 1 (first player) or 2 (second player).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe {
    /// The board, row by row.
    pub cells: [u8; 9],
    /// 0 when the first player moves, 1 otherwise.
    pub to_move: u8,
}

impl TicTacToe {
    /// The board as a base-3 number (0 ..< 3^9).
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
            let mut values = vec![None; 19_683];
            negamax(&mut TicTacToe::default(), &mut values);
            values
        });
        values[self.code()].expect("a position reached by play from the empty board")
    }
}

/// The value for the side to move, memoised by board (the side to move follows from the
/// counts of stones in reachable positions, and the searches here start from such positions).
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
}
