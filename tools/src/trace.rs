//! Where a df-pn search spends its MID calls, measured from outside the core: a game wrapper
//! that follows the search's path (every `play` pushes, every `undo` pops) and counts each
//! move generation (one per MID call: df-pn generates a position's moves each time it enters
//! it) by depth, by root child and by the root child's child; and a table wrapper that sees
//! the numbers each finished visit to a root child stores, so the sequence of visits shows
//! the threshold pattern (how often the root switches between children, and how much each
//! visit costs).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use proofnum::TableStats;
use proofnum::game::{Decided, MoveList, Outcome, Player, RepetitionRule, Value};
use proofnum::{Entry, Game, Numbers, TranspositionTable};

/// One entry of the search into a root child, until it returned to the root.
#[derive(Clone, Copy, Debug)]
pub struct Visit<M> {
    /// The root move.
    pub child: M,
    /// MID calls from entering the child to returning (the child's own call included).
    pub mid_calls: u64,
    /// The numbers the child's frame stored when it returned, in the child's own view (its
    /// side to move's (φ, δ)); `None` when the search stopped inside.
    pub exit: Option<Numbers>,
}

/// The counters.
#[derive(Debug)]
pub struct Trace<M> {
    /// The moves from the root to the current position.
    pub path: Vec<M>,
    /// Move generations (MID calls) at each depth below the root (index 0: the root).
    pub per_depth: Vec<u64>,
    /// Move generations below each root move (the child's own included).
    pub per_child: HashMap<M, u64>,
    /// Move generations below each (root move, reply).
    pub per_grandchild: HashMap<(M, M), u64>,
    /// The visits to root children, in order.
    pub visits: Vec<Visit<M>>,
    /// The moves to the first position the search expanded at its deepest depth.
    pub deepest_path: Vec<M>,
    /// With [`Trace::count_positions`]: how often each position (by hash) was expanded.
    pub expansions: HashMap<u64, u32>,
    /// With it: positions expanded for the first time, at each depth.
    pub first_expansions: Vec<u64>,
    /// Count expansions per position (memory: about 24 bytes a position).
    pub count_positions: bool,
    /// A proof tree's positions (by hash), from an earlier run of the same search: with it,
    /// each expansion is counted on the proof, or off it by the depth where its path left it.
    pub proof: std::collections::HashSet<u64>,
    /// Expansions of positions of `proof`.
    pub on_proof: u64,
    /// Expansions off `proof`, by the depth of the first position of their path outside it.
    pub off_proof_by_depth: Vec<u64>,
    /// The hashes of the positions on the path below the root.
    pub hashes: Vec<u64>,
    /// Expansions off `proof` by the moves to the first position outside it.
    pub off_proof_by_branch: HashMap<Vec<M>, u64>,
    /// Keep `hashes` and `movers` even without a `proof`.
    pub track_path: bool,
    /// The side to move at each position of the path below the root.
    pub movers: Vec<Player>,
    /// With it: the table wrapper records every position it sees solved as a win for this
    /// player into `recorded`.
    pub record_wins_for: Option<Player>,
    /// The positions recorded so.
    pub recorded: std::collections::HashSet<u64>,
    /// Positions already decided (by an earlier search): expansions at or below one of them
    /// are counted in `decided_expansions`.
    pub decided: std::collections::HashSet<u64>,
    /// Expansions at or below a position of `decided`.
    pub decided_expansions: u64,
}

impl<M: Clone + Eq + std::hash::Hash> Default for Trace<M> {
    fn default() -> Self {
        Trace {
            path: Vec::new(),
            per_depth: Vec::new(),
            per_child: HashMap::new(),
            per_grandchild: HashMap::new(),
            visits: Vec::new(),
            deepest_path: Vec::new(),
            expansions: HashMap::new(),
            first_expansions: Vec::new(),
            count_positions: false,
            proof: std::collections::HashSet::new(),
            on_proof: 0,
            off_proof_by_depth: Vec::new(),
            hashes: Vec::new(),
            off_proof_by_branch: HashMap::new(),
            track_path: false,
            movers: Vec::new(),
            record_wins_for: None,
            recorded: std::collections::HashSet::new(),
            decided: std::collections::HashSet::new(),
            decided_expansions: 0,
        }
    }
}

/// The shared counters of a [`Traced`] game and its [`TracedTable`].
pub type Shared<M> = Rc<RefCell<Trace<M>>>;

/// A game that counts the search's move generations in its [`Trace`]. Everything else is
/// the wrapped game's.
pub struct Traced<G: Game> {
    /// The game.
    pub inner: G,
    /// The counters.
    pub trace: Shared<G::Move>,
}

impl<G: Game> Traced<G>
where
    G::Move: Eq + std::hash::Hash,
{
    /// Wraps `inner` with fresh counters.
    pub fn new(inner: G) -> Self {
        Traced {
            inner,
            trace: Rc::new(RefCell::new(Trace::default())),
        }
    }
}

