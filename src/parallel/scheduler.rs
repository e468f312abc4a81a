//! The scheduling half of parallel PN-DFPN, whatever carries the jobs: the root tree, which
//! job to hand out next and with what thresholds and budget, the search's limits, taking
//! results in, and the counters.
//!
//! A [`Scheduler`] is driven by a *transport*, which runs the jobs and brings their results
//! back. [`ParallelSolver`](super::ParallelSolver) is one: worker threads that each lock the
//! scheduler to hand in a job and take the next. The `proofnum-mpi` crate is another: a
//! coordinator rank that owns the scheduler and sends jobs to other processes as move paths.
//! The transport's whole contract:
//!
//! 1. [`next_job`](Scheduler::next_job) gives a [`Ticket`], the moves from the root to the
//!    job's position, its thresholds and budgets ([`Next::Job`]); or says every open leaf is
//!    busy ([`Next::Busy`]: wait for a result) or the search is over ([`Next::Over`]).
//! 2. The transport runs [`Dfpn::search`](crate::Dfpn::search) from that position with the
//!    root's history extended by the path, for the scheduler's attacker, and hands the result
//!    in with its ticket ([`hand_in`](Scheduler::hand_in)), together with the children of the
//!    job's root frame ([`Dfpn::root_children`](crate::Dfpn::root_children)), from which the
//!    tree grows.
//! 3. When [`is_over`](Scheduler::is_over) turns true, running jobs should be stopped (their
//!    results may still be handed in); [`result`](Scheduler::result) gives the answer.
//!
//! A ticket carries a serial number, so a result for a node that no longer has that job (the
//! node was freed and reused, the job was given up with [`abandon`](Scheduler::abandon), the
//! result came twice) is refused without touching the tree. A transport whose workers can
//! vanish abandons their tickets and the jobs go to others.

use core::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use std::vec::Vec;

use super::snapshot::{SnapshotError, TreeSnapshot};
use super::tree::{NO_JOB, NodeId, Tree};
use super::{ParallelConfig, ParallelLimits, ParallelProgress, ParallelResult, ParallelStats};
use crate::limits::Reason;
use crate::number::{Epsilon, Numbers};
use crate::result::{SearchResult, Stats, Status};

/// A job handed out by [`Scheduler::next_job`]: its tree node and serial number. Transports
/// that send it elsewhere carry its two [`parts`](Ticket::parts) and rebuild it with
/// [`from_parts`](Ticket::from_parts); a ticket that does not name a running job is refused by
/// [`Scheduler::hand_in`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket {
    node: NodeId,
    serial: u64,
}

impl Ticket {
    /// The tree node and the job's serial number (never 0).
    pub const fn parts(self) -> (u32, u64) {
        (self.node, self.serial)
    }

    /// The ticket with these [`parts`](Ticket::parts).
    pub const fn from_parts(node: u32, serial: u64) -> Ticket {
        Ticket { node, serial }
    }
}

/// A job to run: where, with which thresholds, and how much it may spend. Its position is the
/// path [`Scheduler::next_job`] wrote, played from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// What to hand the result in with.
    pub ticket: Ticket,
    /// The job's MID thresholds, in its position's side-to-move view ([`crate::Job::threshold`]).
    pub threshold: Numbers,
    /// MID calls the job may spend ([`crate::Limits::max_work`]).
    pub max_work: u64,
    /// Positions the job may evaluate ([`crate::Limits::max_nodes`]).
    pub max_nodes: u64,
    /// Microseconds the job may run, measured from its own start; `u64::MAX` for no limit.
    pub max_time_us: u64,
}

/// What [`Scheduler::next_job`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Run this job.
    Job(Assignment),
    /// Every open leaf has a job running: wait for a result, then ask again.
    Busy,
    /// The root is solved or the search has halted: stop the running jobs.
    Over,
}

/// A finished job's result, as [`Scheduler::hand_in`] takes it.
#[derive(Clone, Copy, Debug)]
pub struct JobReport<'r, M> {
    /// How the job ended.
    pub status: Status,
    /// Its root's (φ, δ) when it ended, in the root's side-to-move view.
    pub numbers: Numbers,
    /// Its best move.
    pub best_move: Option<M>,
    /// Its counters, `max_depth` counted from the tree's root (add the path's length).
    pub stats: Stats,
    /// Its root frame's children: (move, numbers in the child's own view, whether the child's
    /// side to move differs), as [`crate::Dfpn::root_children`] gives them.
    pub children: &'r [(M, Numbers, bool)],
}

