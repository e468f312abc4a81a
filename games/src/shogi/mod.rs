//! Tsume-shogi (shogi mating problems) on the [`haitaka`] move generator: "can Black mate
//! by giving check at every move?".
//!
//! [`Tsume`] is one position with make/unmake. haitaka boards are copy-make, so the game keeps
//! a stack of boards, each with the game's own Zobrist hash (`zobrist.rs`, which covers both
//! hands), and [`undo`](Game::undo) pops one. Moves are [`Move`], a packed 16-bit integer.
//! Black (先手, the attacker, to move in a problem's SFEN) is [`Player::First`], White (後手,
//! the defender, who owns the king to mate) is [`Player::Second`].
//!
//! # The rules the solver sees (tsume-shogi's, the composers' rules)
//! - **The attacker checks at every move.** Black's moves are its legal moves that give
//!   check ([`Tsume::checks`]); when it has none, Black has failed: the position is a loss
//!   for Black ([`Game::no_moves_value`]). Black may have a king of its own (双玉 problems):
//!   its moves must then also be legal for that king.
//! - **The defender answers with every legal move**: king moves, captures of the checking
//!   piece, interpositions by a board move or by a drop from its hand. In tsume-shogi the
//!   defender's hand holds every piece not on the board or in Black's hand; the SFEN says
//!   which pieces it holds and [`Tsume::from_sfen`] takes it as written
//!   ([`Tsume::remaining_pieces`] tells what a full hand would be).
//! - **Mate** is a defender to move with no legal move (it is always in check there): a loss
//!   for White, a win for Black. Mate by dropping a pawn (打ち歩詰め) is illegal: such a drop
//!   is not among Black's moves (haitaka's rule, checked in `tests/shogi_rules.rs` against a
//!   second generator). Two unpromoted pawns of one side on a file (二歩) are illegal too.
//! - **Repetitions fail for the attacker** ([`RepetitionRule::Draw`]). In shogi a fourfold
//!   repetition caused by continuous checks loses for the checking side, and in tsume every
//!   Black move is a check, so any repetition ends the problem as a failure for Black. Under
//!   `RepetitionRule::Draw` the solver scores a position that repeats one on its path as a
//!   draw, which is a non-win for the attacker: exactly the tsume rule, since the question
//!   asked is only "does Black win?". That the first repetition already fails (and not the
//!   fourth occurrence) changes no answer: a mate that Black can force, it can force without
//!   ever repeating a position (a shortest mating strategy never comes back to a position:
//!   its distance to mate falls at every Black move), and a defence that can force one
//!   repetition against every Black strategy can force it four times by going round the same
//!   cycle. So a proof is a forced mate by continuous checks, and a disproof says there is
//!   none (不詰).
//!
//! The solver's answer is the problem's: proven means the position is a tsume (it mates),
//! disproven that it is not. How long the mate is, by the composers' conventions, is
//! [`mate`]'s question. What the game knows without search (mate in one, move order, df-pn+
//! estimates) is described in `knowledge.rs`; positions, moves and diagrams as text (SFEN,
//! USI, Japanese and western notation) in [`notation`].
//!
//! # Encodings
//! [`Tsume::encode`] writes the exact position (board, both hands, side to move) as bytes,
//! for certificates that identify positions exactly rather than by a hash.
//!
//! For hand dominance (優等局面): the hash is [`Tsume::board_key`] (pieces and side to move)
//! XOR a key of the two hands, and [`Tsume::hand`] / [`Tsume::packed_hand`] give each hand.
//! Of two positions with the same board key, A is at least as good for Black as B when
//! Black's hand in A holds at least as many pieces of every kind as in B and White's hand in A
//! at most as many of every kind ([`hand_dominates`] on the packed hands). Then B proven
//! implies A proven, and A disproven implies B disproven: a piece more in Black's hand only
//! adds drops to Black's choices (no shogi rule forbids a move for owning a piece), a piece
//! fewer in White's hand only takes drops from White's. When White holds every remaining
//! piece (the usual problem), its hand is fixed by the board and Black's hand, so comparing
//! Black's hands is enough.

mod check;
mod knowledge;
pub mod mate;
pub mod notation;
mod proof_pieces;
mod zobrist;

use core::cell::Cell;

use haitaka::{Board, Color, Piece, Square};
use proofnum::{
    Decided, Game, MoveCodec, MoveList, Numbers, Outcome, Player, RepetitionRule, Value,
};

pub use check::CheckSquares;
pub use knowledge::Knowledge;
pub use notation::SfenError;

/// The most legal moves a shogi position can have (593 is the known maximum); a solver built
/// for shogi needs `max_moves` of at least this.
pub const MAX_MOVES: usize = 600;

