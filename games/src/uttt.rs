//! Ultimate Tic-Tac-Toe with bitboards and an incremental Zobrist hash.
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
//! board, then the cell (`ea` is the top-left cell of the centre board).
//!
//! # Representation
//! Each player has a 9-bit mask per board and a 9-bit mask of boards won; a table of the 512
//! masks says which hold three in a row and which cells would complete one. The hash is
//! Zobrist's (1970): one random key per (player, cell), per forced board and for the side to
//! move, XORed in and out by `play` and `undo`.
//!
//! # What the game tells the solver
//! [`outcome`](Game::outcome) reports, beyond finished games, only what is exactly true:
//! - a win when the side to move can win a board that completes three won boards in a row;
//! - a draw when neither player can still get three boards in a row (every line holds a board
//!   won by the other player or drawn);
//! - a loss when every move sends the opponent to a board (or gives a free choice of boards)
//!   where the opponent wins the game at once. Moves whose consequences this quick test cannot
//!   see for sure (a move that sends the opponent back into the board it was played in) count
//!   as safe, so the test never claims a loss that is not one.

use core::fmt;
use core::str::FromStr;

use proofnum::{Game, MoveList, Outcome, Player, RepetitionRule};

/// The eight lines of a 3×3 board, as 9-bit masks (bit `3·row + column`).
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
/// All nine cells (or boards).
const FULL: u16 = 0x1FF;
/// "No forced board": the next move may go in any open board.
const ANY: u8 = 9;

const fn has_line(m: u16) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if m & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// `THREE[m]`: mask `m` holds three in a row.
static THREE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = has_line(m as u16);
        m += 1;
    }
    t
};

/// `COMPLETES[m]`: the cells `c` (free or not) for which `m | 1 << c` holds three in a row.
static COMPLETES: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut c = 0;
        while c < 9 {
            if has_line(m as u16 | 1 << c) {
                t[m] |= 1 << c;
            }
            c += 1;
        }
        m += 1;
    }
    t
};

/// `LINE_FREE[blocked]`: some line avoids every board in `blocked`.
static LINE_FREE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if m as u16 & LINES[i] == 0 {
                t[m] = true;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// SplitMix64 (Steele, Lea and Flood 2014) as a `const fn`, to fill the Zobrist tables.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: 162 for (player, cell), 10 for the forced board (or none), one for O to move.
const KEYS: [u64; 173] = {
    let mut k = [0u64; 173];
    let mut state = 0x5EED_0F00_717A_7E00_u64;
    let mut i = 0;
    while i < 173 {
        let (s, z) = splitmix(state);
        state = s;
        k[i] = z;
        i += 1;
    }
    k
};
const KEY_TARGET: usize = 162;
const KEY_O_TO_MOVE: usize = 172;

/// Cells tried first: the centre, the corners, then the edges (they lie on most lines).
const CELL_ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

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
                    "move {s:?}: board and cell are letters a to i"
                ))),
            },
            _ => Err(ParseError::new(format!(
                "move {s:?}: expected two letters, board then cell"
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
    /// The board the next move must be played in, or [`ANY`].
    target: u8,
    to_move: Player,
    hash: u64,
    /// The forced board before each move played since the position was set up (for `undo`).
    history: [u8; 81],
    plies: u8,
}

impl PartialEq for Uttt {
    /// Same stones, forced board and side to move (the undo history is not compared).
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
            target: ANY,
            to_move: Player::First,
            hash: 0,
            history: [0; 81],
            plies: 0,
        };
        g.hash = g.full_hash();
        g
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
    fn playable(&self) -> u16 {
        if self.target == ANY {
            FULL & !self.closed
        } else {
            1 << self.target
        }
    }

    /// Free cells of `board`.
    #[inline]
    fn empty(&self, board: usize) -> u16 {
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

    /// Boards where `who` would win the game by winning them, and can win them at once.
    #[inline]
    fn game_winning_boards(&self, who: usize, among: u16) -> u16 {
        let mut boards = among & COMPLETES[self.won[who] as usize];
        let mut found = 0;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            if COMPLETES[self.cells[who][b] as usize] & self.empty(b) != 0 {
                found |= 1 << b;
            }
        }
        found
    }

    /// The exact-loss test of the module docs, for a side to move that cannot win at once.
    fn every_move_loses(&self, me: usize) -> bool {
        let them = 1 - me;
        let open = FULL & !self.closed;
        let threats = self.game_winning_boards(them, open);
        if threats == 0 {
            return false;
        }
        let mut boards = self.playable();
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let bit = 1u16 << b;
            // Destinations (cells of b) after which the opponent surely wins at once: an open
            // board other than b where it wins, or a decided board (a free choice) while it
            // wins somewhere other than b.
            let mut losing = threats & !bit;
            if threats & !bit != 0 {
                losing |= self.closed;
            }
            losing &= !bit;
            if self.empty(b) & !losing != 0 {
                return false;
            }
        }
        true
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

    fn outcome(&self) -> Outcome {
        let me = self.to_move.index();
        let them = 1 - me;
        if THREE[self.won[them] as usize] {
            return Outcome::Loss;
        }
        let open = FULL & !self.closed;
        if open == 0 {
            return Outcome::Draw;
        }
        if self.game_winning_boards(me, self.playable()) != 0 {
            return Outcome::Win;
        }
        let drawn = self.closed & !(self.won[0] | self.won[1]);
        if !LINE_FREE[(self.won[them] | drawn) as usize]
            && !LINE_FREE[(self.won[me] | drawn) as usize]
        {
            return Outcome::Draw;
        }
        if self.every_move_loses(me) {
            return Outcome::Loss;
        }
        Outcome::Unknown
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        let mut boards = self.playable();
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let empty = self.empty(b);
            for c in CELL_ORDER {
                if empty & 1 << c != 0 {
                    moves.push(Move::new(b, c as usize));
                }
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let (b, c) = (mv.board(), mv.cell());
        let me = self.to_move.index();
        self.cells[me][b] |= 1 << c;
        self.hash ^= KEYS[me * 81 + mv.0 as usize];
        if THREE[self.cells[me][b] as usize] {
            self.won[me] |= 1 << b;
            self.closed |= 1 << b;
        } else if self.cells[0][b] | self.cells[1][b] == FULL {
            self.closed |= 1 << b;
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
    }
}

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
            _ => return err(format!("side to move {player:?}: expected X or O")),
        };
        let marks: Vec<char> = big.chars().collect();
        if marks.len() != 9 {
            return err(format!(
                "board section {big:?}: expected 9 characters, found {}",
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
                    "board {name} ({group:?}): expected 9 cells, found {}",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert!(THREE[0b000_000_111]);
        assert!(!THREE[0b000_000_011]);
        assert_eq!(COMPLETES[0b000_000_011], 0b000_000_100);
        assert_eq!(COMPLETES[0b000_010_001], 0b100_000_000);
        assert!(LINE_FREE[0]);
        assert!(!LINE_FREE[0b001_010_100 | 0b100_010_001 | 0b010_000_010 | 0b000_101_000]);
    }

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
}
