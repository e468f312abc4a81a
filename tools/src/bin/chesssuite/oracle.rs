//! An exhaustive "mate within k moves?" search on cozy-chess's own board: the runner's
//! certificate for short mates. It shares nothing with proofnum (no table, no proof numbers,
//! no `Game` adapter) and nothing with Stockfish (no pruning, no evaluation): the attacker
//! tries every legal move, the defender every legal reply, down to k attacker moves. So its
//! "yes" and its "no" are both facts of chess, for positions where it finishes within its
//! node budget (k ≤ 3 in most middlegames).
//!
//! Repetitions and the fifty-move rule play no part: a shortest forced mate never repeats a
//! position (the repeated position would have two distances), and the suites reset the clock.

use cozy_chess::{Board, Move};

/// What the search found, or None when it spent its node budget first.
pub type Answer = Option<bool>;

/// Whether the side to move (the attacker) mates within `k` of its moves, exhaustively;
/// `budget` counts down positions visited.
pub fn mates_within(board: &Board, k: u32, budget: &mut u64) -> Answer {
    attacker(board, k, budget)
}

/// Whether the side to move is mated within `k` moves of its opponent, against every defence.
pub fn mated_within(board: &Board, k: u32, budget: &mut u64) -> Answer {
    defender(board, k, budget)
}

fn moves_of(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// The attacker to move with `k` moves left.
fn attacker(board: &Board, k: u32, budget: &mut u64) -> Answer {
    if k == 0 {
        return Some(false);
    }
    let mut children: Vec<(bool, Board)> = moves_of(board)
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            (!child.checkers().is_empty(), child)
        })
        .collect();
    // Checks first: mates are found sooner. With one move left only a check can mate.
    children.sort_by_key(|(check, _)| !*check);
    let mut exhausted = false;
    for (check, child) in &children {
        if k == 1 && !check {
            break;
        }
        match defender(child, k - 1, budget) {
            Some(true) => return Some(true),
            Some(false) => {}
            None => exhausted = true,
        }
    }
    if exhausted { None } else { Some(false) }
}

/// The defender to move; the attacker has `k` moves left after this reply.
fn defender(board: &Board, k: u32, budget: &mut u64) -> Answer {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let moves = moves_of(board);
    if moves.is_empty() {
        return Some(!board.checkers().is_empty()); // checkmate, or stalemate
    }
    if k == 0 {
        return Some(false);
    }
    for mv in moves {
        let mut child = board.clone();
        child.play_unchecked(mv);
        if !attacker(&child, k, budget)? {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_mates_are_found_and_refuted() {
        let budget = &mut 1_000_000;
        // Back-rank mate in one (Ra8), none in zero.
        let board: Board = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".parse().unwrap();
        assert_eq!(mates_within(&board, 1, budget), Some(true));
        assert_eq!(mates_within(&board, 0, budget), Some(false));
        // With a luft (h6) Black escapes for longer: no mate in one.
        let board: Board = "6k1/5pp1/7p/8/8/8/5PPP/R5K1 w - - 0 1".parse().unwrap();
        assert_eq!(mates_within(&board, 1, budget), Some(false));
        // The quiet mate in two: Kb6 (not a check), Kb8 forced, Rh8 mate; no mate in one.
        let board: Board = "k7/8/8/K7/8/8/8/7R w - - 0 1".parse().unwrap();
        assert_eq!(mates_within(&board, 1, budget), Some(false));
        assert_eq!(mates_within(&board, 2, budget), Some(true));
        // Black to move is mated in one (Kg8, Ra8), not in zero; stalemate is not mate.
        let board: Board = "7k/8/6K1/8/8/8/8/R7 b - - 0 1".parse().unwrap();
        assert_eq!(mated_within(&board, 1, budget), Some(true));
        assert_eq!(mated_within(&board, 0, budget), Some(false));
        let board: Board = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
        assert_eq!(mated_within(&board, 3, budget), Some(false));
        // A budget too small gives no answer.
        let board: Board = "k7/8/8/K7/8/8/8/7R w - - 0 1".parse().unwrap();
        assert_eq!(mates_within(&board, 2, &mut 3), None);
    }
}
