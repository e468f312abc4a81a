//! What a tsume position says about its value before any search, and in which order to try
//! its moves. Every claim here is a shogi fact stated in the exact form it is used: a wrong
//! claim makes the solver prove something false.
//!
//! # Rules
//! 1. **Mate in one** ([`Knowledge::MATE_IN_ONE`]): the attacker (Black) to move has a check
//!    after which the defender has no legal move: a win. Only Black's checks are tried (they
//!    are its only moves). A check after which the king still has a flight square (a
//!    neighbouring square free of White's pieces that no Black piece attacks, the king taken
//!    off the board for the sliders' rays) that the checking move neither covers nor lands on
//!    is no mate: seen from bitboards without playing the check (a drop adds only its own
//!    piece's attacks; a board move's uncovered rays are read with the new occupancy). So is
//!    a single check by a slider from a distance that the defender can block with a drop from
//!    its hand. The others are played on a copy of the board, where a check whose checker the
//!    king or an unpinned piece takes is no mate, seen before generating every reply.
//!    Mate by a pawn drop is not among Black's moves, so it is never counted as a mate.
//! 2. **Move order** ([`Knowledge::ORDER`]): the attacker's captures and promotions first,
//!    then its drops, then its other checks; the defender's king moves first, then its
//!    captures, then interpositions by a board move, then drops (weak pieces first). On equal
//!    numbers df-pn takes the first child.
//! 3. **df-pn+ estimates** ([`Knowledge::ESTIMATE`], Nagai 2002): where Black is to move,
//!    φ = 1 + the defender king's flight squares (a king with room is a harder mate) and
//!    δ = the number of checks (each must be refuted); where White is, φ = 1 and δ = its
//!    replies, a king move counting [`KING_MOVE_WEIGHT`] and the drops on one square counting
//!    once whatever the piece (interpositions on one square are usually answered alike).
//! 4. **Deferred drops** ([`Knowledge::DEFER_DROPS`], with rule 2; delayed expansion as in
//!    KomoringHeights): of the defender's drops on one square only the first (the weakest
//!    piece) is made when the position is expanded; the others are deferred
//!    (`proofnum::Game::deferred_moves`): made one at a time once every other reply has
//!    failed. On 116 problems of 0.03–8 s, 256 MiB: a geometric mean of 0.36 of the MID
//!    calls (better than 0.9× on 102, worse than 1.1× on 10), 0.31 of their sum.
//!
//! Each rule is a switch so benchmarks can measure what it pays. Whatever the switches, the
//! defender with no legal move is reported mated (a loss) and the attacker with no check a
//! loss: the rules of the game.

use haitaka::{
    BitBoard, Board, Color, Piece, PieceMoves, Square, drop_zone, get_between_rays,
    get_bishop_moves, get_lance_moves, get_rook_moves, gold_attacks, king_attacks, knight_attacks,
    pawn_attacks, silver_attacks,
};
use proofnum::{MoveList, Numbers, Outcome};

use super::check::{
    CheckSquares, for_each_check, for_each_check_of, generate_legal, has_legal_move,
};
use super::{HAND_PIECES, MAX_MOVES, Move, Tsume};

/// Which pieces of tsume knowledge a position uses. The value of a position never depends on
/// it, only the speed of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knowledge(u8);

