//! The Connect Four game's knowledge (`connect4::knowledge`): positions built by hand where each
//! rule fires, each checked against the same board without the rule (`Restricted` with fewer
//! rules, searched by df-pn) and against the independent alpha-beta solver; the move order
//! against a plain grid; the bounds on random positions; and the search effort with and without.
//! (The exhaustive small-board checks of every rule against brute force are in `connect4.rs`.)

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Player, Status, Value};
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_games::connect4::suite;
use proofnum_games::connect4::{Board, Column, ConnectFour, Restricted, rules};

/// The hand-built positions are on a 6×5 board (the knowledge is the same for every size):
/// there, plain df-pn and the reference solver answer in well under a second.
type Small = Board<6, 5>;
/// The small board with only the rules of the game.
type Plain = Restricted<6, 5, { rules::NONE }>;
/// The small board with the threat analysis alone.
type Threats = Restricted<6, 5, { rules::WIN_NOW | rules::THREATS }>;

fn board(moves: &str) -> Small {
    Small::from_moves(moves).unwrap()
}

/// The reference solver's value for the side to move.
fn reference_value<const W: usize, const H: usize>(moves: &str) -> Value {
    let mut p = Position::<W, H>::from_moves(moves).unwrap();
    Solver::<W, H>::new(1 << 18).value(&mut p).unwrap()
}

/// The listed moves, 1-based.
fn listed<G: Game<Move = Column>>(g: &G) -> Vec<u8> {
    let mut slots = [Column::default(); 9];
    let mut list = MoveList::new(&mut slots);
    g.generate_moves(&mut list);
    list.as_slice().iter().map(|c| c.0 + 1).collect()
}

