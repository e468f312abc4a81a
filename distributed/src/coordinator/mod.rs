//! Rank 0: the root tree ([`Scheduler`](proofnum::Scheduler)) and the jobs' bookkeeping,
//! driving the other ranks (and, when asked, job threads of its own) through a [`Link`].
//!
//! The loop: hand a job to every idle slot while the scheduler has one, then wait for a
//! result (or a message), take it in, and repeat until the scheduler says the search is over;
//! then cancel the running jobs and wait until every rank says it is idle. A rank that says
//! nothing for [`Settings::rank_timeout`] while it has jobs is given up: its jobs go back to
//! the tree (their tickets are abandoned, so a late result is refused) and to other ranks.
//! Checkpoints are written every [`CheckpointPlan::every`], when [`Signals::checkpoint_now`]
//! is set or the [`CheckpointPlan::trigger`] file appears, when the run is ended from outside
//! with time to spare ([`Signals::grace`]), and when a search ends unsolved (a limit or a
//! stop), so it can be resumed: the
//! coordinator writes the tree and its table ([`crate::checkpoint`]) and asks every rank to
//! write its own table beside it. A solve with checkpoints first checks that their path can be
//! written ([`checkpoint::check_writable`]) and fails at once if not; a checkpoint that fails
//! later is counted ([`DistributedStats::checkpoint_failures`]) and said on standard error,
//! and the search and its result go on.
//!
//! The API is here; the search loop is in `search.rs`, the checkpoints in `saving.rs`, the
//! counters in `stats.rs`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use proofnum::{
    Game, MoveCodec, Numbers, ParallelConfig, ParallelLimits, Player, Reason, Stats, Status, Value,
};
use proofnum::{SharedTable, Table};

use crate::checkpoint::{self, Checkpoint, Question, decode_tree};
use crate::link::Link;
use crate::pool::MIN_SHARED_WORK_LOG2;
use crate::wire::Message;
use crate::{COORDINATOR, Error};

mod saving;
mod search;
mod stats;

pub use stats::{DistributedStats, RankStats};

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
    /// job ranks it saved 8 to 16% of the MID calls on Connect Four (`docs/src/scale-out.md`).
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
    /// A file whose appearance asks for a checkpoint now (looked for a few times a second;
    /// removed once the checkpoint is written, or has failed): `touch` it from anywhere the
    /// file system reaches, where a signal needs rank 0's host and pid. `None`: no trigger.
    pub trigger: Option<PathBuf>,
}

/// Flags set from outside (by signal handlers) that the coordinator polls.
#[derive(Clone, Copy, Debug, Default)]
pub struct Signals<'a> {
    /// Write a checkpoint now (the coordinator clears it).
    pub checkpoint_now: Option<&'a AtomicBool>,
    /// The run is being ended from outside (SIGTERM: Open MPI's `mpirun` sends it to every
    /// rank on Ctrl-C, and to the others when a rank dies): stop the search and return
    /// [`Error::Terminated`], after a last checkpoint when [`grace`](Self::grace) allows.
    pub terminate: Option<&'a AtomicBool>,
    /// How long the process may still run once [`terminate`](Self::terminate) is set, before
    /// it is killed (`mpirun` waits its `odls_base_sigkill_timeout`, 1 s by default, between
    /// SIGTERM and SIGKILL). Zero (the default): return at once, the last checkpoint as it
    /// was. Above zero, with a [`CheckpointPlan`]: ask every rank for its table, wait for their
    /// answers up to 80% of it, then write the checkpoint, listing the ranks that answered
    /// (those that did not start empty on a resume, or from an older file of theirs). Without
    /// [`Settings::coordinator_threads`], that checkpoint leaves out the coordinator's table
    /// (only solved positions the ranks reported, which their tables hold), so that it takes
    /// milliseconds; with them, it is written, and the ranks get 60%.
    pub grace: Duration,
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

