//! Running proofnum on a mate suite, with every answer checked.
//!
//! Per line the question is "can the mating side force checkmate?": the side to move for
//! `bm #N` with N > 0, `dm N` and lines stating no mate; its opponent for `bm #N` with N < 0.
//! Each line ends in one verdict:
//!
//! - **solved**: proofnum answered and nothing contradicts it: a mate whose line replays to
//!   checkmate in the N claimed and whose N agrees with the suite's (equal when exact; a
//!   shorter exact N is a shorter mate than Stockfish's bounded search reported, an upper
//!   bound may be above it), or a mate in a line that states none, or "no mate" in a line that
//!   states none.
//! - **wrong**: proofnum's answer is contradicted by a check that trusts neither proofnum's
//!   search nor Stockfish's:
//!   1. the claimed mating line does not replay on cozy-chess's board (an illegal move, no
//!      checkmate at its end), or it is claimed to be a longest defence against a shortest
//!      mate and its length is not the N claimed;
//!   2. the exhaustive search of `oracle.rs` (k ≤ `--oracle-max`, within its node budget)
//!      finds no mate within the N claimed, or (N exact) finds one within N − 1;
//!   3. proofnum says "no mate", or an exact N above the suite's, and the exhaustive search
//!      finds the suite's shorter mate.
//! - **disputed**: proofnum and the suite disagree and no such check decides (N beyond the
//!   exhaustive search's reach): Stockfish's announced mate is its search's word, not a proof,
//!   so this is not counted as wrong, but it fails the run like a wrong answer until someone
//!   has looked.
//! - **unknown**: proofnum stopped at the cap without an answer, or (checks-only mode) found
//!   no mate by checks alone where the suite states a mate.
//!
//! In checks-only mode a mate's N is the shortest by checks alone: its line and "no mate
//! within N" are checked as above, but not its exactness, nor an N above the suite's (the
//! exhaustive search looks at every move, so a shorter mate with quiet moves contradicts
//! neither).
//!
//! Stockfish not finding a mate is never a refutation. The exit code is 1 when any line is
//! wrong or disputed.
//!
//! With `--referee`, Stockfish searches every line again on this machine (`go nodes` with the
//! line's `acn` budget, one thread, after `ucinewgame`) and the line is judged against that
//! answer; where it differs from the file, the row says so.

use std::time::Duration;

use cozy_chess::Color;
use proofnum_tools::stockfish::{Go, Stockfish};

use crate::epd::Line;
use crate::oracle;
use crate::replay;
use crate::solve::{Claim, Solver};

/// How `run` solves and checks.
pub struct Options {
    /// proofnum's table, MiB.
    pub table_mib: f64,
    /// Seconds per line before proofnum's answer is "unknown".
    pub cap_s: f64,
    /// The exhaustive search checks mates up to this many moves.
    pub oracle_max: u32,
    /// Its node budget per check.
    pub oracle_nodes: u64,
    /// Checks-only mode (mates by checks only; "no mate" then means none by checks).
    pub checks_only: bool,
    /// Ask Stockfish again on this machine (`go nodes`, the line's `acn` or
    /// `DEFAULT_REFEREE_NODES`) and judge against its answer instead of the file's.
    pub referee: bool,
}

/// The referee's node budget for lines without `acn`.
pub const DEFAULT_REFEREE_NODES: u64 = 1_000_000;

/// A line's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// See the module docs.
    Solved,
    /// See the module docs; the text says what contradicts the answer.
    Wrong(String),
    /// See the module docs; the text says what disagrees.
    Disputed(String),
    /// See the module docs.
    Unknown,
}

/// The side that is to mate in `line`.
pub fn attacker_of(line: &Line) -> Color {
    let to_move = line.board().side_to_move();
    match line.mate {
        Some(n) if n < 0 => !to_move,
        _ => to_move,
    }
}

/// The exhaustive answer to "does the attacker mate within k?" (None: beyond its reach).
fn exhaustive(line: &Line, attacker: Color, k: u32, options: &Options) -> oracle::Answer {
    if k > options.oracle_max {
        return None;
    }
    let board = line.board();
    let mut budget = options.oracle_nodes;
    if board.side_to_move() == attacker {
        oracle::mates_within(&board, k, &mut budget)
    } else {
        oracle::mated_within(&board, k, &mut budget)
    }
}

