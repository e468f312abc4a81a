//! Edge cases of df-pn with clear, specified results.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};

use common::TicTacToe;
use proofnum::Table;
use proofnum::{
    Dfpn, DfpnConfig, Game, Job, Limits, MemoryError, MoveList, Numbers, Outcome, Player, Reason,
    RepetitionRule, Status, TableError, Value,
};

/// Subtraction game: take 1..=3 stones, taking the last stone wins. A pile is lost for the
/// side to move exactly when it is a multiple of 4 (a standard result of Nim theory).
#[derive(Clone, Debug)]
struct Nim {
    stones: u32,
    to_move: Player,
    /// Set to make the game report a broken contract once this many moves were generated.
    fail_after: Option<u32>,
    generated: u32,
    failed: bool,
}

impl Nim {
    fn new(stones: u32) -> Nim {
        Nim {
            stones,
            to_move: Player::First,
            fail_after: None,
            generated: 0,
            failed: false,
        }
    }
}

impl Game for Nim {
    type Move = u32;
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;
    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn hash(&self) -> u64 {
        (self.stones as u64) << 1 | self.to_move.index() as u64
    }
    fn outcome(&self) -> Outcome {
        if self.stones == 0 {
            Outcome::Loss
        } else {
            Outcome::Unknown
        }
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u32>) {
        for take in 1..=self.stones.min(3) {
            moves.push(take);
        }
    }
    fn play(&mut self, take: u32) {
        self.stones -= take;
        self.to_move = self.to_move.opponent();
        self.generated += 1;
        if self.fail_after.is_some_and(|n| self.generated >= n) {
            self.failed = true;
        }
    }
    fn undo(&mut self, take: u32) {
        self.stones += take;
        self.to_move = self.to_move.opponent();
    }
    fn has_failed(&self) -> bool {
        self.failed
    }
}

/// A game whose positions have no moves but are not finished: scored by `no_moves_value`.
#[derive(Clone)]
struct Stuck(Value);

