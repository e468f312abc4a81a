//! Rank 0: the root tree ([`Scheduler`]) and the jobs' bookkeeping, driving the other ranks
//! (and, when asked, job threads of its own) through a [`Link`].
//!
//! The loop: hand a job to every idle slot while the scheduler has one, then wait for a
//! result (or a message), take it in, and repeat until the scheduler says the search is over;
//! then cancel the running jobs and wait until every rank says it is idle. A rank that says
//! nothing for [`Settings::rank_timeout`] while it has jobs is given up: its jobs go back to
//! the tree (their tickets are abandoned, so a late result is refused) and to other ranks.
//! Checkpoints are written every [`CheckpointPlan::every`], when [`Signals::checkpoint_now`]
//! is set, and when a search ends unsolved (a limit or a stop), so it can be resumed: the
//! coordinator writes the tree and its table ([`crate::checkpoint`]) and asks every rank to
//! write its own table beside it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use proofnum::parallel::{JobReport, Next, Ticket, TreeSnapshot};
use proofnum::table::{SharedHandle, SharedTable, Table, TranspositionTable};
use proofnum::{
    Game, MoveCodec, Numbers, ParallelConfig, ParallelLimits, ParallelStats, Player, Reason,
    Scheduler, Stats, Status, Value,
};

use crate::checkpoint::{self, Checkpoint, Question, decode_tree, encode_tree};
use crate::link::Link;
use crate::pool::{MIN_SHARED_WORK_LOG2, Pool, PoolSettings, stop_flags};
use crate::wire::{JobDone, JobOrder, Message, RankFigures, SolvedEntry, Start};
use crate::{COORDINATOR, Error};

/// Solved positions waiting for one rank are capped here (the oldest are dropped): a rank
/// that takes few jobs does not make the coordinator hoard them.
const OUTBOX_CAP: usize = 4096;
/// The most ranks one job's solved positions are passed on to.
const SHARE_FANOUT: usize = 8;
/// The bytes a job message may take with the solved positions it carries (24 bytes each):
/// MPI sends a message this small without waiting for the worker to take it (Open MPI's
/// shared-memory transport up to 256 bytes with its header; larger sends complete only when
/// the worker's next MPI call takes them, up to a millisecond later while it runs a job, and
/// the coordinator would wait that long). Positions that do not fit wait for the next job.
const JOB_MESSAGE_BYTES: usize = 224;
/// The longest the coordinator waits for its own slots before looking for messages.
const LOCAL_POLL: Duration = Duration::from_micros(200);
/// The longest one wait for messages lasts, so timers and signals are seen.
const WAIT: Duration = Duration::from_millis(2);

/// How a distributed solve runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Job budget, split threshold, the jobs' df-pn settings and thresholds, depth and moves.
    /// `threads` is the job threads of each worker rank; 0 lets each rank take its share of
    /// its node's cores.
    pub parallel: ParallelConfig,
    /// Bytes of every rank's table, the coordinator's included.
    pub table_bytes: usize,
    /// Job threads on the coordinator itself, over its own table (with one rank, the only
    /// ones).
    pub coordinator_threads: usize,
    /// Solved positions each job reports (its largest), which the coordinator stores and
    /// passes on to up to eight other ranks with their next jobs; 0 shares nothing. On three
    /// job ranks it saved 8 to 16% of the MID calls on Connect Four (`docs/scale-out.md`).
    pub solved_per_job: usize,
    /// A solved position is passed on only when at least 2^this MID calls were spent below it
    /// (its table entry's `work_log2`): smaller ones are cheaper to search again than to send.
    /// Default [`MIN_SHARED_WORK_LOG2`]; the oracle suites use 0, so that the small positions
    /// of their games are shared too.
    pub shared_min_work_log2: u8,
    /// A rank with jobs that sends nothing for this long is given up.
    pub rank_timeout: Duration,
    /// Jobs each slot gets queued behind the one it runs, so that it starts the next at once
    /// instead of waiting for the round trip to the coordinator (0: one job at a time, as
    /// the threaded solver). A queued job is chosen while the one before still runs, as one
    /// more slot would choose it.
    pub jobs_ahead: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            parallel: ParallelConfig::default(),
            table_bytes: 64 << 20,
            coordinator_threads: 0,
            solved_per_job: 16,
            shared_min_work_log2: MIN_SHARED_WORK_LOG2,
            rank_timeout: Duration::from_secs(120),
            jobs_ahead: 0,
        }
    }
}

/// Where and when checkpoints are written.
#[derive(Clone, Debug)]
pub struct CheckpointPlan {
    /// The file (written as `PATH.tmp`, then renamed).
    pub path: PathBuf,
    /// Write one this often; `None` for only on a signal and at an unsolved end.
    pub every: Option<Duration>,
    /// What is being solved, recorded in the file and checked on resume.
    pub label: String,
    /// Print a line to standard error for each checkpoint written.
    pub announce: bool,
}

/// Flags set from outside (by signal handlers) that the coordinator polls.
#[derive(Clone, Copy, Debug, Default)]
pub struct Signals<'a> {
    /// Write a checkpoint now (the coordinator clears it).
    pub checkpoint_now: Option<&'a AtomicBool>,
    /// The run is being ended from outside: return [`Error::Terminated`] at once.
    pub terminate: Option<&'a AtomicBool>,
}

