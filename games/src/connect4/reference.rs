//! An independent Connect Four solver for tests and test suites: negamax with alpha-beta
//! pruning and a transposition table, computing exact scores. It is *not* proofnum, and it
//! shares no code with [`super::Board`]: its own grid, its own four-in-a-row test (counting
//! stones outwards from a cell), its own keys. Where it and proofnum's df-pn agree, two
//! unrelated searches over two unrelated move generators agree.
//!
//! # Scores
//! The convention of Pascal Pons' solver and test suites ("Solving Connect 4", 2016): a
//! position's score is from the side to move's view, positive when it wins, 0 for a draw,
//! negative when it loses, and larger the sooner the winner connects four. A win completed
//! by the `m`-th stone of the game scores `1 + ⌊(W·H − m) / 2⌋` for the winner: on the 7×6
//! board `22 − k` when the winner's `k`-th stone connects (1 for a win with one's last stone,
//! 18 for the fastest possible win). [`score_of_win`] computes it.
//!
//! # Search
//! Plain negamax with the classic Connect Four refinements, all exact: a move that connects
//! four is taken at once; moves that let the opponent connect four next are skipped (two
//! opponent threats lose); the score's possible range narrows the window; a transposition table
//! keyed by the exact position keeps bounds; moves are tried by the number of threats they
//! create, then centre first. [`Solver::score`] finds the exact score with null-window searches
//! that bisect the range; [`Solver::value`] only its sign (one search with window (−1, 1)).

use proofnum::{Player, Value};

/// Cell states in [`Position`]'s grid.
const EMPTY: u8 = 0;

/// A Connect Four position as a plain grid: `cells[column][row]`, row 0 at the bottom, holding
/// 0 (empty), 1 (first player) or 2 (second player).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<const W: usize, const H: usize> {
    cells: [[u8; H]; W],
    heights: [usize; W],
    moves: usize,
    /// Per column: a marker bit above the top stone and the first player's stones below it.
    key: u64,
}

impl<const W: usize, const H: usize> Default for Position<W, H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const H: usize> Position<W, H> {
    /// Fails the build for shapes the key cannot hold.
    const SHAPE_OK: () = assert!(W >= 1 && W <= 9 && H >= 1 && W * (H + 1) <= 64);

