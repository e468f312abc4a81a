//! Ultimate Tic-Tac-Toe with bitboards, an incremental Zobrist hash and game knowledge.
//!
//! # Rules
//! Nine 3×3 boards in a 3×3 grid; X moves first. The cell a move takes decides the board the
//! opponent must play in next; when that board is decided (won or full) the opponent may play
//! in any open board. A small board is won by three in a row and is then closed; the game is
//! won by three won boards in a row. When every board is decided without that, the game is a
//! draw. (A proof asks whether the side to move wins, so a draw disproves.)
//!
//! # Notation
//! The position notation of Nelson Elhage's public UTTT solver `ultimattt`, so positions can be
//! exchanged: `P;MMMMMMMMM;ccccccccc/…/ccccccccc`. `P` is the side to move (`X` or `O`); then
//! the nine boards in order 0–8 (`X`/`O` won, `#` drawn, `.` open, `@` the open board the next
//! move must be played in; no `@` means any open board); then the 81 cells as nine groups of
//! nine (`X`, `O`, `.`), board by board, each row-major. A move is two letters `a`–`i`: the
//! board, then the cell (`ea` is the top-left cell of the centre board). See [`notation`].
//!
//! # Representation
//! Each player has a 9-bit mask per board and a 9-bit mask of boards won; tables of the 512
//! masks say which hold three in a row and which cells would complete one (the `tables` module). The
//! hash is Zobrist's (1970): one random key per (player, cell), per forced board and for the
//! side to move, XORed in and out by `play` and `undo`.
//!
//! # What the game tells the solver
//! Besides finished games, [`outcome`](Game::outcome) reports immediate wins, wins two plies
//! deep, forced losses, and the bounds "cannot win" / "cannot lose" when a player has no line
//! of boards left; [`generate_moves`](Game::generate_moves) leaves out moves that let the
//! opponent win at once and lists the rest best first. The rules, after the published ideas of
//! the `ultimattt` solver, are stated exactly in [`knowledge`]; each can be switched off with
//! [`Uttt::with_knowledge`] (tests and benchmarks compare against the plain game).

use core::fmt;

use proofnum::{Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule};

pub mod knowledge;
mod moves;
pub mod notation;
mod tables;

pub use knowledge::{Knowledge, Rule};
pub use notation::ParseError;

use tables::{FULL, KEY_O_TO_MOVE, KEY_TARGET, KEYS, LINE_FREE, THREE};

/// "No forced board": the next move may go in any open board.
const ANY: u8 = 9;

/// A move: board `0..9` and cell `0..9`, packed as `9·board + cell`. Prints as two letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(pub u8);

impl Move {
    /// The move to `cell` of `board` (both `0..9`).
    pub const fn new(board: usize, cell: usize) -> Move {
        Move((board * 9 + cell) as u8)
    }

    /// The board, `0..9`.
    pub const fn board(self) -> usize {
        self.0 as usize / 9
    }

    /// The cell inside the board, `0..9`.
    pub const fn cell(self) -> usize {
        self.0 as usize % 9
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over.
    GameOver,
    /// The move is not in the board the previous move sent the player to.
    WrongBoard,
    /// The board is decided (won or full).
    BoardClosed,
    /// The cell is taken.
    CellTaken,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::GameOver => "the game is over",
            MoveError::WrongBoard => "the move must be played in the forced board",
            MoveError::BoardClosed => "that board is already decided",
            MoveError::CellTaken => "that cell is taken",
        })
    }
}

/// The state of one small board (and of the whole game, for [`Uttt::board_state`] of the grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardState {
    /// Still open.
    Open,
    /// Won by a player.
    Won(Player),
    /// Full without three in a row.
    Drawn,
}

/// An Ultimate Tic-Tac-Toe position.
#[derive(Clone, Debug)]
pub struct Uttt {
    /// `cells[player][board]`: 9-bit masks of the player's stones.
    cells: [[u16; 9]; 2],
    /// Boards won, per player.
    won: [u16; 2],
    /// Boards decided (won or full).
    closed: u16,
    /// Per player, the open boards it can still win: some line of cells holds none of the
    /// other player's stones (kept up to date by `play` and `undo` for the "cannot win" rule).
    alive: [u16; 2],
    /// The board the next move must be played in, or [`ANY`].
    target: u8,
    to_move: Player,
    hash: u64,
    /// The forced board before each move played since the position was set up (for `undo`).
    history: [u8; 81],
    /// [`alive`](Uttt::alive) before each move played (for `undo`).
    alive_history: [[u16; 2]; 81],
    plies: u8,
    /// The rules [`outcome`](Game::outcome) and [`generate_moves`](Game::generate_moves) use.
    knowledge: Knowledge,
}

impl PartialEq for Uttt {
    /// Same stones, forced board and side to move (the undo history and the knowledge
    /// switches are not compared).
    fn eq(&self, other: &Uttt) -> bool {
        self.cells == other.cells && self.target == other.target && self.to_move == other.to_move
    }
}

impl Eq for Uttt {}

