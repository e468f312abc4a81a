//! The tsume game's answers and lengths on positions whose answers are known by hand, and the
//! SFEN parser's errors.
//!
//! The lengths follow the composers' conventions of `shogi::mate`: the futile-interposition
//! position is the textbook example of the convention (the Japanese Wikipedia article on
//! interpositions, 合駒, figure 3: a discovered check by a bishop along the long diagonal, to
//! which every interposition is futile, is a 1-ply mate, not a 15-ply one).

#[path = "common/tsume_suite.rs"]
mod tsume_suite;

use proofnum::{Dfpn, Game, Player, Status, Table};
use proofnum_check::{CheckError, Fault, Record};
use proofnum_games::shogi::mate::{
    Exactness, MateConfig, MateMemory, MateWithin, solve_tsume, solve_tsume_in, solve_tsume_with,
};
use proofnum_games::shogi::{Knowledge, MAX_MOVES, Move, Tsume};

const CONFIG: MateConfig = MateConfig {
    table_bytes: 16 << 20,
    max_plies: 400,
    max_nodes: 20_000_000,
    max_time: None,
    max_proof_time: None,
    max_length_time: None,
    exact: true,
    confirm: true,
    dfpn: proofnum::DfpnConfig {
        epsilon: proofnum::Epsilon::QUARTER,
        search_stale_entries: false,
        weak_delta: false,
        share_unsolved: true,
    },
};

/// King on 1a behind its pawn on 1b; Black's pawn on 3c masks its bishop on 9i. 3c3b+ covers
/// 2a and 2b and uncovers the bishop's check along 8h-2b; White can only interpose, and every
/// interposition is taken by the bishop until it lands on 2b, guarded by the tokin: mate.
const FUTILE: &str = "8k/8p/6P2/9/9/9/9/9/B8 b 2rb4g4s4n4l16p 1";

fn length(sfen: &str) -> (Status, Option<u32>, Exactness, Vec<String>) {
    let mut tsume = Tsume::from_sfen(sfen).unwrap();
    let report = solve_tsume(&mut tsume, &CONFIG);
    let line = report.line.iter().map(|&mv| tsume.usi(mv)).collect();
    (report.status, report.plies(), report.exactness, line)
}

