//! Parallel PN-DFPN (`std` feature): one position solved by several threads sharing one
//! transposition table.
//!
//! The two-level search of PN-DFPN (after Pawlewicz and Hayward's SPDFPN, *Scalable Parallel
//! DFPN Search*, Computers and Games 2013, and Kaneko's parallel df-pn, 2010):
//! a PN tree near the root with real and virtual numbers (module `tree`), whose most-proving leaves
//! are searched by budgeted df-pn jobs ([`Dfpn::search`] with a work limit) over a
//! [`SharedTable`]. A job's leaf counts as solved the way it leans while the job runs, so the
//! next job goes where the search would go next if the running ones succeed; a leaf whose jobs
//! have spent more than [`ParallelConfig::split_work`] MID calls is expanded into tree children
//! from the numbers its last job's root frame left.
//!
//! # One scheduler, several transports
//! The tree and the rules for handing out jobs and taking their results ([`Scheduler`], in
//! [`scheduler`]) know nothing of threads: [`ParallelSolver`] drives it from worker threads over
//! one [`SharedTable`], and the `proofnum-mpi` crate drives the same scheduler from a
//! coordinator process whose jobs run in other processes, each with its own table. A
//! [`TreeSnapshot`] of the tree lets a search be checkpointed and resumed.
//!
//! # No coordinator thread
//! The public single-game solver this design comes from runs the tree on a coordinator thread
//! that hands jobs to workers over queues, and that thread is its bottleneck (its workers idle
//! 35–45% of the time with two of them). Here every worker is its own coordinator: it locks
//! the tree only to hand in its last job and take the next one (microseconds against jobs of
//! milliseconds), so there is no thread to wait for and the tree costs no core of its own.
//! Workers that find every open leaf busy wait on a condition variable until a job comes back.
//! [`ParallelStats`] reports the share of time workers waited and the share the tree lock was
//! held.
//!
//! # Correctness
//! Every tree node is one line from the root; its jobs search it with that line as history, so
//! repetitions are scored exactly as the serial search scores them, and a result that holds only
//! on that line is only used there. The root is reported solved only when its real numbers
//! (combined from job results, never from virtual ones) are solved.

mod confirmed;
pub mod scheduler;
mod snapshot;
mod tree;

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};
use std::vec::Vec;

use crossbeam_utils::CachePadded;

use crate::dfpn::{Dfpn, DfpnConfig, Job, MAX_STACK_DEPTH};
use crate::game::{Game, Player, Value};
use crate::keys::search_salt;
use crate::limits::{Limits, Reason};
use crate::memory::MemoryError;
use crate::number::Numbers;
use crate::result::{SearchResult, Status};
use crate::table::{SharedTable, TableStats};

pub use scheduler::{Assignment, JobReport, Next, Scheduler, Ticket};
pub use snapshot::{SnapshotError, SnapshotNode, TreeSnapshot};

/// The most worker threads a parallel solver runs: a configuration asking for more is an
/// error ([`MemoryError::Unsupported`] from [`ParallelSolver::new`]), and "one per core" is
/// capped here. Each thread costs a df-pn stack, a copy of the game and an operating-system
/// thread, so a count far beyond the cores only adds memory and contention.
pub const MAX_THREADS: usize = 1024;

/// Settings of the parallel solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelConfig {
    /// Worker threads, at most [`MAX_THREADS`]; 0 means one per available core (capped there).
    pub threads: usize,
    /// MID calls a job may spend before it reports back.
    pub job_work: u64,
    /// MID calls on one leaf after which it is expanded into the tree (the root always is
    /// after its first job).
    pub split_work: u64,
    /// The df-pn settings of the jobs.
    pub dfpn: DfpnConfig,
    /// Give each job the MID thresholds serial df-pn would give its leaf (from the root tree's
    /// virtual numbers, with the 1+ε trick), so it returns once another leaf is most-proving,
    /// instead of running until its budget is spent.
    pub job_thresholds: bool,
    /// Deepest line (root history, tree path and job together) a worker's stack holds.
    pub max_depth: usize,
    /// Most moves a position may have.
    pub max_moves: usize,
}

