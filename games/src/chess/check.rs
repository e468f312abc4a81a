//! Does a move give check? Answered from bitboards, without playing the move.
//!
//! Checks-only mode lists only checking moves, move ordering puts them first and mate-in-one
//! detection tries only them, so the test runs for many moves of many positions. Copying and
//! playing the board for each (what cozy-chess would need) costs several times more. The test
//! places the moving side's pieces as they stand after the move (moved piece, promotion,
//! castling rook, pawn taken en passant) and asks whether any of them attacks the enemy king
//! through the occupancy after the move: that covers direct and discovered checks alike.
//! `tests/chess_rules.rs` checks it against playing every move of the perft trees.

use cozy_chess::{
    Board, File, Piece, Rank, Square, get_bishop_moves, get_knight_moves, get_pawn_attacks,
    get_rook_moves,
};

/// True when the legal move `mv` of `board` puts the opponent in check.
#[inline]
pub fn gives_check(board: &Board, mv: cozy_chess::Move) -> bool {
    let us = board.side_to_move();
    let their_king = board.king(!us);
    let Some(moved) = board.piece_on(mv.from) else {
        return false; // not a move of this position
    };
    let from = mv.from.bitboard();
    let to = mv.to.bitboard();
    let mut occupied = board.occupied();
    // Our pieces by kind after the move.
    let mine = |piece: Piece| board.colored_pieces(us, piece);
    let (mut pawns, mut knights) = (mine(Piece::Pawn), mine(Piece::Knight));
    let (mut diagonal, mut straight) = (
        mine(Piece::Bishop) | mine(Piece::Queen),
        mine(Piece::Rook) | mine(Piece::Queen),
    );

    if moved == Piece::King && board.colors(us).has(mv.to) {
        // Castling, encoded as the king taking its own rook: only the rook can give check.
        let rank = Rank::First.relative_to(us);
        let (king_file, rook_file) = if mv.to.file() > mv.from.file() {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        let rook_to = Square::new(rook_file, rank).bitboard();
        occupied = occupied ^ from ^ to | Square::new(king_file, rank).bitboard() | rook_to;
        straight = straight ^ to | rook_to;
    } else {
        occupied = occupied ^ from | to;
        if moved == Piece::Pawn && mv.from.file() != mv.to.file() && !board.occupied().has(mv.to) {
            // En passant: the taken pawn stands beside the origin, on the destination's file.
            occupied ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
        }
        let placed = mv.promotion.unwrap_or(moved);
        match moved {
            Piece::Pawn => pawns ^= from,
            Piece::Knight => knights ^= from,
            Piece::Bishop => diagonal ^= from,
            Piece::Rook => straight ^= from,
            Piece::Queen => {
                diagonal ^= from;
                straight ^= from;
            }
            Piece::King => {}
        }
        match placed {
            Piece::Pawn => pawns |= to,
            Piece::Knight => knights |= to,
            Piece::Bishop => diagonal |= to,
            Piece::Rook => straight |= to,
            Piece::Queen => {
                diagonal |= to;
                straight |= to;
            }
            Piece::King => {}
        }
    }

    let attackers = (get_bishop_moves(their_king, occupied) & diagonal)
        | (get_rook_moves(their_king, occupied) & straight)
        | (get_knight_moves(their_king) & knights)
        | (get_pawn_attacks(their_king, !us) & pawns);
    !attackers.is_empty()
}
