//! The root tree as plain data, to be written out and read back: what a checkpoint keeps of a
//! running parallel search so that it can continue in a later process.
//!
//! A snapshot holds every node's move, parent, real numbers, work and best move, parents first.
//! Running jobs are not part of it: their nodes are saved as the open leaves they were before
//! the jobs started, so a resumed search hands them out again. Only the leaves' numbers are
//! taken from a snapshot; every inner node's numbers are recomputed from its children when it
//! is read back, so a snapshot cannot make the tree inconsistent. What the leaves claim
//! (solved or not) is believed, as a loaded table's entries are: keep checkpoints where only
//! the solver writes them.

use core::fmt;
use std::vec;
use std::vec::Vec;

use super::tree::{NONE, NodeId, Tree};
use crate::number::Numbers;
use crate::result::Stats;

/// One node of a [`TreeSnapshot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotNode<M> {
    /// The index of the parent in [`TreeSnapshot::nodes`], smaller than this node's own;
    /// [`SnapshotNode::ROOT_PARENT`] for the root (index 0).
    pub parent: u32,
    /// The move from the parent (`M::default()` at the root).
    pub mv: M,
    /// The numbers the searches found, in the node's own side-to-move view (for an inner node
    /// they are recomputed from its children when the snapshot is read back).
    pub numbers: Numbers,
    /// The side to move differs from the parent's.
    pub flip: bool,
    /// MID calls spent by jobs on this node (not its tree children).
    pub work: u64,
    /// The best move a job reported for this node while it was a leaf.
    pub job_best: Option<M>,
}

impl<M> SnapshotNode<M> {
    /// The root's [`parent`](SnapshotNode::parent).
    pub const ROOT_PARENT: u32 = u32::MAX;
}

/// A parallel search's root tree and counters, from
/// [`Scheduler::snapshot`](super::Scheduler::snapshot), to be given to
/// [`Scheduler::resume`](super::Scheduler::resume) in the same or a later process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeSnapshot<M> {
    /// The tree's nodes, the root first and every parent before its children.
    pub nodes: Vec<SnapshotNode<M>>,
    /// The counters of every job the tree has taken since the search first began (earlier
    /// runs that this one resumed included).
    pub stats: Stats,
    /// Jobs taken since the search first began.
    pub jobs: u64,
}

/// Why a [`TreeSnapshot`] cannot be resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// It has no root.
    Empty,
    /// The root has a parent, or node `index`'s parent is not an earlier node.
    BadParent {
        /// The node's index.
        index: usize,
    },
    /// Node `index`, a leaf, has φ = δ = 0.
    BadNumbers {
        /// The node's index.
        index: usize,
    },
    /// More nodes than a tree holds, or than memory allows.
    TooLarge,
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Empty => f.write_str("the tree snapshot has no root"),
            SnapshotError::BadParent { index } => write!(
                f,
                "node {index} of the tree snapshot does not come after its parent"
            ),
            SnapshotError::BadNumbers { index } => write!(
                f,
                "leaf {index} of the tree snapshot has impossible numbers (φ = δ = 0)"
            ),
            SnapshotError::TooLarge => f.write_str("the tree snapshot has too many nodes"),
        }
    }
}

impl std::error::Error for SnapshotError {}

impl<M: Copy + Default> Tree<M> {
    /// The tree's nodes in depth-first order from the root (parents first).
    pub(crate) fn export(&self) -> Vec<SnapshotNode<M>> {
        let mut out = Vec::with_capacity(self.live);
        // (node, its parent's index in `out`)
        let mut stack = vec![(Self::ROOT, SnapshotNode::<M>::ROOT_PARENT)];
        while let Some((id, parent)) = stack.pop() {
            let node = &self.nodes[id as usize];
            let index = out.len() as u32;
            out.push(SnapshotNode {
                parent,
                mv: node.mv,
                numbers: node.real,
                flip: node.flip,
                work: node.work,
                job_best: node.job_best,
            });
            // Reversed, so that the children come out in their own order.
            stack.extend(node.children.iter().rev().map(|&c| (c, index)));
        }
        out
    }

    /// The tree a snapshot describes, with no job running and every inner node's numbers
    /// recomputed from its children.
    pub(crate) fn import(
        nodes: &[SnapshotNode<M>],
        split_work: u64,
    ) -> Result<Tree<M>, SnapshotError> {
        let root = nodes.first().ok_or(SnapshotError::Empty)?;
        if nodes.len() >= NONE as usize {
            return Err(SnapshotError::TooLarge);
        }
        if root.parent != SnapshotNode::<M>::ROOT_PARENT {
            return Err(SnapshotError::BadParent { index: 0 });
        }
        let mut is_parent = Vec::new();
        is_parent
            .try_reserve_exact(nodes.len())
            .map_err(|_| SnapshotError::TooLarge)?;
        is_parent.resize(nodes.len(), false);
        for (index, n) in nodes.iter().enumerate().skip(1) {
            if n.parent as usize >= index {
                return Err(SnapshotError::BadParent { index });
            }
            is_parent[n.parent as usize] = true;
        }
        for (index, n) in nodes.iter().enumerate() {
            if !is_parent[index] && n.numbers.phi == 0 && n.numbers.delta == 0 {
                return Err(SnapshotError::BadNumbers { index });
            }
        }
        let mut tree = Tree::new(split_work);
        tree.nodes
            .try_reserve_exact(nodes.len())
            .map_err(|_| SnapshotError::TooLarge)?;
        let r = &mut tree.nodes[Self::ROOT as usize];
        (r.real, r.virt, r.work, r.job_best) =
            (root.numbers, root.numbers, root.work, root.job_best);
        // Snapshot indices are tree ids: the root is 0 and ids are allocated in order.
        for n in &nodes[1..] {
            let id = tree.alloc(n.mv, n.parent, n.numbers, n.flip);
            let node = &mut tree.nodes[id as usize];
            (node.work, node.job_best) = (n.work, n.job_best);
            tree.nodes[n.parent as usize].children.push(id);
        }
        // Children come after their parents, so one backward pass settles every inner node.
        for id in (0..nodes.len() as NodeId).rev() {
            if !tree.nodes[id as usize].children.is_empty() {
                let n = tree.combined(id, |n| n.real);
                let node = &mut tree.nodes[id as usize];
                (node.real, node.virt) = (n, n);
            }
        }
        Ok(tree)
    }
}
