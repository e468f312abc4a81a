//! What a chess position says about its value before any search, and in which order to try
//! its moves. Every claim here is a chess fact stated in the exact form it is used: a wrong
//! bound makes the solver prove something false.
//!
//! # Rules (for the side to move)
//! 1. **Mate in one** ([`Knowledge::MATE_IN_ONE`]): some legal move checkmates: a win. Only
//!    checking moves are tried (a mate is a check). A check after which the opponent's king
//!    still has a flight square (a square next to it, free of its own pieces and not attacked
//!    by the mover before the move) that the move neither covers nor lands on is no mate: that
//!    is seen from bitboards ([`AfterMove`]). The others are played on a copy of the board and
//!    the opponent asked for a legal reply. A mate is a check, so this also holds in
//!    checks-only mode.
//! 2. **No mating material** ([`Knowledge::CANNOT_WIN`]): a side *cannot mate* when it has a
//!    lone king (a king never gives check), or a king and one knight or one bishop against a
//!    lone king (the lone king always keeps a flight square or a capture: no mate position
//!    exists). Both facts last: a lone king never gains material, and the other side can only
//!    lose its minor piece. When the side to move cannot mate the outcome is
//!    [`Outcome::CannotWin`], when the opponent cannot [`Outcome::CannotLose`], when neither can
//!    [`Outcome::Draw`]. Not claimed, because false: two knights against a lone king (they
//!    cannot mate against best defence, but mates exist: `k7/3N4/1K2N3/8/8/8/8/8 w`, Nc7#, so
//!    "cannot win" would be wrong there), a minor piece against a king with anything else (the other
//!    side's own pieces can block its king: smothered mates), same-coloured bishops (true,
//!    but rare enough not to pay for the test).
//! 3. **Move order** ([`Knowledge::ORDER`]): checks first, then captures and promotions, then
//!    the quiet moves (cozy-chess's order inside each group). On equal numbers df-pn takes the
//!    first child, so the forcing moves are tried first.
//! 4. **df-pn+ estimates** ([`Knowledge::ESTIMATE`]): a new position's δ is the number of
//!    legal moves of the side to move: showing that a side with many moves cannot win takes
//!    refuting every one of them, so a defender with few replies (in check, say) is a cheap
//!    node to prove for the attacker (Nagai's df-pn+ initialisation from mobility). Where the
//!    attacker ([`Chess::set_attacker`]) is to move, φ is 1 plus the flight squares of the
//!    defender's king (as in rule 1), so a king with room is a harder mate; where the
//!    defender is, its king's moves count three times in δ (a king that can run is the
//!    defence that lasts). Elsewhere φ is 1. On the 46 mates of 5 moves and more of
//!    `chess-mates.epd` (`chesssuite prove`, 300,000 MID calls each, the guide's chess chapter)
//!    the flight squares take 1.78 M MID calls instead of 2.83 M (44 proven instead of 41;
//!    given to both sides, 2.15 M) and the king moves 1.57 M (45 proven).
//!
//! Each rule is a switch so benchmarks can measure what it pays (the guide's chess chapter).

use cozy_chess::{BitBoard, Board, Color, Piece};
use proofnum::{MoveList, Numbers, Outcome};

use super::check::{AfterMove, CheckSquares};
use super::{Chess, Move, gives_check};

/// Which pieces of chess knowledge a position uses. The value of a position never depends on
/// it, only the speed of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knowledge(u8);

