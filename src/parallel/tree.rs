//! The root PN tree of the parallel solver: real and virtual numbers, job selection and
//! result integration.
//!
//! Every node is one line of play from the root (the tree does not merge transpositions), so
//! a node's numbers may depend on its path (repetitions) without harm. Numbers are in the
//! node's own side-to-move view, as everywhere in the crate; a node's `flip` says whether its
//! side to move differs from its parent's.
//!
//! *Real* numbers are what the searches found. *Virtual* numbers are the real ones with every
//! node that has a job running on it counted as solved the way it leans (a win for its side to
//! move if φ < δ, a loss otherwise, after Pawlewicz's SPDFPN): the most-proving leaf by virtual
//! numbers is the next job, so concurrent jobs go where the search would go next if the
//! running ones succeed.

use std::vec::Vec;

use crate::number::{self, Epsilon, INFINITE, Numbers};

/// Index of a node in [`Tree::nodes`].
pub(crate) type NodeId = u32;

pub(crate) const NONE: NodeId = NodeId::MAX;

/// [`Node::job`] of a node without a running job (serial numbers start at 1).
pub(crate) const NO_JOB: u64 = 0;

/// One node of the root tree.
#[derive(Clone, Debug)]
pub(crate) struct Node<M> {
    /// The move from the parent (unused at the root).
    pub(crate) mv: M,
    pub(crate) parent: NodeId,
    /// Empty for a leaf.
    pub(crate) children: Vec<NodeId>,
    /// What the searches found, in the node's own view.
    pub(crate) real: Numbers,
    /// The real numbers with running jobs counted as solved the way they lean.
    pub(crate) virt: Numbers,
    /// The side to move differs from the parent's.
    pub(crate) flip: bool,
    /// MID calls spent by jobs on this node (not its tree children).
    pub(crate) work: u64,
    /// The serial number of the job running on this node, [`NO_JOB`] when none. A result is
    /// taken only with the serial it was handed out with, so a late or repeated result for a
    /// node that was freed, reused or given up meanwhile is recognised and dropped.
    pub(crate) job: u64,
    /// Jobs running on this node or below it.
    pub(crate) busy_below: u32,
    /// The best move a job reported for this node while it was a leaf.
    pub(crate) job_best: Option<M>,
}

/// The root tree over a free-list arena of nodes.
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node<M>>,
    free: Vec<NodeId>,
    /// Nodes in use.
    pub(crate) live: usize,
    /// The most nodes in use at once.
    pub(crate) peak: usize,
    /// Work above which a node's job result is expanded into tree children.
    split_work: u64,
}

/// A node's numbers in its parent's view.
#[inline]
pub(crate) fn in_parent_view(n: Numbers, flip: bool) -> Numbers {
    if flip { n.swapped() } else { n }
}

/// A node's numbers from its children's (given in the parent's view): φ = min, δ = Σ.
fn combine(children: impl Iterator<Item = Numbers>) -> Numbers {
    let mut phi = INFINITE;
    let mut delta = 0u32;
    for c in children {
        phi = phi.min(c.phi);
        delta = number::add(delta, c.delta);
    }
    Numbers::new(phi, delta)
}

/// Solved the way the numbers lean: the side to move wins if φ < δ.
#[inline]
fn leaning(n: Numbers) -> Numbers {
    if n.phi < n.delta {
        Numbers::WIN
    } else {
        Numbers::LOSS
    }
}

impl<M: Copy + Default> Tree<M> {
    /// A tree of one root leaf with unit numbers.
    pub(crate) fn new(split_work: u64) -> Tree<M> {
        let mut tree = Tree {
            nodes: Vec::new(),
            free: Vec::new(),
            live: 0,
            peak: 0,
            split_work,
        };
        tree.alloc(M::default(), NONE, Numbers::UNIT, false);
        tree
    }

    /// The root's id.
    pub(crate) const ROOT: NodeId = 0;

