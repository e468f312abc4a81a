//! Rank 0's search loop: one search (one attacker) over every rank. Start the ranks, hand a job
//! to every idle slot while the scheduler has one, take results in (dropping those that can no
//! longer count), give up ranks that fall silent, checkpoint when due, and at the end cancel
//! the running jobs and wait until every rank is idle.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use proofnum::parallel::{JobReport, Next, Ticket, TreeSnapshot};
use proofnum::{
    Game, MoveCodec, Numbers, ParallelLimits, Player, Reason, Scheduler, Stats, Status,
};
use proofnum::{SharedHandle, SharedTable, TranspositionTable};

use super::{Coordinator, DistributedResult, DistributedStats, RankStats, Resuming};
use crate::checkpoint::Question;
use crate::link::Link;
use crate::pool::{Pool, PoolSettings, stop_flags};
use crate::wire::{JobDone, JobOrder, Message, RankFigures, ResumedTable, SolvedEntry, Start};
use crate::worker::rank_file;
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
pub(super) const WAIT: Duration = Duration::from_millis(2);

/// How often the checkpoint trigger file is looked for.
const TRIGGER_LOOK: Duration = Duration::from_millis(250);

/// One job slot: (rank, slot on that rank).
pub(super) type Slot = (usize, u64);

/// Everything one search's loop keeps.
pub(super) struct Run<'r, 'p, M> {
    pub(super) scheduler: Scheduler<'p, M>,
    /// The jobs every slot has, by rank: the one it runs and those queued behind it.
    pub(super) running: Vec<Vec<VecDeque<Ticket>>>,
    pub(super) idle: VecDeque<Slot>,
    /// When each rank last spoke, or was handed a job while it had none: the clock of
    /// [`give_up_silent_ranks`](Coordinator::give_up_silent_ranks).
    pub(super) last_heard: Vec<Instant>,
    /// Whether the last look at the inbox found it empty: only then is a rank's silence
    /// real, not the coordinator falling behind on a loaded machine.
    pub(super) inbox_empty: bool,
    pub(super) outbox: Vec<VecDeque<SolvedEntry>>,
    pub(super) handle: SharedHandle<'r>,
    pub(super) stats: DistributedStats,
    pub(super) path: Vec<M>,
    pub(super) codes: Vec<u64>,
    pub(super) children: Vec<(M, Numbers, bool)>,
    pub(super) started: Instant,
    pub(super) last_checkpoint: Instant,
    /// When the plan's trigger file was last looked for.
    pub(super) trigger_looked: Instant,
}

impl<'l, L: Link> Coordinator<'l, L> {
    pub(super) fn send(&self, stats: &mut DistributedStats, rank: usize, message: &Message) {
        let words = message.encode();
        self.link.send(rank, &words);
        let r = &mut stats.ranks[rank];
        r.messages_to += 1;
        r.bytes_to += 8 * words.len() as u64;
    }

