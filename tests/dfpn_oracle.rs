//! df-pn against independent oracles on thousands of random games.
//!
//! Every game is solved for both attackers and for its full value, with a table from one bucket
//! to thousands and ε ∈ {0, 1/4}; the answer must equal brute-force minimax over paths (and, for
//! the draw rule, retrograde analysis). Zero disagreements are allowed. The seed is fresh each
//! run and printed on failure (`PROOFNUM_SEED=<seed>` reproduces it).

mod common;

use common::{Graph, GraphGame, Rng, Shape, TicTacToe};
use proofnum::table::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Game, Limits, Player, Status, Value};

/// Table sizes in buckets: one bucket (maximally lossy) to roomy.
const TABLE_BUCKETS: [usize; 4] = [1, 4, 64, 4096];
const MAX_DEPTH: usize = 48;
const MAX_MOVES: usize = 8;
/// A safety net: these games need far fewer nodes; hitting it means the search looped.
const NODE_CAP: u64 = 20_000_000;

/// Solves `graph` under one configuration and compares with the oracle's value.
fn check<const BY_POSITION: bool>(
    graph: &Graph,
    expected: Value,
    buckets: usize,
    epsilon: Epsilon,
    context: &str,
) {
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    assert_eq!(table.bucket_count(), buckets);
    let mut stack = vec![0u8; Dfpn::<GraphGame<BY_POSITION>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn = Dfpn::<GraphGame<BY_POSITION>>::new(
        &mut stack,
        MAX_DEPTH,
        MAX_MOVES,
        DfpnConfig { epsilon },
    )
    .unwrap();
    let mut game = GraphGame::<BY_POSITION>::new(graph);
    for attacker in [Player::First, Player::Second] {
        let r = dfpn.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(NODE_CAP),
        );
        let wins = graph.attacker_wins(expected, attacker);
        let want = if wins {
            Status::Proven
        } else {
            Status::Disproven
        };
        assert_eq!(
            r.status, want,
            "{context}: attacker {attacker:?}, oracle value {expected:?} for the side to move\n{graph:#?}"
        );
        assert_eq!(game.at, graph.root, "{context}: position not restored");
        let root = graph.node(graph.root);
        if wins && root.outcome == proofnum::Outcome::Unknown && !root.children.is_empty() {
            // The reported move must be a winning move by the oracle too.
            let mv = r.best_move.expect("a proven interior root has a best move");
            let child = mv as u32;
            let value = child_value::<BY_POSITION>(graph, child);
            let mover = graph.node(child).mover;
            let attacker_wins_child = (mover == attacker && value == Value::Win)
                || (mover != attacker && value == Value::Loss);
            assert!(
                attacker_wins_child,
                "{context}: best move {mv:#x} does not win (child value {value:?})"
            );
        }
    }
    let v = dfpn.solve_value(&mut game, &mut table, &mut Limits::nodes(NODE_CAP));
    assert_eq!(v.value, Ok(expected), "{context}: solve_value\n{graph:#?}");
}

/// The oracle's value of `child` reached from the root, for the child's side to move.
///
/// It is the root's value when the root's only move is `child`: the root stays on the path, so
/// repetitions of it still count, and no position below the root sees the change (any return
/// to the root is a repetition).
fn child_value<const BY_POSITION: bool>(graph: &Graph, child: u32) -> Value {
    let mut g = graph.clone();
    g.nodes[graph.root as usize].children = vec![child];
    let v = g.brute_value(BY_POSITION);
    if graph.node(child).mover == graph.node(graph.root).mover {
        v
    } else {
        v.flipped()
    }
}

