//! The chess game's own Zobrist hash, which can be updated from a move without playing it.
//!
//! cozy-chess keeps a Zobrist hash in its boards, but its keys are private, so the hash of the
//! position after a move is only known by copying the board and playing the move on it. The
//! search asks for that hash for every child of every position it expands
//! ([`proofnum::Game::peek`]), to prefetch the children's table entries and to skip making the
//! children the table already knows; so the game keeps a hash of its own, over the same state
//! as cozy-chess's (pieces, side to move, castling rights by rook file, the en passant file
//! cozy-chess records after every double pawn push), with keys from a fixed generator. Equal
//! positions get equal hashes, and [`key_after`] gives the hash after a legal move from the
//! board before it: `tests/chess_rules.rs` checks it against [`key_of`] the played board for
//! every move of the perft trees.

use cozy_chess::{Board, Color, File, Piece, Rank, Square};

/// splitmix64 (Steele, Lea and Flood 2014): a well-spread 64-bit value for each index.
const fn splitmix64(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys of a piece of each colour and kind on each square (indexed `[colour][piece][square]`),
/// then castling rights by colour and rook file, en passant files, and Black to move.
const PIECE_KEYS: usize = Color::NUM * Piece::NUM * Square::NUM;
const CASTLE_BASE: usize = PIECE_KEYS;
const EN_PASSANT_BASE: usize = CASTLE_BASE + Color::NUM * File::NUM;
const BLACK_TO_MOVE: usize = EN_PASSANT_BASE + File::NUM;
const KEY_COUNT: usize = BLACK_TO_MOVE + 1;

static KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0; KEY_COUNT];
    let mut i = 0;
    while i < KEY_COUNT {
        keys[i] = splitmix64(i as u64);
        i += 1;
    }
    keys
};

#[inline]
fn piece_key(color: Color, piece: Piece, square: Square) -> u64 {
    KEYS[(color as usize * Piece::NUM + piece as usize) * Square::NUM + square as usize]
}

#[inline]
fn castle_key(color: Color, file: File) -> u64 {
    KEYS[CASTLE_BASE + color as usize * File::NUM + file as usize]
}

#[inline]
fn en_passant_key(file: File) -> u64 {
    KEYS[EN_PASSANT_BASE + file as usize]
}

/// The keys of `color`'s castling rights on `board`.
#[inline]
fn castle_rights_key(board: &Board, color: Color) -> u64 {
    let rights = board.castle_rights(color);
    rights.short.map_or(0, |f| castle_key(color, f))
        ^ rights.long.map_or(0, |f| castle_key(color, f))
}

/// The hash of `board`, computed from scratch.
pub fn key_of(board: &Board) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in board.colored_pieces(color, piece) {
                key ^= piece_key(color, piece, square);
            }
        }
        key ^= castle_rights_key(board, color);
    }
    if let Some(file) = board.en_passant() {
        key ^= en_passant_key(file);
    }
    if board.side_to_move() == Color::Black {
        key ^= KEYS[BLACK_TO_MOVE];
    }
    key
}

/// The hash after the legal move `mv` of `board`, whose hash is `key`: what [`key_of`] gives
/// for the board after `mv` (the castling and en passant rules as cozy-chess's `play` applies
/// them).
#[inline]
pub fn key_after(board: &Board, key: u64, mv: cozy_chess::Move) -> u64 {
    let us = board.side_to_move();
    let them = !us;
    let Some(moved) = board.piece_on(mv.from) else {
        return key; // not a move of this position: never asked for
    };
    let mut key = key ^ KEYS[BLACK_TO_MOVE];
    if let Some(file) = board.en_passant() {
        key ^= en_passant_key(file);
    }
    let our_back_rank = Rank::First.relative_to(us);
    let our_rights = board.castle_rights(us);
    if moved == Piece::King && board.colors(us).has(mv.to) {
        // Castling, encoded as the king taking its own rook.
        let (king_file, rook_file) = if mv.to.file() > mv.from.file() {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        return key
            ^ piece_key(us, Piece::King, mv.from)
            ^ piece_key(us, Piece::Rook, mv.to)
            ^ piece_key(us, Piece::King, Square::new(king_file, our_back_rank))
            ^ piece_key(us, Piece::Rook, Square::new(rook_file, our_back_rank))
            ^ castle_rights_key(board, us);
    }
    key ^= piece_key(us, moved, mv.from) ^ piece_key(us, mv.promotion.unwrap_or(moved), mv.to);
    if let Some(victim) = board.piece_on(mv.to) {
        key ^= piece_key(them, victim, mv.to);
        // Taking a rook on its corner ends that castling right.
        let their_rights = board.castle_rights(them);
        let file = Some(mv.to.file());
        if mv.to.rank() == Rank::Eighth.relative_to(us)
            && (their_rights.short == file || their_rights.long == file)
        {
            key ^= castle_key(them, mv.to.file());
        }
    }
    match moved {
        Piece::Pawn if mv.from.file() != mv.to.file() && !board.occupied().has(mv.to) => {
            // En passant: the taken pawn stands beside the origin, on the destination's file.
            key ^= piece_key(them, Piece::Pawn, Square::new(mv.to.file(), mv.from.rank()));
        }
        Piece::Pawn if (mv.from.rank() as i8 - mv.to.rank() as i8).abs() == 2 => {
            key ^= en_passant_key(mv.to.file());
        }
        Piece::King => key ^= castle_rights_key(board, us),
        Piece::Rook
            if mv.from.rank() == our_back_rank
                && (our_rights.short == Some(mv.from.file())
                    || our_rights.long == Some(mv.from.file())) =>
        {
            key ^= castle_key(us, mv.from.file());
        }
        _ => {}
    }
    key
}