/// Checks `claim` for `line` (see the module docs); also returns a note for the table.
pub fn judge(line: &Line, claim: &Claim, options: &Options) -> (Verdict, String) {
    let attacker = attacker_of(line);
    let expected = line.mate.map(i32::unsigned_abs);
    match claim {
        Claim::Unknown(reason) => (Verdict::Unknown, reason.clone()),
        // In checks-only mode "no mate" is "no mate by checks alone": a different question
        // from the suite's, which it neither answers nor contradicts.
        Claim::NoMate if options.checks_only && expected.is_some() => {
            (Verdict::Unknown, "no mate by checks alone".into())
        }
        Claim::NoMate => match expected {
            None => (Verdict::Solved, "no mate, as stated".into()),
            Some(e) => match exhaustive(line, attacker, e, options) {
                Some(true) => (
                    Verdict::Wrong(format!("a mate in {e} exists (exhaustive search)")),
                    String::new(),
                ),
                Some(false) => (
                    Verdict::Disputed(format!(
                        "the suite's mate in {e} does not exist (exhaustive search); a longer one is not ruled out"
                    )),
                    String::new(),
                ),
                None => (
                    Verdict::Disputed(format!("proofnum finds no mate, Stockfish a mate in {e}")),
                    String::new(),
                ),
            },
        },
        Claim::Mate {
            n,
            exact,
            line: moves,
            line_is_optimal,
        } => {
            let mate = match replay::replay(&line.board(), moves, attacker) {
                Err(e) => {
                    return (
                        Verdict::Wrong(format!("its mating line fails: {e}")),
                        String::new(),
                    );
                }
                Ok(mate) => mate,
            };
            let Some(n) = *n else {
                return (
                    Verdict::Solved,
                    "mate proven and replayed, distance unknown".into(),
                );
            };
            if *line_is_optimal && mate.attacker_moves != n {
                return (
                    Verdict::Wrong(format!(
                        "its line mates in {}, not in the {n} claimed",
                        mate.attacker_moves
                    )),
                    String::new(),
                );
            }
            if exhaustive(line, attacker, n, options) == Some(false) {
                return (
                    Verdict::Wrong(format!("no mate in {n} exists (exhaustive search)")),
                    String::new(),
                );
            }
            // In checks-only mode N is the shortest mate by checks alone, which may be longer
            // than the shortest mate: the exhaustive search, over every move, neither confirms
            // nor refutes its exactness, and an N above the suite's is no contradiction.
            if options.checks_only {
                return match expected {
                    Some(e) if n > e => (
                        Verdict::Solved,
                        format!("by checks alone; the suite's #{e} uses quiet moves"),
                    ),
                    _ => (Verdict::Solved, "by checks alone".into()),
                };
            }
            if *exact && n > 1 && exhaustive(line, attacker, n - 1, options) == Some(true) {
                return (
                    Verdict::Wrong(format!("a mate in {} exists (exhaustive search)", n - 1)),
                    String::new(),
                );
            }
            let Some(e) = expected else {
                return (Verdict::Solved, "a mate the suite does not state".into());
            };
            if n == e || (!*exact && n > e) {
                return (Verdict::Solved, String::new());
            }
            if n < e {
                return (Verdict::Solved, format!("shorter than the suite's #{e}"));
            }
            // An exact N above the suite's: the suite's mate must not exist.
            match exhaustive(line, attacker, e, options) {
                Some(true) => (
                    Verdict::Wrong(format!("a mate in {e} exists (exhaustive search)")),
                    String::new(),
                ),
                Some(false) => (
                    Verdict::Solved,
                    format!("the suite's #{e} does not exist (exhaustive search)"),
                ),
                None => (
                    Verdict::Disputed(format!("exact mate in {n}, Stockfish announced {e}")),
                    String::new(),
                ),
            }
        }
    }
}