impl Default for ParallelConfig {
    fn default() -> Self {
        ParallelConfig {
            threads: 0,
            job_work: 20_000,
            split_work: 40_000,
            dfpn: DfpnConfig::default(),
            job_thresholds: true,
            max_depth: 256,
            max_moves: 128,
        }
    }
}

/// A snapshot of a running parallel search, handed to [`ParallelLimits::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelProgress {
    /// MID calls of the finished jobs.
    pub mid_calls: u64,
    /// Positions evaluated by the finished jobs.
    pub nodes: u64,
    /// Jobs finished.
    pub jobs: u64,
    /// Nodes in the root tree.
    pub tree_nodes: usize,
    /// The root's real (φ, δ) for its side to move.
    pub root: Numbers,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// The limits of one parallel search. Node and work budgets are checked when a job starts and
/// given to it as what was left, so with N threads a search may overrun them by up to N jobs.
pub struct ParallelLimits<'a> {
    /// Stop after evaluating about this many positions.
    pub max_nodes: u64,
    /// Stop after about this many MID calls.
    pub max_work: u64,
    /// Stop soon after this flag becomes true (jobs poll it every 1024 MID calls).
    pub stop: Option<&'a AtomicBool>,
    /// Stop after this much time.
    pub max_time: Option<Duration>,
    /// Called at most every 100 ms, by whichever worker just finished a job, while it holds
    /// the tree lock: keep it short.
    pub progress: Option<&'a mut (dyn FnMut(&ParallelProgress) + Send)>,
}

impl Default for ParallelLimits<'_> {
    fn default() -> Self {
        ParallelLimits::none()
    }
}

impl<'a> ParallelLimits<'a> {
    /// No limit at all.
    pub fn none() -> ParallelLimits<'a> {
        ParallelLimits {
            max_nodes: u64::MAX,
            max_work: u64::MAX,
            stop: None,
            max_time: None,
            progress: None,
        }
    }
}

/// Counters of a parallel search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParallelStats {
    /// MID calls of all jobs.
    pub mid_calls: u64,
    /// Positions evaluated by all jobs.
    pub nodes: u64,
    /// Repetitions met by all jobs.
    pub repetitions: u64,
    /// Deepest line of any job, tree path included.
    pub max_depth: u32,
    /// Jobs run.
    pub jobs: u64,
    /// Worker threads.
    pub threads: usize,
    /// The most root-tree nodes alive at once.
    pub tree_nodes_peak: usize,
    /// Table traffic of all jobs.
    pub table: TableStats,
    /// Wall time.
    pub elapsed: Duration,
    /// Share of the workers' time spent waiting for a job (for the tree lock, or for a job to
    /// come back when every open leaf was busy): 0 to 1.
    pub worker_idle_share: f64,
    /// Share of the wall time the tree was locked by some worker taking or handing in a job
    /// (the coordinator's work): 0 to 1.
    pub coordinator_busy_share: f64,
    /// Positions the confirmation walks visited ([`ParallelSolver::solve_confirmed`]).
    pub confirm_nodes: u64,
    /// Answers their confirmation refuted, each searched again over a rekeyed table.
    pub refutations: u64,
}

/// What a parallel search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParallelResult<M> {
    /// Proven, disproven, or why not known.
    pub status: Status,
    /// The root's deciding move: a winning move of a won root, the stiffest defence of a lost
    /// one (by work spent), or, while unsolved, none.
    pub best_move: Option<M>,
    /// The root's real (φ, δ) for its side to move.
    pub numbers: Numbers,
    /// Counters.
    pub stats: ParallelStats,
}

/// The value of a position found by [`ParallelSolver::solve_value`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParallelValueResult<M> {
    /// The value for the side to move, or why it is not known.
    pub value: Result<Value, Reason>,
    /// A move that achieves the value (see [`ParallelResult::best_move`]).
    pub best_move: Option<M>,
    /// Counters of both searches (times and shares of the second are weighted by time).
    pub stats: ParallelStats,
}

