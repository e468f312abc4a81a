//! The node arena of best-first PNS: 16-byte nodes in child blocks, bump allocation, and a
//! sliding mark-compact collector that reclaims solved subtrees in one pass.
//!
//! # Layout
//! A node is 16 bytes ([`Node`]): its (φ, δ) as its parent sees them, one link and two
//! 16-bit counts. The children of a node sit side by side in one *block*, so selecting the
//! most-proving child scans contiguous memory (four nodes per cache line) instead of chasing
//! sibling pointers. Moves live in a parallel array (`moves[i]` is the move that leads to node
//! `i`), touched only for the child actually played, so selection never loads them. A node has
//! no parent pointer: the search walks up its own path stack.
//!
//! # Freeing and compaction
//! Blocks are bump-allocated, so a block always lies after the block of its parent, and
//! compaction keeps that order. When a node is solved, its children's block is marked dead
//! (one write); the blocks below it are left as they are. When the bump pointer reaches the end,
//! [`Arena::compact`] makes one forward pass over the blocks:
//! - a dead block passes its death on to its nodes' child blocks, which lie further on;
//! - a live block slides down to the first free slot. Each block has exactly one referrer, its
//!   parent's `link`, and the parent has already moved (it lies before the block), so the
//!   parent *threads* itself through the block's head when it moves: it swaps its `link` with
//!   the head's, leaving the head pointing back at the parent's new place (Jonkers' pointer
//!   threading, 1979, reduced to one referrer per block). Reaching the block, the pass swaps
//!   them back and points the parent at the block's new place.
//!
//! The pass needs no memory beyond the arena, touches every slot once, and wins back every
//! solved subtree at once, so its cost is amortised over all the nodes it reclaims.

/// "No node": the link of an unexpanded leaf.
pub(crate) const NONE: u32 = u32::MAX;

/// The most nodes an arena can index (`u32` links, with [`NONE`] reserved).
pub(crate) const MAX_NODES: usize = NONE as usize - 1;

/// The most children a node can have: block lengths are kept in 15 bits, beside a dead bit.
pub(crate) const MAX_BLOCK: usize = (1 << 15) - 1;

/// The bit of [`Node::block`] that marks a block no longer in the tree.
const DEAD: u16 = 1 << 15;

/// One tree node.
///
/// - `phi`, `delta`: the node's numbers in its parent's view (the root's in its own view).
/// - `link`: for an expanded unsolved node, the index of its first child; for a solved node,
///   its distance to the end of the solved line (low 16 bits) and the shallowest path depth whose
///   repetition the result relies on (high 16 bits); [`NONE`] for an unexpanded leaf.
/// - `n_children`: the length of the child block (0 for leaves and solved nodes).
/// - `block`: for the first node of a block, the block's length, with [`DEAD`] once the block
///   has left the tree; 0 for the other nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Node {
    pub phi: u32,
    pub delta: u32,
    pub link: u32,
    pub n_children: u16,
    pub block: u16,
}

const _: () = assert!(core::mem::size_of::<Node>() == 16);

impl Node {
    /// An unused slot.
    pub const EMPTY: Node = Node {
        phi: 1,
        delta: 1,
        link: NONE,
        n_children: 0,
        block: 0,
    };

    /// A leaf with these numbers (in its parent's view); solved leaves carry their distance and
    /// repetition depth.
    #[inline]
    pub const fn leaf(phi: u32, delta: u32, distance: u16, rep: u16) -> Node {
        let solved = phi == 0 || delta == 0;
        Node {
            phi,
            delta,
            link: if solved {
                distance as u32 | (rep as u32) << 16
            } else {
                NONE
            },
            n_children: 0,
            block: 0,
        }
    }

    /// True when the node has a child block.
    #[inline]
    pub const fn has_children(&self) -> bool {
        self.n_children != 0
    }

    /// True when the node is solved.
    #[inline]
    pub const fn is_solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    /// The distance of a solved node.
    #[inline]
    pub const fn distance(&self) -> u16 {
        self.link as u16
    }

    /// The repetition depth a solved node relies on.
    #[inline]
    pub const fn rep(&self) -> u16 {
        (self.link >> 16) as u16
    }
}

/// The nodes of one tree and their moves, in caller memory.
pub(crate) struct Arena<'m, M> {
    nodes: &'m mut [Node],
    moves: &'m mut [M],
    /// The first never-used slot (the bump pointer).
    top: usize,
    /// The largest `top` since the last reset.
    peak: usize,
}

