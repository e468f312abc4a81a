//! Proof certificates of random games, written by `Dfpn::certify` and checked by
//! `proofnum-check` (which shares no code with the search): every certificate of a true claim
//! checks, its claim agrees with the brute-force oracle, and certificates spoiled in the ways a
//! buggy writer or a damaged file would spoil them are rejected with the reason.

mod common;
#[path = "common/reached.rs"]
mod reached;

use common::{ACYCLIC, BY_POSITION, DRAW, Graph, GraphGame, NO_ENCODING, Rng, Shape, TicTacToe};
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Limits, Player, Status, Verdict};
use proofnum_check::{Certificate, CheckError, Fault, Limits as CheckLimits, Record, check, read};

const MAX_DEPTH: usize = 48;
const MAX_MOVES: usize = 8;
const NODE_CAP: u64 = 20_000_000;

/// Solves `attacker`'s question on `graph` with df-pn over a table of `buckets` buckets and
/// writes the answer's certificate: (the answer, its bytes, the walk's verdict).
fn certify<const RULE: u8>(
    graph: &Graph,
    attacker: Player,
    buckets: usize,
) -> (Status, Vec<u8>, Verdict) {
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
            .unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let r = dfpn.solve(
        &mut game,
        attacker,
        &mut table,
        &mut Limits::nodes(NODE_CAP),
    );
    let mut bytes = Vec::new();
    let mut memo = vec![0u64; 512];
    let v = dfpn.certify(
        &mut game,
        attacker,
        r.status,
        &mut table,
        &mut memo,
        "graph",
        &mut bytes,
        &mut Limits::nodes(NODE_CAP),
    );
    assert_eq!(game.at, graph.root, "certify restores the position");
    (r.status, bytes, v.verdict)
}

fn check_graph<const RULE: u8>(graph: &Graph, cert: &Certificate) -> Result<(), CheckError> {
    let mut game = GraphGame::<RULE>::new(graph);
    let r = check(&mut game, "graph", cert, &CheckLimits::default()).map(|_| ());
    assert_eq!(game.at, graph.root, "check restores the position");
    r
}

/// Every answer of both attackers on `graph` is certified, and the certificate checks.
/// Returns the certificates with their claims.
fn certified<const RULE: u8>(graph: &Graph, context: &str) -> Vec<(Player, bool, Certificate)> {
    let expected = graph.oracle_value(RULE & 3 == BY_POSITION, context);
    let mut out = Vec::new();
    for attacker in [Player::First, Player::Second] {
        let wins = graph.attacker_wins(expected, attacker);
        for buckets in [1, 64] {
            let (status, bytes, verdict) = certify::<RULE>(graph, attacker, buckets);
            let want = if wins {
                Status::Proven
            } else {
                Status::Disproven
            };
            assert_eq!(
                status, want,
                "{context}: {attacker:?} with {buckets} buckets"
            );
            assert_eq!(
                verdict,
                Verdict::Verified,
                "{context}: {attacker:?} {buckets}"
            );
            let cert = read(&bytes).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(cert.heading.attacker_wins, wins, "{context}");
            if let Err(e) = check_graph::<RULE>(graph, &cert) {
                panic!("{context}: {attacker:?}, {buckets} buckets: {e}\n{graph:#?}\n{cert:#?}");
            }
            out.push((attacker, wins, cert));
        }
    }
    out
}

#[test]
fn certificates_of_random_games_check_under_every_rule() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let mut games = 0;
    for i in 0..600 {
        let shape = [Shape::Tree, Shape::Dag, Shape::Cyclic][i % 3];
        let graph = Graph::random_maybe_bounded(&mut rng, shape, i % 2 == 1);
        let context = format!("seed {seed}, game {i} ({shape:?})");
        if shape != Shape::Cyclic {
            certified::<ACYCLIC>(&graph, &context);
        }
        if i % 2 == 0 {
            certified::<DRAW>(&graph, &context);
        } else {
            certified::<BY_POSITION>(&graph, &context);
        }
        games += 1;
    }
    assert_eq!(games, 600);
}