impl<G: Game> Game for Traced<G>
where
    G::Move: Eq + std::hash::Hash,
{
    type Move = G::Move;
    const REPETITION_RULE: RepetitionRule = G::REPETITION_RULE;
    const REMEMBER_LEAVES: bool = G::REMEMBER_LEAVES;

    fn dominance(&self) -> bool {
        self.inner.dominance()
    }
    fn class_hash(&self) -> u64 {
        self.inner.class_hash()
    }
    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        self.inner.encode_class(out)
    }
    fn material(&self) -> u32 {
        self.inner.material()
    }
    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        self.inner.material_at_least(player, a, b)
    }
    fn material_needed(&self, decided: Decided<G::Move>) -> Option<u32> {
        self.inner.material_needed(decided)
    }
    fn reduces_material(&self) -> bool {
        self.inner.reduces_material()
    }
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        self.inner.material_join(winner, a, b)
    }
    fn side_to_move(&self) -> Player {
        self.inner.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn outcome(&self) -> Outcome {
        self.inner.outcome()
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, G::Move>) {
        let mut t = self.trace.borrow_mut();
        let depth = t.path.len();
        if t.per_depth.len() <= depth {
            t.per_depth.resize(depth + 1, 0);
            t.deepest_path = t.path.clone();
        }
        t.per_depth[depth] += 1;
        if !t.decided.is_empty() && t.hashes.iter().any(|h| t.decided.contains(h)) {
            t.decided_expansions += 1;
        }
        if !t.proof.is_empty() {
            match t.hashes.iter().position(|h| !t.proof.contains(h)) {
                None => t.on_proof += 1,
                Some(i) => {
                    if t.off_proof_by_depth.len() <= i + 1 {
                        t.off_proof_by_depth.resize(i + 2, 0);
                    }
                    t.off_proof_by_depth[i + 1] += 1;
                    let branch = t.path[..=i].to_vec();
                    *t.off_proof_by_branch.entry(branch).or_insert(0) += 1;
                }
            }
        }
        if t.count_positions {
            let count = t.expansions.entry(self.inner.hash()).or_insert(0);
            *count += 1;
            if *count == 1 {
                if t.first_expansions.len() <= depth {
                    t.first_expansions.resize(depth + 1, 0);
                }
                t.first_expansions[depth] += 1;
            }
        }
        if let Some(&first) = t.path.first() {
            *t.per_child.entry(first).or_insert(0) += 1;
            if depth == 1 {
                t.visits.push(Visit {
                    child: first,
                    mid_calls: 0,
                    exit: None,
                });
            }
            if let Some(v) = t.visits.last_mut() {
                v.mid_calls += 1;
            }
            if let Some(&second) = t.path.get(1) {
                *t.per_grandchild.entry((first, second)).or_insert(0) += 1;
            }
        }
        drop(t);
        self.inner.generate_moves(moves)
    }
    fn deferred_moves(&self) -> usize {
        self.inner.deferred_moves()
    }
    fn play(&mut self, mv: G::Move) {
        self.inner.play(mv);
        let mut t = self.trace.borrow_mut();
        t.path.push(mv);
        if !t.proof.is_empty() || t.track_path {
            t.hashes.push(self.inner.hash());
            t.movers.push(self.inner.side_to_move());
        }
    }
    fn undo(&mut self, mv: G::Move) {
        let mut t = self.trace.borrow_mut();
        t.path.pop();
        if !t.proof.is_empty() || t.track_path {
            t.hashes.pop();
            t.movers.pop();
        }
        drop(t);
        self.inner.undo(mv)
    }
    fn peek(&mut self, mv: G::Move) -> (u64, Player) {
        self.inner.peek(mv)
    }
    fn estimate(&self) -> Numbers {
        self.inner.estimate()
    }
    fn repetition_value(&self) -> Value {
        self.inner.repetition_value()
    }
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        self.inner.encode(out)
    }
    fn has_failed(&self) -> bool {
        self.inner.has_failed()
    }
    fn no_moves_value(&self) -> Value {
        self.inner.no_moves_value()
    }
}

/// A table that records, for the current visit to a root child, the numbers its frame
/// stores when it returns (a store with work, made while the game is at depth 1).
pub struct TracedTable<T, M> {
    /// The table.
    pub inner: T,
    /// The counters shared with the [`Traced`] game.
    pub trace: Shared<M>,
}

impl<T: TranspositionTable, M> TranspositionTable for TracedTable<T, M> {
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.inner.probe(key)
    }
    fn prefetch(&self, key: u64) {
        self.inner.prefetch(key)
    }
    fn prefetch_pays(&self) -> bool {
        self.inner.prefetch_pays()
    }
    fn store(&mut self, key: u64, entry: &Entry) {
        let mut t = self.trace.borrow_mut();
        if t.path.len() == 1 && entry.work_log2 > 0 {
            if let Some(v) = t.visits.last_mut() {
                v.exit = Some(entry.numbers);
            }
        }
        if let (Some(player), Some(&hash), Some(&mover)) =
            (t.record_wins_for, t.hashes.last(), t.movers.last())
        {
            let n = entry.numbers;
            if (mover == player && n.phi == 0) || (mover != player && n.delta == 0) {
                t.recorded.insert(hash);
            }
        }
        drop(t);
        self.inner.store(key, entry)
    }
    fn stats(&self) -> TableStats {
        self.inner.stats()
    }
    fn key_salt(&self) -> u64 {
        self.inner.key_salt()
    }
    fn rekey(&mut self) -> bool {
        self.inner.rekey()
    }
    fn probe_dominant(
        &mut self,
        class_key: u64,
        applies: &mut dyn FnMut(u32, bool) -> bool,
    ) -> Option<Entry> {
        self.inner.probe_dominant(class_key, applies)
    }
    fn store_dominant(&mut self, class_key: u64, material: u32, mover_wins: bool, entry: &Entry) {
        self.inner
            .store_dominant(class_key, material, mover_wins, entry)
    }
}