impl<'m, M: Copy> Arena<'m, M> {
    /// An arena over `nodes` and `moves`, which must have the same length.
    pub fn new(nodes: &'m mut [Node], moves: &'m mut [M]) -> Self {
        debug_assert_eq!(nodes.len(), moves.len());
        debug_assert!(nodes.len() <= MAX_NODES);
        Arena {
            nodes,
            moves,
            top: 0,
            peak: 0,
        }
    }

    /// Slots in the arena.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Slots in use, dead blocks not yet reclaimed included.
    #[inline]
    pub fn used(&self) -> usize {
        self.top
    }

    /// The most slots in use at once since the last reset.
    #[inline]
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Empties the arena (no root, peak 0).
    pub fn clear(&mut self) {
        self.top = 0;
        self.peak = 0;
    }

    /// Empties the arena and makes `root` its only node (index 0). The arena must have a slot.
    pub fn reset(&mut self, root: Node) {
        self.nodes[0] = Node { block: 1, ..root };
        self.top = 1;
        self.peak = 1;
    }

    #[inline]
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    #[inline]
    pub fn node_mut(&mut self, i: usize) -> &mut Node {
        &mut self.nodes[i]
    }

    #[inline]
    pub fn mv(&self, i: usize) -> M {
        self.moves[i]
    }

    /// The children of node `i` (empty for a leaf).
    #[inline]
    pub fn children(&self, i: usize) -> &[Node] {
        let n = self.nodes[i];
        if !n.has_children() {
            return &[];
        }
        let first = n.link as usize;
        &self.nodes[first..first + n.n_children as usize]
    }

    /// Appends `kids` (with their moves) as the child block of node `parent`, if the block
    /// fits below `limit` slots. Returns false, changing nothing, if it does not.
    pub fn attach_children(
        &mut self,
        parent: usize,
        kids: &[Node],
        moves: &[M],
        limit: usize,
    ) -> bool {
        let len = kids.len();
        debug_assert!(len > 0 && len <= MAX_BLOCK && len == moves.len());
        debug_assert!(!self.nodes[parent].has_children());
        let at = self.top;
        if len > limit.min(self.capacity()).saturating_sub(at) {
            return false;
        }
        self.nodes[at..at + len].copy_from_slice(kids);
        self.moves[at..at + len].copy_from_slice(moves);
        for n in &mut self.nodes[at + 1..at + len] {
            n.block = 0;
        }
        self.nodes[at].block = len as u16;
        let p = &mut self.nodes[parent];
        p.link = at as u32;
        p.n_children = len as u16;
        self.top = at + len;
        self.peak = self.peak.max(self.top);
        true
    }

    /// Takes node `i`'s children out of the tree (they become garbage for the next
    /// compaction) and makes `i` a solved leaf with these numbers, distance and repetition.
    pub fn settle(&mut self, i: usize, phi: u32, delta: u32, distance: u16, rep: u16) {
        let n = self.nodes[i];
        if n.has_children() {
            self.nodes[n.link as usize].block |= DEAD;
        }
        // Keep `block`: the node may head its own block.
        self.nodes[i] = Node {
            block: n.block,
            ..Node::leaf(phi, delta, distance, rep)
        };
    }

    /// Slides every live block down over the dead ones, keeping their order, and returns how
    /// many slots it won back. Node indices change: callers re-derive the ones they hold from
    /// the root (index 0 stays the root).
    pub fn compact(&mut self) -> usize {
        let top = self.top;
        let (mut s, mut free) = (0usize, 0usize);
        while s < top {
            let head = self.nodes[s];
            let len = (head.block & !DEAD) as usize;
            debug_assert!(len > 0, "slot {s} does not start a block");
            if head.block & DEAD != 0 {
                // The blocks below a dead block are dead too; they lie further on.
                for i in s..s + len {
                    let n = self.nodes[i];
                    if n.has_children() {
                        self.nodes[n.link as usize].block |= DEAD;
                    }
                }
                s += len;
                continue;
            }
            if s != 0 {
                // The parent moved already and threaded itself through this head: its link
                // holds the head's own link, and the head's link holds the parent's index.
                let parent = head.link as usize;
                self.nodes[s].link = self.nodes[parent].link;
                self.nodes[parent].link = free as u32;
            }
            for i in 0..len {
                // Moving down (free <= s), front to back, never overwrites a slot still to read.
                let n = self.nodes[s + i];
                self.nodes[free + i] = n;
                self.moves[free + i] = self.moves[s + i];
                if n.has_children() {
                    let child = n.link as usize;
                    self.nodes[free + i].link = self.nodes[child].link;
                    self.nodes[child].link = (free + i) as u32;
                }
            }
            s += len;
            free += len;
        }
        self.top = free;
        top - free
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec;
    use std::vec::Vec;

    /// A reference tree: for each node, its label and its children.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Shape {
        label: u32,
        solved: bool,
        kids: Vec<Shape>,
    }