#[test]
fn without_exact_encodings_acyclic_proofs_are_checked_as_trees_and_cyclic_ones_refused() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let mut refused = 0;
    for i in 0..200 {
        let shape = if i % 2 == 0 { Shape::Tree } else { Shape::Dag };
        let graph = Graph::random(&mut rng, shape);
        let context = format!("seed {seed}, game {i}");
        for (_, _, cert) in certified::<{ ACYCLIC | NO_ENCODING }>(&graph, &context) {
            let mut game = GraphGame::<{ ACYCLIC | NO_ENCODING }>::new(&graph);
            let report = check(&mut game, "graph", &cert, &CheckLimits::default()).unwrap();
            assert!(
                !report.exact,
                "{context}: the report says positions were not told apart"
            );
        }
        // The same game under the draw rule: its certificates cannot be judged.
        let (_, bytes, _) = certify::<{ DRAW | NO_ENCODING }>(&graph, Player::First, 64);
        let cert = read(&bytes).unwrap();
        let mut game = GraphGame::<{ DRAW | NO_ENCODING }>::new(&graph);
        let r = check(&mut game, "graph", &cert, &CheckLimits::default());
        assert_eq!(r.unwrap_err(), CheckError::NeedsEncoding, "{context}");
        refused += 1;
    }
    assert_eq!(refused, 200);
}

