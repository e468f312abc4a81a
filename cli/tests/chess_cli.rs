//! `proofnum chess` end to end: the mate question's report (mate in N, exact or a bound, the
//! line replayed on cozy-chess's own board to checkmate), checks-only mode, the stalemate rule,
//! and bad input. The answers are known by hand (see `games/tests/chess_mates.rs`).

mod common;

use common::Run;
use proofnum_games::chess::Chess;

/// `proofnum ARGS… --quiet --table-mib 4`.
fn proofnum(args: &[&str]) -> Run {
    common::proofnum(&[args, &["--quiet", "--table-mib", "4"]].concat())
}

/// The moves after `uci: `, played on cozy-chess's board from `fen`: true when they end in
/// checkmate.
fn line_mates(fen: &str, stdout: &str) -> bool {
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("uci: "))
        .expect("a uci line");
    let mut board = Chess::from_fen(fen).unwrap().board().clone();
    for text in line.split_whitespace() {
        let mv = cozy_chess::util::parse_uci_move(&board, text).unwrap();
        board.play(mv);
    }
    board.status() == cozy_chess::GameStatus::Won
}

#[test]
fn mate_in_two_exact_with_its_line() {
    let fen = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
    let run = proofnum(&["chess", fen]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("answer: yes, White mates in 2 (exact"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("1. Ra6 bxa6 2. b7#"), "{}", run.stdout);
    assert!(line_mates(fen, &run.stdout));
}

#[test]
fn the_side_not_to_move_as_attacker() {
    // Black to move in KQK is mated in 7 (the retrograde analysis of tests/chess_endgames.rs;
    // Stockfish agrees).
    let fen = "3Q4/5K2/8/8/8/8/8/4k3 b - - 0 1";
    let run = proofnum(&["chess", fen, "--attacker", "white"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("Black to move is mated by White in 7 (exact"),
        "{}",
        run.stdout
    );
    assert!(line_mates(fen, &run.stdout));
}

#[test]
fn checks_only_says_what_a_disproof_means() {
    let run = proofnum(&[
        "chess",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "--checks-only",
    ]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("no mate by checks alone"),
        "{}",
        run.stdout
    );
}

#[test]
fn stalemate_and_limits() {
    let run = proofnum(&[
        "chess",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        "--attacker",
        "white",
    ]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("answer: no, White cannot force checkmate")
    );
    // The start position within 1,000 positions: unknown, exit code 1.
    let run = proofnum(&["chess", "", "--nodes", "1000"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("answer: unknown"));
}

#[test]
fn bad_input_is_refused() {
    let run = proofnum(&["chess", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("bad FEN"), "{}", run.stderr);
    let run = proofnum(&["chess", "", "--attacker", "green"]);
    assert_eq!(run.code, 2);
    let run = proofnum(&["connect4", "44", "--checks-only"]);
    assert_eq!(run.code, 2);
}

/// Kings on adjacent squares pass cozy-chess's FEN check; the command used to panic in its
/// move generator. Now bad input: exit code 2 and the reason.
#[test]
fn adjacent_kings_are_bad_input_not_a_panic() {
    let run = proofnum(&["chess", "8/8/8/3kK3/8/8/8/R7 w - - 0 1"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("the kings stand on adjacent squares"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

#[test]
fn fifty_move_rule_flag() {
    // Mate in 7 (14 plies) with the halfmove clock at 90: drawn first under the rule.
    let fen = "3Q4/5K2/8/8/8/8/8/4k3 b - - 90 1";
    let run = proofnum(&["chess", fen, "--attacker", "white", "--fifty-move"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("fifty-move rule on"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("answer: no, White cannot force checkmate"),
        "{}",
        run.stdout
    );
}
