//! Ultimate Tic-Tac-Toe game knowledge (`proofnum_games::uttt::knowledge`) against exact
//! values: every rule, alone and all together, at every node of exhaustive searches of late
//! positions (values by minimax over every legal move, without knowledge, cross-checked at the
//! root with the independent array model), on positions built by hand where each rule and each
//! corner case fires, and df-pn with and without the knowledge.

use std::collections::HashMap;

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Value};
use proofnum_games::uttt::{Knowledge, Move, Rule, Uttt};

mod uttt_model;
use uttt_model::{Plain, Rng};

/// The moves `g` lists with its current knowledge.
fn listed(g: &Uttt) -> Vec<Move> {
    let mut slots = [Move::default(); 81];
    let mut list = MoveList::new(&mut slots);
    g.generate_moves(&mut list);
    assert!(!list.overflowed());
    list.as_slice().to_vec()
}

/// The knowledge settings every node is checked under: each rule alone, and all together.
fn settings() -> Vec<(&'static str, Knowledge)> {
    let mut s: Vec<(&'static str, Knowledge)> = Knowledge::EACH.to_vec();
    s.push(("all", Knowledge::ALL));
    s
}

/// What the exhaustive checks saw fire, to make sure each rule was exercised.
#[derive(Default, Debug)]
struct Seen {
    nodes: usize,
    /// (setting, rule, outcome) → count.
    verdicts: HashMap<(&'static str, Rule, Outcome), usize>,
    /// Moves left out by rule 4.
    pruned: usize,
    /// Nodes where every move lost and one stood for all.
    one_for_all: usize,
}

impl Seen {
    fn count(&self, setting: &str, rule: Rule) -> usize {
        self.verdicts
            .iter()
            .filter(|((s, r, _), _)| *s == setting && *r == rule)
            .map(|(_, n)| n)
            .sum()
    }
}

/// The exact value of `g` for the side to move, by minimax over every legal move (knowledge
/// off), checking at every node that each knowledge setting's outcome agrees with it and that
/// every move it leaves out loses.
fn check_exhaustively(g: &mut Uttt, memo: &mut HashMap<u64, Value>, seen: &mut Seen) -> Value {
    if let Some(&v) = memo.get(&g.hash()) {
        return v;
    }
    g.set_knowledge(Knowledge::NONE);
    let value = match g.outcome() {
        Outcome::Unknown => {
            let moves = listed(g);
            assert!(!moves.is_empty(), "{g}");
            let mut children = Vec::with_capacity(moves.len());
            for &m in &moves {
                g.play(m);
                let v = check_exhaustively(g, memo, seen).flipped();
                g.undo(m);
                children.push((m, v));
            }
            g.set_knowledge(Knowledge::NONE);
            let best = children
                .iter()
                .map(|&(_, v)| v)
                .max_by_key(|v| match v {
                    Value::Loss => 0,
                    Value::Draw => 1,
                    Value::Win => 2,
                })
                .unwrap();
            check_node(g, best, &children, seen);
            best
        }
        finished => {
            for (name, k) in settings() {
                g.set_knowledge(k);
                assert_eq!(g.outcome(), finished, "{name}: {g}");
            }
            match finished {
                Outcome::Win => Value::Win,
                Outcome::Loss => Value::Loss,
                Outcome::Draw => Value::Draw,
                other => panic!("{other:?} without knowledge at {g}"),
            }
        }
    };
    g.set_knowledge(Knowledge::NONE);
    memo.insert(g.hash(), value);
    value
}

/// The checks at an unfinished node of exact value `value` whose legal moves have `children`
/// values (for the side to move).
fn check_node(g: &mut Uttt, value: Value, children: &[(Move, Value)], seen: &mut Seen) {
    seen.nodes += 1;
    for (name, k) in settings() {
        g.set_knowledge(k);
        let (outcome, rule) = g.verdict();
        assert_eq!(outcome, g.outcome());
        assert!(
            outcome.admits(value),
            "{name}: {outcome:?} by {rule:?} at {g}, whose value is {value:?}"
        );
        *seen.verdicts.entry((name, rule, outcome)).or_insert(0) += 1;
        if matches!(outcome, Outcome::Win | Outcome::Loss | Outcome::Draw) {
            continue; // the solver does not ask for moves
        }
        let kept = listed(g);
        assert!(!kept.is_empty(), "{name}: no move listed at {g}");
        let mut distinct = kept.clone();
        distinct.sort_by_key(|m| m.0);
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            kept.len(),
            "{name}: a move listed twice at {g}"
        );
        for m in &kept {
            assert!(children.iter().any(|(c, _)| c == m), "{name}: {m} at {g}");
        }
        let left_out: Vec<&(Move, Value)> =
            children.iter().filter(|(m, _)| !kept.contains(m)).collect();
        for (m, v) in &left_out {
            assert_eq!(
                *v,
                Value::Loss,
                "{name}: {m} left out at {g} but it does not lose"
            );
        }
        if k == Knowledge::ALL {
            seen.pruned += left_out.len();
            if kept.len() == 1 && children.iter().all(|&(_, v)| v == Value::Loss) {
                seen.one_for_all += 1;
            }
        }
    }
}

/// A random line of play (every legal move equally likely) of `plies` moves from the start,
/// or `None` if the game ends before.
fn random_position(rng: &mut Rng, plies: usize) -> Option<Uttt> {
    let mut g = Uttt::new().with_knowledge(Knowledge::NONE);
    for _ in 0..plies {
        if g.outcome() != Outcome::Unknown {
            return None;
        }
        let moves = listed(&g);
        g.play(moves[rng.index(moves.len())]);
    }
    (g.outcome() == Outcome::Unknown).then_some(g)
}

/// Exhaustively checks `count` random positions with at most `max_empty` free cells; the root
/// values are cross-checked with the independent model.
fn check_random_positions(seed: u64, count: usize, max_empty: usize) -> Seen {
    let mut rng = Rng::new(seed);
    let mut memo = HashMap::new();
    let mut plain_memo = HashMap::new();
    let mut seen = Seen::default();
    let mut checked = 0;
    while checked < count {
        let plies = 81 - max_empty + rng.index(max_empty.min(20));
        let Some(mut g) = random_position(&mut rng, plies) else {
            continue;
        };
        let plain = Plain::from(&g);
        if plain.cells.iter().filter(|&&c| c == 0).count() > max_empty {
            continue;
        }
        let value = check_exhaustively(&mut g, &mut memo, &mut seen);
        assert_eq!(value, plain.value(&mut plain_memo), "{g}");
        checked += 1;
    }
    seen
}

#[test]
fn every_rule_agrees_with_exhaustive_search_at_every_node_of_late_positions() {
    let seen = check_random_positions(2026, 80, 18);
    // Each rule fired somewhere (else this test would not test it).
    for (setting, rule) in [
        ("immediate-win", Rule::ImmediateWin),
        ("cannot-win", Rule::NoLineLeft),
        ("forced-win", Rule::ForcedWin),
        ("forced-loss", Rule::ForcedLoss),
    ] {
        assert!(
            seen.count(setting, rule) > 0,
            "{setting} never fired: {seen:?}"
        );
    }
    for outcome in [Outcome::CannotWin, Outcome::CannotLose, Outcome::Draw] {
        assert!(
            seen.verdicts
                .contains_key(&("cannot-win", Rule::NoLineLeft, outcome)),
            "no {outcome:?} from cannot-win: {seen:?}"
        );
    }
    assert!(seen.pruned > 0 && seen.one_for_all > 0, "{seen:?}");
    println!("{seen:#?}");
}

#[test]
#[ignore = "exhaustive checks of thousands of positions; run with --release -- --ignored"]
fn every_rule_agrees_with_exhaustive_search_on_many_late_positions() {
    for seed in 0..4 {
        let seen = check_random_positions(seed, 100, 22);
        println!("seed {seed}: {} nodes, {} pruned", seen.nodes, seen.pruned);
    }
}

// ---------------------------------------------------------------------------------------------
// Positions built by hand. Boards are numbered 0–8 (a–i) row by row, cells likewise.

/// Drawn boards used as filler: five X and four O, and four X and five O.
const DRAWN_X: &str = "XOXXOOOXX";
const DRAWN_O: &str = "OXOOXXXOO";
/// A board X has won (three X, three O).
const WON_X: &str = "XXXO.O.O.";

/// The position with `side` to move, forced into board `forced` (or free), and these cells;
/// the board marks are computed with the independent model.
fn position(side: char, forced: Option<usize>, boards: [&str; 9]) -> Uttt {
    let mut plain_cells = [0u8; 81];
    for (b, cells) in boards.iter().enumerate() {
        assert_eq!(cells.len(), 9, "board {b}");
        for (c, ch) in cells.chars().enumerate() {
            plain_cells[b * 9 + c] = match ch {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
    }
    let plain = Plain {
        cells: plain_cells,
        forced,
        to_move: if side == 'X' { 1 } else { 2 },
    };
    let marks: String = (0..9)
        .map(|b| match plain.board(b) {
            _ if forced == Some(b) => '@',
            0 => '.',
            1 => 'X',
            2 => 'O',
            _ => '#',
        })
        .collect();
    let text = format!("{side};{marks};{}", boards.join("/"));
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The exact value of `g` by the independent model.
fn brute_force(g: &Uttt) -> Value {
    Plain::from(g).value(&mut HashMap::new())
}

/// The verdict of `g` with only `knowledge`.
fn verdict_with(g: &Uttt, knowledge: Knowledge) -> (Outcome, Rule) {
    g.clone().with_knowledge(knowledge).verdict()
}

/// The moves `g` lists with all its knowledge, as text.
fn listed_names(g: &Uttt) -> Vec<String> {
    listed(g).iter().map(|m| m.to_string()).collect()
}

#[test]
fn immediate_win_in_a_critical_board() {
    // X has won boards a and b; X must play in board c, where cc completes X's top row.
    let g = position(
        'X',
        Some(2),
        [
            WON_X,
            WON_X,
            "XX.OO....",
            DRAWN_X,
            DRAWN_X,
            DRAWN_X,
            DRAWN_O,
            DRAWN_O,
            DRAWN_O,
        ],
    );
    assert_eq!(
        verdict_with(&g, Knowledge::IMMEDIATE_WIN),
        (Outcome::Win, Rule::ImmediateWin)
    );
    assert_eq!(verdict_with(&g, Knowledge::NONE).0, Outcome::Unknown);
    assert_values(&g, Value::Win);
}

#[test]
fn win_two_plies_deep() {
    // X (boards a and b won, board c critical) must play in board e, whose one free cell ef
    // sends O to board f; O's one free cell there, fc, sends X to board c, where X wins.
    let g = position(
        'X',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO....",
            DRAWN_X,
            "OXOOX.XOO",
            "OX.OXXXOO",
            DRAWN_X,
            DRAWN_X,
            DRAWN_O,
        ],
    );
    assert_eq!(
        verdict_with(&g, Knowledge::IMMEDIATE_WIN).0,
        Outcome::Unknown
    );
    assert_eq!(
        verdict_with(&g, Knowledge::FORCED_WIN),
        (Outcome::Win, Rule::ForcedWin)
    );
    assert_eq!(g.verdict(), (Outcome::Win, Rule::ForcedWin));
    assert_values(&g, Value::Win);
}

#[test]
fn win_two_plies_deep_sending_back_into_the_board_just_played() {
    // X must play in board e. ee leaves board e open and sends O back into it; O's replies ec
    // (to X's critical board c) and ef (to the closed board f: a free choice) both let X win.
    let g = position(
        'X',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO.XOX",
            DRAWN_X,
            "XO.O..XXO",
            DRAWN_X,
            DRAWN_O,
            DRAWN_O,
            DRAWN_O,
        ],
    );
    assert_eq!(
        verdict_with(&g, Knowledge::FORCED_WIN),
        (Outcome::Win, Rule::ForcedWin)
    );
    assert_values(&g, Value::Win);
}

#[test]
fn win_two_plies_deep_through_a_board_the_move_wins() {
    // X must play ef, which wins board e: with boards a and e won, board i becomes critical
    // for X. O's one reply fi sends X there.
    let g = position(
        'X',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO.XO.",
            DRAWN_X,
            "OXOXX.XOO",
            "XOXXOOOX.",
            DRAWN_O,
            DRAWN_O,
            "XX.OO.XOX",
        ],
    );
    assert_eq!(
        verdict_with(&g, Knowledge::FORCED_WIN),
        (Outcome::Win, Rule::ForcedWin)
    );
    assert_values(&g, Value::Win);
}

#[test]
fn no_win_two_plies_deep_when_the_reply_blocks_the_only_critical_board() {
    // X (boards a and b won) must play ec, sending O into board c, X's only critical board.
    // O's reply cc blocks X's top row and sends X back to board c; O's reply cf wins board c.
    // Either way every board closes without three X boards in a row: a draw. (A rule that
    // counted board c as critical for X whatever O plays there would claim a win.)
    let g = position(
        'X',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO.XOX",
            DRAWN_X,
            "XO.XOOOXX",
            DRAWN_X,
            DRAWN_O,
            DRAWN_O,
            DRAWN_O,
        ],
    );
    assert_eq!(verdict_with(&g, Knowledge::FORCED_WIN).0, Outcome::Unknown);
    assert_values(&g, Value::Draw);
    // O can no longer get three boards in a row: X cannot lose.
    assert_eq!(g.verdict(), (Outcome::CannotLose, Rule::NoLineLeft));
}

