//! PNS edge cases with clear expected results: a full arena, every limit, a terminal root,
//! bad games, bad buffers, history and thresholds.

mod common;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use common::TicTacToe;
use proofnum::Table;
use proofnum::TranspositionNumbers;
use proofnum::dfpn::Job;
use proofnum::{
    Game, Limits, MemoryError, MoveList, Numbers, Outcome, Player, Pns, PnsConfig, Reason,
    RepetitionRule, Status, Value,
};

/// Take 1, 2 or 3 stones; whoever takes the last stone wins. Multiples of 4 are lost for the
/// side to move (the classic analysis of subtraction games).
struct Nim {
    stones: u32,
    to_move: Player,
}

impl Game for Nim {
    type Move = u8;
    // Every move takes stones: no position repeats.
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
    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        (1..=self.stones.min(3) as u8).for_each(|take| moves.push(take));
    }
    fn play(&mut self, take: u8) {
        self.stones -= take as u32;
        self.to_move = self.to_move.opponent();
    }
    fn undo(&mut self, take: u8) {
        self.stones += take as u32;
        self.to_move = self.to_move.opponent();
    }
}

fn pns_memory<G: Game>(nodes: usize, depth: usize, moves: usize, config: PnsConfig) -> Vec<u8> {
    vec![0u8; Pns::<G>::required_bytes(nodes, depth, moves, config)]
}

fn table_memory() -> Vec<u8> {
    vec![0u8; Table::required_bytes(256)]
}

#[test]
fn a_full_arena_gives_memory_limit_with_the_roots_numbers() {
    // Tic-tac-toe is a draw; disproving a first-player win needs far more than 30 nodes.
    let mut memory = pns_memory::<TicTacToe>(30, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = TicTacToe::default();
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::MemoryLimit));
    assert!(!r.numbers.is_solved());
    assert_ne!(
        r.numbers,
        Numbers::UNIT,
        "the root was expanded: its numbers are its tree's"
    );
    assert!(r.best_move.is_some(), "the move being searched");
    assert_eq!(game.cells, [0; 9], "position restored");
    let arena = pns.arena_stats();
    assert!(arena.compactions > 0, "it tried to reclaim first");
    assert_eq!(arena.capacity, 30);
    assert!(arena.peak_nodes <= 30);
    // The same searcher still works afterwards, and a larger arena solves it.
    let mut big = pns_memory::<TicTacToe>(20_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut big, 9, 9, PnsConfig::PNS).unwrap();
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Disproven);
}

#[test]
fn an_arena_of_one_node_solves_what_needs_no_tree() {
    // Nim with 3 stones: taking all wins at once, decided while expanding the root.
    let mut memory = pns_memory::<Nim>(1, 8, 3, PnsConfig::PNS);
    let mut pns = Pns::<Nim>::new(&mut memory, 8, 3, PnsConfig::PNS).unwrap();
    assert_eq!(pns.node_capacity(), 1);
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = Nim {
        stones: 3,
        to_move: Player::First,
    };
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Proven);
    assert_eq!(r.best_move, Some(3));
    assert_eq!(r.distance, 1);
    // Eight stones need a tree: the root's three children do not fit.
    game.stones = 8;
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::MemoryLimit));
    assert_eq!(game.stones, 8);
}

#[test]
fn nim_values_and_best_moves_match_the_analysis() {
    // Nim's positions transpose into one another at every move. Plain PNS does not merge
    // transpositions and its tree grows exponentially with the pile; sharing unsolved numbers
    // through the table keeps it small (16 stones need under 1 000 nodes plainly; 40 stones
    // need about 25 000 with shared numbers, where plain PNS fills 4 million and gives up).
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    for (config, piles) in [
        (
            PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::Off),
            16,
        ),
        // Nim declares itself acyclic: sharing is the default.
        (PnsConfig::PNS, 40),
        (PnsConfig::pn2(4096), 40),
    ] {
        let mut memory = pns_memory::<Nim>(1 << 16, 64, 3, config);
        let mut pns = Pns::<Nim>::new(&mut memory, 64, 3, config).unwrap();
        for stones in 1..=piles {
            table.clear();
            let mut game = Nim {
                stones,
                to_move: Player::Second,
            };
            let v = pns.solve_value(&mut game, &mut table, &mut Limits::default());
            if stones % 4 == 0 {
                assert_eq!(v.value, Ok(Value::Loss), "{stones} stones, {config:?}");
            } else {
                assert_eq!(v.value, Ok(Value::Win), "{stones} stones, {config:?}");
                assert_eq!(v.best_move, Some((stones % 4) as u8), "{stones} stones");
            }
            assert_eq!(game.stones, stones);
        }
    }
}