/// What one rank did in a solve, and the traffic between it and the coordinator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// Its job slots.
    pub slots: u64,
    /// Jobs it ran.
    pub jobs: u64,
    /// Nanoseconds its slots spent in jobs, added up.
    pub busy_ns: u64,
    /// Nanoseconds from the solve's start to its last word.
    pub elapsed_ns: u64,
    /// Messages the coordinator sent it.
    pub messages_to: u64,
    /// Bytes the coordinator sent it.
    pub bytes_to: u64,
    /// Messages it sent the coordinator.
    pub messages_from: u64,
    /// Bytes it sent the coordinator.
    pub bytes_from: u64,
    /// It was given up (it fell silent with jobs).
    pub lost: bool,
}

impl RankStats {
    /// The share of its slots' time without a job, 0 to 1.
    pub fn idle_share(&self) -> f64 {
        let capacity = self.slots as f64 * self.elapsed_ns as f64;
        if capacity > 0.0 {
            (1.0 - self.busy_ns as f64 / capacity).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    fn accumulate(&mut self, o: &RankStats) {
        self.slots = self.slots.max(o.slots);
        self.jobs += o.jobs;
        self.busy_ns += o.busy_ns;
        self.elapsed_ns += o.elapsed_ns;
        self.messages_to += o.messages_to;
        self.bytes_to += o.bytes_to;
        self.messages_from += o.messages_from;
        self.bytes_from += o.bytes_from;
        self.lost |= o.lost;
    }
}

/// Counters of a distributed solve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistributedStats {
    /// The search's counters, as the threaded solver reports them: `threads` is every job
    /// slot of every rank, `worker_idle_share` their idle share, `coordinator_busy_share` the
    /// coordinator's share of wall time spent handling jobs and results.
    pub search: ParallelStats,
    /// Per rank (index 0: the coordinator's own slots).
    pub ranks: Vec<RankStats>,
    /// Jobs handed out plus results taken in by the coordinator.
    pub coordinator_ops: u64,
    /// Time the coordinator spent on them (decoding, the tree, encoding, sending).
    pub coordinator_busy: Duration,
    /// Results refused because their job was no longer running (given up, another search).
    pub stale_results: u64,
    /// Solved positions sent on to other ranks.
    pub solved_forwarded: u64,
    /// Checkpoints written, and their bytes added up.
    pub checkpoints: (u64, u64),
    /// Checkpoints on the timer or a signal that could not be written (a full disk, say): the
    /// previous one was kept and the search went on.
    pub checkpoint_failures: u64,
    /// MID calls of the runs a resumed solve continues (0 for a fresh one).
    pub resumed_mid_calls: u64,
    /// How long the jobs ran: entry `i` counts the jobs of 2^i to 2^(i+1) microseconds (the
    /// first also those under one). `docs/scale-out.md` sizes clusters from it.
    pub job_micros_log2: [u64; 32],
}

impl DistributedStats {
    /// Counts a job that ran `busy_ns` nanoseconds.
    fn record_job(&mut self, busy_ns: u64) {
        let micros = (busy_ns / 1000).max(1);
        self.job_micros_log2[(micros.ilog2() as usize).min(31)] += 1;
    }
}

impl DistributedStats {
    fn accumulate(&mut self, o: &DistributedStats) {
        let (ta, tb) = (
            self.search.elapsed.as_secs_f64(),
            o.search.elapsed.as_secs_f64(),
        );
        let weighted = |x: f64, y: f64| {
            if ta + tb > 0.0 {
                (x * ta + y * tb) / (ta + tb)
            } else {
                0.0
            }
        };
        let s = &mut self.search;
        s.worker_idle_share = weighted(s.worker_idle_share, o.search.worker_idle_share);
        s.coordinator_busy_share =
            weighted(s.coordinator_busy_share, o.search.coordinator_busy_share);
        s.mid_calls += o.search.mid_calls;
        s.nodes += o.search.nodes;
        s.repetitions += o.search.repetitions;
        s.max_depth = s.max_depth.max(o.search.max_depth);
        s.jobs += o.search.jobs;
        s.threads = s.threads.max(o.search.threads);
        s.tree_nodes_peak = s.tree_nodes_peak.max(o.search.tree_nodes_peak);
        s.table.accumulate(&o.search.table);
        s.elapsed += o.search.elapsed;
        if self.ranks.len() < o.ranks.len() {
            self.ranks.resize(o.ranks.len(), RankStats::default());
        }
        for (a, b) in self.ranks.iter_mut().zip(&o.ranks) {
            a.accumulate(b);
        }
        self.coordinator_ops += o.coordinator_ops;
        self.coordinator_busy += o.coordinator_busy;
        self.stale_results += o.stale_results;
        self.solved_forwarded += o.solved_forwarded;
        self.checkpoints.0 += o.checkpoints.0;
        self.checkpoints.1 += o.checkpoints.1;
        self.checkpoint_failures += o.checkpoint_failures;
        self.resumed_mid_calls += o.resumed_mid_calls;
        for (a, b) in self.job_micros_log2.iter_mut().zip(&o.job_micros_log2) {
            *a += b;
        }
    }
}

/// What a distributed search found.
#[derive(Clone, Debug, PartialEq)]
pub struct DistributedResult<M> {
    /// Proven, disproven, or why not known.
    pub status: Status,
    /// The root's deciding move (see [`proofnum::ParallelResult::best_move`]).
    pub best_move: Option<M>,
    /// The root's real (φ, δ) for its side to move.
    pub numbers: Numbers,
    /// Counters.
    pub stats: DistributedStats,
}

/// The value of a position found by [`Coordinator::solve_value`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistributedValueResult<M> {
    /// The value for the side to move, or why it is not known.
    pub value: Result<Value, Reason>,
    /// A move that achieves it.
    pub best_move: Option<M>,
    /// Counters of both searches.
    pub stats: DistributedStats,
}

