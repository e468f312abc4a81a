//! The shogi game's rules through the `Game` trait, against a second, independent move
//! generator (the `rsshogi` crate) and published perft figures.
//!
//! At every node of a perft walk the moves the game lists are compared, as sets of USI
//! strings, with rsshogi's legal moves: all of them in the full-rules walk, only those that
//! give check (rsshogi's `is_in_check` after playing each) at Black's nodes of the tsume walk,
//! where the game lists only Black's checks. Both walks go through `play`, `undo` and `peek`
//! of the trait and check the hash after every move against the hash of the position built
//! from scratch. The positions cover drops, promotions, mate by a pawn drop, two pawns on a
//! file, pinned pieces, discovered checks and the tsume problems of the suite. The perft counts
//! of the start position (30, 900, 25,470, 719,731, 19,861,490) are the standard figures that
//! independent shogi programs agree on (YaneuraOu's and rsshogi's perft tables).

#[path = "common/tsume_suite.rs"]
mod tsume_suite;

use std::collections::BTreeSet;

use proofnum::{Game, MoveList, Outcome, Player};
use proofnum_games::shogi::{Knowledge, MAX_MOVES, Move, Tsume};
use rsshogi::board::{MoveList as RsMoveList, Position, position_from_sfen};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// rsshogi's tactical benchmark position, White to move, pieces in both hands.
const TACTICAL: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
/// A middle game with promoted pieces and full hands (from haitaka's own examples).
const MIDDLE: &str = "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65";
/// P*1b would mate the king on 1a (the gold guards 1b, the knight covers 2a): illegal.
const PAWN_DROP_MATE: &str = "8k/9/6NG1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
/// Black has pawns on files 2 to 9: a pawn drop is legal on file 1 only.
const TWO_PAWNS: &str = "4k4/9/9/9/9/9/PPPPPPPP1/9/4K4 b P2r2b4g4s4n4l9p 1";
/// Discovered checks and pins: a rook behind its own silver on the king's file, a bishop on
/// the king's diagonal blocked by a white piece, a rook on the king's diagonal (no check).
const DISCOVERIES: &str = "4k4/9/4S1g2/9/4R1B2/9/2R6/9/9 b GN2Pb2g3s3n4l16p 1";

/// The suite's problems as (id, SFEN).
fn problems() -> Vec<(String, String)> {
    tsume_suite::problems()
        .into_iter()
        .map(|p| (p.id, p.sfen))
        .collect()
}

fn rs_legal(position: &Position) -> Vec<rsshogi::types::Move> {
    let mut list = RsMoveList::new();
    rsshogi::movegen::generate_legal_all(position, &mut list);
    list.iter().copied().collect()
}

fn usi_set(moves: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    moves.into_iter().collect()
}

fn trait_moves(game: &Tsume) -> Vec<Move> {
    let mut slots = [Move::default(); MAX_MOVES];
    let mut list = MoveList::new(&mut slots);
    game.generate_moves(&mut list);
    assert!(!list.overflowed());
    list.as_slice().to_vec()
}

/// Plays `mv` on the game through the trait, checking peek and the hash against the position
/// built from scratch.
fn play_checked(game: &mut Tsume, mv: Move) {
    let peeked = game.peek(mv);
    game.play(mv);
    assert_eq!(
        peeked,
        (game.hash(), game.side_to_move()),
        "peek of {}",
        game.usi(mv)
    );
    let rebuilt = Tsume::new(game.board().clone());
    assert_eq!(game.hash(), rebuilt.hash(), "hash after {}", game.usi(mv));
    assert_eq!(
        game.board_key(),
        rebuilt.board_key(),
        "board key after {}",
        game.usi(mv)
    );
}

