//! Shared by the UTTT test suites: an independent model of the rules (an 81-cell array,
//! everything recomputed by scanning, minimax for values) and a seedable generator.
#![allow(dead_code)]

use std::collections::HashMap;

use proofnum::{Game, Player, Value};
use proofnum_games::uttt::Uttt;

/// An independent model of the rules: 81 cells in an array, everything recomputed by scanning.
#[derive(Clone)]
pub struct Plain {
    pub cells: [u8; 81], // 0 empty, 1 X, 2 O
    pub forced: Option<usize>,
    pub to_move: u8,
}

pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Plain {
    pub fn from(g: &Uttt) -> Plain {
        let mut cells = [0u8; 81];
        for b in 0..9 {
            for c in 0..9 {
                cells[b * 9 + c] = match g.at(b, c) {
                    None => 0,
                    Some(Player::First) => 1,
                    Some(Player::Second) => 2,
                };
            }
        }
        Plain {
            cells,
            forced: g.forced_board(),
            to_move: if g.side_to_move() == Player::First {
                1
            } else {
                2
            },
        }
    }

    /// 0 open, 1/2 won by X/O, 3 drawn.
    pub fn board(&self, b: usize) -> u8 {
        for l in LINES {
            let v = self.cells[b * 9 + l[0]];
            if v != 0 && l.iter().all(|&c| self.cells[b * 9 + c] == v) {
                return v;
            }
        }
        if (0..9).all(|c| self.cells[b * 9 + c] != 0) {
            3
        } else {
            0
        }
    }

    pub fn winner(&self) -> u8 {
        for l in LINES {
            let v = self.board(l[0]);
            if (v == 1 || v == 2) && l.iter().all(|&b| self.board(b) == v) {
                return v;
            }
        }
        0
    }

    pub fn moves(&self) -> Vec<usize> {
        if self.winner() != 0 {
            return Vec::new();
        }
        let boards: Vec<usize> = match self.forced {
            Some(b) if self.board(b) == 0 => vec![b],
            _ => (0..9).filter(|&b| self.board(b) == 0).collect(),
        };
        boards
            .into_iter()
            .flat_map(|b| (0..9).map(move |c| b * 9 + c))
            .filter(|&i| self.cells[i] == 0)
            .collect()
    }

    pub fn play(&mut self, i: usize) {
        self.cells[i] = self.to_move;
        let next = i % 9;
        self.forced = if self.board(next) == 0 {
            Some(next)
        } else {
            None
        };
        self.to_move = 3 - self.to_move;
    }

    /// Value for the side to move by plain minimax, memoised on the whole state.
    pub fn value(&self, memo: &mut HashMap<(Vec<u8>, Option<usize>), Value>) -> Value {
        let w = self.winner();
        if w != 0 {
            return if w == self.to_move {
                Value::Win
            } else {
                Value::Loss
            };
        }
        let key = (self.cells.to_vec(), self.forced);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let moves = self.moves();
        let mut best = if moves.is_empty() {
            Value::Draw
        } else {
            Value::Loss
        };
        for i in moves {
            let mut child = self.clone();
            child.play(i);
            match child.value(memo).flipped() {
                Value::Win => {
                    best = Value::Win;
                    break;
                }
                Value::Draw => best = Value::Draw,
                Value::Loss => {}
            }
        }
        memo.insert(key, best);
        best
    }
}

/// SplitMix64, shared with the other tests.
pub use proofnum_test_support::Rng;
