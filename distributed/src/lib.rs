//! # proofnum-mpi
//!
//! Distributed parallel PN-DFPN over MPI: one position solved by many processes, on one
//! machine or a cluster, with checkpoints that let a long solve survive a restart.
//!
//! The shape is the threaded solver's ([`proofnum::ParallelSolver`]) with processes instead
//! of threads, and the very same scheduler ([`proofnum::Scheduler`]):
//!
//! - **Rank 0, the coordinator** ([`Coordinator`]), owns the root PN tree with virtual proof
//!   numbers. It hands each idle job slot of each rank the next most-proving leaf, as the
//!   moves from the root plus thresholds and a work budget, and takes the results back into
//!   the tree. It keeps a table of its own, which its own job threads use when it has some
//!   ([`Settings::coordinator_threads`]; with a single rank, those are the only ones) and which
//!   collects the solved positions the ranks report.
//! - **Every other rank** ([`serve`]) replays each job's moves on its own copy of the root
//!   position (codes of [`proofnum::MoveCodec`], checked against the legal moves), runs a
//!   budgeted df-pn job over its own table, and sends back the numbers, work, best move and the
//!   numbers of the job root's children, from which the tree grows. A rank with several cores
//!   runs several job slots (threads) over one [`proofnum::SharedTable`].
//! - **Messages** ([`wire`]) are arrays of 64-bit words over a [`Link`]: [`MpiLink`] (rsmpi,
//!   point-to-point) or [`LocalLink`] (channels between threads, for tests without `mpirun`).
//! - **Checkpoints** ([`checkpoint`]) of the tree and the coordinator's table are written
//!   atomically every few minutes, on a signal or a trigger file, when the run is ended from
//!   outside (given a moment's grace), and when a search stops unsolved; a solve resumed from
//!   one continues where it was.
//! - **A rank that falls silent** with jobs for [`Settings::rank_timeout`] is given up and its
//!   jobs go to the others (their tickets are abandoned, so a late result is refused). Under
//!   `mpirun` a rank that dies usually ends the whole run at once; `solve_mpi` then reports it
//!   with the last checkpoint (see the guide's `docs/src/parallel.md`).
//!
//! `docs/src/scale-out.md` has the costs: messages and bytes per job, the coordinator's operations
//! per second, and how large a cluster one coordinator keeps busy.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod checkpoint;
pub mod coordinator;
pub mod link;
pub mod mpi_link;
pub mod pool;
pub mod wire;
mod worker;

use std::fmt;

pub use checkpoint::{Checkpoint, CheckpointError, Question};
pub use coordinator::{
    CheckpointPlan, Coordinator, DistributedResult, DistributedStats, DistributedValueResult,
    RankStats, Settings, Signals,
};
pub use link::{Link, LocalLink};
pub use mpi_link::MpiLink;
pub use worker::{WorkerSummary, serve};

/// The coordinator's rank.
pub const COORDINATOR: usize = 0;

/// Why a distributed solve failed (as opposed to ending unsolved on a limit, which is a
/// result).
#[derive(Debug)]
pub enum Error {
    /// A message from `rank` did not decode.
    Wire {
        /// The sender.
        rank: usize,
        /// What was wrong.
        error: wire::WireError,
    },
    /// The messages did not follow the protocol.
    Protocol(&'static str),
    /// `rank` has another root position (its hash differs from the coordinator's).
    PositionMismatch {
        /// The rank.
        rank: usize,
    },
    /// `rank` sent a move code its game does not know.
    BadMove {
        /// The rank.
        rank: usize,
        /// The code.
        code: u64,
    },
    /// No rank is left to run jobs (these were given up).
    RanksLost(Vec<usize>),
    /// There is no job slot at all: one rank and no coordinator threads.
    NoWorkers,
    /// The settings ask for what no job slot can have: more threads than
    /// [`proofnum::parallel::MAX_THREADS`], or a df-pn stack deeper or wider than a
    /// [`proofnum::Dfpn`] can be built for.
    Settings(&'static str),
    /// A table could not be made or loaded.
    Table(proofnum::TableError),
    /// Memory for a table could not be had.
    Memory,
    /// A checkpoint could not be written or read.
    Checkpoint(CheckpointError),
    /// A checkpoint does not fit this solve.
    Resume(String),
    /// A checkpoint's tree is not a tree.
    Snapshot(proofnum::parallel::SnapshotError),
    /// The run was ended from outside ([`Signals::terminate`]).
    Terminated {
        /// Whether a last checkpoint was written on the way out ([`Signals::grace`]); if
        /// not, the last checkpoint is whatever was written before, if anything.
        checkpointed: bool,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Wire { rank, error } => write!(f, "rank {rank}: {error}"),
            Error::Protocol(what) => write!(f, "protocol error: {what}"),
            Error::PositionMismatch { rank } => write!(
                f,
                "rank {rank} has another position than rank 0 (give every rank the same arguments)"
            ),
            Error::BadMove { rank, code } => {
                write!(f, "rank {rank} sent move code {code}, no move of this game")
            }
            Error::RanksLost(ranks) => write!(f, "no rank is left to run jobs (lost: {ranks:?})"),
            Error::NoWorkers => f.write_str(
                "no job slots: with a single rank the coordinator needs job threads of its own",
            ),
            Error::Settings(what) => write!(f, "unusable settings: {what}"),
            Error::Table(e) => write!(f, "table: {e}"),
            Error::Memory => f.write_str("out of memory for a table"),
            Error::Checkpoint(e) => write!(f, "checkpoint: {e}"),
            Error::Resume(why) => write!(f, "cannot resume: {why}"),
            Error::Snapshot(e) => write!(f, "cannot resume: {e}"),
            Error::Terminated { checkpointed } => write!(
                f,
                "the run was ended from outside (SIGTERM){}",
                if *checkpointed {
                    "; a last checkpoint was written"
                } else {
                    ""
                }
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Checks what every job slot will be built with (as [`proofnum::ParallelSolver::new`] does
/// for its threads): `threads` job threads (0: one per core), df-pn stacks of `max_depth`
/// plies and `max_moves` moves.
pub(crate) fn check_slots(threads: usize, max_depth: usize, max_moves: usize) -> Result<(), Error> {
    let config = proofnum::ParallelConfig {
        threads,
        max_depth,
        max_moves,
        ..proofnum::ParallelConfig::default()
    };
    proofnum::ParallelSolver::new(config)
        .map(|_| ())
        .map_err(|_| {
            Error::Settings(
                "job threads above proofnum::parallel::MAX_THREADS, or a df-pn stack beyond \
                 proofnum::dfpn::MAX_STACK_DEPTH plies, without moves, or of more than 2^32 children",
            )
        })
}

impl From<CheckpointError> for Error {
    fn from(e: CheckpointError) -> Self {
        Error::Checkpoint(e)
    }
}

impl From<proofnum::parallel::SnapshotError> for Error {
    fn from(e: proofnum::parallel::SnapshotError) -> Self {
        Error::Snapshot(e)
    }
}