/// The parallel PN-DFPN solver: a validated [`ParallelConfig`].
#[derive(Clone, Copy, Debug)]
pub struct ParallelSolver {
    config: ParallelConfig,
    threads: usize,
}

/// Per-worker time counters, on their own cache lines.
#[derive(Default)]
struct WorkerClock {
    idle_ns: AtomicU64,
    locked_ns: AtomicU64,
}

/// Everything a worker needs, shared by reference.
struct Shared<'s, 'p, G: Game> {
    /// The tree lock: every worker takes it to hand in a job and take the next.
    state: Mutex<Scheduler<'p, G::Move>>,
    wake: Condvar,
    /// Set when the root is solved or a limit is hit: running jobs stop.
    halt: AtomicBool,
    attacker: Player,
    /// The key salt of the opponent's finished search of the same position, whose proofs
    /// the jobs read as disproofs (the second search of a value), if any.
    opponent_salt: Option<u64>,
    history: &'s [u64],
    table: &'s SharedTable<'s>,
    user_stop: Option<&'s AtomicBool>,
    config: ParallelConfig,
    clocks: Vec<CachePadded<WorkerClock>>,
}

impl ParallelSolver {
    /// A solver with `config`; an error when a worker's df-pn stack cannot be built for its
    /// depth and move count, or `threads` is above [`MAX_THREADS`].
    pub fn new(config: ParallelConfig) -> Result<ParallelSolver, MemoryError> {
        if config.threads > MAX_THREADS
            || config.max_depth > MAX_STACK_DEPTH
            || config.max_moves == 0
            || (config.max_depth + 1)
                .checked_mul(config.max_moves)
                .is_none_or(|s| s > u32::MAX as usize)
        {
            return Err(MemoryError::Unsupported);
        }
        let threads = if config.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
        } else {
            config.threads
        };
        Ok(ParallelSolver {
            config: ParallelConfig {
                job_work: config.job_work.max(1),
                ..config
            },
            threads,
        })
    }

    /// The configuration.
    pub fn config(&self) -> ParallelConfig {
        self.config
    }

    /// The number of worker threads a search uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Does `attacker` have a forced win from `game`'s position? Each worker searches its own
    /// clone of `game`.
    pub fn solve<G>(
        &self,
        game: &G,
        attacker: Player,
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        self.solve_after(game, attacker, &[], table, limits)
    }

    /// As [`solve`](ParallelSolver::solve), after the positions whose hashes `history` holds
    /// (oldest first): repetitions of them count, as in [`Job::history`].
    pub fn solve_after<G>(
        &self,
        game: &G,
        attacker: Player,
        history: &[u64],
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        self.run(game, attacker, false, history, table, limits)
    }

    /// [`solve`](ParallelSolver::solve) for `attacker` over a table that holds the opponent's
    /// search of the same position, reading its proofs as disproofs, as
    /// [`Dfpn::solve_after_opponent`] does.
    pub fn solve_after_opponent<G>(
        &self,
        game: &G,
        attacker: Player,
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        self.run(game, attacker, true, &[], table, limits)
    }

    /// One search for `attacker` (see `solve_after`); `reads_opponent`: the jobs read the
    /// opponent's proofs in the table as disproofs.
    fn run<G>(
        &self,
        game: &G,
        attacker: Player,
        reads_opponent: bool,
        history: &[u64],
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        // Everything per worker up front and fallibly: memory that cannot be had is an answer
        // (`Unknown(MemoryLimit)`, with no worker started), not an abort.
        let (clocks, games, stacks) = self.per_worker(game).unwrap_or_default();
        let attacker_moves = game.side_to_move() == attacker;
        let shared = Shared::<G> {
            state: Mutex::new(Scheduler::new(&self.config, attacker_moves, limits)),
            wake: Condvar::new(),
            halt: AtomicBool::new(false),
            attacker,
            opponent_salt: reads_opponent
                .then(|| search_salt(attacker.opponent(), table.key_salt())),
            history,
            table,
            user_stop: limits.stop,
            config: self.config,
            clocks,
        };
        if stacks.len() < self.threads {
            shared
                .state
                .lock()
                .expect("no worker yet")
                .halt(Reason::MemoryLimit);
        }
        let joined = crossbeam_utils::thread::scope(|s| {
            if stacks.len() < self.threads {
                return;
            }
            for (i, (g, stack)) in games.into_iter().zip(stacks).enumerate() {
                let shared = &shared;
                let spawned = s.builder().spawn(move |_| {
                    // A panicking game must not leave the other workers waiting for its job.
                    let _halt_on_panic = HaltOnPanic(&shared.halt, &shared.wake, &shared.state);
                    shared.work(i, g, stack)
                });
                if spawned.is_err() {
                    // The system has no thread left for us: stop the workers already running.
                    let mut scheduler = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
                    scheduler.halt(Reason::MemoryLimit);
                    shared.halt_if_over(&scheduler);
                    break;
                }
            }
        });
        if let Err(panics) = joined {
            // Hand the caller the first worker's own panic, not crossbeam's list of them.
            match panics.downcast::<Vec<std::boxed::Box<dyn core::any::Any + Send + 'static>>>() {
                Ok(mut list) if !list.is_empty() => std::panic::resume_unwind(list.swap_remove(0)),
                Ok(_) => panic!("a worker thread panicked"),
                Err(other) => std::panic::resume_unwind(other),
            }
        }

        let mut scheduler = shared.state.into_inner().expect("no worker panicked");
        limits.progress = scheduler.take_progress();
        let mut result = scheduler.result();
        let wall_ns = (result.stats.elapsed.as_nanos() as f64).max(1.0);
        let idle: u64 = shared
            .clocks
            .iter()
            .map(|c| c.idle_ns.load(Ordering::Relaxed))
            .sum();
        let locked: u64 = shared
            .clocks
            .iter()
            .map(|c| c.locked_ns.load(Ordering::Relaxed))
            .sum();
        result.stats.threads = self.threads;
        result.stats.worker_idle_share = (idle as f64 / (wall_ns * self.threads as f64)).min(1.0);
        result.stats.coordinator_busy_share = (locked as f64 / wall_ns).min(1.0);
        result
    }

    /// Each worker's clock, copy of the game and df-pn stack, or `None` when the allocator
    /// cannot give them all.
    #[allow(clippy::type_complexity)]
    fn per_worker<G: Game + Clone>(
        &self,
        game: &G,
    ) -> Option<(Vec<CachePadded<WorkerClock>>, Vec<G>, Vec<Vec<u8>>)> {
        let n = self.threads;
        let (mut clocks, mut games, mut stacks) = (Vec::new(), Vec::new(), Vec::new());
        clocks.try_reserve_exact(n).ok()?;
        games.try_reserve_exact(n).ok()?;
        stacks.try_reserve_exact(n).ok()?;
        let stack_bytes = Dfpn::<G>::stack_bytes(self.config.max_depth, self.config.max_moves);
        for _ in 0..n {
            let mut stack = Vec::new();
            stack.try_reserve_exact(stack_bytes).ok()?;
            stack.resize(stack_bytes, 0u8);
            stacks.push(stack);
            clocks.push(CachePadded::default());
            games.push(game.clone());
        }
        Some((clocks, games, stacks))
    }

    /// The position's value for its side to move: "can the side to move win?", then, if not,
    /// "can the opponent win?", sharing the table. The second search gets what the first left
    /// of the node, work and time budgets.
    pub fn solve_value<G>(
        &self,
        game: &G,
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
    ) -> ParallelValueResult<G::Move>
    where
        G: Game + Clone + Send,
        G::Move: Send,
    {
        let me = game.side_to_move();
        let read = crate::value::reads_opponent_pays(&table.handle());
        value_by(game, limits, |attacker, limits| {
            if attacker == me || !read {
                self.solve(game, attacker, table, limits)
            } else {
                self.solve_after_opponent(game, attacker, table, limits)
            }
        })
    }
}