/// Boards reserved for the undo stack when a position is made: lines up to this many plies
/// deep play without allocating (deeper ones grow the stack).
pub const RESERVED_PLIES: usize = 1024;

/// The seven kinds of piece a hand can hold, in haitaka's order (the index of each in a hand).
pub const HAND_PIECES: [Piece; 7] = [
    Piece::Pawn,
    Piece::Lance,
    Piece::Knight,
    Piece::Silver,
    Piece::Bishop,
    Piece::Rook,
    Piece::Gold,
];

/// Bit offset and width of each hand count in [`Tsume::packed_hand`] ([`HAND_PIECES`] order);
/// each field has a guard bit above it.
const HAND_FIELDS: [(u32, u32); 7] = [(0, 5), (6, 3), (10, 3), (14, 3), (18, 2), (21, 2), (24, 3)];

/// The guard bits of [`HAND_FIELDS`].
const HAND_GUARDS: u32 = {
    let mut guards = 0;
    let mut i = 0;
    while i < HAND_FIELDS.len() {
        guards |= 1 << (HAND_FIELDS[i].0 + HAND_FIELDS[i].1);
        i += 1;
    }
    guards
};

/// Packs hand counts ([`HAND_PIECES`] order) as [`Tsume::packed_hand`] does.
pub fn pack_hand(counts: &[u8; 7]) -> u32 {
    HAND_FIELDS
        .iter()
        .zip(counts)
        .map(|(&(offset, width), &n)| (u32::from(n) & ((1 << width) - 1)) << offset)
        .sum()
}

/// True when the packed hand `a` holds at least as many pieces of every kind as `b`: one
/// subtraction with the guard bits set (a field of `a` below `b`'s borrows its guard bit).
#[inline]
pub const fn hand_dominates(a: u32, b: u32) -> bool {
    ((a | HAND_GUARDS).wrapping_sub(b)) & HAND_GUARDS == HAND_GUARDS
}

/// The bytes `encode` writes, copied into `out`; their length, or `None` when `out` is too
/// short.
fn copy_encoding(out: &mut [u8], encode: impl FnOnce(&mut Vec<u8>)) -> Option<usize> {
    let mut bytes = Vec::with_capacity(96);
    encode(&mut bytes);
    out.get_mut(..bytes.len())?.copy_from_slice(&bytes);
    Some(bytes.len())
}

/// The player of a colour: Black (先手, the attacker of a problem) moves first.
#[inline]
pub const fn player(color: Color) -> Player {
    match color {
        Color::Black => Player::First,
        Color::White => Player::Second,
    }
}

/// The colour of a player: [`Player::First`] is Black.
#[inline]
pub const fn color(player: Player) -> Color {
    match player {
        Player::First => Color::Black,
        Player::Second => Color::White,
    }
}

/// Bits of [`Move`]: destination square (0–6), origin square (7–13; 81 + the hand index of
/// [`HAND_PIECES`] for a drop), promotion (14), and the mate-length game's "captured piece
/// discarded" mark (15, see [`mate`]).
const TO_BITS: u16 = 0x7F;
const FROM_SHIFT: u16 = 7;
const PROMOTION_BIT: u16 = 1 << 14;
const DISCARD_BIT: u16 = 1 << 15;
/// The origin code of a drop of the hand piece with index 0.
const DROP_BASE: u16 = 81;

