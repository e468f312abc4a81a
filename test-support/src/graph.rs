//! Explicit game graphs, played as a game, and their values by brute force.
//!
//! Every node has a side to move and either a known outcome or a list of successor nodes. Three
//! shapes are generated at random ([`Graph::random`]): trees, DAGs (layered, with
//! transpositions) and cyclic graphs; any other graph can be built node by node. The oracles
//! never use a solver: a brute-force minimax over paths (exact for any repetition rule,
//! memoised on node and set of nodes on the path) and, for the draw rule, retrograde analysis.

use std::collections::HashMap;

use proofnum_game::{Game, MoveCodec, MoveList, Numbers, Outcome, Player, RepetitionRule, Value};

use crate::rng::Rng;

/// The shape of a graph: what the oracle's memo may assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Tree,
    Dag,
    Cyclic,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub mover: Player,
    /// Known result for the side to move, or `Unknown` for an interior node.
    pub outcome: Outcome,
    pub children: Vec<u32>,
    /// Value of this node when it repeats a position on the path (ByPosition games).
    pub repetition: Value,
    /// A heuristic estimate, if the game offers one.
    pub estimate: Option<Numbers>,
    /// The hash the game reports.
    pub hash: u64,
    /// A bound (`CannotWin` / `CannotLose`) the game reports for an interior node instead of
    /// `Unknown`; the oracles ignore it (see [`Graph::add_true_bounds`]).
    pub bound: Option<Outcome>,
}

#[derive(Clone, Debug)]
pub struct Graph {
    pub shape: Shape,
    pub nodes: Vec<Node>,
    pub root: u32,
    /// Value of an interior node without moves.
    pub no_moves: Value,
}

fn leaf(rng: &mut Rng, mover: Player) -> Node {
    Node {
        mover,
        outcome: match rng.below(10) {
            0..=3 => Outcome::Win,
            4..=7 => Outcome::Loss,
            _ => Outcome::Draw,
        },
        children: Vec::new(),
        repetition: Value::Draw,
        estimate: None,
        hash: 0,
        bound: None,
    }
}

fn interior(mover: Player) -> Node {
    Node {
        mover,
        outcome: Outcome::Unknown,
        children: Vec::new(),
        repetition: Value::Draw,
        estimate: None,
        hash: 0,
        bound: None,
    }
}

/// The next mover: the opponent, except in games where some moves keep the turn.
fn next_mover(rng: &mut Rng, mover: Player, keep_turn_percent: u64) -> Player {
    if rng.chance(keep_turn_percent) {
        mover
    } else {
        mover.opponent()
    }
}

impl Graph {
    /// A random game of the given shape. Sizes stay small enough for the oracles.
    pub fn random(rng: &mut Rng, shape: Shape) -> Graph {
        let keep_turn = if rng.chance(30) { 10 } else { 0 };
        let mut g = match shape {
            Shape::Tree => Self::random_tree(rng, keep_turn),
            Shape::Dag => Self::random_dag(rng, keep_turn),
            Shape::Cyclic => Self::random_cyclic(rng),
        };
        g.no_moves = if rng.chance(70) {
            Value::Loss
        } else {
            Value::Draw
        };
        let with_estimates = rng.chance(30);
        let poor_hash = rng.chance(30);
        for (i, n) in g.nodes.iter_mut().enumerate() {
            n.repetition = rng.value();
            if with_estimates {
                n.estimate = Some(Numbers::new(rng.below(12) as u32, rng.below(12) as u32));
            }
            // Some games hash badly; the solver must mix the bits itself.
            n.hash = if poor_hash { i as u64 } else { rng.next_u64() };
        }
        g
    }

    fn random_tree(rng: &mut Rng, keep_turn: u64) -> Graph {
        let max_depth = 2 + rng.below(11) as usize; // up to 12 plies
        let max_branch = 1 + rng.below(8);
        let budget = 300 + rng.below(2500) as usize;
        let mut nodes = vec![interior(rng.player())];
        let mut frontier = vec![(0u32, 0usize)];
        while let Some((id, depth)) = frontier.pop() {
            let mover = nodes[id as usize].mover;
            let terminal_now =
                depth > 0 && (depth >= max_depth || nodes.len() >= budget || rng.chance(12));
            if terminal_now {
                let mut n = if rng.chance(5) {
                    interior(mover) // no moves at all
                } else {
                    leaf(rng, mover)
                };
                n.mover = mover;
                nodes[id as usize] = n;
                continue;
            }
            for _ in 0..rng.branching(max_branch) {
                let child = nodes.len() as u32;
                nodes.push(interior(next_mover(rng, mover, keep_turn)));
                nodes[id as usize].children.push(child);
                frontier.push((child, depth + 1));
            }
        }
        Graph {
            shape: Shape::Tree,
            nodes,
            root: 0,
            no_moves: Value::Loss,
        }
    }