/// The coordinator of a session: see the [module docs](self).
pub struct Coordinator<'l, L: Link> {
    link: &'l L,
    settings: Settings,
    epoch: u64,
    lost: Vec<bool>,
    memory: Vec<u8>,
    plan: Option<CheckpointPlan>,
    signals: Signals<'l>,
    /// The checkpoint the next search resumes, for the ranks to reload their tables from.
    resuming: Option<(String, u64)>,
    /// The coordinator's table holds something worth saving: its own jobs' entries, the
    /// ranks' solved positions, or a loaded checkpoint's table.
    table_used: bool,
}

/// One job slot: (rank, slot on that rank).
type Slot = (usize, u64);

/// Everything one search's loop keeps.
struct Run<'r, 'p, M> {
    scheduler: Scheduler<'p, M>,
    /// The jobs every slot has, by rank: the one it runs and those queued behind it.
    running: Vec<Vec<VecDeque<Ticket>>>,
    idle: VecDeque<Slot>,
    last_heard: Vec<Instant>,
    outbox: Vec<VecDeque<SolvedEntry>>,
    handle: SharedHandle<'r>,
    stats: DistributedStats,
    path: Vec<M>,
    codes: Vec<u64>,
    children: Vec<(M, Numbers, bool)>,
    started: Instant,
    last_checkpoint: Instant,
}

impl<'l, L: Link> Coordinator<'l, L> {
    /// The coordinator on rank 0 of `link`, with its table allocated.
    pub fn new(link: &'l L, settings: Settings) -> Result<Coordinator<'l, L>, Error> {
        if link.rank() != COORDINATOR {
            return Err(Error::Protocol("the coordinator runs on rank 0"));
        }
        let mut memory = Vec::new();
        memory
            .try_reserve_exact(settings.table_bytes)
            .map_err(|_| Error::Memory)?;
        memory.resize(settings.table_bytes, 0);
        Table::new(&mut memory).map_err(Error::Table)?;
        Ok(Coordinator {
            link,
            settings,
            epoch: 0,
            lost: vec![false; link.size()],
            memory,
            plan: None,
            signals: Signals::default(),
            resuming: None,
            table_used: settings.coordinator_threads > 0 || settings.solved_per_job > 0,
        })
    }

    /// Writes checkpoints as `plan` says.
    pub fn with_checkpoints(mut self, plan: CheckpointPlan) -> Self {
        self.plan = Some(plan);
        self
    }

    /// Polls these flags.
    pub fn with_signals(mut self, signals: Signals<'l>) -> Self {
        self.signals = signals;
        self
    }

    /// The coordinator's table between solves: what its own job threads stored and the solved
    /// positions the ranks reported, for a principal variation or a proof check on rank 0.
    pub fn table(&mut self) -> Table<'_> {
        Table::attach(&mut self.memory).expect("the coordinator's memory always holds a table")
    }

    /// The ranks given up so far.
    pub fn lost_ranks(&self) -> Vec<usize> {
        (0..self.lost.len()).filter(|&r| self.lost[r]).collect()
    }

    /// Ends the session: every worker rank returns from [`serve`](crate::serve).
    pub fn finish(self) {
        for rank in 1..self.link.size() {
            if !self.lost[rank] {
                self.link.send(rank, &Message::Finish.encode());
            }
        }
    }

    /// Does `attacker` have a forced win from `game`'s position? Every rank searches its own
    /// copy of the position (the worker ranks the one they were given). With `resume`, the
    /// search continues the checkpoint's (which must be of this question).
    pub fn solve<G>(
        &mut self,
        game: &G,
        attacker: Player,
        limits: &mut ParallelLimits<'_>,
        resume: Option<&Checkpoint>,
    ) -> Result<DistributedResult<G::Move>, Error>
    where
        G: Game + MoveCodec + Clone + Send + Sync,
        G::Move: Send,
    {
        let question = Question::CanWin(attacker);
        self.check_resume(game, question, resume)?;
        self.resuming = self.resume_path(resume);
        self.table_used |= resume.is_some_and(|c| !c.table.is_empty());
        let mut memory = std::mem::take(&mut self.memory);
        let outcome = (|| {
            let table = Self::starting_table(&mut memory, resume)?;
            let tree = resume.map(|c| decode_tree::<G>(&c.tree)).transpose()?;
            let finished = resume.map_or((Stats::default(), 0), |c| c.finished);
            self.search(
                game,
                attacker,
                question,
                true,
                &table,
                limits,
                tree.as_ref(),
                finished,
            )
        })();
        self.memory = memory;
        outcome
    }

