//! Chess on the [`cozy_chess`] move generator: the question "can this side force checkmate?".
//!
//! [`Chess`] is one position with make/unmake. cozy-chess boards are copy-make, so the game
//! keeps a stack of boards (each with the game's own Zobrist hash, see `zobrist.rs`) and
//! [`undo`](Game::undo) pops one. Moves are [`Move`], a packed 16-bit integer. White is [`Player::First`], Black [`Player::Second`].
//!
//! # The game the solver sees
//! - **Checkmate** is a loss for the side to move; **stalemate** is a draw. A search for
//!   attacker X ([`proofnum::Dfpn::solve`] with X's player) therefore answers "can X force
//!   checkmate?": draws and X's own loss disprove.
//! - **Repetitions** are draws ([`RepetitionRule::Draw`]): a line that comes back to a position
//!   on its own path ends there, drawn. The hash is a Zobrist hash of the pieces, the side to
//!   move, the castling rights and the en passant file (set by cozy-chess after every double
//!   pawn push, capturable or not: the position after a double push can never repeat, so this
//!   only costs a few transpositions), kept by the game so that [`Game::peek`] can tell a
//!   child's hash without playing the move.
//! - **The fifty-move rule** is off by default ([`Rules::fifty_move_rule`]). With it, a
//!   position whose halfmove clock reached 100 is a draw unless the side to move is mated, and
//!   the clock is part of the position (and of the hash), so no position repeats any more:
//!   the game becomes finite, and its value is the same as with repetitions counted as draws
//!   plus the clock (a winning side never needs to repeat).
//! - **Checks only** ([`Rules::checks_only`]): the classic mate-solver restriction. The named
//!   attacker may only play moves that give check; when it has legal moves but none gives
//!   check, the game ends as a draw there (the attacker failed). The defender plays every
//!   legal move. A proof in this game is a proof in chess (the attacker's strategy is legal
//!   there, the defender's options are the same), and it is a mate *by checks*; a disproof
//!   only says there is no mate by checks. The mode is part of the hash, so the two games
//!   can share a table.
//!
//! What the game knows without search ([`Knowledge`]: mate in one, material that cannot mate,
//! move order, df-pn+ estimates) is described in `knowledge.rs`; mate distances ("mate in N",
//! exact or an upper bound) in [`mate`]; move text (UCI, SAN) and board diagrams in
//! [`notation`].

mod check;
mod knowledge;
pub mod mate;
mod zobrist;

pub mod notation;

use core::cell::Cell;

use cozy_chess::{Board, Color, Piece, Square};
use proofnum::{Game, MoveCodec, MoveList, Numbers, Outcome, Player, RepetitionRule, Value};

pub use check::{CheckSquares, gives_check};
pub use knowledge::{Knowledge, cannot_mate, has_mate_in_one, mating_move};
pub use notation::FenError;

/// The most legal moves a chess position can have (218 is the known maximum); a solver built
/// for chess needs `max_moves` of at least this.
pub const MAX_MOVES: usize = 256;

/// Boards reserved for the undo stack when a position is made: lines up to this many plies
/// deep play without allocating (deeper ones grow the stack).
pub const RESERVED_PLIES: usize = 1024;

/// The player of a colour: White moves first.
#[inline]
pub const fn player(color: Color) -> Player {
    match color {
        Color::White => Player::First,
        Color::Black => Player::Second,
    }
}

/// The colour of a player: [`Player::First`] is White.
#[inline]
pub const fn color(player: Player) -> Color {
    match player {
        Player::First => Color::White,
        Player::Second => Color::Black,
    }
}

/// A chess move packed in 16 bits: origin square (bits 0–5), destination square (6–11) and
/// promotion piece (12–14: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Squares are
/// cozy-chess's indices (a1 = 0, b1 = 1, …, h8 = 63). Castling is stored the cozy-chess way,
/// as the king "capturing" its own rook (`e1h1`); [`notation`] prints it as UCI does
/// (`e1g1`). The default, `a1a1`, is never a legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    /// The origin square.
    #[inline]
    pub fn from_square(self) -> Square {
        Square::index(usize::from(self.0 & 63))
    }

    /// The destination square (the rook's square for castling).
    #[inline]
    pub fn to_square(self) -> Square {
        Square::index(usize::from(self.0 >> 6 & 63))
    }

    /// The piece a pawn promotes to, if any.
    #[inline]
    pub fn promotion(self) -> Option<Piece> {
        match self.0 >> 12 & 7 {
            1 => Some(Piece::Knight),
            2 => Some(Piece::Bishop),
            3 => Some(Piece::Rook),
            4 => Some(Piece::Queen),
            _ => None,
        }
    }

    /// The cozy-chess move.
    #[inline]
    pub fn to_cozy(self) -> cozy_chess::Move {
        cozy_chess::Move {
            from: self.from_square(),
            to: self.to_square(),
            promotion: self.promotion(),
        }
    }
}