impl<'r, M: Copy> JobReport<'r, M> {
    /// The report of a [`crate::Dfpn::search`] result, whose children the caller collected.
    pub fn from_search(result: &SearchResult<M>, children: &'r [(M, Numbers, bool)]) -> Self {
        JobReport {
            status: result.status,
            numbers: result.numbers,
            best_move: result.best_move,
            stats: result.stats,
            children,
        }
    }
}

/// The root tree of a parallel search and the rules for handing out jobs (see the
/// [module docs](self) for how a transport drives it).
pub struct Scheduler<'a, M> {
    tree: Tree<M>,
    /// ε of the jobs' thresholds, or `None` for infinite thresholds.
    epsilon: Option<Epsilon>,
    job_work: u64,
    /// The attacker is the root's side to move.
    attacker_moves: bool,
    stop: Option<&'a AtomicBool>,
    max_nodes: u64,
    max_work: u64,
    max_time: Option<Duration>,
    start: Instant,
    /// The handed-in jobs' counters added up (their `elapsed_us` is not used).
    stats: Stats,
    jobs: u64,
    /// Results refused because their job was no longer running.
    stale: u64,
    /// Counters of earlier runs this one resumed (see [`Scheduler::resume`]).
    earlier: (Stats, u64),
    next_serial: u64,
    /// Why the search stops early, once decided.
    halt_reason: Option<Reason>,
    progress: Option<&'a mut (dyn FnMut(&ParallelProgress) + Send)>,
    last_progress: Instant,
}

