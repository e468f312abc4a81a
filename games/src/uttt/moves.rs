//! Move generation: every legal move, or with [`Knowledge::PRUNE_LOSING`] only the moves that
//! do not lose at once (rule 4 of the knowledge module), and with [`Knowledge::ORDER`] best
//! first.
//!
//! df-pn breaks ties between children by list order, and before a child is searched its
//! numbers are all alike, so the order decides which move is tried first. A move is judged by
//! three cheap features, most important first: it wins its small board; it sends the opponent
//! to an open board where the opponent cannot win a small board at once (neither a free choice
//! nor a board handed over); it blocks an opponent's three in a row in its board. Ties keep
//! board order, and inside a board the centre, the corners, then the edges.

use proofnum::MoveList;

use super::tables::{COMPLETES, FULL};
use super::{Knowledge, Move, Uttt};

/// Cells tried first: the centre, the corners, then the edges (they lie on most lines).
const CELL_ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// How many classes [`Knowledge::ORDER`] sorts moves into: one per combination of the three
/// features of the module docs.
const CLASSES: usize = 8;

impl Uttt {
    /// The moves [`proofnum::Game::generate_moves`] lists (see the module docs).
    pub(super) fn list_moves(&self, moves: &mut MoveList<'_, Move>) {
        let me = self.to_move.index();
        let them = 1 - me;
        let playable = self.playable();
        let mut kept = [0u16; 9];
        let theirs = if self.knowledge.contains(Knowledge::PRUNE_LOSING) {
            self.critical_boards(them, self.won[them], FULL & !self.closed)
        } else {
            0
        };
        let mut boards = playable;
        let mut any_kept = false;
        let mut a_losing_move = None;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let free = self.empty(b);
            let losing = if theirs != 0 {
                self.losing_cells(me, b, theirs)
            } else {
                0
            };
            kept[b] = free & !losing;
            any_kept |= kept[b] != 0;
            if losing != 0 && a_losing_move.is_none() {
                a_losing_move = Some(Move::new(b, losing.trailing_zeros() as usize));
            }
        }
        if !any_kept {
            // Every move loses: one of them stands for all (the list must not be empty).
            if let Some(mv) = a_losing_move {
                moves.push(mv);
            }
            return;
        }
        if !self.knowledge.contains(Knowledge::ORDER) {
            let mut boards = playable;
            while boards != 0 {
                let b = boards.trailing_zeros() as usize;
                boards &= boards - 1;
                push_cells(moves, b, kept[b]);
            }
            return;
        }
        // Boards where the opponent, sent there, could not win the board at once.
        let mut quiet = 0u16;
        let mut open = FULL & !self.closed;
        while open != 0 {
            let s = open.trailing_zeros() as usize;
            open &= open - 1;
            if COMPLETES[self.cells[them][s] as usize] & self.empty(s) == 0 {
                quiet |= 1 << s;
            }
        }
        // Per board, the kept cells of each class (class bits: 4 wins the board, 2 sends to a
        // quiet board, 1 blocks).
        let mut by_class = [[0u16; 9]; CLASSES];
        let mut boards = playable;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let cells = kept[b];
            let wins = COMPLETES[self.cells[me][b] as usize];
            let blocks = COMPLETES[self.cells[them][b] as usize];
            for (class, masks) in by_class.iter_mut().enumerate() {
                let pick = |on: bool, m: u16| if on { m } else { !m };
                masks[b] = cells
                    & pick(class & 4 != 0, wins)
                    & pick(class & 2 != 0, quiet)
                    & pick(class & 1 != 0, blocks);
            }
        }
        for masks in by_class.iter().rev() {
            let mut boards = playable;
            while boards != 0 {
                let b = boards.trailing_zeros() as usize;
                boards &= boards - 1;
                push_cells(moves, b, masks[b]);
            }
        }
    }
}

/// Pushes the cells of `cells` in board `b`, centre first, then corners, then edges.
#[inline]
fn push_cells(moves: &mut MoveList<'_, Move>, b: usize, cells: u16) {
    if cells == 0 {
        return;
    }
    for c in CELL_ORDER {
        if cells & 1 << c != 0 {
            moves.push(Move::new(b, c as usize));
        }
    }
}