/// Perft over every legal move of both sides, comparing the move sets with rsshogi at every
/// node; returns the leaf count.
fn full_perft(game: &mut Tsume, position: &mut Position, depth: u32) -> u64 {
    let ours = game.legal_moves();
    let theirs = rs_legal(position);
    assert_eq!(
        usi_set(ours.iter().map(|&mv| game.usi(mv))),
        usi_set(theirs.iter().map(|mv| mv.to_usi())),
        "legal moves of {}",
        game.sfen()
    );
    // The checks the game lists are exactly the legal moves that give check.
    let checks = usi_set(game.checks().into_iter().map(|mv| game.usi(mv)));
    let mut giving_check = BTreeSet::new();
    for &mv in &theirs {
        position.apply_move(mv);
        if position.is_in_check() {
            giving_check.insert(mv.to_usi());
        }
        position.undo_move(mv).unwrap();
    }
    assert_eq!(checks, giving_check, "checks of {}", game.sfen());
    if depth == 1 {
        return ours.len() as u64;
    }
    let hash = game.hash();
    let mut nodes = 0;
    for mv in ours {
        let rs = rsshogi::types::Move::from_usi(&game.usi(mv)).unwrap();
        play_checked(game, mv);
        position.apply_move(rs);
        nodes += full_perft(game, position, depth - 1);
        position.undo_move(rs).unwrap();
        game.undo(mv);
        assert_eq!(game.hash(), hash);
    }
    nodes
}

/// Perft of the tsume game through the trait: Black's checks, White's every legal move;
/// compared with rsshogi (filtered to checks at Black's nodes) at every node. Returns the
/// leaf count.
fn tsume_perft(game: &mut Tsume, position: &mut Position, depth: u32) -> u64 {
    let ours = trait_moves(game);
    let mut expected = BTreeSet::new();
    for mv in rs_legal(position) {
        if game.side_to_move() == Player::First {
            position.apply_move(mv);
            let check = position.is_in_check();
            position.undo_move(mv).unwrap();
            if !check {
                continue;
            }
        }
        expected.insert(mv.to_usi());
    }
    assert_eq!(
        usi_set(ours.iter().map(|&mv| game.usi(mv))),
        expected,
        "moves of {}",
        game.sfen()
    );
    // A side without moves is scored as a loss by outcome (mate, or no check left).
    if ours.is_empty() {
        assert_eq!(game.outcome(), Outcome::Loss, "{}", game.sfen());
    } else if game.side_to_move() == Player::First
        && game.knowledge().contains(Knowledge::MATE_IN_ONE)
    {
        // Black wins at once exactly when one of its checks leaves rsshogi no legal reply
        // (the mate test's shortcuts: flight squares, interpositions, the checker taken).
        let mates = expected.iter().any(|usi| {
            let rs = rsshogi::types::Move::from_usi(usi).unwrap();
            position.apply_move(rs);
            let mated = rs_legal(position).is_empty();
            position.undo_move(rs).unwrap();
            mated
        });
        assert_eq!(game.outcome() == Outcome::Win, mates, "{}", game.sfen());
        assert_eq!(game.mating_move().is_some(), mates, "{}", game.sfen());
    }
    if depth == 1 {
        return ours.len() as u64;
    }
    let mut nodes = 0;
    for mv in ours {
        let rs = rsshogi::types::Move::from_usi(&game.usi(mv)).unwrap();
        play_checked(game, mv);
        position.apply_move(rs);
        nodes += tsume_perft(game, position, depth - 1);
        position.undo_move(rs).unwrap();
        game.undo(mv);
    }
    nodes
}

fn run_full(sfen: &str, depth: u32) -> u64 {
    let board = haitaka::Board::from_sfen(sfen)
        .or_else(|_| proofnum_games::shogi::notation::parse_sfen(sfen))
        .unwrap();
    let mut game = Tsume::new(board);
    let mut position = position_from_sfen(sfen).unwrap();
    full_perft(&mut game, &mut position, depth)
}

fn run_tsume(sfen: &str, depth: u32, knowledge: Knowledge) -> u64 {
    let mut game = Tsume::from_sfen(sfen).unwrap().with_knowledge(knowledge);
    let mut position = position_from_sfen(sfen).unwrap();
    tsume_perft(&mut game, &mut position, depth)
}

