//! What a solve call reports: status, outcome, best move, statistics.

use core::mem::{align_of, size_of};

use proofnum_core::Stats;

use crate::boundary::SizedStruct;
use crate::game::pn_outcome;
use crate::status::pn_status;

/// Counters of one solve call.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pn_stats {
    /// Positions the searches evaluated (made, looked up and taken back); the confirming
    /// walks' positions are counted in `confirm_nodes`.
    pub nodes: u64,
    /// Interior node visits (MID calls): the search's work.
    pub mid_calls: u64,
    /// Deepest ply reached below the root.
    pub max_depth: u64,
    /// Positions found repeating one on the current line.
    pub repetitions: u64,
    /// Transposition table lookups.
    pub table_probes: u64,
    /// Lookups that found their position.
    pub table_hits: u64,
    /// Table writes.
    pub table_stores: u64,
    /// Writes that evicted another position's entry.
    pub table_drops: u64,
    /// Microseconds on the limits' clock; 0 without a clock. From the parallel calls:
    /// microseconds of wall time, always.
    pub elapsed_us: u64,
    /// Jobs (budgeted df-pn searches of one root-tree leaf) the parallel calls ran; 0 from
    /// the serial calls.
    pub jobs: u64,
    /// Worker threads of the parallel calls; 0 from the serial calls.
    pub threads: u32,
    /// Share of the worker threads' time spent waiting for a job, per thousand; 0 from the
    /// serial calls. High values mean the position offers too little parallel work.
    pub worker_idle_per_mille: u32,
    /// Positions the walks that confirmed the answers visited (see `pn_config.confirm`); 0
    /// when nothing was confirmed. The node limit counts them with `nodes`.
    pub confirm_nodes: u64,
    /// Answers a confirming walk refuted, each searched again over new table keys: a false
    /// match in the table, positions the game's hash does not tell apart, or a loaded table
    /// that lied. Normally 0.
    pub refutations: u64,
}

impl From<&Stats> for pn_stats {
    fn from(s: &Stats) -> pn_stats {
        pn_stats {
            nodes: s.nodes,
            mid_calls: s.mid_calls,
            max_depth: s.max_depth as u64,
            repetitions: s.repetitions,
            table_probes: s.table.probes,
            table_hits: s.table.hits,
            table_stores: s.table.stores,
            table_drops: s.table.drops,
            elapsed_us: s.elapsed_us.unwrap_or(0),
            confirm_nodes: s.confirm_nodes,
            refutations: s.refutations,
            ..pn_stats::default()
        }
    }
}

#[cfg(feature = "std")]
impl From<&proofnum_core::parallel::ParallelStats> for pn_stats {
    fn from(s: &proofnum_core::parallel::ParallelStats) -> pn_stats {
        // The counters both solvers have, as the serial solver reports them.
        let common = Stats {
            mid_calls: s.mid_calls,
            nodes: s.nodes,
            max_depth: s.max_depth,
            repetitions: s.repetitions,
            table: s.table,
            elapsed_us: Some(u64::try_from(s.elapsed.as_micros()).unwrap_or(u64::MAX)),
            confirm_nodes: s.confirm_nodes,
            refutations: s.refutations,
        };
        pn_stats {
            jobs: s.jobs,
            threads: u32::try_from(s.threads).unwrap_or(u32::MAX),
            // A share in 0 ..= 1, so the product fits; `as` saturates anything odd.
            worker_idle_per_mille: (s.worker_idle_share * 1000.0).round() as u32,
            ..pn_stats::from(&common)
        }
    }
}

/// The result of a solve call. Set `struct_size` to `sizeof(pn_result)` before the call;
/// the call fills in everything else.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pn_result {
    /// `sizeof(pn_result)`, set by the caller. (A caller built against an older header, whose
    /// `pn_stats` ended at `elapsed_us` or at `worker_idle_per_mille`, sets its smaller size
    /// and gets just those fields.)
    pub struct_size: usize,
    /// The call's status (a `pn_status`): `PN_STATUS_OK` when solved, otherwise why the
    /// search ended without an answer.
    pub status: u32,
    /// A `pn_outcome`: `PROVEN`/`DISPROVEN` from `pn_solve`, `WIN`/`LOSS`/`DRAW` for the side
    /// to move from `pn_solve_value`, `UNKNOWN` when the search ended without an answer.
    pub outcome: u32,
    /// 1 when `best_move` holds a move, 0 otherwise (a finished game, no moves, or a failed
    /// callback).
    pub has_best_move: u32,
    /// When solved: the move that achieves the outcome (the winning move, the drawing move,
    /// the defence that resists longest; when the answer was confirmed, the winning or drawing
    /// move is the one the confirming walk checked, the defence is the search's). When not:
    /// the move the search found most promising, with no guarantee.
    pub best_move: u32,
    /// From `pn_solve`, when solved: plies to the end of the solved line as the proof's table
    /// entries record it (shortest win, longest loss), saturated at 1023. It is the length of
    /// a line within the proof found, not the game's shortest win: where positions repeat it
    /// is an upper bound, and the line `pn_principal_variation` walks can be shorter. Over a
    /// table from `pn_table_load`, as the table's entries say (not confirmed). 0 otherwise.
    pub distance: u32,
    /// Counters.
    pub stats: pn_stats,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, and only integer fields. The older
// versions end where `stats.jobs` and `stats.confirm_nodes` begin (`stats` is the last field).
unsafe impl SizedStruct for pn_result {
    const OLDER_SIZES: &'static [usize] = &[
        core::mem::offset_of!(pn_result, stats) + core::mem::offset_of!(pn_stats, jobs),
        core::mem::offset_of!(pn_result, stats) + core::mem::offset_of!(pn_stats, confirm_nodes),
    ];
}

// The second version ended with `worker_idle_per_mille` and the struct's tail padding:
// `confirm_nodes` starts exactly there, on every target.
const _: () = assert!(
    (core::mem::offset_of!(pn_stats, worker_idle_per_mille) + size_of::<u32>())
        .next_multiple_of(align_of::<pn_stats>())
        == core::mem::offset_of!(pn_stats, confirm_nodes)
);

impl pn_result {
    /// A result with this status and outcome, no move and no counters.
    pub fn new(status: pn_status, outcome: pn_outcome) -> pn_result {
        pn_result {
            struct_size: core::mem::size_of::<pn_result>(),
            status: status as u32,
            outcome: outcome as u32,
            has_best_move: 0,
            best_move: 0,
            distance: 0,
            stats: pn_stats::default(),
        }
    }

    /// Sets the best move.
    pub fn with_move(mut self, best_move: Option<u32>) -> pn_result {
        self.has_best_move = best_move.is_some() as u32;
        self.best_move = best_move.unwrap_or(0);
        self
    }

    /// The status as the enum (it was written by this library, so it is always known).
    pub fn status(&self) -> pn_status {
        pn_status::from_u32(self.status).unwrap_or(pn_status::InternalError)
    }
}
