//! Fuzzed bytes loaded as a saved table, then tic-tac-toe solved on it.
//!
//! Input layout (see `examples/make_seeds.rs`, which writes the seed corpus):
//! - byte 0: how many opening moves to read (3 plus the byte mod 4, so the solves stay small and
//!   an execution fast), then that many bytes, each a cell (mod 9; occupied cells are skipped,
//!   and play stops when the game is over);
//! - one byte of settings: bit 0 selects how the rest is read, bit 1 ε = 0 instead of 1/4,
//!   bit 2 PNS as well as df-pn;
//! - bit 0 clear: the rest is handed to `Table::load` as it is;
//! - bit 0 set: one byte of bucket count (mod 32, plus one), one byte of generation (the
//!   table's own generations are advanced that many times, mod 64), and the rest is the
//!   buckets' bytes (repeated or cut to size) behind a valid header, so the fuzzer spends its
//!   time on entries rather than on the header.
//!
//! Properties: loading never panics and, when it refuses, leaves the buffer untouched; a solve
//! on a loaded table never panics, and every answer it gives (each attacker's proof or
//! disproof, the position's value, PNS's too) agrees with negamax and passes `verify`, or the
//! search ends without one when a loaded entry made it too long ([`NODE_CAP`]).
#![no_main]

use libfuzzer_sys::fuzz_target;
use proofnum::table::{HEADER_BYTES, TABLE_ALIGN, Table, TranspositionTable};
use proofnum::{
    Dfpn, DfpnConfig, Epsilon, Game, Limits, Player, Pns, PnsConfig, Reason, Status, Verdict,
};
use proofnum_fuzz::attacker_wins;
use proofnum_fuzz::tictactoe::TicTacToe;

/// Tic-tac-toe after three moves needs a few hundred positions; an entry may mislead a search
/// into more, but never into a wrong answer.
const NODE_CAP: u64 = 50_000;
const MAX_DEPTH: usize = 16;
const MAX_MOVES: usize = 9;
/// Buckets of a table built behind a valid header.
const MAX_BUCKETS: usize = 32;

fuzz_target!(|data: &[u8]| run(data));

fn run(data: &[u8]) {
    let (position, rest) = opening(data);
    let Some((&settings, rest)) = rest.split_first() else {
        return;
    };
    let saved = if settings & 1 == 0 {
        rest.to_vec()
    } else {
        behind_header(rest)
    };
    let mut memory = vec![0u8; saved.len() + TABLE_ALIGN];
    let mut table = match Table::load(&mut memory, &saved) {
        Ok(table) => table,
        Err(_) => {
            assert!(
                memory.iter().all(|&b| b == 0),
                "a refused load left the buffer untouched"
            );
            return;
        }
    };
    // The table's own bookkeeping on arbitrary bytes.
    let _ = table.fill_per_mille();
    table.stats();
    let epsilon = if settings & 2 != 0 {
        Epsilon::ZERO
    } else {
        Epsilon::QUARTER
    };
    solve_with_dfpn(position, &mut table, epsilon);
    if settings & 4 != 0 {
        solve_with_pns(position, &mut table);
    }
}

/// The position after the input's opening moves, and the input after them.
fn opening(data: &[u8]) -> (TicTacToe, &[u8]) {
    let Some((&count, mut rest)) = data.split_first() else {
        return (TicTacToe::default(), data);
    };
    let mut position = TicTacToe::default();
    for _ in 0..3 + count % 4 {
        let Some((&cell, after)) = rest.split_first() else {
            break;
        };
        rest = after;
        let cell = cell % 9;
        if !position.is_over() && position.cells[cell as usize] == 0 {
            position.play(cell);
        }
    }
    (position, rest)
}

/// A valid header for a fuzzed bucket count and generation, followed by the fuzzed buckets.
fn behind_header(rest: &[u8]) -> Vec<u8> {
    let (buckets, generations, body) = match rest {
        [b, g, body @ ..] => (*b as usize % MAX_BUCKETS + 1, *g % 64, body),
        _ => (1, 0, &[][..]),
    };
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    for _ in 0..generations {
        table.new_generation();
    }
    let mut saved = table.as_bytes().to_vec();
    if !body.is_empty() {
        for (i, byte) in saved[HEADER_BYTES..].iter_mut().enumerate() {
            *byte = body[i % body.len()];
        }
    }
    saved
}

/// The status `attacker`'s search must end with from `position`, by negamax.
fn truth(position: &TicTacToe, attacker: Player) -> Status {
    if attacker_wins(position.value(), position.side_to_move(), attacker) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

fn solve_with_dfpn(mut position: TicTacToe, table: &mut Table<'_>, epsilon: Epsilon) {
    let start = position;
    let config = DfpnConfig {
        epsilon,
        ..DfpnConfig::default()
    };
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, MAX_DEPTH, MAX_MOVES, config).unwrap();
    for attacker in [Player::First, Player::Second] {
        let r = dfpn.solve(&mut position, attacker, table, &mut Limits::nodes(NODE_CAP));
        assert_eq!(position, start, "the position is restored");
        if r.status == Status::Unknown(Reason::NodeLimit) {
            continue;
        }
        let want = truth(&position, attacker);
        assert_eq!(
            r.status, want,
            "df-pn on a loaded table, attacker {attacker:?}, {start:?}"
        );
        let mut memo = vec![0u64; 1024];
        let v = dfpn.verify(
            &mut position,
            attacker,
            r.status,
            table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        assert!(
            matches!(
                v.verdict,
                Verdict::Verified | Verdict::Unknown(Reason::NodeLimit)
            ),
            "the answer {want:?} passes verify: {v:?}"
        );
        let mut line = [0u8; 9];
        let pv = dfpn.principal_variation(
            &mut position,
            attacker,
            table,
            &mut line,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(position, start, "the position is restored after the line");
        let mut replay = start;
        for &cell in &line[..pv.len] {
            assert!(
                !replay.is_over() && replay.cells[cell as usize] == 0,
                "a legal line"
            );
            replay.play(cell);
        }
    }
    let v = dfpn.solve_value(&mut position, table, &mut Limits::nodes(NODE_CAP));
    if v.value != Err(Reason::NodeLimit) {
        assert_eq!(
            v.value,
            Ok(start.value()),
            "df-pn's value on a loaded table, {start:?}"
        );
    }
}

fn solve_with_pns(mut position: TicTacToe, table: &mut Table<'_>) {
    let start = position;
    let config = PnsConfig::default();
    let mut memory =
        vec![0u8; Pns::<TicTacToe>::required_bytes(20_000, MAX_DEPTH, MAX_MOVES, config)];
    let mut pns = Pns::<TicTacToe>::new(&mut memory, MAX_DEPTH, MAX_MOVES, config).unwrap();
    for attacker in [Player::First, Player::Second] {
        let r = pns.solve(&mut position, attacker, table, &mut Limits::nodes(NODE_CAP));
        assert_eq!(position, start, "the position is restored");
        if matches!(
            r.status,
            Status::Unknown(Reason::NodeLimit | Reason::MemoryLimit)
        ) {
            continue;
        }
        assert_eq!(
            r.status,
            truth(&position, attacker),
            "PNS on a loaded table, {start:?}"
        );
    }
}
