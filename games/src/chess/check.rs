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
    BitBoard, Board, File, Piece, PieceMoves, Rank, Square, get_between_rays, get_bishop_moves,
    get_king_moves, get_knight_moves, get_line_rays, get_pawn_attacks, get_rook_moves,
};

/// A position's check geometry, computed once so that whole sets of moves are classified with
/// a few bitboard operations: the squares from which each kind of the mover's pieces attacks
/// the enemy king (direct checks), and the mover's pieces that alone stand between one of its
/// sliders and that king (discovered checks when they leave the line).
///
/// Direct checks need no occupancy update: a slider moving along a line through the king with
/// its origin between the two would already give check from its origin, which a legal position
/// rules out. Castling, en passant and promotions, whose occupancy changes this does not model,
/// go through [`gives_check`].
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    their_king: Square,
    /// Indexed by [`Piece`]: where a piece of that kind gives check from.
    direct: [BitBoard; Piece::NUM],
    /// The mover's pieces whose departure from the line uncovers a check.
    discoverers: BitBoard,
    /// Destinations of pawn moves that promote or take en passant.
    special_pawn_to: BitBoard,
}

impl CheckSquares {
    /// The check geometry of `board` for its side to move.
    pub fn new(board: &Board) -> CheckSquares {
        let us = board.side_to_move();
        let their_king = board.king(!us);
        let occupied = board.occupied();
        let ours = board.colors(us);
        let diagonal = get_bishop_moves(their_king, occupied);
        let straight = get_rook_moves(their_king, occupied);
        let queens = board.colored_pieces(us, Piece::Queen);
        let sliders = (get_bishop_moves(their_king, BitBoard::EMPTY)
            & (board.colored_pieces(us, Piece::Bishop) | queens))
            | (get_rook_moves(their_king, BitBoard::EMPTY)
                & (board.colored_pieces(us, Piece::Rook) | queens));
        let mut discoverers = BitBoard::EMPTY;
        for slider in sliders {
            let between = get_between_rays(slider, their_king) & occupied;
            if between.len() == 1 {
                discoverers |= between & ours;
            }
        }
        let mut special_pawn_to = Rank::Eighth.relative_to(us).bitboard();
        if let Some(file) = board.en_passant() {
            special_pawn_to |= Square::new(file, Rank::Sixth.relative_to(us)).bitboard();
        }
        let mut direct = [BitBoard::EMPTY; Piece::NUM];
        direct[Piece::Pawn as usize] = get_pawn_attacks(their_king, !us);
        direct[Piece::Knight as usize] = get_knight_moves(their_king);
        direct[Piece::Bishop as usize] = diagonal;
        direct[Piece::Rook as usize] = straight;
        direct[Piece::Queen as usize] = diagonal | straight;
        CheckSquares {
            their_king,
            direct,
            discoverers,
            special_pawn_to,
        }
    }

    /// The destinations in `set` (legal moves of `board`, the position this was made for)
    /// whose move gives check. A promoting destination counts when any of its promotions
    /// checks: callers that need the piece ask [`gives_check`] for each.
    #[inline]
    pub fn checking(&self, board: &Board, set: &PieceMoves) -> BitBoard {
        let special = match set.piece {
            Piece::Pawn => set.to & self.special_pawn_to,
            Piece::King => set.to & board.colors(board.side_to_move()), // castling
            _ => BitBoard::EMPTY,
        };
        let ordinary = set.to & !special;
        let mut checks = ordinary & self.direct[set.piece as usize];
        if self.discoverers.has(set.from) {
            checks |= ordinary & !get_line_rays(set.from, self.their_king);
        }
        for to in special {
            let promotions: &[Option<Piece>] = if set.piece == Piece::Pawn
                && Rank::Eighth.relative_to(board.side_to_move()) == to.rank()
            {
                &[
                    Some(Piece::Queen),
                    Some(Piece::Rook),
                    Some(Piece::Bishop),
                    Some(Piece::Knight),
                ]
            } else {
                &[None]
            };
            let from = set.from;
            if promotions.iter().any(|&promotion| {
                gives_check(
                    board,
                    cozy_chess::Move {
                        from,
                        to,
                        promotion,
                    },
                )
            }) {
                checks |= to.bitboard();
            }
        }
        checks
    }
}

/// The mover's pieces and the occupancy after a legal move, for attack tests on the position
/// the move makes without making it.
#[derive(Clone, Copy, Debug)]
pub struct AfterMove {
    us: cozy_chess::Color,
    occupied: BitBoard,
    pawns: BitBoard,
    knights: BitBoard,
    diagonal: BitBoard,
    straight: BitBoard,
    king: Square,
}

impl AfterMove {
    /// The mover's pieces after the legal move `mv` of `board` (None: no piece on its origin).
    #[inline]
    pub fn new(board: &Board, mv: cozy_chess::Move) -> Option<AfterMove> {
        let us = board.side_to_move();
        let moved = board.piece_on(mv.from)?;
        let from = mv.from.bitboard();
        let to = mv.to.bitboard();
        let mut occupied = board.occupied();
        let mut king = board.king(us);
        // Our pieces by kind after the move.
        let mine = |piece: Piece| board.colored_pieces(us, piece);
        let (mut pawns, mut knights) = (mine(Piece::Pawn), mine(Piece::Knight));
        let (mut diagonal, mut straight) = (
            mine(Piece::Bishop) | mine(Piece::Queen),
            mine(Piece::Rook) | mine(Piece::Queen),
        );

        if moved == Piece::King && board.colors(us).has(mv.to) {
            // Castling, encoded as the king taking its own rook.
            let rank = Rank::First.relative_to(us);
            let (king_file, rook_file) = if mv.to.file() > mv.from.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let rook_to = Square::new(rook_file, rank).bitboard();
            king = Square::new(king_file, rank);
            occupied = occupied ^ from ^ to | king.bitboard() | rook_to;
            straight = straight ^ to | rook_to;
        } else {
            occupied = occupied ^ from | to;
            if moved == Piece::Pawn
                && mv.from.file() != mv.to.file()
                && !board.occupied().has(mv.to)
            {
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
                Piece::King => king = mv.to,
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
        Some(AfterMove {
            us,
            occupied,
            pawns,
            knights,
            diagonal,
            straight,
            king,
        })
    }

    /// True when one of the mover's pieces other than its king attacks `square`, with the
    /// squares of `removed` taken off the board (for rays through them).
    #[inline]
    fn attacked_without_king(&self, square: Square, removed: BitBoard) -> bool {
        let occupied = self.occupied & !removed;
        let attackers = (get_bishop_moves(square, occupied) & self.diagonal)
            | (get_rook_moves(square, occupied) & self.straight)
            | (get_knight_moves(square) & self.knights)
            | (get_pawn_attacks(square, !self.us) & self.pawns);
        !attackers.is_empty()
    }

    /// True when the mover attacks `square` (its king included), with the squares of `removed`
    /// taken off the board: where the opponent's king may not step, when `removed` is that
    /// king's square.
    #[inline]
    pub fn attacks(&self, square: Square, removed: BitBoard) -> bool {
        get_king_moves(square).has(self.king) || self.attacked_without_king(square, removed)
    }
}

/// True when the legal move `mv` of `board` puts the opponent in check.
#[inline]
pub fn gives_check(board: &Board, mv: cozy_chess::Move) -> bool {
    let their_king = board.king(!board.side_to_move());
    AfterMove::new(board, mv)
        .is_some_and(|after| after.attacked_without_king(their_king, BitBoard::EMPTY))
}
