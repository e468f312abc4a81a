//! `proofnum shogi` end to end: the tsume report (mate or not, the length in plies, exact or
//! a bound, the line in USI and Japanese notation replayed on rsshogi's board, a second move
//! generator, to checkmate with a check at every Black move), and bad input. The answers are
//! known by hand or from the published collection (Shogi Muso no. 77, recorded as an 11-ply
//! mate; the dataset's line is the main line).

mod common;

use common::Run;
use rsshogi::board::{MoveList, position_from_sfen};

/// `proofnum ARGS… --table-mib 16`.
fn proofnum(args: &[&str]) -> Run {
    common::proofnum(&[args, &["--table-mib", "16"]].concat())
}

/// The moves after `usi: `, replayed on rsshogi's board from `sfen`: their number when every
/// Black move is a legal check, every White move legal, and the line ends in checkmate.
fn replayed_mate(sfen: &str, stdout: &str) -> Option<usize> {
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("usi: "))
        .expect("a usi line");
    let mut position = position_from_sfen(sfen).unwrap();
    let legal = |position: &rsshogi::board::Position| {
        let mut list = MoveList::new();
        rsshogi::movegen::generate_legal_all(position, &mut list);
        list.iter().copied().collect::<Vec<_>>()
    };
    let moves: Vec<&str> = line.split_whitespace().collect();
    for (ply, text) in moves.iter().enumerate() {
        let mv = legal(&position)
            .into_iter()
            .find(|mv| mv.to_usi() == *text)?;
        position.apply_move(mv);
        if ply % 2 == 0 && !position.is_in_check() {
            return None;
        }
    }
    (position.is_in_check() && legal(&position).is_empty()).then_some(moves.len())
}

#[test]
fn mate_in_one_ply_with_its_line_and_board() {
    // The gold drop on 5b, guarded by the pawn on 5c, covers every square of the king on 5a.
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
    let run = proofnum(&["shogi", sfen]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("answer: yes, mate in 1 ply"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("▲５二金打"), "{}", run.stdout);
    assert!(run.stdout.contains("先手の持駒：金"), "{}", run.stdout);
    assert_eq!(replayed_mate(sfen, &run.stdout), Some(1));
}

#[test]
fn shogi_muso_77_is_an_eleven_ply_mate() {
    let sfen = "9/9/9/1+P1+B5/1p2S4/+pn7/1k2G4/s8/+l1L+p1+B3 b 3G2r2s3n2l14p 1";
    let run = proofnum(&["shogi", sfen]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("answer: yes, mate in 11 plies (11手詰; exact"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("a longest defence against a shortest mate")
    );
    assert_eq!(replayed_mate(sfen, &run.stdout), Some(11));
    // The Japanese line starts with the record's first move, a gold drop on 7h.
    assert!(run.stdout.contains("▲７八金打"), "{}", run.stdout);
}

#[test]
fn a_lone_pawn_cannot_mate() {
    // P*5b checks, the king takes it, and Black has nothing left to check with.
    let run = proofnum(&["shogi", "4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("answer: no, Black cannot mate"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_positions_are_named_and_not_echoed_whole() {
    let white_to_move = proofnum(&["shogi", "4k4/9/4P4/9/9/9/9/9/9 w G 1"]);
    assert_eq!(white_to_move.code, 2);
    assert!(
        white_to_move.stderr.contains("White to move"),
        "{}",
        white_to_move.stderr
    );

    let two_pawns = proofnum(&["shogi", "4k4/9/9/9/9/9/4P4/4P4/9 b - 1"]);
    assert_eq!(two_pawns.code, 2);
    assert!(
        two_pawns.stderr.contains("2 unpromoted pawns on file 5"),
        "{}",
        two_pawns.stderr
    );

    let no_king = proofnum(&["shogi", "9/9/9/9/9/9/9/9/9 b G 1"]);
    assert_eq!(no_king.code, 2);
    assert!(no_king.stderr.contains("no king"), "{}", no_king.stderr);

    let huge = "9/".repeat(10_000);
    let run = proofnum(&["shogi", &huge]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.len() < 300, "{}", run.stderr);

    let in_check = proofnum(&["shogi", "4k4/4R4/9/9/9/9/9/9/9 b - 1"]);
    assert_eq!(in_check.code, 2);
    assert!(
        in_check.stderr.contains("is in check"),
        "{}",
        in_check.stderr
    );

    let empty = proofnum(&["shogi", ""]);
    assert_eq!(empty.code, 2);
}