/// df-pn's value of `g` and its MID calls (7×6 at most).
fn dfpn_value<G: Game>(g: &mut G) -> (Value, u64) {
    let mut memory = vec![0u8; Table::required_bytes(1 << 14)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<G>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<G>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
    let r = dfpn.solve_value(g, &mut table, &mut Limits::default());
    (r.value.expect("solved"), r.stats.mid_calls)
}

/// Checks that plain df-pn and df-pn with every rule agree with the reference on `moves`.
fn values_agree<const W: usize, const H: usize>(moves: &str) -> Value {
    let want = reference_value::<W, H>(moves);
    let b = Board::<W, H>::from_moves(moves).unwrap();
    let plain = Restricted::<W, H, { rules::NONE }>::from(b);
    assert_eq!(dfpn_value(&mut { plain }).0, want, "{moves}");
    assert_eq!(dfpn_value(&mut { b }).0, want, "{moves}");
    want
}

/// True when the side to move in `moves` can connect four at once, by the reference's grid.
fn reference_wins_now(moves: &str) -> bool {
    Position::<6, 5>::from_moves(moves).unwrap().can_win_now()
}

#[test]
fn an_immediate_win_is_reported() {
    // First has three stones in column 1 and is to move.
    let moves = "121212";
    assert_eq!(board(moves).outcome(), Outcome::Win);
    assert_eq!(Plain::from(board(moves)).outcome(), Outcome::Unknown);
    assert_eq!(values_agree::<6, 5>(moves), Value::Win);
}

#[test]
fn a_single_threat_must_be_blocked() {
    // First threatens the fourth cell of column 1; Second must block there.
    let moves = "12121";
    assert_eq!(listed(&board(moves)), [1]);
    assert_eq!(listed(&Plain::from(board(moves))).len(), 6);
    assert_eq!(board(moves).outcome(), Outcome::Unknown);
    // Every other move lets First connect four at once.
    for c in 2..=6 {
        assert!(reference_wins_now(&format!("{moves}{c}")), "{moves}{c}");
    }
    values_agree::<6, 5>(moves);
}

#[test]
fn two_threats_lose() {
    // First holds columns 2, 3, 4 of the bottom row with 1 and 5 open: Second cannot block both.
    let moves = "26364";
    assert_eq!(board(moves).outcome(), Outcome::Loss);
    assert_eq!(Threats::from(board(moves)).outcome(), Outcome::Loss);
    assert_eq!(Plain::from(board(moves)).outcome(), Outcome::Unknown);
    assert_eq!(values_agree::<6, 5>(moves), Value::Loss);
}

#[test]
fn a_block_under_a_second_threat_loses() {
    // First holds columns 2-4 of the two bottom rows (Second column 5 of both): blocking the
    // bottom cell of column 1 lets First connect four on top of the block.
    let moves = "25354626324";
    assert_eq!(listed(&Plain::from(board(moves))).len(), 6);
    assert_eq!(board(moves).outcome(), Outcome::Loss);
    assert_eq!(Plain::from(board(moves)).outcome(), Outcome::Unknown);
    assert!(reference_wins_now(&format!("{moves}1")));
    assert_eq!(values_agree::<6, 5>(moves), Value::Loss);
}

#[test]
fn moves_under_a_threat_are_left_out() {
    // First threatens row 2 of columns 1 and 5, both still empty: a stone there lets First
    // connect four on top of it. The other five moves are listed.
    let moves = "3224463";
    let with = listed(&board(moves));
    assert_eq!(with.len(), 4, "{with:?}");
    assert!(!with.contains(&1) && !with.contains(&5), "{with:?}");
    assert_eq!(listed(&Plain::from(board(moves))).len(), 6);
    for c in [1, 5] {
        assert!(reference_wins_now(&format!("{moves}{c}")), "{moves}{c}");
    }
    values_agree::<6, 5>(moves);
}

/// Checks that the 6×4 position after `moves` has the bound `outcome`, which the same board
/// without the bounds rule does not see, and that the reference solver's value admits it.
fn bound_on_6x4(moves: &str, outcome: Outcome) -> Board<6, 4> {
    let b = Board::<6, 4>::from_moves(moves).unwrap();
    assert_eq!(b.outcome(), outcome, "{moves}");
    assert_eq!(
        Restricted::<6, 4, { rules::ALL & !rules::BOUNDS }>::from(b).outcome(),
        Outcome::Unknown,
        "{moves} without the bounds"
    );
    let value = values_agree::<6, 4>(moves);
    assert!(outcome.admits(value), "{moves}: {outcome:?} but {value:?}");
    b
}

#[test]
fn claimeven_bounds_who_can_win() {
    // 6×4: column 3 holds Second, First, Second, First from the bottom, column 1 First, Second.
    // Every column has an even number of empty cells and First is to move: Second can answer
    // every stone on top of it, so First only ever gets cells of rows 1 and 3, and Second's
    // stones in column 3 block every four there. First cannot win.
    let b = bound_on_6x4("133331", Outcome::CannotWin);
    // The moves are still listed (a bound is not the end of the game).
    assert!(!listed(&b).is_empty());
    // One stone earlier, Second to move: column 1 has an odd number of empty cells; Second
    // plays there and answers on top from then on. Second cannot lose.
    let mut b = bound_on_6x4("13333", Outcome::CannotLose);
    // A search for First as the attacker is disproved at the root at once.
    type B = Board<6, 4>;
    let mut memory = vec![0u8; Table::required_bytes(1 << 10)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<B>::stack_bytes(24, 6)];
    let mut dfpn = Dfpn::<B>::new(&mut stack, 24, 6, DfpnConfig::default()).unwrap();
    let r = dfpn.solve(&mut b, Player::First, &mut table, &mut Limits::default());
    assert_eq!(
        (r.status, r.stats.mid_calls),
        (Status::Disproven, 0),
        "{r:?}"
    );
}

#[test]
fn pairing_across_columns_bounds_who_can_win() {
    // 6×4, First to move: columns 1 and 3 have an odd number of empty cells (3 and 1), the
    // rest four. Second pairs column 1's first empty cell with column 3's last (when First
    // takes one, Second takes the other) and answers on top everywhere else, so First gets
    // rows 1 and 3 of the even columns, row 3 of column 1 and at most one of the paired
    // cells: no four. Plain claimeven needs every column even and says nothing.
    bound_on_6x4("1333", Outcome::CannotWin);
    // Second to move with three odd columns (1, 3 and 5): after a stone of its own the odd
    // columns pair up, and First, to move then, gets too little to connect four.
    bound_on_6x4("13335", Outcome::CannotLose);
}

#[test]
fn aftereven_wins_for_the_pairing_player() {
    // 6×4, First to move. First holds columns 1 and 2's bottom cells and column 2's second,
    // Second column 3's two bottom cells and column 2's third. Columns 1 and 2 have an odd
    // number of empty cells: Second pairs their first empty cells across and answers on top
    // everywhere else, so it gets row 2 (counted from 1) of columns 4 to 6 and completes row 2
    // from column 3 to 6. First's only four left, row 3 of columns 3 to 6, needs the cells
    // above those three, which fill only after them: Second connects first. First loses.
    bound_on_6x4("232312", Outcome::Loss);
}

#[test]
fn bounds_on_random_7x6_positions_agree_with_the_reference() {
    // Random games of 16 to 40 stones: every bound (and every loss from the opponent's
    // pairing, aftereven) the game reports is checked against the reference solver, each
    // kind must occur, and the pairing strategies must give bounds of both kinds that the
    // open-line test alone does not, with two or more columns of an odd number of empty
    // cells (paired across columns), which plain claimeven never pairs.
    let mut rng = 0x5eed_u64;
    let mut next = |n: usize| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((rng >> 33) % n as u64) as usize
    };
    let mut solver = Solver::<7, 6>::new(1 << 18);
    let mut fired = [0usize; 4]; // CannotWin, CannotLose, Draw, Loss
    let mut paired_across = [0usize; 2]; // CannotWin, CannotLose
    let mut tried = 0;
    while tried < 10_000 {
        let stones = 16 + next(25);
        let mut p = Position::<7, 6>::new();
        let mut moves = String::new();
        while moves.len() < stones && !p.is_over() {
            let open: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
            let c = open[next(open.len())];
            p.play(c);
            moves.push(char::from(b'1' + c as u8));
        }
        if p.is_over() {
            continue;
        }
        tried += 1;
        let board = ConnectFour::from_moves(&moves).unwrap();
        let outcome = board.outcome();
        let without_bounds = Restricted::<7, 6, { rules::ALL & !rules::BOUNDS }>::from(board);
        let slot = match outcome {
            Outcome::CannotWin => 0,
            Outcome::CannotLose => 1,
            Outcome::Draw => 2,
            // A loss the threats do not see: the opponent's pairing wins (aftereven).
            Outcome::Loss if without_bounds.outcome() != Outcome::Loss => 3,
            _ => continue,
        };
        let value = solver.value(&mut p).unwrap();
        assert!(outcome.admits(value), "{moves}: {outcome:?} but {value:?}");
        fired[slot] += 1;
        let grid = Grid::new(&moves);
        let mover = 1 + (moves.len() % 2) as u8;
        // The player the bound denies a win still has a four in its stones and the empty
        // cells: only a pairing gives this bound.
        let denied = if slot == 0 { mover } else { 3 - mover };
        if slot < 2 && grid.open_line(denied) && grid.odd_columns() >= 2 {
            paired_across[slot] += 1;
        }
    }
    assert!(
        fired.iter().all(|&n| n > 0) && paired_across.iter().all(|&n| n > 0),
        "bounds fired {fired:?} times, {paired_across:?} from pairings across columns"
    );
}