impl Knowledge {
    /// Nothing but the rules: mates and failed attacks only, moves in generation order,
    /// estimates (1, 1).
    pub const NONE: Knowledge = Knowledge(0);
    /// Rule 1 of the module docs: a win when the attacker mates in one.
    pub const MATE_IN_ONE: Knowledge = Knowledge(1);
    /// Rule 2: move order.
    pub const ORDER: Knowledge = Knowledge(1 << 1);
    /// Rule 3: df-pn+ estimates from flight squares and move counts.
    pub const ESTIMATE: Knowledge = Knowledge(1 << 2);
    /// Hand dominance (`proofnum::Game::dominance`): a position solved with one hand settles
    /// those of its board with a hand at least as good (for a proof) or no better (for a
    /// disproof).
    pub const DOMINANCE: Knowledge = Knowledge(1 << 3);
    /// Rule 4 (with rule 2): the defender's drops on a square after the first there are
    /// deferred (`proofnum::Game::deferred_moves`): made only once all its other replies
    /// have failed.
    pub const DEFER_DROPS: Knowledge = Knowledge(1 << 4);
    /// Proof pieces (with hand dominance; `proofnum::Game::material_needed`): a mate is
    /// remembered with the fewest pieces in Black's hand it needs, so it settles every
    /// position of its board with at least those (the `proof_pieces` module's rules).
    pub const PROOF_PIECES: Knowledge = Knowledge(1 << 5);
    /// Every rule: the default of every position.
    pub const ALL: Knowledge = Knowledge((1 << 6) - 1);
    /// What certificates are written and checked with: the rules and hand dominance, nothing
    /// that changes a position's moves or what the game says of it. Dominance is a claim the
    /// checker then takes from the game, as the search does (a proof that leans on it would
    /// otherwise be written out in full, which took musou-030's more than 300 s).
    pub const CERTIFICATE: Knowledge = Knowledge::DOMINANCE;
    /// The rules one by one, with their names (for benchmarks that switch each off in turn).
    pub const EACH: [(&'static str, Knowledge); 6] = [
        ("mate-in-one", Knowledge::MATE_IN_ONE),
        ("order", Knowledge::ORDER),
        ("estimate", Knowledge::ESTIMATE),
        ("dominance", Knowledge::DOMINANCE),
        ("defer-drops", Knowledge::DEFER_DROPS),
        ("proof-pieces", Knowledge::PROOF_PIECES),
    ];
}

crate::knowledge_set::knowledge_set!(Knowledge);

/// What a defender king move weighs in the estimate's δ (a king that can run is the defence
/// that lasts).
pub const KING_MOVE_WEIGHT: u32 = 2;

/// True when a piece of `color` attacks `square` through the occupancy `occupied` (the
/// patterns are point-symmetric: a piece of `color` on X attacks `square` exactly when the
/// same kind of piece of the other colour on `square` would attack X). The mate-in-one test's
/// inner loop, so the stepping pieces come first and a slider's ray is computed only when
/// `color` has such a slider.
pub fn attacked_by(board: &Board, color: Color, square: Square, occupied: BitBoard) -> bool {
    let them = !color;
    let ours = board.colors(color);
    let pieces = |piece: Piece| board.pieces(piece) & ours;
    let golds = pieces(Piece::Gold)
        | pieces(Piece::Tokin)
        | pieces(Piece::PLance)
        | pieces(Piece::PKnight)
        | pieces(Piece::PSilver);
    let (bishops, rooks) = (
        pieces(Piece::Bishop) | pieces(Piece::PBishop),
        pieces(Piece::Rook) | pieces(Piece::PRook),
    );
    let steppers = (pawn_attacks(them, square) & pieces(Piece::Pawn))
        | (knight_attacks(them, square) & pieces(Piece::Knight))
        | (silver_attacks(them, square) & pieces(Piece::Silver))
        | (gold_attacks(them, square) & golds)
        | (king_attacks(them, square)
            & (pieces(Piece::King) | pieces(Piece::PBishop) | pieces(Piece::PRook)));
    if !steppers.is_empty() {
        return true;
    }
    let lances = pieces(Piece::Lance);
    (!lances.is_empty() && !(get_lance_moves(them, square, occupied) & lances).is_empty())
        || (!bishops.is_empty() && !(get_bishop_moves(them, square, occupied) & bishops).is_empty())
        || (!rooks.is_empty() && !(get_rook_moves(them, square, occupied) & rooks).is_empty())
}

/// The squares the opponent's king could step to: free of its own pieces and not attacked by
/// the side to move (the king taken off the board for the sliders' rays). Empty when the
/// opponent has no king.
pub fn flight_squares(board: &Board) -> BitBoard {
    let us = board.side_to_move();
    let them = !us;
    if !board.has(them, Piece::King) {
        return BitBoard::EMPTY;
    }
    let king = board.king(them);
    let occupied = board.occupied() ^ king.bitboard();
    let mut free = BitBoard::EMPTY;
    for square in king_attacks(them, king) & !board.colors(them) {
        if !attacked_by(board, us, square, occupied) {
            free |= square.bitboard();
        }
    }
    free
}

/// A check of the side to move that mates, if there is one (the first in generation order),
/// the number of checks seen (all of them when there is no mate) and the opponent king's
/// flight squares ([`flight_squares`]).
pub(super) fn mating_move_and_count(board: &Board) -> (Option<Move>, u32, BitBoard) {
    let mut found = None;
    let mut count = 0;
    let flights = flight_squares(board);
    let us = board.side_to_move();
    let Some(checks) = CheckSquares::new(board) else {
        return (None, 0, flights); // no king to check
    };
    let without_king = board.occupied() ^ checks.their_king().bitboard();
    for_each_check_of(board, &checks, |mv| {
        count += 1;
        // A drop only adds its own piece's attacks (and blocks rays, which frees squares): a
        // flight square it neither lands on nor attacks stays one, so the king steps there.
        // Seen without playing the drop.
        let to = mv.to();
        if let Some(piece) = mv.dropped() {
            let reach = piece_attacks(piece, us, to, without_king | to.bitboard());
            if !(flights & !to.bitboard() & !reach).is_empty()
                || interposable(board, checks.their_king(), piece, to)
            {
                return false;
            }
        } else if let Some((from, piece)) = mv.origin().and_then(|f| Some((f, board.piece_on(f)?)))
        {
            // A board move also uncovers rays through its origin: a flight square it does not
            // attack from its destination and that no piece attacks through the new occupancy
            // (the moved piece counted at its origin too, which only errs towards "attacked")
            // stays one.
            let moved = if mv.is_promotion() {
                piece.promote()
            } else {
                piece
            };
            let occupied = (without_king ^ from.bitboard()) | to.bitboard();
            let reach = piece_attacks(moved, us, to, occupied);
            if (flights & !to.bitboard() & !reach)
                .into_iter()
                .any(|flight| !attacked_by(board, us, flight, occupied))
            {
                return false;
            }
            // A discovered check too is a double check, which no interposition answers.
            if !checks.discovers(from, to) && interposable(board, checks.their_king(), moved, to) {
                return false;
            }
        }
        let mut after = board.clone();
        after.play_unchecked(mv.to_haitaka());
        // The flight squares were tested above (a king step the test missed, and every other
        // reply, is found by generating them).
        let king = after.king(after.side_to_move());
        if !checker_taken(&after, king) && !has_legal_move(&after) {
            found = Some(mv);
            return true;
        }
        false
    });
    (found, count, flights)
}

/// True when the side to move, in check by a single piece, can take the checker at once: with
/// its king (the checker next to it and not defended, the king taken off the board for the
/// sliders' rays), or with another piece that is not pinned (haitaka's `pinned` holds every
/// lone piece between the king and a slider of the other side, so it errs towards "pinned").
/// Either is a legal reply, so the check is no mate; the usual reply to a contact check, seen
/// before generating every reply.
pub(super) fn checker_taken(after: &Board, king: Square) -> bool {
    let checkers = after.checkers();
    let Some(checker) = checkers.next_square() else {
        return false;
    };
    if checkers.len() != 1 {
        return false;
    }
    let us = after.side_to_move();
    let occupied = after.occupied();
    if king_attacks(us, king).has(checker)
        && !attacked_by(after, !us, checker, occupied ^ king.bitboard())
    {
        return true;
    }
    let takers = attackers(after, us, checker, occupied) & !king.bitboard() & !after.pinned();
    !takers.is_empty()
}

/// The pieces of `color` that attack `square` through the occupancy `occupied` (see
/// [`attacked_by`], which answers whether there is one faster).
fn attackers(board: &Board, color: Color, square: Square, occupied: BitBoard) -> BitBoard {
    let them = !color;
    let ours = board.colors(color);
    let golds = board.pieces(Piece::Gold)
        | board.pieces(Piece::Tokin)
        | board.pieces(Piece::PLance)
        | board.pieces(Piece::PKnight)
        | board.pieces(Piece::PSilver);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::PBishop);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::PRook);
    let around =
        board.pieces(Piece::King) | board.pieces(Piece::PBishop) | board.pieces(Piece::PRook);
    ours & ((pawn_attacks(them, square) & board.pieces(Piece::Pawn))
        | (knight_attacks(them, square) & board.pieces(Piece::Knight))
        | (silver_attacks(them, square) & board.pieces(Piece::Silver))
        | (gold_attacks(them, square) & golds)
        | (king_attacks(them, square) & around)
        | (get_lance_moves(them, square, occupied) & board.pieces(Piece::Lance))
        | (get_bishop_moves(them, square, occupied) & bishops)
        | (get_rook_moves(them, square, occupied) & rooks))
}

