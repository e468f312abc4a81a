//! The `proofnum` command line end to end: every bundled game on small
//! positions against independent answers, `--attacker`, what the best move and the principal
//! variation are, every engine, and bad input.
//!
//! The oracles: tic-tac-toe by plain negamax over its own grid; Connect Four by the independent
//! alpha-beta solver (`connect4::reference`, its own grid and rules); Ultimate Tic-Tac-Toe and
//! Atari Go by exhaustive negamax over every cell or point through the games' checked
//! `try_play` (the rules, which `games/tests/` checks against independent models), without
//! the shortcuts the solver gets from `outcome` and `generate_moves`.
//!
//! Every answered report is also checked for its line: the principal variation starts with the
//! best move, is legal, and every position on it has the claimed value for the claimed side
//! (a win stays a win for the winner, a draw a draw), by the oracle.
//!
//! Standard output is parsed while standard error is a pipe: the progress line must never mix
//! into the report.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;

use proofnum::{Game, Value};
use proofnum_games::atarigo::{AtariGo, AtariGo6};
use proofnum_games::connect4::reference;
use proofnum_games::uttt::{Move, Uttt};
use proofnum_test_support::Rng;

/// Table memory for the runs: small positions need little, and it is zeroed per run.
const TABLE_MIB: &str = "4";

use common::{Run as Report, proofnum as solve};

/// `solve GAME POSITION --quiet --table-mib N EXTRA…`, which must answer (exit code 0).
fn answered(game: &str, position: &str, extra: &[&str]) -> Report {
    let mut args = vec![game, position, "--quiet", "--table-mib", TABLE_MIB];
    args.extend_from_slice(extra);
    let r = solve(&args);
    assert_eq!(r.code, 0, "solve {args:?}:\n{}\n{}", r.stdout, r.stderr);
    r
}

impl Report {
    /// The text after `name: ` on the line that starts with it.
    fn field(&self, name: &str) -> Option<&str> {
        let prefix = format!("{name}: ");
        self.stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
    }

    /// The value for the side to move.
    fn value(&self) -> Value {
        match self.field("value").and_then(|v| v.split(' ').next()) {
            Some("Win") => Value::Win,
            Some("Loss") => Value::Loss,
            Some("Draw") => Value::Draw,
            other => panic!("no value in\n{}: {other:?}", self.stdout),
        }
    }

    /// `--attacker`'s answer: true when proven.
    fn proven(&self) -> bool {
        let answer = self.field("answer").expect("an answer line");
        assert!(
            answer.starts_with("proven") || answer.starts_with("disproven"),
            "{answer}"
        );
        answer.starts_with("proven")
    }

    fn best_move(&self) -> Option<String> {
        let best = self.field("best move").expect("a best move line");
        let first = best.split(' ').next().unwrap();
        (first != "none").then(|| first.to_string())
    }

    fn line(&self) -> Vec<String> {
        match self.field("principal variation").expect("a line") {
            "none" => Vec::new(),
            moves => moves.split(' ').map(str::to_string).collect(),
        }
    }

    /// Checks what is common to every answered report: the line starts with the best move,
    /// and every proof check that ran verified.
    fn check_best_move_starts_line(&self) {
        let line = self.line();
        match self.best_move() {
            Some(best) => assert_eq!(line.first(), Some(&best), "{}", self.stdout),
            None => assert!(line.is_empty(), "{}", self.stdout),
        }
        for check in self.stdout.lines().filter(|l| l.starts_with("proof check")) {
            assert!(check.contains(": Verified ("), "{check}");
        }
    }
}