    /// Reads the live tree below node `i`, as labels (φ holds the label, moves repeat it).
    fn read(a: &Arena<'_, u32>, i: usize) -> Shape {
        let n = *a.node(i);
        assert_eq!(a.mv(i), n.phi, "move travels with its node");
        Shape {
            label: n.phi,
            solved: n.is_solved(),
            kids: (0..n.n_children as usize)
                .map(|k| read(a, n.link as usize + k))
                .collect(),
        }
    }

    /// Drives an arena with random expansions and settles, compacting now and then, and
    /// checks the live tree against a reference after every compaction.
    fn random_run(seed: u64, capacity: usize, steps: usize) {
        let mut rng = seed;
        let mut next = |n: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((rng >> 33) % n.max(1)) as usize
        };
        let mut nodes = vec![Node::EMPTY; capacity];
        let mut moves = vec![0u32; capacity];
        let mut a = Arena::new(&mut nodes, &mut moves);
        let mut label = 2u32;
        a.reset(Node::leaf(1, 5, 0, 0));
        a.moves[0] = 1;
        for _ in 0..steps {
            // Walk from the root to a random unsolved node.
            let mut at = 0usize;
            while a.node(at).has_children() && next(4) != 0 {
                let n = *a.node(at);
                let k = n.link as usize + next(n.n_children as u64);
                if a.node(k).is_solved() {
                    break;
                }
                at = k;
            }
            if a.node(at).is_solved() {
                continue;
            }
            if !a.node(at).has_children() {
                let len = 1 + next(5);
                let kids: Vec<Node> = (0..len)
                    .map(|i| Node::leaf(label + i as u32, 3, 0, 0))
                    .collect();
                let mv: Vec<u32> = (0..len).map(|i| label + i as u32).collect();
                if !a.attach_children(at, &kids, &mv, usize::MAX) {
                    let before = read(&a, 0);
                    let won = a.compact();
                    assert_eq!(read(&a, 0), before, "compaction keeps the live tree");
                    assert!(a.used() + won <= capacity);
                    continue; // the walk's indices are stale now
                }
                label += len as u32;
            } else if at != 0 && next(3) == 0 {
                let l = a.node(at).phi;
                a.settle(at, l, 0, 0, 0);
            }
        }
        let before = read(&a, 0);
        a.compact();
        assert_eq!(read(&a, 0), before);
        // After a compaction the arena holds exactly the live tree.
        fn count(s: &Shape) -> usize {
            1 + s.kids.iter().map(count).sum::<usize>()
        }
        assert_eq!(a.used(), count(&before));
    }

    #[test]
    fn settle_keeps_the_block_head() {
        let mut nodes = vec![Node::EMPTY; 8];
        let mut moves = vec![0u32; 8];
        let mut a = Arena::new(&mut nodes, &mut moves);
        a.reset(Node::leaf(1, 1, 0, 0));
        let kids = [Node::leaf(2, 2, 0, 0), Node::leaf(3, 3, 0, 0)];
        assert!(a.attach_children(0, &kids, &[2, 3], usize::MAX));
        assert_eq!(a.node(1).block, 2);
        a.settle(1, 0, crate::number::INFINITE, 7, 9);
        assert_eq!(a.node(1).block, 2);
        assert_eq!((a.node(1).distance(), a.node(1).rep()), (7, 9));
        assert!(
            !a.attach_children(2, &[Node::EMPTY; 1], &[0], 3),
            "limit respected"
        );
        assert!(a.attach_children(2, &[Node::EMPTY; 1], &[0], 4));
        assert_eq!(a.children(2).len(), 1);
    }

    #[test]
    fn compaction_reclaims_solved_subtrees_and_keeps_the_rest() {
        // Miri (`.ci/run`) interprets every step: a few seeds there.
        let seeds = if cfg!(miri) { 5 } else { 200 };
        for seed in 0..seeds {
            random_run(seed, 24 + (seed as usize % 5) * 40, 400);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 256 }))]

        #[test]
        fn compaction_is_exact(seed in any::<u64>(), capacity in 8usize..300, steps in 1usize..600) {
            random_run(seed, capacity, steps);
        }
    }
}