/// True when the side not to move on `board` (the defender, its king on `king`) can answer a
/// check given by the mover's `piece` placed on `to` alone (no other piece checks) by
/// dropping a piece from its hand between: the piece is a slider checking from a distance and
/// the defender holds a piece it may drop on one of the squares between (its drop zone; a pawn
/// not on a file where it has one, and only when the mover has no king, so that the pawn
/// cannot give mate by a drop). A drop never exposes the dropping side's king, so such a drop
/// is a legal reply and the check is no mate: seen without playing it.
fn interposable(board: &Board, king: Square, piece: Piece, to: Square) -> bool {
    if !matches!(
        piece,
        Piece::Lance | Piece::Bishop | Piece::Rook | Piece::PBishop | Piece::PRook
    ) {
        return false;
    }
    let between = get_between_rays(to, king) & !board.occupied();
    if between.is_empty() {
        return false;
    }
    let mover = board.side_to_move();
    let defender = !mover;
    HAND_PIECES.iter().any(|&kind| {
        if board.num_in_hand(defender, kind) == 0 {
            return false;
        }
        let squares = between & drop_zone(defender, kind);
        match kind {
            Piece::Pawn => {
                !board.has(mover, Piece::King)
                    && squares
                        .into_iter()
                        .any(|square| board.pawn_drop_ok(defender, square))
            }
            _ => !squares.is_empty(),
        }
    })
}

