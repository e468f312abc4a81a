//! Connect Four with proofnum: who wins a position, with which move, and a checked proof.
//!
//! ```sh
//! cargo run --release --example connect4 -- 444444
//! ```
//!
//! The game itself (a 7×6 bitboard after John Tromp's Fhourstones, positions as strings of
//! 1-based columns) lives in `proofnum_games::connect4`, written against the public `Game` trait.

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, Status, Value};
use proofnum_games::connect4::ConnectFour;

/// Lines are at most 42 plies; a position has at most 7 moves.
const MAX_DEPTH: usize = 42;
const MAX_MOVES: usize = 7;
/// 64 MiB: four million table entries.
const TABLE_BYTES: usize = 64 << 20;

fn main() {
    let moves = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "444444".to_string());
    let mut game = match ConnectFour::from_moves(&moves) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!("{game}");

    let mut table_memory = vec![0u8; TABLE_BYTES];
    let mut table = Table::new(&mut table_memory).expect("table memory");
    let mut stack_memory = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn = Dfpn::<ConnectFour>::new(
        &mut stack_memory,
        MAX_DEPTH,
        MAX_MOVES,
        DfpnConfig::default(),
    )
    .expect("stack memory");

    let result = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
    let mover = game.side_to_move();
    match result.value {
        Ok(value) => {
            println!("{mover:?} to move: {value:?}");
            if let Some(column) = result.best_move {
                println!("best move: column {column}");
            }
            if value != Value::Draw {
                // Walk the winner's whole proof again, down to finished games.
                let winner = if value == Value::Win {
                    mover
                } else {
                    mover.opponent()
                };
                let mut memo = vec![0u64; 1 << 20];
                let check = dfpn.verify(
                    &mut game,
                    winner,
                    Status::Proven,
                    &mut table,
                    &mut memo,
                    &mut Limits::default(),
                );
                println!(
                    "proof check: {:?} ({} positions)",
                    check.verdict, check.stats.nodes
                );
            }
        }
        Err(reason) => println!("not solved: {reason}"),
    }
    println!(
        "{} MID calls, {} positions, table fill {}‰",
        result.stats.mid_calls,
        result.stats.nodes,
        table.fill_per_mille()
    );
}