#[test]
fn start_position_perft_matches_the_published_counts_and_rsshogi() {
    assert_eq!(run_full(START, 1), 30);
    assert_eq!(run_full(START, 2), 900);
    assert_eq!(run_full(START, 3), 25_470);
}

#[test]
fn positions_with_drops_and_promotions_match_rsshogi() {
    for sfen in [TACTICAL, MIDDLE, PAWN_DROP_MATE, TWO_PAWNS, DISCOVERIES] {
        run_full(sfen, 2);
    }
}

#[test]
fn mate_by_a_pawn_drop_is_not_a_move_but_other_pawn_drops_are() {
    let game = Tsume::from_sfen(PAWN_DROP_MATE).unwrap();
    let moves: Vec<String> = game.legal_moves().iter().map(|&mv| game.usi(mv)).collect();
    assert!(!moves.contains(&"P*1b".to_string()));
    assert!(moves.contains(&"P*1c".to_string()));
    assert!(!game.is_legal(game.parse_move("P*1b").unwrap_or_default()));
    // Its checks: only the knight's promotions on 2a and 4a check... and none mates.
    assert_eq!(game.mating_move(), None);
}

#[test]
fn two_pawns_on_a_file_are_never_dropped() {
    let game = Tsume::from_sfen(TWO_PAWNS).unwrap();
    let drops: BTreeSet<char> = game
        .legal_moves()
        .iter()
        .map(|&mv| game.usi(mv))
        .filter(|text| text.starts_with("P*"))
        .map(|text| text.chars().nth(2).unwrap())
        .collect();
    assert_eq!(drops, BTreeSet::from(['1']));
}

#[test]
fn tsume_walks_match_rsshogi_on_every_problem() {
    for (id, sfen) in problems() {
        for knowledge in [Knowledge::NONE, Knowledge::ALL] {
            let nodes = run_tsume(&sfen, 2, knowledge);
            assert!(nodes > 0, "{id}: Black has a check");
        }
    }
}

#[test]
fn tsume_walks_three_plies_deep_match_rsshogi() {
    for (_, sfen) in problems().iter().step_by(16) {
        run_tsume(sfen, 3, Knowledge::ALL);
    }
    run_tsume(DISCOVERIES, 3, Knowledge::ALL);
}

#[test]
#[ignore = "deep: run in release (cargo test --release -- --ignored)"]
fn deep_perft_counts() {
    assert_eq!(run_full(START, 4), 719_731);
    // rsshogi's published count for its tactical position.
    assert_eq!(run_full(TACTICAL, 3), 4_809_015);
    for (_, sfen) in problems().iter().step_by(4) {
        run_tsume(sfen, 4, Knowledge::ALL);
    }
}

#[test]
fn mates_in_one_are_checks_that_leave_no_legal_reply() {
    // Every problem's Black checks, played: a check is a mate exactly when rsshogi finds no
    // legal reply; the game's mating move, when it names one, is such a check.
    for (id, sfen) in problems() {
        let mut game = Tsume::from_sfen(&sfen).unwrap();
        let mut position = position_from_sfen(&sfen).unwrap();
        let mut mates = BTreeSet::new();
        for mv in game.checks() {
            let rs = rsshogi::types::Move::from_usi(&game.usi(mv)).unwrap();
            position.apply_move(rs);
            if rs_legal(&position).is_empty() {
                mates.insert(game.usi(mv));
            }
            position.undo_move(rs).unwrap();
        }
        match game.mating_move() {
            Some(mv) => assert!(mates.contains(&game.usi(mv)), "{id}"),
            None => assert!(mates.is_empty(), "{id}: {mates:?}"),
        }
        let outcome = game.outcome();
        assert_eq!(outcome == Outcome::Win, !mates.is_empty(), "{id}");
        game.play(game.checks()[0]);
        assert!(game.in_check());
    }
}

