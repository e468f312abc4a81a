//! Replaying a mating line on rsshogi's board, independently of proofnum's shogi game (which
//! is built on haitaka): every Black move must be a legal check, every White move legal, and
//! the line must end with White checkmated (in check, no legal move).

use rsshogi::board::{MoveList, Position, position_from_sfen};
use rsshogi::types::Move;

fn legal(position: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    rsshogi::movegen::generate_legal_all(position, &mut list);
    list.iter().copied().collect()
}

/// Plays `line` (USI) from `sfen` (Black to move) and checks it is a tsume mate; returns the
/// number of plies.
pub fn replay(sfen: &str, line: &[String]) -> Result<usize, String> {
    let mut position = position_from_sfen(sfen).map_err(|e| format!("rsshogi: {e:?}"))?;
    for (ply, text) in line.iter().enumerate() {
        let Some(mv) = legal(&position).into_iter().find(|mv| mv.to_usi() == *text) else {
            return Err(format!("ply {}: {text} is not a legal move", ply + 1));
        };
        position.apply_move(mv);
        if ply % 2 == 0 && !position.is_in_check() {
            return Err(format!("ply {}: {text} gives no check", ply + 1));
        }
    }
    if line.len() % 2 == 0 || !position.is_in_check() || !legal(&position).is_empty() {
        return Err("the line does not end in checkmate".into());
    }
    Ok(line.len())
}