/// A plain grid for the move-order check: `cells[c][r]` is 0, 1 (First) or 2.
struct Grid {
    cells: [[u8; 6]; 7],
}

impl Grid {
    fn new(moves: &str) -> Grid {
        let mut g = Grid { cells: [[0; 6]; 7] };
        for (i, ch) in moves.bytes().enumerate() {
            let c = (ch - b'1') as usize;
            let r = g.cells[c].iter().position(|&x| x == 0).unwrap();
            g.cells[c][r] = 1 + (i % 2) as u8;
        }
        g
    }

    fn at(&self, c: i32, r: i32) -> Option<u8> {
        ((0..7).contains(&c) && (0..6).contains(&r)).then(|| self.cells[c as usize][r as usize])
    }

    /// True when some four cells in a row hold no stone of the other player than `who`.
    fn open_line(&self, who: u8) -> bool {
        (0..7).any(|c| {
            (0..6).any(|r| {
                [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    (0..4)
                        .all(|k| matches!(self.at(c + k * dc, r + k * dr), Some(x) if x != 3 - who))
                })
            })
        })
    }

    /// The columns with an odd number of empty cells.
    fn odd_columns(&self) -> usize {
        self.cells
            .iter()
            .filter(|column| column.iter().filter(|&&x| x == 0).count() % 2 == 1)
            .count()
    }

    /// Empty cells where a stone of `who` would complete four in a row.
    fn threats(&self, who: u8) -> usize {
        let mut n = 0;
        for c in 0..7 {
            for r in 0..6 {
                if self.cells[c as usize][r as usize] != 0 {
                    continue;
                }
                let four = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    let run = |s: i32| {
                        (1..4)
                            .take_while(|&k| self.at(c + s * k * dc, r + s * k * dr) == Some(who))
                            .count()
                    };
                    run(1) + run(-1) >= 3
                });
                n += usize::from(four);
            }
        }
        n
    }
}