#[test]
fn a_move_that_closes_its_own_board_gives_a_free_choice_and_loses() {
    // X has won boards a and b and can win board c. O must play in board e: ef sends X to the
    // closed board f (a free choice: X plays cc), and ee wins board e for O, closing it, so X
    // gets a free choice too. Every move loses.
    let g = position(
        'O',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO.XOX",
            DRAWN_X,
            "OXOX..XXO",
            DRAWN_X,
            DRAWN_O,
            DRAWN_O,
            DRAWN_O,
        ],
    );
    assert_values(&g, Value::Loss);
    assert_eq!(
        verdict_with(&g, Knowledge::FORCED_LOSS),
        (Outcome::Loss, Rule::ForcedLoss)
    );
    // Without the forced-loss rule, the pruning lists one move for both.
    let pruning = g.clone().with_knowledge(Knowledge::PRUNE_LOSING);
    assert_eq!(pruning.verdict().0, Outcome::Unknown);
    assert_eq!(listed(&pruning).len(), 1);
}

#[test]
fn a_move_that_sends_back_into_its_own_open_board_is_kept() {
    // As before, but ee leaves board e open (one cell free): X must answer ef there, so ee
    // does not lose at once and is the one move listed; ef (a free choice for X) is left out.
    let g = position(
        'O',
        Some(4),
        [
            WON_X,
            WON_X,
            "XX.OO.XOX",
            DRAWN_X,
            "XOXO..OXO",
            DRAWN_X,
            DRAWN_X,
            DRAWN_O,
            DRAWN_O,
        ],
    );
    assert_eq!(verdict_with(&g, Knowledge::FORCED_LOSS).0, Outcome::Unknown);
    assert_eq!(listed_names(&g), ["ee"]);
    let plain = g.clone().with_knowledge(Knowledge::NONE);
    assert_eq!(listed_names(&plain).len(), 2);
    let mut after_ef = g.clone();
    after_ef.play("ef".parse().unwrap());
    assert_eq!(brute_force(&after_ef), Value::Win, "ef loses for O");
    assert_values(&g, Value::Draw);
}