/// A shogi move packed in 16 bits: the destination square (bits 0–6), the origin square or,
/// for a drop, 81 plus the dropped piece's index in [`HAND_PIECES`] (bits 7–13), and a
/// promotion flag (bit 14). Squares are haitaka's indices (file-major: `1a` = 0, `1b` = 1, …,
/// `9i` = 80). Bit 15 marks a capture whose piece is discarded instead of taken in hand: a
/// move of the mate-length game ([`mate::MateWithin`]) only. The default (`1a1a`) is never a
/// legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    /// A board move.
    #[inline]
    pub fn board(from: Square, to: Square, promotion: bool) -> Move {
        Move(to as u16 | (from as u16) << FROM_SHIFT | if promotion { PROMOTION_BIT } else { 0 })
    }

    /// A drop of `piece` (one of [`HAND_PIECES`]) on `to`.
    #[inline]
    pub fn drop(piece: Piece, to: Square) -> Move {
        Move(to as u16 | (DROP_BASE + piece as u16) << FROM_SHIFT)
    }

    /// The destination square.
    #[inline]
    pub fn to(self) -> Square {
        Square::index(usize::from(self.0 & TO_BITS).min(80))
    }

    /// The origin square of a board move; `None` for a drop.
    #[inline]
    pub fn origin(self) -> Option<Square> {
        let from = self.0 >> FROM_SHIFT & 0x7F;
        (from < DROP_BASE).then(|| Square::index(usize::from(from)))
    }

    /// The dropped piece of a drop; `None` for a board move.
    #[inline]
    pub fn dropped(self) -> Option<Piece> {
        let from = self.0 >> FROM_SHIFT & 0x7F;
        from.checked_sub(DROP_BASE)
            .and_then(|index| HAND_PIECES.get(usize::from(index)).copied())
    }

    /// True for a drop.
    #[inline]
    pub fn is_drop(self) -> bool {
        self.0 >> FROM_SHIFT & 0x7F >= DROP_BASE
    }

    /// True for a promoting board move.
    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0 & PROMOTION_BIT != 0
    }

    /// True for the mate-length game's capture whose piece is discarded ([`mate`]).
    #[inline]
    pub fn is_discarding(self) -> bool {
        self.0 & DISCARD_BIT != 0
    }

    /// The same move marked as discarding its captured piece ([`mate`]).
    #[inline]
    pub fn discarding(self) -> Move {
        Move(self.0 | DISCARD_BIT)
    }

    /// The same move without the discarding mark: the move as shogi knows it.
    #[inline]
    pub fn plain(self) -> Move {
        Move(self.0 & !DISCARD_BIT)
    }

    /// True when the bits name a move shape shogi has: squares on the board, a known hand
    /// piece, no promotion on a drop. Says nothing of legality.
    #[inline]
    pub fn is_well_formed(self) -> bool {
        let to = self.0 & TO_BITS;
        let from = self.0 >> FROM_SHIFT & 0x7F;
        to < 81
            && (from < DROP_BASE
                || (usize::from(from - DROP_BASE) < HAND_PIECES.len() && !self.is_promotion()))
            && from != to
    }

    /// The haitaka move (the discarding mark dropped).
    #[inline]
    pub fn to_haitaka(self) -> haitaka::Move {
        match (self.origin(), self.dropped()) {
            (Some(from), _) => haitaka::Move::BoardMove {
                from,
                to: self.to(),
                promotion: self.is_promotion(),
            },
            (None, Some(piece)) => haitaka::Move::Drop {
                piece,
                to: self.to(),
            },
            (None, None) => haitaka::Move::BoardMove {
                from: self.to(),
                to: self.to(),
                promotion: false,
            },
        }
    }
}

impl From<haitaka::Move> for Move {
    #[inline]
    fn from(mv: haitaka::Move) -> Move {
        match mv {
            haitaka::Move::Drop { piece, to } => Move::drop(piece, to),
            haitaka::Move::BoardMove {
                from,
                to,
                promotion,
            } => Move::board(from, to, promotion),
        }
    }
}

/// A tsume-shogi position with make/unmake, for the solver. See the module docs.
///
/// ```
/// use proofnum::{Dfpn, Player, Table};
/// use proofnum_games::shogi::{MAX_MOVES, Tsume};
///
/// // Gold drop on 5b mates the king on 5a (the pawn on 5c guards the gold).
/// let mut tsume = Tsume::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
/// let mut table_bytes = vec![0u8; 1 << 16];
/// let mut table = Table::new(&mut table_bytes).unwrap();
/// let mut stack = vec![0u8; Dfpn::<Tsume>::stack_bytes(64, MAX_MOVES)];
/// let mut dfpn = Dfpn::<Tsume>::new(&mut stack, 64, MAX_MOVES, Default::default()).unwrap();
/// let result = dfpn.solve(&mut tsume, Player::First, &mut table, &mut Default::default());
/// assert!(result.is_proven());
/// assert_eq!(tsume.usi(tsume.mating_move().unwrap()), "G*5b");
/// ```
#[derive(Clone, Debug)]
pub struct Tsume {
    /// The boards of the line played so far, each with its hash (`zobrist::key_of`) and the
    /// hands' part of it (`zobrist::hands_key`); the last one is the current position.
    boards: Vec<(Board, u64, u64)>,
    /// The moves of that line, one fewer than the boards.
    moves: Vec<Move>,
    knowledge: Knowledge,
    /// What `outcome` found for the position with this hash, for the `estimate` the search
    /// asks next (one move generation instead of two).
    moves_seen: Cell<Option<knowledge::Seen>>,
    /// How many of the moves the last `generate_moves` listed are deferred (rule 4).
    deferred: Cell<usize>,
}

