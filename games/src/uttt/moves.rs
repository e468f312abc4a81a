//! Move generation: every legal move, or with [`Knowledge::PRUNE_LOSING`] only the moves that
//! do not lose at once (rule 4 of the knowledge module), and with [`Knowledge::ORDER`] best
//! first.
//!
//! df-pn breaks ties between children by list order, and before a child is searched its
//! numbers are all alike, so the order decides which move is tried first. A move is judged by
//! two cheap features, the first more important: it wins its small board; it sends the
//! opponent to an open board where the opponent cannot win a small board at once (neither a
//! free choice nor a board handed over). Ties keep board order, and inside a board the centre,
//! the corners, then the edges. (A third feature, blocking the opponent's three in a row in
//! the board played, made no difference on the benchmark positions and cost time.)

use proofnum::MoveList;

use super::tables::{COMPLETES, FULL};
use super::{Knowledge, Move, Uttt};

/// Cells tried first: the centre, the corners, then the edges (they lie on most lines).
const CELL_ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// `BY_RANK[cells]`: the same cells with bit `i` standing for `CELL_ORDER[i]`, so that the
/// set bits of a mask come out in [`CELL_ORDER`] lowest first.
static BY_RANK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if m & 1 << CELL_ORDER[i] != 0 {
                t[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// How many classes [`Knowledge::ORDER`] sorts moves into: one per combination of the two
/// features of the module docs.
const CLASSES: usize = 4;

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
        // Boards where the opponent, sent there, could not win the board at once (among the
        // open boards the kept moves send it to).
        let mut quiet = 0u16;
        let mut open = FULL & !self.closed & kept.iter().fold(0, |all, &cells| all | cells);
        while open != 0 {
            let s = open.trailing_zeros() as usize;
            open &= open - 1;
            if COMPLETES[self.cells[them][s] as usize] & self.empty(s) == 0 {
                quiet |= 1 << s;
            }
        }
        // Class bit 2: the move wins its board; bit 1: it sends the opponent to a quiet board.
        let mut wins = [0u16; 9];
        let mut boards = playable;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            wins[b] = COMPLETES[self.cells[me][b] as usize];
        }
        for class in (0..CLASSES).rev() {
            let pick = |on: bool, m: u16| if on { m } else { !m };
            let to_quiet = pick(class & 1 != 0, quiet);
            let mut boards = playable;
            while boards != 0 {
                let b = boards.trailing_zeros() as usize;
                boards &= boards - 1;
                push_cells(moves, b, kept[b] & pick(class & 2 != 0, wins[b]) & to_quiet);
            }
        }
    }
}

/// Pushes the cells of `cells` in board `b`, centre first, then corners, then edges.
#[inline]
fn push_cells(moves: &mut MoveList<'_, Move>, b: usize, cells: u16) {
    let mut ranks = BY_RANK[(cells & FULL) as usize];
    while ranks != 0 {
        let i = ranks.trailing_zeros() as usize;
        ranks &= ranks - 1;
        moves.push(Move::new(b, CELL_ORDER[i] as usize));
    }
}
