//! Replaying a mating line on cozy-chess's own board, independently of proofnum's chess game:
//! every move must be legal where it is played, and the line must end in checkmate of the
//! defender. UCI move strings (`e1g1` castles) are converted with `cozy_chess::util`.
//!
//! The rules are those of proofnum's chess game by default: the game ends at checkmate or
//! stalemate; the fifty-move rule is off (cozy-chess's `status` would call a position drawn
//! once the halfmove clock reaches 100, so it is not used). A mate longer than that is a mate
//! Stockfish, which applies the rule, would not announce.

use cozy_chess::{Board, Color, Move};

/// A line that replayed to checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mate {
    /// The side that mates.
    pub attacker: Color,
    /// Its moves in the line, the mating move included: the N of "mate in N".
    pub attacker_moves: u32,
    /// Whether some attacker move other than the last gives no check (a "quiet" mate, which
    /// a checks-only solver cannot find along this line).
    pub quiet: bool,
}

/// True when the side to move has no legal move.
fn no_moves(board: &Board) -> bool {
    !board.generate_moves(|_| true)
}

/// True when the side to move is checkmated.
pub fn is_checkmate(board: &Board) -> bool {
    no_moves(board) && !board.checkers().is_empty()
}

/// Plays `line` (UCI strings) from `board` and checks it ends in checkmate by `attacker`.
pub fn replay_uci(board: &Board, line: &[String], attacker: Color) -> Result<Mate, String> {
    let mut position = board.clone();
    let mut moves = Vec::with_capacity(line.len());
    for (ply, text) in line.iter().enumerate() {
        let mv = cozy_chess::util::parse_uci_move(&position, text)
            .map_err(|_| format!("ply {}: {text:?} is not a move", ply + 1))?;
        moves.push(mv);
        if !position.is_legal(mv) {
            return Err(format!("ply {}: {text} is illegal", ply + 1));
        }
        position.play_unchecked(mv);
    }
    replay(board, &moves, attacker)
}

/// Plays `moves` from `board` and checks it ends in checkmate by `attacker`.
pub fn replay(board: &Board, moves: &[Move], attacker: Color) -> Result<Mate, String> {
    let mut position = board.clone();
    let (mut attacker_moves, mut quiet) = (0, false);
    for (ply, &mv) in moves.iter().enumerate() {
        if no_moves(&position) {
            return Err(format!("ply {}: the game is already over", ply + 1));
        }
        if !position.is_legal(mv) {
            let shown = cozy_chess::util::display_uci_move(&position, mv);
            return Err(format!("ply {}: {shown} is illegal", ply + 1));
        }
        let mover = position.side_to_move();
        position.play_unchecked(mv);
        if mover == attacker {
            attacker_moves += 1;
            let last = ply + 1 == moves.len();
            quiet |= !last && position.checkers().is_empty();
        }
    }
    if !is_checkmate(&position) || position.side_to_move() == attacker {
        return Err(format!(
            "the line of {} plies does not end in checkmate by {attacker:?}",
            moves.len()
        ));
    }
    Ok(Mate {
        attacker,
        attacker_moves,
        quiet,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn mating_lines_replay() {
        let board: Board = "7k/8/6K1/8/8/8/8/R7 b - - 0 1".parse().unwrap();
        let mate = replay_uci(&board, &uci(&["h8g8", "a1a8"]), Color::White).unwrap();
        assert_eq!((mate.attacker_moves, mate.quiet), (1, false));
        // White to move: Ra8 mates at once; Ra7 does not; lines going on past the mate, with a
        // move that does not exist or with an illegal move are refused.
        let board: Board = "7k/8/6K1/8/8/8/8/R7 w - - 0 1".parse().unwrap();
        assert!(replay_uci(&board, &uci(&["a1a8"]), Color::White).is_ok());
        assert!(replay_uci(&board, &uci(&["a1a7"]), Color::White).is_err());
        assert!(replay_uci(&board, &uci(&["a1a8", "h8h7"]), Color::White).is_err());
        assert!(replay_uci(&board, &uci(&["a1b9"]), Color::White).is_err());
        assert!(replay_uci(&board, &uci(&["g6g7"]), Color::White).is_err()); // illegal
        // The fifty-move rule is not applied: the mate comes with the clock at 100.
        let board: Board = "7k/8/6K1/8/8/8/8/R7 b - - 99 80".parse().unwrap();
        let mate = replay_uci(&board, &uci(&["h8g8", "a1a8"]), Color::White).unwrap();
        assert_eq!(mate.attacker_moves, 1);
        // A quiet first move: Kb6 leaves Black only Kb8, then Rh8 mates (every mate in two
        // starts with a quiet move here: exhaustive search of all KRK positions with Ka8).
        let board: Board = "k7/8/8/K7/8/8/8/7R w - - 0 1".parse().unwrap();
        let mate = replay_uci(&board, &uci(&["a5b6", "a8b8", "h1h8"]), Color::White).unwrap();
        assert_eq!((mate.attacker_moves, mate.quiet), (2, true));
    }
}