impl<'a, M: Copy + Default> Scheduler<'a, M> {
    /// A scheduler for one search: a root leaf, `config`'s job budget, split threshold and
    /// thresholds rule, and `limits` (its progress callback is taken; give it back to the
    /// limits with [`take_progress`](Scheduler::take_progress)). `attacker_moves` says
    /// whether the attacker is the root's side to move. Time counts from now.
    pub fn new(
        config: &ParallelConfig,
        attacker_moves: bool,
        limits: &mut ParallelLimits<'a>,
    ) -> Scheduler<'a, M> {
        let now = Instant::now();
        Scheduler {
            tree: Tree::new(config.split_work),
            epsilon: config.job_thresholds.then_some(config.dfpn.epsilon),
            job_work: config.job_work.max(1),
            attacker_moves,
            stop: limits.stop,
            max_nodes: limits.max_nodes,
            max_work: limits.max_work,
            max_time: limits.max_time,
            start: now,
            stats: Stats::default(),
            jobs: 0,
            stale: 0,
            earlier: (Stats::default(), 0),
            next_serial: NO_JOB + 1,
            halt_reason: None,
            progress: limits.progress.take(),
            last_progress: now,
        }
    }

    /// As [`new`](Scheduler::new), continuing from `snapshot` (taken by
    /// [`snapshot`](Scheduler::snapshot), perhaps in another process): its tree, with no job
    /// running. The limits and the counters of [`result`](Scheduler::result) cover this run
    /// only; the next snapshot adds them to the snapshot's. An error, taking nothing from
    /// `limits`, when the snapshot does not describe a tree.
    pub fn resume(
        config: &ParallelConfig,
        attacker_moves: bool,
        limits: &mut ParallelLimits<'a>,
        snapshot: &TreeSnapshot<M>,
    ) -> Result<Scheduler<'a, M>, SnapshotError> {
        let tree = Tree::import(&snapshot.nodes, config.split_work)?;
        let mut scheduler = Scheduler::new(config, attacker_moves, limits);
        scheduler.tree = tree;
        scheduler.earlier = (snapshot.stats, snapshot.jobs);
        Ok(scheduler)
    }

    /// The tree and the counters since the search first began, to resume from later. Jobs
    /// running now are left out (their leaves are saved open).
    pub fn snapshot(&self) -> TreeSnapshot<M> {
        let mut stats = self.earlier.0;
        stats.accumulate(&self.stats);
        TreeSnapshot {
            nodes: self.tree.export(),
            stats,
            jobs: self.earlier.1 + self.jobs,
        }
    }

    /// The next job, writing the moves from the root to its position into `path`; or why
    /// there is none. Checks the limits first and halts the search on one.
    pub fn next_job(&mut self, path: &mut Vec<M>) -> Next {
        if self.is_over() {
            return Next::Over;
        }
        let elapsed = self.start.elapsed();
        let reason = if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(Reason::Stopped)
        } else if self.stats.nodes >= self.max_nodes {
            Some(Reason::NodeLimit)
        } else if self.stats.mid_calls >= self.max_work {
            Some(Reason::WorkLimit)
        } else if self.max_time.is_some_and(|t| elapsed >= t) {
            Some(Reason::TimeLimit)
        } else {
            None
        };
        if let Some(reason) = reason {
            self.halt(reason);
            return Next::Over;
        }
        let serial = self.next_serial;
        let Some((node, threshold)) = self.tree.select(path, self.epsilon, serial) else {
            return Next::Busy;
        };
        self.next_serial += 1;
        // A job measures time from its own start.
        let max_time_us = match self.max_time {
            Some(t) => u64::try_from(t.saturating_sub(elapsed).as_micros()).unwrap_or(u64::MAX),
            None => u64::MAX,
        };
        Next::Job(Assignment {
            ticket: Ticket { node, serial },
            threshold,
            max_work: self.job_work.min(self.max_work - self.stats.mid_calls),
            max_nodes: self.max_nodes - self.stats.nodes,
            max_time_us,
        })
    }

    /// Takes a finished job's result into the tree. Returns false, and changes nothing but the
    /// counters (the job's work was spent all the same), when `ticket`'s job is not running
    /// (see [`Ticket`]). A job that ended on an
    /// error rather than a budget, a threshold or a stop gives up its node (which keeps its
    /// numbers) and halts the search with that reason.
    pub fn hand_in(&mut self, ticket: Ticket, report: &JobReport<'_, M>) -> bool {
        // The work was done either way: it counts against the budgets.
        self.jobs += 1;
        self.stats.accumulate(&report.stats);
        if !self.tree.runs(ticket.node, ticket.serial) {
            self.stale += 1;
            return false;
        }
        match report.status {
            Status::Proven
            | Status::Disproven
            | Status::Unknown(
                Reason::WorkLimit
                | Reason::Thresholds
                | Reason::Stopped
                | Reason::NodeLimit
                | Reason::TimeLimit,
            ) => {
                // The root frame's numbers are sound whenever the MID loop ran: a job stopped
                // early still reports numbers computed from its children.
                self.tree.complete(
                    ticket.node,
                    ticket.serial,
                    report.numbers,
                    report.stats.mid_calls,
                    report.best_move,
                    report.children,
                );
            }
            Status::Unknown(_) => {
                self.tree.abandon(ticket.node, ticket.serial);
            }
        }
        match report.status {
            Status::Unknown(Reason::Stopped) => {
                if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    self.halt(Reason::Stopped);
                }
            }
            // A spent job budget is the normal end of a job; the total budget is checked
            // when the next job is taken.
            Status::Unknown(Reason::WorkLimit | Reason::Thresholds) => {}
            Status::Unknown(reason) => self.halt(reason),
            Status::Proven | Status::Disproven => {}
        }
        if self.progress.is_some() && self.last_progress.elapsed() >= Duration::from_millis(100) {
            self.last_progress = Instant::now();
            let p = self.progress_now();
            if let Some(progress) = self.progress.as_mut() {
                progress(&p);
            }
        }
        true
    }

    /// Gives up `ticket`'s job without a result (its worker is gone): its node is open for
    /// the next job. False when that job is not running.
    pub fn abandon(&mut self, ticket: Ticket) -> bool {
        self.tree.abandon(ticket.node, ticket.serial)
    }

    /// Halts the search for `reason` (the first reason given is kept): no more jobs.
    pub fn halt(&mut self, reason: Reason) {
        self.halt_reason.get_or_insert(reason);
    }

    /// True once the root is solved or the search has halted.
    pub fn is_over(&self) -> bool {
        self.halt_reason.is_some() || self.tree.root().real.is_solved()
    }

    /// Why the search halted, if it did.
    pub fn halt_reason(&self) -> Option<Reason> {
        self.halt_reason
    }

    /// When this scheduler was made: the limits' time and the jobs' clocks count from here.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Results refused since the start because their job was no longer running.
    pub fn stale_results(&self) -> u64 {
        self.stale
    }

    /// Nodes in the tree now.
    pub fn tree_nodes(&self) -> usize {
        self.tree.live
    }

    /// The progress callback taken from the limits, to give back to them.
    pub fn take_progress(&mut self) -> Option<&'a mut (dyn FnMut(&ParallelProgress) + Send)> {
        self.progress.take()
    }

    /// The figures a progress callback gets, now.
    pub fn progress_now(&self) -> ParallelProgress {
        ParallelProgress {
            mid_calls: self.stats.mid_calls,
            nodes: self.stats.nodes,
            jobs: self.jobs,
            tree_nodes: self.tree.live,
            root: self.tree.root().real,
            elapsed: self.start.elapsed(),
        }
    }

    /// The answer as it stands, with this run's counters. The transport's own figures
    /// (`threads`, `worker_idle_share`, `coordinator_busy_share`) are left at zero for it to
    /// fill in; `elapsed` is the time since [`start`](Scheduler::start).
    pub fn result(&self) -> ParallelResult<M> {
        let root = self.tree.root();
        let (status, best_move) = if root.real.is_solved() {
            let proven = root.real.is_win() == self.attacker_moves;
            let status = if proven {
                Status::Proven
            } else {
                Status::Disproven
            };
            (status, self.tree.root_best())
        } else {
            (
                Status::Unknown(self.halt_reason.unwrap_or(Reason::Stopped)),
                None,
            )
        };
        ParallelResult {
            status,
            best_move,
            numbers: root.real,
            stats: ParallelStats {
                mid_calls: self.stats.mid_calls,
                nodes: self.stats.nodes,
                repetitions: self.stats.repetitions,
                max_depth: self.stats.max_depth,
                jobs: self.jobs,
                threads: 0,
                tree_nodes_peak: self.tree.peak,
                table: self.stats.table,
                elapsed: self.start.elapsed(),
                worker_idle_share: 0.0,
                coordinator_busy_share: 0.0,
                confirm_nodes: 0,
                refutations: 0,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::SnapshotNode;
    use std::vec;

    fn scheduler<'a>(limits: &mut ParallelLimits<'a>) -> Scheduler<'a, u8> {
        let config = ParallelConfig {
            split_work: 0,
            ..ParallelConfig::default()
        };
        Scheduler::new(&config, true, limits)
    }

    fn job(s: &mut Scheduler<'_, u8>, path: &mut Vec<u8>) -> Assignment {
        match s.next_job(path) {
            Next::Job(a) => a,
            other => panic!("expected a job, got {other:?}"),
        }
    }

    /// A job's report: `mid_calls` of work, unsolved numbers, these children (all flipped).
    fn report(
        numbers: Numbers,
        mid_calls: u64,
        children: &[(u8, Numbers, bool)],
    ) -> JobReport<'_, u8> {
        JobReport {
            status: Status::Unknown(Reason::WorkLimit),
            numbers,
            best_move: None,
            stats: Stats {
                mid_calls,
                ..Stats::default()
            },
            children,
        }
    }

    #[test]
    fn a_forged_or_late_ticket_is_refused_and_counted() {
        let mut limits = ParallelLimits::none();
        let mut s = scheduler(&mut limits);
        let mut path = Vec::new();
        let root = job(&mut s, &mut path);
        assert_eq!(s.next_job(&mut path), Next::Busy);
        let (node, serial) = root.ticket.parts();
        let forged = Ticket::from_parts(node, serial + 1);
        assert!(!s.hand_in(forged, &report(Numbers::LOSS, 5, &[])));
        assert!(!s.hand_in(
            Ticket::from_parts(77, serial),
            &report(Numbers::LOSS, 5, &[])
        ));
        assert_eq!(s.stale_results(), 2);
        assert!(!s.is_over(), "a refused result decides nothing");
        let kids = [(1, Numbers::new(1, 1), true), (2, Numbers::new(1, 1), true)];
        assert!(s.hand_in(root.ticket, &report(Numbers::new(1, 2), 10, &kids)));
        // The same result again is late: its node has no job any more.
        assert!(!s.hand_in(root.ticket, &report(Numbers::LOSS, 10, &[])));
        assert_eq!(s.result().stats.mid_calls, 30, "refused work still counts");
        assert_eq!(s.tree_nodes(), 3);
    }

    #[test]
    fn a_snapshot_resumes_with_the_same_tree_and_counters() {
        let mut limits = ParallelLimits::none();
        let mut s = scheduler(&mut limits);
        let mut path = Vec::new();
        let root = job(&mut s, &mut path);
        let kids = [
            (1, Numbers::new(3, 2), true),
            (2, Numbers::new(1, 4), true),
            (3, Numbers::new(2, 2), true),
        ];
        s.hand_in(root.ticket, &report(Numbers::new(2, 6), 10, &kids));
        let a = job(&mut s, &mut path);
        let first_path = path.clone();
        let grandkids = [(7, Numbers::new(1, 1), false)];
        s.hand_in(a.ticket, &report(Numbers::new(1, 5), 4, &grandkids));
        // A job is running when the snapshot is taken: its leaf is saved open.
        let _running = job(&mut s, &mut path);
        let running_path = path.clone();
        let snap = s.snapshot();
        assert_eq!(snap.nodes.len(), 5);
        assert_eq!(snap.jobs, 2);
        assert_eq!(snap.stats.mid_calls, 14);
        assert_eq!(snap.nodes[0].parent, SnapshotNode::<u8>::ROOT_PARENT);
        assert!(
            snap.nodes
                .iter()
                .enumerate()
                .skip(1)
                .all(|(i, n)| (n.parent as usize) < i)
        );

        let mut limits = ParallelLimits::none();
        let config = ParallelConfig {
            split_work: 0,
            ..ParallelConfig::default()
        };
        let mut r = Scheduler::resume(&config, true, &mut limits, &snap).unwrap();
        assert_eq!(r.progress_now().root, s.progress_now().root);
        assert_eq!(r.tree_nodes(), 5);
        assert_eq!(
            r.result().stats.mid_calls,
            0,
            "this run's counters start at zero"
        );
        // The job that was running is handed out again first.
        job(&mut r, &mut path);
        assert_eq!(path, running_path);
        assert_ne!(path, first_path);
        assert_eq!(r.snapshot(), snap, "nothing handed in since");
    }

    #[test]
    fn a_snapshot_that_is_no_tree_is_refused() {
        let node = |parent, numbers| SnapshotNode {
            parent,
            mv: 0u8,
            numbers,
            flip: true,
            work: 0,
            job_best: None,
        };
        let root = node(SnapshotNode::<u8>::ROOT_PARENT, Numbers::UNIT);
        let config = ParallelConfig::default();
        let resume = |nodes: Vec<SnapshotNode<u8>>| {
            let snap = TreeSnapshot {
                nodes,
                stats: Stats::default(),
                jobs: 0,
            };
            Scheduler::resume(&config, true, &mut ParallelLimits::none(), &snap).err()
        };
        assert_eq!(resume(vec![]), Some(SnapshotError::Empty));
        assert_eq!(
            resume(vec![node(0, Numbers::UNIT)]),
            Some(SnapshotError::BadParent { index: 0 })
        );
        assert_eq!(
            resume(vec![root, node(1, Numbers::UNIT)]),
            Some(SnapshotError::BadParent { index: 1 })
        );
        assert_eq!(
            resume(vec![root, node(0, Numbers::new(0, 0))]),
            Some(SnapshotError::BadNumbers { index: 1 })
        );
        // An inner node's numbers are recomputed, whatever the snapshot says.
        let mut inner = root;
        inner.numbers = Numbers::new(0, 0);
        let snap = TreeSnapshot {
            nodes: vec![inner, node(0, Numbers::LOSS), node(0, Numbers::new(2, 3))],
            stats: Stats::default(),
            jobs: 0,
        };
        let mut limits = ParallelLimits::none();
        let r = Scheduler::resume(&config, true, &mut limits, &snap).unwrap();
        assert!(r.progress_now().root.is_win(), "a lost child wins the root");
        assert_eq!(r.result().status, Status::Proven);
    }
}
