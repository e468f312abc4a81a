//! A fuzzed game graph solved by every engine against brute force.
//!
//! The input describes a graph (a DAG under the acyclic rule, any graph with cycles under the
//! draw and by-position rules; see `proofnum_fuzz::graph`) and the solver settings: table size
//! from one bucket, ε, PNS arena sizes, thread counts and job budgets. Properties:
//! - df-pn answers both attackers' questions and the value exactly as brute force does; a
//!   proven root's best move wins by the oracle; `verify` accepts each answer and refutes its
//!   negation; the principal variation is a line of legal moves.
//! - PNS and PN² answer the same, or end with `Unknown(MemoryLimit)` when the arena is full.
//! - The parallel solver (on some inputs: threads cost time) answers the same.
//! - No search ends without an answer otherwise: these graphs need far fewer nodes than
//!   [`NODE_CAP`], so reaching it means a search went round in circles.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use proofnum::table::{SharedTable, Table};
use proofnum::{
    Dfpn, DfpnConfig, Epsilon, Limits, ParallelConfig, ParallelLimits, ParallelSolver, Player, Pns,
    PnsConfig, Reason, Status, Verdict,
};
use proofnum_fuzz::attacker_wins;
use proofnum_fuzz::graph::{ACYCLIC, BY_POSITION, DRAW, Graph, GraphGame, MAX_CHILDREN, Rule};

/// A safety net far above what these graphs need (a few thousand nodes at most).
const NODE_CAP: u64 = 1_000_000;
/// Deeper than any line of these graphs: 24 plies without cycles, 11 with.
const MAX_DEPTH: usize = 64;

/// The solver settings read from the input.
#[derive(Debug)]
struct Settings {
    buckets: usize,
    dfpn: DfpnConfig,
    pns_nodes: usize,
    pn2_nodes: usize,
    parallel: Option<ParallelConfig>,
}

