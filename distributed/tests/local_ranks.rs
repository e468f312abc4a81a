//! The distributed solver's failure paths and checkpoints, with ranks as threads of this
//! process ([`LocalLink`]): a rank that falls silent is given up and its jobs go to the others;
//! a late result for a job given up is refused; a checkpoint resumes a stopped solve to the
//! same answer with fewer MID calls than a solve from scratch; bad messages and mismatched
//! positions are clear errors. Answers are checked against Connect Four scores from the
//! independent alpha-beta solver (`games/suites/`).

use std::path::PathBuf;
use std::time::Duration;

use proofnum::{Game, ParallelConfig, ParallelLimits, Player, Reason, Table, Value};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_mpi::wire::{JobDone, JobOrder, Message, ResumedTable};
use proofnum_mpi::{
    Checkpoint, CheckpointPlan, Coordinator, Error, Link, LocalLink, Settings, serve,
};

/// A middle-game Connect Four position (`games/suites/c4-middle.txt`) and the value the
/// alpha-beta solver gives it for the side to move.
const MIDDLE: (&str, Value) = ("7677151431751272", Value::Loss);

fn settings(job_work: u64) -> Settings {
    Settings {
        parallel: ParallelConfig {
            threads: 1,
            job_work,
            split_work: 2 * job_work,
            max_depth: 42,
            max_moves: 7,
            ..ParallelConfig::default()
        },
        // Exactly 2^14 buckets whatever the buffer's alignment, so that runs repeat exactly.
        table_bytes: Table::required_bytes(1 << 14),
        coordinator_threads: 0,
        solved_per_job: 0,
        shared_min_work_log2: 6,
        rank_timeout: Duration::from_secs(60),
        jobs_ahead: 0,
    }
}

/// Serves `game` on every link but the first, each on a thread of its own; returns rank 0's
/// link.
fn workers<G>(links: Vec<LocalLink>, game: &G) -> LocalLink
where
    G: Game + proofnum::MoveCodec + Clone + Send + Sync + 'static,
{
    let mut links = links.into_iter();
    let coordinator = links.next().expect("rank 0");
    for link in links {
        let game = game.clone();
        std::thread::spawn(move || serve(&link, &game, 1));
    }
    coordinator
}

#[test]
fn a_silent_rank_is_given_up_and_its_jobs_go_to_the_others() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let mut links = LocalLink::connect(3);
    // Rank 2 says hello with one slot, takes jobs and never answers: a rank that hangs.
    scripted_rank(links.pop().expect("rank 2"), game.hash(), |_| None);
    let link = workers(links, &game);
    let mut s = settings(200);
    // Long enough that rank 1, a real worker, is never taken for silent on a loaded machine.
    s.rank_timeout = Duration::from_millis(1500);
    let mut coordinator = Coordinator::new(&link, s).unwrap();
    let r = coordinator
        .solve_value(&game, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(r.value, Ok(MIDDLE.1));
    assert_eq!(coordinator.lost_ranks(), vec![2]);
    assert!(r.stats.ranks[2].lost);
    assert!(r.stats.ranks[1].jobs > 1, "rank 1 ran the jobs");
    coordinator.finish();
}