#[test]
fn node_and_work_limits_stop_the_search() {
    let mut memory = pns_memory::<TicTacToe>(100_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = TicTacToe::default();

    let r = pns.solve(
        &mut game,
        Player::First,
        &mut table,
        &mut Limits::nodes(100),
    );
    assert_eq!(r.status, Status::Unknown(Reason::NodeLimit));
    // Checked before every expansion, so at most one expansion's children beyond the limit.
    assert!((100..100 + 9).contains(&r.stats.nodes), "{}", r.stats.nodes);
    assert!(!r.numbers.is_solved());
    assert_eq!(game.cells, [0; 9]);

    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::work(25));
    assert_eq!(r.status, Status::Unknown(Reason::WorkLimit));
    assert_eq!(r.stats.mid_calls, 25, "exactly the budget of expansions");
    assert_eq!(pns.arena_stats().first_level_expansions, 25);
    assert_eq!(game.cells, [0; 9]);
}

/// Tic-tac-toe that sets a stop flag after a number of moves, as another thread would.
struct StoppingGame<'a> {
    inner: TicTacToe,
    flag: &'a AtomicBool,
    plays_left: Cell<u32>,
}

impl Game for StoppingGame<'_> {
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
        let left = self.plays_left.get().saturating_sub(1);
        self.plays_left.set(left);
        if left == 0 {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.inner.play(mv)
    }
    fn undo(&mut self, mv: u8) {
        self.inner.undo(mv)
    }
}

#[test]
fn the_stop_flag_stops_the_search() {
    let flag = AtomicBool::new(false);
    let mut memory = pns_memory::<StoppingGame>(100_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<StoppingGame>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = StoppingGame {
        inner: TicTacToe::default(),
        flag: &flag,
        plays_left: Cell::new(500),
    };
    let mut limits = Limits {
        stop: Some(&flag),
        ..Limits::none()
    };
    let r = pns.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Unknown(Reason::Stopped));
    assert!(
        r.stats.nodes < 600,
        "stopped soon after the flag: {}",
        r.stats.nodes
    );
    assert_eq!(game.inner.cells, [0; 9]);
    // A flag already set stops before the first expansion.
    let r = pns.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Unknown(Reason::Stopped));
    assert_eq!(r.stats.mid_calls, 0);
}

#[test]
fn the_clock_limits_time_and_reports_it() {
    let mut memory = pns_memory::<TicTacToe>(100_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = TicTacToe::default();
    // A fake clock that advances one millisecond per reading.
    let mut now = 0u64;
    let mut clock = || {
        now += 1000;
        now
    };
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: 500,
        ..Limits::none()
    };
    let r = pns.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Unknown(Reason::TimeLimit));
    assert!(r.stats.elapsed_us.is_some());
    assert_eq!(game.cells, [0; 9]);
}