impl PartialEq for Tsume {
    /// The same current position (pieces, hands, side to move); the line that led to it and
    /// the knowledge switches are not compared.
    fn eq(&self, other: &Tsume) -> bool {
        self.board().same_position(other.board())
    }
}

impl Tsume {
    /// The game from a haitaka board, with every piece of knowledge.
    pub fn new(board: Board) -> Tsume {
        let mut boards = Vec::with_capacity(RESERVED_PLIES);
        let (key, hands) = (zobrist::key_of(&board), zobrist::hands_key(&board));
        boards.push((board, key, hands));
        Tsume {
            boards,
            moves: Vec::with_capacity(RESERVED_PLIES),
            knowledge: Knowledge::ALL,
            moves_seen: Cell::new(None),
            deferred: Cell::new(0),
        }
    }

    /// The position of a tsume SFEN (`board side hands [move number]`), hands as written. The
    /// errors say what is wrong (a bad rank, an unknown piece, two pawns on a file, a missing
    /// defender king, White to move, the side not to move in check, too many pieces, …) and
    /// quote at most a short part of the input. See [`notation::parse_sfen`].
    pub fn from_sfen(sfen: &str) -> Result<Tsume, SfenError> {
        notation::parse_sfen(sfen).map(Tsume::new)
    }

    /// The same game using only the knowledge in `knowledge` ([`Knowledge::NONE`]: the plain
    /// rules, to check the knowledge against).
    pub fn with_knowledge(mut self, knowledge: Knowledge) -> Tsume {
        self.knowledge = knowledge;
        self
    }

    /// Switches the knowledge in use.
    pub fn set_knowledge(&mut self, knowledge: Knowledge) {
        self.knowledge = knowledge;
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

    /// The current position's Zobrist hash.
    #[inline]
    fn key(&self) -> u64 {
        self.boards[self.boards.len() - 1].1
    }

    /// The hash of the pieces on the board and the side to move, without the hands: positions
    /// that differ only in their hands share it (for hand dominance, see the module docs).
    pub fn board_key(&self) -> u64 {
        let (_, key, hands) = &self.boards[self.boards.len() - 1];
        key ^ hands
    }

    /// The pieces in `color`'s hand, counted by kind in [`HAND_PIECES`] order.
    pub fn hand(&self, color: Color) -> [u8; 7] {
        let hand = self.board().hand(color);
        core::array::from_fn(|i| hand[i])
    }

    /// The last move played and the board before it, if a move was played.
    pub fn last_move(&self) -> Option<(Move, &Board)> {
        let n = self.boards.len();
        (n > 1).then(|| (self.moves[n - 2], &self.boards[n - 2].0))
    }

    /// `color`'s hand packed in 28 bits for [`hand_dominates`]: the counts of
    /// [`HAND_PIECES`] in fields of 5, 3, 3, 3, 2, 2 and 3 bits (pawn, lance, knight, silver,
    /// bishop, rook, gold), each with a zero guard bit above it.
    pub fn packed_hand(&self, color: Color) -> u32 {
        pack_hand(&self.hand(color))
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

    /// True when the side to move is checkmated (in check, no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !check::has_legal_move(self.board())
    }

    /// Every legal move of the current position, checks or not, in haitaka's order (mate by
    /// a pawn drop excluded, as shogi excludes it).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        check::generate_legal(self.board(), |set| {
            moves.extend(set.into_iter().map(Move::from));
            false
        });
        moves
    }

    /// The legal moves of the side to move that give check, in haitaka's order.
    pub fn checks(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        check::for_each_check(self.board(), |mv| {
            moves.push(mv);
            false
        });
        moves
    }

    /// A move of the side to move that checkmates at once, if it has one.
    pub fn mating_move(&self) -> Option<Move> {
        knowledge::mating_move(self.board())
    }

    /// True when `mv` is a legal move here (pawn-drop mate and two pawns on a file excluded).
    pub fn is_legal(&self, mv: Move) -> bool {
        if !mv.is_well_formed() || mv.is_discarding() {
            return false;
        }
        let board = self.board();
        let hm = mv.to_haitaka();
        if !board.is_legal(hm) {
            return false;
        }
        // haitaka's `is_legal` does not test mate by a pawn drop: the legal list does.
        if mv.dropped() == Some(Piece::Pawn) {
            return self.legal_moves().contains(&mv);
        }
        true
    }

    /// The exact position as bytes (board, both hands, side to move): equal for equal
    /// positions, different for different ones, and the same on every platform. See
    /// [`notation::encode`] for the layout.
    pub fn encode(&self, out: &mut Vec<u8>) {
        notation::encode(self.board(), out);
    }

    /// [`encode`](Tsume::encode) into `out`, returning the length; `None` when `out` is too
    /// short.
    pub fn encode_into(&self, out: &mut [u8]) -> Option<usize> {
        copy_encoding(out, |bytes| self.encode(bytes))
    }

    /// The exact bytes of the position's class for hand dominance, the board and the side to
    /// move ([`notation::encode_class`]), into `out`, returning the length; `None` when `out`
    /// is too short.
    pub fn encode_class_into(&self, out: &mut [u8]) -> Option<usize> {
        copy_encoding(out, |bytes| notation::encode_class(self.board(), bytes))
    }

    /// The pieces of each kind ([`HAND_PIECES`] order) that are neither on the board nor in
    /// either hand: what a tsume defender's hand lacks, if anything, to hold every remaining
    /// piece (all zero for the usual problems).
    pub fn remaining_pieces(&self) -> [u8; 7] {
        notation::missing_pieces(self.board())
    }

    /// Plays a move on the top board of the stack, in place (the caller has pushed a copy of
    /// the board it is played from): one board copy a ply, not two.
    #[inline]
    fn play_on_top(&mut self, mv: Move) {
        let top = self.boards.len() - 1;
        let (board, key, hands) = &mut self.boards[top];
        (*key, *hands) = zobrist::keys_after(board, *key, *hands, mv);
        let victim = mv
            .is_discarding()
            .then(|| board.piece_on(mv.to()))
            .flatten();
        board.play_unchecked(mv.to_haitaka());
        if let Some(victim) = victim {
            // The mate-length game's discarding capture: the piece leaves the game.
            let mover = !board.side_to_move();
            let kind = victim.unpromote();
            let count = board.num_in_hand(mover, kind);
            board.unchecked_set_hand(mover, kind, count.saturating_sub(1));
        }
    }
}