impl Default for Uttt {
    fn default() -> Self {
        Self::new()
    }
}

impl Uttt {
    /// The empty grid, X to move anywhere.
    pub fn new() -> Uttt {
        let mut g = Uttt {
            cells: [[0; 9]; 2],
            won: [0; 2],
            closed: 0,
            alive: [FULL; 2],
            target: ANY,
            to_move: Player::First,
            hash: 0,
            history: [0; 81],
            alive_history: [[0; 2]; 81],
            plies: 0,
            knowledge: Knowledge::ALL,
        };
        g.hash = g.full_hash();
        g
    }

    /// The same position using only the rules of `knowledge` (every position starts with
    /// [`Knowledge::ALL`]; [`Knowledge::NONE`] is the plain game).
    pub fn with_knowledge(mut self, knowledge: Knowledge) -> Uttt {
        self.knowledge = knowledge;
        self
    }

    /// Switches the rules of this position to `knowledge`.
    pub fn set_knowledge(&mut self, knowledge: Knowledge) {
        self.knowledge = knowledge;
    }

    /// The rules this position uses.
    pub fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    /// The hash computed from scratch (play and undo keep it up to date incrementally).
    fn full_hash(&self) -> u64 {
        let mut h = KEYS[KEY_TARGET + self.target as usize];
        for p in 0..2 {
            for b in 0..9 {
                for c in 0..9 {
                    if self.cells[p][b] & 1 << c != 0 {
                        h ^= KEYS[p * 81 + b * 9 + c];
                    }
                }
            }
        }
        if self.to_move == Player::Second {
            h ^= KEYS[KEY_O_TO_MOVE];
        }
        h
    }

    /// Recomputes both players' [`alive`](Uttt::alive) bit of board `b`, an open board, from
    /// its cells.
    #[inline]
    fn refresh_alive(&mut self, b: usize) {
        let x_can = LINE_FREE[self.cells[1][b] as usize] as u16;
        let o_can = LINE_FREE[self.cells[0][b] as usize] as u16;
        self.alive[0] = self.alive[0] & !(1 << b) | x_can << b;
        self.alive[1] = self.alive[1] & !(1 << b) | o_can << b;
    }

    /// The player in `cell` of `board`.
    pub fn at(&self, board: usize, cell: usize) -> Option<Player> {
        let bit = 1 << cell;
        if self.cells[0][board] & bit != 0 {
            Some(Player::First)
        } else if self.cells[1][board] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The state of small board `board`.
    pub fn board_state(&self, board: usize) -> BoardState {
        let bit = 1 << board;
        if self.won[0] & bit != 0 {
            BoardState::Won(Player::First)
        } else if self.won[1] & bit != 0 {
            BoardState::Won(Player::Second)
        } else if self.closed & bit != 0 {
            BoardState::Drawn
        } else {
            BoardState::Open
        }
    }

    /// The board the next move must be played in, or `None` for a free choice.
    pub fn forced_board(&self) -> Option<usize> {
        (self.target != ANY).then_some(self.target as usize)
    }

    /// The winner of the game, if a player has three won boards in a row.
    pub fn winner(&self) -> Option<Player> {
        if THREE[self.won[0] as usize] {
            Some(Player::First)
        } else if THREE[self.won[1] as usize] {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// True when the game is won or every board is decided.
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.closed == FULL
    }

    /// Stones on the grid.
    pub fn stones(&self) -> u32 {
        self.cells.iter().flatten().map(|m| m.count_ones()).sum()
    }

    /// Boards the next move may be played in.
    #[inline]
    pub(super) fn playable(&self) -> u16 {
        if self.target == ANY {
            FULL & !self.closed
        } else {
            1 << self.target
        }
    }

    /// Free cells of `board`.
    #[inline]
    pub(super) fn empty(&self, board: usize) -> u16 {
        FULL & !(self.cells[0][board] | self.cells[1][board])
    }

    /// Plays `mv` after checking that it is legal.
    pub fn try_play(&mut self, mv: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let (b, c) = (mv.board(), mv.cell());
        if self.closed & 1 << b != 0 {
            return Err(MoveError::BoardClosed);
        }
        if self.playable() & 1 << b == 0 {
            return Err(MoveError::WrongBoard);
        }
        if self.empty(b) & 1 << c == 0 {
            return Err(MoveError::CellTaken);
        }
        self.play(mv);
        Ok(())
    }

    /// A 9×9 picture of the grid, row by row, with the forced board's cells marked `*`.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in 0..9 {
            if row > 0 && row % 3 == 0 {
                s.push_str("------+-------+------\n");
            }
            for col in 0..9 {
                if col > 0 && col % 3 == 0 {
                    s.push_str("| ");
                }
                let (b, c) = (row / 3 * 3 + col / 3, row % 3 * 3 + col % 3);
                s.push(match self.at(b, c) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None if self.playable() & 1 << b != 0 && !self.is_over() => '*',
                    None => '.',
                });
                s.push(if col == 8 { '\n' } else { ' ' });
            }
        }
        s
    }
}

