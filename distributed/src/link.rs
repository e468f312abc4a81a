//! How ranks reach each other: a [`Link`] sends word arrays to a rank and receives them from
//! any rank. [`MpiLink`](crate::MpiLink) is the real one; [`LocalLink`] connects threads of
//! one process, so that the whole protocol runs in `cargo test` without `mpirun`.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// One rank's end of the connections between `size` ranks.
pub trait Link {
    /// This rank, `0..size`.
    fn rank(&self) -> usize;

    /// How many ranks there are.
    fn size(&self) -> usize;

    /// Sends `words` to rank `to` (not this one). Messages between two ranks arrive in the
    /// order they were sent.
    fn send(&self, to: usize, words: &[u64]);

    /// A message from any rank, with its sender: at once if one is waiting, else waiting at
    /// most `wait` (a zero `wait` only looks).
    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)>;
}

/// A [`Link`] between threads of one process, over channels: for tests and examples that run
/// the distributed protocol without MPI. Make all ends with [`LocalLink::connect`] and move
/// one into each thread.
pub struct LocalLink {
    rank: usize,
    peers: Vec<Sender<(usize, Vec<u64>)>>,
    inbox: Mutex<Receiver<(usize, Vec<u64>)>>,
}

impl LocalLink {
    /// The ends of `size` connected ranks, rank `i` at index `i`.
    pub fn connect(size: usize) -> Vec<LocalLink> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| channel()).unzip();
        receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| LocalLink {
                rank,
                peers: senders.clone(),
                inbox: Mutex::new(inbox),
            })
            .collect()
    }
}

impl Link for LocalLink {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.peers.len()
    }

    fn send(&self, to: usize, words: &[u64]) {
        // A rank that has gone (its thread ended) simply does not receive, as with a rank
        // that died.
        let _ = self.peers[to].send((self.rank, words.to_vec()));
    }

    fn receive(&self, wait: Duration) -> Option<(usize, Vec<u64>)> {
        let inbox = self.inbox.lock().unwrap_or_else(|e| e.into_inner());
        if wait.is_zero() {
            return inbox.try_recv().ok();
        }
        inbox.recv_timeout(wait).ok()
    }
}