#[test]
fn a_board_with_every_line_blocked_counts_as_lost() {
    // X has won boards a and b, but O has a stone on every line of the open board c, and every
    // other line of boards holds a board O has won or a drawn one: X cannot win, though board
    // c is still open. O can still win (board f completes O's row d-e-f), so this is a bound.
    let g = position(
        'X',
        None,
        [
            WON_X,
            WON_X,
            "OX.XOOXOX",
            "OOOXX....",
            "OOOXX....",
            "OX..OOXOX",
            DRAWN_X,
            DRAWN_X,
            DRAWN_X,
        ],
    );
    assert_eq!(
        verdict_with(&g, Knowledge::CANNOT_WIN),
        (Outcome::CannotWin, Rule::NoLineLeft)
    );
    assert_eq!(g.verdict().0, Outcome::CannotWin);
    assert_values(&g, brute_force(&g));
    assert_ne!(brute_force(&g), Value::Win);
}

/// df-pn's value of `g` with all the knowledge and without any, in a small table.
fn dfpn_values(g: &Uttt) -> [Value; 2] {
    [Knowledge::ALL, Knowledge::NONE].map(|k| {
        let mut game = g.clone().with_knowledge(k);
        let mut memory = vec![0u8; Table::required_bytes(1 << 10)];
        let mut table = Table::new(&mut memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<Uttt>::stack_bytes(81, 81)];
        let mut dfpn = Dfpn::<Uttt>::new(&mut stack, 81, 81, DfpnConfig::default()).unwrap();
        dfpn.solve_value(&mut game, &mut table, &mut Limits::default())
            .value
            .unwrap()
    })
}

