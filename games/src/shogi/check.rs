//! Which moves give check, from bitboards, without playing them.
//!
//! The attacker of a tsume problem may only play checks, so every attacker position lists its
//! checks. haitaka has a checks generator (`Board::generate_checks`), but it counts as a
//! discovered check the move of any lone piece between one of the mover's sliders and the
//! enemy king on any line, whether or not that slider moves along the line (a rook on the
//! king's diagonal) and whether or not an enemy piece also stands between; it would list
//! moves that give no check. So this module classifies haitaka's legal moves itself, the way
//! the chess game does: a move checks when the piece it places stands on a square from which
//! that kind of piece attacks the king (direct check), or when it leaves the line between the
//! king and one of the mover's sliders that moves along that line and has no other piece
//! between (discovered check). `tests/shogi_rules.rs` checks the list against playing every
//! legal move of many positions and asking haitaka whether the opponent is in check.
//!
//! Direct checks need no occupancy update: a slider moving along a line through the king with
//! its origin between the destination and the king would already give check from its origin,
//! which a legal position (the opponent not in check with us to move) rules out.

use haitaka::{
    BitBoard, Board, Piece, PieceMoves, Square, bishop_pseudo_attacks, get_between_rays,
    get_bishop_moves, get_lance_moves, get_rook_moves, gold_attacks, king_attacks, knight_attacks,
    lance_pseudo_attacks, line_ray, pawn_attacks, rook_pseudo_attacks, silver_attacks,
};

use super::Move;
use super::knowledge::{checker_taken, flight_squares};

/// A position's check geometry for its side to move, computed once so that whole sets of
/// moves are classified with a few bitboard operations.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    their_king: Square,
    /// Indexed by [`Piece`]: where a piece of that kind gives check from.
    direct: [BitBoard; Piece::NUM],
    /// The mover's pieces whose departure from their line uncovers a check.
    discoverers: BitBoard,
}

impl CheckSquares {
    /// The check geometry of `board` for its side to move; `None` when the opponent has no
    /// king (nothing to check).
    pub fn new(board: &Board) -> Option<CheckSquares> {
        let us = board.side_to_move();
        let them = !us;
        if !board.has(them, Piece::King) {
            return None;
        }
        let their_king = board.king(them);
        let occupied = board.occupied();
        let ours = board.colors(us);
        // A piece of ours attacks the king from the squares a piece of theirs of the same kind
        // standing on the king's square would attack (the patterns are point-symmetric).
        let rook = get_rook_moves(them, their_king, occupied);
        let bishop = get_bishop_moves(them, their_king, occupied);
        let ring = king_attacks(them, their_king);
        let gold = gold_attacks(them, their_king);
        let mut direct = [BitBoard::EMPTY; Piece::NUM];
        direct[Piece::Pawn as usize] = pawn_attacks(them, their_king);
        direct[Piece::Lance as usize] = get_lance_moves(them, their_king, occupied);
        direct[Piece::Knight as usize] = knight_attacks(them, their_king);
        direct[Piece::Silver as usize] = silver_attacks(them, their_king);
        direct[Piece::Gold as usize] = gold;
        direct[Piece::Bishop as usize] = bishop;
        direct[Piece::Rook as usize] = rook;
        for promoted in [Piece::Tokin, Piece::PLance, Piece::PKnight, Piece::PSilver] {
            direct[promoted as usize] = gold;
        }
        direct[Piece::PBishop as usize] = bishop | ring;
        direct[Piece::PRook as usize] = rook | ring;

        // Our sliders that move along their line to the king, with exactly one piece between,
        // ours: moving it off the line uncovers the check.
        let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::PRook);
        let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::PBishop);
        let lances = board.pieces(Piece::Lance);
        let sliders = ours
            & ((rook_pseudo_attacks(their_king) & rooks)
                | (bishop_pseudo_attacks(their_king) & bishops)
                | (lance_pseudo_attacks(them, their_king) & lances));
        let mut discoverers = BitBoard::EMPTY;
        for slider in sliders {
            let between = get_between_rays(slider, their_king) & occupied;
            if between.len() == 1 {
                discoverers |= between & ours;
            }
        }
        Some(CheckSquares {
            their_king,
            direct,
            discoverers,
        })
    }

    /// True when the legal board move of `piece` from `from` to `to` (promoting or not)
    /// gives check.
    #[inline]
    pub fn board_move_checks(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        promotion: bool,
    ) -> bool {
        let placed = if promotion { piece.promote() } else { piece };
        self.direct[placed as usize].has(to) || self.discovers(from, to)
    }

    /// The square of the king these checks are against.
    #[inline]
    pub fn their_king(&self) -> Square {
        self.their_king
    }

    /// True when the board move from `from` to `to` uncovers a check by a slider behind
    /// `from` (whatever the piece gives from `to`).
    #[inline]
    pub fn discovers(&self, from: Square, to: Square) -> bool {
        self.discoverers.has(from) && !line_ray(from, self.their_king).has(to)
    }

    /// True when dropping `piece` on `to` gives check (drops never discover a check).
    #[inline]
    pub fn drop_checks(&self, piece: Piece, to: Square) -> bool {
        self.direct[piece as usize].has(to)
    }

    /// Destinations of the set's moves that may give check (a superset: promotions are told
    /// apart by [`board_move_checks`](Self::board_move_checks)).
    #[inline]
    fn candidates(&self, piece: Piece, from: Square, to: BitBoard) -> BitBoard {
        let mut squares = self.direct[piece as usize] | self.direct[piece.promote() as usize];
        if self.discoverers.has(from) {
            squares |= !line_ray(from, self.their_king);
        }
        to & squares
    }

    /// True when the legal move `mv` of `board` (the position this was made for) gives check.
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        match (mv.origin(), mv.dropped()) {
            (Some(from), _) => board.piece_on(from).is_some_and(|piece| {
                self.board_move_checks(piece, from, mv.to(), mv.is_promotion())
            }),
            (None, Some(piece)) => self.drop_checks(piece, mv.to()),
            (None, None) => false,
        }
    }
}

