//! Atari Go: the bitboard game against an independent grid model and brute force, df-pn on
//! small boards, and the published 6×6 crosscut result (Black wins).

use std::collections::HashMap;

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Game, Limits, MoveList, Outcome, Player, Status, Value};
use proofnum_games::atarigo::{AtariGo, AtariGo6, Point};
use proofnum_test_support::Rng;

/// The rules of the module docs on a plain grid with breadth-first group search.
#[derive(Clone)]
struct Plain {
    n: usize,
    grid: Vec<u8>, // 0 empty, 1 Black, 2 White
    to_move: u8,
}

impl Plain {
    fn from<const N: usize>(g: &AtariGo<N>) -> Plain {
        let mut grid = vec![0; N * N];
        for r in 0..N {
            for c in 0..N {
                grid[r * N + c] = match g.at(r, c) {
                    None => 0,
                    Some(Player::First) => 1,
                    Some(Player::Second) => 2,
                };
            }
        }
        Plain {
            n: N,
            grid,
            to_move: if g.side_to_move() == Player::First {
                1
            } else {
                2
            },
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c, n) = (i / self.n, i % self.n, self.n);
        let mut v = Vec::new();
        if r > 0 {
            v.push(i - n);
        }
        if r + 1 < n {
            v.push(i + n);
        }
        if c > 0 {
            v.push(i - 1);
        }
        if c + 1 < n {
            v.push(i + 1);
        }
        v
    }

    /// Liberties of the group at `i`.
    fn liberties(&self, i: usize) -> usize {
        let colour = self.grid[i];
        let mut seen = vec![false; self.grid.len()];
        let mut libs = vec![false; self.grid.len()];
        let mut todo = vec![i];
        seen[i] = true;
        while let Some(j) = todo.pop() {
            for k in self.neighbours(j) {
                if self.grid[k] == 0 {
                    libs[k] = true;
                } else if self.grid[k] == colour && !seen[k] {
                    seen[k] = true;
                    todo.push(k);
                }
            }
        }
        libs.iter().filter(|&&l| l).count()
    }

    /// Plays `i`: `Some(true)` if it captures, `Some(false)` if legal without capture, `None`
    /// if suicide (the grid is then unchanged).
    fn play(&mut self, i: usize) -> Option<bool> {
        let me = self.to_move;
        self.grid[i] = me;
        let captures = self
            .neighbours(i)
            .into_iter()
            .any(|k| self.grid[k] == 3 - me && self.liberties(k) == 0);
        if !captures && self.liberties(i) == 0 {
            self.grid[i] = 0;
            return None;
        }
        self.to_move = 3 - me;
        Some(captures)
    }

    /// Value for the side to move by exhaustive minimax, memoised.
    fn value(&self, memo: &mut HashMap<(Vec<u8>, u8), Value>) -> Value {
        let key = (self.grid.clone(), self.to_move);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut best = Value::Loss; // no legal move loses
        for i in 0..self.grid.len() {
            if self.grid[i] != 0 {
                continue;
            }
            let mut child = self.clone();
            match child.play(i) {
                None => continue,
                Some(true) => {
                    best = Value::Win;
                    break;
                }
                Some(false) => {
                    if child.value(memo) == Value::Loss {
                        best = Value::Win;
                        break;
                    }
                }
            }
        }
        memo.insert(key, best);
        best
    }
}

fn dfpn<const N: usize>(g: &mut AtariGo<N>, buckets: usize, epsilon: Epsilon) -> Value {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    let cells = N * N;
    let mut stack = vec![0u8; Dfpn::<AtariGo<N>>::stack_bytes(cells, cells)];
    let mut solver = Dfpn::<AtariGo<N>>::new(
        &mut stack,
        cells,
        cells,
        DfpnConfig {
            epsilon,
            ..Default::default()
        },
    )
    .unwrap();
    let before = g.clone();
    let v = solver.solve_value(g, &mut table, &mut Limits::default());
    assert_eq!(*g, before);
    v.value.unwrap()
}

fn generated<const N: usize>(g: &AtariGo<N>) -> Vec<Point> {
    let mut slots = [Point::default(); 64];
    let mut list = MoveList::new(&mut slots);
    g.generate_moves(&mut list);
    list.as_slice().to_vec()
}