#[test]
fn moves_come_by_the_threats_they_create_then_centre_first() {
    let centre_rank = |c: u8| {
        [4u8, 3, 5, 2, 6, 1, 7]
            .iter()
            .position(|&x| x == c)
            .unwrap()
    };
    let mut checked = 0;
    for line in suite::parse(include_str!("../suites/c4-middle.txt")).unwrap() {
        let b = ConnectFour::from_moves(&line.moves).unwrap();
        if b.outcome() != Outcome::Unknown {
            continue;
        }
        let mover = 1 + (line.moves.len() % 2) as u8;
        let keys: Vec<(usize, usize)> = listed(&b)
            .iter()
            .map(|&c| {
                let grid = Grid::new(&format!("{}{c}", line.moves));
                (grid.threats(mover), centre_rank(c))
            })
            .collect();
        // Most threats first; among equals, centre first.
        for pair in keys.windows(2) {
            let ((t0, r0), (t1, r1)) = (pair[0], pair[1]);
            assert!(t0 > t1 || (t0 == t1 && r0 < r1), "{}: {keys:?}", line.moves);
        }
        checked += usize::from(keys.iter().any(|k| k.0 != keys[0].0));
    }
    assert!(
        checked > 20,
        "only {checked} positions where the order matters"
    );
}

#[test]
fn knowledge_reduces_the_search_and_keeps_every_answer() {
    // The late suite, solved with every rule, with the threat analysis alone and with none:
    // the values agree with the reference scores, and each step saves MID calls.
    fn total<G: Game + From<ConnectFour>>(lines: &[suite::Line]) -> u64 {
        let mut memory = vec![0u8; Table::required_bytes(1 << 14)];
        let mut table = Table::new(&mut memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<G>::stack_bytes(42, 7)];
        let mut dfpn = Dfpn::<G>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
        let mut mid_calls = 0;
        for line in lines {
            table.clear();
            let v = suite::solve_line(line, &mut dfpn, &mut table, &mut Limits::default()).unwrap();
            assert!(v.agrees_with(line), "{line}: {v:?}");
            mid_calls += v.mid_calls;
        }
        mid_calls
    }
    let lines = suite::parse(include_str!("../suites/c4-late.txt")).unwrap();
    let all = total::<ConnectFour>(&lines);
    let no_estimate = total::<Restricted<7, 6, { rules::ALL & !rules::ESTIMATE }>>(&lines);
    let threats = total::<Restricted<7, 6, { rules::WIN_NOW | rules::THREATS }>>(&lines);
    let plain = total::<Restricted<7, 6, { rules::NONE }>>(&lines);
    assert!(all < threats && threats < plain, "{all} {threats} {plain}");
    assert!(all < no_estimate, "{all} {no_estimate}");
}
