//! Ultimate Tic-Tac-Toe: notation, rules against an independent array implementation, df-pn
//! against brute force on late positions, and the two self-play positions with known answers.

use std::collections::HashMap;
use std::time::Instant;

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Player, Status, Value};
use proofnum_games::uttt::{BoardState, Knowledge, Move, MoveError, Uttt};

mod uttt_model;
use uttt_model::{Plain, Rng};

/// The positions from the issue, from self-play, with their known answers for the side to move.
const X_WINS: &str = "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX";
const O_DOES_NOT_WIN: &str = "O;......O@.;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/...X.X.../.O.....XX";

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Notation.

#[test]
fn notation_round_trips() {
    for text in [X_WINS, O_DOES_NOT_WIN] {
        let g: Uttt = text.parse().unwrap();
        assert_eq!(g.to_string(), text);
    }
    let start = Uttt::new();
    assert_eq!(
        start.to_string(),
        "X;.........;........./........./........./........./........./........./........./........./........."
    );
    assert_eq!(start.to_string().parse::<Uttt>().unwrap(), start);
    // After a few moves, including one that sends the opponent to a won board.
    let mut g = Uttt::new();
    for m in ["ee", "ea", "ae", "ei", "ie", "ec"] {
        g.try_play(mv(m)).unwrap();
        assert_eq!(g.to_string().parse::<Uttt>().unwrap(), g, "{g}");
    }
    assert_eq!(mv("ea"), Move::new(4, 0));
    assert_eq!(Move::new(8, 3).to_string(), "id");
}

#[test]
fn issue_positions_read_as_described() {
    let g: Uttt = X_WINS.parse().unwrap();
    assert_eq!(g.side_to_move(), Player::First);
    assert_eq!(g.forced_board(), Some(2));
    assert_eq!(g.board_state(6), BoardState::Won(Player::Second));
    assert_eq!(g.at(0, 0), Some(Player::First));
    assert_eq!(g.at(0, 2), Some(Player::Second));
    let g: Uttt = O_DOES_NOT_WIN.parse().unwrap();
    assert_eq!(g.side_to_move(), Player::Second);
    assert_eq!(g.forced_board(), Some(7));
}

#[test]
fn bad_notation_gets_clear_errors() {
    let cases = [
        ("X;.........", "expected three sections"),
        ("Z;.........;a/b", "side to move \"Z\""),
        ("X;........;x", "expected 9 characters"),
        ("X;.........;........./.........", "expected 9 groups"),
        (
            "X;.........;......../........./........./........./........./........./........./........./.........",
            "board a (\"........\"): expected 9 cells",
        ),
        (
            "X;.........;.......Q./........./........./........./........./........./........./........./.........",
            "board a, cell h: 'Q' is not X, O or .",
        ),
        (
            "X;X........;........./........./........./........./........./........./........./........./.........",
            "board a is marked 'X' but its cells make it Open",
        ),
        (
            "O;.........;XXX....../........./........./........./........./........./........./........./.........",
            "board a is marked '.' but its cells make it Won(First)",
        ),
        (
            "X;@@.......;........./........./........./........./........./........./........./........./.........",
            "two boards are marked @",
        ),
        (
            "O;.........;........./........./........./........./........./........./........./........./.........",
            "0 X and 0 O stones cannot have O to move",
        ),
        (
            "X;.........;X......../........./........./........./........./........./........./........./.........",
            "1 X and 0 O stones cannot have X to move",
        ),
    ];
    for (text, want) in cases {
        let e = text.parse::<Uttt>().unwrap_err();
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
    assert!(
        "ej".parse::<Move>()
            .unwrap_err()
            .to_string()
            .contains("letters a to i")
    );
    assert!(
        "e".parse::<Move>()
            .unwrap_err()
            .to_string()
            .contains("two letters")
    );
}

// ---------------------------------------------------------------------------------------------
// Rules.

/// The moves `g` lists (with its knowledge: losing moves may be left out, the order varies).
fn generated(g: &Uttt) -> Vec<Move> {
    let mut slots = [Move::default(); 81];
    let mut list = MoveList::new(&mut slots);
    g.generate_moves(&mut list);
    assert!(!list.overflowed());
    list.as_slice().to_vec()
}

/// Every legal move of `g`: the moves of the plain game, without knowledge.
fn legal(g: &Uttt) -> Vec<Move> {
    generated(&g.clone().with_knowledge(Knowledge::NONE))
}

#[test]
fn the_cell_played_forces_the_next_board() {
    let mut g = Uttt::new();
    assert_eq!(legal(&g).len(), 81);
    g.try_play(mv("ec")).unwrap();
    assert_eq!(g.forced_board(), Some(2));
    let moves = legal(&g);
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|m| m.board() == 2));
    assert_eq!(g.try_play(mv("ea")), Err(MoveError::WrongBoard));
    g.try_play(mv("ce")).unwrap();
    assert_eq!(g.try_play(mv("ec")), Err(MoveError::CellTaken));
}