impl Settings {
    fn read(u: &mut Unstructured<'_>) -> Result<Settings> {
        let buckets = u.int_in_range(1..=64)?;
        let epsilon = Epsilon::new(u.int_in_range(0..=3)?, u.int_in_range(1..=4)?)
            .expect("a non-zero denominator");
        let dfpn = DfpnConfig {
            epsilon,
            search_stale_entries: u.arbitrary()?,
            weak_delta: u.arbitrary()?,
            share_unsolved: false, // can loop: see DfpnConfig::share_unsolved
        };
        let pns_nodes = u.int_in_range(1..=2_000)?;
        let pn2_nodes = u.int_in_range(1..=200)?;
        let parallel = if u.ratio(1, 4)? {
            Some(ParallelConfig {
                threads: u.int_in_range(1..=4)?,
                job_work: u.int_in_range(1..=50)?,
                split_work: u.int_in_range(0..=50)?,
                dfpn,
                job_thresholds: u.arbitrary()?,
                max_depth: MAX_DEPTH,
                max_moves: MAX_CHILDREN,
            })
        } else {
            None
        };
        Ok(Settings {
            buckets,
            dfpn,
            pns_nodes,
            pn2_nodes,
            parallel,
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let rule = *u.choose(&[Rule::Acyclic, Rule::Draw, Rule::ByPosition])?;
    let graph = Graph::read(&mut u, rule)?;
    let settings = Settings::read(&mut u)?;
    match rule {
        Rule::Acyclic => check::<ACYCLIC>(&graph, &settings),
        Rule::Draw => check::<DRAW>(&graph, &settings),
        Rule::ByPosition => check::<BY_POSITION>(&graph, &settings),
    }
    Ok(())
}

/// The status an attacker's search must end with.
fn expected_status(graph: &Graph, value: proofnum::Value, attacker: Player) -> Status {
    if attacker_wins(value, graph.nodes[0].mover, attacker) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

fn check<const RULE: u8>(graph: &Graph, settings: &Settings) {
    let value = graph.root_value();
    check_dfpn::<RULE>(graph, settings, value);
    check_pns::<RULE>(
        graph,
        settings,
        value,
        PnsConfig::default(),
        settings.pns_nodes,
    );
    check_pns::<RULE>(
        graph,
        settings,
        value,
        PnsConfig::pn2(settings.pn2_nodes),
        settings.pns_nodes,
    );
    if let Some(config) = settings.parallel {
        check_parallel::<RULE>(graph, settings, value, config);
    }
}

fn check_dfpn<const RULE: u8>(graph: &Graph, settings: &Settings, value: proofnum::Value) {
    let mut table_memory = vec![0u8; Table::required_bytes(settings.buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_CHILDREN)];
    let mut dfpn =
        Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_CHILDREN, settings.dfpn).unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let root = &graph.nodes[0];
    for attacker in [Player::First, Player::Second] {
        let want = expected_status(graph, value, attacker);
        let r = dfpn.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(game.at, 0, "the root is restored");
        assert_eq!(
            r.status, want,
            "df-pn, attacker {attacker:?}, value {value:?}"
        );
        if want == Status::Proven && root.mover == attacker && !root.children.is_empty() {
            let mv = r.best_move.expect("a won interior root has a winning move");
            assert_eq!(mv >> 8, 0, "the best move is a root move");
            assert_eq!(
                graph.root_move_value((mv & 0xFF) as usize),
                proofnum::Value::Win,
                "df-pn's best move {mv:#x} wins"
            );
        }
        let mut memo = vec![0u64; 64];
        let verified = dfpn.verify(
            &mut game,
            attacker,
            want,
            &mut table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(
            verified.verdict,
            Verdict::Verified,
            "the true claim {want:?} verifies"
        );
        let false_claim = if want == Status::Proven {
            Status::Disproven
        } else {
            Status::Proven
        };
        let refuted = dfpn.verify(
            &mut game,
            attacker,
            false_claim,
            &mut table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(
            refuted.verdict,
            Verdict::Refuted,
            "the false claim {false_claim:?} is refuted"
        );
        let mut line = [0u32; 32];
        let pv = dfpn.principal_variation(
            &mut game,
            attacker,
            &mut table,
            &mut line,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(game.at, 0, "the root is restored after the line");
        assert!(
            graph.is_line(&line[..pv.len]),
            "the principal variation is legal: {pv:?}"
        );
    }
    let v = dfpn.solve_value(&mut game, &mut table, &mut Limits::nodes(NODE_CAP));
    assert_eq!(v.value, Ok(value), "df-pn's value");
}

fn check_pns<const RULE: u8>(
    graph: &Graph,
    settings: &Settings,
    value: proofnum::Value,
    config: PnsConfig,
    nodes: usize,
) {
    let mut table_memory = vec![0u8; Table::required_bytes(settings.buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let bytes = Pns::<GraphGame<RULE>>::required_bytes(nodes, MAX_DEPTH, MAX_CHILDREN, config);
    let mut memory = vec![0u8; bytes];
    let mut pns =
        Pns::<GraphGame<RULE>>::new(&mut memory, MAX_DEPTH, MAX_CHILDREN, config).unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    for attacker in [Player::First, Player::Second] {
        let r = pns.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(NODE_CAP),
        );
        assert_eq!(game.at, 0, "the root is restored");
        if r.status != Status::Unknown(Reason::MemoryLimit) {
            let want = expected_status(graph, value, attacker);
            assert_eq!(
                r.status, want,
                "{config:?}, attacker {attacker:?}, value {value:?}"
            );
        }
    }
    let v = pns.solve_value(&mut game, &mut table, &mut Limits::nodes(NODE_CAP));
    if v.value != Err(Reason::MemoryLimit) {
        assert_eq!(v.value, Ok(value), "{config:?}: the value");
    }
}

fn check_parallel<const RULE: u8>(
    graph: &Graph,
    settings: &Settings,
    value: proofnum::Value,
    config: ParallelConfig,
) {
    let mut table_memory = vec![0u8; Table::required_bytes(settings.buckets)];
    let table = SharedTable::new(&mut table_memory).unwrap();
    let solver = ParallelSolver::new(config).unwrap();
    let game = GraphGame::<RULE>::new(graph);
    let limits = || ParallelLimits {
        max_nodes: NODE_CAP,
        ..ParallelLimits::none()
    };
    for attacker in [Player::First, Player::Second] {
        let r = solver.solve(&game, attacker, &table, &mut limits());
        let want = expected_status(graph, value, attacker);
        assert_eq!(
            r.status, want,
            "parallel {config:?}, attacker {attacker:?}, value {value:?}"
        );
    }
    let v = solver.solve_value(&game, &table, &mut limits());
    assert_eq!(v.value, Ok(value), "parallel {config:?}: the value");
}