/// The squares a piece of `color` of kind `piece` on `square` attacks through `occupied`.
fn piece_attacks(piece: Piece, color: Color, square: Square, occupied: BitBoard) -> BitBoard {
    match piece {
        Piece::Pawn => pawn_attacks(color, square),
        Piece::Lance => get_lance_moves(color, square, occupied),
        Piece::Knight => knight_attacks(color, square),
        Piece::Silver => silver_attacks(color, square),
        Piece::Gold | Piece::Tokin | Piece::PLance | Piece::PKnight | Piece::PSilver => {
            gold_attacks(color, square)
        }
        Piece::Bishop => get_bishop_moves(color, square, occupied),
        Piece::Rook => get_rook_moves(color, square, occupied),
        Piece::PBishop => get_bishop_moves(color, square, occupied) | king_attacks(color, square),
        Piece::PRook => get_rook_moves(color, square, occupied) | king_attacks(color, square),
        Piece::King => king_attacks(color, square),
    }
}

/// A move of the side to move that checkmates at once, if there is one.
pub fn mating_move(board: &Board) -> Option<Move> {
    mating_move_and_count(board).0
}

/// What [`outcome`] saw of a position that [`estimate`] needs too, with the position's hash
/// (a collision could only change an estimate, never a value).
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    key: u64,
    /// Black's checks, or White's replies weighted as [`defender_weight`] weighs them.
    count: u32,
    /// Where Black is to move and the mate-in-one test ran: the defender king's flight squares.
    flights: Option<u32>,
}

/// [`proofnum::Game::outcome`]: the defender with no move is mated, the attacker with no check
/// has failed, the attacker with a mate in one has won; the move count (and the flight squares
/// the mate test counted) are left for [`estimate`].
pub(super) fn outcome(tsume: &Tsume) -> Outcome {
    let board = tsume.board();
    let mut flights = None;
    let count = if board.side_to_move() == Color::Black {
        if tsume.knowledge.contains(Knowledge::MATE_IN_ONE) {
            let (mate, count, free) = mating_move_and_count(board);
            if mate.is_some() {
                return Outcome::Win;
            }
            flights = Some(free.len());
            count
        } else {
            let mut count = 0;
            for_each_check(board, |_| {
                count += 1;
                false
            });
            count
        }
    } else if tsume.knowledge.contains(Knowledge::ESTIMATE) {
        defender_weight(board)
    } else {
        u32::from(has_legal_move(board))
    };
    if count == 0 {
        return Outcome::Loss;
    }
    tsume.moves_seen.set(Some(Seen {
        key: tsume.key(),
        count,
        flights,
    }));
    Outcome::Unknown
}

/// The defender's replies weighted as the estimate weighs them (0 when it has none).
fn defender_weight(board: &Board) -> u32 {
    let mut weight = 0;
    let mut drop_squares = BitBoard::EMPTY;
    generate_legal(board, |set| {
        match set {
            PieceMoves::Drops { to, .. } => drop_squares |= to,
            PieceMoves::BoardMoves {
                piece: Piece::King, ..
            } => weight += KING_MOVE_WEIGHT * set.len() as u32,
            PieceMoves::BoardMoves { .. } => weight += set.into_iter().count() as u32,
        }
        false
    });
    weight + drop_squares.len()
}

/// [`proofnum::Game::estimate`] (rule 3 of the module docs), the counts from what [`outcome`]
/// saw of this position when it did ([`Seen`]).
pub(super) fn estimate(tsume: &Tsume) -> Numbers {
    if !tsume.knowledge.contains(Knowledge::ESTIMATE) {
        return Numbers::UNIT;
    }
    let board = tsume.board();
    let cached = tsume
        .moves_seen
        .get()
        .filter(|seen| seen.key == tsume.key());
    if board.side_to_move() == Color::Black {
        let checks = cached.map_or_else(
            || {
                let mut count = 0;
                for_each_check(board, |_| {
                    count += 1;
                    false
                });
                count
            },
            |seen| seen.count,
        );
        let flights = cached
            .and_then(|seen| seen.flights)
            .unwrap_or_else(|| flight_squares(board).len());
        Numbers::new(1 + flights, checks.max(1))
    } else {
        let weight = cached.map_or_else(|| defender_weight(board), |seen| seen.count);
        Numbers::new(1, weight.max(1))
    }
}

