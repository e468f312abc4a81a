//! What a distributed solve counts: per rank (jobs, busy time, messages and bytes both ways)
//! and for the whole solve (the search's counters, the coordinator's work, shared positions,
//! checkpoints, the jobs' lengths).

use std::time::Duration;

use proofnum::ParallelStats;

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
    /// first also those under one). `docs/src/scale-out.md` sizes clusters from it.
    pub job_micros_log2: [u64; 32],
}

impl DistributedStats {
    /// Counts a job that ran `busy_ns` nanoseconds.
    pub(super) fn record_job(&mut self, busy_ns: u64) {
        let micros = (busy_ns / 1000).max(1);
        self.job_micros_log2[(micros.ilog2() as usize).min(31)] += 1;
    }
}

impl DistributedStats {
    pub(super) fn accumulate(&mut self, o: &DistributedStats) {
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