#[test]
fn a_late_result_for_a_job_given_up_is_refused() {
    // README's first position (First, to move, wins): long enough a solve to outlast the wait.
    let game = ConnectFour::from_moves("444444").unwrap();
    let mut links = LocalLink::connect(3);
    let (tell, told) = std::sync::mpsc::channel();
    // Rank 2 holds its first job until it has surely been given up, then answers it with a
    // false claim while the search still runs (rank 1, watched, is still being sent jobs).
    let late = links.pop().expect("rank 2");
    // Rank 1 answers every job well within this even on a loaded machine (a job of 2,000 MID
    // calls takes milliseconds); the solve (~3 s in a debug build) outlasts twice it.
    let timeout = Duration::from_millis(300);
    scripted_rank(late, game.hash(), move |order| {
        let taken = std::time::Instant::now();
        while told.recv().is_ok() && taken.elapsed() < 2 * timeout {}
        Some(false_win(&order))
    });
    let watched = links.pop().expect("rank 1");
    let worker_game = game;
    std::thread::spawn(move || {
        let link = Watching {
            link: watched,
            seen: std::sync::Mutex::new(tell),
            after_epoch: 0,
        };
        serve(&link, &worker_game, 1)
    });
    let link = links.pop().expect("rank 0");
    let mut s = settings(2000);
    s.rank_timeout = timeout;
    let mut coordinator = Coordinator::new(&link, s).unwrap();
    let r = coordinator
        .solve(&game, Player::First, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(r.status, proofnum::Status::Proven);
    assert!(r.stats.ranks[2].lost);
    assert_eq!(
        r.stats.stale_results, 1,
        "the late result came and was refused"
    );
    coordinator.finish();
}

/// A link that tells `seen` the epoch of every job it receives in searches after
/// `after_epoch`: a test's way of acting while a search runs.
struct Watching {
    link: LocalLink,
    seen: std::sync::Mutex<std::sync::mpsc::Sender<u64>>,
    after_epoch: u64,
}

impl Link for Watching {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn size(&self) -> usize {
        self.link.size()
    }

    fn send(&self, to: usize, words: &[u64]) {
        self.link.send(to, words)
    }

    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)> {
        let got = self.link.receive(wait)?;
        if let Ok(Message::Job(order)) = Message::decode(&got.1)
            && order.epoch > self.after_epoch
        {
            let _ = self.seen.lock().unwrap().send(order.epoch);
        }
        Some(got)
    }
}

