//! The parallel PN-DFPN solver against independent oracles on thousands of random games.
//!
//! Every game is solved for both attackers and for its full value by 1, 2, 3 or 8 threads,
//! tables of one bucket to thousands, ε ∈ {0, 1/4}, and tiny job budgets and split thresholds
//! so that the root tree grows and many jobs run at once even on these small games. The answer
//! must equal brute-force minimax over paths (and, for the draw rule, retrograde analysis); a
//! proof's best move must win by the oracle too. The seed is fresh each run and printed on
//! failure (`PROOFNUM_SEED=<seed>` reproduces the games; thread timing is not reproducible,
//! which is why the suite runs many games).
#![cfg(feature = "std")]

mod common;

use common::oracle::Case;
use common::{ACYCLIC, BY_POSITION, DEFER, DRAW, Graph, GraphGame, Rng, Shape, repetition_part};
use proofnum::{DfpnConfig, Epsilon, ParallelConfig, ParallelLimits, ParallelSolver, Value};
use proofnum::{SharedTable, Table};

const TABLE_BUCKETS: [usize; 4] = [1, 4, 64, 4096];
const THREADS: [usize; 4] = [1, 2, 3, 8];
const MAX_DEPTH: usize = 64;
const MAX_MOVES: usize = 8;
/// A safety net: these games need far fewer nodes; hitting it means the search looped.
const NODE_CAP: u64 = 5_000_000;

/// Solves `graph` under one configuration through the shared oracle harness
/// (`common::oracle`); every attacker search must have run a job.
fn check<const RULE: u8>(
    graph: &Graph,
    expected: Value,
    config: ParallelConfig,
    buckets: usize,
    context: &str,
) {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = SharedTable::new(&mut memory).unwrap();
    assert_eq!(table.bucket_count(), buckets);
    let mut solver = ParallelSolver::new(config).unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let case = Case {
        graph,
        expected,
        by_position: repetition_part(RULE) == BY_POSITION,
        context,
    };
    case.check(
        &mut solver,
        &mut game,
        &mut table,
        || ParallelLimits {
            max_nodes: NODE_CAP,
            ..ParallelLimits::none()
        },
        |_| {},
        |_, _, _, _, r| assert!(r.stats.jobs >= 1, "{context}: no job ran"),
    );
    // The value over a fresh table, where the second search can only know the first one's
    // proofs from reading them (`solve_after_opponent`), not from its own earlier search.
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let table = SharedTable::new(&mut memory).unwrap();
    let limits = &mut ParallelLimits {
        max_nodes: NODE_CAP,
        ..ParallelLimits::none()
    };
    let v = solver.solve_value(&game, &table, limits);
    assert_eq!(
        v.value,
        Ok(expected),
        "{context}: solve_value over a fresh table"
    );
}

fn run_shape<const RULE: u8>(shape: Shape, games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let mut trees_grown = 0;
    for i in 0..games {
        let graph =
            Graph::random_maybe_bounded(&mut rng, shape, repetition_part(RULE) == BY_POSITION);
        let expected = graph.oracle_value(
            repetition_part(RULE) == BY_POSITION,
            &format!("seed {seed} game {i}"),
        );
        let buckets = TABLE_BUCKETS[rng.below(TABLE_BUCKETS.len() as u64) as usize];
        let threads = THREADS[rng.below(THREADS.len() as u64) as usize];
        let epsilon = if rng.chance(50) {
            Epsilon::ZERO
        } else {
            Epsilon::QUARTER
        };
        let config = ParallelConfig {
            threads,
            job_work: [1, 2, 5, 40][rng.below(4) as usize],
            split_work: [0, 1, 4, 30][rng.below(4) as usize],
            dfpn: DfpnConfig {
                epsilon,
                search_stale_entries: rng.chance(30),
                weak_delta: rng.chance(30),
                share_unsolved: false, // can loop: see DfpnConfig::share_unsolved
            },
            job_thresholds: rng.chance(50),
            max_depth: MAX_DEPTH,
            max_moves: MAX_MOVES,
        };
        let context = format!("seed {seed} game {i} ({shape:?}, {buckets} buckets, {config:?})");
        check::<RULE>(&graph, expected, config, buckets, &context);
        if config.job_work <= 2 && graph.node(graph.root).outcome == proofnum::Outcome::Unknown {
            trees_grown += 1;
        }
    }
    assert!(
        trees_grown > games / 8,
        "the configurations should grow root trees"
    );
}

#[test]
fn random_trees_match_brute_force_in_parallel() {
    run_shape::<ACYCLIC>(Shape::Tree, 1500, 101);
    run_shape::<DRAW>(Shape::Tree, 1500, 111);
}

#[test]
fn random_dags_match_brute_force_in_parallel() {
    run_shape::<ACYCLIC>(Shape::Dag, 1500, 102);
    run_shape::<DRAW>(Shape::Dag, 1500, 112);
}

#[test]
fn random_cyclic_graphs_with_draw_rule_match_brute_force_in_parallel() {
    run_shape::<DRAW>(Shape::Cyclic, 4000, 103);
}

/// Deferred moves in the jobs' df-pn (see `dfpn_oracle`) never change an answer.
#[test]
fn random_games_with_deferred_moves_match_brute_force_in_parallel() {
    run_shape::<{ ACYCLIC | DEFER }>(Shape::Dag, 1000, 105);
    run_shape::<{ DRAW | DEFER }>(Shape::Cyclic, 2000, 106);
}

#[test]
fn random_cyclic_graphs_with_position_rule_match_brute_force_in_parallel() {
    run_shape::<BY_POSITION>(Shape::Cyclic, 3000, 104);
}