#[test]
fn a_gold_drop_mates_in_one_ply() {
    let (status, plies, exactness, line) = length("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(status, Status::Proven);
    assert_eq!((plies, exactness), (Some(1), Exactness::Exact));
    assert_eq!(line, ["G*5b"]);
}

#[test]
fn futile_interpositions_do_not_lengthen_the_mate() {
    let (status, plies, exactness, line) = length(FUTILE);
    assert_eq!(status, Status::Proven);
    assert_eq!((plies, exactness), (Some(1), Exactness::Exact));
    // The line plays the interpositions out to the real mate: the promotion first, then
    // drops and the bishop's captures, the last on 2b.
    assert_eq!(line[0], "3c3b+");
    assert!(line.last().unwrap().ends_with("2b"), "{line:?}");
}

#[test]
fn a_lone_pawn_cannot_mate() {
    // P*5b checks, the king takes it, and Black has nothing left to check with.
    let (status, ..) = length("4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1");
    assert_eq!(status, Status::Disproven);
}

#[test]
fn mate_by_a_pawn_drop_is_no_mate() {
    // P*1b would mate (the gold guards 1b, the knight covers 2a) but is illegal; Black's only
    // other checks, the knight's promotions on 2a and 4a, leave the king free: no mate.
    let (status, ..) = length("8k/9/6NG1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1");
    assert_eq!(status, Status::Disproven);
}

#[test]
fn sfen_errors_name_what_is_wrong() {
    let error = |sfen: &str| Tsume::from_sfen(sfen).unwrap_err().reason;
    assert!(error("4k4/9/9 b - 1").contains("3 ranks"));
    assert!(error("4k5/9/9/9/9/9/9/9/9 b - 1").contains("rank 1 (a)"));
    assert!(error("4k4/9/9/9/9/9/9/9/4X4 b - 1").contains("'X' is not a piece letter"));
    assert!(error("4k4/9/9/9/9/9/9/9/9 w - 1").contains("White to move"));
    assert!(error("4k4/9/9/9/9/9/9/9/9 b 19p 1").contains("above 18"));
    assert!(error("4k4/9/9/9/9/9/9/9/9 b 3R 1").contains("3 rooks"));
    assert!(error("4k4/9/9/9/9/9/9/9/9 b K 1").contains("king cannot be held"));
    assert!(error("4P4/9/9/9/9/9/9/9/4k4 b - 1").contains("can never move"));
    assert!(error("4k4/9/9/9/9/9/9/9/4+G4 b - 1").contains("cannot promote"));
    assert!(error("4k4/9/9/9/9/9/9/9/9 b").contains("2 fields"));
    assert!(error("4k4/4k4/9/9/9/9/9/9/9 b - 1").contains("2 kings"));
    let long = format!("{} b - 1", "9/".repeat(300));
    let message = Tsume::from_sfen(&long).unwrap_err().to_string();
    assert!(message.len() < 200, "{message}");
}

#[test]
fn the_sfen_round_trips_and_a_full_defender_hand_is_kept() {
    let sfen = "9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1";
    let tsume = Tsume::from_sfen(sfen).unwrap();
    assert_eq!(tsume.sfen(), sfen);
    assert_eq!(tsume.remaining_pieces(), [0; 7]);
    assert_eq!(tsume.hand(haitaka::Color::White), [15, 3, 0, 2, 0, 0, 4]);
}

#[test]
fn packed_hands_compare_kind_by_kind() {
    use proofnum_games::shogi::{hand_dominates, pack_hand};
    let hands: Vec<[u8; 7]> = vec![
        [0; 7],
        [18, 4, 4, 4, 2, 2, 4],
        [1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 1],
        [17, 4, 4, 4, 2, 2, 4],
        [3, 1, 0, 2, 1, 0, 1],
        [2, 1, 0, 2, 1, 1, 1],
        [3, 0, 4, 2, 0, 2, 1],
    ];
    for a in &hands {
        for b in &hands {
            let expected = a.iter().zip(b).all(|(x, y)| x >= y);
            assert_eq!(
                hand_dominates(pack_hand(a), pack_hand(b)),
                expected,
                "{a:?} {b:?}"
            );
        }
    }
    let tsume = Tsume::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
    assert_eq!(
        tsume.packed_hand(haitaka::Color::Black),
        pack_hand(&[0, 0, 0, 0, 0, 0, 1])
    );
}

/// The mate-length game by brute force, from the rules alone (`Tsume`'s legal moves and checks,
/// no knowledge): can Black, to move with `budget` counted moves, mate, where a check that
/// captures White's drop on `drop` may be played for free, the piece thrown away?
fn black_mates(tsume: &mut Tsume, budget: u32, drop: Option<haitaka::Square>) -> bool {
    for mv in tsume.checks() {
        if drop == Some(mv.to()) && !mv.is_drop() {
            tsume.play(mv.discarding());
            let mated = white_mated(tsume, budget);
            tsume.undo(mv.discarding());
            if mated {
                return true;
            }
        }
        if budget >= 1 {
            tsume.play(mv);
            let mated = white_mated(tsume, budget - 1);
            tsume.undo(mv);
            if mated {
                return true;
            }
        }
    }
    false
}

/// White to move (in check) loses whatever it plays: mated now, or every reply is answered by a
/// mate within the budget; without budget, a board move escapes (only a drop can be taken for
/// free).
fn white_mated(tsume: &mut Tsume, budget: u32) -> bool {
    for reply in tsume.legal_moves() {
        if budget == 0 && !reply.is_drop() {
            return false;
        }
        tsume.play(reply);
        let mated = black_mates(tsume, budget, reply.is_drop().then(|| reply.to()));
        tsume.undo(reply);
        if !mated {
            return false;
        }
    }
    true
}

/// `MateWithin(k)` as df-pn solves it, with every piece of knowledge (mate in one, the settled
/// last move) against the brute force, on the positions of the recorded lines one, two and
/// three Black moves before their mates, for budgets 1, 2 and 3 searched in one table: the
/// game's shortcuts and the budgets its results are kept with must not change an answer.
#[test]
fn mate_within_agrees_with_brute_force() {
    let mut table_bytes = vec![0u8; 4 << 20];
    let mut stack = vec![0u8; Dfpn::<MateWithin>::stack_bytes(64, MAX_MOVES)];
    let mut dfpn = Dfpn::<MateWithin>::new(&mut stack, 64, MAX_MOVES, Default::default()).unwrap();
    let mut table = Table::new(&mut table_bytes).unwrap();
    let (mut checked, mut mates) = (0, 0);
    for (name, position) in line_positions(13, &[1, 3, 5]) {
        let mut rules_only = position.clone().with_knowledge(Knowledge::NONE);
        let expected = [1, 2, 3].map(|budget| black_mates(&mut rules_only, budget, None));
        // One table for the budgets falling, another for them rising: each search meets
        // the others' results with the budgets they were found to need
        // (`Game::material_needed`: a mate found with 3 may need 1, a failure found with
        // 1 may hold with 3), which must not change an answer either.
        for (budget, fresh) in [
            (3, true),
            (2, false),
            (1, false),
            (1, true),
            (2, false),
            (3, false),
        ] {
            if fresh {
                table.rekey();
            }
            let expected = expected[budget as usize - 1];
            let mut within = MateWithin::new(position.clone(), budget);
            let result = dfpn.solve(
                &mut within,
                Player::First,
                &mut table,
                &mut Default::default(),
            );
            let found = match result.status {
                Status::Proven => true,
                Status::Disproven => false,
                Status::Unknown(reason) => panic!("{name}, budget {budget}: {reason}"),
            };
            assert_eq!(
                found, expected,
                "{name} (plies before the end), budget {budget}"
            );
            checked += 1;
            mates += usize::from(found);
        }
    }
    // Both answers occur often enough for the comparison to mean something.
    assert!(
        checked >= 60 && mates >= 20 && checked - mates >= 20,
        "{checked} {mates}"
    );
}

/// Muso 25 (17 plies): a proof that leans on hand dominance, so its certificate has dominance
/// records; `proofnum-check` accepts it with the rules and dominance (`Knowledge::CERTIFICATE`)
/// and refuses it with the rules alone, which know no dominance.
#[test]
fn a_tsume_certificate_with_dominance_records_checks() {
    let sfen = "4n4/1s3p+R+b1/2Pgk2l1/3sp1S2/3p2p2/6P2/3+l5/4N4/9 b RBSN3gn2l12p 1";
    let mut tsume = Tsume::from_sfen(sfen).unwrap();
    let config = MateConfig {
        exact: false,
        ..CONFIG
    };
    let mut bytes = Vec::new();
    let report = solve_tsume_with(&mut tsume, &config, Some(&mut bytes));
    assert_eq!(report.status, Status::Proven);
    assert!(
        report.certificate_records.is_some(),
        "the certificate is written"
    );
    let cert = proofnum_check::read(&bytes).unwrap();
    let dominated = cert
        .records
        .values()
        .filter(|r| matches!(r, Record::Dominated { .. }))
        .count();
    assert!(dominated > 0, "no dominance record");
    let limits = proofnum_check::Limits::default();
    let mut checked = tsume.clone().with_knowledge(Knowledge::CERTIFICATE);
    let report = proofnum_check::check(&mut checked, "shogi", &cert, &limits).unwrap();
    assert!(report.exact && report.records > dominated);
    let mut rules_only = tsume.clone().with_knowledge(Knowledge::NONE);
    match proofnum_check::check(&mut rules_only, "shogi", &cert, &limits) {
        Err(CheckError::Invalid {
            fault: Fault::NotDominated { .. },
            ..
        }) => {}
        other => panic!("the rules alone accepted dominance records: {other:?}"),
    }
}

/// One `MateMemory` answers problem after problem as fresh memory does (each call's table is
/// the last call's with its entries made unreachable): the positions above whose answers are
/// known by hand and two short problems of the suite whose recorded lengths are exact (the
/// records; `tsumesuite within` shows no mate two plies shorter), in two orders, twice over.
#[test]
fn one_memory_answers_problem_after_problem() {
    let suite = tsume_suite::problems();
    let record = |id: &str| suite.iter().find(|p| p.id == id).unwrap().sfen.clone();
    // (SFEN, plies of the mate or none)
    let problems = [
        (
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".to_string(),
            Some(1),
        ),
        (FUTILE.to_string(), Some(1)),
        ("4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1".to_string(), None),
        (
            "8k/9/6NG1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1".to_string(),
            None,
        ),
        (record("musou-077"), Some(11)),
        (record("zukou-034"), Some(17)),
    ];
    let mut memory = MateMemory::tsume(&CONFIG);
    let forward = problems.iter();
    let backward = problems.iter().rev();
    for (sfen, plies) in forward.clone().chain(backward).chain(forward) {
        let mut tsume = Tsume::from_sfen(sfen).unwrap();
        let report = solve_tsume_in(&mut memory, &mut tsume, &CONFIG);
        match plies {
            Some(plies) => {
                assert_eq!(report.status, Status::Proven, "{sfen}");
                assert_eq!(report.plies(), Some(*plies), "{sfen}");
                assert_eq!(report.exactness, Exactness::Exact, "{sfen}");
            }
            None => assert_eq!(report.status, Status::Disproven, "{sfen}"),
        }
    }
}

/// The positions of a recorded line `before` plies before its end, for the problems whose
/// lines are at most `max_plies` long.
fn line_positions(max_plies: usize, befores: &[usize]) -> Vec<(String, Tsume)> {
    let mut positions = Vec::new();
    for problem in tsume_suite::problems() {
        if problem.line.len() > max_plies {
            continue;
        }
        let mut tsume = Tsume::from_sfen(&problem.sfen).unwrap();
        let moves: Vec<Move> = problem
            .line
            .iter()
            .map(|usi| {
                let mv = tsume.parse_move(usi).unwrap();
                tsume.play(mv);
                mv
            })
            .collect();
        for &before in befores {
            let Some(start) = moves.len().checked_sub(before) else {
                continue;
            };
            let mut board = Tsume::from_sfen(&problem.sfen).unwrap();
            for &mv in &moves[..start] {
                board.play(mv);
            }
            positions.push((format!("{} -{before}", problem.id), board));
        }
    }
    positions
}

/// Proof and disproof pieces (`Knowledge::PROOF_PIECES`, `Game::material_needed`) let a
/// result found with one hand settle positions of the same board with others. On the
/// positions of the suite's short recorded lines one to seven plies before the mate, each
/// with Black's hand as it is and with one piece of a kind moved between the hands (either
/// way), all of one position's hands searched in one table so that each meets the others'
/// entries: every answer is certified, and `proofnum-check`, which checks every position of
/// the certificate itself (by the rules, and dominance between the positions it checked),
/// accepts it. Mates and failures both occur, and the pieces save MID calls over the run.
#[test]
fn answers_with_proof_pieces_are_certified_on_changed_hands() {
    use haitaka::Color;
    use proofnum::{Limits, Verdict};
    use proofnum_games::shogi::HAND_PIECES;

    let mut table_bytes = vec![0u8; 8 << 20];
    let mut stack = vec![0u8; Dfpn::<Tsume>::stack_bytes(200, MAX_MOVES)];
    let mut dfpn = Dfpn::<Tsume>::new(&mut stack, 200, MAX_MOVES, Default::default()).unwrap();
    let mut memo = vec![0u64; 1 << 16];
    let (mut mates, mut failures, mut open, mut too_large) = (0, 0, 0, 0);
    let mut mid_calls = [0u64; 2];
    for (name, base) in line_positions(15, &[1, 3, 5, 7]) {
        let mut hands = vec![(String::from("as recorded"), base.board().clone())];
        for (i, &piece) in HAND_PIECES.iter().enumerate() {
            for (from, to) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
                if base.hand(from)[i] > 0 {
                    let mut board = base.board().clone();
                    board.unchecked_set_hand(from, piece, base.hand(from)[i] - 1);
                    board.unchecked_set_hand(to, piece, base.hand(to)[i] + 1);
                    hands.push((format!("a {piece:?} from {from:?} to {to:?}"), board));
                }
            }
        }
        for (run, knowledge) in [
            Knowledge::ALL,
            Knowledge::ALL.without(Knowledge::PROOF_PIECES),
        ]
        .into_iter()
        .enumerate()
        {
            let mut table = Table::new(&mut table_bytes).unwrap();
            for (hand, board) in &hands {
                let context = format!("{name}, {hand}, {knowledge:?}");
                let mut tsume = Tsume::new(board.clone()).with_knowledge(knowledge);
                let result = dfpn.solve(
                    &mut tsume,
                    Player::First,
                    &mut table,
                    &mut Limits::nodes(100_000),
                );
                mid_calls[run] += result.stats.mid_calls;
                let (Status::Proven | Status::Disproven) = result.status else {
                    open += 1;
                    continue;
                };
                if run == 1 {
                    continue; // the run without the pieces only counts MID calls
                }
                // Written with the rules and dominance only, as the checker reads it.
                let mut certified =
                    Tsume::new(board.clone()).with_knowledge(Knowledge::CERTIFICATE);
                let mut bytes = Vec::new();
                let v = dfpn.certify(
                    &mut certified,
                    Player::First,
                    result.status,
                    &mut table,
                    &mut memo,
                    "shogi",
                    &mut bytes,
                    &mut Limits::nodes(20_000),
                );
                if v.verdict == Verdict::Unknown(proofnum::Reason::NodeLimit) {
                    too_large += 1; // musou-079's, 100,000 positions and 7 s each
                    continue;
                }
                assert_eq!(
                    v.verdict,
                    Verdict::Verified,
                    "{context}: {:?}",
                    result.status
                );
                let cert = proofnum_check::read(&bytes).unwrap();
                let mut checked = Tsume::new(board.clone()).with_knowledge(Knowledge::CERTIFICATE);
                let report =
                    proofnum_check::check(&mut checked, "shogi", &cert, &Default::default())
                        .unwrap_or_else(|e| panic!("{context}: {e}"));
                assert!(report.exact, "{context}");
                assert_eq!(
                    cert.heading.attacker_wins,
                    result.status == Status::Proven,
                    "{context}"
                );
                if result.status == Status::Proven {
                    mates += 1;
                } else {
                    failures += 1;
                }
            }
        }
    }
    println!(
        "{mates} mates and {failures} failures certified, {too_large} certificates too large \
         to write here, {open} searches open; MID calls {} with proof pieces, {} without",
        mid_calls[0], mid_calls[1]
    );
    assert!(mates >= 300 && failures >= 40, "{mates} {failures}");
    assert!(too_large <= 20, "{too_large} certificates too large");
    assert!(
        mid_calls[0] < mid_calls[1],
        "proof pieces saved nothing: {mid_calls:?}"
    );
}
