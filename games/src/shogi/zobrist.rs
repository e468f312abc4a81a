//! The tsume game's own Zobrist hash, which can be updated from a move without playing it.
//!
//! haitaka keeps a Zobrist hash in its boards, but its keys are private, so the hash of the
//! position after a move is only known by copying the board and playing the move. The search
//! asks for that hash for every child of every position it expands ([`proofnum::Game::peek`]),
//! so the game keeps a hash of its own over the same state (pieces, both hands, side to move),
//! with keys from a fixed generator. A hand's key is the XOR of one key per (colour, kind,
//! count) for the count held, so taking or dropping a piece changes two keys. Equal positions
//! get equal hashes, and [`key_after`] gives the hash after a legal move from the board
//! before it: `tests/shogi_rules.rs` checks it against [`key_of`] the played board for every
//! move of the perft trees.

use haitaka::{Board, Color, Piece, Square};

use super::{HAND_PIECES, Move};

/// splitmix64 (Steele, Lea and Flood 2014): a well-spread 64-bit value for each index.
const fn splitmix64(index: u64) -> u64 {
    let mut z = index
        .wrapping_add(0x5348_4F47_4900_0001) // a seed of its own: "SHOGI"
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The most pieces of one kind a hand can hold (18 pawns), plus the count zero.
const HAND_COUNTS: usize = 19;
/// Keys of a piece of each colour and kind on each square (`[colour][piece][square]`), then of
/// each hand count (`[colour][hand kind][count]`), then White to move.
const PIECE_KEYS: usize = Color::NUM * Piece::NUM * Square::NUM;
const HAND_BASE: usize = PIECE_KEYS;
const WHITE_TO_MOVE: usize = HAND_BASE + Color::NUM * HAND_PIECES.len() * HAND_COUNTS;
const KEY_COUNT: usize = WHITE_TO_MOVE + 1;

static KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0; KEY_COUNT];
    let mut i = 0;
    while i < KEY_COUNT {
        keys[i] = splitmix64(i as u64);
        i += 1;
    }
    // A hand holding none of a kind contributes nothing, so that the key of an empty hand
    // is zero and hands differ only by the kinds they hold.
    let mut h = 0;
    while h < Color::NUM * HAND_PIECES.len() {
        keys[HAND_BASE + h * HAND_COUNTS] = 0;
        h += 1;
    }
    keys
};

#[inline]
fn piece_key(color: Color, piece: Piece, square: Square) -> u64 {
    KEYS[(color as usize * Piece::NUM + piece as usize) * Square::NUM + square as usize]
}

#[inline]
fn hand_key(color: Color, kind: usize, count: u8) -> u64 {
    KEYS[HAND_BASE
        + (color as usize * HAND_PIECES.len() + kind) * HAND_COUNTS
        + usize::from(count).min(HAND_COUNTS - 1)]
}

/// The keys of both hands of `board`.
pub fn hands_key(board: &Board) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        let hand = board.hand(color);
        for (kind, &count) in hand.iter().take(HAND_PIECES.len()).enumerate() {
            key ^= hand_key(color, kind, count);
        }
    }
    key
}

/// The hash of `board`, computed from scratch.
pub fn key_of(board: &Board) -> u64 {
    let mut key = hands_key(board);
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in board.colored_pieces(color, piece) {
                key ^= piece_key(color, piece, square);
            }
        }
    }
    if board.side_to_move() == Color::White {
        key ^= KEYS[WHITE_TO_MOVE];
    }
    key
}

/// The hash after the legal move `mv` of `board`, whose hash is `key`: what [`key_of`] gives
/// for the board after `mv`. A discarding capture ([`Move::is_discarding`]) leaves the
/// captured piece out of the mover's hand.
#[inline]
pub fn key_after(board: &Board, key: u64, mv: Move) -> u64 {
    let (board_change, hands_change) = changes(board, mv);
    key ^ board_change ^ hands_change
}

/// [`key_after`] and the hands' part of it: what [`hands_key`] gives for the board after
/// `mv`, from `hands`, `board`'s.
#[inline]
pub fn keys_after(board: &Board, key: u64, hands: u64, mv: Move) -> (u64, u64) {
    let (board_change, hands_change) = changes(board, mv);
    (key ^ board_change ^ hands_change, hands ^ hands_change)
}

/// What the legal move `mv` of `board` changes in its hash: the part of the pieces on the
/// board and the side to move, and the part of the hands.
#[inline]
fn changes(board: &Board, mv: Move) -> (u64, u64) {
    let us = board.side_to_move();
    let turn = KEYS[WHITE_TO_MOVE];
    let to = mv.to();
    if let Some(piece) = mv.dropped() {
        let count = board.num_in_hand(us, piece);
        return (
            turn ^ piece_key(us, piece, to),
            hand_key(us, piece as usize, count)
                ^ hand_key(us, piece as usize, count.saturating_sub(1)),
        );
    }
    let Some(from) = mv.origin() else {
        return (turn, 0); // not a move of this position: never asked for
    };
    let Some(moved) = board.piece_on(from) else {
        return (turn, 0);
    };
    let placed = if mv.is_promotion() {
        moved.promote()
    } else {
        moved
    };
    let mut board_change = turn ^ piece_key(us, moved, from) ^ piece_key(us, placed, to);
    let mut hands_change = 0;
    // haitaka's `piece_on` tries every kind in turn: an empty square is told at once.
    if let Some(victim) = board
        .occupied()
        .has(to)
        .then(|| board.piece_on(to))
        .flatten()
    {
        board_change ^= piece_key(!us, victim, to);
        if !mv.is_discarding() {
            let kind = victim.unpromote() as usize;
            let count = board.hand(us)[kind];
            hands_change = hand_key(us, kind, count) ^ hand_key(us, kind, count + 1);
        }
    }
    (board_change, hands_change)
}