impl Knowledge {
    /// Nothing but the rules: `outcome` reports only mates, stalemates and the fifty-move
    /// draw, moves come in cozy-chess's order, estimates are (1, 1).
    pub const NONE: Knowledge = Knowledge(0);
    /// Rule 1 of the module docs: a win when the side to move mates in one.
    pub const MATE_IN_ONE: Knowledge = Knowledge(1);
    /// Rule 2: bounds from material that can never mate.
    pub const CANNOT_WIN: Knowledge = Knowledge(1 << 1);
    /// Rule 3: checks, then captures and promotions, then quiet moves.
    pub const ORDER: Knowledge = Knowledge(1 << 2);
    /// Rule 4: df-pn+ estimates from the legal moves and the defending king's room.
    pub const ESTIMATE: Knowledge = Knowledge(1 << 3);
    /// Every rule: the default of every position.
    pub const ALL: Knowledge = Knowledge((1 << 4) - 1);
    /// The rules one by one, with their names (for benchmarks that switch each off in turn).
    pub const EACH: [(&'static str, Knowledge); 4] = [
        ("mate-in-one", Knowledge::MATE_IN_ONE),
        ("cannot-win", Knowledge::CANNOT_WIN),
        ("order", Knowledge::ORDER),
        ("estimate", Knowledge::ESTIMATE),
    ];
}

crate::knowledge_set::knowledge_set!(Knowledge);

/// True when `color` can never checkmate from this board, whatever is played (rule 2 of the
/// module docs: a lone king, or king and one minor piece against a lone king).
pub fn cannot_mate(board: &Board, color: Color) -> bool {
    let kings = board.pieces(Piece::King);
    let ours = board.colors(color) & !kings;
    if ours.is_empty() {
        return true;
    }
    let theirs = board.colors(!color) & !kings;
    let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
    theirs.is_empty() && ours.len() == 1 && ours.is_subset(minors)
}

/// True when the side to move has a move that checkmates.
pub fn has_mate_in_one(board: &Board) -> bool {
    mating_move(board).is_some()
}

/// A move of the side to move that checkmates, if there is one (the first cozy-chess lists).
pub fn mating_move(board: &Board) -> Option<Move> {
    mating_move_and_count(board).0
}

/// [`mating_move`] and, when there is none, the number of legal moves (0 when there is a
/// mate: the count stops there): one move generation for mate in one and the estimate.
pub(super) fn mating_move_and_count(board: &Board) -> (Option<Move>, u32) {
    let mut found = None;
    let mut count = 0;
    let check_squares = CheckSquares::new(board);
    let their_king = board.king(!board.side_to_move());
    let flights = flight_squares(board);
    board.generate_moves(|mut set| {
        count += set.len() as u32;
        set.to &= check_squares.checking(board, &set);
        for mv in set {
            if mv.promotion.is_none() || gives_check(board, mv) {
                // A mate leaves the king no flight: one this move cannot cover (nor land on)
                // rules it out without playing it.
                if let Some(after) = AfterMove::new(board, mv)
                    && (flights & !mv.to.bitboard())
                        .into_iter()
                        .any(|flight| !after.attacks(flight, their_king.bitboard()))
                {
                    continue;
                }
                let mut after = board.clone();
                after.play_unchecked(mv);
                if !after.generate_moves(|_| true) {
                    found = Some(Move::from(mv));
                    return true;
                }
            }
        }
        false
    });
    (found, if found.is_some() { 0 } else { count })
}

/// Mate in one for [`outcome`], leaving the legal move count in `chess`'s cache for
/// [`proofnum::Game::estimate`], which the search asks next for the same position.
fn has_mate_in_one_counted(chess: &Chess) -> bool {
    let board = chess.board();
    let (mate, count) = mating_move_and_count(board);
    if mate.is_none() {
        chess.legal_moves_seen.set(Some((chess.key(), count)));
    }
    mate.is_some()
}

/// The knowledge part of [`proofnum::Game::outcome`] for a position with legal moves that is
/// not drawn by the fifty-move rule.
pub(super) fn outcome(chess: &Chess) -> Outcome {
    let board = chess.board();
    let mut knowledge = chess.knowledge;
    if !chess.is_attacker(super::player(board.side_to_move())) {
        knowledge = knowledge.without(Knowledge::MATE_IN_ONE);
    }
    if knowledge.contains(Knowledge::CANNOT_WIN) {
        let us = board.side_to_move();
        match (cannot_mate(board, us), cannot_mate(board, !us)) {
            (true, true) => return Outcome::Draw,
            (true, false) => return Outcome::CannotWin,
            (false, true) => {
                // Still worth knowing whether the side to move mates at once.
                if knowledge.contains(Knowledge::MATE_IN_ONE) && has_mate_in_one_counted(chess) {
                    return Outcome::Win;
                }
                return Outcome::CannotLose;
            }
            (false, false) => {}
        }
    }
    if knowledge.contains(Knowledge::MATE_IN_ONE) && has_mate_in_one_counted(chess) {
        return Outcome::Win;
    }
    Outcome::Unknown
}

/// How a move is grouped by [`ordered_moves`]: lower groups first.
const GROUP_CHECK: u8 = 0;
const GROUP_CAPTURE: u8 = 1;
const GROUP_QUIET: u8 = 2;
const GROUPS: u8 = 3;

/// Writes the legal moves of `board` (only the checking ones when `checks_only`) into `moves`:
/// checks, then captures and promotions, then quiet moves.
pub(super) fn ordered_moves(board: &Board, checks_only: bool, moves: &mut MoveList<'_, Move>) {
    let mut grouped = [(0u8, Move::default()); super::MAX_MOVES];
    let mut n = 0;
    let theirs = board.colors(!board.side_to_move());
    let check_squares = CheckSquares::new(board);
    board.generate_moves(|set| {
        let checking = check_squares.checking(board, &set);
        for mv in set {
            let group = if checking.has(mv.to) && (mv.promotion.is_none() || gives_check(board, mv))
            {
                GROUP_CHECK
            } else if checks_only {
                continue;
            } else if theirs.has(mv.to) || mv.promotion.is_some() {
                GROUP_CAPTURE
            } else {
                GROUP_QUIET
            };
            if let Some(slot) = grouped.get_mut(n) {
                *slot = (group, Move::from(mv));
            }
            n += 1;
        }
        false
    });
    if n > grouped.len() {
        // More moves than any chess position has: pass them all on so the list overflows
        // and the solver reports it.
        (0..n).for_each(|_| moves.push(Move::default()));
        return;
    }
    for group in 0..GROUPS {
        for &(g, mv) in &grouped[..n] {
            if g == group {
                moves.push(mv);
            }
        }
    }
}

/// The df-pn+ estimate of rule 4: where the attacker is to move, (1 plus the opponent king's
/// flight squares, number of legal moves), the count from the cache [`outcome`] filled for
/// this position when it did (keyed by the Zobrist hash: a collision could only change an
/// estimate, never a value), else from a move generation; where the defender is, (1, number
/// of legal moves with its king's moves counted three times).
pub(super) fn estimate(chess: &Chess) -> Numbers {
    let board = chess.board();
    if !chess.is_attacker(super::player(board.side_to_move())) {
        // The defender: its king's moves count three times.
        let mut count = 0u32;
        board.generate_moves(|set| {
            let weight = if set.piece == Piece::King {
                1 + DEFENDER_KING_MOVE_EXTRA
            } else {
                1
            };
            count += weight * set.len() as u32;
            false
        });
        return Numbers::new(1, count.max(1));
    }
    let count = match chess.legal_moves_seen.get() {
        Some((key, count)) if key == chess.key() => count,
        _ => {
            let mut count = 0u32;
            board.generate_moves(|set| {
                count += set.len() as u32;
                false
            });
            count
        }
    };
    Numbers::new(1 + flights(board), count.max(1))
}

/// What a defender king move adds to the estimate's δ beyond the 1 of any move: measured on
/// the 46 mates of 5+ moves of `chess-mates.epd` (`chesssuite prove`, 300,000 MID calls each):
/// 0 gives 1.78 M MID calls (44 proven), 1 gives 1.60 M (44), 2 gives 1.57 M (45), 3 gives
/// 1.61 M (44), 5 gives 1.66 M (45).
const DEFENDER_KING_MOVE_EXTRA: u32 = 2;

/// The squares the opponent's king could step to (empty of its own pieces, not attacked by the
/// side to move, the king itself taken off the board for the sliders' rays).
pub(super) fn flights(board: &Board) -> u32 {
    flight_squares(board).len()
}

/// The squares of [`flights`].
pub(super) fn flight_squares(board: &Board) -> BitBoard {
    let us = board.side_to_move();
    let their_king = board.king(!us);
    let occupied = board.occupied() ^ their_king.bitboard();
    let diagonal = board.colored_pieces(us, Piece::Bishop) | board.colored_pieces(us, Piece::Queen);
    let straight = board.colored_pieces(us, Piece::Rook) | board.colored_pieces(us, Piece::Queen);
    let knights = board.colored_pieces(us, Piece::Knight);
    let pawns = board.colored_pieces(us, Piece::Pawn);
    let our_king = board.king(us);
    let mut free = BitBoard::EMPTY;
    for sq in cozy_chess::get_king_moves(their_king) & !board.colors(!us) {
        let attacked = !(cozy_chess::get_bishop_moves(sq, occupied) & diagonal).is_empty()
            || !(cozy_chess::get_rook_moves(sq, occupied) & straight).is_empty()
            || !(cozy_chess::get_knight_moves(sq) & knights).is_empty()
            || !(cozy_chess::get_pawn_attacks(sq, !us) & pawns).is_empty()
            || cozy_chess::get_king_moves(sq).has(our_king);
        if !attacked {
            free |= sq.bitboard();
        }
    }
    free
}