/// The ranks' table files of the checkpoint a search resumes.
#[derive(Clone, Debug)]
pub(super) struct Resuming {
    /// The checkpoint's path: rank N's file is `path.rankN`.
    pub(super) path: String,
    /// The solve's [`checkpoint::stamp`], which the files must carry.
    pub(super) stamp: u64,
    /// The ranks that wrote one ([`Checkpoint::rank_files`]; `None`: every worker rank).
    pub(super) rank_files: Option<Vec<u64>>,
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
    resuming: Option<Resuming>,
    /// The coordinator's table holds something worth saving: its own jobs' entries, the
    /// ranks' solved positions, or a loaded checkpoint's table.
    table_used: bool,
}

impl<'l, L: Link> Coordinator<'l, L> {
    /// The coordinator on rank 0 of `link`, with its table allocated.
    pub fn new(link: &'l L, settings: Settings) -> Result<Coordinator<'l, L>, Error> {
        if link.rank() != COORDINATOR {
            return Err(Error::Protocol("the coordinator runs on rank 0"));
        }
        let p = &settings.parallel;
        crate::check_slots(p.threads, p.max_depth, p.max_moves)?;
        crate::check_slots(settings.coordinator_threads, p.max_depth, p.max_moves)?;
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
        self.solving(game, question, resume, |this, table| {
            let tree = resume.map(|c| decode_tree::<G>(&c.tree)).transpose()?;
            let finished = resume.map_or((Stats::default(), 0), |c| c.finished);
            this.search(
                game,
                attacker,
                question,
                true,
                table,
                limits,
                tree.as_ref(),
                finished,
            )
        })
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
        let me = game.side_to_move();
        self.solving(game, Question::Value, resume, |this, table| {
            let tree = resume.map(|c| decode_tree::<G>(&c.tree)).transpose()?;
            let mut stats = DistributedStats::default();
            let mut finished = resume.map_or((Stats::default(), 0), |c| c.finished);
            // A checkpoint of the second search: the first found no win for the side to move.
            let second_only = resume.is_some_and(|c| c.attacker != me);
            if !second_only {
                let first = this.search(
                    game,
                    me,
                    Question::Value,
                    true,
                    table,
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
                    ..Stats::default()
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
            let second = this.search(
                game,
                me.opponent(),
                Question::Value,
                // After the first search the ranks' tables hold this root's results; a
                // resumed second search starts on fresh ranks.
                second_only,
                table,
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
        })
    }

    /// What both solves do around their searches: check the checkpoint they resume and
    /// note it for the ranks, then run `search` over the table (in the coordinator's memory,
    /// loaded from the checkpoint when there is one), giving the memory back whatever
    /// `search` returns.
    fn solving<G: Game, R>(
        &mut self,
        game: &G,
        question: Question,
        resume: Option<&Checkpoint>,
        search: impl FnOnce(&mut Self, &SharedTable<'_>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        self.check_resume(game, question, resume)?;
        // A path checkpoints cannot be written to is found now, not at the first checkpoint
        // (minutes later, or at a stop, when the search is done).
        if let Some(plan) = &self.plan {
            checkpoint::check_writable(&plan.path)?;
        }
        self.resuming = self.resume_path(resume);
        self.table_used |= resume.is_some_and(|c| !c.table.is_empty());
        let mut memory = std::mem::take(&mut self.memory);
        let outcome =
            Self::starting_table(&mut memory, resume).and_then(|table| search(self, &table));
        self.memory = memory;
        outcome
    }

    /// Where the ranks find their tables of the checkpoint being resumed: next to the plan's
    /// file.
    fn resume_path(&self, resume: Option<&Checkpoint>) -> Option<Resuming> {
        let c = resume?;
        let path = self.plan.as_ref()?.path.to_string_lossy().into_owned();
        Some(Resuming {
            path,
            stamp: checkpoint::stamp(&c.label, c.root_hash),
            rank_files: c.rank_files.clone(),
        })
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
}