/// A move's code is its cell number, `board * 9 + cell` (0..81).
impl MoveCodec for Uttt {
    fn encode_move(mv: Move) -> u64 {
        mv.0 as u64
    }

    fn decode_move(code: u64) -> Option<Move> {
        (code < 81).then_some(Move(code as u8))
    }
}

impl Game for Uttt {
    type Move = Move;

    /// Cells only fill: no position can repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Both players' cells, the board the next move must go to, and the side to move: the
    /// rest (boards won and closed) follows from them. 38 bytes.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        for (i, &cells) in self.cells.iter().flatten().enumerate() {
            out[2 * i..2 * i + 2].copy_from_slice(&cells.to_le_bytes());
        }
        out[36] = self.target;
        out[37] = self.to_move.index() as u8;
        Some(38)
    }

    /// Finished games, and what the rules of [`knowledge`] switched on establish.
    fn outcome(&self) -> Outcome {
        self.verdict().0
    }

    /// The legal moves, less the losing ones and best first (the `moves` module documents the order).
    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        self.list_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let (b, c) = (mv.board(), mv.cell());
        let me = self.to_move.index();
        self.cells[me][b] |= 1 << c;
        self.hash ^= KEYS[me * 81 + mv.0 as usize];
        self.alive_history[self.plies as usize] = self.alive;
        if THREE[self.cells[me][b] as usize] {
            self.won[me] |= 1 << b;
            self.closed |= 1 << b;
            self.alive[0] &= !(1 << b);
            self.alive[1] &= !(1 << b);
        } else if self.cells[0][b] | self.cells[1][b] == FULL {
            self.closed |= 1 << b;
            self.alive[0] &= !(1 << b);
            self.alive[1] &= !(1 << b);
        } else if !LINE_FREE[self.cells[me][b] as usize] {
            // My stone took the opponent's last free line in this board.
            self.alive[1 - me] &= !(1 << b);
        }
        self.history[self.plies as usize] = self.target;
        self.plies += 1;
        let next = if self.closed & 1 << c != 0 {
            ANY
        } else {
            c as u8
        };
        self.hash ^= KEYS[KEY_TARGET + self.target as usize] ^ KEYS[KEY_TARGET + next as usize];
        self.target = next;
        self.to_move = self.to_move.opponent();
        self.hash ^= KEYS[KEY_O_TO_MOVE];
    }

    #[inline]
    fn undo(&mut self, mv: Move) {
        let (b, c) = (mv.board(), mv.cell());
        self.to_move = self.to_move.opponent();
        self.hash ^= KEYS[KEY_O_TO_MOVE];
        let me = self.to_move.index();
        self.plies -= 1;
        let previous = self.history[self.plies as usize];
        self.hash ^= KEYS[KEY_TARGET + self.target as usize] ^ KEYS[KEY_TARGET + previous as usize];
        self.target = previous;
        self.cells[me][b] &= !(1 << c);
        self.hash ^= KEYS[me * 81 + mv.0 as usize];
        // The board was open before the move.
        self.won[me] &= !(1 << b);
        self.closed &= !(1 << b);
        self.alive = self.alive_history[self.plies as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_kept_up_to_date() {
        let mut g = Uttt::new();
        let line = ["ea", "ai", "ie", "ea"];
        let mut played = Vec::new();
        for m in line.iter().take(3) {
            let mv: Move = m.parse().unwrap();
            g.try_play(mv).unwrap();
            played.push(mv);
            assert_eq!(g.hash, g.full_hash());
        }
        for mv in played.into_iter().rev() {
            g.undo(mv);
            assert_eq!(g.hash, g.full_hash());
        }
        assert_eq!(g, Uttt::new());
    }

    /// `alive` as it should be, from the cells.
    fn alive_from_scratch(g: &Uttt) -> [u16; 2] {
        let mut alive = [0; 2];
        for (p, mask) in alive.iter_mut().enumerate() {
            for b in 0..9 {
                if g.closed & 1 << b == 0 && LINE_FREE[g.cells[1 - p][b] as usize] {
                    *mask |= 1 << b;
                }
            }
        }
        alive
    }

    #[test]
    fn alive_boards_are_kept_up_to_date() {
        let mut state = 12345u64;
        for _ in 0..200 {
            let mut g = Uttt::new().with_knowledge(Knowledge::NONE);
            let mut line = Vec::new();
            while g.outcome() == Outcome::Unknown {
                let mut slots = [Move::default(); 81];
                let mut list = MoveList::new(&mut slots);
                g.generate_moves(&mut list);
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = list.as_slice()[(state >> 33) as usize % list.len()];
                g.play(mv);
                line.push(mv);
                assert_eq!(g.alive, alive_from_scratch(&g), "{g}");
                let reparsed: Uttt = g.to_string().parse().unwrap();
                assert_eq!(reparsed.alive, g.alive, "{g}");
            }
            while let Some(mv) = line.pop() {
                g.undo(mv);
                assert_eq!(g.alive, alive_from_scratch(&g), "{g}");
            }
        }
    }
}
