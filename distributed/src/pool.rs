//! The job slots of one rank: threads that each run df-pn jobs on their own copy of the game,
//! over the rank's one [`SharedTable`].
//!
//! A job arrives as moves from the root ([`JobOrder`]): the slot decodes each code, checks it
//! against the position's legal moves, plays it (recording the line as history, so repetitions
//! count as in the serial search), runs [`Dfpn::search`] with the job's thresholds and budget,
//! and walks back. A path that does not replay ends the job with [`Reason::GameError`]: a
//! rank never plays a move its game did not generate.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Scope;
use std::time::{Duration, Instant};

use proofnum::{
    Dfpn, DfpnConfig, Game, Job, Limits, MoveCodec, MoveList, Numbers, Player, Reason, Status,
};
use proofnum::{Entry, SharedTable, TableStats, TranspositionTable};

use crate::wire::{JobDone, JobOrder, SolvedEntry};

/// The default [`Settings::shared_min_work_log2`](crate::Settings::shared_min_work_log2): a
/// solved entry worth passing on spent at least 2^this MID calls below it.
pub const MIN_SHARED_WORK_LOG2: u8 = 6;

/// What every slot of a pool needs to know for one solve.
#[derive(Clone, Copy, Debug)]
pub struct PoolSettings {
    /// Who tries to force a win.
    pub attacker: Player,
    /// The jobs' df-pn settings.
    pub dfpn: DfpnConfig,
    /// Deepest line (path and job) a slot's stack holds.
    pub max_depth: usize,
    /// Most moves a position may have.
    pub max_moves: usize,
    /// Most solved positions a job reports.
    pub solved_per_job: usize,
    /// The least `work_log2` of a solved position a job reports.
    pub shared_min_work_log2: u8,
}

/// A rank's running slots: hand them jobs, collect what they finish.
pub struct Pool<'s> {
    orders: Vec<Sender<JobOrder>>,
    done: Receiver<JobDone>,
    /// Each slot's stop flag, which its running job polls.
    stops: &'s [AtomicBool],
    /// Jobs each slot has been given and not finished: the one it runs and those queued
    /// behind it.
    running: Vec<usize>,
    /// Jobs finished and their nanoseconds, added up.
    pub jobs: u64,
    /// Nanoseconds the slots spent in jobs.
    pub busy_ns: u64,
    /// The panic of a slot thread (its game panicked), for [`finished`](Pool::finished) to
    /// pass on: a slot that died would otherwise be waited for forever.
    panic: Arc<Mutex<Option<Box<dyn Any + Send>>>>,
}

/// Makes the slots' stop flags before the threads that read them.
pub fn stop_flags(slots: usize) -> Vec<AtomicBool> {
    (0..slots).map(|_| AtomicBool::new(false)).collect()
}

impl<'env> Pool<'env> {
    /// Starts `stops.len()` slot threads in `scope`, each on its own clone of `game`, over
    /// `table`, slot `i` stopping its jobs when `stops[i]` is set. They end when the pool is
    /// dropped.
    pub fn spawn<'scope, G>(
        scope: &'scope Scope<'scope, 'env>,
        game: &'env G,
        table: &'env SharedTable<'env>,
        settings: PoolSettings,
        stops: &'env [AtomicBool],
    ) -> Pool<'env>
    where
        G: Game + MoveCodec + Clone + Send + Sync,
    {
        let (done_tx, done) = channel();
        let panic = Arc::new(Mutex::new(None));
        let mut orders = Vec::new();
        for (slot, stop) in stops.iter().enumerate() {
            let (tx, rx) = channel::<JobOrder>();
            orders.push(tx);
            let done_tx = done_tx.clone();
            let panic = Arc::clone(&panic);
            scope.spawn(move || {
                let run = || run_slot(slot, game.clone(), table, settings, stop, rx, done_tx);
                // The slot's state dies with it; only the payload is kept, for the caller.
                if let Err(payload) = std::panic::catch_unwind(AssertUnwindSafe(run)) {
                    let mut first = panic.lock().unwrap_or_else(PoisonError::into_inner);
                    first.get_or_insert(payload);
                }
            });
        }
        Pool {
            orders,
            done,
            stops,
            running: vec![0; stops.len()],
            jobs: 0,
            busy_ns: 0,
            panic,
        }
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.running.len()
    }

    /// Jobs given to the slots and not finished yet.
    pub fn running(&self) -> usize {
        self.running.iter().sum()
    }

    /// Hands `order` to its slot, which runs it after those it has already (if any).
    pub fn start(&mut self, order: JobOrder) {
        let slot = order.slot as usize;
        if self.running[slot] == 0 {
            self.stops[slot].store(false, Ordering::Relaxed);
        }
        self.running[slot] += 1;
        // A slot thread lives as long as the pool, so the send cannot fail.
        let _ = self.orders[slot].send(order);
    }

    /// A finished job, waiting at most `wait` for one. When a slot's game has panicked, the
    /// panic goes on here, in the caller's thread (dropping the pool then ends the other
    /// slots), as the threaded solver hands its caller a worker's panic.
    pub fn finished(&mut self, wait: Duration) -> Option<JobDone> {
        let panicked = self
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(payload) = panicked {
            std::panic::resume_unwind(payload);
        }
        let done = if wait.is_zero() {
            self.done.try_recv().ok()
        } else {
            self.done.recv_timeout(wait).ok()
        }?;
        self.running[done.slot as usize] -= 1;
        self.jobs += 1;
        self.busy_ns += done.busy_ns;
        Some(done)
    }

    /// Stops every running job (each still reports, with what it found).
    pub fn cancel(&self) {
        for (slot, &running) in self.running.iter().enumerate() {
            if running > 0 {
                self.stops[slot].store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Passes every store on to the table and keeps the largest solved ones.
struct Recorder<'r, T> {
    table: &'r mut T,
    solved: &'r mut Vec<SolvedEntry>,
    keep: usize,
    min_work_log2: u8,
}

impl<T: TranspositionTable> TranspositionTable for Recorder<'_, T> {
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.table.probe(key)
    }

    fn prefetch(&self, key: u64) {
        self.table.prefetch(key)
    }

    fn prefetch_pays(&self) -> bool {
        self.table.prefetch_pays()
    }

    fn store(&mut self, key: u64, entry: &Entry) {
        self.table.store(key, entry);
        if self.keep == 0 || !entry.numbers.is_solved() || entry.work_log2 < self.min_work_log2 {
            return;
        }
        let new = SolvedEntry { key, entry: *entry };
        if self.solved.len() < self.keep {
            self.solved.push(new);
        } else if let Some(smallest) = self.solved.iter_mut().min_by_key(|s| s.entry.work_log2)
            && smallest.entry.work_log2 < entry.work_log2
        {
            *smallest = new;
        }
    }

    fn stats(&self) -> TableStats {
        self.table.stats()
    }
}