fn run_shape<const BY_POSITION: bool>(shape: Shape, games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let mut solved_nontrivial = 0;
    for i in 0..games {
        let graph = Graph::random(&mut rng, shape);
        let expected = graph.brute_value(BY_POSITION);
        if !BY_POSITION {
            // Under the draw rule, first-repetition semantics and retrograde analysis agree
            // (the property the solver's table relies on).
            let retro = graph.retrograde()[graph.root as usize];
            assert_eq!(
                expected, retro,
                "seed {seed} game {i}: oracles disagree\n{graph:#?}"
            );
        }
        let buckets = TABLE_BUCKETS[rng.below(TABLE_BUCKETS.len() as u64) as usize];
        let epsilon = if rng.chance(50) {
            Epsilon::ZERO
        } else {
            Epsilon::QUARTER
        };
        let context = format!(
            "seed {seed} game {i} ({shape:?}, {buckets} buckets, ε = {})",
            epsilon.as_f64()
        );
        check::<BY_POSITION>(&graph, expected, buckets, epsilon, &context);
        if graph.node(graph.root).outcome == proofnum::Outcome::Unknown {
            solved_nontrivial += 1;
        }
    }
    assert!(
        solved_nontrivial > games / 2,
        "the generator should mostly make non-trivial games"
    );
}

#[test]
fn random_trees_match_brute_force() {
    run_shape::<false>(Shape::Tree, 20_000, 1);
}

#[test]
fn random_dags_match_brute_force() {
    run_shape::<false>(Shape::Dag, 20_000, 2);
}

#[test]
fn random_cyclic_graphs_with_draw_rule_match_brute_force_and_retrograde() {
    run_shape::<false>(Shape::Cyclic, 40_000, 3);
}

#[test]
fn random_cyclic_graphs_with_position_rule_match_brute_force() {
    run_shape::<true>(Shape::Cyclic, 20_000, 4);
}

#[test]
fn tic_tac_toe_is_a_draw() {
    // Known since antiquity and checked by brute force in `common::TicTacToe`'s sibling test:
    // neither player can force a win, so both attacker searches disprove.
    let mut memory = vec![0u8; Table::required_bytes(1024)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    for attacker in [Player::First, Player::Second] {
        let r = dfpn.solve(&mut game, attacker, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Disproven, "attacker {attacker:?}");
    }
    let v = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
    assert_eq!(v.value, Ok(Value::Draw));
    assert_eq!(game.cells, [0; 9]);
    assert_eq!(brute_tic_tac_toe(&mut game), Value::Draw);
}

#[test]
fn tic_tac_toe_positions_match_brute_force() {
    // Every position reachable in up to four plies, with a one-bucket table.
    let mut memory = vec![0u8; Table::required_bytes(1)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut checked = 0;
    let mut stack_moves = Vec::new();
    walk(&mut TicTacToe::default(), 4, &mut stack_moves, &mut |g| {
        let want = brute_tic_tac_toe(g);
        let got = dfpn.solve_value(g, &mut table, &mut Limits::default());
        assert_eq!(got.value, Ok(want), "position {:?}", g.cells);
        checked += 1;
    });
    assert!(checked > 700, "checked {checked}");
}

fn walk(g: &mut TicTacToe, plies: usize, moves: &mut Vec<u8>, f: &mut dyn FnMut(&mut TicTacToe)) {
    f(g);
    if plies == 0 || g.outcome() != proofnum::Outcome::Unknown {
        return;
    }
    for m in 0..9u8 {
        if g.cells[m as usize] == 0 {
            g.play(m);
            walk(g, plies - 1, moves, f);
            g.undo(m);
        }
    }
}

/// Plain minimax, the independent oracle for tic-tac-toe.
fn brute_tic_tac_toe(g: &mut TicTacToe) -> Value {
    match g.outcome() {
        proofnum::Outcome::Win => return Value::Win,
        proofnum::Outcome::Loss => return Value::Loss,
        proofnum::Outcome::Draw => return Value::Draw,
        proofnum::Outcome::Unknown => {}
    }
    let mut best = Value::Loss;
    for m in 0..9u8 {
        if g.cells[m as usize] == 0 {
            g.play(m);
            let v = brute_tic_tac_toe(g).flipped();
            g.undo(m);
            if v == Value::Win {
                return v;
            }
            if v == Value::Draw {
                best = Value::Draw;
            }
        }
    }
    best
}
