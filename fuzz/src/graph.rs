//! A game graph read from fuzz input, played as a [`Game`], and its value by brute force.
//!
//! Every node has a side to move and either an outcome the game reports or a list of successor
//! nodes (possibly none, possibly repeated). Under [`Rule::Acyclic`] edges only go to higher
//! node numbers, so the graph is a DAG (a tree when every node has one parent); under the draw
//! and by-position rules edges go anywhere, cycles included. The oracle is the test-support
//! crate's (shared with proofnum's own tests), run on a copy of the graph: it enumerates paths,
//! and since the value of a node depends on the set of nodes above it only through
//! repetitions, it memoises on (node, set of nodes on the path), which keeps graphs of up to
//! [`MAX_CYCLIC_NODES`] nodes cheap.

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use proofnum::Numbers;
use proofnum::{Game, MoveList, Outcome, Player, RepetitionRule, Value};

use proofnum_test_support::graph::{self as oracle, Shape};

pub use proofnum_test_support::mix;

/// Most nodes of an acyclic graph.
pub const MAX_ACYCLIC_NODES: usize = 24;
/// Most nodes of a graph with cycles: the oracle's memo has up to n · 2^(n-1) entries.
pub const MAX_CYCLIC_NODES: usize = 10;
/// Most moves of one node.
pub const MAX_CHILDREN: usize = 6;

/// How repetitions are scored, as the solver's const parameter of [`GraphGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// No cycles; the game says so.
    Acyclic,
    /// A repetition is a draw.
    Draw,
    /// A repetition is scored by the repeated node's own value.
    ByPosition,
}

/// One position of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    /// The side to move (children may keep the turn).
    pub mover: Player,
    /// What the game reports without search; interior nodes are `Unknown`.
    pub outcome: Outcome,
    /// Successors, in move order (repeats allowed).
    pub children: Vec<u8>,
    /// The value for the side to move when this node repeats one on the path (by-position).
    pub repetition: Value,
    /// The game's heuristic estimate, if it offers one (any values: the solver clamps them).
    pub estimate: Option<Numbers>,
    /// The hash the game reports: distinct for distinct nodes, as the `Game` contract asks.
    pub hash: u64,
}

/// A game graph; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The repetition rule.
    pub rule: Rule,
    /// The positions.
    pub nodes: Vec<Node>,
    /// The value of an interior node without moves, for its side to move.
    pub no_moves: Value,
}

fn value(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(*u.choose(&[Value::Win, Value::Loss, Value::Draw])?)
}