impl From<cozy_chess::Move> for Move {
    #[inline]
    fn from(mv: cozy_chess::Move) -> Move {
        let promotion = match mv.promotion {
            Some(Piece::Knight) => 1,
            Some(Piece::Bishop) => 2,
            Some(Piece::Rook) => 3,
            Some(Piece::Queen) => 4,
            _ => 0,
        };
        Move(mv.from as u16 | (mv.to as u16) << 6 | promotion << 12)
    }
}

/// The rules of a chess game beyond the board (both off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// A position whose halfmove clock reached 100 is drawn unless the side to move is mated;
    /// the clock becomes part of the position.
    pub fifty_move_rule: bool,
    /// Checks-only mode for this attacker: it may only give check, and a position where it
    /// has legal moves but no checking one is a draw. See the module docs.
    pub checks_only: Option<Player>,
}

/// A chess position with make/unmake, for the solver.
///
/// ```
/// use proofnum::{Dfpn, Player, Table};
/// use proofnum_games::chess::{Chess, MAX_MOVES};
///
/// // Fool's mate: Black to move mates in one (Qh4#).
/// let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
/// let mut chess = Chess::from_fen(fen).unwrap();
/// let mut table_bytes = vec![0u8; 1 << 16];
/// let mut table = Table::new(&mut table_bytes).unwrap();
/// let mut stack = vec![0u8; Dfpn::<Chess>::stack_bytes(64, MAX_MOVES)];
/// let mut dfpn = Dfpn::<Chess>::new(&mut stack, 64, MAX_MOVES, Default::default()).unwrap();
/// let result = dfpn.solve(&mut chess, Player::Second, &mut table, &mut Default::default());
/// assert!(result.is_proven());
/// // Mate in one is seen without search (`Knowledge::MATE_IN_ONE`): the root is decided by
/// // `outcome`, so the search names no move; the game does.
/// assert_eq!(chess.uci(chess.mating_move().unwrap()), "d8h4");
/// ```
#[derive(Clone, Debug)]
pub struct Chess {
    /// The boards of the line played so far with their hashes (`zobrist::key_of`); the last
    /// one is the current position.
    boards: Vec<(Board, u64)>,
    rules: Rules,
    knowledge: Knowledge,
    /// The legal move count `outcome` found for the position with this Zobrist hash, for the
    /// `estimate` the search asks next (one move generation instead of two).
    legal_moves_seen: Cell<Option<(u64, u32)>>,
    /// When set, the attacker's knowledge (mates in one, the flight-square estimate) goes to
    /// this side only.
    attacker: Option<Player>,
}

impl PartialEq for Chess {
    /// The same current position (cozy-chess's equality: pieces, side, castling, en passant,
    /// clocks) and rules; the line that led to it and the knowledge switches are not compared.
    fn eq(&self, other: &Chess) -> bool {
        self.board() == other.board() && self.rules == other.rules
    }
}

impl Default for Chess {
    fn default() -> Self {
        Chess::startpos()
    }
}