impl Game for Stuck {
    type Move = u8;
    fn side_to_move(&self) -> Player {
        Player::First
    }
    fn hash(&self) -> u64 {
        7
    }
    fn outcome(&self) -> Outcome {
        Outcome::Unknown
    }
    fn generate_moves(&self, _: &mut MoveList<'_, u8>) {}
    fn play(&mut self, _: u8) {}
    fn undo(&mut self, _: u8) {}
    fn no_moves_value(&self) -> Value {
        self.0
    }
}

fn with_nim<R>(
    max_depth: usize,
    max_moves: usize,
    f: impl FnOnce(&mut Dfpn<Nim>, &mut Table) -> R,
) -> R {
    let mut table_memory = vec![0u8; Table::required_bytes(256)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Nim>::stack_bytes(max_depth, max_moves)];
    let mut dfpn =
        Dfpn::<Nim>::new(&mut stack, max_depth, max_moves, DfpnConfig::default()).unwrap();
    f(&mut dfpn, &mut table)
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn nim_piles_match_the_multiple_of_four_rule() {
    with_nim(64, 3, |dfpn, table| {
        for stones in 0..40 {
            let mut game = Nim::new(stones);
            let v = dfpn.solve_value(&mut game, table, &mut Limits::default());
            let want = if stones % 4 == 0 {
                Value::Loss
            } else {
                Value::Win
            };
            assert_eq!(v.value, Ok(want), "{stones} stones");
            if want == Value::Win {
                assert_eq!(
                    v.best_move,
                    Some(stones % 4),
                    "{stones} stones: leave a multiple of 4"
                );
            }
            assert_eq!(game.stones, stones);
        }
    });
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn terminal_root_is_answered_without_search() {
    with_nim(8, 3, |dfpn, table| {
        let mut game = Nim::new(0); // First to move, no stones: First has lost.
        let r = dfpn.solve(&mut game, Player::Second, table, &mut Limits::default());
        assert_eq!(r.status, Status::Proven);
        assert_eq!(r.best_move, None);
        assert_eq!(r.stats.mid_calls, 0);
        assert_eq!(r.numbers, Numbers::LOSS);
        let r = dfpn.solve(&mut game, Player::First, table, &mut Limits::default());
        assert_eq!(r.status, Status::Disproven);
        assert_eq!(dfpn.root_children().count(), 0);
    });
}

#[test]
fn a_root_without_moves_is_scored_by_the_game_rule() {
    let mut table_memory = vec![0u8; Table::required_bytes(4)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Stuck>::stack_bytes(4, 4)];
    let mut dfpn = Dfpn::<Stuck>::new(&mut stack, 4, 4, DfpnConfig::default()).unwrap();
    for (rule, first_wins) in [
        (Value::Loss, false),
        (Value::Win, true),
        (Value::Draw, false),
    ] {
        let r = dfpn.solve(
            &mut Stuck(rule),
            Player::First,
            &mut table,
            &mut Limits::default(),
        );
        assert_eq!(r.is_proven(), first_wins, "{rule:?}");
        assert!(!r.is_unknown());
        assert_eq!(r.best_move, None);
        let v = dfpn.solve_value(&mut Stuck(rule), &mut table, &mut Limits::default());
        assert_eq!(v.value, Ok(rule));
        table.clear();
    }
}

#[test]
fn a_move_buffer_too_small_is_reported_and_the_position_restored() {
    with_nim(64, 2, |dfpn, table| {
        let mut game = Nim::new(10); // three moves, buffer of two
        let r = dfpn.solve(&mut game, Player::First, table, &mut Limits::default());
        assert_eq!(r.status, Status::Unknown(Reason::TooManyMoves));
        assert_eq!((game.stones, game.to_move), (10, Player::First));
    });
    // Deeper in the tree: two moves at the root, three below.
    with_nim(64, 2, |dfpn, table| {
        let mut game = Nim::new(2);
        game.stones = 2;
        let r = dfpn.solve(&mut game, Player::First, table, &mut Limits::default());
        assert!(r.is_proven(), "2 stones: take both");
    });
    let mut t = TicTacToe::default();
    let mut table_memory = vec![0u8; Table::required_bytes(64)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 8)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 8, DfpnConfig::default()).unwrap();
    let r = dfpn.solve(&mut t, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::TooManyMoves));
    assert_eq!(t.cells, [0; 9]);
}

#[test]
fn a_stack_too_shallow_for_the_line_is_reported() {
    with_nim(5, 3, |dfpn, table| {
        let mut game = Nim::new(30); // lines of up to 30 plies
        let r = dfpn.solve(&mut game, Player::First, table, &mut Limits::default());
        assert_eq!(r.status, Status::Unknown(Reason::DepthLimit));
        assert_eq!((game.stones, game.to_move), (30, Player::First));
    });
}

#[test]
fn buffers_that_are_too_small_are_rejected() {
    let mut tiny = [0u8; 100];
    assert!(matches!(
        Table::new(&mut tiny),
        Err(TableError::TooSmall { .. })
    ));
    let need = Dfpn::<Nim>::stack_bytes(10, 3);
    let mut stack = vec![0u8; need - 64];
    assert!(matches!(
        Dfpn::<Nim>::new(&mut stack, 10, 3, DfpnConfig::default()),
        Err(MemoryError::TooSmall { .. })
    ));
    let mut stack = vec![0u8; need];
    assert!(Dfpn::<Nim>::new(&mut stack, 10, 0, DfpnConfig::default()).is_err());
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn stack_bytes_is_enough_at_any_alignment() {
    let need = Dfpn::<TicTacToe>::stack_bytes(9, 9);
    let mut buf = vec![0u8; need + 16];
    for offset in 0..16 {
        let stack = &mut buf[offset..offset + need];
        assert!(
            Dfpn::<TicTacToe>::new(stack, 9, 9, DfpnConfig::default()).is_ok(),
            "offset {offset}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn limits_stop_the_search_without_a_false_answer() {
    let mut table_memory = vec![0u8; Table::required_bytes(1024)];
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();

    let mut table = Table::new(&mut table_memory).unwrap();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::nodes(50));
    assert_eq!(r.status, Status::Unknown(Reason::NodeLimit));
    assert!(
        r.stats.nodes <= 50 + 9,
        "stops within one expansion of the limit"
    );
    assert!(r.best_move.is_some(), "reports the move it was searching");
    assert!(!r.numbers.is_solved());

    let mut table = Table::new(&mut table_memory).unwrap();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::work(10));
    assert_eq!(r.status, Status::Unknown(Reason::WorkLimit));
    assert_eq!(r.stats.mid_calls, 10);

    let stop = AtomicBool::new(true);
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut limits = Limits {
        stop: Some(&stop),
        ..Limits::default()
    };
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Unknown(Reason::Stopped));

    // A clock that advances 1 ms per reading (it is read every 1024 MID calls); the limit is
    // 2 ms. A one-bucket table makes tic-tac-toe long enough.
    let mut now = 0u64;
    let mut clock = move || {
        now += 1000;
        now
    };
    let mut table = Table::new(&mut table_memory[..Table::MIN_BYTES]).unwrap();
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: 2000,
        ..Limits::default()
    };
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Unknown(Reason::TimeLimit));
    assert!(r.stats.elapsed_us.unwrap() >= 2000);
    assert_eq!(game.cells, [0; 9]);
}