/// True when dropping a pawn of the side to move on `to` (the square in front of the
/// opponent's king) mates: the pawn checks and the opponent has no legal reply. The usual
/// replies are seen first without generating every move: a flight square of the king (the
/// pawn attacks none and only blocks rays, so a flight stays one), then the pawn taken
/// ([`checker_taken`], on a copy of the board with the pawn dropped).
fn pawn_drop_mates(board: &Board, to: Square) -> bool {
    if !(flight_squares(board) & !to.bitboard()).is_empty() {
        return false;
    }
    let mut after = board.clone();
    after.play_unchecked(haitaka::Move::Drop {
        piece: Piece::Pawn,
        to,
    });
    let king = after.king(after.side_to_move());
    !checker_taken(&after, king) && !after.generate_moves(|_| true)
}

/// `to` (pawn drop squares of the side to move that haitaka's generator listed) without the
/// one that would mate by a pawn drop. haitaka's drop generator tests for that mate on the
/// first square of its set rather than on the square in front of the king, so it lets most
/// such drops through; `tests/shogi_rules.rs` compares with rsshogi, which rules them out.
pub fn without_pawn_drop_mate(board: &Board, to: BitBoard) -> BitBoard {
    let us = board.side_to_move();
    if !board.has(!us, Piece::King) {
        return to;
    }
    // The square from which a pawn of ours attacks their king.
    let front = pawn_attacks(!us, board.king(!us)) & to;
    match front.next_square() {
        Some(square) if pawn_drop_mates(board, square) => to.rm(square),
        _ => to,
    }
}

/// haitaka's legal move generation (`Board::generate_moves`, by sets of moves of one piece)
/// with mate by a pawn drop taken out: calls `f` with each non-empty set until it returns
/// true; returns whether it did.
pub fn generate_legal(board: &Board, mut f: impl FnMut(PieceMoves) -> bool) -> bool {
    board.generate_moves(|set| match set {
        PieceMoves::Drops {
            color,
            piece: Piece::Pawn,
            to,
        } => {
            let to = without_pawn_drop_mate(board, to);
            !to.is_empty()
                && f(PieceMoves::Drops {
                    color,
                    piece: Piece::Pawn,
                    to,
                })
        }
        other => f(other),
    })
}

/// True when the side to move has a legal move.
pub fn has_legal_move(board: &Board) -> bool {
    generate_legal(board, |_| true)
}

/// Calls `f` with every legal move of `board`'s side to move that gives check, drops first
/// (two pawns on a file and mate by a pawn drop excluded), until `f` returns true; returns
/// whether it did.
pub fn for_each_check(board: &Board, f: impl FnMut(Move) -> bool) -> bool {
    CheckSquares::new(board).is_some_and(|checks| for_each_check_of(board, &checks, f))
}

/// [`for_each_check`] with the check geometry `checks` of `board` already computed.
pub fn for_each_check_of(
    board: &Board,
    checks: &CheckSquares,
    mut f: impl FnMut(Move) -> bool,
) -> bool {
    let color = board.side_to_move();
    if board.generate_drops(|set| {
        if let PieceMoves::Drops { piece, to, .. } = set {
            let mut to = to & checks.direct[piece as usize];
            if piece == Piece::Pawn {
                to = without_pawn_drop_mate(board, to);
            }
            for square in to {
                if f(Move::drop(piece, square)) {
                    return true;
                }
            }
        }
        false
    }) {
        return true;
    }
    board.generate_board_moves(|set| {
        if let PieceMoves::BoardMoves {
            piece,
            from,
            to,
            prom_status,
            ..
        } = set
        {
            let to = checks.candidates(piece, from, to);
            if to.is_empty() {
                return false;
            }
            let narrowed = PieceMoves::BoardMoves {
                color,
                piece,
                from,
                to,
                prom_status,
            };
            for mv in narrowed {
                if let haitaka::Move::BoardMove { to, promotion, .. } = mv {
                    if checks.board_move_checks(piece, from, to, promotion) && f(Move::from(mv)) {
                        return true;
                    }
                }
            }
        }
        false
    })
}