/// The value of `game`'s position by two attacker searches run by `solve`: "can the side to
/// move win?", then, if not, "can the opponent win?". The second search gets what the first
/// left of each budget in `limits`.
fn value_by<G: Game>(
    game: &G,
    limits: &mut ParallelLimits<'_>,
    mut solve: impl FnMut(Player, &mut ParallelLimits<'_>) -> ParallelResult<G::Move>,
) -> ParallelValueResult<G::Move> {
    let me = game.side_to_move();
    let first = solve(me, limits);
    match first.status {
        Status::Proven => {
            return ParallelValueResult {
                value: Ok(Value::Win),
                best_move: first.best_move,
                stats: first.stats,
            };
        }
        Status::Unknown(reason) => {
            return ParallelValueResult {
                value: Err(reason),
                best_move: None,
                stats: first.stats,
            };
        }
        Status::Disproven => {}
    }
    let second = limits.after(&first.stats, |limits| solve(me.opponent(), limits));
    let value = match second.status {
        Status::Proven => Ok(Value::Loss),
        Status::Disproven => Ok(Value::Draw),
        Status::Unknown(reason) => Err(reason),
    };
    ParallelValueResult {
        value,
        best_move: second.best_move,
        stats: combine_stats(&first.stats, &second.stats),
    }
}

impl<'a> ParallelLimits<'a> {
    /// Runs `f` with these limits less what `spent` used of each budget (nodes, confirmation
    /// nodes included, work and time), then restores them.
    pub(crate) fn after<R>(
        &mut self,
        spent: &ParallelStats,
        f: impl FnOnce(&mut ParallelLimits<'a>) -> R,
    ) -> R {
        let saved = (self.max_nodes, self.max_work, self.max_time);
        let nodes = spent.nodes.saturating_add(spent.confirm_nodes);
        self.max_nodes = saved.0.saturating_sub(nodes);
        self.max_work = saved.1.saturating_sub(spent.mid_calls);
        self.max_time = saved.2.map(|t| t.saturating_sub(spent.elapsed));
        let r = f(self);
        (self.max_nodes, self.max_work, self.max_time) = saved;
        r
    }
}

/// The counters of two searches run one after the other.
fn combine_stats(a: &ParallelStats, b: &ParallelStats) -> ParallelStats {
    let ta = a.elapsed.as_secs_f64();
    let tb = b.elapsed.as_secs_f64();
    let weighted = |x: f64, y: f64| {
        if ta + tb > 0.0 {
            (x * ta + y * tb) / (ta + tb)
        } else {
            0.0
        }
    };
    ParallelStats {
        mid_calls: a.mid_calls + b.mid_calls,
        nodes: a.nodes + b.nodes,
        repetitions: a.repetitions + b.repetitions,
        max_depth: a.max_depth.max(b.max_depth),
        jobs: a.jobs + b.jobs,
        threads: a.threads,
        tree_nodes_peak: a.tree_nodes_peak.max(b.tree_nodes_peak),
        table: {
            let mut table = a.table;
            table.accumulate(&b.table);
            table
        },
        elapsed: a.elapsed + b.elapsed,
        worker_idle_share: weighted(a.worker_idle_share, b.worker_idle_share),
        coordinator_busy_share: weighted(a.coordinator_busy_share, b.coordinator_busy_share),
        confirm_nodes: a.confirm_nodes + b.confirm_nodes,
        refutations: a.refutations + b.refutations,
    }
}

/// Stops the search when a worker unwinds (its game panicked): every waiting worker wakes,
/// sees the halt flag and leaves, and the panic reaches the caller.
struct HaltOnPanic<'a, T>(&'a AtomicBool, &'a Condvar, &'a Mutex<T>);

impl<T> Drop for HaltOnPanic<'_, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::SeqCst);
            // Taking the lock orders the flag before any worker's check-then-wait, so none
            // misses the wake-up.
            let _state = self.2.lock().unwrap_or_else(PoisonError::into_inner);
            self.1.notify_all();
        }
    }
}