    /// The value of `game`'s position for its side to move: "can the side to move win?",
    /// then, if not, "can the opponent?" (as [`proofnum::ParallelSolver::solve_value`]).
    pub fn solve_value<G>(
        &mut self,
        game: &G,
        limits: &mut ParallelLimits<'_>,
        resume: Option<&Checkpoint>,
    ) -> Result<DistributedValueResult<G::Move>, Error>
    where
        G: Game + MoveCodec + Clone + Send + Sync,
        G::Move: Send,
    {
        self.check_resume(game, Question::Value, resume)?;
        self.resuming = self.resume_path(resume);
        self.table_used |= resume.is_some_and(|c| !c.table.is_empty());
        let me = game.side_to_move();
        let mut memory = std::mem::take(&mut self.memory);
        let outcome = (|| {
            let table = Self::starting_table(&mut memory, resume)?;
            let tree = resume.map(|c| decode_tree::<G>(&c.tree)).transpose()?;
            let mut stats = DistributedStats::default();
            let mut finished = resume.map_or((Stats::default(), 0), |c| c.finished);
            // A checkpoint of the second search: the first found no win for the side to move.
            let second_only = resume.is_some_and(|c| c.attacker != me);
            if !second_only {
                let first = self.search(
                    game,
                    me,
                    Question::Value,
                    true,
                    &table,
                    limits,
                    tree.as_ref(),
                    finished,
                )?;
                match first.status {
                    Status::Proven => {
                        return Ok(DistributedValueResult {
                            value: Ok(Value::Win),
                            best_move: first.best_move,
                            stats: first.stats,
                        });
                    }
                    Status::Unknown(reason) => {
                        return Ok(DistributedValueResult {
                            value: Err(reason),
                            best_move: None,
                            stats: first.stats,
                        });
                    }
                    Status::Disproven => {}
                }
                let s = &first.stats.search;
                let mut done = Stats {
                    mid_calls: s.mid_calls,
                    nodes: s.nodes,
                    max_depth: s.max_depth,
                    repetitions: s.repetitions,
                    table: s.table,
                    elapsed_us: None,
                };
                done.mid_calls += first.stats.resumed_mid_calls;
                finished.0.accumulate(&done);
                finished.1 += s.jobs;
                stats = first.stats;
            }
            let saved = (limits.max_nodes, limits.max_work, limits.max_time);
            limits.max_nodes = saved.0.saturating_sub(stats.search.nodes);
            limits.max_work = saved.1.saturating_sub(stats.search.mid_calls);
            limits.max_time = saved.2.map(|t| t.saturating_sub(stats.search.elapsed));
            let tree = if second_only { tree.as_ref() } else { None };
            let second = self.search(
                game,
                me.opponent(),
                Question::Value,
                // After the first search the ranks' tables hold this root's results; a
                // resumed second search starts on fresh ranks.
                second_only,
                &table,
                limits,
                tree,
                finished,
            );
            (limits.max_nodes, limits.max_work, limits.max_time) = saved;
            let second = second?;
            stats.accumulate(&second.stats);
            let value = match second.status {
                Status::Proven => Ok(Value::Loss),
                Status::Disproven => Ok(Value::Draw),
                Status::Unknown(reason) => Err(reason),
            };
            Ok(DistributedValueResult {
                value,
                best_move: second.best_move,
                stats,
            })
        })();
        self.memory = memory;
        outcome
    }

    /// Where the ranks find their tables of the checkpoint being resumed: next to the plan's
    /// file.
    fn resume_path(&self, resume: Option<&Checkpoint>) -> Option<(String, u64)> {
        let c = resume?;
        let path = self.plan.as_ref()?.path.to_string_lossy().into_owned();
        Some((path, checkpoint::stamp(&c.label, c.root_hash)))
    }

    /// Refuses a checkpoint of another question, position or label.
    fn check_resume<G: Game>(
        &self,
        game: &G,
        question: Question,
        resume: Option<&Checkpoint>,
    ) -> Result<(), Error> {
        let Some(c) = resume else { return Ok(()) };
        // The label first: it names the game, which says most when the game is another.
        if let Some(plan) = &self.plan
            && plan.label != c.label
        {
            return Err(Error::Resume(format!(
                "the checkpoint is of \"{}\", not \"{}\"",
                c.label, plan.label
            )));
        }
        if c.root_hash != game.hash() {
            return Err(Error::Resume(
                "the checkpoint is of another position".into(),
            ));
        }
        if c.question != question {
            return Err(Error::Resume(format!(
                "the checkpoint answers {:?}, not {question:?}",
                c.question
            )));
        }
        Ok(())
    }