/// Random positions reached by legal, non-capturing moves from `start`, checking the game
/// against the model at every step; each is checked against brute force and df-pn.
fn check_random<const N: usize>(
    start: AtariGo<N>,
    seed: u64,
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
) {
    let mut rng = Rng::new(seed);
    let mut memo = HashMap::new();
    let mut values = HashMap::new();
    let mut early = 0;
    for i in 0..count {
        let mut g = start.clone();
        for _ in 0..*plies.start() + rng.index(plies.end() - plies.start() + 1) {
            let plain = Plain::from(&g);
            // Legal non-capturing moves by the model.
            let quiet: Vec<usize> = (0..N * N)
                .filter(|&p| plain.grid[p] == 0)
                .filter(|&p| plain.clone().play(p) == Some(false))
                .collect();
            if quiet.is_empty() {
                break;
            }
            let p = quiet[rng.index(quiet.len())];
            let point = Point(((p / N) * (N + 1) + p % N) as u8);
            let before = g.clone();
            g.play(point);
            assert!(!g.is_over());
            g.undo(point);
            assert_eq!(g, before);
            g.play(point);
        }
        let want = Plain::from(&g).value(&mut memo);
        match g.outcome() {
            Outcome::Unknown => {
                // The generated moves keep the value (brute force over exactly them).
                let mut best = Value::Loss;
                for mv in generated(&g) {
                    let (r, c) = (mv.0 as usize / (N + 1), mv.0 as usize % (N + 1));
                    let mut child = Plain::from(&g);
                    let v = match child.play(r * N + c) {
                        None => panic!("generated a suicide {mv} in\n{g}"),
                        Some(true) => Value::Win,
                        Some(false) => child.value(&mut memo).flipped(),
                    };
                    if v == Value::Win {
                        best = Value::Win;
                    }
                }
                assert_eq!(best, want, "generated moves of\n{g}");
            }
            known => {
                early += 1;
                assert_eq!(known, Outcome::from(want), "early result of\n{g}");
            }
        }
        let buckets = [16, 1 << 10, 1 << 14][i % 3];
        let epsilon = if i % 2 == 0 {
            Epsilon::ZERO
        } else {
            Epsilon::QUARTER
        };
        assert_eq!(dfpn(&mut g, buckets, epsilon), want, "df-pn on\n{g}");
        *values.entry(format!("{want:?}")).or_insert(0) += 1;
    }
    assert!(values.len() == 2, "{values:?}");
    assert!(early > 0);
}

#[test]
fn small_boards_match_brute_force() {
    check_random(AtariGo::<3>::empty(), 1, 150, 0..=5);
    check_random(AtariGo::<4>::crosscut(), 2, 150, 0..=8);
    check_random(AtariGo::<5>::crosscut(), 3, 60, 9..=14);
}

#[test]
fn crosscut_4x4_matches_brute_force() {
    let g = AtariGo::<4>::crosscut();
    let want = Plain::from(&g).value(&mut HashMap::new());
    for buckets in [64, 1 << 14] {
        for epsilon in [Epsilon::ZERO, Epsilon::QUARTER] {
            assert_eq!(dfpn(&mut g.clone(), buckets, epsilon), want);
        }
    }
}

#[test]
fn suicide_is_illegal_and_no_move_loses() {
    // White to move: the corner point a1 is surrounded by Black, so White may not play there.
    let g = AtariGo::<3>::from_diagram(".X./X../...", Player::Second).unwrap();
    let moves = generated(&g);
    assert!(!moves.contains(&Point(0)), "{moves:?}");
    assert_eq!(moves.len(), 6);
    let e = AtariGo::<3>::from_diagram("OX./X../...", Player::Second).unwrap_err();
    assert!(e.contains("without liberties"), "{e}");
    assert!(AtariGo::<3>::from_diagram("../...", Player::First).is_err());
}

#[test]
fn two_ataris_lose_and_a_capture_wins() {
    // Black to move: two white stones in atari on different points. Black wins at once.
    let g = AtariGo::<4>::from_diagram("OX.X/..XO/..../....", Player::First).unwrap();
    assert_eq!(g.outcome(), Outcome::Win);
    // White to move with the same two groups in atari and nothing to capture: a loss.
    let g = AtariGo::<4>::from_diagram("OX../.X.X/..XO/....", Player::Second).unwrap();
    assert_eq!(g.outcome(), Outcome::Loss);
    assert_eq!(Plain::from(&g).value(&mut HashMap::new()), Value::Loss);
}

#[test]
fn black_wins_the_6x6_crosscut() {
    // Published: Pawlewicz and Lew (2007), section 4.2; Black wins.
    let mut g = AtariGo6::crosscut();
    let mut memory = vec![0u8; Table::required_bytes(1 << 18)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<AtariGo6>::stack_bytes(36, 36)];
    let mut solver = Dfpn::<AtariGo6>::new(&mut stack, 36, 36, DfpnConfig::default()).unwrap();
    let r = solver.solve(&mut g, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Proven);
}