#[test]
fn a_late_result_from_a_rank_given_up_in_an_earlier_search_is_dropped() {
    let game = TicTacToe::default();
    let mut links = LocalLink::connect(3);
    let (tell, told) = std::sync::mpsc::channel();
    // Rank 2 takes a job in the first search and holds it until the second search runs (it
    // is given up meanwhile), then hands it in: a rank that was only stalled.
    scripted_rank(links.pop().expect("rank 2"), game.hash(), move |order| {
        let _ = told.recv();
        Some(false_win(&order))
    });
    let watched = links.pop().expect("rank 1");
    std::thread::spawn(move || {
        let link = Watching {
            link: watched,
            seen: std::sync::Mutex::new(tell),
            after_epoch: 1,
        };
        serve(&link, &TicTacToe::default(), 1)
    });
    let link = links.pop().expect("rank 0");
    let mut s = settings(3);
    s.parallel.split_work = 0;
    s.parallel.max_depth = 9;
    s.parallel.max_moves = 9;
    s.rank_timeout = Duration::from_millis(1000);
    let mut coordinator = Coordinator::new(&link, s).unwrap();
    let first = coordinator
        .solve(&game, Player::First, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(first.status, proofnum::Status::Disproven);
    assert_eq!(coordinator.lost_ranks(), vec![2]);
    // The second search: rank 2's result of the first arrives while it runs.
    let second = coordinator
        .solve_value(&game, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(second.value, Ok(Value::Draw), "tic-tac-toe is a draw");
    assert_eq!(
        second.stats.stale_results, 1,
        "the late result, counted once"
    );
    coordinator.finish();
}

/// A rank the test scripts, on a thread of its own: it says hello with one slot to every
/// search, and hands each job to `on_job`; when that returns a message, the rank sends it
/// and stops (`None`: it keeps the job and goes on listening).
fn scripted_rank(
    link: LocalLink,
    root_hash: u64,
    mut on_job: impl FnMut(JobOrder) -> Option<Message> + Send + 'static,
) {
    std::thread::spawn(move || {
        loop {
            let Some((_, words)) = link.receive(Duration::from_millis(10)) else {
                continue;
            };
            match Message::decode(&words) {
                Ok(Message::Start(s)) => {
                    let hello = Message::Hello {
                        epoch: s.epoch,
                        root_hash,
                        slots: 1,
                        resumed: ResumedTable::NotAsked,
                    };
                    link.send(0, &hello.encode());
                }
                Ok(Message::Job(order)) => {
                    if let Some(answer) = on_job(order) {
                        link.send(0, &answer.encode());
                        return;
                    }
                }
                _ => {}
            }
        }
    });
}

/// A claim that `order`'s job root is proven, whatever it is.
fn false_win(order: &JobOrder) -> Message {
    Message::Done(JobDone {
        epoch: order.epoch,
        slot: order.slot,
        ticket: order.ticket,
        status: proofnum::Status::Proven,
        numbers: proofnum::Numbers::WIN,
        best_move: None,
        stats: Default::default(),
        busy_ns: 0,
        children: Vec::new(),
        solved: Vec::new(),
    })
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pnmpi-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("solve.ck")
}

#[test]
fn a_resumed_solve_continues_with_fewer_mid_calls_than_from_scratch() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    // One worker slot: jobs run one after another, so every run below is deterministic.
    let scratch = {
        let link = workers(LocalLink::connect(2), &game);
        let mut c = Coordinator::new(&link, settings(500)).unwrap();
        let r = c
            .solve_value(&game, &mut ParallelLimits::none(), None)
            .unwrap();
        c.finish();
        assert_eq!(r.value, Ok(MIDDLE.1));
        r.stats.search.mid_calls
    };
    let path = temp_file("resume");
    let plan = CheckpointPlan {
        path: path.clone(),
        every: None,
        label: format!("connect4 {}", MIDDLE.0),
        announce: false,
        trigger: None,
    };
    // Stopped halfway by a work limit: a checkpoint is written at the unsolved end.
    {
        let link = workers(LocalLink::connect(2), &game);
        let mut c = Coordinator::new(&link, settings(500))
            .unwrap()
            .with_checkpoints(plan.clone());
        let mut limits = ParallelLimits {
            max_work: scratch / 2,
            ..ParallelLimits::none()
        };
        let r = c.solve_value(&game, &mut limits, None).unwrap();
        c.finish();
        assert_eq!(r.value, Err(Reason::WorkLimit));
        assert_eq!(r.stats.checkpoints.0, 1);
    }
    let checkpoint = Checkpoint::read(&path).unwrap();
    let done_before = checkpoint.tree.stats.mid_calls + checkpoint.finished.0.mid_calls;
    assert!(done_before >= scratch / 2);
    // Resumed on the same two ranks: rank 1 reloads its table, and the run is deterministic.
    let resume = |ranks: usize| {
        let link = workers(LocalLink::connect(ranks), &game);
        let mut c = Coordinator::new(&link, settings(500))
            .unwrap()
            .with_checkpoints(plan.clone());
        let r = c
            .solve_value(&game, &mut ParallelLimits::none(), Some(&checkpoint))
            .unwrap();
        c.finish();
        r
    };
    let r = resume(2);
    assert_eq!(r.value, Ok(MIDDLE.1), "the same answer");
    eprintln!(
        "from scratch {scratch} MID calls; stopped after {done_before}; resumed: {} more",
        r.stats.search.mid_calls
    );
    assert_eq!(r.stats.resumed_mid_calls, checkpoint.tree.stats.mid_calls);
    assert!(
        r.stats.search.mid_calls < scratch,
        "resumed: {} MID calls to finish, from scratch {scratch}",
        r.stats.search.mid_calls
    );
    // On three ranks the tree does not care who runs its jobs (rank 2 has no saved table: the
    // checkpoint did not ask it for one, so it starts empty).
    assert_eq!(checkpoint.rank_files, Some(vec![1]));
    assert_eq!(resume(3).value, Ok(MIDDLE.1));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// Rank 1's table file is part of the checkpoint: when it is gone, the resume is refused with
/// an error naming the file (it used to start rank 1 empty without a word, redoing its work).
#[test]
fn a_resume_without_a_ranks_table_file_is_refused_naming_the_file() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let path = temp_file("missing-rank-file");
    let plan = CheckpointPlan {
        path: path.clone(),
        every: None,
        label: "middle".into(),
        announce: false,
        trigger: None,
    };
    let link = workers(LocalLink::connect(2), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan.clone());
    let mut limits = ParallelLimits {
        max_work: 2000,
        ..ParallelLimits::none()
    };
    c.solve(&game, Player::First, &mut limits, None).unwrap();
    c.finish();
    let checkpoint = Checkpoint::read(&path).unwrap();
    let rank_file = path.with_file_name("solve.ck.rank1");
    std::fs::remove_file(&rank_file).unwrap();

    let link = workers(LocalLink::connect(2), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan);
    match c.solve(
        &game,
        Player::First,
        &mut ParallelLimits::none(),
        Some(&checkpoint),
    ) {
        Err(e @ Error::Resume(_)) => {
            let text = e.to_string();
            assert!(
                text.contains(&format!("{} is missing", rank_file.display())),
                "{text}"
            );
        }
        other => panic!("expected a resume error, got {other:?}"),
    }
    c.finish();
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// Rank 0's link, running `hook` when the first `Hello` arrives: after the solve has started
/// (and checked its checkpoint path), before its first checkpoint.
struct OnFirstHello<F> {
    link: LocalLink,
    hook: std::sync::Mutex<Option<F>>,
}

impl<F: FnOnce()> OnFirstHello<F> {
    fn new(link: LocalLink, hook: F) -> Self {
        OnFirstHello {
            link,
            hook: std::sync::Mutex::new(Some(hook)),
        }
    }
}

impl<F: FnOnce()> Link for OnFirstHello<F> {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn size(&self) -> usize {
        self.link.size()
    }

    fn send(&self, to: usize, words: &[u64]) {
        self.link.send(to, words);
    }

    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)> {
        let received = self.link.receive(wait);
        if let Some((_, words)) = &received
            && let Ok(Message::Hello { .. }) = Message::decode(words)
            && let Some(hook) = self.hook.lock().unwrap().take()
        {
            hook();
        }
        received
    }
}

#[test]
fn a_checkpoint_that_cannot_be_written_keeps_the_last_one_and_the_search_goes_on() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let path = temp_file("unwritable");
    let plan = CheckpointPlan {
        path: path.clone(),
        every: None,
        label: "middle".into(),
        announce: false,
        trigger: None,
    };
    // Writable when the solve starts; once the ranks have said hello, a directory takes the
    // file's place: its temporary file is written, the rename fails (as a full disk fails the
    // write).
    let block = || std::fs::create_dir_all(&path).unwrap();
    let tmp = path.with_file_name("solve.ck.tmp");
    let now = std::sync::atomic::AtomicBool::new(true);
    let link = OnFirstHello::new(workers(LocalLink::connect(2), &game), block);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan.clone())
        .with_signals(proofnum_mpi::Signals {
            checkpoint_now: Some(&now),
            terminate: None,
            ..Default::default()
        });
    // Asked for at once (as by SIGUSR1): it fails, the search goes on to the answer.
    let r = c
        .solve_value(&game, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(r.value, Ok(MIDDLE.1));
    assert_eq!(r.stats.checkpoint_failures, 1);
    assert_eq!(r.stats.checkpoints.0, 0);
    assert!(
        !tmp.exists(),
        "the failed write's temporary file is removed"
    );
    c.finish();

    // At a stop, the checkpoint that fails costs the checkpoint, not the result: the solve
    // answers with its limit and its figures (it used to fail with the checkpoint's error,
    // and `solve_mpi` lost its report and exited 4 instead of 1).
    std::fs::remove_dir(&path).unwrap();
    let link = OnFirstHello::new(workers(LocalLink::connect(2), &game), block);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan);
    let mut limits = ParallelLimits {
        max_work: 2000,
        ..ParallelLimits::none()
    };
    let r = c.solve(&game, Player::First, &mut limits, None).unwrap();
    assert_eq!(r.status, proofnum::Status::Unknown(Reason::WorkLimit));
    assert!(r.stats.search.mid_calls >= 2000);
    assert_eq!((r.stats.checkpoints.0, r.stats.checkpoint_failures), (0, 1));
    assert!(!tmp.exists());
    c.finish();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// A checkpoint path that cannot be written (its directory does not exist, or it is a