/// Brute force, and df-pn with and without knowledge, all give `g` the value `want`.
fn assert_values(g: &Uttt, want: Value) {
    assert_eq!(brute_force(g), want, "brute force on {g}");
    assert_eq!(
        dfpn_values(g),
        [want, want],
        "df-pn with and without knowledge on {g}"
    );
}

/// The exact value of `g` by df-pn without knowledge, or `None` beyond `max_mid_calls`.
fn plain_dfpn_value(g: &Uttt, max_mid_calls: u64) -> Option<Value> {
    let mut game = g.clone().with_knowledge(Knowledge::NONE);
    let mut memory = vec![0u8; Table::required_bytes(1 << 16)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Uttt>::stack_bytes(81, 81)];
    let mut dfpn = Dfpn::<Uttt>::new(&mut stack, 81, 81, DfpnConfig::default()).unwrap();
    dfpn.solve_value(&mut game, &mut table, &mut Limits::work(max_mid_calls))
        .value
        .ok()
}

#[test]
#[ignore = "solves hundreds of middle-game positions; run with --release -- --ignored"]
fn every_claim_agrees_with_plain_df_pn_on_middle_game_positions() {
    // Positions with 26 to 40 free cells, too large for the exhaustive checks: every outcome
    // the knowledge claims and every move it leaves out is checked against df-pn without
    // knowledge (positions it cannot solve within the budget are skipped).
    const BUDGET: u64 = 300_000;
    let mut rng = Rng::new(77);
    let (mut claims, mut left_out, mut skipped) = (0, 0, 0);
    for _ in 0..2000 {
        let plies = 41 + rng.index(15);
        let Some(g) = random_position(&mut rng, plies) else {
            continue;
        };
        let g = g.with_knowledge(Knowledge::ALL);
        let (outcome, rule) = g.verdict();
        if outcome != Outcome::Unknown {
            match plain_dfpn_value(&g, BUDGET) {
                Some(v) => {
                    assert!(
                        outcome.admits(v),
                        "{outcome:?} by {rule:?} at {g}, value {v:?}"
                    );
                    claims += 1;
                }
                None => skipped += 1,
            }
        }
        if matches!(outcome, Outcome::Win | Outcome::Loss | Outcome::Draw) {
            continue;
        }
        let kept = listed(&g);
        for m in listed(&g.clone().with_knowledge(Knowledge::NONE)) {
            if kept.contains(&m) {
                continue;
            }
            let mut child = g.clone();
            child.play(m);
            match plain_dfpn_value(&child, BUDGET) {
                Some(v) => {
                    assert_eq!(v, Value::Win, "{m} left out at {g}");
                    left_out += 1;
                }
                None => skipped += 1,
            }
        }
    }
    println!("{claims} claims and {left_out} left-out moves checked, {skipped} skipped");
    assert!(claims >= 200 && left_out >= 1000, "too few checks");
}