impl Graph {
    /// A graph read from the input under `rule`.
    pub fn read(u: &mut Unstructured<'_>, rule: Rule) -> Result<Graph> {
        let max_nodes = match rule {
            Rule::Acyclic => MAX_ACYCLIC_NODES,
            _ => MAX_CYCLIC_NODES,
        };
        let n = u.int_in_range(1..=max_nodes)?;
        // Well mixed hashes, or the node numbers themselves (a badly distributed hash the
        // solver must mix itself); distinct either way.
        let salt = if u.ratio(1, 4)? {
            None
        } else {
            Some(u.arbitrary::<u64>()?)
        };
        let with_estimates = u.ratio(1, 4)?;
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let mover = if u.arbitrary::<bool>()? {
                Player::First
            } else {
                Player::Second
            };
            let kind = u.int_in_range(0..=9u8)?;
            let outcome = match kind {
                0 => Outcome::Win,
                1 => Outcome::Loss,
                2 => Outcome::Draw,
                _ => Outcome::Unknown,
            };
            let mut children = Vec::new();
            if outcome == Outcome::Unknown {
                let count = u.int_in_range(0..=MAX_CHILDREN)?;
                for _ in 0..count {
                    let child = match rule {
                        Rule::Acyclic if i + 1 < n => u.int_in_range(i + 1..=n - 1)?,
                        Rule::Acyclic => break,
                        _ => u.int_in_range(0..=n - 1)?,
                    };
                    children.push(child as u8);
                }
            }
            let estimate = if with_estimates {
                Some(Numbers::new(u.arbitrary()?, u.arbitrary()?))
            } else {
                None
            };
            nodes.push(Node {
                mover,
                outcome,
                children,
                repetition: value(u)?,
                estimate,
                hash: match salt {
                    Some(s) => mix(s.wrapping_add(i as u64)),
                    None => i as u64,
                },
            });
        }
        let no_moves = if u.ratio(3, 4)? {
            Value::Loss
        } else {
            Value::Draw
        };
        Ok(Graph {
            rule,
            nodes,
            no_moves,
        })
    }

    /// A child's value `v` (for the child's side to move) seen by the parent's side to move.
    pub fn for_parent(&self, parent: usize, child: usize, v: Value) -> Value {
        if self.nodes[parent].mover == self.nodes[child].mover {
            v
        } else {
            v.flipped()
        }
    }

    /// The root's value for its side to move, by brute force over paths. Under the draw rule
    /// (and without cycles) brute force must equal retrograde analysis (infinite play is a
    /// draw); a disagreement is a bug in the oracle.
    pub fn root_value(&self) -> Value {
        self.oracle().oracle_value(self.rule == Rule::ByPosition, "the fuzzed graph")
    }

    /// The value, for the root's side to move, of moving from the root to `child`.
    pub fn root_move_value(&self, child: usize) -> Value {
        let v = self
            .oracle()
            .child_value(child as u32, self.rule == Rule::ByPosition);
        self.for_parent(0, child, v)
    }

    /// The graph as the oracle's: the same nodes, the memo keyed on the path's node set only
    /// when cycles are allowed.
    fn oracle(&self) -> oracle::Graph {
        oracle::Graph {
            shape: match self.rule {
                Rule::Acyclic => Shape::Dag,
                Rule::Draw | Rule::ByPosition => Shape::Cyclic,
            },
            nodes: self
                .nodes
                .iter()
                .map(|n| oracle::Node {
                    mover: n.mover,
                    outcome: n.outcome,
                    children: n.children.iter().map(|&c| c as u32).collect(),
                    repetition: n.repetition,
                    estimate: n.estimate,
                    hash: n.hash,
                    bound: None,
                })
                .collect(),
            root: 0,
            no_moves: self.no_moves,
        }
    }

    /// Whether `moves` is a line of legal moves from the root (each `from << 8 | to`).
    pub fn is_line(&self, moves: &[u32]) -> bool {
        let mut at = 0usize;
        for &mv in moves {
            let (from, to) = ((mv >> 8) as usize, (mv & 0xFF) as usize);
            let node = &self.nodes[at];
            if from != at
                || node.outcome != Outcome::Unknown
                || !node.children.contains(&(to as u8))
            {
                return false;
            }
            at = to;
        }
        true
    }
}

/// [`GraphGame`]'s rule parameter for [`Rule::Acyclic`].
pub const ACYCLIC: u8 = 0;
/// [`GraphGame`]'s rule parameter for [`Rule::Draw`].
pub const DRAW: u8 = 1;
/// [`GraphGame`]'s rule parameter for [`Rule::ByPosition`].
pub const BY_POSITION: u8 = 2;

/// A graph played as a game; a move is `from << 8 | to`, so undo needs no history.
#[derive(Clone)]
pub struct GraphGame<'g, const RULE: u8> {
    /// The graph.
    pub graph: &'g Graph,
    /// The current node.
    pub at: usize,
}

impl<'g, const RULE: u8> GraphGame<'g, RULE> {
    /// The game at the root.
    pub fn new(graph: &'g Graph) -> Self {
        GraphGame { graph, at: 0 }
    }

    fn node(&self) -> &Node {
        &self.graph.nodes[self.at]
    }
}

impl<const RULE: u8> Game for GraphGame<'_, RULE> {
    type Move = u32;
    const REPETITION_RULE: RepetitionRule = match RULE {
        ACYCLIC => RepetitionRule::Acyclic,
        DRAW => RepetitionRule::Draw,
        _ => RepetitionRule::ByPosition,
    };

    fn side_to_move(&self) -> Player {
        self.node().mover
    }
    fn hash(&self) -> u64 {
        self.node().hash
    }
    fn outcome(&self) -> Outcome {
        self.node().outcome
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u32>) {
        if self.node().outcome == Outcome::Unknown {
            for &c in &self.node().children {
                moves.push((self.at as u32) << 8 | c as u32);
            }
        }
    }
    fn play(&mut self, mv: u32) {
        assert_eq!(
            (mv >> 8) as usize,
            self.at,
            "a move played from the wrong node"
        );
        self.at = (mv & 0xFF) as usize;
    }
    fn undo(&mut self, mv: u32) {
        assert_eq!(
            (mv & 0xFF) as usize,
            self.at,
            "an undo of a move not played"
        );
        self.at = (mv >> 8) as usize;
    }
    fn estimate(&self) -> Numbers {
        self.node().estimate.unwrap_or(Numbers::UNIT)
    }
    fn repetition_value(&self) -> Value {
        self.node().repetition
    }
    fn no_moves_value(&self) -> Value {
        self.graph.no_moves
    }
}