#[test]
fn a_won_board_closes_and_sending_there_frees_the_next_move() {
    // X, forced into board a, completes its top row and sends O to board c.
    let mut g: Uttt =
        "X;@........;XX.OO..../........./........./........./........./........./........./........./........."
            .parse()
            .unwrap();
    g.try_play(mv("ac")).unwrap();
    assert_eq!(g.board_state(0), BoardState::Won(Player::First));
    assert_eq!(g.forced_board(), Some(2));
    // O plays ca, sending X to the won board a: X may play in any open board.
    g.try_play(mv("ca")).unwrap();
    assert_eq!(g.forced_board(), None);
    let moves = legal(&g);
    assert!(moves.iter().all(|m| m.board() != 0));
    let open_cells: usize = (1..9)
        .map(|b| (0..9).filter(|&c| g.at(b, c).is_none()).count())
        .sum();
    assert_eq!(moves.len(), open_cells);
    assert_eq!(g.try_play(mv("ae")), Err(MoveError::BoardClosed));
    // The moves agree with the independent model.
    let mut want = Plain::from(&g).moves();
    let mut got: Vec<usize> = moves.iter().map(|m| m.0 as usize).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn three_won_boards_in_a_row_win_and_a_full_grid_without_draws() {
    // X has won boards a, b and c.
    let won = "O;XXX......;XXXOO.O../XXXOO.O../XXXOO..../........./........./........./........./........./.........";
    let mut g: Uttt = won.parse().unwrap();
    assert_eq!(g.winner(), Some(Player::First));
    assert!(g.is_over());
    assert_eq!(g.outcome(), Outcome::Loss);
    assert_eq!(g.try_play(mv("dd")), Err(MoveError::GameOver));
    // Every board decided, no line of won boards: a draw.
    let grid = [
        "XXXOO.OO.", // a: X
        "OOOXX.X..", // b: O
        "XXXOO.O..", // c: X
        "OOOXX.X..", // d: O
        "XOXXOOOXX", // e: drawn
        "XXXOO.O..", // f: X
        "XOXXOOOXX", // g: drawn
        "XXXOO.O..", // h: X
        "OOOXX.X..", // i: O
    ];
    let text = format!("O;XOXO#X#XO;{}", grid.join("/"));
    let g: Uttt = text.parse().unwrap();
    assert_eq!(g.winner(), None);
    assert!(g.is_over());
    assert_eq!(g.outcome(), Outcome::Draw);
    assert!(generated(&g).is_empty());
}

/// A random game of up to `plies` moves (stopping early when it ends), checking every step
/// against the independent model: moves, board states, winner, hash and undo.
fn random_game(rng: &mut Rng, plies: usize) -> Uttt {
    let mut g = Uttt::new();
    let mut line = Vec::new();
    let mut seen: HashMap<u64, String> = HashMap::new();
    for _ in 0..plies {
        if g.is_over() {
            assert!(Plain::from(&g).winner() != 0 || Plain::from(&g).moves().is_empty());
            break;
        }
        let plain = Plain::from(&g);
        let mut want = plain.moves();
        let mut got: Vec<usize> = legal(&g).iter().map(|m| m.0 as usize).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{g}");
        // With knowledge: some legal moves, each once (which ones is checked against brute
        // force in the knowledge tests).
        let mut listed: Vec<usize> = generated(&g).iter().map(|m| m.0 as usize).collect();
        listed.sort();
        listed.dedup();
        assert_eq!(listed.len(), generated(&g).len(), "{g}");
        assert!(listed.iter().all(|m| want.binary_search(m).is_ok()), "{g}");
        assert_eq!(listed.is_empty(), want.is_empty(), "{g}");
        for b in 0..9 {
            let state = match plain.board(b) {
                0 => BoardState::Open,
                1 => BoardState::Won(Player::First),
                2 => BoardState::Won(Player::Second),
                _ => BoardState::Drawn,
            };
            assert_eq!(g.board_state(b), state, "{g}");
        }
        let text = g.to_string();
        if let Some(other) = seen.insert(g.hash(), text.clone()) {
            assert_eq!(other, text, "hash collision");
        }
        if got.is_empty() {
            break;
        }
        let m = Move(got[rng.index(got.len())] as u8);
        let before = g.clone();
        let hash = g.hash();
        g.play(m);
        g.undo(m);
        assert_eq!(g, before);
        assert_eq!(g.hash(), hash);
        g.play(m);
        line.push(m);
    }
    // The hash after parsing the notation equals the incrementally kept one.
    let reparsed: Uttt = g.to_string().parse().unwrap();
    assert_eq!(reparsed.hash(), g.hash());
    g
}

#[test]
fn random_games_follow_the_rules_of_the_independent_model() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        random_game(&mut rng, 81);
    }
}