/// directory) is the solve's error at once, naming the file, before any rank is started: it
/// used to be found at the first checkpoint, minutes in, or at the end.
#[test]
fn a_checkpoint_path_that_cannot_be_written_is_refused_before_the_solve() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let dir = temp_file("refused-path").parent().unwrap().to_path_buf();
    for (path, why) in [
        (
            dir.join("no such directory").join("solve.ck"),
            "No such file",
        ),
        (dir.clone(), "it is a directory"),
    ] {
        let mut links = LocalLink::connect(2);
        let rank_1 = links.pop().unwrap();
        let link = links.pop().unwrap();
        let mut c = Coordinator::new(&link, settings(500))
            .unwrap()
            .with_checkpoints(CheckpointPlan {
                path: path.clone(),
                every: None,
                label: "middle".into(),
                announce: false,
                trigger: None,
            });
        match c.solve_value(&game, &mut ParallelLimits::none(), None) {
            Err(e @ Error::Checkpoint(_)) => {
                let text = e.to_string();
                assert!(
                    text.contains(&format!("cannot write {}: {why}", path.display())),
                    "{text}"
                );
            }
            other => panic!("expected a checkpoint error, got {other:?}"),
        }
        assert!(
            rank_1.receive(Duration::ZERO).is_none(),
            "no rank was started"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_of_another_solve_is_refused() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let other = ConnectFour::from_moves("4").unwrap();
    let path = temp_file("refuse");
    let plan = |label: &str| CheckpointPlan {
        path: path.clone(),
        every: None,
        label: label.into(),
        announce: false,
        trigger: None,
    };
    let link = workers(LocalLink::connect(2), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan("middle"));
    let mut limits = ParallelLimits {
        max_work: 2000,
        ..ParallelLimits::none()
    };
    c.solve(&game, Player::First, &mut limits, None).unwrap();
    let checkpoint = Checkpoint::read(&path).unwrap();
    fn refused<T>(r: Result<T, Error>) -> String {
        match r {
            Err(Error::Resume(why)) => why,
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("resumed a checkpoint of another solve"),
        }
    }
    let why = refused(c.solve(
        &other,
        Player::First,
        &mut ParallelLimits::none(),
        Some(&checkpoint),
    ));
    assert!(why.contains("another position"), "{why}");
    let why = refused(c.solve_value(&game, &mut ParallelLimits::none(), Some(&checkpoint)));
    assert!(why.contains("CanWin"), "{why}");
    let why = refused(c.solve(
        &game,
        Player::Second,
        &mut ParallelLimits::none(),
        Some(&checkpoint),
    ));
    assert!(why.contains("CanWin"), "{why}");
    c.finish();
    let link = workers(LocalLink::connect(2), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan("another label"));
    let why = refused(c.solve(
        &game,
        Player::First,
        &mut ParallelLimits::none(),
        Some(&checkpoint),
    ));
    assert!(why.contains("middle"), "{why}");
    c.finish();
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_rank_with_another_position_or_a_garbled_message_is_an_error() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let other = ConnectFour::from_moves("44").unwrap();
    let mut links = LocalLink::connect(2);
    let worker = links.pop().unwrap();
    std::thread::spawn(move || serve(&worker, &other, 1));
    let link = links.pop().unwrap();
    let mut c = Coordinator::new(&link, settings(500)).unwrap();
    match c.solve(&game, Player::First, &mut ParallelLimits::none(), None) {
        Err(Error::PositionMismatch { rank: 1 }) => {}
        other => panic!("expected a position mismatch, got {other:?}"),
    }
    c.finish();

    let mut links = LocalLink::connect(2);
    let garbler = links.pop().unwrap();
    std::thread::spawn(move || {
        loop {
            if garbler.receive(Duration::from_millis(10)).is_some() {
                garbler.send(0, &[4, 1, 2]);
            }
        }
    });
    let link = links.pop().unwrap();
    let mut c = Coordinator::new(&link, settings(500)).unwrap();
    match c.solve(&game, Player::First, &mut ParallelLimits::none(), None) {
        Err(Error::Wire { rank: 1, .. }) => {}
        other => panic!("expected a wire error, got {other:?}"),
    }
}

#[test]
fn one_rank_without_job_threads_has_no_one_to_run_jobs() {
    let links = LocalLink::connect(1);
    let mut c = Coordinator::new(&links[0], settings(500)).unwrap();
    let r = c.solve(
        &TicTacToe::default(),
        Player::First,
        &mut ParallelLimits::none(),
        None,
    );
    assert!(matches!(r, Err(Error::NoWorkers)), "{r:?}");
}

#[test]
fn settings_no_stack_can_hold_are_refused() {
    let links = LocalLink::connect(1);
    for (max_depth, max_moves, threads) in [(1 << 40, 7, 1), (42, 0, 1), (42, 7, 1 << 20)] {
        let mut s = settings(500);
        s.parallel.max_depth = max_depth;
        s.parallel.max_moves = max_moves;
        s.parallel.threads = threads;
        s.coordinator_threads = 1;
        match Coordinator::new(&links[0], s) {
            Err(Error::Settings(_)) => {}
            Err(e) => panic!("another error: {e}"),
            Ok(mut c) => {
                let r = c.solve(
                    &TicTacToe::default(),
                    Player::First,
                    &mut ParallelLimits::none(),
                    None,
                );
                panic!("accepted {max_depth} plies of {max_moves} moves: {r:?}");
            }
        }
    }
}

/// Tic-tac-toe whose `play` panics on the centre: a game with a bug.
#[derive(Clone, Default)]
struct Panicky(TicTacToe);

impl Game for Panicky {
    type Move = u8;
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn outcome(&self) -> proofnum::Outcome {
        self.0.outcome()
    }
    fn generate_moves(&self, moves: &mut proofnum::MoveList<'_, u8>) {
        self.0.generate_moves(moves)
    }
    fn play(&mut self, mv: u8) {
        assert_ne!(mv, 4, "a game with a bug");
        self.0.play(mv)
    }
    fn undo(&mut self, mv: u8) {
        self.0.undo(mv)
    }
}

impl proofnum::MoveCodec for Panicky {
    fn encode_move(mv: u8) -> u64 {
        TicTacToe::encode_move(mv)
    }
    fn decode_move(code: u64) -> Option<u8> {
        TicTacToe::decode_move(code)
    }
}

#[test]
fn a_game_that_panics_in_a_job_thread_of_rank_0_does_not_hang_the_solve() {
    let links = LocalLink::connect(1);
    let mut s = settings(500);
    s.parallel.max_depth = 9;
    s.parallel.max_moves = 9;
    s.coordinator_threads = 1;
    let mut c = Coordinator::new(&links[0], s).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        c.solve(
            &Panicky::default(),
            Player::First,
            &mut ParallelLimits::none(),
            None,
        )
    }));
    let payload = r.expect_err("the game's panic reaches the caller");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.contains("a game with a bug"), "{message}");
}

