//! "Two doors": a game built so that a table false match gives a wrong answer, for the
//! forced-collision tests.
//!
//! The attacker (First) is to move at the root and opens door A or door B; behind each the
//! defender has one move, to the position P (behind A) or Q (behind B), where the attacker has
//! one move: from P to a loss, from Q to a win. So the attacker wins, through B. A search tries
//! A first (equal numbers, first move), disproves P and stores that; when P and Q collide in
//! the table (the game gives them equal hashes, or hashes whose table keys agree on the bits an
//! entry compares), Q then reads P's "lost" and the root comes out disproven: wrong.

use proofnum::{Game, MoveList, Outcome, Player, RepetitionRule};

/// Positions of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door {
    Root,
    A,
    B,
    P,
    Q,
    /// The attacker has lost (the side to move, the defender, has won).
    Lost,
    /// The attacker has won (the side to move, the defender, has lost).
    Won,
}

/// The game, with the hashes of P and Q chosen by the test.
#[derive(Clone, Debug)]
pub struct Doors {
    pub at: Door,
    pub hash_p: u64,
    pub hash_q: u64,
    /// Whether the game gives its exact encoding ([`Game::encode`]).
    pub exact: bool,
}

impl Doors {
    pub fn new(hash_p: u64, hash_q: u64, exact: bool) -> Doors {
        Doors {
            at: Door::Root,
            hash_p,
            hash_q,
            exact,
        }
    }
}

impl Game for Doors {
    /// The position a move leads to.
    type Move = u8;
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        match self.at {
            Door::Root | Door::P | Door::Q => Player::First,
            Door::A | Door::B | Door::Lost | Door::Won => Player::Second,
        }
    }

    fn hash(&self) -> u64 {
        match self.at {
            Door::P => self.hash_p,
            Door::Q => self.hash_q,
            other => 0x5EED_0000 + other as u64,
        }
    }

    fn outcome(&self) -> Outcome {
        match self.at {
            Door::Lost => Outcome::Win, // for the defender, to move
            Door::Won => Outcome::Loss,
            _ => Outcome::Unknown,
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        let to: &[Door] = match self.at {
            Door::Root => &[Door::A, Door::B],
            Door::A => &[Door::P],
            Door::B => &[Door::Q],
            Door::P => &[Door::Lost],
            Door::Q => &[Door::Won],
            Door::Lost | Door::Won => &[],
        };
        for &d in to {
            moves.push(d as u8);
        }
    }

    fn play(&mut self, mv: u8) {
        self.at = DOORS[mv as usize];
    }

    fn undo(&mut self, mv: u8) {
        self.at = match DOORS[mv as usize] {
            Door::A | Door::B => Door::Root,
            Door::P => Door::A,
            Door::Q => Door::B,
            Door::Lost => Door::P,
            Door::Won => Door::Q,
            Door::Root => unreachable!("no move leads to the root"),
        };
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        if !self.exact {
            return None;
        }
        out[0] = self.at as u8;
        Some(1)
    }
}

const DOORS: [Door; 7] = [
    Door::Root,
    Door::A,
    Door::B,
    Door::P,
    Door::Q,
    Door::Lost,
    Door::Won,
];
