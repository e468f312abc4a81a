//! The shipped Connect Four suites (`games/suites/`), written by the independent alpha-beta
//! solver (`cargo run --release -p proofnum-tools --bin c4suite -- generate ...`), answered by
//! df-pn: for every line "does the side to move win" and "win, draw or loss" must match the score's sign.
//! The late suite runs in `cargo test`; the middle and early ones on demand:
//! `cargo test --release -p proofnum-games --test c4suites -- --ignored`.

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Limits};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_games::connect4::suite::{self, Line};

const LATE: &str = include_str!("../suites/c4-late.txt");
const MIDDLE: &str = include_str!("../suites/c4-middle.txt");
const EARLY: &str = include_str!("../suites/c4-early.txt");

fn run_suite(text: &str, name: &str) {
    let lines = suite::parse(text).unwrap();
    assert!(lines.len() >= 30, "{name}: {} lines", lines.len());
    let mut memory = vec![0u8; Table::required_bytes(1 << 18)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<ConnectFour>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
    let mut failures = Vec::new();
    for line in &lines {
        let verdict =
            suite::solve_line(line, &mut dfpn, &mut table, &mut Limits::default()).unwrap();
        if !verdict.agrees_with(line) {
            failures.push(format!("{line}: {verdict:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} failures\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn suites_are_well_formed_and_distinct() {
    for (name, text, stones) in [
        ("late", LATE, 28..37),
        ("middle", MIDDLE, 16..28),
        ("early", EARLY, 10..16),
    ] {
        let lines = suite::parse(text).unwrap();
        let mut seen = std::collections::HashSet::new();
        for Line { moves, score } in &lines {
            assert!(stones.contains(&moves.len()), "{name}: {moves}");
            assert!(seen.insert(moves.clone()), "{name}: {moves} twice");
            assert!(score.abs() <= 18, "{name}: {moves} {score}");
        }
        let wins = lines.iter().filter(|l| l.score > 0).count();
        let losses = lines.iter().filter(|l| l.score < 0).count();
        assert!(
            wins > 0 && losses > 0,
            "{name}: {wins} wins, {losses} losses"
        );
    }
}

#[test]
fn late_suite_scores_are_reproduced_by_the_reference_solver() {
    // The files are the reference solver's output; re-solving a sample checks they were not
    // edited by hand.
    let mut solver = Solver::<7, 6>::new(1 << 20);
    for line in suite::parse(LATE).unwrap().iter().take(25) {
        let mut p = Position::<7, 6>::from_moves(&line.moves).unwrap();
        assert_eq!(solver.score(&mut p), Some(line.score), "{line}");
    }
}

#[test]
fn late_suite_matches_dfpn() {
    run_suite(LATE, "late");
}

#[test]
#[ignore = "tens of seconds; run with --release -- --ignored"]
fn middle_suite_matches_dfpn() {
    run_suite(MIDDLE, "middle");
}

#[test]
#[ignore = "minutes; run with --release -- --ignored"]
fn early_suite_matches_dfpn() {
    run_suite(EARLY, "early");
}