impl Chess {
    /// The game from `board`, with default rules and every piece of knowledge. `board` must be
    /// a position this game can play: cozy-chess builds some it cannot
    /// ([`notation::unplayable`] says which, and why; [`Chess::from_fen`] refuses them).
    pub fn new(board: Board) -> Chess {
        let mut boards = Vec::with_capacity(RESERVED_PLIES);
        let key = zobrist::key_of(&board);
        boards.push((board, key));
        Chess {
            boards,
            rules: Rules::default(),
            knowledge: Knowledge::ALL,
            legal_moves_seen: Cell::new(None),
            attacker: None,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Chess {
        Chess::new(Board::startpos())
    }

    /// The position of a FEN string. Only the pieces and the side to move are needed: the
    /// castling rights and en-passant square default to none, the halfmove clock and fullmove
    /// number to 0 and 1 ([`notation::parse_fen`]). Positions cozy-chess rejects (the side
    /// not to move in check, pawns on the back ranks, castling rights without the pieces, …)
    /// are errors, and so are the ones it accepts that this game cannot play
    /// ([`notation::unplayable`]: kings on adjacent squares, Chess960 castling rights).
    pub fn from_fen(fen: &str) -> Result<Chess, FenError> {
        notation::parse_fen(fen).map(Chess::new)
    }

    /// The same game under `rules`.
    pub fn with_rules(mut self, rules: Rules) -> Chess {
        self.rules = rules;
        self
    }

    /// The same game with the fifty-move rule on or off.
    pub fn with_fifty_move_rule(mut self, on: bool) -> Chess {
        self.rules.fifty_move_rule = on;
        self
    }

    /// The same game in checks-only mode for `attacker` (see the module docs).
    pub fn with_checks_only(mut self, attacker: Player) -> Chess {
        self.rules.checks_only = Some(attacker);
        self
    }

    /// The same game using only the knowledge in `knowledge` ([`Knowledge::NONE`]: the plain
    /// rules, to check the knowledge against).
    pub fn with_knowledge(mut self, knowledge: Knowledge) -> Chess {
        self.knowledge = knowledge;
        self
    }

    /// Names the side trying to mate (`None`: both, the default): mates in one
    /// ([`Knowledge::MATE_IN_ONE`]) are then looked for, and the estimate's flight squares
    /// ([`Knowledge::ESTIMATE`]) counted, only where it is to move. In a search for attacker
    /// X, the defender's own mates in one are rare and the search finds them a ply later, and
    /// the flight squares say how hard X's mate is, not how hard the defence; the value of
    /// every position is the same either way. [`mate::solve_mate`] sets it.
    pub fn set_attacker(&mut self, side: Option<Player>) {
        self.attacker = side;
    }

    /// The side set by [`set_attacker`](Chess::set_attacker) (`None`: both).
    pub fn attacker(&self) -> Option<Player> {
        self.attacker
    }

    /// True when `side` gets the attacker's knowledge.
    #[inline]
    fn is_attacker(&self, side: Player) -> bool {
        self.attacker.is_none_or(|attacker| attacker == side)
    }

    /// Switches the knowledge in use.
    pub fn set_knowledge(&mut self, knowledge: Knowledge) {
        self.knowledge = knowledge;
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The knowledge in use.
    pub fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        // The stack is never empty: `new` pushes the root and `undo` never pops it.
        &self.boards[self.boards.len() - 1].0
    }

    /// The current position's Zobrist hash (without the fifty-move rule's clock).
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        self.boards[self.boards.len() - 1].1
    }

    /// Plies played since the game was made (by [`Game::play`], not yet taken back).
    pub fn ply(&self) -> usize {
        self.boards.len() - 1
    }

    /// The colour to move.
    #[inline]
    pub fn color_to_move(&self) -> Color {
        self.board().side_to_move()
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    /// Every legal move of the current position, in cozy-chess's order (whatever the rules
    /// and knowledge; [`Game::generate_moves`] is the solver's list).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.board().generate_moves(|set| {
            moves.extend(set.into_iter().map(Move::from));
            false
        });
        moves
    }

    /// A move that checkmates at once, if the side to move has one.
    pub fn mating_move(&self) -> Option<Move> {
        mating_move(self.board())
    }

    /// True when `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        mv.0 >> 12 <= 4 && self.board().is_legal(mv.to_cozy())
    }

    /// The attacker restricted to checks, when that mode is on and `who` is it.
    #[inline]
    fn checks_only_for(&self, who: Player) -> bool {
        self.rules.checks_only == Some(who)
    }

    /// Checks-only mode's contribution to the hash: the two games give the same position
    /// different values, so their results must not meet in a shared table (arbitrary
    /// constants, one per attacker).
    #[inline]
    fn rules_key(&self) -> u64 {
        match self.rules.checks_only {
            None => 0,
            Some(Player::First) => 0x5851_F42D_4C95_7F2D,
            Some(Player::Second) => 0x1405_7B7E_F767_814F,
        }
    }

    /// The halfmove clock's contribution to the hash (fifty-move rule only).
    #[inline]
    fn clock_key(&self, clock: u8) -> u64 {
        if self.rules.fifty_move_rule {
            // Any injective, well-spread function of the clock (0..=100) will do.
            u64::from(clock + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            0
        }
    }
}

