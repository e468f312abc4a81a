//! Proof and disproof pieces (証明駒 and 反証駒; Seo 1999, and every strong tsume solver
//! since): how much Black needs in hand for a result the search found, so that the table's
//! dominance entry settles every position of the board with a hand at least that good for the
//! winner, not only those with this position's hand ([`proofnum::Game::material_needed`]). A
//! mate needs *at least* some pieces; a failed attack holds with *at most* some.
//!
//! White holds every piece not on the board or in Black's hand, so a piece more in Black's
//! hand is a piece fewer in White's. The rules, each true of shogi as stated:
//! - **Through a move of Black's**: what the position after it needs, plus the piece a drop
//!   takes from the hand, less the piece a capture puts into it (for a mate and for a
//!   failure alike: the hand after the move is the hand before it, changed so).
//! - **Through a move of White's**: what the position after it needs (White's moves leave
//!   Black's hand alone); but a winning drop needs White to keep one such piece, so Black may
//!   hold at most all the others.
//! - **White mated, or every reply of White's mated**: what the replies need, joined (the
//!   larger count of every piece); and when White could block the check by a drop (one
//!   checker, empty squares between it and the king), all of Black's pieces of every kind
//!   White has none of: with one fewer, White would hold one and could drop it between.
//! - **Every check of Black's fails**: what the checks need, joined (the smaller count of
//!   every piece); and none of a kind Black has none of, whose first piece would give it new
//!   drops. With no check at all, the failure holds with every piece of a kind Black holds.
//! - **A mate in one** (the game's outcome settled it): the mating move's rule over the mated
//!   position's.
//!
//! Every need is kept within what can be in Black's hand (its own and White's pieces).

use haitaka::{Board, Color, Piece, get_between_rays};
use proofnum::Decided;

use super::check::{for_each_check, has_legal_move};
use super::knowledge::mating_move;
use super::{HAND_FIELDS, HAND_PIECES, Move, Tsume, pack_hand};

/// Counts of the hand pieces, in [`HAND_PIECES`] order.
type Counts = [u8; 7];

/// The counts of a packed hand ([`Tsume::packed_hand`]).
pub fn unpack_hand(packed: u32) -> Counts {
    core::array::from_fn(|i| {
        let (offset, width) = HAND_FIELDS[i];
        (packed >> offset & ((1 << width) - 1)) as u8
    })
}

/// The larger (`larger`) or smaller count of every piece of two packed hands.
pub fn join_hands(a: u32, b: u32, larger: bool) -> u32 {
    let (a, b) = (unpack_hand(a), unpack_hand(b));
    pack_hand(&core::array::from_fn(|i| {
        if larger {
            a[i].max(b[i])
        } else {
            a[i].min(b[i])
        }
    }))
}

/// What Black needs in hand for the result `decided` found in `tsume`'s position, packed
/// (see the module docs); `None` when the position is not what `decided` says.
pub(super) fn needed(tsume: &Tsume, decided: Decided<Move>) -> Option<u32> {
    let board = tsume.board();
    let black_to_move = board.side_to_move() == Color::Black;
    let need = match decided {
        Decided::ByMove { mv, after } | Decided::ThroughLosingMove { mv, after }
            if black_to_move =>
        {
            through_black_move(board, mv, unpack_hand(after))
        }
        Decided::ThroughLosingMove { after, .. } => unpack_hand(after),
        Decided::ByMove { mv, after } => {
            let mut need = unpack_hand(after);
            if let Some(piece) = mv.dropped() {
                let i = piece as usize;
                let others = board.hand(Color::Black)[i] + board.hand(Color::White)[i] - 1;
                need[i] = need[i].min(others);
            }
            need
        }
        Decided::ByEveryMove { joined } if black_to_move => failed(board, unpack_hand(joined)),
        Decided::ByEveryMove { joined } => mated(board, unpack_hand(joined)),
        Decided::ByOutcome if !black_to_move => {
            if has_legal_move(board) {
                return None;
            }
            mated(board, [0; 7])
        }
        Decided::ByOutcome => match mating_move(board) {
            Some(mv) => {
                let mut after = board.clone();
                after.play_unchecked(mv.to_haitaka());
                through_black_move(board, mv, mated(&after, [0; 7]))
            }
            None if !for_each_check(board, |_| true) => {
                failed(board, core::array::from_fn(|i| available(board, i)))
            }
            None => return None,
        },
    };
    Some(pack_hand(&core::array::from_fn(|i| {
        need[i].min(available(board, i))
    })))
}

/// The pieces of kind `i` that can be in Black's hand: its own and White's.
fn available(board: &Board, i: usize) -> u8 {
    board.hand(Color::Black)[i] + board.hand(Color::White)[i]
}

/// Black, to move in `board`, plays `mv`, after which its hand needs `after`.
fn through_black_move(board: &Board, mv: Move, mut need: Counts) -> Counts {
    if let Some(piece) = mv.dropped() {
        need[piece as usize] += 1;
    } else if let Some(taken) = board.piece_on(mv.to()).map(Piece::unpromote)
        && taken != Piece::King
    {
        need[taken as usize] = need[taken as usize].saturating_sub(1);
    }
    need
}

/// White, to move in `board`, is mated whatever it plays, its replies needing `joined`: no
/// more of any piece than Black holds.
fn mated(board: &Board, mut need: Counts) -> Counts {
    let checkers = board.checkers();
    let king = board.king(Color::White);
    let blockable = checkers.len() == 1
        && checkers
            .into_iter()
            .any(|checker| !get_between_rays(checker, king).is_empty());
    let (black, white) = (board.hand(Color::Black), board.hand(Color::White));
    for i in 0..HAND_PIECES.len() {
        if blockable && white[i] == 0 {
            need[i] = need[i].max(black[i]);
        }
        need[i] = need[i].min(black[i]);
    }
    need
}

/// Black, to move in `board`, fails whatever check it gives, its checks needing `joined`: no
/// fewer of any piece than Black holds, and none of a kind it has none of.
fn failed(board: &Board, mut need: Counts) -> Counts {
    let black = board.hand(Color::Black);
    for i in 0..HAND_PIECES.len() {
        need[i] = if black[i] == 0 {
            0
        } else {
            need[i].max(black[i])
        };
    }
    need
}
