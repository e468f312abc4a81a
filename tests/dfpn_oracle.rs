//! df-pn against independent oracles on thousands of random games.
//!
//! Every game is solved for both attackers and for its full value, with a table from one bucket
//! to thousands and ε ∈ {0, 1/4}; the answer must equal brute-force minimax over paths (and, for
//! the draw rule, retrograde analysis). Zero disagreements are allowed. The seed is fresh each
//! run and printed on failure (`PROOFNUM_SEED=<seed>` reproduces it).

mod common;

use common::oracle::Case;
use common::{
    ACYCLIC, BY_POSITION, DEFER, DRAW, Graph, GraphGame, LEAVES, Rng, Savings, Shape, TicTacToe,
    repetition_part,
};
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Limits, Player, Status, Value, Verdict};

/// Table sizes in buckets: one bucket (maximally lossy) to roomy.
const TABLE_BUCKETS: [usize; 4] = [1, 4, 64, 4096];
const MAX_DEPTH: usize = 48;
const MAX_MOVES: usize = 8;
/// A safety net: these games need far fewer nodes; hitting it means the search looped.
const NODE_CAP: u64 = 20_000_000;

/// Solves `graph` under one configuration through the shared oracle harness
/// (`common::oracle`), with df-pn's proof tools checked after each attacker search. Returns the
/// MID calls of the two attacker searches.
fn check<const RULE: u8>(
    graph: &Graph,
    expected: Value,
    buckets: usize,
    config: DfpnConfig,
    context: &str,
) -> u64 {
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    assert_eq!(table.bucket_count(), buckets);
    let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn = Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, config).unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let mut mid_calls = 0;
    let case = Case {
        graph,
        expected,
        by_position: repetition_part(RULE) == BY_POSITION,
        context,
    };
    case.check(
        &mut dfpn,
        &mut game,
        &mut table,
        || Limits::nodes(NODE_CAP),
        |_| {},
        |dfpn, game, table, attacker, r| {
            mid_calls += r.stats.mid_calls;
            let wins = graph.attacker_wins(expected, attacker);
            check_proof_tools(dfpn, game, table, graph, attacker, wins, context);
        },
    );
    mid_calls
}