/// A move's code is its packed 16 bits (for jobs sent between processes).
impl MoveCodec for Chess {
    fn encode_move(mv: Move) -> u64 {
        u64::from(mv.0)
    }

    fn decode_move(code: u64) -> Option<Move> {
        u16::try_from(code).ok().map(Move)
    }
}

impl Game for Chess {
    type Move = Move;
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Draw;
    /// `outcome` and `estimate` generate moves and look for mates in one: a table probe is
    /// far cheaper than asking again.
    const REMEMBER_LEAVES: bool = true;

    #[inline]
    fn side_to_move(&self) -> Player {
        player(self.color_to_move())
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.key() ^ self.clock_key(self.board().halfmove_clock()) ^ self.rules_key()
    }

    /// What the hash covers, exactly: a piece code per square (4 bits: colour and kind, 0 for
    /// empty), the side to move, castling rights by rook file, the en passant file, the
    /// halfmove clock under the fifty-move rule, and the checks-only mode. 40 bytes.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        let board = self.board();
        let code = |square: Square| match (board.color_on(square), board.piece_on(square)) {
            (Some(color), Some(piece)) => 1 + color as u8 * 8 + piece as u8,
            _ => 0,
        };
        for (i, pair) in out[..32].iter_mut().enumerate() {
            *pair = code(Square::index(2 * i)) | code(Square::index(2 * i + 1)) << 4;
        }
        let file = |f: Option<cozy_chess::File>| f.map_or(0xFF, |f| f as u8);
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let rights = board.castle_rights(color);
            out[32 + 2 * i] = file(rights.short);
            out[33 + 2 * i] = file(rights.long);
        }
        out[36] = board.side_to_move() as u8;
        out[37] = file(board.en_passant());
        out[38] = if self.rules.fifty_move_rule {
            board.halfmove_clock().min(100)
        } else {
            0
        };
        out[39] = match self.rules.checks_only {
            None => 0,
            Some(Player::First) => 1,
            Some(Player::Second) => 2,
        };
        Some(40)
    }

    fn outcome(&self) -> Outcome {
        let board = self.board();
        if !board.generate_moves(|_| true) {
            return if self.in_check() {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
        }
        if self.rules.fifty_move_rule && board.halfmove_clock() >= 100 {
            return Outcome::Draw;
        }
        knowledge::outcome(self)
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        let checks_only = self.checks_only_for(self.side_to_move());
        if self.knowledge.contains(Knowledge::ORDER) {
            knowledge::ordered_moves(self.board(), checks_only, moves);
        } else {
            let board = self.board();
            board.generate_moves(|set| {
                for mv in set {
                    if !checks_only || gives_check(board, mv) {
                        moves.push(Move::from(mv));
                    }
                }
                false
            });
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let key = zobrist::key_after(self.board(), self.key(), mv.to_cozy());
        let mut next = self.board().clone();
        next.play_unchecked(mv.to_cozy());
        self.boards.push((next, key));
    }

    /// The child's hash from the move alone (`zobrist::key_after`), without playing it.
    #[inline]
    fn peek(&mut self, mv: Move) -> (u64, Player) {
        let board = self.board();
        let cozy = mv.to_cozy();
        let mut hash = zobrist::key_after(board, self.key(), cozy) ^ self.rules_key();
        if self.rules.fifty_move_rule {
            // cozy-chess's clock rule: a pawn move or a capture (castling is none) resets it.
            let clock = board.halfmove_clock();
            let capture = board.colors(!board.side_to_move()).has(cozy.to);
            let resets = capture || board.pieces(Piece::Pawn).has(cozy.from);
            hash ^= self.clock_key(if resets { 0 } else { (clock + 1).min(100) });
        }
        (hash, self.side_to_move().opponent())
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        if self.boards.len() > 1 {
            self.boards.pop();
        }
    }

    fn estimate(&self) -> Numbers {
        if self.knowledge.contains(Knowledge::ESTIMATE) {
            knowledge::estimate(self)
        } else {
            Numbers::UNIT
        }
    }

    /// Only reached when [`generate_moves`](Game::generate_moves) listed nothing although
    /// [`outcome`](Game::outcome) saw legal moves: the checks-only attacker without a
    /// checking move, a draw by that mode's definition.
    fn no_moves_value(&self) -> Value {
        Value::Draw
    }
}
