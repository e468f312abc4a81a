//! The parallel solver on real games against independent answers, and its limits and errors.
#![cfg(feature = "std")]

mod common;

use core::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::TicTacToe;
use proofnum::{
    Dfpn, DfpnConfig, Game, Limits, MemoryError, MoveList, Outcome, ParallelConfig, ParallelLimits,
    ParallelProgress, ParallelSolver, Player, Reason, Status, Value,
};
use proofnum::{SharedTable, Table};
use proofnum_games::connect4::{ConnectFour, suite};

fn config(threads: usize, job_work: u64) -> ParallelConfig {
    ParallelConfig {
        threads,
        job_work,
        split_work: 2 * job_work,
        max_depth: 64,
        max_moves: 9,
        ..ParallelConfig::default()
    }
}

#[test]
fn tic_tac_toe_is_a_draw_on_any_number_of_threads() {
    for threads in [1, 2, 3, 8] {
        let mut memory = vec![0u8; Table::required_bytes(1 << 10)];
        let table = SharedTable::new(&mut memory).unwrap();
        let solver = ParallelSolver::new(config(threads, 20)).unwrap();
        let game = TicTacToe::default();
        for attacker in [Player::First, Player::Second] {
            let r = solver.solve(&game, attacker, &table, &mut ParallelLimits::none());
            assert_eq!(
                r.status,
                Status::Disproven,
                "{threads} threads, {attacker:?}"
            );
            assert!(r.stats.jobs > 1, "small jobs split the work");
            assert!(r.stats.tree_nodes_peak > 1, "the root tree grew");
        }
        let v = solver.solve_value(&game, &table, &mut ParallelLimits::none());
        assert_eq!(v.value, Ok(Value::Draw));
        assert_eq!(v.stats.threads, threads);
    }
}

/// Late-game Connect Four positions with scores from the games crate's independent alpha-beta
/// solver: 1, 2 and 4 threads agree with the score's sign, and with serial df-pn.
#[test]
fn connect_four_late_suite_matches_the_reference_scores() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/suites/c4-late.txt"
    ))
    .unwrap();
    let lines = suite::parse(&text).unwrap();
    let mut memory = vec![0u8; Table::required_bytes(1 << 14)];
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(64, 7)];
    let mut serial = Dfpn::<ConnectFour>::new(&mut stack, 64, 7, DfpnConfig::default()).unwrap();
    for (i, line) in lines.iter().enumerate().step_by(5) {
        let threads = [1, 2, 4][i % 3];
        let solver = ParallelSolver::new(ParallelConfig {
            max_moves: 7,
            ..config(threads, 200)
        })
        .unwrap();
        let game = line.position().unwrap();
        let parallel = {
            let mut table = SharedTable::new(&mut memory).unwrap();
            table.clear();
            solver.solve_value(&game, &table, &mut ParallelLimits::none())
        };
        assert_eq!(
            parallel.value,
            Ok(line.value()),
            "{line} with {threads} threads"
        );
        let mut table = Table::new(&mut memory).unwrap();
        let mut g = game;
        let one = serial.solve_value(&mut g, &mut table, &mut Limits::none());
        assert_eq!(one.value, parallel.value, "{line}: serial df-pn");
        if let (Ok(Value::Win), Some(mv)) = (parallel.value, parallel.best_move) {
            // The winning move leaves a position the reference solver scores as lost.
            let mut after = game;
            after.play(mv);
            let mut table = Table::new(&mut memory).unwrap();
            let v = serial.solve_value(&mut after, &mut table, &mut Limits::none());
            assert_eq!(v.value, Ok(Value::Loss), "{line}: best move {mv:?} wins");
        }
    }
}