    /// The empty board.
    pub fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::SHAPE_OK;
        let mut key = 0;
        for c in 0..W {
            key |= 1 << (c * (H + 1)); // every column's marker sits at height 0
        }
        Position {
            cells: [[EMPTY; H]; W],
            heights: [0; W],
            moves: 0,
            key,
        }
    }

    /// The position after a string of 1-based column digits; `Err` names the first move that
    /// is not a digit of this board, lands in a full column or comes after the game ended.
    pub fn from_moves(moves: &str) -> Result<Self, String> {
        let mut p = Self::new();
        for (i, ch) in moves.chars().enumerate() {
            let c = match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= W => d as usize - 1,
                _ => return Err(format!("move {}: {ch:?} is not a column", i + 1)),
            };
            if p.is_over() {
                return Err(format!("move {}: the game is over", i + 1));
            }
            if p.heights[c] == H {
                return Err(format!("move {}: column {ch} is full", i + 1));
            }
            p.play(c);
        }
        Ok(p)
    }

    /// Stones on the board.
    pub fn moves_played(&self) -> usize {
        self.moves
    }

    /// The side to move: 1 (first player) or 2.
    fn mover(&self) -> u8 {
        1 + (self.moves % 2) as u8
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        if self.moves % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Can `column` take a stone?
    pub fn can_play(&self, column: usize) -> bool {
        column < W && self.heights[column] < H
    }

    /// Drops the side to move's stone in `column`, which must have room.
    pub fn play(&mut self, column: usize) {
        let row = self.heights[column];
        let who = self.mover();
        self.cells[column][row] = who;
        self.heights[column] += 1;
        self.moves += 1;
        // The marker moves up one bit; a first-player stone leaves its bit behind.
        let bit = 1u64 << (column * (H + 1) + row);
        self.key += bit;
        if who == 1 {
            self.key += bit;
        }
    }

    /// Takes the top stone out of `column`.
    pub fn undo(&mut self, column: usize) {
        self.heights[column] -= 1;
        let row = self.heights[column];
        let who = self.cells[column][row];
        self.cells[column][row] = EMPTY;
        self.moves -= 1;
        let bit = 1u64 << (column * (H + 1) + row);
        if who == 1 {
            self.key -= bit;
        }
        self.key -= bit;
    }

    /// Would a stone of `who` at (`column`, `row`) complete four in a row?
    fn completes_four(&self, who: u8, column: usize, row: usize) -> bool {
        const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        DIRECTIONS.iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                let mut n = 0;
                let (mut c, mut r) = (column as isize, row as isize);
                loop {
                    c += sign * dc;
                    r += sign * dr;
                    if c < 0 || r < 0 || c >= W as isize || r >= H as isize {
                        return n;
                    }
                    if self.cells[c as usize][r as usize] != who {
                        return n;
                    }
                    n += 1;
                }
            };
            run(1) + run(-1) >= 3
        })
    }

    /// True when the last move connected four or the board is full.
    pub fn is_over(&self) -> bool {
        self.moves == W * H || self.last_move_won()
    }

    /// True when some stone of the player who moved last is part of four in a row.
    fn last_move_won(&self) -> bool {
        if self.moves == 0 {
            return false;
        }
        let who = 3 - self.mover();
        (0..W).any(|c| {
            (0..self.heights[c]).any(|r| {
                self.cells[c][r] == who && {
                    // A stone in a four completes it when put back.
                    let mut p = self.clone();
                    p.cells[c][r] = EMPTY;
                    p.completes_four(who, c, r)
                }
            })
        })
    }

    /// Can the side to move connect four with its next stone?
    pub fn can_win_now(&self) -> bool {
        let who = self.mover();
        (0..W).any(|c| self.can_play(c) && self.completes_four(who, c, self.heights[c]))
    }

    /// Empty cells next to `column`'s new stone at `row` where `who` would now complete four:
    /// the threats that stone helps create (for move ordering only).
    fn threats_through(&self, who: u8, column: usize, row: usize) -> u32 {
        let mut n = 0;
        for dc in -3isize..=3 {
            for dr in -3isize..=3 {
                let (c, r) = (column as isize + dc, row as isize + dr);
                let on_line = dc == 0 || dr == 0 || dc == dr || dc == -dr;
                if (dc, dr) == (0, 0) || !on_line {
                    continue;
                }
                if c < 0 || r < 0 || c >= W as isize || r >= H as isize {
                    continue;
                }
                let (c, r) = (c as usize, r as usize);
                if self.cells[c][r] == EMPTY && self.completes_four(who, c, r) {
                    n += 1;
                }
            }
        }
        n
    }
}

/// The score of a win completed by the `m`-th stone on a board of `cells` cells, for the
/// winner (see the module docs).
pub const fn score_of_win(cells: usize, m: usize) -> i32 {
    1 + ((cells - m) / 2) as i32
}

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One transposition-table slot.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    score: i8,
    bound: Bound,
}

const NO_KEY: u64 = 0; // never a position key: every column has a marker bit

/// The negamax solver. Keep one per board size and reuse it: stored bounds are facts about
/// positions, valid for any later search.
pub struct Solver<const W: usize, const H: usize> {
    table: Vec<Slot>,
    nodes: u64,
}

impl<const W: usize, const H: usize> Solver<W, H> {
    /// A solver with a table of `slots` entries (16 bytes each).
    pub fn new(slots: usize) -> Self {
        Solver {
            table: vec![
                Slot {
                    key: NO_KEY,
                    score: 0,
                    bound: Bound::Exact,
                };
                slots.max(1)
            ],
            nodes: 0,
        }
    }

    /// Positions searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact score of `p` for its side to move, or `None` when the game is over.
    pub fn score(&mut self, p: &mut Position<W, H>) -> Option<i32> {
        if p.is_over() {
            return None;
        }
        let (cells, n) = (W * H, p.moves);
        if p.can_win_now() {
            return Some(score_of_win(cells, n + 1));
        }
        // Bisect the range of possible scores with null-window searches, trying 0 and the
        // ranges' halves first, where results usually are.
        let mut lo = -(((cells - n) / 2) as i32);
        let mut hi = ((cells + 1 - n) / 2) as i32;
        while lo < hi {
            let mut mid = lo + (hi - lo) / 2;
            if mid <= 0 && lo / 2 < mid {
                mid = lo / 2;
            } else if mid >= 0 && hi / 2 > mid {
                mid = hi / 2;
            }
            let r = self.negamax(p, mid, mid + 1);
            if r <= mid {
                hi = r;
            } else {
                lo = r;
            }
        }
        Some(lo)
    }