    fn random_dag(rng: &mut Rng, keep_turn: u64) -> Graph {
        let layers = 3 + rng.below(10) as usize; // depth to 12
        let width = 2 + rng.below(28) as usize;
        let max_branch = 1 + rng.below(8);
        let mut layer_of = Vec::new();
        let mut nodes = Vec::new();
        let mut starts = Vec::new();
        for l in 0..layers {
            starts.push(nodes.len());
            let w = if l == 0 {
                1
            } else {
                1 + rng.below(width as u64) as usize
            };
            for _ in 0..w {
                nodes.push(interior(rng.player()));
                layer_of.push(l);
            }
        }
        starts.push(nodes.len());
        for i in 0..nodes.len() {
            let l = layer_of[i];
            if l + 1 == layers || (l > 0 && rng.chance(10)) {
                let mover = nodes[i].mover;
                nodes[i] = if rng.chance(5) {
                    interior(mover)
                } else {
                    leaf(rng, mover)
                };
                continue;
            }
            for _ in 0..rng.branching(max_branch) {
                // Mostly the next layer, sometimes further down: transpositions of all kinds.
                let to_layer = (l + 1 + rng.below(2) as usize).min(layers - 1);
                let lo = starts[to_layer];
                let hi = starts[to_layer + 1];
                let child = lo + rng.below((hi - lo) as u64) as usize;
                nodes[i].children.push(child as u32);
            }
            // Respect the turn order where the generator wants alternation.
            if keep_turn == 0 {
                let mover = nodes[i].mover;
                for &c in &nodes[i].children.clone() {
                    if l + 1 == layer_of[c as usize] {
                        nodes[c as usize].mover = mover.opponent();
                    }
                }
            }
        }
        Graph {
            shape: Shape::Dag,
            nodes,
            root: 0,
            no_moves: Value::Loss,
        }
    }

    fn random_cyclic(rng: &mut Rng) -> Graph {
        let n = 3 + rng.below(14) as usize; // up to 16 nodes: paths stay enumerable
        let max_branch = 1 + rng.below(5);
        let terminal_percent = 10 + rng.below(40);
        let mut nodes: Vec<Node> = (0..n).map(|_| interior(rng.player())).collect();
        for (i, node) in nodes.iter_mut().enumerate() {
            if i > 0 && rng.chance(terminal_percent) {
                *node = leaf(rng, node.mover);
                continue;
            }
            if rng.chance(3) {
                continue; // no moves
            }
            for _ in 0..rng.branching(max_branch) {
                node.children.push(rng.below(n as u64) as u32);
            }
        }
        Graph {
            shape: Shape::Cyclic,
            nodes,
            root: 0,
            no_moves: Value::Loss,
        }
    }

    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    /// The value for the side to move of a node reached with `path` (node ids above it),
    /// scored with the repetition rule: the game's definition, by brute force.
    pub fn brute_value(&self, by_position: bool) -> Value {
        let mut memo = HashMap::new();
        let mut path = Vec::new();
        self.brute(self.root, &mut path, by_position, &mut memo)
    }

    fn brute(
        &self,
        at: u32,
        path: &mut Vec<u32>,
        by_position: bool,
        memo: &mut HashMap<(u32, u64), Value>,
    ) -> Value {
        let node = self.node(at);
        if path.contains(&at) {
            return if by_position {
                node.repetition
            } else {
                Value::Draw
            };
        }
        match node.outcome {
            Outcome::Win => return Value::Win,
            Outcome::Loss => return Value::Loss,
            Outcome::Draw => return Value::Draw,
            // Bounds live in `Node::bound`; the oracle ignores them.
            Outcome::Unknown | Outcome::CannotWin | Outcome::CannotLose => {}
        }
        if node.children.is_empty() {
            return self.no_moves;
        }
        // The value depends on the set of nodes on the path only in cyclic graphs.
        let key = match self.shape {
            Shape::Cyclic => {
                assert!(self.nodes.len() <= 64);
                (at, path.iter().fold(0u64, |m, &p| m | 1 << p))
            }
            _ => (at, 0),
        };
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        path.push(at);
        let mut best = Value::Loss;
        for &c in &node.children {
            let v = self.brute(c, path, by_position, memo);
            let mine = if self.node(c).mover == node.mover {
                v
            } else {
                v.flipped()
            };
            best = better(best, mine);
            if best == Value::Win {
                break;
            }
        }
        path.pop();
        memo.insert(key, best);
        best
    }