/// Checks a value report against `value_of`, the oracle's value for the side to move of the
/// position after some moves: the value, then the line, every position of which must keep the
/// value (seen from the side to move there).
fn check_value_report(
    report: &Report,
    want: Value,
    mut value_after: impl FnMut(&[String]) -> Value,
) {
    assert_eq!(report.value(), want, "{}", report.stdout);
    report.check_best_move_starts_line();
    let line = report.line();
    for k in 1..=line.len() {
        let want_here = if k % 2 == 0 { want } else { want.flipped() };
        assert_eq!(
            value_after(&line[..k]),
            want_here,
            "after {:?} of the line in\n{}",
            &line[..k],
            report.stdout
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe: plain negamax over a grid of its own.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Grid of 0 (empty), 1 (X), 2 (O) after a string of cells, X first.
fn grid(cells: &str) -> [u8; 9] {
    let mut g = [0u8; 9];
    for (i, c) in cells.bytes().enumerate() {
        g[(c - b'0') as usize] = 1 + (i % 2) as u8;
    }
    g
}

/// Value for `to_move` (1 or 2) by negamax.
fn ttt_value(g: &mut [u8; 9], to_move: u8) -> Value {
    let won = |p: u8, g: &[u8; 9]| LINES.iter().any(|l| l.iter().all(|&c| g[c] == p));
    if won(3 - to_move, g) {
        return Value::Loss;
    }
    let mut best = None;
    for c in 0..9 {
        if g[c] == 0 {
            g[c] = to_move;
            let v = ttt_value(g, 3 - to_move).flipped();
            g[c] = 0;
            best = Some(match (best, v) {
                (_, Value::Win) | (Some(Value::Win), _) => Value::Win,
                (_, Value::Draw) | (Some(Value::Draw), _) => Value::Draw,
                _ => Value::Loss,
            });
        }
    }
    best.unwrap_or(Value::Draw)
}

fn ttt_value_of(cells: &str) -> Value {
    ttt_value(&mut grid(cells), 1 + (cells.len() % 2) as u8)
}

#[test]
fn tictactoe_values_best_moves_and_lines_match_negamax() {
    // The start and every position after one or two moves, and some longer ones with each value.
    let mut positions = vec![String::new()];
    for a in 0..9 {
        positions.push(a.to_string());
        for b in (0..9).filter(|&b| b != a) {
            positions.push(format!("{a}{b}"));
        }
    }
    positions.extend(["0143", "4012", "40123", "014", "0415", "48273"].map(String::from));
    let mut seen = HashMap::new();
    for p in &positions {
        let r = answered("tictactoe", p, &["--verify"]);
        let want = ttt_value_of(p);
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        check_value_report(&r, want, |line| {
            ttt_value_of(&format!("{p}{}", line.concat()))
        });
    }
    assert_eq!(seen.len(), 3, "every value occurs: {seen:?}");
}

#[test]
fn attacker_answers_one_question() {
    // Draws, wins and losses for the side to move, each attacker, names in every spelling.
    for (position, attacker) in [
        ("", "X"),
        ("", "second"),
        ("01", "first"),
        ("01", "O"),
        ("0143", "o"),
        ("014", "X"),
        ("014", "O"),
    ] {
        let r = answered("tictactoe", position, &["--attacker", attacker, "--verify"]);
        let attacker_is_first = matches!(attacker, "X" | "first" | "x");
        let mover_is_first = position.len() % 2 == 0;
        let v = ttt_value_of(position);
        let mover_wins = v == Value::Win;
        let opponent_wins = v == Value::Loss;
        let want = if attacker_is_first == mover_is_first {
            mover_wins
        } else {
            opponent_wins
        };
        assert_eq!(r.proven(), want, "{position} {attacker}:\n{}", r.stdout);
        assert!(
            r.field("value").is_none(),
            "one question, no value:\n{}",
            r.stdout
        );
        r.check_best_move_starts_line();
    }
    // Atari Go: the 4×4 crosscut is Black's win (brute force below).
    let g = AtariGo::<4>::crosscut().notation();
    assert!(answered("atarigo", &g, &["--attacker", "black"]).proven());
    assert!(!answered("atarigo", &g, &["--attacker", "White"]).proven());
}

#[test]
fn every_engine_answers_alike() {
    let engines: [&[&str]; 5] = [
        &[],
        &["--engine", "pns"],
        &["--engine", "pn2", "--second-level", "1000"],
        &["--epsilon", "0"],
        &["--threads", "2"],
    ];
    let atarigo = AtariGo::<4>::crosscut().notation();
    for engine in &engines {
        for p in ["", "0", "01", "4012"] {
            let r = answered("tictactoe", p, engine);
            check_value_report(&r, ttt_value_of(p), |line| {
                ttt_value_of(&format!("{p}{}", line.concat()))
            });
        }
        let r = answered("atarigo", &atarigo, engine);
        let mut g = AtariGo::<4>::crosscut();
        check_value_report(&r, atarigo_value(&mut g, &mut HashMap::new()), |line| {
            let mut g = AtariGo::<4>::crosscut();
            g.play_moves(&line.join(" ")).expect("a legal line");
            atarigo_value(&mut g, &mut HashMap::new())
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Connect Four: the independent alpha-beta solver.

fn c4_value(moves: &str) -> Value {
    let mut p = reference::Position::<7, 6>::from_moves(moves).expect("a legal game");
    let mut solver = reference::Solver::<7, 6>::new(1 << 16);
    match solver.value(&mut p) {
        Some(v) => v,
        // Over: the last mover connected four (or the board is full).
        None if p.moves_played() == 42 => Value::Draw,
        None => Value::Loss,
    }
}

#[test]
fn connect4_late_positions_match_the_reference_solver() {
    let suite = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/suites/c4-late.txt"),
    )
    .expect("the late suite");
    let mut seen = HashMap::new();
    for line in suite.lines().take(16) {
        let moves = line.split_whitespace().next().unwrap();
        let want = c4_value(moves);
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        let r = answered("connect4", moves, &["--verify"]);
        check_value_report(&r, want, |line| {
            c4_value(&format!("{moves}{}", line.concat()))
        });
    }
    assert_eq!(seen.len(), 3, "every value occurs: {seen:?}");
    // The README's first position, far too hard for 1000 positions: unknown, exit code 1.
    let r = solve(&["connect4", "444444", "--quiet", "--nodes", "1000"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("value: unknown (node limit"),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// Ultimate Tic-Tac-Toe: exhaustive negamax over the checked rules.

fn uttt_value(g: &Uttt, memo: &mut HashMap<String, Value>) -> Value {
    if let Some(w) = g.winner() {
        return if w == g.side_to_move() {
            Value::Win
        } else {
            Value::Loss
        };
    }
    if g.is_over() {
        return Value::Draw;
    }
    let key = g.to_string();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = Value::Loss;
    for m in 0..81 {
        let mut child = g.clone();
        if child.try_play(Move(m)).is_ok() {
            match uttt_value(&child, memo).flipped() {
                Value::Win => {
                    best = Value::Win;
                    break;
                }
                Value::Draw => best = Value::Draw,
                Value::Loss => {}
            }
        }
    }
    memo.insert(key, best);
    best
}

#[test]
fn uttt_positions_near_the_end_match_brute_force() {
    // Random games from the start, stopped with 12 to 20 plies to go at most.
    let mut rng = Rng::new(11);
    let mut seen = HashMap::new();
    let mut memo = HashMap::new();
    let mut tested = 0;
    while tested < 8 {
        let mut g = Uttt::new();
        let stop = 58 + rng.index(6);
        while g.stones() < stop as u32 && !g.is_over() {
            let legal: Vec<u8> = (0..81)
                .filter(|&m| g.clone().try_play(Move(m)).is_ok())
                .collect();
            g.try_play(Move(legal[rng.index(legal.len())])).unwrap();
        }
        if g.is_over() {
            continue;
        }
        tested += 1;
        let want = uttt_value(&g, &mut memo);
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        let notation = g.to_string();
        let r = answered("uttt", &notation, &["--verify"]);
        check_value_report(&r, want, |line| {
            let mut h = g.clone();
            for m in line {
                h.try_play(m.parse().expect("a move"))
                    .expect("a legal line");
            }
            uttt_value(&h, &mut memo)
        });
    }
    assert!(seen.len() >= 2, "values {seen:?}");
    // The empty position is the start.
    let r = solve(&["uttt", "--quiet", "--nodes", "1000"]);
    assert_eq!(
        r.code, 1,
        "a node limit leaves the start unknown:\n{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("value: unknown (node limit"),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// Atari Go: exhaustive negamax over every point through the checked rules.

/// Value for the side to move: a capture wins at once, no legal move loses.
fn atarigo_value<const N: usize>(g: &mut AtariGo<N>, memo: &mut HashMap<String, Value>) -> Value {
    let key = g.notation();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = Value::Loss;
    'points: for row in 0..N {
        for column in 0..N {
            let mut child = g.clone();
            if child.try_play(AtariGo::<N>::point(row, column)).is_err() {
                continue;
            }
            if child.is_over() || atarigo_value(&mut child, memo) == Value::Loss {
                best = Value::Win;
                break 'points;
            }
        }
    }
    memo.insert(key, best);
    best
}

/// A random game of `plies` legal moves that capture nothing, from `start`, as its move list.
fn quiet_moves<const N: usize>(start: &AtariGo<N>, plies: usize, rng: &mut Rng) -> String {
    let mut g = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let quiet: Vec<_> = (0..N * N)
            .map(|i| AtariGo::<N>::point(i / N, i % N))
            .filter(|&p| {
                let mut child = g.clone();
                child.try_play(p).is_ok() && !child.is_over()
            })
            .collect();
        if quiet.is_empty() {
            break;
        }
        let p = quiet[rng.index(quiet.len())];
        g.try_play(p).unwrap();
        moves.push(AtariGo::<N>::point_name(p));
    }
    moves.join(" ")
}

#[test]
fn atarigo_positions_match_brute_force() {
    let mut rng = Rng::new(5);
    let mut seen = HashMap::new();
    // 4×4 setups (the crosscut after a few moves) and 6×6 move lists near the end.
    for i in 0..10 {
        let moves = quiet_moves(&AtariGo::<4>::crosscut(), i % 6, &mut rng);
        let mut g = AtariGo::<4>::crosscut();
        g.play_moves(&moves).unwrap();
        let setup = g.notation();
        let want = atarigo_value(&mut g.clone(), &mut HashMap::new());
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        let r = answered("atarigo", &setup, &["--verify"]);
        check_value_report(&r, want, |line| {
            let mut h = g.clone();
            h.play_moves(&line.join(" ")).expect("a legal line");
            atarigo_value(&mut h, &mut HashMap::new())
        });
    }
    let mut memo = HashMap::new();
    for _ in 0..4 {
        let moves = quiet_moves(&AtariGo6::crosscut(), 20 + rng.index(4), &mut rng);
        let mut g: AtariGo6 = moves.parse().unwrap();
        let want = atarigo_value(&mut g, &mut memo);
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        let r = answered("atarigo", &moves, &["--verify"]);
        check_value_report(&r, want, |line| {
            let mut h = g.clone();
            h.play_moves(&line.join(" ")).expect("a legal line");
            atarigo_value(&mut h, &mut memo)
        });
    }
    assert_eq!(seen.len(), 2, "wins and losses: {seen:?}");
}

// ---------------------------------------------------------------------------------------------
// Bad input: a clear message and exit code 2.

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    for (args, message) in [
        // Unknown names: the parser (clap) lists what it accepts.
        (vec!["checkers"], "invalid value 'checkers' for '<GAME>'"),
        (
            vec!["checkers"],
            "possible values: connect4, tictactoe, uttt, atarigo",
        ),
        (vec!["tictactoe", "", "--engine", "mcts"], "'--engine <E>'"),
        (
            vec!["tictactoe", "", "--bogus"],
            "unexpected argument '--bogus'",
        ),
        (
            vec!["tictactoe", "", "--table-mib", "lots"],
            "'--table-mib <N>'",
        ),
        (vec!["tictactoe", "", "--table-mib"], "a value is required"),
        (vec!["tictactoe", "", "--epsilon", "17"], "between 0 and 16"),
        (
            vec!["tictactoe", "", "--seconds", "-1"],
            "must not be negative",
        ),
        (
            vec!["tictactoe", "", "--threads", "1025"],
            "threads must be 0 (one per core) to 1024",
        ),
        (
            vec!["tictactoe", "", "--threads", "-1"],
            "threads must be 0 (one per core) to 1024",
        ),
        (
            vec!["tictactoe", "", "--engine", "pns", "--threads", "2"],
            "cannot be combined",
        ),
        // Positions each game's own reader refuses.
        (vec!["connect4", "12a"], "not a column"),
        (vec!["connect4", "1111111"], "full"),
        (vec!["tictactoe", "44"], "taken"),
        (vec!["tictactoe", "9"], "not a cell"),
        (vec!["uttt", "X;........."], "three sections"),
        (
            vec![
                "uttt",
                "O;.........;X......../........./........./........./........./........./........./........./X........",
            ],
            "cannot have O to move",
        ),
        (vec!["atarigo", "c4"], "taken"),
        (vec!["atarigo", "c2 z9"], "move 2"),
        (vec!["atarigo", "X;a/b/c/d/e/f/g/h"], "2x2 to 7x7"),
        (vec!["atarigo", "X;..../.XO./.OX./...;a1"], "row 4"),
        (vec!["tictactoe", "", "--attacker", "Z"], "--attacker"),
        // Sizes and times beyond what the machine or a Duration holds: messages, not panics
        // or aborts (2^43 MiB is 2^63 bytes, more than any allocation may ask).
        (
            vec!["tictactoe", "", "--seconds", "inf"],
            "too many seconds",
        ),
        (vec!["chess", "", "--seconds", "1e300"], "too many seconds"),
        (
            vec!["tictactoe", "", "--table-mib", "8796093022208"],
            "--table-mib: cannot allocate",
        ),
        (
            vec!["tictactoe", "", "--table-mib", "17592186044416"],
            "more memory than this machine can address",
        ),
        (
            vec![
                "tictactoe",
                "",
                "--engine",
                "pns",
                "--arena-mib",
                "8796093022208",
            ],
            "--arena-mib: cannot allocate",
        ),
        (vec!["chess", "", "--table-mib", "0"], "at least 1 MiB"),
        (
            vec!["chess", "", "--table-mib", "8796093022208"],
            "--table-mib: cannot allocate",
        ),
    ] {
        let r = solve(&args);
        assert_eq!(r.code, 2, "{args:?}:\n{}\n{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("error:") && r.stderr.contains(message),
            "{args:?}: expected {message:?} in\n{}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
}

/// A 100 KB argument in any place (the game, each game's position, an option's value, an
/// argument too many): bad input whose message quotes at most a short prefix of it and says
/// how long it was, never the whole (a bad FEN used to repeat all of it).
#[test]
fn a_huge_argument_is_quoted_by_a_short_prefix() {
    let junk = "x".repeat(100_000);
    let flag = format!("--{junk}");
    let nodes = format!("--nodes={junk}");
    let fen = format!("{junk} w - -");
    let uttt = format!("X;{junk};.........");
    for args in [
        vec![junk.as_str(), "44"],
        vec!["connect4", &junk],
        vec!["tictactoe", &junk],
        vec!["uttt", &junk],
        vec!["uttt", &uttt],
        vec!["atarigo", &junk],
        vec!["chess", &fen],
        vec!["connect4", "44", "--attacker", &junk],
        vec!["chess", "", "--attacker", &junk],
        vec!["connect4", "44", "--nodes", &junk],
        vec!["connect4", "44", &nodes],
        vec!["connect4", "44", "--epsilon", &junk],
        vec!["connect4", "44", "--seconds", &junk],
        vec!["connect4", "44", &junk],
        vec!["connect4", "44", &flag],
    ] {
        let r = solve(&args);
        let shown: Vec<String> = args.iter().map(|a| a.chars().take(12).collect()).collect();
        assert_eq!(r.code, 2, "{shown:?}: {}", r.stderr.len());
        assert!(
            r.stderr.len() < 1000,
            "{shown:?}: {} bytes of message",
            r.stderr.len()
        );
        if r.stderr.contains("xxxxxxxxxx") {
            assert!(r.stderr.contains("characters)"), "{shown:?}: {}", r.stderr);
        }
    }
}

#[test]
fn help_lists_every_game_with_its_notation_and_the_exit_codes() {
    let r = solve(&["--help"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for text in [
        "connect4",
        "1-based columns",
        "tictactoe",
        "row-major",
        "uttt",
        "ultimattt",
        "atarigo",
        "Go coordinates",
        "--attacker",
        "--threads",
        "--weak-delta",
        "Exit codes: 0 answered, 1 stopped by a limit, 2 bad input, 3 --verify refuted",
    ] {
        assert!(r.stdout.contains(text), "{text:?} not in\n{}", r.stdout);
    }
    // No arguments: the help, on standard error, as bad input.
    let r = solve(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("Usage: proofnum"), "{}", r.stderr);
}

#[test]
fn progress_goes_to_standard_error_only() {
    // The empty Connect Four board runs into the time limit (exit code 1); the progress line
    // shows after one second, one line a second when standard error is not a terminal.
    let r = solve(&["connect4", "", "--table-mib", TABLE_MIB, "--seconds", "2.5"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let progress: Vec<&str> = r.stderr.lines().collect();
    assert!(!progress.is_empty(), "no progress line in {:?}", r.stderr);
    for line in &progress {
        assert!(
            line.starts_with("  ") && line.contains(" MID calls ") && line.contains("root (φ, δ)"),
            "not a progress line: {line:?}"
        );
        assert!(
            !line.contains('\r') && !line.contains('\x1b'),
            "terminal codes: {line:?}"
        );
    }
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "value: unknown (time limit reached)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("root (φ, δ)"), "{}", r.stdout);
    assert!(r.field("MID calls").is_some(), "{}", r.stdout);
    // The same run with --quiet writes nothing on standard error.
    let r = solve(&[
        "connect4",
        "",
        "--table-mib",
        TABLE_MIB,
        "--seconds",
        "1.5",
        "--quiet",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.is_empty(), "{:?}", r.stderr);
}

#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    // `proofnum ... | head -1`: the reader has gone before the report. The run must end at the
    // next write as Unix tools do (status 141, 128 + SIGPIPE, as a shell reports a process
    // SIGPIPE ended), without a panic message. The search takes a second, so the pipe is
    // closed long before the report's lines.
    let mut child = Command::new(env!("CARGO_BIN_EXE_proofnum"))
        .args([
            "connect4",
            "",
            "--quiet",
            "--table-mib",
            TABLE_MIB,
            "--seconds",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the proofnum binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the run ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