    /// The coordinator's table: empty, or the checkpoint's.
    fn starting_table<'m>(
        memory: &'m mut [u8],
        resume: Option<&Checkpoint>,
    ) -> Result<SharedTable<'m>, Error> {
        match resume {
            Some(c) if !c.table.is_empty() => Table::load(memory, &c.table)
                .map(SharedTable::from_table)
                .map_err(Error::Table),
            _ => SharedTable::new(memory).map_err(Error::Table),
        }
    }

    fn send(&self, stats: &mut DistributedStats, rank: usize, message: &Message) {
        let words = message.encode();
        self.link.send(rank, &words);
        let r = &mut stats.ranks[rank];
        r.messages_to += 1;
        r.bytes_to += 8 * words.len() as u64;
    }

    /// One search (one attacker) over every rank; `new_root` empties the ranks' tables first.
    #[allow(clippy::too_many_arguments)]
    fn search<G>(
        &mut self,
        game: &G,
        attacker: Player,
        question: Question,
        new_root: bool,
        table: &SharedTable<'_>,
        limits: &mut ParallelLimits<'_>,
        resume: Option<&TreeSnapshot<G::Move>>,
        finished: (Stats, u64),
    ) -> Result<DistributedResult<G::Move>, Error>
    where
        G: Game + MoveCodec + Clone + Send + Sync,
        G::Move: Send,
    {
        let size = self.link.size();
        self.epoch += 1;
        let epoch = self.epoch;
        let config = self.settings.parallel;
        let attacker_moves = game.side_to_move() == attacker;
        let scheduler = match resume {
            Some(tree) => Scheduler::resume(&config, attacker_moves, limits, tree)?,
            None => Scheduler::new(&config, attacker_moves, limits),
        };
        let now = Instant::now();
        let mut run = Run {
            scheduler,
            running: vec![Vec::new(); size],
            idle: VecDeque::new(),
            last_heard: vec![now; size],
            outbox: vec![VecDeque::new(); size],
            handle: table.handle(),
            stats: DistributedStats {
                ranks: vec![RankStats::default(); size],
                resumed_mid_calls: resume.map_or(0, |t| t.stats.mid_calls),
                ..DistributedStats::default()
            },
            path: Vec::new(),
            codes: Vec::new(),
            children: Vec::new(),
            started: now,
            last_checkpoint: now,
        };
        let job_tables = (1..size).filter(|&r| !self.lost[r]).count()
            + (self.settings.coordinator_threads > 0) as usize;
        let (resume_file, resume_stamp) = match (&self.resuming, resume) {
            (Some((path, stamp)), Some(_)) => (path.clone(), *stamp),
            _ => (String::new(), 0),
        };
        let start = Start {
            epoch,
            new_root,
            root_hash: game.hash(),
            attacker,
            dfpn: config.dfpn,
            max_depth: config.max_depth as u64,
            max_moves: config.max_moves as u64,
            table_bytes: self.settings.table_bytes as u64,
            threads: config.threads as u64,
            // Sharing needs two tables that run jobs: with one, reports only cost bytes.
            solved_per_job: if job_tables >= 2 {
                self.settings.solved_per_job as u64
            } else {
                0
            },
            shared_min_work_log2: self.settings.shared_min_work_log2,
            resume: resume_file,
            resume_stamp,
        };
        if resume.is_some() {
            self.resuming = None;
        }
        for rank in 1..size {
            if !self.lost[rank] {
                self.send(&mut run.stats, rank, &Message::Start(start.clone()));
            }
        }
        self.await_hellos(&mut run, game.hash())?;
        let local = self.settings.coordinator_threads;
        let stops = stop_flags(local);
        let settings = PoolSettings {
            attacker,
            dfpn: config.dfpn,
            max_depth: config.max_depth,
            max_moves: config.max_moves,
            solved_per_job: 0,
            shared_min_work_log2: 0,
        };
        run.running[COORDINATOR] = vec![VecDeque::new(); local];
        for _ in 0..=self.settings.jobs_ahead {
            run.idle.extend((0..local as u64).map(|s| (COORDINATOR, s)));
        }
        run.stats.ranks[COORDINATOR].slots = local as u64;
        if run.idle.is_empty() {
            return Err(Error::NoWorkers);
        }
        let outcome = std::thread::scope(|scope| {
            let mut pool = (local > 0).then(|| Pool::spawn(scope, game, table, settings, &stops));
            let driven = self.drive(
                &mut run, game, attacker, question, table, &mut pool, finished,
            );
            let drained = match &driven {
                Err(Error::Terminated) => Ok(()),
                _ => self.drain::<G>(&mut run, &mut pool),
            };
            if let Some(p) = &pool {
                let r = &mut run.stats.ranks[COORDINATOR];
                (r.jobs, r.busy_ns) = (p.jobs, p.busy_ns);
                r.elapsed_ns = run.started.elapsed().as_nanos() as u64;
            }
            driven.and(drained)
        });
        limits.progress = run.scheduler.take_progress();
        outcome?;
        if !run.scheduler.result().numbers.is_solved() && self.plan.is_some() {
            self.checkpoint(&mut run, game, attacker, question, table, finished)?;
            // The search is over: the ranks are idle, so wait until their tables are written,
            // and the checkpoint is whole when the solve returns.
            self.await_saved(&mut run);
        }
        Ok(self.result(run))
    }

    /// Waits until every live worker rank has said hello (or is given up).
    fn await_hellos<M: Copy + Default>(
        &mut self,
        run: &mut Run<'_, '_, M>,
        root_hash: u64,
    ) -> Result<(), Error> {
        let epoch = self.epoch;
        let size = self.link.size();
        let mut waiting: Vec<usize> = (1..size).filter(|&r| !self.lost[r]).collect();
        let since = Instant::now();
        while !waiting.is_empty() {
            self.check_terminate()?;
            if since.elapsed() > self.settings.rank_timeout {
                for &rank in &waiting {
                    self.lose(run, rank);
                }
                break;
            }
            let Some((rank, words)) = self.link.receive(WAIT) else {
                continue;
            };
            self.heard(run, rank, &words);
            let message = Message::decode(&words).map_err(|error| Error::Wire { rank, error })?;
            if let Message::Done(_) = message {
                // Of an earlier search, from a rank given up then: it cannot count.
                run.stats.stale_results += 1;
            }
            if let Message::Hello {
                epoch: e,
                root_hash: h,
                slots,
            } = message
                && e == epoch
            {
                if h != root_hash {
                    return Err(Error::PositionMismatch { rank });
                }
                run.running[rank] = vec![VecDeque::new(); slots as usize];
                for _ in 0..=self.settings.jobs_ahead {
                    run.idle.extend((0..slots).map(|s| (rank, s)));
                }
                run.stats.ranks[rank].slots = slots;
                waiting.retain(|&r| r != rank);
            }
        }
        Ok(())
    }

    fn heard<M>(&self, run: &mut Run<'_, '_, M>, rank: usize, words: &[u64]) {
        run.last_heard[rank] = Instant::now();
        let r = &mut run.stats.ranks[rank];
        r.messages_from += 1;
        r.bytes_from += 8 * words.len() as u64;
    }

    fn check_terminate(&self) -> Result<(), Error> {
        if self
            .signals
            .terminate
            .is_some_and(|t| t.load(Ordering::Relaxed))
        {
            Err(Error::Terminated)
        } else {
            Ok(())
        }
    }

    /// Gives up `rank`: its jobs go back to the tree, it gets no more.
    fn lose<M: Copy + Default>(&mut self, run: &mut Run<'_, '_, M>, rank: usize) {
        if self.lost[rank] {
            return;
        }
        self.lost[rank] = true;
        run.stats.ranks[rank].lost = true;
        for running in &mut run.running[rank] {
            for ticket in running.drain(..) {
                run.scheduler.abandon(ticket);
            }
        }
        run.idle.retain(|&(r, _)| r != rank);
    }

    /// Hands out jobs and takes results in until the search is over.
    #[allow(clippy::too_many_arguments)]
    fn drive<G>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        pool: &mut Option<Pool<'_>>,
        finished: (Stats, u64),
    ) -> Result<(), Error>
    where
        G: Game + MoveCodec,
    {
        loop {
            self.check_terminate()?;
            let handing = Instant::now();
            let mut handed = 0;
            while let Some(&(rank, slot)) = run.idle.front() {
                let a = match run.scheduler.next_job(&mut run.path) {
                    Next::Job(a) => a,
                    Next::Busy | Next::Over => break,
                };
                run.idle.pop_front();
                handed += 1;
                run.codes.clear();
                run.codes
                    .extend(run.path.iter().map(|&m| G::encode_move(m)));
                // The job's own words: kind, epoch, slot, serial, threshold, 3 budgets, the
                // path (bytes packed) and the list's length.
                let words = 9 + run.codes.len().div_ceil(8);
                let room = JOB_MESSAGE_BYTES.saturating_sub(8 * words) / 24;
                let take = run.outbox[rank].len().min(room);
                let order = JobOrder {
                    epoch: self.epoch,
                    slot,
                    ticket: a.ticket.parts(),
                    threshold: a.threshold,
                    max_work: a.max_work,
                    max_nodes: a.max_nodes,
                    max_time_us: a.max_time_us,
                    path: run.codes.clone(),
                    // The newest first: they are about where the search is now.
                    solved: {
                        let outbox = &mut run.outbox[rank];
                        outbox.drain(outbox.len() - take..).collect()
                    },
                };
                run.stats.solved_forwarded += take as u64;
                run.running[rank][slot as usize].push_back(a.ticket);
                if rank == COORDINATOR {
                    pool.as_mut().expect("local slots have a pool").start(order);
                } else {
                    self.send(&mut run.stats, rank, &Message::Job(order));
                }
            }
            if handed > 0 {
                run.stats.coordinator_ops += handed;
                run.stats.coordinator_busy += handing.elapsed();
            }
            if run.scheduler.is_over() {
                return Ok(());
            }
            if run.running.iter().flatten().all(VecDeque::is_empty) {
                // Nothing runs and nothing can be handed out: every rank is gone.
                return Err(Error::RanksLost(self.lost_ranks()));
            }
            if let Some(done) = self.next_result(run, pool)? {
                self.take_in::<G>(run, done)?;
            }
            self.give_up_silent_ranks(run);
            let now_requested = self
                .signals
                .checkpoint_now
                .is_some_and(|f| f.swap(false, Ordering::Relaxed));
            let due = self
                .plan
                .as_ref()
                .and_then(|p| p.every)
                .is_some_and(|every| run.last_checkpoint.elapsed() >= every);
            if (now_requested || due)
                && self.plan.is_some()
                && let Err(e) = self.checkpoint(run, game, attacker, question, table, finished)
            {
                // A file is replaced only once its successor is whole, so the last checkpoint
                // still stands: a long search is not thrown away for want of a newer one.
                run.stats.checkpoint_failures += 1;
                run.last_checkpoint = Instant::now();
                eprintln!("proofnum-mpi: {e}; the previous checkpoint is kept, the search goes on");
            }
        }
    }

    /// The next result from a local slot or a rank (other messages are only noted), waiting
    /// a little when there is none.
    fn next_result<M>(
        &mut self,
        run: &mut Run<'_, '_, M>,
        pool: &mut Option<Pool<'_>>,
    ) -> Result<Option<JobDone>, Error> {
        let local_running = pool.as_ref().is_some_and(|p| p.running() > 0);
        if let Some(p) = pool.as_mut()
            && let Some(done) = p.finished(Duration::ZERO)
        {
            return Ok(Some(done));
        }
        let wait = if local_running { Duration::ZERO } else { WAIT };
        if let Some((rank, words)) = self.link.receive(wait) {
            self.heard(run, rank, &words);
            let message = Message::decode(&words).map_err(|error| Error::Wire { rank, error })?;
            return Ok(match message {
                Message::Saved { bytes, .. } => {
                    run.stats.checkpoints.1 += bytes;
                    None
                }
                Message::Done(done) if rank != COORDINATOR => self.accept(run, rank, done),
                _ => None,
            });
        }
        if local_running && let Some(p) = pool.as_mut() {
            return Ok(p.finished(LOCAL_POLL));
        }
        Ok(None)
    }

    /// A rank's result as [`take_in`](Coordinator::take_in) takes it, the rank in the slot
    /// field's high bits; `None`, counted as stale, for a result that can no longer count: from
    /// a rank given up (it may have been only stalled, and its slots may be gone by now) or of
    /// an earlier search.
    fn accept<M>(&self, run: &mut Run<'_, '_, M>, rank: usize, done: JobDone) -> Option<JobDone> {
        if self.lost[rank] || done.epoch != self.epoch {
            run.stats.stale_results += 1;
            return None;
        }
        let r = &mut run.stats.ranks[rank];
        r.jobs += 1;
        r.busy_ns += done.busy_ns;
        Some(JobDone {
            slot: done.slot | (rank as u64) << 32,
            ..done
        })
    }

    /// Takes a result into the tree and frees its slot.
    fn take_in<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        done: JobDone,
    ) -> Result<(), Error> {
        let taking = Instant::now();
        let (rank, slot) = ((done.slot >> 32) as usize, done.slot & 0xFFFF_FFFF);
        let Some(running) = run
            .running
            .get_mut(rank)
            .and_then(|r| r.get_mut(slot as usize))
        else {
            return Err(Error::Protocol("a result from a slot that does not exist"));
        };
        run.stats.record_job(done.busy_ns);
        let ticket = Ticket::from_parts(done.ticket.0, done.ticket.1);
        if let Some(at) = running.iter().position(|&t| t == ticket) {
            running.remove(at);
            if !self.lost[rank] {
                run.idle.push_back((rank, slot));
            }
        }
        let bad_move = |code| Error::BadMove { rank, code };
        run.children.clear();
        for &(code, numbers, flip) in &done.children {
            let mv = G::decode_move(code).ok_or_else(|| bad_move(code))?;
            run.children.push((mv, numbers, flip));
        }
        let best_move = done
            .best_move
            .map(|code| G::decode_move(code).ok_or_else(|| bad_move(code)))
            .transpose()?;
        for s in &done.solved {
            run.handle.store(s.key, &s.entry);
        }
        if !done.solved.is_empty() {
            // To the next few live ranks after the sender (its own slots share its table):
            // a cost per result that does not grow with the cluster.
            let size = run.outbox.len();
            let mut sent = 0;
            for step in 1..size {
                let other = (rank + step) % size;
                if other == COORDINATOR || self.lost[other] {
                    continue;
                }
                let outbox = &mut run.outbox[other];
                outbox.extend(done.solved.iter().copied());
                let excess = outbox.len().saturating_sub(OUTBOX_CAP);
                outbox.drain(..excess);
                sent += 1;
                if sent == SHARE_FANOUT {
                    break;
                }
            }
        }
        let report = JobReport {
            status: done.status,
            numbers: done.numbers,
            best_move,
            stats: done.stats,
            children: &run.children,
        };
        // A refused ticket is counted by the scheduler (`result` adds its count).
        run.scheduler.hand_in(ticket, &report);
        if let Status::Unknown(Reason::GameError) = done.status {
            return Err(Error::Protocol(
                "a rank could not replay a job's moves (are all ranks given the same position?)",
            ));
        }
        run.stats.coordinator_ops += 1;
        run.stats.coordinator_busy += taking.elapsed();
        Ok(())
    }

    /// Gives up every rank that has jobs but has said nothing for the rank timeout.
    fn give_up_silent_ranks<M: Copy + Default>(&mut self, run: &mut Run<'_, '_, M>) {
        for rank in 1..self.link.size() {
            let busy = run.running[rank].iter().any(|r| !r.is_empty());
            if busy
                && !self.lost[rank]
                && run.last_heard[rank].elapsed() > self.settings.rank_timeout
            {
                eprintln!(
                    "proofnum-mpi: rank {rank} has said nothing for {:.0} s with jobs running; \
                     its jobs go to the other ranks",
                    self.settings.rank_timeout.as_secs_f64()
                );
                self.lose(run, rank);
            }
        }
    }

    /// After the search: cancels the running jobs and waits until every rank is idle, taking
    /// in the results still coming (their work counts, as in the threaded solver).
    fn drain<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        pool: &mut Option<Pool<'_>>,
    ) -> Result<(), Error> {
        let epoch = self.epoch;
        let size = self.link.size();
        let mut waiting: Vec<usize> = (1..size).filter(|&r| !self.lost[r]).collect();
        for &rank in &waiting {
            self.send(&mut run.stats, rank, &Message::Cancel { epoch });
        }
        if let Some(p) = pool.as_ref() {
            p.cancel();
        }
        let since = Instant::now();
        while !waiting.is_empty() || pool.as_ref().is_some_and(|p| p.running() > 0) {
            self.check_terminate()?;
            if let Some(p) = pool.as_mut()
                && let Some(done) = p.finished(Duration::ZERO)
            {
                self.take_in::<G>(run, done)?;
                continue;
            }
            let wait = if waiting.is_empty() { LOCAL_POLL } else { WAIT };
            if let Some((rank, words)) = self.link.receive(wait) {
                self.heard(run, rank, &words);
                match Message::decode(&words).map_err(|error| Error::Wire { rank, error })? {
                    Message::Done(done) if rank != COORDINATOR => {
                        if let Some(done) = self.accept(run, rank, done) {
                            self.take_in::<G>(run, done)?;
                        }
                    }
                    Message::Saved { bytes, .. } => run.stats.checkpoints.1 += bytes,
                    Message::Idle { epoch: e, figures } if e == epoch => {
                        let RankFigures {
                            slots,
                            jobs,
                            busy_ns,
                            elapsed_ns,
                        } = figures;
                        let r = &mut run.stats.ranks[rank];
                        (r.slots, r.jobs, r.busy_ns, r.elapsed_ns) =
                            (slots, jobs, busy_ns, elapsed_ns);
                        waiting.retain(|&w| w != rank);
                    }
                    _ => {}
                }
            }
            if since.elapsed() > self.settings.rank_timeout {
                for rank in std::mem::take(&mut waiting) {
                    eprintln!(
                        "proofnum-mpi: rank {rank} did not answer the end of the search in {:.0} s; \
                         it is given up",
                        self.settings.rank_timeout.as_secs_f64()
                    );
                    self.lose(run, rank);
                }
            }
        }
        Ok(())
    }

    /// Waits (at most the rank timeout) until every live rank has answered the last `Save`.
    fn await_saved<M>(&mut self, run: &mut Run<'_, '_, M>) {
        let size = self.link.size();
        let mut waiting: Vec<usize> = (1..size).filter(|&r| !self.lost[r]).collect();
        let since = Instant::now();
        while !waiting.is_empty() && since.elapsed() < self.settings.rank_timeout {
            if let Some((rank, words)) = self.link.receive(WAIT) {
                self.heard(run, rank, &words);
                if let Ok(Message::Saved { bytes, .. }) = Message::decode(&words) {
                    run.stats.checkpoints.1 += bytes;
                    waiting.retain(|&r| r != rank);
                }
            }
        }
    }

    /// Writes the tree and the table to the plan's file.
    fn checkpoint<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        finished: (Stats, u64),
    ) -> Result<(), Error> {
        let Some(plan) = &self.plan else {
            return Ok(());
        };
        let writing = Instant::now();
        // An unused table (no job threads here, nothing shared) is all zeros: not saved.
        let mut bytes = vec![0u8; if self.table_used { table.byte_len() } else { 0 }];
        if self.table_used {
            table.copy_bytes(&mut bytes);
        }
        let checkpoint = Checkpoint {
            label: plan.label.clone(),
            root_hash: game.hash(),
            question,
            attacker,
            finished,
            tree: encode_tree::<G>(&run.scheduler.snapshot()),
            table: bytes,
        };
        let path = plan.path.to_string_lossy().into_owned();
        for rank in 1..self.link.size() {
            if !self.lost[rank] {
                let save = Message::Save {
                    epoch: self.epoch,
                    path: path.clone(),
                    stamp: checkpoint::stamp(&plan.label, game.hash()),
                };
                self.send(&mut run.stats, rank, &save);
            }
        }
        let written = checkpoint.write(&plan.path)?;
        run.stats.checkpoints.0 += 1;
        run.stats.checkpoints.1 += written;
        run.last_checkpoint = Instant::now();
        if plan.announce {
            eprintln!(
                "checkpoint: {} ({} tree nodes, {} MID calls so far, {:.1} MB, {:.0} ms)",
                plan.path.display(),
                checkpoint.tree.nodes.len(),
                checkpoint.tree.stats.mid_calls + finished.0.mid_calls,
                written as f64 / 1e6,
                writing.elapsed().as_secs_f64() * 1e3
            );
        }
        Ok(())
    }

    /// The search's answer and counters.
    fn result<M: Copy + Default>(&self, run: Run<'_, '_, M>) -> DistributedResult<M> {
        let mut r = run.scheduler.result();
        let mut stats = run.stats;
        stats.stale_results += run.scheduler.stale_results();
        let wall_ns = r.stats.elapsed.as_nanos().max(1) as f64;
        let (busy, capacity) = stats
            .ranks
            .iter()
            .filter(|s| !s.lost)
            .fold((0.0, 0.0), |a, s| {
                (
                    a.0 + s.busy_ns as f64,
                    a.1 + s.slots as f64 * s.elapsed_ns.max(1) as f64,
                )
            });
        r.stats.threads = stats.ranks.iter().map(|s| s.slots as usize).sum();
        r.stats.worker_idle_share = if capacity > 0.0 {
            (1.0 - busy / capacity).clamp(0.0, 1.0)
        } else {
            0.0
        };
        r.stats.coordinator_busy_share =
            (stats.coordinator_busy.as_nanos() as f64 / wall_ns).min(1.0);
        stats.search = r.stats;
        DistributedResult {
            status: r.status,
            best_move: r.best_move,
            numbers: r.numbers,
            stats,
        }
    }
}