    /// Win, draw or loss for the side to move, or `None` when the game is over.
    pub fn value(&mut self, p: &mut Position<W, H>) -> Option<Value> {
        if p.is_over() {
            return None;
        }
        if p.can_win_now() {
            return Some(Value::Win);
        }
        let r = self.negamax(p, -1, 1);
        Some(match r.signum() {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        })
    }

    /// Fail-hard negamax: the result `r` is the exact score when `alpha < r < beta`, an upper
    /// bound when `r <= alpha` and a lower bound when `r >= beta`. The side to move must not be
    /// able to connect four at once, and the game must not be over.
    fn negamax(&mut self, p: &mut Position<W, H>, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let (cells, n) = (W * H, p.moves);
        let me = p.mover();
        let them = 3 - me;

        // Moves that do not let the opponent connect four next.
        let mut forced = None;
        let mut threats = 0;
        for c in 0..W {
            if p.can_play(c) && p.completes_four(them, c, p.heights[c]) {
                threats += 1;
                forced = Some(c);
            }
        }
        if threats >= 2 {
            return -score_of_win(cells, n + 2);
        }
        let mut moves = [(0u32, 0usize); W];
        let mut count = 0;
        for c in centre_out::<W>() {
            if !p.can_play(c) || forced.is_some_and(|f| f != c) {
                continue;
            }
            let row = p.heights[c];
            if row + 1 < H && p.completes_four(them, c, row + 1) {
                continue; // the opponent would connect four on top of it
            }
            moves[count] = (0, c);
            count += 1;
        }
        if count == 0 {
            return -score_of_win(cells, n + 2);
        }
        if n + 2 >= cells {
            return 0; // our move cannot lose, the opponent's last cannot win: a draw
        }

        // The opponent cannot connect four before move n + 4, nor we before n + 3.
        let min = -(((cells - 2 - n) / 2) as i32);
        let max = ((cells - 1 - n) / 2) as i32;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let index = (p.key % self.table.len() as u64) as usize;
        let slot = self.table[index];
        if slot.key == p.key {
            let s = slot.score as i32;
            match slot.bound {
                Bound::Exact => return s,
                Bound::Lower if s > alpha => alpha = s,
                Bound::Upper if s < beta => beta = s,
                _ => {}
            }
            if alpha >= beta {
                return alpha;
            }
        }

        // Most threats first; the centre-out order breaks ties (the sort is stable).
        for (threats, c) in moves[..count].iter_mut() {
            let row = p.heights[*c];
            p.play(*c);
            *threats = p.threats_through(me, *c, row);
            p.undo(*c);
        }
        moves[..count].sort_by_key(|&(t, _)| core::cmp::Reverse(t));

        let alpha_in = alpha;
        for &(_, c) in &moves[..count] {
            p.play(c);
            let r = -self.negamax(p, -beta, -alpha);
            p.undo(c);
            if r >= beta {
                self.store(index, p.key, r, Bound::Lower);
                return r;
            }
            if r > alpha {
                alpha = r;
            }
        }
        let bound = if alpha > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(index, p.key, alpha, bound);
        alpha
    }

    fn store(&mut self, index: usize, key: u64, score: i32, bound: Bound) {
        self.table[index] = Slot {
            key,
            score: score as i8,
            bound,
        };
    }
}

/// Columns from the centre outwards.
fn centre_out<const W: usize>() -> impl Iterator<Item = usize> {
    (0..W).map(|i| {
        let step = (i as isize + 1) / 2;
        let side = if i % 2 == 1 { -1 } else { 1 };
        (W as isize / 2 + side * step) as usize
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_restored() {
        let mut p = Position::<7, 6>::from_moves("4453").unwrap();
        let k = p.key;
        p.play(0);
        assert_ne!(p.key, k);
        p.undo(0);
        assert_eq!(p.key, k);
        let q = Position::<7, 6>::from_moves("3454").unwrap();
        assert_ne!(q.key, k, "same stones, different colours");
    }

    #[test]
    fn scores_follow_pons_convention() {
        // The first player wins with its 4th stone (7th stone in all): 22 - 4.
        assert_eq!(score_of_win(42, 7), 18);
        // Either player wins with its last stone: 1.
        assert_eq!(score_of_win(42, 41), 1);
        assert_eq!(score_of_win(42, 42), 1);
    }
}
