//! Where one proof goes deep: df-pn on "can the side to move mate?" with the counting game
//! wrapper of `proofnum_tools::trace`, printing the MID calls per depth, the MID calls
//! below each root move, and the first line that reached the deepest ply (the dive).

use cozy_chess::Color;
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Limits};
use proofnum_games::chess::{self, Chess, MAX_MOVES};

use crate::epd::Line;
use crate::solve::MAX_DEPTH;
use crate::trace::Traced;

/// Traces the proof of `line`'s mate within `max_mid_calls` MID calls on a `table_mib` table.
pub fn dive(line: &Line, max_mid_calls: u64, table_mib: f64) -> Result<(), String> {
    let attacker: Color = line.board().side_to_move();
    let mut game = Chess::from_fen(&line.fen).map_err(|e| e.to_string())?;
    game.set_attacker(Some(chess::player(attacker)));
    let mut traced = Traced::new(game);
    let mut memory = proofnum_tools::timed_table_memory((table_mib * (1 << 20) as f64) as usize);
    let mut table = Table::new(&mut memory).map_err(|e| format!("{e:?}"))?;
    let mut stack = vec![0u8; Dfpn::<Traced<Chess>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<Traced<Chess>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
            .map_err(|e| format!("{e:?}"))?;
    let mut limits = Limits {
        max_work: max_mid_calls,
        ..Limits::none()
    };
    let r = dfpn.solve(
        &mut traced,
        chess::player(attacker),
        &mut table,
        &mut limits,
    );
    let t = traced.trace.borrow();
    println!(
        "{} (bm #{}): {:?} after {} MID calls, deepest ply {}",
        line.id,
        line.mate.unwrap_or(0),
        r.status,
        r.stats.mid_calls,
        r.stats.max_depth
    );
    let total: u64 = t.per_depth.iter().sum();
    // MID calls by depth band, so that a dive shows as work far below the mate's length.
    let n = line.mate.unwrap_or(0).unsigned_abs() as usize;
    let mate_plies = 2 * n.max(1) - 1;
    let within: u64 = t.per_depth.iter().take(mate_plies + 1).sum();
    println!(
        "  MID calls within the mate's {mate_plies} plies: {within} of {total} ({:.1}%); deeper: {}",
        100.0 * within as f64 / total.max(1) as f64,
        total - within
    );
    let mut bands = String::new();
    for (start, chunk) in t.per_depth.chunks(10).enumerate() {
        let c: u64 = chunk.iter().sum();
        if c > 0 {
            bands.push_str(&format!(
                " {}-{}:{c}",
                10 * start,
                10 * start + chunk.len() - 1
            ));
        }
    }
    println!("  MID calls by depth (plies below the root):{bands}");
    let mut children: Vec<_> = t.per_child.iter().map(|(m, c)| (*m, *c)).collect();
    children.sort_by_key(|c| std::cmp::Reverse(c.1));
    let moves: Vec<String> = children
        .iter()
        .take(6)
        .map(|(m, c)| format!("{} {c}", m.to_cozy()))
        .collect();
    println!("  MID calls below the root moves: {}", moves.join(", "));
    let line_text: Vec<String> = t
        .deepest_path
        .iter()
        .map(|m| m.to_cozy().to_string())
        .collect();
    println!(
        "  the first line to the deepest ply ({} plies): {}",
        t.deepest_path.len(),
        line_text.join(" ")
    );
    Ok(())
}