/// A move's code is its packed 16 bits (for jobs sent between processes and for files).
impl MoveCodec for Tsume {
    fn encode_move(mv: Move) -> u64 {
        u64::from(mv.0)
    }

    fn decode_move(code: u64) -> Option<Move> {
        u16::try_from(code)
            .ok()
            .map(Move)
            .filter(|mv| mv.is_well_formed() && !mv.is_discarding())
    }
}

impl Game for Tsume {
    type Move = Move;
    /// A repetition fails for the attacker: the tsume rule (see the module docs).
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
        self.key()
    }

    fn outcome(&self) -> Outcome {
        knowledge::outcome(self)
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        knowledge::generate(self, moves);
    }

    fn deferred_moves(&self) -> usize {
        self.deferred.get()
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.boards.extend_from_within(self.boards.len() - 1..);
        self.play_on_top(mv);
        self.moves.push(mv);
    }

    /// The child's hash from the move alone (`zobrist::key_after`), without playing it.
    #[inline]
    fn peek(&mut self, mv: Move) -> (u64, Player) {
        (
            zobrist::key_after(self.board(), self.key(), mv),
            self.side_to_move().opponent(),
        )
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        if self.boards.len() > 1 {
            self.boards.pop();
            self.moves.pop();
        }
    }

    fn estimate(&self) -> Numbers {
        knowledge::estimate(self)
    }

    /// A side with no move loses: the defender is mated (it is always in check when it has
    /// no move), the attacker has no check left (it has failed the problem).
    fn no_moves_value(&self) -> Value {
        Value::Loss
    }

    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.encode_into(out)
    }

    /// Hand dominance (優等局面, see the module docs): positions of one board and side to
    /// move differ in their hands, and Black's hand decides (White holds every other piece,
    /// and no piece leaves the game).
    fn dominance(&self) -> bool {
        self.knowledge.contains(Knowledge::DOMINANCE)
    }

    fn class_hash(&self) -> u64 {
        self.board_key()
    }

    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        self.encode_class_into(out)
    }

    fn material(&self) -> u32 {
        self.packed_hand(Color::Black)
    }

    /// At least as many pieces of every kind in Black's hand is at least as good for Black,
    /// and no better for White.
    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        match player {
            Player::First => hand_dominates(a, b),
            Player::Second => hand_dominates(b, a),
        }
    }

    /// Proof and disproof pieces (証明駒, 反証駒): what Black needs in hand for a result
    /// found here (the rules are in the `proof_pieces` module's docs).
    fn material_needed(&self, decided: Decided<Move>) -> Option<u32> {
        proof_pieces::needed(self, decided)
    }

    fn reduces_material(&self) -> bool {
        self.knowledge.contains(Knowledge::PROOF_PIECES)
    }

    /// For a mate, the larger count of every piece; for a failure, the smaller.
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        proof_pieces::join_hands(a, b, winner == Player::First)
    }
}
