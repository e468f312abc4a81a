//! PNS and PN² on Connect Four against the independent alpha-beta reference solver of
//! `proofnum-games` (itself checked against brute force and published scores there).

use proofnum::Table;
use proofnum::TranspositionNumbers;
use proofnum::{Game, Limits, Outcome, Player, Pns, PnsConfig, Reason, Status, Value};
use proofnum_games::connect4::Board;
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_test_support::Rng;

/// A random unfinished position of `stones` stones, as a move string.
fn random_position<const W: usize, const H: usize>(rng: &mut Rng, stones: usize) -> String {
    'retry: loop {
        let mut p = Position::<W, H>::new();
        let mut text = String::new();
        for _ in 0..stones {
            let open: Vec<usize> = (0..W).filter(|&c| p.can_play(c)).collect();
            let c = open[rng.below(open.len() as u64) as usize];
            p.play(c);
            text.push(char::from(b'1' + c as u8));
            if p.is_over() {
                continue 'retry;
            }
        }
        return text;
    }
}

/// The value of `text` by PNS in `config` with `nodes` nodes, checked against the reference
/// (`None` when the arena ran out, which only small arenas may do).
fn pns_value<const W: usize, const H: usize>(
    text: &str,
    nodes: usize,
    config: PnsConfig,
    table: &mut Table<'_>,
) -> Option<Value> {
    let depth = W * H;
    let mut memory = vec![0u8; Pns::<Board<W, H>>::required_bytes(nodes, depth, W, config)];
    let mut pns = Pns::<Board<W, H>>::new(&mut memory, depth, W, config).unwrap();
    let mut b = Board::<W, H>::from_moves(text).unwrap();
    let before = b;
    table.clear();
    let v = pns.solve_value(&mut b, table, &mut Limits::default());
    assert_eq!(b, before, "the position is restored");
    let value = match v.value {
        Ok(value) => value,
        Err(Reason::MemoryLimit) => return None,
        Err(reason) => panic!("{W}x{H} {text}: {reason}"),
    };
    // The winning move must not let the opponent win at once, and the attacker searches agree.
    let me = b.side_to_move();
    for (attacker, wins) in [
        (me, value == Value::Win),
        (me.opponent(), value == Value::Loss),
    ] {
        table.clear();
        let r = pns.solve(&mut b, attacker, table, &mut Limits::default());
        if r.status == Status::Unknown(Reason::MemoryLimit) {
            continue;
        }
        let want = if wins {
            Status::Proven
        } else {
            Status::Disproven
        };
        assert_eq!(r.status, want, "{W}x{H} {text}, attacker {attacker:?}");
        if wins && attacker == me && b.outcome() == Outcome::Unknown {
            let mv = r.best_move.expect("a proven root has a move");
            b.play(mv);
            assert_ne!(
                b.outcome(),
                Outcome::Win,
                "{text}: best move {mv} loses at once"
            );
            b.undo(mv);
        }
    }
    Some(value)
}

fn check_random<const W: usize, const H: usize>(
    seed: u64,
    count: usize,
    stones: std::ops::Range<usize>,
    nodes: usize,
) {
    let mut rng = Rng::new(seed);
    let mut solver = Solver::<W, H>::new(1 << 18);
    let mut table_memory = vec![0u8; Table::required_bytes(1 << 12)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let configs = [
        PnsConfig::PNS,
        PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::Off),
        PnsConfig::pn2(nodes / 4),
    ];
    let mut by_value = [0usize; 3];
    for i in 0..count {
        let n = stones.start + rng.below((stones.end - stones.start) as u64) as usize;
        let text = random_position::<W, H>(&mut rng, n);
        let want = solver
            .value(&mut Position::<W, H>::from_moves(&text).unwrap())
            .unwrap();
        let config = configs[i % configs.len()];
        let got = pns_value::<W, H>(&text, nodes, config, &mut table);
        assert_eq!(got, Some(want), "{W}x{H} {text}, {config:?}, {nodes} nodes");
        // A tenth of the arena: the right answer or out of memory, never a wrong one.
        if let Some(got) = pns_value::<W, H>(&text, nodes / 10, config, &mut table) {
            assert_eq!(
                got,
                want,
                "{W}x{H} {text}, {config:?}, {} nodes",
                nodes / 10
            );
        }
        by_value[want as usize] += 1;
    }
    assert!(
        by_value.iter().filter(|&&n| n > 0).count() >= 2,
        "{by_value:?}"
    );
}

#[test]
fn pns_solves_4x4_and_5x4_like_the_reference() {
    let mut table_memory = vec![0u8; Table::required_bytes(1 << 12)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let want44 = Solver::<4, 4>::new(1 << 16)
        .value(&mut Position::new())
        .unwrap();
    let want54 = Solver::<5, 4>::new(1 << 16)
        .value(&mut Position::new())
        .unwrap();
    for config in [
        PnsConfig::PNS,
        PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::Off),
        PnsConfig::pn2(1 << 14),
    ] {
        let got = pns_value::<4, 4>("", 1 << 18, config, &mut table);
        assert_eq!(got, Some(want44), "4x4 {config:?}");
    }
    // 5x4 takes PNS a few million nodes per search: once is enough.
    let config = PnsConfig::PNS;
    let mut memory = vec![0u8; Pns::<Board<5, 4>>::required_bytes(1 << 21, 20, 5, config)];
    let mut pns = Pns::<Board<5, 4>>::new(&mut memory, 20, 5, config).unwrap();
    table.clear();
    let v = pns.solve_value(
        &mut Board::<5, 4>::new(),
        &mut table,
        &mut Limits::default(),
    );
    assert_eq!(v.value, Ok(want54), "5x4");
}

#[test]
fn pns_matches_the_reference_on_random_5x5_and_6x5_positions() {
    check_random::<5, 5>(1, 60, 6..16, 1 << 18);
    check_random::<6, 5>(2, 40, 12..22, 1 << 18);
}

#[test]
fn pns_matches_the_reference_on_random_7x6_positions() {
    check_random::<7, 6>(3, 40, 22..34, 1 << 18);
}

#[test]
fn a_7x6_opening_runs_out_of_a_small_arena_with_the_roots_numbers() {
    // 4444443 is a second-player win (a loss for the side to move) that takes df-pn tens of
    // millions of nodes: far beyond 100 000 PNS nodes.
    let mut table_memory = vec![0u8; Table::required_bytes(1 << 12)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let config = PnsConfig::PNS;
    let mut memory = vec![0u8; Pns::<Board<7, 6>>::required_bytes(100_000, 42, 7, config)];
    let mut pns = Pns::<Board<7, 6>>::new(&mut memory, 42, 7, config).unwrap();
    let mut b = Board::<7, 6>::from_moves("4444443").unwrap();
    let r = pns.solve(&mut b, Player::Second, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::MemoryLimit));
    assert!(!r.numbers.is_solved());
    let arena = pns.arena_stats();
    assert!(
        arena.compactions > 0 && arena.reclaimed_nodes > 0,
        "{arena:?}"
    );
    assert_eq!(b, Board::<7, 6>::from_moves("4444443").unwrap());
}