/// Plays `path` (codes) from the game's position, checking each move against the legal ones;
/// pushes each position's hash onto `history` before its move. On a code that is no legal
/// move, takes back what it played and returns false.
fn replay<G: Game + MoveCodec>(
    game: &mut G,
    path: &[u64],
    moves: &mut [G::Move],
    history: &mut Vec<u64>,
    played: &mut Vec<G::Move>,
) -> bool {
    played.clear();
    for &code in path {
        let mut list = MoveList::new(moves);
        game.generate_moves(&mut list);
        let legal = G::decode_move(code)
            .filter(|_| !list.overflowed())
            .filter(|&mv| {
                list.as_slice()
                    .iter()
                    .any(|&m| G::encode_move(m) == G::encode_move(mv))
            });
        let Some(mv) = legal else {
            for &mv in played.iter().rev() {
                game.undo(mv);
                history.pop();
            }
            played.clear();
            return false;
        };
        history.push(game.hash());
        game.play(mv);
        played.push(mv);
    }
    true
}

/// One slot: run each order it gets until the pool goes.
fn run_slot<G: Game + MoveCodec>(
    slot: usize,
    mut game: G,
    table: &SharedTable<'_>,
    settings: PoolSettings,
    stop: &AtomicBool,
    orders: Receiver<JobOrder>,
    done: Sender<JobDone>,
) {
    // A stack the allocator cannot give, or that cannot be built, makes every job end with
    // `MemoryLimit` (never an abort).
    let mut stack = Vec::new();
    let bytes = Dfpn::<G>::stack_bytes(settings.max_depth, settings.max_moves);
    if stack.try_reserve_exact(bytes).is_ok() {
        stack.resize(bytes, 0u8);
    }
    let dfpn = Dfpn::<G>::new(
        &mut stack,
        settings.max_depth,
        settings.max_moves,
        settings.dfpn,
    );
    let mut dfpn = dfpn.ok();
    let mut handle = table.handle();
    let mut moves = vec![G::Move::default(); settings.max_moves];
    let (mut history, mut played, mut solved) = (Vec::new(), Vec::new(), Vec::new());
    while let Ok(order) = orders.recv() {
        let started = Instant::now();
        for s in &order.solved {
            handle.store(s.key, &s.entry);
        }
        history.clear();
        let mut report = JobDone {
            epoch: order.epoch,
            slot: slot as u64,
            ticket: order.ticket,
            status: Status::Unknown(Reason::GameError),
            numbers: Numbers::UNIT,
            best_move: None,
            stats: Default::default(),
            busy_ns: 0,
            children: Vec::new(),
            solved: Vec::new(),
        };
        match dfpn.as_mut() {
            None => report.status = Status::Unknown(Reason::MemoryLimit),
            Some(_)
                if !replay(
                    &mut game,
                    &order.path,
                    &mut moves,
                    &mut history,
                    &mut played,
                ) =>
            {
                // A path that is no line of this game: `GameError`, nothing searched.
            }
            Some(dfpn) => {
                let mut now_us = move || started.elapsed().as_micros() as u64;
                let mut limits = Limits {
                    max_nodes: order.max_nodes,
                    max_work: order.max_work,
                    stop: Some(stop),
                    clock: Some(&mut now_us),
                    max_time_us: order.max_time_us,
                    progress: None,
                };
                let job = Job {
                    attacker: settings.attacker,
                    threshold: order.threshold,
                    history: &history,
                };
                solved.clear();
                let mut recorder = Recorder {
                    table: &mut handle,
                    solved: &mut solved,
                    keep: settings.solved_per_job,
                    min_work_log2: settings.shared_min_work_log2,
                };
                let result = dfpn.search(&mut game, &job, &mut recorder, &mut limits);
                report.status = result.status;
                report.numbers = result.numbers;
                report.best_move = result.best_move.map(G::encode_move);
                report.stats = result.stats;
                report.stats.max_depth += order.path.len() as u32;
                report.stats.elapsed_us = None;
                report.children = dfpn
                    .root_children()
                    .map(|(mv, n, flip)| (G::encode_move(mv), n, flip))
                    .collect();
                solved.sort_by_key(|s| core::cmp::Reverse(s.entry.work_log2));
                report.solved = solved.clone();
                for &mv in played.iter().rev() {
                    game.undo(mv);
                }
            }
        }
        report.busy_ns = started.elapsed().as_nanos() as u64;
        if done.send(report).is_err() {
            return;
        }
    }
}