#[test]
fn a_stop_from_another_thread_ends_the_search_with_stopped() {
    let mut memory = vec![0u8; Table::required_bytes(1 << 14)];
    let table = SharedTable::new(&mut memory).unwrap();
    let solver = ParallelSolver::new(ParallelConfig {
        threads: 2,
        max_moves: 7,
        ..ParallelConfig::default()
    })
    .unwrap();
    // The empty board takes far longer than this test waits.
    let game = ConnectFour::new();
    let stop = AtomicBool::new(false);
    let mut reports: Vec<ParallelProgress> = Vec::new();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        let mut record = |p: &ParallelProgress| reports.push(*p);
        let mut limits = ParallelLimits {
            stop: Some(&stop),
            progress: Some(&mut record),
            ..ParallelLimits::none()
        };
        solver.solve(&game, Player::First, &table, &mut limits)
    });
    assert_eq!(r.status, Status::Unknown(Reason::Stopped));
    assert_eq!(r.best_move, None);
    assert!(r.stats.jobs >= 1);
    // Progress snapshots only grow.
    assert!(reports.windows(2).all(|w| w[0].mid_calls <= w[1].mid_calls
        && w[0].jobs <= w[1].jobs
        && w[0].elapsed <= w[1].elapsed));
    // A stop flag already set stops before any job.
    let r = solver.solve(
        &game,
        Player::First,
        &table,
        &mut ParallelLimits {
            stop: Some(&stop),
            ..ParallelLimits::none()
        },
    );
    assert_eq!(r.status, Status::Unknown(Reason::Stopped));
    assert_eq!(r.stats.jobs, 0);
}

#[test]
fn node_work_and_time_limits_end_the_search_unknown() {
    let mut memory = vec![0u8; Table::required_bytes(1 << 12)];
    let table = SharedTable::new(&mut memory).unwrap();
    let solver = ParallelSolver::new(ParallelConfig {
        threads: 2,
        job_work: 500,
        max_moves: 7,
        ..ParallelConfig::default()
    })
    .unwrap();
    let game = ConnectFour::new();
    let r = solver.solve(
        &game,
        Player::First,
        &table,
        &mut ParallelLimits {
            max_nodes: 5_000,
            ..ParallelLimits::none()
        },
    );
    assert_eq!(r.status, Status::Unknown(Reason::NodeLimit));
    assert!(r.stats.nodes >= 5_000);
    let r = solver.solve(
        &game,
        Player::First,
        &table,
        &mut ParallelLimits {
            max_work: 3_000,
            ..ParallelLimits::none()
        },
    );
    assert_eq!(r.status, Status::Unknown(Reason::WorkLimit));
    // Each job gets what was left when it started: at most one job's budget over per thread.
    assert!(r.stats.mid_calls >= 3_000 && r.stats.mid_calls <= 3_000 + 2 * 500);
    let r = solver.solve(
        &game,
        Player::First,
        &table,
        &mut ParallelLimits {
            max_time: Some(Duration::from_millis(50)),
            ..ParallelLimits::none()
        },
    );
    assert_eq!(r.status, Status::Unknown(Reason::TimeLimit));
    // A time limit too long for microseconds in 64 bits is no limit, not a short one.
    let mut forever = ParallelLimits {
        max_time: Some(Duration::from_secs((1 << 58) + 1)),
        max_work: 20_000,
        ..ParallelLimits::none()
    };
    let r = solver.solve(&game, Player::First, &table, &mut forever);
    assert_eq!(r.status, Status::Unknown(Reason::WorkLimit));
}

/// Tic-tac-toe with a bug: once the centre is taken `has_failed` reports a broken position,
/// or, with `panics`, `play` panics on the last cell from the fourth stone on.
#[derive(Clone, Default)]
struct Faulty {
    inner: TicTacToe,
    panics: bool,
    failed: bool,
}

