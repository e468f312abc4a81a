//! Budgets that end a search early: nodes, work, a stop flag and a caller's clock.
//!
//! The core has no clock of its own (`std::time` is not available in `no_std`), so time limits
//! go through a callback that returns a monotonic time in microseconds. The stop flag is an
//! `AtomicBool` the caller may set from another thread; the search polls it once per MID call.

use core::fmt;
use core::sync::atomic::{AtomicBool, Ordering};

use crate::number::Numbers;
use crate::result::Stats;

/// How often, in MID calls, the clock and progress callbacks are called (they may be
/// expensive calls, a clock through a C function say).
pub const CLOCK_POLL_INTERVAL: u64 = 1024;

/// A snapshot of a running search, handed to [`Limits::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// MID calls so far.
    pub mid_calls: u64,
    /// Positions evaluated so far.
    pub nodes: u64,
    /// Deepest ply reached so far.
    pub max_depth: u32,
    /// The root's current (φ, δ) for its side to move.
    pub root: Numbers,
    /// Microseconds since the search began, when the limits carry a clock.
    pub elapsed_us: Option<u64>,
}

/// The limits of one search call.
pub struct Limits<'a> {
    /// Stop after evaluating this many positions ([`crate::Stats::nodes`]).
    pub max_nodes: u64,
    /// Stop after this many MID calls (df-pn) or node expansions (PNS)
    /// ([`crate::Stats::mid_calls`]): the per-call work budget that the parallel solver gives
    /// each job.
    pub max_work: u64,
    /// Stop soon after this flag becomes true.
    pub stop: Option<&'a AtomicBool>,
    /// A monotonic clock in microseconds; with it the search reports elapsed time and honours
    /// [`max_time_us`](Limits::max_time_us).
    pub clock: Option<&'a mut dyn FnMut() -> u64>,
    /// Stop once this many microseconds have passed on [`clock`](Limits::clock).
    pub max_time_us: u64,
    /// Called every [`CLOCK_POLL_INTERVAL`] MID calls with a snapshot, for progress displays.
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits::none()
    }
}

impl<'a> Limits<'a> {
    /// No limit at all.
    pub fn none() -> Limits<'a> {
        Limits {
            max_nodes: u64::MAX,
            max_work: u64::MAX,
            stop: None,
            clock: None,
            max_time_us: u64::MAX,
            progress: None,
        }
    }

    /// Limits with only a node budget.
    pub fn nodes(max_nodes: u64) -> Limits<'a> {
        Limits {
            max_nodes,
            ..Limits::none()
        }
    }

    /// Limits with only a work (MID call) budget.
    pub fn work(max_work: u64) -> Limits<'a> {
        Limits {
            max_work,
            ..Limits::none()
        }
    }

    /// Runs `f` with these limits less what `spent` used of each budget (nodes, confirmation
    /// nodes included, work and time), then restores them: the second of two searches under
    /// one set of limits gets what the first left.
    pub(crate) fn after<R>(&mut self, spent: &Stats, f: impl FnOnce(&mut Limits<'a>) -> R) -> R {
        let saved = (self.max_nodes, self.max_work, self.max_time_us);
        let nodes = spent.nodes.saturating_add(spent.confirm_nodes);
        self.max_nodes = saved.0.saturating_sub(nodes);
        self.max_work = saved.1.saturating_sub(spent.mid_calls);
        self.max_time_us = saved.2.saturating_sub(spent.elapsed_us.unwrap_or(0));
        let r = f(self);
        (self.max_nodes, self.max_work, self.max_time_us) = saved;
        r
    }

    /// The current clock reading, if there is a clock.
    #[inline]
    pub(crate) fn now_us(&mut self) -> Option<u64> {
        self.clock.as_mut().map(|c| c())
    }

    /// Why the search must stop now, given its counters, or `None` to go on.
    #[inline]
    pub(crate) fn exceeded(
        &mut self,
        nodes: u64,
        work: u64,
        start_us: Option<u64>,
    ) -> Option<Reason> {
        if work >= self.max_work {
            return Some(Reason::WorkLimit);
        }
        if nodes >= self.max_nodes {
            return Some(Reason::NodeLimit);
        }
        if let Some(stop) = self.stop
            && stop.load(Ordering::Relaxed)
        {
            return Some(Reason::Stopped);
        }
        if work % CLOCK_POLL_INTERVAL == 0
            && let (Some(start), Some(now)) = (start_us, self.now_us())
            && now.saturating_sub(start) >= self.max_time_us
        {
            return Some(Reason::TimeLimit);
        }
        None
    }

    /// Hands a snapshot to the progress callback, if any.
    #[inline]
    pub(crate) fn report(
        &mut self,
        snapshot: impl FnOnce(Option<u64>) -> Progress,
        start_us: Option<u64>,
    ) {
        if self.progress.is_some() {
            let elapsed = match (start_us, self.now_us()) {
                (Some(start), Some(now)) => Some(now.saturating_sub(start)),
                _ => None,
            };
            let p = snapshot(elapsed);
            if let Some(progress) = self.progress.as_mut() {
                progress(&p);
            }
        }
    }
}

/// Why a search ended without solving its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Reason {
    /// The node budget ([`Limits::max_nodes`]) was spent.
    NodeLimit,
    /// The work budget ([`Limits::max_work`]) was spent.
    WorkLimit,
    /// The time budget ([`Limits::max_time_us`]) was spent.
    TimeLimit,
    /// The stop flag was set.
    Stopped,
    /// The search reached its thresholds (a budgeted job, not an error).
    Thresholds,
    /// A line was deeper than the stack memory allows: give a larger stack.
    DepthLimit,
    /// A position generated more moves than the move buffer holds: raise `max_moves`.
    TooManyMoves,
    /// The game broke its contract (for example, a C callback reported an invalid value).
    GameError,
    /// PNS: the node arena is full of unsolved nodes even after freeing every solved subtree:
    /// give a larger arena. The parallel solver: a worker's stack could not be allocated or
    /// a worker thread could not be started.
    MemoryLimit,
    /// The search's answer was refuted by its confirmation each time it was searched again
    /// under new keys ([`crate::confirm`]): the table's false matches, or positions the
    /// game's hash does not tell apart, kept leading it astray. Never a wrong answer.
    Unconfirmed,
    /// A certificate's bytes could not be written: its sink refused them (a full buffer, an
    /// I/O error).
    Output,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::NodeLimit => "node limit reached",
            Reason::WorkLimit => "work limit reached",
            Reason::TimeLimit => "time limit reached",
            Reason::Stopped => "stopped",
            Reason::Thresholds => "thresholds reached",
            Reason::DepthLimit => "line deeper than the stack allows",
            Reason::TooManyMoves => "more moves than the move buffer holds",
            Reason::GameError => "the game reported an invalid value",
            Reason::MemoryLimit => {
                "out of memory (node arena full, or worker memory or threads unavailable)"
            }
            Reason::Unconfirmed => "the answer was refuted by its confirmation every time",
            Reason::Output => "the certificate could not be written",
        })
    }
}