    pub(crate) fn alloc(&mut self, mv: M, parent: NodeId, numbers: Numbers, flip: bool) -> NodeId {
        let node = Node {
            mv,
            parent,
            children: Vec::new(),
            real: numbers,
            virt: numbers,
            flip,
            work: 0,
            job: NO_JOB,
            busy_below: 0,
            job_best: None,
        };
        self.live += 1;
        self.peak = self.peak.max(self.live);
        match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as NodeId
            }
        }
    }

    /// The root's real numbers.
    pub(crate) fn root(&self) -> &Node<M> {
        &self.nodes[Self::ROOT as usize]
    }

    /// Picks the most-proving leaf by virtual numbers, marks it busy with job `serial` (not
    /// [`NO_JOB`]) and returns it with the moves from the root to it; `None` when every open
    /// leaf already has a job.
    ///
    /// With `epsilon`, the leaf also gets the MID thresholds serial df-pn would give it on the
    /// way down from a root with infinite thresholds (by virtual numbers), so its job returns
    /// as soon as another leaf becomes most-proving; without, infinite thresholds (the job runs
    /// until its budget is spent or its leaf is solved).
    pub(crate) fn select(
        &mut self,
        path: &mut Vec<M>,
        epsilon: Option<Epsilon>,
        serial: u64,
    ) -> Option<(NodeId, Numbers)> {
        debug_assert_ne!(serial, NO_JOB);
        path.clear();
        let mut id = Self::ROOT;
        let mut threshold = Numbers::new(INFINITE, INFINITE);
        loop {
            let node = &self.nodes[id as usize];
            if node.virt.is_solved() {
                return None;
            }
            if node.children.is_empty() {
                break;
            }
            // The child with the smallest φ in this node's view; its virtual numbers are
            // unsolved because this node's are.
            let mut best = node.children[0];
            let mut best_phi = INFINITE;
            let mut second_phi = INFINITE;
            for &c in &node.children {
                let c_node = &self.nodes[c as usize];
                let p = in_parent_view(c_node.virt, c_node.flip).phi;
                if p < best_phi {
                    second_phi = best_phi;
                    best_phi = p;
                    best = c;
                } else if p < second_phi {
                    second_phi = p;
                }
            }
            if let Some(epsilon) = epsilon {
                let child = &self.nodes[best as usize];
                let phi_t = number::child_delta_threshold(threshold.phi, second_phi, epsilon);
                let delta_t = number::child_phi_threshold(
                    threshold.delta,
                    node.virt.delta,
                    in_parent_view(child.virt, child.flip).delta,
                );
                threshold = in_parent_view(Numbers::new(phi_t, delta_t), child.flip);
            }
            path.push(self.nodes[best as usize].mv);
            id = best;
        }
        let node = &mut self.nodes[id as usize];
        debug_assert!(node.job == NO_JOB && !node.real.is_solved());
        node.job = serial;
        node.virt = leaning(node.real);
        self.for_each_ancestor(id, |n| n.busy_below += 1);
        self.propagate(id);
        Some((id, threshold))
    }

    /// True when job `serial` is running on node `id` (an id out of range is no node).
    pub(crate) fn runs(&self, id: NodeId, serial: u64) -> bool {
        serial != NO_JOB && self.nodes.get(id as usize).is_some_and(|n| n.job == serial)
    }

    /// Takes the result of job `serial` on node `id`: its numbers, MID calls, best move and
    /// the numbers of its children (move, own view, flip) as the job's root frame left them.
    /// Frees the subtree of the highest solved ancestor with no job below it. Returns false,
    /// changing nothing, when that job is not running there (see [`Node::job`]).
    pub(crate) fn complete(
        &mut self,
        id: NodeId,
        serial: u64,
        numbers: Numbers,
        work: u64,
        best: Option<M>,
        children: &[(M, Numbers, bool)],
    ) -> bool {
        if !self.runs(id, serial) {
            return false;
        }
        let node = &mut self.nodes[id as usize];
        debug_assert!(node.children.is_empty());
        node.job = NO_JOB;
        node.work += work;
        node.real = numbers;
        node.virt = numbers;
        node.job_best = best;
        let expand = !numbers.is_solved()
            && !children.is_empty()
            && (id == Self::ROOT || node.work >= self.split_work);
        self.for_each_ancestor(id, |n| n.busy_below -= 1);
        // Expanding needs memory; when the allocator has none the leaf stays a leaf, which
        // only costs parallelism (its jobs go on searching it whole), never an abort.
        let mut kids = Vec::new();
        let room = kids.try_reserve_exact(children.len()).is_ok()
            && self
                .nodes
                .try_reserve(children.len().saturating_sub(self.free.len()))
                .is_ok();
        if expand && room {
            kids.extend(
                children
                    .iter()
                    .map(|&(mv, n, flip)| self.alloc(mv, id, n, flip)),
            );
            let node = &mut self.nodes[id as usize];
            node.children = kids;
            let n = self.combined(id, |n| n.real);
            let node = &mut self.nodes[id as usize];
            node.real = n;
            node.virt = n;
        }
        self.propagate(id);
        self.free_solved_above(id);
        true
    }

    /// Gives up job `serial` on node `id` (it ended in an error, or its worker is gone): the
    /// node keeps its numbers and is open for the next job. Returns false, changing nothing,
    /// when that job is not running there.
    pub(crate) fn abandon(&mut self, id: NodeId, serial: u64) -> bool {
        if !self.runs(id, serial) {
            return false;
        }
        let node = &mut self.nodes[id as usize];
        node.job = NO_JOB;
        node.virt = node.real;
        self.for_each_ancestor(id, |n| n.busy_below -= 1);
        self.propagate(id);
        true
    }

    /// The numbers of internal node `id` from its children's real or virtual numbers.
    pub(crate) fn combined(&self, id: NodeId, pick: impl Fn(&Node<M>) -> Numbers) -> Numbers {
        combine(self.nodes[id as usize].children.iter().map(|&c| {
            let c = &self.nodes[c as usize];
            in_parent_view(pick(c), c.flip)
        }))
    }

    /// Recomputes the real and virtual numbers of `id`'s ancestors, stopping where nothing
    /// changes.
    fn propagate(&mut self, mut id: NodeId) {
        loop {
            let parent = self.nodes[id as usize].parent;
            if parent == NONE {
                return;
            }
            let real = self.combined(parent, |n| n.real);
            let virt = self.combined(parent, |n| n.virt);
            let p = &mut self.nodes[parent as usize];
            if p.real == real && p.virt == virt {
                return;
            }
            p.real = real;
            p.virt = virt;
            id = parent;
        }
    }

    /// Applies `f` to `id` and every ancestor of it.
    fn for_each_ancestor(&mut self, mut id: NodeId, mut f: impl FnMut(&mut Node<M>)) {
        while id != NONE {
            let n = &mut self.nodes[id as usize];
            f(n);
            id = n.parent;
        }
    }

    /// Frees the subtree of the highest solved ancestor of `id` (itself included) that has no
    /// job running below it: it keeps its value as a leaf.
    fn free_solved_above(&mut self, id: NodeId) {
        let mut top = NONE;
        let mut cur = id;
        while cur != NONE {
            let n = &self.nodes[cur as usize];
            if n.real.is_solved() && n.busy_below == 0 {
                top = cur;
            }
            cur = n.parent;
        }
        // The root keeps its children: the best move is read from them.
        if top == NONE || top == Self::ROOT {
            return;
        }
        let mut stack = core::mem::take(&mut self.nodes[top as usize].children);
        while let Some(c) = stack.pop() {
            let below = &mut self.nodes[c as usize].children;
            // Without memory to walk further, the nodes below `c` are simply not reused.
            if stack.try_reserve(below.len()).is_ok() {
                stack.append(below);
            }
            // Without memory for the free list the slot is simply not reused.
            if self.free.try_reserve(1).is_ok() {
                self.free.push(c);
            }
            self.live -= 1;
        }
    }

    /// The move that decides a solved root: a winning child for a won root, the lost root's
    /// child with the most work below it otherwise (the stiffest defence).
    pub(crate) fn root_best(&self) -> Option<M> {
        let root = self.root();
        if root.children.is_empty() {
            return root.job_best;
        }
        let kids = root.children.iter().map(|&c| &self.nodes[c as usize]);
        if root.real.is_win() {
            kids.filter(|c| in_parent_view(c.real, c.flip).phi == 0)
                .min_by_key(|c| c.work)
                .map(|c| c.mv)
        } else {
            kids.max_by_key(|c| self.subtree_work(c)).map(|c| c.mv)
        }
    }

    fn subtree_work(&self, n: &Node<M>) -> u64 {
        n.work
            + n.children
                .iter()
                .map(|&c| self.subtree_work(&self.nodes[c as usize]))
                .sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Children of a node with numbers in their own views, all with flipped sides to move.
    fn kids(numbers: &[(u32, u32)]) -> Vec<(u8, Numbers, bool)> {
        numbers
            .iter()
            .enumerate()
            .map(|(i, &(p, d))| (i as u8, Numbers::new(p, d), true))
            .collect()
    }

    /// Hands out jobs with serial numbers 1, 2, 3, ...; remembers each node's serial.
    struct Jobs {
        tree: Tree<u8>,
        path: Vec<u8>,
        serials: Vec<u64>,
    }

    impl Jobs {
        fn new(split_work: u64) -> Jobs {
            Jobs {
                tree: Tree::new(split_work),
                path: Vec::new(),
                serials: Vec::new(),
            }
        }

        fn select(&mut self) -> Option<NodeId> {
            let serial = self.serials.len() as u64 + 1;
            let (id, _) = self.tree.select(&mut self.path, None, serial)?;
            self.serials.push(serial);
            Some(id)
        }

        fn serial(&self, id: NodeId) -> u64 {
            self.tree.nodes[id as usize].job
        }

        fn complete(
            &mut self,
            id: NodeId,
            numbers: Numbers,
            work: u64,
            best: Option<u8>,
            children: &[(u8, Numbers, bool)],
        ) {
            let serial = self.serial(id);
            assert!(
                self.tree
                    .complete(id, serial, numbers, work, best, children)
            );
        }
    }

    #[test]
    fn the_root_expands_after_its_first_job_and_jobs_spread_by_virtual_numbers() {
        let mut jobs = Jobs::new(1000);
        assert_eq!(jobs.select(), Some(Tree::<u8>::ROOT));
        assert!(jobs.path.is_empty());
        // Every open leaf is busy: nothing more to hand out.
        assert_eq!(jobs.select(), None);
        // Three children; in the root's view their φ are 3, 1 and 2 (their own δ).
        jobs.complete(
            0,
            Numbers::new(1, 6),
            10,
            None,
            &kids(&[(2, 3), (4, 1), (1, 2)]),
        );
        assert_eq!(jobs.tree.root().real, Numbers::new(1, 7));
        let first = jobs.select().unwrap();
        assert_eq!(jobs.path, [1]);
        // The busy child leans towards a win for its side to move (φ=4 ≥ δ=1: a loss for it,
        // so a win for the root), so the root is virtually won and nothing more is handed out.
        assert!(jobs.tree.root().virt.is_win());
        assert_eq!(jobs.select(), None);
        // The job comes back unsolved and worse for the root: the next job goes to child 2.
        jobs.complete(first, Numbers::new(1, 5), 10, None, &kids(&[(5, 1)]));
        assert_eq!(
            jobs.tree.nodes[first as usize].children.len(),
            0,
            "below split work"
        );
        let second = jobs.select().unwrap();
        assert_eq!(jobs.path, [2]);
        assert_ne!(second, first);
    }

    #[test]
    fn a_solved_child_solves_the_root_and_subtrees_are_freed_when_idle() {
        let mut jobs = Jobs::new(0);
        let root = jobs.select().unwrap();
        // Both children lean towards a win for their side to move, so a job on one does not
        // decide the root and the other gets a job too.
        jobs.complete(root, Numbers::new(2, 2), 1, None, &kids(&[(1, 2), (1, 2)]));
        let a = jobs.select().unwrap();
        assert_eq!(jobs.path, [0]);
        let b = jobs.select().unwrap();
        assert_eq!(jobs.path, [1]);
        assert_ne!(a, b);
        assert!(jobs.tree.root().virt.is_loss());
        assert_eq!(jobs.select(), None);
        // `a` expands (split work 0) into two grandchildren.
        jobs.complete(a, Numbers::new(1, 2), 5, None, &kids(&[(1, 1), (1, 1)]));
        assert_eq!(jobs.tree.live, 5);
        let c = jobs.select().unwrap();
        assert_eq!(jobs.path.len(), 2);
        // Grandchild lost for its mover: `a` is won for its mover, a loss for the root.
        jobs.complete(c, Numbers::LOSS, 3, Some(7), &[]);
        assert!(jobs.tree.nodes[a as usize].real.is_win());
        assert_eq!(
            jobs.tree.live, 3,
            "a's subtree freed, a kept as a solved leaf"
        );
        // `b` lost for its side to move: the root wins through it.
        jobs.complete(b, Numbers::LOSS, 3, None, &[]);
        assert!(jobs.tree.root().real.is_win());
        assert_eq!(jobs.tree.root_best(), Some(1));
        assert_eq!(jobs.select(), None);
    }

    #[test]
    fn results_of_jobs_no_longer_running_are_refused_and_change_nothing() {
        let mut jobs = Jobs::new(0);
        let root = jobs.select().unwrap();
        jobs.complete(
            root,
            Numbers::new(2, 2),
            1,
            None,
            &kids(&[(1, 2), (1, 2), (1, 2)]),
        );
        let a = jobs.select().unwrap();
        let serial_a = jobs.serial(a);
        let before = jobs.tree.root().real;
        // A result with the wrong serial, for a node without a job, or for no node at all.
        assert!(
            !jobs
                .tree
                .complete(a, serial_a + 100, Numbers::LOSS, 1, None, &[])
        );
        assert!(!jobs.tree.complete(root, 1, Numbers::LOSS, 1, None, &[]));
        assert!(
            !jobs
                .tree
                .complete(9999, serial_a, Numbers::LOSS, 1, None, &[])
        );
        assert!(!jobs.tree.abandon(a, NO_JOB));
        assert_eq!(jobs.tree.root().real, before);
        // Given up (its worker is gone), `a` is open again; the old job's late result is
        // refused, and the new job on the same node is taken.
        assert!(jobs.tree.abandon(a, serial_a));
        assert_eq!(jobs.tree.nodes[a as usize].busy_below, 0);
        let again = jobs.select().unwrap();
        assert_eq!(again, a, "the most-proving leaf is handed out again");
        assert!(!jobs.tree.complete(a, serial_a, Numbers::LOSS, 1, None, &[]));
        jobs.complete(a, Numbers::new(3, 3), 1, None, &[]);
        assert_eq!(jobs.tree.root().busy_below, 0);
    }
}