/// The principal variation ends where the game says the claimed side has won, the true claim
/// verifies and the false one is refuted.
fn check_proof_tools<'g, const RULE: u8>(
    dfpn: &mut Dfpn<GraphGame<'g, RULE>>,
    game: &mut GraphGame<'g, RULE>,
    table: &mut Table,
    graph: &Graph,
    attacker: Player,
    wins: bool,
    context: &str,
) {
    let (truth, lie) = if wins {
        (Status::Proven, Status::Disproven)
    } else {
        (Status::Disproven, Status::Proven)
    };
    let mut memo = vec![0u64; 256];
    for (claim, want) in [(truth, Verdict::Verified), (lie, Verdict::Refuted)] {
        let v = dfpn.verify(
            game,
            attacker,
            claim,
            table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(
            v.verdict, want,
            "{context}: verify {claim:?} for {attacker:?}\n{graph:#?}"
        );
        assert_eq!(
            game.at, graph.root,
            "{context}: verify restores the position"
        );
    }
    let mut line = [0u64; MAX_DEPTH];
    let pv = dfpn.principal_variation(
        game,
        attacker,
        table,
        &mut line,
        &mut Limits::nodes(NODE_CAP),
    );
    assert_eq!(game.at, graph.root, "{context}: PV restores the position");
    assert_eq!(pv.cut, None, "{context}: PV cut short");
    // Replay the line: legal moves, no repetition except possibly at the very end, and the
    // final position decides the claim the way the game scores it.
    let mut seen = vec![graph.root];
    let mut at = graph.root;
    for (i, &mv) in line[..pv.len].iter().enumerate() {
        assert_eq!(
            (mv >> 32) as u32,
            at,
            "{context}: PV move {i} is not from the position"
        );
        assert!(
            graph.node(at).children.contains(&(mv as u32)),
            "{context}: PV move {i} illegal"
        );
        at = mv as u32;
        let repeated = seen.contains(&at);
        assert!(
            !repeated || i + 1 == pv.len,
            "{context}: PV goes on after a repetition"
        );
        seen.push(at);
    }
    let end = graph.node(at);
    let repeated = seen[..seen.len() - 1].contains(&at);
    if let (false, Some(bound)) = (repeated, end.bound) {
        // A line may end where the game's bound settles the question: only against the
        // attacker (the attacker to move cannot win, or the defender to move cannot lose).
        let settles = match bound {
            proofnum::Outcome::CannotWin => end.mover == attacker,
            _ => end.mover != attacker,
        };
        if settles {
            assert!(!wins, "{context}: a proof's PV ends in a bound");
            return;
        }
    }
    let end_value = if repeated {
        if repetition_part(RULE) == BY_POSITION {
            end.repetition
        } else {
            Value::Draw
        }
    } else {
        match end.outcome {
            proofnum::Outcome::Win => Value::Win,
            proofnum::Outcome::Loss => Value::Loss,
            proofnum::Outcome::Draw => Value::Draw,
            proofnum::Outcome::Unknown
            | proofnum::Outcome::CannotWin
            | proofnum::Outcome::CannotLose => {
                assert!(
                    end.children.is_empty(),
                    "{context}: PV ends in an open position"
                );
                graph.no_moves
            }
        }
    };
    let attacker_won = (end.mover == attacker && end_value == Value::Win)
        || (end.mover != attacker && end_value == Value::Loss);
    assert_eq!(
        attacker_won, wins,
        "{context}: PV ends in {end_value:?} for {:?}",
        end.mover
    );
}

fn run_shape<const RULE: u8>(shape: Shape, games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let mut solved_nontrivial = 0;
    for i in 0..games {
        let graph =
            Graph::random_maybe_bounded(&mut rng, shape, repetition_part(RULE) == BY_POSITION);
        let expected = graph.oracle_value(
            repetition_part(RULE) == BY_POSITION,
            &format!("seed {seed} game {i}"),
        );
        let mut buckets = TABLE_BUCKETS[rng.below(TABLE_BUCKETS.len() as u64) as usize];
        if RULE & LEAVES != 0 && rng.chance(30) {
            // Large enough to be prefetched: children are peeked at, and those the table
            // knows are not made.
            buckets = proofnum::table::PREFETCH_MIN_BYTES / proofnum::table::BUCKET_BYTES;
        }
        let epsilon = if rng.chance(50) {
            Epsilon::ZERO
        } else {
            Epsilon::QUARTER
        };
        let config = DfpnConfig {
            epsilon,
            search_stale_entries: rng.chance(30),
            weak_delta: rng.chance(30),
            share_unsolved: false, // can loop: see DfpnConfig::share_unsolved
        };
        let context = format!("seed {seed} game {i} ({shape:?}, {buckets} buckets, {config:?})");
        check::<RULE>(&graph, expected, buckets, config, &context);
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
    run_shape::<ACYCLIC>(Shape::Tree, 10_000, 1);
    run_shape::<DRAW>(Shape::Tree, 10_000, 11);
}

#[test]
fn random_dags_match_brute_force() {
    run_shape::<ACYCLIC>(Shape::Dag, 10_000, 2);
    run_shape::<DRAW>(Shape::Dag, 10_000, 12);
}

#[test]
fn random_cyclic_graphs_with_draw_rule_match_brute_force_and_retrograde() {
    run_shape::<DRAW>(Shape::Cyclic, 40_000, 3);
}

/// `Game::REMEMBER_LEAVES`: new positions' first numbers kept in the table (position-keyed
/// under the draw rule too), and with prefetched tables the children the table knows never
/// made: the same answers.
#[test]
fn random_games_with_remembered_leaves_match_brute_force() {
    run_shape::<{ ACYCLIC | LEAVES }>(Shape::Dag, 4_000, 5);
    run_shape::<{ DRAW | LEAVES }>(Shape::Dag, 4_000, 15);
    run_shape::<{ DRAW | LEAVES }>(Shape::Cyclic, 10_000, 25);
}

/// Deferred moves (`Game::deferred_moves`, up to three of each node's last moves, for either
/// mover) change the order of the search, never an answer: a node is lost for its mover only
/// after its deferred moves were made and failed too.
#[test]
fn random_games_with_deferred_moves_match_brute_force() {
    run_shape::<{ ACYCLIC | DEFER }>(Shape::Tree, 4_000, 31);
    run_shape::<{ ACYCLIC | DEFER }>(Shape::Dag, 6_000, 32);
    run_shape::<{ DRAW | DEFER }>(Shape::Cyclic, 15_000, 33);
    run_shape::<{ DRAW | LEAVES | DEFER }>(Shape::Cyclic, 5_000, 34);
    run_shape::<{ BY_POSITION | DEFER }>(Shape::Cyclic, 8_000, 35);
}

#[test]
fn random_cyclic_graphs_with_position_rule_match_brute_force() {
    run_shape::<BY_POSITION>(Shape::Cyclic, 20_000, 4);
}

/// The same games with and without true bounds at a third of their interior positions: the
/// same answers (the oracle's), and the bounds save work overall (a bound settles a position
/// the search would otherwise have to expand).
fn bounds_save_work<const RULE: u8>(shape: Shape, games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let (mut without, mut with, mut bounds) = (0u64, 0u64, 0usize);
    for i in 0..games {
        let plain = Graph::random(&mut rng, shape);
        let expected = plain.oracle_value(false, &format!("seed {seed} game {i}"));
        let mut bounded = plain.clone();
        bounds += bounded.add_true_bounds(&mut rng, 33);
        let context = format!("seed {seed} game {i} ({shape:?})");
        let config = DfpnConfig::default();
        without += check::<RULE>(&plain, expected, 1024, config, &context);
        with += check::<RULE>(&bounded, expected, 1024, config, &context);
    }
    assert!(
        bounds > games,
        "seed {seed}: only {bounds} bounds in {games} games"
    );
    assert!(
        with < without,
        "seed {seed} {shape:?}: {with} MID calls with bounds, {without} without"
    );
}

#[test]
fn true_bounds_save_work_and_never_change_an_answer() {
    bounds_save_work::<ACYCLIC>(Shape::Tree, 1_000, 21);
    bounds_save_work::<ACYCLIC>(Shape::Dag, 1_000, 22);
    bounds_save_work::<DRAW>(Shape::Cyclic, 1_000, 23);
}

/// A cyclic game that wrongly declares itself acyclic may run into a limit, but it never gets
/// a wrong answer.
#[test]
fn cyclic_graphs_declared_acyclic_never_get_a_wrong_answer() {
    let seed = common::seed() ^ 6;
    let mut rng = Rng::new(seed);
    let mut answered = 0;
    for i in 0..5000 {
        let graph = Graph::random(&mut rng, Shape::Cyclic);
        let expected = graph.brute_value(false);
        let mut memory = vec![0u8; Table::required_bytes(64)];
        let mut table = Table::new(&mut memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<GraphGame<ACYCLIC>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
        let mut dfpn = Dfpn::<GraphGame<ACYCLIC>>::new(
            &mut stack,
            MAX_DEPTH,
            MAX_MOVES,
            DfpnConfig::default(),
        )
        .unwrap();
        let mut game = GraphGame::<ACYCLIC>::new(&graph);
        let context = format!("seed {seed} game {i}");
        let case = Case {
            graph: &graph,
            expected,
            by_position: false,
            context: &context,
        };
        answered += case.answers_never_wrong(
            &mut dfpn,
            &mut game,
            &mut table,
            || Limits::nodes(100_000),
            |_| {},
        );
    }
    assert!(
        answered > 1000,
        "most such games still get answers: {answered}"
    );
}

#[test]
fn tic_tac_toe_is_a_draw() {
    // Known since antiquity and checked by negamax (`TicTacToe::value`, in the test-support
    // crate): neither player can force a win, so both attacker searches disprove.
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
    assert_eq!(game.value(), Value::Draw);
}

#[test]
fn tic_tac_toe_positions_match_brute_force() {
    // Every position reachable in up to four plies, with a one-bucket table.
    let mut memory = vec![0u8; Table::required_bytes(1)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut checked = 0;
    TicTacToe::default().walk(4, &mut |g| {
        let want = g.value();
        let got = dfpn.solve_value(g, &mut table, &mut Limits::default());
        assert_eq!(got.value, Ok(want), "position {:?}", g.cells);
        checked += 1;
    });
    assert!(checked > 700, "checked {checked}");
}

/// A table shared by searches from many positions of one cyclic game (as an engine reuses its
/// table move after move) still gives exact values and winning best moves at every root.
#[test]
fn one_table_shared_across_roots_of_a_cyclic_game() {
    shared_table_across_roots::<DRAW>(3000, 5);
    // The leaves' first numbers stay in the table from one root to the next.
    shared_table_across_roots::<{ DRAW | LEAVES }>(1000, 6);
}

fn shared_table_across_roots<const RULE: u8>(games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    for game_index in 0..games {
        let graph = Graph::random(&mut rng, Shape::Cyclic);
        let buckets = TABLE_BUCKETS[rng.below(TABLE_BUCKETS.len() as u64) as usize];
        let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
        let mut table = Table::new(&mut table_memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
        let mut dfpn =
            Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
                .unwrap();
        for root in 0..graph.nodes.len() as u32 {
            let mut g = graph.clone();
            g.root = root;
            let expected = g.brute_value(false);
            let mut game = GraphGame::<RULE>::new(&graph);
            game.at = root;
            for attacker in [Player::First, Player::Second] {
                let r = dfpn.solve(
                    &mut game,
                    attacker,
                    &mut table,
                    &mut Limits::nodes(NODE_CAP),
                );
                let context = format!("seed {seed} game {game_index} root {root} {attacker:?}");
                let wins = g.attacker_wins(expected, attacker);
                assert_eq!(r.is_proven(), wins, "{context}\n{g:#?}");
                assert!(!r.is_unknown(), "{context}");
                let node = g.node(root);
                let open = node.outcome == proofnum::Outcome::Unknown && !node.children.is_empty();
                if wins && open && node.mover == attacker {
                    // The proof's move wins at least with infinite play counted as a draw.
                    let child = r.best_move.unwrap() as u32;
                    let retro = g.retrograde()[child as usize];
                    let retro_wins = (g.node(child).mover == attacker) == (retro == Value::Win)
                        && retro != Value::Draw;
                    assert!(
                        retro_wins,
                        "{context}: best move to {child} does not even win in retrograde terms"
                    );
                    // The move `verify` checked wins on this very path.
                    let mut memo = vec![0u64; 1024];
                    let v = dfpn.verify(
                        &mut game,
                        attacker,
                        Status::Proven,
                        &mut table,
                        &mut memo,
                        &mut Limits::nodes(NODE_CAP),
                    );
                    assert_eq!(v.verdict, Verdict::Verified, "{context}");
                    let child = v.winning_move.expect("a verified proof names its move") as u32;
                    assert!(
                        g.child_wins_for(child, attacker, false),
                        "{context}: verified move to {child} does not win on this path\n{g:#?}"
                    );
                }
            }
        }
    }
}

/// The second search of a full value reads the first's proofs as its own disproofs
/// (`Dfpn::solve_after_opponent`): on random games where the side to move cannot win, the
/// opponent's search over the first search's table gets the oracle's answer, its claim
/// verifies (and the opposite claim is refuted). Returns the MID calls with and without
/// reading, for the caller to check the saving where it is reliable (`Savings::assert_saved`).
fn second_search_reads_first_proofs<const RULE: u8>(
    shape: Shape,
    games: usize,
    salt: u64,
) -> Savings {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let (mut reading, mut plain, mut fewer) = (0u64, 0u64, 0usize);
    for i in 0..games {
        let graph = Graph::random(&mut rng, shape);
        let expected = graph.oracle_value(false, &format!("seed {seed} game {i}"));
        if expected == Value::Win {
            continue; // the first search proves it: no second search
        }
        let buckets = TABLE_BUCKETS[1 + rng.below(TABLE_BUCKETS.len() as u64 - 1) as usize];
        let context = format!("seed {seed} game {i} ({shape:?}, {buckets} buckets)");
        let mut mid_calls = [0u64; 2];
        for (k, read) in [true, false].into_iter().enumerate() {
            let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
            let mut table = Table::new(&mut table_memory).unwrap();
            let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
            let mut dfpn = Dfpn::<GraphGame<RULE>>::new(
                &mut stack,
                MAX_DEPTH,
                MAX_MOVES,
                DfpnConfig::default(),
            )
            .unwrap();
            let mut game = GraphGame::<RULE>::new(&graph);
            let me = graph.node(graph.root).mover;
            let first = dfpn.solve(&mut game, me, &mut table, &mut Limits::nodes(NODE_CAP));
            assert_eq!(first.status, Status::Disproven, "{context}: first search");
            let opponent = me.opponent();
            let second = if read {
                dfpn.solve_after_opponent(
                    &mut game,
                    opponent,
                    &mut table,
                    &mut Limits::nodes(NODE_CAP),
                )
            } else {
                dfpn.solve(
                    &mut game,
                    opponent,
                    &mut table,
                    &mut Limits::nodes(NODE_CAP),
                )
            };
            let wins = expected == Value::Loss;
            let want = if wins {
                Status::Proven
            } else {
                Status::Disproven
            };
            assert_eq!(
                second.status, want,
                "{context}: second search, reading {read}\n{graph:#?}"
            );
            assert_eq!(game.at, graph.root, "{context}: position not restored");
            mid_calls[k] = second.stats.mid_calls;
            if read {
                check_proof_tools(
                    &mut dfpn, &mut game, &mut table, &graph, opponent, wins, &context,
                );
            }
        }
        reading += mid_calls[0];
        plain += mid_calls[1];
        fewer += usize::from(mid_calls[0] < mid_calls[1]);
    }
    Savings {
        seed,
        reading,
        plain,
        fewer,
    }
}

#[test]
fn second_search_of_a_value_reads_the_first_searchs_proofs() {
    let dag = second_search_reads_first_proofs::<ACYCLIC>(Shape::Dag, 4_000, 41);
    second_search_reads_first_proofs::<DRAW>(Shape::Cyclic, 4_000, 42);
    second_search_reads_first_proofs::<{ DRAW | LEAVES }>(Shape::Cyclic, 4_000, 43);
    dag.assert_saved("MID calls");
}