#[test]
fn a_terminal_root_is_answered_without_search() {
    let mut memory = pns_memory::<TicTacToe>(16, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    // X has completed the top row; O is to move and has lost.
    let mut won = TicTacToe {
        cells: [1, 1, 1, 2, 2, 0, 0, 0, 0],
        to_move: 1,
    };
    let r = pns.solve(&mut won, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Proven);
    assert_eq!((r.best_move, r.stats.nodes, r.distance), (None, 0, 0));
    let r = pns.solve(&mut won, Player::Second, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Disproven);
    // A full board without a line is a draw: neither side wins.
    let mut drawn = TicTacToe {
        cells: [1, 2, 1, 1, 2, 2, 2, 1, 1],
        to_move: 1,
    };
    for attacker in [Player::First, Player::Second] {
        let r = pns.solve(&mut drawn, attacker, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Disproven);
    }
    let v = pns.solve_value(&mut drawn, &mut table, &mut Limits::default());
    assert_eq!(v.value, Ok(Value::Draw));
}

/// A game whose only position has no moves; its value is the game's choice.
struct Stalemate(Value);

impl Game for Stalemate {
    type Move = u8;
    fn side_to_move(&self) -> Player {
        Player::First
    }
    fn hash(&self) -> u64 {
        1
    }
    fn outcome(&self) -> Outcome {
        Outcome::Unknown
    }
    fn generate_moves(&self, _: &mut MoveList<'_, u8>) {}
    fn play(&mut self, _: u8) {
        unreachable!("no moves")
    }
    fn undo(&mut self, _: u8) {
        unreachable!("no moves")
    }
    fn no_moves_value(&self) -> Value {
        self.0
    }
}

#[test]
fn a_root_without_moves_takes_the_games_value() {
    let mut memory = pns_memory::<Stalemate>(4, 4, 1, PnsConfig::PNS);
    let mut pns = Pns::<Stalemate>::new(&mut memory, 4, 1, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    for value in [Value::Win, Value::Loss, Value::Draw] {
        table.clear();
        let v = pns.solve_value(&mut Stalemate(value), &mut table, &mut Limits::default());
        assert_eq!(v.value, Ok(value));
        assert_eq!(v.best_move, None);
    }
}

#[test]
fn too_many_moves_is_reported_not_written() {
    // Tic-tac-toe's start has nine moves; a buffer of eight cannot hold them.
    let mut memory = pns_memory::<TicTacToe>(1000, 9, 8, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 8, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = TicTacToe::default();
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::TooManyMoves));
    assert_eq!(game.cells, [0; 9]);
}

#[test]
fn a_line_deeper_than_the_path_stack_is_reported() {
    // Nim from 30 stones needs lines longer than 4 plies.
    let mut memory = pns_memory::<Nim>(10_000, 4, 3, PnsConfig::PNS);
    let mut pns = Pns::<Nim>::new(&mut memory, 4, 3, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = Nim {
        stones: 30,
        to_move: Player::First,
    };
    let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::DepthLimit));
    assert_eq!(game.stones, 30);
    assert!(r.stats.max_depth <= 4);
}

/// Nim whose `has_failed` turns true after a number of moves, like a C game whose callback
/// reported garbage.
struct FailingNim {
    nim: Nim,
    plays_left: u32,
}

impl Game for FailingNim {
    type Move = u8;
    fn side_to_move(&self) -> Player {
        self.nim.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.nim.hash()
    }
    fn outcome(&self) -> Outcome {
        self.nim.outcome()
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        self.nim.generate_moves(moves)
    }
    fn play(&mut self, mv: u8) {
        self.plays_left = self.plays_left.saturating_sub(1);
        self.nim.play(mv)
    }
    fn undo(&mut self, mv: u8) {
        self.nim.undo(mv)
    }
    fn has_failed(&self) -> bool {
        self.plays_left == 0
    }
}

#[test]
fn a_failing_game_stops_the_search_with_game_error() {
    for config in [PnsConfig::PNS, PnsConfig::pn2(64)] {
        let mut memory = pns_memory::<FailingNim>(10_000, 64, 3, config);
        let mut pns = Pns::<FailingNim>::new(&mut memory, 64, 3, config).unwrap();
        let mut tm = table_memory();
        let mut table = Table::new(&mut tm).unwrap();
        let mut game = FailingNim {
            nim: Nim {
                stones: 41,
                to_move: Player::First,
            },
            plays_left: 50,
        };
        let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Unknown(Reason::GameError), "{config:?}");
        assert_eq!(game.nim.stones, 41);
        // Failing from the start: nothing is searched.
        let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Unknown(Reason::GameError));
        assert_eq!(r.stats.nodes, 0);
    }
}

