//! Writes the seed corpus (`fuzz/corpus/<target>/seed-*`), run from `fuzz/`:
//! `cargo run --example make_seeds`. The seeds are committed; this regenerates them when an
//! input layout or the table layout changes.
//!
//! - `table_load_solve`: tables saved after real tic-tac-toe searches (solved and unsolved
//!   entries under the keys the target's solves look up), in both of the target's input
//!   modes, so mutations start from entries that matter.
//! - `oracle`, `capi_game`: fixed pseudo-random bytes of a few lengths; their inputs are read
//!   through `arbitrary`, for which any bytes are a valid game.

use std::fs;
use std::path::Path;

use proofnum::table::{HEADER_BYTES, Table};
use proofnum::{Dfpn, Game, Limits, Player};
use proofnum_fuzz::graph::mix;
use proofnum_fuzz::tictactoe::TicTacToe;

/// A table of `buckets` buckets after df-pn searched `opening`'s position for both attackers
/// within `max_nodes`.
fn saved_after_search(opening: &[u8], buckets: usize, max_nodes: u64) -> Vec<u8> {
    let mut position = TicTacToe::default();
    for &cell in opening {
        position.play(cell);
    }
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(16, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 16, 9, Default::default()).unwrap();
    for attacker in [Player::First, Player::Second] {
        dfpn.solve(
            &mut position,
            attacker,
            &mut table,
            &mut Limits::nodes(max_nodes),
        );
    }
    table.as_bytes().to_vec()
}

/// The target's input: the opening, the settings byte, then the table part.
fn table_input(opening: &[u8], settings: u8, table_part: &[u8]) -> Vec<u8> {
    let mut input = vec![opening.len() as u8 - 3];
    input.extend_from_slice(opening);
    input.push(settings);
    input.extend_from_slice(table_part);
    input
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join(name), bytes).unwrap();
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");

    let dir = corpus.join("table_load_solve");
    // Openings of three and four moves (the target plays at least three).
    let (three, four) = ([4u8, 0, 8], [0u8, 4, 1, 2]);
    let solved = saved_after_search(&three, 8, u64::MAX);
    write(&dir, "seed-raw-solved", &table_input(&three, 0, &solved));
    let one_bucket = saved_after_search(&three, 1, u64::MAX);
    write(
        &dir,
        "seed-raw-solved-pns",
        &table_input(&three, 4, &one_bucket),
    );
    let sixteen = saved_after_search(&four, 16, u64::MAX);
    write(&dir, "seed-raw-opening", &table_input(&four, 2, &sixteen));
    let unsolved = saved_after_search(&three, 8, 40);
    write(
        &dir,
        "seed-raw-unsolved",
        &table_input(&three, 0, &unsolved),
    );
    // Header mode: bucket count 8 (7 + 1), generation 0, then the solved table's buckets.
    let mut header_mode = vec![7u8, 0];
    header_mode.extend_from_slice(&solved[HEADER_BYTES..]);
    write(
        &dir,
        "seed-header-solved",
        &table_input(&three, 1, &header_mode),
    );

    for target in ["oracle", "capi_game"] {
        let dir = corpus.join(target);
        for (i, len) in [64usize, 160, 400].into_iter().enumerate() {
            let bytes: Vec<u8> = (0..len)
                .map(|k| mix((i as u64) << 32 | k as u64) as u8)
                .collect();
            write(&dir, &format!("seed-{len}"), &bytes);
        }
    }
}