/// How proofnum's answer is shown: `#N` exact, `#≤N` a bound, `mate` without a distance,
/// `none`, `?`; `mated` puts a minus sign on N (the side to move is the one mated).
pub fn shown(claim: &Claim, mated: bool) -> String {
    let sign = if mated { "-" } else { "" };
    match claim {
        Claim::Mate { n: None, .. } => "mate".into(),
        Claim::Mate {
            n: Some(n),
            exact: true,
            ..
        } => format!("#{sign}{n}"),
        Claim::Mate {
            n: Some(n),
            exact: false,
            ..
        } => format!("#{sign}≤{n}"),
        Claim::NoMate => "none".into(),
        Claim::Unknown(_) => "?".into(),
    }
}

/// Runs every line; prints a row per line and the totals. True when none is wrong or disputed.
pub fn run(path: &str, lines: &[Line], options: &Options) -> Result<bool, String> {
    let mut solver = Solver::new(options.table_mib, options.checks_only);
    let mut referee = if options.referee {
        let sf = Stockfish::start(64).map_err(|e| e.to_string())?;
        println!("referee: {}, one thread, 64 MiB hash", sf.name());
        Some(sf)
    } else {
        None
    };
    let (mut solved, mut wrong, mut disputed, mut unknown) = (0, 0, 0, 0);
    let (mut mid_calls, mut seconds) = (0u64, 0f64);
    println!(
        "{:<8} {:<14} {:>8} {:>8} {:>12} {:>9}  note",
        "verdict", "id", "expected", "found", "MID calls", "seconds"
    );
    for line in lines {
        let mut live_note = String::new();
        let line = &match referee.as_mut() {
            None => line.clone(),
            Some(sf) => {
                let nodes = line.nodes.unwrap_or(DEFAULT_REFEREE_NODES);
                sf.new_game().map_err(|e| e.to_string())?;
                let a = sf
                    .go(&line.fen, Go::Nodes(nodes), Duration::from_secs(600))
                    .map_err(|e| e.to_string())?;
                if a.mate() != line.mate {
                    let shown = |m: Option<i32>| m.map_or("none".to_string(), |m| format!("#{m}"));
                    live_note = format!(
                        " (file: {}; Stockfish here: {})",
                        shown(line.mate),
                        shown(a.mate())
                    );
                }
                Line {
                    mate: a.mate(),
                    ..line.clone()
                }
            }
        };
        let attacker = attacker_of(line);
        let solved_line = solver.solve(&line.fen, attacker, options.cap_s)?;
        let (verdict, note) = judge(line, &solved_line.claim, options);
        let expected = line.mate.map_or("none".to_string(), |m| format!("#{m}"));
        let mated = line.mate.is_some_and(|m| m < 0);
        let (label, note) = match &verdict {
            Verdict::Solved => {
                solved += 1;
                ("solved", note)
            }
            Verdict::Wrong(why) => {
                wrong += 1;
                ("WRONG", why.clone())
            }
            Verdict::Disputed(why) => {
                disputed += 1;
                ("DISPUTED", why.clone())
            }
            Verdict::Unknown => {
                unknown += 1;
                ("unknown", note)
            }
        };
        println!(
            "{label:<8} {:<14} {expected:>8} {:>8} {:>12} {:>9.3}  {note}{live_note}",
            line.id,
            shown(&solved_line.claim, mated),
            solved_line.mid_calls,
            solved_line.seconds
        );
        mid_calls += solved_line.mid_calls;
        seconds += solved_line.seconds;
    }
    println!(
        "{path}: {} lines, {solved} solved, {wrong} wrong, {disputed} disputed, {unknown} unknown; \
         {mid_calls} MID calls, {seconds:.2} s",
        lines.len()
    );
    println!("{solved} passed, {} failed", wrong + disputed);
    Ok(wrong == 0 && disputed == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd;

    fn line(text: &str) -> Line {
        epd::parse(text).unwrap().remove(0)
    }

    fn moves(line: &Line, uci: &[&str]) -> Vec<cozy_chess::Move> {
        let mut board = line.board();
        uci.iter()
            .map(|m| {
                let mv = cozy_chess::util::parse_uci_move(&board, m).unwrap();
                board.play(mv);
                mv
            })
            .collect()
    }

    const OPTIONS: Options = Options {
        table_mib: 1.0,
        cap_s: 1.0,
        oracle_max: 3,
        oracle_nodes: 1_000_000,
        checks_only: false,
        referee: false,
    };

    fn mate(n: u32, exact: bool, line: Vec<cozy_chess::Move>) -> Claim {
        Claim::Mate {
            n: Some(n),
            exact,
            line,
            line_is_optimal: true,
        }
    }

    #[test]
    fn answers_are_judged() {
        // Kb6 (quiet), Kb8 forced, Rh8 mate: a mate in exactly two.
        let quiet = line("k7/8/8/K7/8/8/8/7R w - - bm #2;");
        let good = moves(&quiet, &["a5b6", "a8b8", "h1h8"]);
        let verdict = |claim: &Claim, l: &Line| judge(l, claim, &OPTIONS).0;
        assert_eq!(
            verdict(&mate(2, true, good.clone()), &quiet),
            Verdict::Solved
        );
        assert_eq!(
            verdict(&mate(3, false, good.clone()), &quiet),
            Verdict::Wrong("its line mates in 2, not in the 3 claimed".into())
        );
        // A line that does not mate, and a claim of mate in one that does not exist.
        let bad = moves(&quiet, &["a5b6", "a8b8", "h1h7"]);
        assert!(matches!(
            verdict(&mate(2, true, bad), &quiet),
            Verdict::Wrong(_)
        ));
        // Stalemate is no mate.
        let stalemate = moves(&quiet, &["h1b1"]);
        assert!(matches!(
            verdict(&mate(1, true, stalemate), &quiet),
            Verdict::Wrong(_)
        ));
        // "No mate" where the exhaustive search finds the suite's mate.
        assert_eq!(
            verdict(&Claim::NoMate, &quiet),
            Verdict::Wrong("a mate in 2 exists (exhaustive search)".into())
        );
        // An exact mate in three where the suite's mate in two exists.
        let slow = line("k7/8/8/K7/8/8/8/7R w - - bm #2;");
        let three = moves(&slow, &["h1h2", "a8b8", "a5b6", "b8a8", "h2h8"]);
        assert!(matches!(
            verdict(&mate(3, true, three.clone()), &slow),
            Verdict::Wrong(_)
        ));
        // As an upper bound it is consistent.
        assert_eq!(verdict(&mate(3, false, three), &slow), Verdict::Solved);
        // Beyond the exhaustive search: a disagreement is disputed, not wrong; a shorter mate
        // than the suite's is solved; unknown stays unknown; no mate where none is stated is
        // solved.
        let far = line("k7/8/8/K7/8/8/8/7R w - - bm #2;");
        let options = Options {
            oracle_max: 0,
            ..OPTIONS
        };
        let three = moves(&far, &["h1h2", "a8b8", "a5b6", "b8a8", "h2h8"]);
        assert!(matches!(
            judge(&far, &mate(3, true, three), &options).0,
            Verdict::Disputed(_)
        ));
        assert!(matches!(
            judge(&far, &Claim::NoMate, &options).0,
            Verdict::Disputed(_)
        ));
        let long = line("k7/8/8/K7/8/8/8/7R w - - bm #4;");
        assert_eq!(
            verdict(&mate(2, true, good.clone()), &long),
            Verdict::Solved
        );
        assert_eq!(
            verdict(&Claim::Unknown("Time".into()), &long),
            Verdict::Unknown
        );
        let none = line("k7/8/8/K7/8/8/8/7R w - - ce 900;");
        assert_eq!(verdict(&Claim::NoMate, &none), Verdict::Solved);
        assert_eq!(verdict(&mate(2, true, good), &none), Verdict::Solved);
        // The mated side to move: Kg8 forced, Ra8 mate; the attacker is White.
        let mated = line("7k/8/6K1/8/8/8/8/R7 b - - bm #-1;");
        assert_eq!(attacker_of(&mated), Color::White);
        let line1 = moves(&mated, &["h8g8", "a1a8"]);
        assert_eq!(verdict(&mate(1, true, line1), &mated), Verdict::Solved);
    }
}