    /// One search (one attacker) over every rank; `new_root` empties the ranks' tables first.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search<G>(
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
            inbox_empty: false,
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
            // A trigger already there is seen at once.
            trigger_looked: now.checked_sub(TRIGGER_LOOK).unwrap_or(now),
        };
        let job_tables = (1..size).filter(|&r| !self.lost[r]).count()
            + (self.settings.coordinator_threads > 0) as usize;
        let resuming = resume.and(self.resuming.clone());
        let (resume_file, resume_stamp) = match &resuming {
            Some(r) => (r.path.clone(), r.stamp),
            None => (String::new(), 0),
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
        self.await_hellos(&mut run, game.hash(), resuming.as_ref())?;
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
            let mut outcome = match driven {
                Err(Error::Terminated { .. }) => driven,
                _ => {
                    let drained = self.drain::<G>(&mut run, &mut pool);
                    driven.and(drained)
                }
            };
            if let Err(Error::Terminated { .. }) = outcome {
                // The ranks go on with their jobs while they save their tables (as for any
                // checkpoint); this rank's own slots stop.
                if let Some(p) = &pool {
                    p.cancel();
                }
                outcome =
                    Err(self.last_checkpoint(&mut run, game, attacker, question, table, finished));
            }
            if let Some(p) = &pool {
                let r = &mut run.stats.ranks[COORDINATOR];
                (r.jobs, r.busy_ns) = (p.jobs, p.busy_ns);
                r.elapsed_ns = run.started.elapsed().as_nanos() as u64;
            }
            outcome
        });
        limits.progress = run.scheduler.take_progress();
        outcome?;
        if !run.scheduler.result().numbers.is_solved() && self.plan.is_some() {
            // A failure here costs the checkpoint, never the result: the search's answer (a
            // limit, say) and its figures are returned, with the failure counted and said.
            if let Err(e) = self.checkpoint(&mut run, game, attacker, question, table, finished) {
                run.stats.checkpoint_failures += 1;
                eprintln!("proofnum-mpi: {e}; the previous checkpoint is kept");
            }
            // The search is over: the ranks are idle, so wait until their tables are written,
            // and the checkpoint is whole when the solve returns.
            self.await_saved(&mut run, None);
        }
        Ok(self.result(run))
    }

    /// Waits until every live worker rank has said hello (or is given up). Resuming, a rank
    /// the checkpoint lists as having written its table file that has none, or cannot read
    /// it, is an error naming the file.
    fn await_hellos<M: Copy + Default>(
        &mut self,
        run: &mut Run<'_, '_, M>,
        root_hash: u64,
        resuming: Option<&Resuming>,
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
                resumed,
            } = message
                && e == epoch
            {
                if h != root_hash {
                    return Err(Error::PositionMismatch { rank });
                }
                if let Some(r) = resuming {
                    check_resumed_table(r, rank, resumed)?;
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

    pub(super) fn heard<M>(&self, run: &mut Run<'_, '_, M>, rank: usize, words: &[u64]) {
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
            Err(Error::Terminated {
                checkpointed: false,
            })
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
                if run.running[rank].iter().all(VecDeque::is_empty) {
                    // An idle rank had nothing to say: its silence counts from this job.
                    run.last_heard[rank] = Instant::now();
                }
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
            let trigger = self.trigger_pulled(run);
            if (now_requested || due || trigger.is_some())
                && self.plan.is_some()
                && let Err(e) = self.checkpoint(run, game, attacker, question, table, finished)
            {
                // A file is replaced only once its successor is whole, so the last checkpoint
                // still stands: a long search is not thrown away for want of a newer one.
                run.stats.checkpoint_failures += 1;
                run.last_checkpoint = Instant::now();
                eprintln!("proofnum-mpi: {e}; the previous checkpoint is kept, the search goes on");
            }
            if let Some(trigger) = trigger
                && let Err(e) = std::fs::remove_file(&trigger)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                // Left there, it would ask again and again: look for it no more.
                eprintln!(
                    "proofnum-mpi: cannot remove the checkpoint trigger {}: {e}; it is no longer \
                     watched",
                    trigger.display()
                );
                if let Some(plan) = &mut self.plan {
                    plan.trigger = None;
                }
            }
        }
    }

    /// The plan's trigger file, when it has appeared (looked for every [`TRIGGER_LOOK`]).
    fn trigger_pulled<M>(&self, run: &mut Run<'_, '_, M>) -> Option<std::path::PathBuf> {
        let trigger = self.plan.as_ref()?.trigger.as_ref()?;
        if run.trigger_looked.elapsed() < TRIGGER_LOOK {
            return None;
        }
        run.trigger_looked = Instant::now();
        trigger.exists().then(|| trigger.clone())
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
        let received = self.link.receive(wait);
        run.inbox_empty = received.is_none();
        if let Some((rank, words)) = received {
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

    /// Gives up every rank that has jobs but has said nothing for the rank timeout, once the
    /// inbox has been read to the end (messages waiting there are not silence).
    fn give_up_silent_ranks<M: Copy + Default>(&mut self, run: &mut Run<'_, '_, M>) {
        if !run.inbox_empty {
            return;
        }
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

/// A worker rank's table file, as its `Hello` said it found it, against the checkpoint being
/// resumed: a rank the checkpoint asked to write one must have it (a resume without it would
/// redo that rank's work, unsaid); a rank it did not list starts empty.
fn check_resumed_table(r: &Resuming, rank: usize, resumed: ResumedTable) -> Result<(), Error> {
    let listed = r
        .rank_files
        .as_ref()
        .is_none_or(|ranks| ranks.contains(&(rank as u64)));
    let file = rank_file(&r.path, rank);
    match resumed {
        ResumedTable::Missing if listed => Err(Error::Resume(format!(
            "rank {rank}'s table file {file} is missing (each worker rank writes its table \
             beside the checkpoint, and a resume needs it)"
        ))),
        ResumedTable::Unreadable if listed => Err(Error::Resume(format!(
            "rank {rank} cannot read its table file {file} (its message says why)"
        ))),
        _ => Ok(()),
    }
}
