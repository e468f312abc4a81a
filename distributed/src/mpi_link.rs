//! The [`Link`] over MPI (rsmpi): point-to-point sends of `u64` arrays on `MPI_COMM_WORLD`,
//! and receives from any source found by a matched probe.
//!
//! Waiting is polling: `MPI_Improbe`, then a sleep that doubles from [`FIRST_PAUSE`] up to
//! [`LONGEST_PAUSE`]. A blocking `MPI_Recv` would answer sooner, but Open MPI spins the CPU
//! while it waits, and a coordinator that spins takes a core from the jobs when ranks share
//! cores (as on this project's 2-core machine). The pause bounds the delay a result waits
//! before the coordinator sees it; `docs/src/scale-out.md` has what that costs.

use std::time::{Duration, Instant};

use mpi::Rank;
use mpi::collective::Root;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};

use crate::link::Link;

/// The first pause after an empty probe.
pub const FIRST_PAUSE: Duration = Duration::from_micros(5);
/// The longest pause between probes.
pub const LONGEST_PAUSE: Duration = Duration::from_micros(100);

/// This process's end of `MPI_COMM_WORLD`.
pub struct MpiLink {
    world: SimpleCommunicator,
    ranks_on_node: usize,
    coordinator_on_node: bool,
}

impl MpiLink {
    /// The link of an initialised MPI `universe`. Every rank must make it (it learns, with
    /// the others, which ranks share its node).
    pub fn new(universe: &Universe) -> MpiLink {
        let world = universe.world();
        let node = world.split_shared(0);
        // The node's ranks are ordered by world rank, so rank 0 of the world, where it is on
        // this node, is the node's first: ask the node's first rank for its world rank.
        let mut first = world.rank();
        node.process_at_rank(0).broadcast_into(&mut first);
        MpiLink {
            ranks_on_node: node.size().max(1) as usize,
            coordinator_on_node: first == 0,
            world,
        }
    }

    /// Ranks running on this node (sharing its memory), this one included.
    pub fn ranks_on_node(&self) -> usize {
        self.ranks_on_node
    }

    /// Whether the coordinator (rank 0) runs on this node.
    pub fn coordinator_on_node(&self) -> bool {
        self.coordinator_on_node
    }

    /// Ends every rank of the run at once with `code` (`MPI_Abort`): for errors after which
    /// the other ranks would otherwise wait for messages that never come.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

impl Link for MpiLink {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&self, to: usize, words: &[u64]) {
        self.world.process_at_rank(to as Rank).send(words);
    }

    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)> {
        let start = Instant::now();
        let mut pause = FIRST_PAUSE;
        loop {
            if let Some(probed) = self.world.any_process().immediate_matched_probe() {
                let (words, status) = probed.matched_receive_vec::<u64>();
                return Some((status.source_rank() as usize, words));
            }
            let waited = start.elapsed();
            if waited >= wait {
                return None;
            }
            std::thread::sleep(pause.min(wait - waited));
            pause = (pause * 2).min(LONGEST_PAUSE);
        }
    }
}