#[test]
fn spoiled_certificates_are_rejected_with_the_reason() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    // How many certificates each kind of damage was tried on (each must be rejected).
    let (mut wrong_move, mut missing_reply, mut swapped_leaf, mut swapped_claim) = (0, 0, 0, 0);
    let (mut truncated, mut other_position) = (0, 0);
    for i in 0..400 {
        let shape = if i % 2 == 0 { Shape::Tree } else { Shape::Dag };
        let graph = Graph::random(&mut rng, shape);
        let context = format!("seed {seed}, game {i}");
        let expected = graph.oracle_value(false, &context);
        for (attacker, wins, cert) in certified::<DRAW>(&graph, &context) {
            let root_mover = graph.node(graph.root).mover;
            // A wrong move: the root's winning move replaced by one the oracle says loses.
            if let Some(Record::Or { index, child }) = cert.records.get(&cert.root).cloned() {
                let moves = &graph.node(graph.root).children;
                let winner = if wins { attacker } else { attacker.opponent() };
                assert_eq!(root_mover, winner);
                let losing = (0..moves.len()).find(|&k| {
                    let c = moves[k];
                    let keeps = if wins {
                        graph.child_wins_for(c, attacker, false)
                    } else {
                        !graph.child_wins_for(c, attacker, false)
                    };
                    !keeps
                });
                if let Some(k) = losing {
                    let mut bad = cert.clone();
                    bad.records.insert(
                        cert.root,
                        Record::Or {
                            index: k as u64,
                            child,
                        },
                    );
                    let e = check_graph::<DRAW>(&graph, &bad).expect_err(&context);
                    assert!(matches!(e, CheckError::Invalid { .. }), "{context}: {e}");
                    wrong_move += 1;
                }
                let mut beyond = cert.clone();
                let n = moves.len() as u64;
                beyond
                    .records
                    .insert(cert.root, Record::Or { index: n, child });
                let e = check_graph::<DRAW>(&graph, &beyond).expect_err(&context);
                let want = Fault::NoSuchMove {
                    node: cert.root,
                    index: n,
                    moves: moves.len(),
                };
                assert_eq!(
                    e,
                    CheckError::Invalid {
                        line: vec![],
                        fault: want
                    },
                    "{context}"
                );
                let _ = index;
            }
            for (id, record) in reached::reached_records(&cert) {
                let Record::And { children } = record else {
                    continue;
                };
                // A missing reply.
                let mut bad = cert.clone();
                let mut fewer = children.clone();
                fewer.pop();
                bad.records.insert(id, Record::And { children: fewer });
                match check_graph::<DRAW>(&graph, &bad) {
                    Err(CheckError::Invalid {
                        fault: Fault::MissingReplies { node, .. },
                        ..
                    }) => {
                        assert_eq!(node, id, "{context}")
                    }
                    other => panic!("{context}: a missing reply gave {other:?}"),
                }
                missing_reply += 1;
                // A swapped leaf: a node of the proof claimed to be a position the game scores.
                if let Some(k) = children.iter().position(|&c| c > id) {
                    let mut bad = cert.clone();
                    let mut leafed = children.clone();
                    leafed[k] = 0;
                    bad.records.insert(id, Record::And { children: leafed });
                    match check_graph::<DRAW>(&graph, &bad) {
                        Err(CheckError::Invalid {
                            fault: Fault::NotALeaf,
                            ..
                        }) => {}
                        other => panic!("{context}: a swapped leaf gave {other:?}"),
                    }
                    swapped_leaf += 1;
                }
                break;
            }
            // The opposite claim with the same proof: some line ends against it.
            let mut bad = cert.clone();
            bad.heading.attacker_wins = !wins;
            assert!(check_graph::<DRAW>(&graph, &bad).is_err(), "{context}");
            swapped_claim += 1;
            // Another position: the certificate names the root it proves.
            if graph.nodes.len() > 1 {
                let mut game = GraphGame::<DRAW>::new(&graph);
                game.at = 1;
                let e = check(&mut game, "graph", &cert, &CheckLimits::default()).unwrap_err();
                assert!(matches!(e, CheckError::Mismatch(_)), "{context}: {e}");
                other_position += 1;
            }
        }
        // A truncated or damaged file does not read.
        let (_, bytes, _) = certify::<DRAW>(&graph, Player::First, 64);
        for cut in [1, bytes.len() / 2, bytes.len() - 9] {
            assert!(
                read(&bytes[..bytes.len() - cut]).is_err(),
                "{context}: cut {cut}"
            );
        }
        let mut damaged = bytes.clone();
        let at = bytes.len() - 12;
        damaged[at] ^= 0x10;
        assert!(read(&damaged).is_err(), "{context}: a flipped bit");
        truncated += 1;
        let _ = expected;
    }
    for (what, n) in [
        ("wrong move", wrong_move),
        ("missing reply", missing_reply),
        ("swapped leaf", swapped_leaf),
        ("swapped claim", swapped_claim),
        ("truncated", truncated),
        ("other position", other_position),
    ] {
        assert!(n >= 100, "only {n} certificates spoiled by {what}");
    }
}

#[test]
fn tic_tac_toe_is_a_draw_by_two_checked_certificates() {
    // Tic-tac-toe is a draw with perfect play (well known; the oracle tests confirm it by
    // brute force): neither side can force a win.
    let mut table_memory = vec![0u8; Table::required_bytes(1 << 12)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    let mut memo = vec![0u64; 1 << 14];
    for attacker in [Player::First, Player::Second] {
        let r = dfpn.solve(&mut game, attacker, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Disproven);
        let mut bytes = Vec::new();
        let v = dfpn.certify(
            &mut game,
            attacker,
            r.status,
            &mut table,
            &mut memo,
            "tictactoe",
            &mut bytes,
            &mut Limits::default(),
        );
        assert_eq!(v.verdict, Verdict::Verified);
        let cert = read(&bytes).unwrap();
        let report = check(&mut game, "tictactoe", &cert, &CheckLimits::default()).unwrap();
        assert!(report.exact && report.records > 0);
        assert_eq!(game, TicTacToe::default(), "restored");
        let e = check(&mut game, "chess", &cert, &CheckLimits::default()).unwrap_err();
        assert!(matches!(e, CheckError::Mismatch(_)));
    }
}