/// Move groups of [`generate`]: lower groups first.
const GROUPS: u8 = 5;

/// The group of the defender's drops on a square after the first there (rule 4), last.
const LATER_DROPS: u8 = GROUPS - 1;

/// Moves [`generate`] orders in a small buffer on the stack: nearly every position has fewer
/// (a buffer of [`MAX_MOVES`] made for every node cost half of `generate`'s time in its
/// initialisation); a position with more is generated again into one that large.
const FEW_MOVES: usize = 128;

/// [`proofnum::Game::generate_moves`]: Black's checks, or White's legal moves, in the order of
/// rule 2 when it is on.
pub(super) fn generate(tsume: &Tsume, moves: &mut MoveList<'_, Move>) {
    let board = tsume.board();
    tsume.deferred.set(0);
    if !tsume.knowledge.contains(Knowledge::ORDER) {
        if board.side_to_move() == Color::Black {
            for_each_check(board, |mv| {
                moves.push(mv);
                false
            });
        } else {
            generate_legal(board, |set| {
                set.into_iter().for_each(|mv| moves.push(Move::from(mv)));
                false
            });
        }
        return;
    }
    let defer = tsume.knowledge.contains(Knowledge::DEFER_DROPS);
    let mut few = [(0u8, Move::default()); FEW_MOVES];
    let n = grouped_moves(board, defer, &mut few);
    let deferred = if n <= FEW_MOVES {
        push_grouped(&few, n, moves)
    } else {
        let mut all = [(0u8, Move::default()); MAX_MOVES];
        let n = grouped_moves(board, defer, &mut all);
        push_grouped(&all, n, moves)
    };
    tsume.deferred.set(deferred);
}

/// The moves of rule 2 with their groups, in generation order, into `out` as far as it goes;
/// returns how many there are.
fn grouped_moves(board: &Board, defer: bool, out: &mut [(u8, Move)]) -> usize {
    let mut n = 0;
    let mut push = |group: u8, mv: Move| {
        if let Some(slot) = out.get_mut(n) {
            *slot = (group, mv);
        }
        n += 1;
    };
    if board.side_to_move() == Color::Black {
        let theirs = board.colors(Color::White);
        for_each_check(board, |mv| {
            let group = if theirs.has(mv.to()) || mv.is_promotion() {
                0
            } else if mv.is_drop() {
                1
            } else {
                2
            };
            push(group, mv);
            false
        });
        return n;
    }
    let theirs = board.colors(Color::Black);
    // Drops last, weak pieces first (haitaka lists drops pawn, lance, knight, silver, gold,
    // rook, bishop).
    let mut drops = [PieceMoves::Drops {
        color: Color::White,
        piece: Piece::Pawn,
        to: BitBoard::EMPTY,
    }; 7];
    let mut drop_sets = 0;
    generate_legal(board, |set| {
        match set {
            PieceMoves::Drops { .. } => {
                if let Some(slot) = drops.get_mut(drop_sets) {
                    *slot = set;
                    drop_sets += 1;
                }
            }
            PieceMoves::BoardMoves { piece, .. } => {
                for mv in set {
                    let mv = Move::from(mv);
                    let group = if piece == Piece::King {
                        0
                    } else if theirs.has(mv.to()) {
                        1
                    } else {
                        2
                    };
                    push(group, mv);
                }
            }
        }
        false
    });
    let mut dropped_on = BitBoard::EMPTY;
    for set in &drops[..drop_sets] {
        for mv in *set {
            let to = mv.to();
            let group = if defer && dropped_on.has(to) {
                LATER_DROPS
            } else {
                3
            };
            dropped_on |= to.bitboard();
            push(group, Move::from(mv));
        }
    }
    n
}

/// Pushes the first `n` moves of `grouped` group by group; more moves than the buffer holds
/// are passed on as defaults so the list overflows and the solver reports it. Returns how
/// many moves of the last group ([`LATER_DROPS`]) it pushed.
fn push_grouped(grouped: &[(u8, Move)], n: usize, moves: &mut MoveList<'_, Move>) -> usize {
    if n > grouped.len() {
        (0..n).for_each(|_| moves.push(Move::default()));
        return 0;
    }
    let mut last = 0;
    for group in 0..GROUPS {
        for &(g, mv) in &grouped[..n] {
            if g == group {
                moves.push(mv);
                last += usize::from(g == LATER_DROPS);
            }
        }
    }
    last
}