    /// Retrograde analysis (infinite play is a draw): the value of every node for its side to
    /// move. Under the draw rule this equals the first-repetition-is-a-draw value.
    pub fn retrograde(&self) -> Vec<Value> {
        let n = self.nodes.len();
        let mut value: Vec<Option<Value>> = self
            .nodes
            .iter()
            .map(|node| match node.outcome {
                Outcome::Win => Some(Value::Win),
                Outcome::Loss => Some(Value::Loss),
                Outcome::Draw => Some(Value::Draw),
                _ if node.children.is_empty() => Some(self.no_moves),
                Outcome::Unknown | Outcome::CannotWin | Outcome::CannotLose => None,
            })
            .collect();
        loop {
            let mut changed = false;
            for i in 0..n {
                if value[i].is_some() {
                    continue;
                }
                let node = &self.nodes[i];
                let mine = |c: u32| {
                    value[c as usize].map(|v| {
                        if self.node(c).mover == node.mover {
                            v
                        } else {
                            v.flipped()
                        }
                    })
                };
                if node.children.iter().any(|&c| mine(c) == Some(Value::Win)) {
                    value[i] = Some(Value::Win);
                    changed = true;
                } else if node.children.iter().all(|&c| mine(c) == Some(Value::Loss)) {
                    value[i] = Some(Value::Loss);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        value
            .into_iter()
            .map(|v| v.unwrap_or(Value::Draw))
            .collect()
    }

    /// A random game of the given shape, and in about a third of the games under rules other
    /// than `ByPosition`, true bounds at a fifth of the interior nodes
    /// ([`add_true_bounds`](Graph::add_true_bounds)).
    pub fn random_maybe_bounded(rng: &mut Rng, shape: Shape, by_position: bool) -> Graph {
        let mut g = Graph::random(rng, shape);
        if !by_position && rng.chance(35) {
            g.add_true_bounds(rng, 20);
        }
        g
    }

    /// Gives about `percent`% of the interior nodes a bound the game reports instead of
    /// `Unknown`, true by retrograde analysis (infinite play is a draw): a node worth a draw
    /// gets `CannotWin` or `CannotLose`, a won one `CannotLose`, a lost one `CannotWin`. Under
    /// the draw rule a position whose retrograde value is not a win for a player is not a win
    /// for them on any path, so the bounds are true wherever the node is reached. (Not for
    /// `ByPosition` games, whose values depend on the path both ways.) Returns how many nodes
    /// got one.
    pub fn add_true_bounds(&mut self, rng: &mut Rng, percent: u64) -> usize {
        let values = self.retrograde();
        let mut added = 0;
        for (node, value) in self.nodes.iter_mut().zip(values) {
            if node.outcome != Outcome::Unknown || node.children.is_empty() {
                continue;
            }
            if !rng.chance(percent) {
                continue;
            }
            node.bound = Some(match value {
                Value::Win => Outcome::CannotLose,
                Value::Loss => Outcome::CannotWin,
                Value::Draw if rng.chance(50) => Outcome::CannotWin,
                Value::Draw => Outcome::CannotLose,
            });
            added += 1;
        }
        added
    }

    /// Whether `attacker` wins the root, given the root's value for its side to move.
    pub fn attacker_wins(&self, root_value: Value, attacker: Player) -> bool {
        let mover = self.node(self.root).mover;
        (mover == attacker && root_value == Value::Win)
            || (mover != attacker && root_value == Value::Loss)
    }
}

/// The better of two values for the same side.
pub fn better(a: Value, b: Value) -> Value {
    let rank = |v| match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    if rank(b) > rank(a) { b } else { a }
}

impl Graph {
    /// The root's value for its side to move by brute force; under the draw rule it must equal
    /// retrograde analysis too (the property the solvers' tables rely on), else the test fails.
    pub fn oracle_value(&self, by_position: bool, context: &str) -> Value {
        let value = self.brute_value(by_position);
        if !by_position {
            assert_eq!(
                value,
                self.retrograde()[self.root as usize],
                "{context}: oracles disagree\n{self:#?}"
            );
        }
        value
    }

    /// The oracle's value of `child` reached from the root, for the child's side to move.
    ///
    /// It is the root's value when the root's only move is `child`: the root stays on the
    /// path, so repetitions of it still count, and no position below the root sees the change
    /// (any return to the root is a repetition).
    pub fn child_value(&self, child: u32, by_position: bool) -> Value {
        let mut g = self.clone();
        g.nodes[self.root as usize].children = vec![child];
        let v = g.brute_value(by_position);
        if self.node(child).mover == self.node(self.root).mover {
            v
        } else {
            v.flipped()
        }
    }

    /// True when moving from the root to `child` keeps a win for `attacker`, by the oracle.
    pub fn child_wins_for(&self, child: u32, attacker: Player, by_position: bool) -> bool {
        let value = self.child_value(child, by_position);
        let mover = self.node(child).mover;
        (mover == attacker && value == Value::Win) || (mover != attacker && value == Value::Loss)
    }
}

/// [`GraphGame`]'s rule parameter: the game declares itself acyclic.
pub const ACYCLIC: u8 = 0;
/// [`GraphGame`]'s rule parameter: repetitions are draws.
pub const DRAW: u8 = 1;
/// [`GraphGame`]'s rule parameter: repetitions are scored per node.
pub const BY_POSITION: u8 = 2;
/// Added to [`GraphGame`]'s rule parameter: the game sets `Game::REMEMBER_LEAVES`.
pub const LEAVES: u8 = 4;
/// Added to [`GraphGame`]'s rule parameter: the game gives no exact encoding (`Game::encode`).
pub const NO_ENCODING: u8 = 8;
/// Added to [`GraphGame`]'s rule parameter: the game defers up to three of each node's last
/// moves (`Game::deferred_moves`, how many fixed by the node's index), for either mover.
pub const DEFER: u8 = 16;

/// The repetition rule part of [`GraphGame`]'s rule parameter (without the added flags).
pub const fn repetition_part(rule: u8) -> u8 {
    rule & !(LEAVES | NO_ENCODING | DEFER)
}

/// A random graph played as a game. `RULE` selects the repetition rule.
#[derive(Clone)]
pub struct GraphGame<'g, const RULE: u8> {
    pub graph: &'g Graph,
    pub at: u32,
}

impl<'g, const RULE: u8> GraphGame<'g, RULE> {
    pub fn new(graph: &'g Graph) -> Self {
        GraphGame {
            graph,
            at: graph.root,
        }
    }
}

impl<const RULE: u8> Game for GraphGame<'_, RULE> {
    /// `from << 32 | to`, so undo needs no history.
    type Move = u64;

    const REPETITION_RULE: RepetitionRule = match repetition_part(RULE) {
        ACYCLIC => RepetitionRule::Acyclic,
        DRAW => RepetitionRule::Draw,
        _ => RepetitionRule::ByPosition,
    };
    const REMEMBER_LEAVES: bool = RULE & LEAVES != 0;

    fn side_to_move(&self) -> Player {
        self.graph.node(self.at).mover
    }
    fn hash(&self) -> u64 {
        self.graph.node(self.at).hash
    }
    fn outcome(&self) -> Outcome {
        let node = self.graph.node(self.at);
        node.bound.unwrap_or(node.outcome)
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u64>) {
        let node = self.graph.node(self.at);
        if node.outcome != Outcome::Unknown {
            return;
        }
        for &c in &node.children {
            moves.push((self.at as u64) << 32 | c as u64);
        }
    }
    fn deferred_moves(&self) -> usize {
        if RULE & DEFER == 0 {
            return 0;
        }
        // 0 to 3 (often more than the node has: then all of them), mixed from the index.
        (self.at.wrapping_mul(0x9E37_79B9) >> 30) as usize
    }
    fn play(&mut self, mv: u64) {
        assert_eq!(
            (mv >> 32) as u32,
            self.at,
            "move played from the wrong node"
        );
        self.at = mv as u32;
    }
    fn undo(&mut self, mv: u64) {
        assert_eq!(mv as u32, self.at, "undo of a move that was not played");
        self.at = (mv >> 32) as u32;
    }
    fn estimate(&self) -> Numbers {
        self.graph.node(self.at).estimate.unwrap_or(Numbers::UNIT)
    }
    fn repetition_value(&self) -> Value {
        self.graph.node(self.at).repetition
    }
    fn no_moves_value(&self) -> Value {
        self.graph.no_moves
    }
    /// The node's index: a node is a position (its side to move included).
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        if RULE & NO_ENCODING != 0 {
            return None;
        }
        out[..4].copy_from_slice(&self.at.to_le_bytes());
        Some(4)
    }
}

/// Moves travel as themselves (`from << 32 | to`); a code naming no edge is refused where it
/// is replayed, against the moves the node generates.
impl<const RULE: u8> MoveCodec for GraphGame<'_, RULE> {
    fn encode_move(mv: u64) -> u64 {
        mv
    }
    fn decode_move(code: u64) -> Option<u64> {
        Some(code)
    }
}

/// Whether `attacker` forces a win in a position whose value for `mover` is `value`.
pub fn attacker_wins(value: Value, mover: Player, attacker: Player) -> bool {
    if mover == attacker {
        value == Value::Win
    } else {
        value == Value::Loss
    }
}