/// Whether Black, to move, has a move after which White has no legal reply (rsshogi alone).
fn rs_mate_in_one(position: &mut Position) -> bool {
    rs_legal(position).into_iter().any(|mv| {
        position.apply_move(mv);
        let mated = rs_legal(position).is_empty();
        position.undo_move(mv).unwrap();
        mated
    })
}

#[test]
fn every_recorded_main_line_is_legal_and_ends_in_mate() {
    // Each record's moves, played through the trait: Black's are among the checks the game
    // lists, White's among its legal replies, each also legal for rsshogi. After the last
    // move White is in check and every reply left is a futile interposition, as records count
    // them: a drop after which Black mates at once (rsshogi judging both plies). On the way,
    // the game finds a mate in one exactly where rsshogi does, after the recorded White
    // replies and after every other.
    for problem in tsume_suite::problems() {
        let id = &problem.id;
        let mut game = Tsume::from_sfen(&problem.sfen).unwrap();
        let mut position = position_from_sfen(&problem.sfen).unwrap();
        assert_eq!(problem.line.len() % 2, 1, "{id}: Black plays the last move");
        for (ply, text) in problem.line.iter().enumerate() {
            if ply % 2 == 0 {
                // The game's mate in one (its flight squares and attack tests) against
                // rsshogi's, at every Black move of the record.
                assert_eq!(
                    game.mating_move().is_some(),
                    rs_mate_in_one(&mut position),
                    "{id}: mate in one after {ply} plies"
                );
            } else {
                // And after every other reply White has there: the positions a proof
                // evaluates most, many of them mates in one.
                for reply in trait_moves(&game) {
                    let rs = rsshogi::types::Move::from_usi(&game.usi(reply)).unwrap();
                    game.play(reply);
                    position.apply_move(rs);
                    let mates = rs_mate_in_one(&mut position);
                    assert_eq!(game.mating_move().is_some(), mates, "{id}: {}", game.sfen());
                    assert_eq!(
                        game.outcome() == Outcome::Win,
                        mates,
                        "{id}: {}",
                        game.sfen()
                    );
                    position.undo_move(rs).unwrap();
                    game.undo(reply);
                }
            }
            let mv = *trait_moves(&game)
                .iter()
                .find(|&&mv| game.usi(mv) == *text)
                .unwrap_or_else(|| panic!("{id}: {text} is not among the listed moves"));
            let rs = rsshogi::types::Move::from_usi(text).unwrap();
            assert!(
                rs_legal(&position).contains(&rs),
                "{id}: rsshogi rejects {text}"
            );
            game.play(mv);
            position.apply_move(rs);
        }
        assert!(game.in_check(), "{id}");
        let replies = usi_set(trait_moves(&game).iter().map(|&mv| game.usi(mv)));
        let rs_replies = usi_set(rs_legal(&position).iter().map(|mv| mv.to_usi()));
        assert_eq!(replies, rs_replies, "{id}");
        for reply in rs_legal(&position) {
            assert!(reply.is_drop(), "{id}: White escapes by {}", reply.to_usi());
            position.apply_move(reply);
            assert!(
                rs_mate_in_one(&mut position),
                "{id}: {} holds",
                reply.to_usi()
            );
            position.undo_move(reply).unwrap();
        }
    }
}

#[test]
fn encodings_are_exact_and_move_codes_round_trip() {
    use proofnum::MoveCodec;
    let mut seen = std::collections::HashMap::new();
    for (_, sfen) in problems() {
        let mut game = Tsume::from_sfen(&sfen).unwrap();
        for mv in game.checks() {
            assert_eq!(Tsume::decode_move(Tsume::encode_move(mv)), Some(mv));
            game.play(mv);
            let mut bytes = Vec::new();
            game.encode(&mut bytes);
            let text = game.sfen();
            if let Some(other) = seen.insert(bytes, text.clone()) {
                assert_eq!(other, text, "two positions, one encoding");
            }
            game.undo(mv);
        }
    }
    assert_eq!(Tsume::decode_move(u64::from(u16::MAX) + 1), None);
    assert_eq!(Tsume::decode_move(0), None);
}
