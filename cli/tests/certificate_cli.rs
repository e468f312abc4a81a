//! Answers confirmed by default, certificates written with `--certificate` and checked with
//! `proofnum check`, end to end through the command line.
//!
//! The claims are independently known: tic-tac-toe is a draw (neither side can force a win:
//! the well-known result, which `tests/` confirms by brute force); the Connect Four position is
//! the third of `games/suites/c4-late.txt`, scored 6 (a win for the side to move) by Pons'
//! solver; the chess position is a mate in 2 from a public problem set
//! (`games/suites/chess-mates.epd`, `s1g6p48`, refereed by Stockfish).

mod common;

use std::path::{Path, PathBuf};

/// `c4-late.txt`'s third position: a win for the side to move (First).
const C4: &str = "2176676115166534232673124731";

/// A run with its standard output and error together (`stdout`): the messages these tests
/// look for may be on either.
struct Run {
    code: i32,
    stdout: String,
}

fn proofnum(args: &[&str]) -> Run {
    let run = common::proofnum(args);
    Run {
        code: run.code,
        stdout: run.stdout + &run.stderr,
    }
}

/// A scratch directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proofnum-cert-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn answers_are_confirmed_unless_asked_not_to() {
    let r = proofnum(&["connect4", C4, "--quiet", "--table-mib", "4"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("value: Win"), "{}", r.stdout);
    assert!(r.stdout.contains("confirmed: "), "{}", r.stdout);
    let r = proofnum(&[
        "connect4",
        C4,
        "--quiet",
        "--table-mib",
        "4",
        "--no-confirm",
    ]);
    assert_eq!(r.code, 0);
    assert!(!r.stdout.contains("confirmed: "), "{}", r.stdout);
}

#[test]
fn a_draw_gives_two_certificates_that_check() {
    let dir = scratch("ttt");
    let file = dir.join("ttt.cert");
    let r = proofnum(&["tictactoe", "", "--quiet", "--certificate", path_str(&file)]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("value: Draw"), "{}", r.stdout);
    for side in ["first", "second"] {
        let part = dir.join(format!("ttt.cert.{side}"));
        assert!(r.stdout.contains(path_str(&part)), "{}", r.stdout);
        let c = proofnum(&["check", "tictactoe", "", path_str(&part)]);
        assert_eq!(c.code, 0, "{}", c.stdout);
        assert!(c.stdout.contains("cannot force a win"), "{}", c.stdout);
        assert!(c.stdout.contains("valid:"), "{}", c.stdout);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_connect_four_certificate_checks_and_spoiled_ones_do_not() {
    let dir = scratch("c4");
    let file = dir.join("c4.cert");
    let f = path_str(&file);
    let r = proofnum(&[
        "connect4",
        C4,
        "--quiet",
        "--table-mib",
        "4",
        "--certificate",
        f,
    ]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let c = proofnum(&["check", "connect4", C4, f]);
    assert_eq!(c.code, 0, "{}", c.stdout);
    assert!(c.stdout.contains("First can force a win"), "{}", c.stdout);
    assert!(c.stdout.contains("exact encodings"), "{}", c.stdout);
    // Another position: not what the certificate proves.
    let c = proofnum(&["check", "connect4", "444444", f]);
    assert_eq!(c.code, 3, "{}", c.stdout);
    assert!(c.stdout.contains("another position"), "{}", c.stdout);
    // Another game.
    let c = proofnum(&["check", "tictactoe", "", f]);
    assert_eq!(c.code, 3, "{}", c.stdout);
    // Truncated, and one byte changed.
    let bytes = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.cert");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let c = proofnum(&["check", "connect4", C4, path_str(&cut)]);
    assert_eq!(c.code, 3, "{}", c.stdout);
    assert!(c.stdout.contains("truncated"), "{}", c.stdout);
    let mut changed = bytes.clone();
    let at = changed.len() / 2;
    changed[at] ^= 0x01;
    let bad = dir.join("bad.cert");
    std::fs::write(&bad, &changed).unwrap();
    let c = proofnum(&["check", "connect4", C4, path_str(&bad)]);
    assert_eq!(c.code, 3, "{}", c.stdout);
    // No file at all is bad input.
    let c = proofnum(&["check", "connect4", C4, path_str(&dir.join("none"))]);
    assert_eq!(c.code, 2, "{}", c.stdout);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_chess_mate_certificate_checks() {
    let dir = scratch("chess");
    let file = dir.join("mate.cert");
    let f = path_str(&file);
    let fen = "4kb1r/1Qr2pp1/2p2B2/p4BR1/P6p/2P4P/1P3P1P/R4K2 w - - 0 25";
    let r = proofnum(&["chess", fen, "--certificate", f]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("in 2 (exact"), "{}", r.stdout);
    assert!(r.stdout.contains("certificate: "), "{}", r.stdout);
    let c = proofnum(&["check", "chess", fen, f]);
    assert_eq!(c.code, 0, "{}", c.stdout);
    assert!(c.stdout.contains("White can force a win"), "{}", c.stdout);
    std::fs::remove_dir_all(dir).ok();
}