impl<G> Shared<'_, '_, G>
where
    G: Game + Clone + Send,
    G::Move: Send,
{
    /// One worker: take a job, run it, hand it in, until the root is solved or the search
    /// stops.
    fn work(&self, index: usize, mut game: G, mut stack: Vec<u8>) {
        let config = self.config;
        let mut dfpn = Dfpn::<G>::new(&mut stack, config.max_depth, config.max_moves, config.dfpn)
            .expect("the solver's constructor checked the stack shape");
        let mut handle = self.table.handle();
        // The line buffers at their full size now, fallibly: a worker that cannot have them
        // halts the search with `MemoryLimit` instead of aborting later.
        let mut path: Vec<G::Move> = Vec::new();
        let mut history: Vec<u64> = Vec::new();
        let mut children = Vec::new();
        let depth = config.max_depth.saturating_add(1);
        if path.try_reserve_exact(depth).is_err()
            || history
                .try_reserve_exact(self.history.len().saturating_add(depth))
                .is_err()
            || children.try_reserve_exact(config.max_moves).is_err()
        {
            let mut scheduler = self.state.lock().expect("no worker panicked");
            scheduler.halt(Reason::MemoryLimit);
            self.halt_if_over(&scheduler);
            return;
        }
        history.extend_from_slice(self.history);
        let clock = &self.clocks[index];
        let start = self.state.lock().expect("no worker panicked").start();
        let mut finished: Option<(Ticket, SearchResult<G::Move>)> = None;
        loop {
            // Hand in the last job and take the next one under one lock.
            let wait_start = Instant::now();
            let mut scheduler = self.state.lock().expect("no worker panicked");
            let mut locked_at = Instant::now();
            let mut idle = locked_at - wait_start;
            if let Some((ticket, result)) = finished.take() {
                scheduler.hand_in(ticket, &JobReport::from_search(&result, &children));
                self.wake.notify_all();
            }
            let assignment = loop {
                if self.halt.load(Ordering::SeqCst) {
                    break None;
                }
                match scheduler.next_job(&mut path) {
                    Next::Job(a) => break Some(a),
                    Next::Over => break None,
                    Next::Busy => {}
                }
                // Every open leaf is busy: wait for a job to come back.
                let waiting = Instant::now();
                clock
                    .locked_ns
                    .fetch_add((waiting - locked_at).as_nanos() as u64, Ordering::Relaxed);
                scheduler = self.wake.wait(scheduler).expect("no worker panicked");
                locked_at = Instant::now();
                idle += locked_at - waiting;
            };
            self.halt_if_over(&scheduler);
            drop(scheduler);
            clock
                .locked_ns
                .fetch_add(locked_at.elapsed().as_nanos() as u64, Ordering::Relaxed);
            clock
                .idle_ns
                .fetch_add(idle.as_nanos() as u64, Ordering::Relaxed);
            let Some(a) = assignment else {
                return;
            };

            // Walk to the leaf, recording the line as history, search, and walk back.
            history.truncate(self.history.len());
            for &mv in &path {
                history.push(game.hash());
                game.play(mv);
            }
            let user_stop = self.user_stop;
            let halt = &self.halt;
            let mut now_us = move || {
                if user_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    halt.store(true, Ordering::Relaxed);
                }
                start.elapsed().as_micros() as u64
            };
            let mut limits = Limits {
                max_nodes: a.max_nodes,
                max_work: a.max_work,
                stop: Some(&self.halt),
                clock: Some(&mut now_us),
                max_time_us: a.max_time_us,
                progress: None,
            };
            let job = Job {
                attacker: self.attacker,
                threshold: a.threshold,
                history: &history,
            };
            dfpn.opponent_salt = self.opponent_salt;
            let mut result = dfpn.search(&mut game, &job, &mut handle, &mut limits);
            result.stats.max_depth += path.len() as u32;
            children.clear();
            children.extend(dfpn.root_children());
            for &mv in path.iter().rev() {
                game.undo(mv);
            }
            finished = Some((a.ticket, result));
        }
    }

    /// Once the scheduler says the search is over (solved, a limit, an error), stops the
    /// running jobs and wakes every waiting worker.
    fn halt_if_over(&self, scheduler: &Scheduler<'_, G::Move>) {
        if scheduler.is_over() && !self.halt.swap(true, Ordering::SeqCst) {
            self.wake.notify_all();
        }
    }
}