#[test]
fn history_repetitions_count_and_make_results_path_dependent() {
    // A two-position cycle: A (first to move) ⇄ B (second to move), plus from A a move to a
    // lost-for-the-mover terminal T where it is the second player's turn (so the first wins).
    let graph = common::Graph {
        shape: common::Shape::Cyclic,
        nodes: vec![
            node(Player::First, Outcome::Unknown, vec![1], 11),
            node(Player::Second, Outcome::Unknown, vec![0, 2], 22),
            node(Player::First, Outcome::Loss, vec![], 33),
        ],
        root: 1,
        no_moves: Value::Loss,
    };
    // From B (second to move): B→T wins for the second player at once.
    let mut memory = pns_memory::<common::GraphGame<{ common::DRAW }>>(64, 8, 4, PnsConfig::PNS);
    let mut pns =
        Pns::<common::GraphGame<{ common::DRAW }>>::new(&mut memory, 8, 4, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = common::GraphGame::<{ common::DRAW }>::new(&graph);
    let r = pns.solve(
        &mut game,
        Player::Second,
        &mut table,
        &mut Limits::default(),
    );
    assert_eq!(r.status, Status::Proven);
    assert!(!r.path_dependent);
    // With B in the history, the root repeats it: a draw by the rule, so the second player
    // does not win, and that answer holds on this path only.
    let job = Job {
        attacker: Player::Second,
        threshold: Numbers::new(proofnum::INFINITE, proofnum::INFINITE),
        history: &[22, 11],
    };
    table.clear();
    let r = pns.search(&mut game, &job, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Disproven);
    assert!(r.path_dependent);
    assert_eq!(r.stats.repetitions, 1);
}

fn node(mover: Player, outcome: Outcome, children: Vec<u32>, hash: u64) -> common::Node {
    common::Node {
        mover,
        outcome,
        children,
        repetition: Value::Draw,
        estimate: None,
        hash,
        bound: None,
    }
}

#[test]
fn thresholds_stop_the_search_once_reached() {
    let mut memory = pns_memory::<TicTacToe>(100_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    let mut game = TicTacToe::default();
    let job = Job {
        attacker: Player::First,
        threshold: Numbers::new(proofnum::INFINITE, 20),
        history: &[],
    };
    let r = pns.search(&mut game, &job, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Unknown(Reason::Thresholds));
    assert!(
        r.numbers.delta >= 20 && !r.numbers.is_solved(),
        "{:?}",
        r.numbers
    );
}

#[test]
fn pn2_runs_second_level_searches_and_agrees() {
    let mut tm = table_memory();
    let mut table = Table::new(&mut tm).unwrap();
    for stones in [13, 16, 17, 20] {
        let config = PnsConfig::pn2(256);
        let mut memory = pns_memory::<Nim>(1 << 14, 64, 3, config);
        let mut pns = Pns::<Nim>::new(&mut memory, 64, 3, config).unwrap();
        table.clear();
        let mut game = Nim {
            stones,
            to_move: Player::First,
        };
        let r = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
        let want = if stones % 4 == 0 {
            Status::Disproven
        } else {
            Status::Proven
        };
        assert_eq!(r.status, want, "{stones} stones");
        let arena = pns.arena_stats();
        assert!(arena.second_level_searches > 0);
        assert!(arena.second_level_peak_nodes <= 256);
        assert!(arena.first_level_expansions < r.stats.mid_calls);
    }
}

#[test]
fn memory_is_sized_exactly_and_bad_buffers_are_rejected_untouched() {
    let config = PnsConfig::pn2(100);
    let per = Pns::<TicTacToe>::bytes_per_node();
    assert_eq!(per, 16 + 1, "16-byte node and a one-byte move");
    for nodes in [1, 2, 100, 1000] {
        let need = Pns::<TicTacToe>::required_bytes(nodes, 9, 9, config);
        assert_eq!(
            Pns::<TicTacToe>::required_bytes(nodes + 1, 9, 9, config) - need,
            per
        );
        // At every start alignment the exact size gives exactly `nodes` nodes.
        let mut buf = vec![0u8; need + 16];
        for offset in 0..16 {
            let pns = Pns::<TicTacToe>::new(&mut buf[offset..offset + need], 9, 9, config).unwrap();
            assert_eq!(pns.node_capacity(), nodes);
        }
    }
    let need = Pns::<TicTacToe>::required_bytes(1, 9, 9, config);
    let mut small = vec![0xAAu8; need - 1];
    match Pns::<TicTacToe>::new(&mut small, 9, 9, config) {
        Err(MemoryError::TooSmall { needed, available }) => {
            assert_eq!((needed, available), (need, need - 1));
        }
        Err(e) => panic!("expected TooSmall, got {e:?}"),
        Ok(_) => panic!("expected TooSmall, got a searcher"),
    }
    assert!(small.iter().all(|&b| b == 0xAA), "buffer untouched");
    let mut buf = vec![0xAAu8; 4096];
    for (depth, moves) in [(9, 0), (9, proofnum::pns::MAX_MOVES + 1), (70_000, 9)] {
        assert!(matches!(
            Pns::<TicTacToe>::new(&mut buf, depth, moves, PnsConfig::PNS),
            Err(MemoryError::Unsupported)
        ));
    }
    assert!(buf.iter().all(|&b| b == 0xAA), "buffer untouched");
}

#[test]
fn progress_is_reported_every_poll_interval() {
    // Tic-tac-toe's disproof takes a few thousand expansions: several reports.
    let mut memory = pns_memory::<TicTacToe>(100_000, 9, 9, PnsConfig::PNS);
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut table_memory = vec![0u8; Table::required_bytes(1)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut game = TicTacToe::default();
    let mut seen: Vec<proofnum::Progress> = Vec::new();
    let mut record = |p: &proofnum::Progress| seen.push(*p);
    let mut limits = Limits {
        progress: Some(&mut record),
        ..Limits::none()
    };
    let r = pns.solve(&mut game, Player::First, &mut table, &mut limits);
    assert_eq!(r.status, Status::Disproven);
    let expected = r.stats.mid_calls.div_ceil(proofnum::CLOCK_POLL_INTERVAL);
    assert_eq!(
        seen.len() as u64,
        expected,
        "{} expansions",
        r.stats.mid_calls
    );
    for (k, p) in seen.iter().enumerate() {
        assert_eq!(p.mid_calls, k as u64 * proofnum::CLOCK_POLL_INTERVAL);
        assert!(!p.root.is_solved());
        assert_eq!(p.elapsed_us, None, "no clock given");
    }
}