/// Rank 0's link, setting `flag` once `after` job results have come in.
struct AfterResults<'f> {
    link: LocalLink,
    after: usize,
    seen: std::sync::atomic::AtomicUsize,
    flag: &'f std::sync::atomic::AtomicBool,
}

impl Link for AfterResults<'_> {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn size(&self) -> usize {
        self.link.size()
    }

    fn send(&self, to: usize, words: &[u64]) {
        self.link.send(to, words);
    }

    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)> {
        use std::sync::atomic::Ordering;
        let received = self.link.receive(wait);
        if let Some((_, words)) = &received
            && let Ok(Message::Done(_)) = Message::decode(words)
            && self.seen.fetch_add(1, Ordering::Relaxed) + 1 == self.after
        {
            self.flag.store(true, Ordering::Relaxed);
        }
        received
    }
}

/// SIGTERM (mpirun's, on Ctrl-C): with time granted, the coordinator asks the ranks for their
/// tables, writes the tree listing the ranks that answered, and the solve resumes from it to
/// the right answer; without, it leaves at once and writes nothing.
#[test]
fn the_run_ended_from_outside_writes_a_last_checkpoint_that_resumes() {
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let path = temp_file("terminated");
    let plan = CheckpointPlan {
        path: path.clone(),
        every: None,
        label: format!("connect4 {}", MIDDLE.0),
        announce: false,
        trigger: None,
    };
    for grace in [Duration::ZERO, Duration::from_secs(60)] {
        let terminate = AtomicBool::new(false);
        let link = AfterResults {
            link: workers(LocalLink::connect(3), &game),
            after: 20,
            seen: AtomicUsize::new(0),
            flag: &terminate,
        };
        let mut c = Coordinator::new(&link, settings(500))
            .unwrap()
            .with_checkpoints(plan.clone())
            .with_signals(proofnum_mpi::Signals {
                terminate: Some(&terminate),
                grace,
                ..Default::default()
            });
        let e = c
            .solve_value(&game, &mut ParallelLimits::none(), None)
            .unwrap_err();
        c.finish();
        let checkpointed = !grace.is_zero();
        assert!(
            matches!(e, Error::Terminated { checkpointed: c } if c == checkpointed),
            "{e:?}"
        );
        assert_eq!(path.exists(), checkpointed);
    }
    let checkpoint = Checkpoint::read(&path).unwrap();
    assert_eq!(checkpoint.rank_files, Some(vec![1, 2]));
    assert!(checkpoint.tree.stats.mid_calls > 0);
    for rank in [1, 2] {
        assert!(path.with_file_name(format!("solve.ck.rank{rank}")).exists());
    }
    let link = workers(LocalLink::connect(3), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(plan);
    let r = c
        .solve_value(&game, &mut ParallelLimits::none(), Some(&checkpoint))
        .unwrap();
    c.finish();
    assert_eq!(r.value, Ok(MIDDLE.1));
    assert_eq!(r.stats.resumed_mid_calls, checkpoint.tree.stats.mid_calls);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// A trigger file asks for a checkpoint, and is removed once it is written.
#[test]
fn a_trigger_file_asks_for_a_checkpoint_and_is_removed() {
    let game = ConnectFour::from_moves(MIDDLE.0).unwrap();
    let path = temp_file("trigger");
    let trigger = path.with_file_name("now");
    std::fs::write(&trigger, b"").unwrap();
    let link = workers(LocalLink::connect(2), &game);
    let mut c = Coordinator::new(&link, settings(500))
        .unwrap()
        .with_checkpoints(CheckpointPlan {
            path: path.clone(),
            every: None,
            label: "middle".into(),
            announce: false,
            trigger: Some(trigger.clone()),
        });
    let r = c
        .solve_value(&game, &mut ParallelLimits::none(), None)
        .unwrap();
    c.finish();
    assert_eq!(r.value, Ok(MIDDLE.1));
    assert_eq!(r.stats.checkpoints.0, 1, "one checkpoint, for the trigger");
    assert!(!trigger.exists(), "the trigger is removed");
    assert!(path.exists());
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