#[test]
fn a_stop_from_another_thread_ends_a_long_search() {
    // Nim with a one-bucket table and classic thresholds is slow enough to still be running.
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            stop.store(true, Ordering::Relaxed);
        });
        let mut table_memory = vec![0u8; Table::MIN_BYTES];
        let mut table = Table::new(&mut table_memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
        let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
        let mut limits = Limits {
            stop: Some(&stop),
            ..Limits::default()
        };
        // Solve repeatedly until the flag lands; each solve either finishes or stops.
        loop {
            let mut game = TicTacToe::default();
            let r = dfpn.solve(&mut game, Player::First, &mut table, &mut limits);
            assert_ne!(r.status, Status::Proven, "tic-tac-toe is a draw");
            assert_eq!(game.cells, [0; 9]);
            if r.status == Status::Unknown(Reason::Stopped) {
                break;
            }
            table.clear();
        }
    });
}

#[test]
fn a_broken_game_stops_with_game_error() {
    with_nim(64, 3, |dfpn, table| {
        let mut game = Nim::new(21);
        game.fail_after = Some(5);
        let r = dfpn.solve(&mut game, Player::First, table, &mut Limits::default());
        assert_eq!(r.status, Status::Unknown(Reason::GameError));
    });
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn history_makes_a_repeated_root_a_repetition() {
    let mut table_memory = vec![0u8; Table::required_bytes(16)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(12, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 12, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    game.play(4);
    // The same position in the history: a repetition, a draw under the default rule, which
    // disproves either attacker and holds for this path only.
    let history = [1, game.hash()];
    for attacker in [Player::First, Player::Second] {
        let job = Job {
            attacker,
            threshold: Numbers::new(u32::MAX, u32::MAX),
            history: &history,
        };
        let r = dfpn.search(&mut game, &job, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Disproven);
        assert!(r.path_dependent);
    }
    // A history longer than the stack is a depth problem, not a crash.
    let long = [0u64; 20];
    let job = Job {
        attacker: Player::First,
        threshold: Numbers::new(u32::MAX, u32::MAX),
        history: &long,
    };
    let r = dfpn.search(&mut game, &job, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::DepthLimit));
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn finite_thresholds_end_a_job_with_its_numbers_and_children() {
    let mut table_memory = vec![0u8; Table::required_bytes(1024)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    let job = Job {
        attacker: Player::First,
        threshold: Numbers::new(3, 3),
        history: &[],
    };
    let r = dfpn.search(&mut game, &job, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::Thresholds));
    assert!(r.numbers.phi >= 3 || r.numbers.delta >= 3);
    let children: Vec<_> = dfpn.root_children().collect();
    assert_eq!(children.len(), 9);
    // The root's δ is the sum of its children's φ (children seen from their own side).
    let sum: u32 = children.iter().map(|(_, n, _)| n.delta).sum();
    assert_eq!(r.numbers.delta, sum);
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn a_saved_table_is_reused_after_loading() {
    let mut memory = vec![0u8; Table::required_bytes(1 << 12)];
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    let (first, saved) = {
        let mut table = Table::new(&mut memory).unwrap();
        let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
        (r, table.as_bytes().to_vec())
    };
    let mut other = vec![0u8; saved.len() + 100];
    let mut table = Table::load(&mut other[3..], &saved).unwrap();
    let again = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(again.status, first.status);
    assert!(
        again.stats.mid_calls * 10 < first.stats.mid_calls,
        "the loaded table answers most of it: {} vs {}",
        again.stats.mid_calls,
        first.stats.mid_calls
    );
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn epsilon_zero_and_quarter_agree_and_report_statistics() {
    for epsilon in [proofnum::Epsilon::ZERO, proofnum::Epsilon::QUARTER] {
        let mut table_memory = vec![0u8; Table::required_bytes(64)];
        let mut table = Table::new(&mut table_memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
        let mut dfpn = Dfpn::<TicTacToe>::new(
            &mut stack,
            9,
            9,
            DfpnConfig {
                epsilon,
                ..Default::default()
            },
        )
        .unwrap();
        let r = dfpn.solve(
            &mut TicTacToe::default(),
            Player::First,
            &mut table,
            &mut Limits::default(),
        );
        assert_eq!(r.status, Status::Disproven);
        assert!(r.stats.mid_calls > 0 && r.stats.nodes >= r.stats.mid_calls);
        assert_eq!(
            r.stats.table.stores, r.stats.mid_calls,
            "one store per MID call"
        );
        assert!(r.stats.table.probes >= r.stats.table.hits);
        assert!(r.stats.max_depth >= 5 && r.stats.max_depth <= 9);
    }
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn progress_reports_arrive_during_a_long_search() {
    let mut table_memory = vec![0u8; Table::MIN_BYTES];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut seen: Vec<proofnum::Progress> = Vec::new();
    let mut record = |p: &proofnum::Progress| seen.push(*p);
    let mut limits = Limits {
        progress: Some(&mut record),
        ..Limits::default()
    };
    let r = dfpn.solve(
        &mut TicTacToe::default(),
        Player::First,
        &mut table,
        &mut limits,
    );
    assert_eq!(r.status, Status::Disproven);
    let expected = r.stats.mid_calls / proofnum::CLOCK_POLL_INTERVAL;
    assert!(expected >= 1, "a one-bucket table makes this search long");
    assert_eq!(seen.len() as u64, expected);
    assert!(seen.windows(2).all(|w| w[0].mid_calls < w[1].mid_calls));
    assert!(
        seen.iter()
            .all(|p| !p.root.is_solved() && p.elapsed_us.is_none())
    );
}

#[test]
#[cfg_attr(miri, ignore = "a full tic-tac-toe or Nim solve: minutes under Miri")]
fn walks_use_the_whole_stack_depth() {
    // Tic-tac-toe lines are at most 9 plies: a stack of exactly 9 must be enough for the
    // solve, the principal variation of a draw (which fills the board) and the proof check.
    let mut table_memory = vec![0u8; Table::required_bytes(1024)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Disproven);
    let mut line = [0u8; 9];
    let pv = dfpn.principal_variation(
        &mut game,
        Player::First,
        &mut table,
        &mut line,
        &mut Limits::default(),
    );
    assert_eq!((pv.len, pv.cut), (9, None), "a drawn line fills the board");
    let mut memo = vec![0u64; 4096];
    let check = dfpn.verify(
        &mut game,
        Player::First,
        Status::Disproven,
        &mut table,
        &mut memo,
        &mut Limits::default(),
    );
    assert_eq!(check.verdict, proofnum::Verdict::Verified);
    // A stack far too shallow is reported as such, not crashed on. (Eight plies would still
    // do: the last position's children are finished games, scored without a frame.)
    let mut short = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(4, 9)];
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut short, 4, 9, DfpnConfig::default()).unwrap();
    table.clear();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::DepthLimit));
    assert_eq!(game.cells, [0; 9]);
}

#[test]
fn a_line_longer_than_a_shallow_stack_is_cut_not_crashed_on() {
    // Found by the capi_game fuzz target: a table filled by a deep searcher lets a searcher
    // with a shallow stack walk the principal variation down to its last frame, and playing
    // the move found there stepped past the frames. 13 stones (1 mod 4): the winner leaves
    // multiples of 4, so the line has 7 moves, more than a 3-ply stack holds.
    with_nim(64, 3, |deep, table| {
        let mut game = Nim::new(13);
        let r = deep.solve(&mut game, Player::First, table, &mut Limits::default());
        assert_eq!(r.status, Status::Proven);
        let mut stack = vec![0u8; Dfpn::<Nim>::stack_bytes(3, 3)];
        let mut shallow = Dfpn::<Nim>::new(&mut stack, 3, 3, DfpnConfig::default()).unwrap();
        let mut line = [0u32; 16];
        let pv = shallow.principal_variation(
            &mut game,
            Player::First,
            table,
            &mut line,
            &mut Limits::default(),
        );
        assert_eq!(pv.cut, Some(Reason::DepthLimit), "{pv:?}");
        assert_eq!(game.stones, 13, "the position is restored");
        // The moves found are the winner's and the loser's, each leaving the winner a
        // multiple of 4 to leave.
        let mut stones = 13;
        for (ply, &take) in line[..pv.len].iter().enumerate() {
            assert!((1..=3).contains(&take) && take <= stones);
            stones -= take;
            if ply % 2 == 0 {
                assert_eq!(stones % 4, 0, "the winner leaves a multiple of 4");
            }
        }
    });
}

/// A defender node with deferred replies (`Game::deferred_moves`): the root R (First to move)
/// has one move, to A (Second to move), whose replies are B0 (First wins at once), B1 (First
/// to move, one move to C, whose outcome is set) and the deferred B2 and B3 (their outcomes
/// set).
#[derive(Clone, Debug)]
struct Deferring {
    at: u8,
    /// Outcomes for the side to move of C (index 0), B2 and B3.
    c: Outcome,
    b2: Outcome,
    b3: Outcome,
    deferred: usize,
    /// How often each position was entered by `play`.
    plays: [u32; 7],
}

impl Deferring {
    const R: u8 = 0;
    const A: u8 = 1;
    const B0: u8 = 2;
    const B1: u8 = 3;
    const B2: u8 = 4;
    const B3: u8 = 5;
    const C: u8 = 6;

    fn new(c: Outcome, b2: Outcome, b3: Outcome, deferred: usize) -> Deferring {
        Deferring {
            at: Self::R,
            c,
            b2,
            b3,
            deferred,
            plays: [0; 7],
        }
    }

    fn parent(at: u8) -> u8 {
        match at {
            Self::A => Self::R,
            Self::C => Self::B1,
            _ => Self::A,
        }
    }
}

impl Game for Deferring {
    type Move = u8; // the position moved to
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        match self.at {
            Self::A | Self::C => Player::Second,
            _ => Player::First,
        }
    }
    fn hash(&self) -> u64 {
        u64::from(self.at).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }
    fn outcome(&self) -> Outcome {
        match self.at {
            Self::B0 => Outcome::Win,
            Self::B2 => self.b2,
            Self::B3 => self.b3,
            Self::C => self.c,
            _ => Outcome::Unknown,
        }
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        match self.at {
            Self::R => moves.push(Self::A),
            Self::A => [Self::B0, Self::B1, Self::B2, Self::B3]
                .into_iter()
                .for_each(|m| moves.push(m)),
            Self::B1 => moves.push(Self::C),
            _ => {}
        }
    }
    fn deferred_moves(&self) -> usize {
        if self.at == Self::A { self.deferred } else { 0 }
    }
    fn play(&mut self, mv: u8) {
        assert_eq!(Self::parent(mv), self.at, "a move from another position");
        self.at = mv;
        self.plays[mv as usize] += 1;
    }
    fn undo(&mut self, mv: u8) {
        assert_eq!(self.at, mv, "undo of a move not played");
        self.at = Self::parent(mv);
    }
}

fn solve_deferring(game: &mut Deferring) -> Status {
    let mut table_memory = vec![0u8; Table::required_bytes(64)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Deferring>::stack_bytes(8, 4)];
    let mut dfpn = Dfpn::<Deferring>::new(&mut stack, 8, 4, DfpnConfig::default()).unwrap();
    let r = dfpn.solve(game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(game.at, Deferring::R, "position not restored");
    r.status
}

#[test]
fn deferred_replies_are_made_only_once_the_others_have_failed() {
    use Outcome::{Loss, Win};
    // B1 refutes (C is won for Second, to move there): B2 and B3 are never made.
    let mut game = Deferring::new(Win, Win, Win, 2);
    assert_eq!(solve_deferring(&mut game), Status::Disproven);
    assert!(game.plays[Deferring::B1 as usize] > 0);
    assert_eq!(
        game.plays[Deferring::B2 as usize..=Deferring::B3 as usize],
        [0, 0]
    );
    // The same without deferral makes them as A is expanded.
    let mut game = Deferring::new(Win, Win, Win, 0);
    assert_eq!(solve_deferring(&mut game), Status::Disproven);
    assert!(game.plays[Deferring::B2 as usize] > 0);
    // B0 and B1 fail for Second (C is lost for it), so the deferred replies are made: B3,
    // lost for First, refutes.
    let mut game = Deferring::new(Loss, Win, Loss, 2);
    assert_eq!(solve_deferring(&mut game), Status::Disproven);
    assert!(game.plays[Deferring::B3 as usize] > 0);
    // Whatever the count (above 4: all of A's replies): every reply fails for Second, so A
    // is proven after making the deferred ones; and with only the deferred B3 refuting, A is
    // disproven.
    for deferred in [1, 2, 3, 4, 9] {
        let mut game = Deferring::new(Loss, Win, Win, deferred);
        assert_eq!(
            solve_deferring(&mut game),
            Status::Proven,
            "{deferred} deferred"
        );
        assert!(game.plays[Deferring::B2 as usize] > 0 && game.plays[Deferring::B3 as usize] > 0);
        let mut game = Deferring::new(Loss, Win, Loss, deferred);
        assert_eq!(
            solve_deferring(&mut game),
            Status::Disproven,
            "{deferred} deferred"
        );
    }
}