// ---------------------------------------------------------------------------------------------
// Solving.

fn dfpn_value(g: &mut Uttt, buckets: usize) -> Value {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Uttt>::stack_bytes(81, 81)];
    let mut dfpn = Dfpn::<Uttt>::new(&mut stack, 81, 81, DfpnConfig::default()).unwrap();
    let before = g.clone();
    let v = dfpn.solve_value(g, &mut table, &mut Limits::default());
    assert_eq!(*g, before);
    v.value.unwrap()
}

#[test]
fn outcome_and_dfpn_match_brute_force_on_late_positions() {
    let mut rng = Rng::new(11);
    let mut memo = HashMap::new();
    let mut by_value = HashMap::new();
    let mut early = 0;
    let mut checked = 0;
    while checked < 120 {
        let plies = 50 + rng.index(20);
        let mut g = random_game(&mut rng, plies);
        if g.is_over() {
            continue;
        }
        let plain = Plain::from(&g);
        // Keep positions brute force can afford.
        let empty = plain.cells.iter().filter(|&&c| c == 0).count();
        if empty > 24 {
            continue;
        }
        let want = plain.value(&mut memo);
        let outcome = g.outcome();
        assert!(
            outcome.admits(want),
            "{outcome:?} for {g} of value {want:?}"
        );
        if outcome != Outcome::Unknown {
            early += 1;
        }
        let got = dfpn_value(&mut g, 1 << 12);
        assert_eq!(got, want, "{g}");
        let mut plain_game = g.clone().with_knowledge(Knowledge::NONE);
        assert_eq!(
            dfpn_value(&mut plain_game, 1 << 12),
            want,
            "{g} without knowledge"
        );
        *by_value.entry(format!("{want:?}")).or_insert(0) += 1;
        checked += 1;
    }
    assert!(by_value.len() >= 2, "{by_value:?}");
    assert!(early > 0);
}

/// Solves a known position and reports the time (run with `--ignored --nocapture`).
fn solve_known(text: &str, attacker_wins: bool) {
    let mut g: Uttt = text.parse().unwrap();
    let mut memory = vec![0u8; Table::required_bytes((256 << 20) / 64)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Uttt>::stack_bytes(81, 81)];
    let mut dfpn = Dfpn::<Uttt>::new(&mut stack, 81, 81, DfpnConfig::default()).unwrap();
    let start = Instant::now();
    let attacker = g.side_to_move();
    let r = dfpn.solve(&mut g, attacker, &mut table, &mut Limits::default());
    let want = if attacker_wins {
        Status::Proven
    } else {
        Status::Disproven
    };
    println!(
        "{text}: {} in {:.2?}, {} MID calls, best move {}",
        r.status,
        start.elapsed(),
        r.stats.mid_calls,
        r.best_move.map(|m| m.to_string()).unwrap_or_default()
    );
    assert_eq!(r.status, want);
}

#[test]
#[ignore = "takes seconds to tens of seconds; run with --release -- --ignored"]
fn x_wins_the_first_self_play_position() {
    solve_known(X_WINS, true);
}

#[test]
#[ignore = "takes seconds to tens of seconds; run with --release -- --ignored"]
fn o_does_not_win_the_second_self_play_position() {
    solve_known(O_DOES_NOT_WIN, false);
}