impl Game for Faulty {
    type Move = u8;
    fn side_to_move(&self) -> Player {
        self.inner.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn outcome(&self) -> Outcome {
        self.inner.outcome()
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        self.inner.generate_moves(moves)
    }
    fn play(&mut self, mv: u8) {
        if self.panics {
            assert!(mv != 8 || self.inner.cells.iter().filter(|&&c| c != 0).count() < 3);
        } else {
            self.failed |= mv == 4;
        }
        self.inner.play(mv)
    }
    fn undo(&mut self, mv: u8) {
        self.inner.undo(mv)
    }
    fn has_failed(&self) -> bool {
        self.failed
    }
}

#[test]
fn game_errors_and_small_buffers_are_reported_not_hidden() {
    let mut memory = vec![0u8; Table::required_bytes(64)];
    let table = SharedTable::new(&mut memory).unwrap();
    let solver = ParallelSolver::new(config(2, 5)).unwrap();
    let r = solver.solve(
        &Faulty::default(),
        Player::First,
        &table,
        &mut ParallelLimits::none(),
    );
    assert_eq!(r.status, Status::Unknown(Reason::GameError));
    let cramped = ParallelSolver::new(ParallelConfig {
        max_moves: 3,
        ..config(2, 5)
    })
    .unwrap();
    let r = cramped.solve(
        &TicTacToe::default(),
        Player::First,
        &table,
        &mut ParallelLimits::none(),
    );
    assert_eq!(r.status, Status::Unknown(Reason::TooManyMoves));
    let shallow = ParallelSolver::new(ParallelConfig {
        max_depth: 3,
        ..config(2, 5)
    })
    .unwrap();
    let r = shallow.solve(
        &TicTacToe::default(),
        Player::First,
        &table,
        &mut ParallelLimits::none(),
    );
    assert_eq!(r.status, Status::Unknown(Reason::DepthLimit));
    for bad in [
        ParallelConfig {
            max_moves: 0,
            ..ParallelConfig::default()
        },
        ParallelConfig {
            max_depth: usize::MAX,
            ..ParallelConfig::default()
        },
    ] {
        assert_eq!(
            ParallelSolver::new(bad).err(),
            Some(MemoryError::Unsupported)
        );
    }
    let auto = ParallelSolver::new(ParallelConfig::default()).unwrap();
    assert!(auto.threads() >= 1);
}

/// A game that panics in one worker ends the whole search with that panic (no worker is left
/// waiting for the dead worker's job), for every thread count.
#[test]
fn a_panicking_game_reaches_the_caller() {
    for threads in [1, 2, 3, 8] {
        let mut memory = vec![0u8; Table::required_bytes(256)];
        let table = SharedTable::new(&mut memory).unwrap();
        let solver = ParallelSolver::new(config(threads, 3)).unwrap();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            solver.solve(
                &Faulty {
                    panics: true,
                    ..Faulty::default()
                },
                Player::First,
                &table,
                &mut ParallelLimits::none(),
            )
        }));
        let payload = outcome.expect_err("the panic was lost");
        // The game's own panic, not a wrapper of the thread pool.
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        assert!(
            message.contains("assertion failed"),
            "{threads} threads: {message:?}"
        );
    }
}

#[test]
fn a_terminal_root_needs_one_job() {
    let mut memory = vec![0u8; Table::required_bytes(16)];
    let table = SharedTable::new(&mut memory).unwrap();
    let solver = ParallelSolver::new(config(3, 10)).unwrap();
    // X has three in a row: O to move has lost.
    let game = TicTacToe {
        cells: [1, 1, 1, 2, 2, 0, 0, 0, 0],
        to_move: 1,
    };
    let r = solver.solve(&game, Player::First, &table, &mut ParallelLimits::none());
    assert_eq!(r.status, Status::Proven);
    assert_eq!(r.stats.jobs, 1);
    assert_eq!(r.best_move, None);
}

#[test]
fn thread_counts_above_the_bound_are_a_config_error() {
    // `threads` once had no upper bound.
    use proofnum::parallel::MAX_THREADS;
    let with = |threads| {
        ParallelSolver::new(ParallelConfig {
            threads,
            ..ParallelConfig::default()
        })
    };
    for threads in [MAX_THREADS + 1, 1 << 22, usize::MAX] {
        assert_eq!(
            with(threads).err(),
            Some(proofnum::memory::MemoryError::Unsupported),
            "{threads} threads"
        );
    }
    assert_eq!(with(MAX_THREADS).unwrap().threads(), MAX_THREADS);
    let per_core = with(0).unwrap().threads();
    assert!((1..=MAX_THREADS).contains(&per_core));
}
