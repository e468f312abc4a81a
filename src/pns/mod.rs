//! Best-first proof-number search (PNS, Allis 1994) over a node arena in caller memory, with
//! PN² as an option.
//!
//! The classic algorithm (Allis, van der Meulen and van den Herik, *Proof-number search*,
//! Artificial Intelligence 66, 1994): keep the whole search tree,
//! select the most-proving node by walking down from the current node, expand it, and update
//! its ancestors, stopping at the first whose numbers did not change; that node is where the
//! next selection starts (the current-node optimisation: its ancestors' numbers are unchanged,
//! so the path from the root would lead to it again).
//!
//! # Numbers
//! The (φ, δ) form of df-pn: a node's numbers are seen from its side to move, draws count
//! against the attacker ([`crate::dfpn`]'s framing), and a node stores them in its *parent's*
//! view (swapped when the move passes the turn, kept when the mover moves again), so selection
//! compares the stored φ of siblings directly and a node's numbers are `φ = min φ'(c)`,
//! `δ = Σ δ'(c)` over its children `c`. Leaves start from [`Game::estimate`] (df-pn+ style).
//!
//! # Memory
//! Every byte comes from the caller's buffer ([`Pns::required_bytes`], [`Pns::new`]): the node
//! arena (16 bytes a node plus the move type; the `arena` module has the layout), a path stack
//! of `max_depth + 1` levels, and a move buffer and child buffer of `max_moves` entries.
//! Children are evaluated into the child buffer first, so a node whose children decide it at
//! once (a winning move, or only losing ones) becomes a solved leaf without taking arena space,
//! and expansion stops at the first child that decides the node.
//!
//! A solved node's subtree leaves the tree at once (the node keeps its value as a leaf); the
//! space comes back at the next compaction, which runs when the arena is full. When a
//! compaction cannot win back room for the new children, or wins back less than
//! 1/[`MIN_RECLAIM_DIVISOR`] of the arena, the search stops with
//! [`Reason::MemoryLimit`] and the root's numbers.
//!
//! # Repetitions, transpositions and the table
//! The tree is a tree: transpositions are *not* merged into one node, so every node has one
//! path, and a child that repeats a position on that path is a leaf scored by the game's
//! [`RepetitionRule`]. Every node's value is then exactly the first-repetition value of its
//! path, and neither the overcounting of DAGs nor the graph-history interaction problem can
//! arise inside the tree.
//!
//! Transpositions share work through the [`TranspositionTable`] instead, under df-pn's keys
//! (see [`crate::dfpn`]), so the two engines can share one table. Solved nodes are stored
//! under the position key when they hold on every path and under the position-and-path key
//! otherwise; every node being expanded looks its position up, so a position solved anywhere
//! is solved everywhere. With [`PnsConfig::transposition_numbers`] each expanded node also
//! stores its numbers and each new child starts from the numbers its position has in the table
//! (used by default in games declared [`RepetitionRule::Acyclic`]:
//! [`TranspositionNumbers::Auto`]). Why the tree is not a DAG, and what these choices measured,
//! is in the guide's "How the solver works".
//!
//! # PN²
//! With [`PnsConfig::second_level_nodes`] set, every new first-level leaf is evaluated by a
//! second, bounded PNS in its own region of the arena (Allis 1994; Breuker, Uiterwijk and
//! van den Herik 2001): its (φ, δ) become the leaf's numbers and its tree is thrown away.
//! The second-level tree may grow to as many nodes as the first-level tree holds (the
//! classic bound), and to at most its region. The second level shares the path stack, so
//! repetitions across both levels are seen.

mod arena;

use core::mem::size_of;

use crate::dfpn::Job;
use crate::game::{Game, MoveList, Player, RepetitionRule};
use crate::keys::{Keying, NO_REP, PathFilter, framed, known_numbers, search_salt};
use crate::limits::{CLOCK_POLL_INTERVAL, Limits, Progress, Reason};
use crate::memory::{Carver, MemoryError, bytes_for};
use crate::number::{self, INFINITE, Numbers};
use crate::result::{SearchResult, Stats, Status};
use crate::table::entry::MAX_DISTANCE;
use crate::table::{Entry, TranspositionTable};
use crate::value::{ValueResult, solve_value_by};

use arena::{Arena, MAX_BLOCK, MAX_NODES, Node};

/// The most moves a position may have (child blocks record their length in 15 bits).
pub const MAX_MOVES: usize = MAX_BLOCK;

/// The deepest path (in plies, history included) a [`Pns`] can be built for: repetition depths
/// are recorded in 16 bits.
pub const MAX_PATH_DEPTH: usize = crate::dfpn::MAX_STACK_DEPTH;

/// A compaction must win back at least this fraction (1/64) of the arena, or the search stops
/// with [`Reason::MemoryLimit`]: each compaction reads the whole arena, so compacting a nearly
/// full arena again and again for a handful of nodes would cost more than it could gain.
pub const MIN_RECLAIM_DIVISOR: usize = 64;

/// Whether transpositions share unsolved numbers through the table (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TranspositionNumbers {
    /// On for games declared [`RepetitionRule::Acyclic`], whose numbers are shared by
    /// position, off for the others, whose numbers are kept per path and rarely meet again.
    #[default]
    Auto,
    /// Each expanded node stores its numbers, and every new leaf looks its position up and
    /// starts from the numbers found (solved results included): a probe per child.
    On,
    /// Only the node being expanded is looked up, for a solved result: a probe per expansion.
    Off,
}

/// Settings of a [`Pns`] searcher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PnsConfig {
    /// Nodes of the arena given to PN²'s second level; 0 (the default) runs plain PNS.
    pub second_level_nodes: usize,
    /// Share unsolved numbers between transpositions through the table, as df-pn does.
    /// [`TranspositionNumbers::Auto`] by default.
    pub transposition_numbers: TranspositionNumbers,
}

impl PnsConfig {
    /// Plain PNS, with the default sharing of transposition numbers.
    pub const PNS: PnsConfig = PnsConfig {
        second_level_nodes: 0,
        transposition_numbers: TranspositionNumbers::Auto,
    };

    /// PN² with a second-level region of `nodes` nodes.
    pub const fn pn2(nodes: usize) -> PnsConfig {
        PnsConfig {
            second_level_nodes: nodes,
            transposition_numbers: TranspositionNumbers::Auto,
        }
    }

    /// These settings with [`transposition_numbers`](PnsConfig::transposition_numbers) set to
    /// `sharing`.
    pub const fn with_transposition_numbers(self, sharing: TranspositionNumbers) -> PnsConfig {
        PnsConfig {
            transposition_numbers: sharing,
            ..self
        }
    }
}

/// Counters of the node arena for the last search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArenaStats {
    /// Nodes the first-level arena holds.
    pub capacity: usize,
    /// The most first-level nodes in use at once (solved subtrees waiting for a compaction
    /// included): the arena this search needed.
    pub peak_nodes: usize,
    /// Compactions run.
    pub compactions: u64,
    /// Nodes won back by compactions.
    pub reclaimed_nodes: u64,
    /// First-level expansions (the rest of [`Stats::mid_calls`] ran in PN²'s second level).
    pub first_level_expansions: u64,
    /// Second-level searches (PN² only).
    pub second_level_searches: u64,
    /// The most second-level nodes in use at once (PN² only).
    pub second_level_peak_nodes: usize,
}

/// Why an expansion did not complete.
enum Halt {
    /// The search must stop.
    Abort(Reason),
    /// A second-level search has used its node budget.
    Budget,
}

/// One level of the path from the search root's history down to the current node.
#[derive(Clone, Copy, Debug)]
struct Level<M> {
    /// The game's hash of the position.
    hash: u64,
    /// XOR of the path contributions of the positions above.
    path_key: u64,
    /// The node's index in its tree.
    node: u32,
    /// The node's index in its parent's child block.
    child: u32,
    /// The side to move here.
    mover: Player,
    /// The move that led here.
    mv: M,
}

/// A node's numbers from its children, and what a solved node records.
#[derive(Clone, Copy, Debug)]
struct Summary {
    /// In the node's own view.
    numbers: Numbers,
    /// The most-proving child, or for a solved node the child that proves the result.
    best: usize,
    distance: u16,
    rep: u16,
}

/// A best-first PNS searcher for games of type `G`, working in one caller-supplied buffer.
///
/// ```
/// use proofnum::{Game, Limits, MoveList, Outcome, Player, Pns, PnsConfig, Table, Value};
///
/// /// Take 1, 2 or 3 stones; whoever takes the last stone wins.
/// struct Nim { stones: u32, to_move: Player }
///
/// impl Game for Nim {
///     type Move = u8;
///     fn side_to_move(&self) -> Player { self.to_move }
///     fn hash(&self) -> u64 { (self.stones as u64) << 1 | self.to_move.index() as u64 }
///     fn outcome(&self) -> Outcome {
///         if self.stones == 0 { Outcome::Loss } else { Outcome::Unknown }
///     }
///     fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
///         (1..=self.stones.min(3) as u8).for_each(|take| moves.push(take));
///     }
///     fn play(&mut self, take: u8) { self.stones -= take as u32; self.to_move = self.to_move.opponent(); }
///     fn undo(&mut self, take: u8) { self.stones += take as u32; self.to_move = self.to_move.opponent(); }
/// }
///
/// // 10 000 nodes (17 bytes each for this game), lines of up to 64 plies, up to 3 moves.
/// let (nodes, max_depth, max_moves) = (10_000, 64, 3);
/// let mut memory = vec![0u8; Pns::<Nim>::required_bytes(nodes, max_depth, max_moves, PnsConfig::PNS)];
/// let mut pns = Pns::<Nim>::new(&mut memory, max_depth, max_moves, PnsConfig::PNS).unwrap();
/// assert_eq!(pns.node_capacity(), nodes);
/// let mut table_memory = vec![0u8; Table::required_bytes(1024)];
/// let mut table = Table::new(&mut table_memory).unwrap();
///
/// let mut game = Nim { stones: 21, to_move: Player::First };
/// let result = pns.solve_value(&mut game, &mut table, &mut Limits::default());
/// assert_eq!(result.value, Ok(Value::Win)); // take 1, leave a multiple of 4
/// assert_eq!(result.best_move, Some(1));
/// ```
pub struct Pns<'m, G: Game> {
    /// The first-level tree, and PN²'s second-level tree (empty for plain PNS).
    trees: [Arena<'m, G::Move>; 2],
    /// History, then the path of the current node (both levels).
    path: &'m mut [Level<G::Move>],
    /// Generated moves of the node being expanded, per level.
    scratch_moves: [&'m mut [G::Move]; 2],
    /// Evaluated children of the node being expanded, per level.
    scratch_nodes: [&'m mut [Node]; 2],
    config: PnsConfig,
    /// A counting filter over the hashes on the path (see [`crate::dfpn`]).
    filter: PathFilter,
    attacker: Player,
    /// The keys' salt for the attacker and table of the current search.
    salt: u64,
    /// The root's thresholds: the search stops once the root's numbers reach one.
    threshold: Numbers,
    /// The path index of the first-level root.
    base: usize,
    stats: Stats,
    arena_stats: ArenaStats,
    abort: Option<Reason>,
    start_us: Option<u64>,
    /// The move that proves the root's result, once solved.
    root_best: Option<G::Move>,
    /// A repetition has been met in this search. Until then the position-and-path keys of the
    /// draw rule can hold only unsolved numbers (used with
    /// shared transposition numbers only) and results of earlier searches, so the
    /// default policy does not look them up: one probe per expansion instead of two.
    met_repetition: bool,
    /// In the second search of a full value: the first search's key salt (see
    /// `Keying::opponent_win`).
    opponent_salt: Option<u64>,
}

impl<'m, G: Game> Pns<'m, G> {
    /// Bytes one first-level node takes: the 16-byte node and its move.
    pub const fn bytes_per_node() -> usize {
        size_of::<Node>() + size_of::<G::Move>()
    }

    /// Bytes of memory for a searcher with `nodes` first-level nodes, lines of up to
    /// `max_depth` plies (history included), positions of up to `max_moves` moves, and the
    /// second-level region of `config`; alignment slack included. It grows by exactly
    /// [`bytes_per_node`](Pns::bytes_per_node) a node.
    pub const fn required_bytes(
        nodes: usize,
        max_depth: usize,
        max_moves: usize,
        config: PnsConfig,
    ) -> usize {
        let levels = if config.second_level_nodes > 0 { 2 } else { 1 };
        let scratch = bytes_for::<G::Move>(max_moves).saturating_add(bytes_for::<Node>(max_moves));
        bytes_for::<Level<G::Move>>(max_depth.saturating_add(1))
            .saturating_add(scratch.saturating_mul(levels))
            .saturating_add(bytes_for::<Node>(config.second_level_nodes))
            .saturating_add(bytes_for::<G::Move>(config.second_level_nodes))
            .saturating_add(bytes_for::<Node>(nodes))
            .saturating_add(bytes_for::<G::Move>(nodes))
    }

    /// Carves a searcher out of `memory`: the path stack, buffers and PN²'s region first, and
    /// as many first-level nodes as the rest holds (see [`node_capacity`](Pns::node_capacity)).
    pub fn new(
        memory: &'m mut [u8],
        max_depth: usize,
        max_moves: usize,
        config: PnsConfig,
    ) -> Result<Pns<'m, G>, MemoryError> {
        if max_moves == 0
            || max_moves > MAX_MOVES
            || max_depth > MAX_PATH_DEPTH
            || config.second_level_nodes > MAX_NODES
        {
            return Err(MemoryError::Unsupported);
        }
        let fixed = Self::required_bytes(0, max_depth, max_moves, config);
        let available = memory.len();
        let nodes = (available.saturating_sub(fixed) / Self::bytes_per_node()).min(MAX_NODES);
        if nodes == 0 {
            return Err(MemoryError::TooSmall {
                needed: fixed.saturating_add(Self::bytes_per_node()),
                available,
            });
        }
        let second = config.second_level_nodes;
        let scratch = if second > 0 { max_moves } else { 0 };
        let level = Level {
            hash: 0,
            path_key: 0,
            node: 0,
            child: 0,
            mover: Player::First,
            mv: G::Move::default(),
        };
        let mut carver = Carver::new(memory);
        let path = carver.take_filled(max_depth + 1, level);
        let moves0 = carver.take_filled(max_moves, G::Move::default());
        let kids0 = carver.take_filled(max_moves, Node::EMPTY);
        let moves1 = carver.take_filled(scratch, G::Move::default());
        let kids1 = carver.take_filled(scratch, Node::EMPTY);
        let nodes1 = carver.take_filled(second, Node::EMPTY);
        let tree_moves1 = carver.take_filled(second, G::Move::default());
        let nodes0 = carver.take_filled(nodes, Node::EMPTY);
        let tree_moves0 = carver.take_filled(nodes, G::Move::default());
        carver.finish()?;
        let (
            Some(path),
            Some(moves0),
            Some(kids0),
            Some(moves1),
            Some(kids1),
            Some(nodes1),
            Some(tree_moves1),
            Some(nodes0),
            Some(tree_moves0),
        ) = (
            path,
            moves0,
            kids0,
            moves1,
            kids1,
            nodes1,
            tree_moves1,
            nodes0,
            tree_moves0,
        )
        else {
            return Err(MemoryError::Unsupported);
        };
        Ok(Pns {
            trees: [
                Arena::new(nodes0, tree_moves0),
                Arena::new(nodes1, tree_moves1),
            ],
            path,
            scratch_moves: [moves0, moves1],
            scratch_nodes: [kids0, kids1],
            config,
            filter: PathFilter::EMPTY,
            attacker: Player::First,
            salt: 0,
            threshold: Numbers::new(INFINITE, INFINITE),
            base: 0,
            stats: Stats::default(),
            arena_stats: ArenaStats {
                capacity: nodes,
                ..ArenaStats::default()
            },
            abort: None,
            start_us: None,
            root_best: None,
            met_repetition: false,
            opponent_salt: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> PnsConfig {
        self.config
    }

    /// Nodes the first-level tree can hold.
    pub fn node_capacity(&self) -> usize {
        self.trees[0].capacity()
    }

    /// The deepest line (history included) the path stack can hold.
    pub fn max_depth(&self) -> usize {
        self.path.len() - 1
    }

    /// The largest number of moves a position may have.
    pub fn max_moves(&self) -> usize {
        self.scratch_moves[0].len()
    }

    /// Counters of the node arena for the last search.
    pub fn arena_stats(&self) -> ArenaStats {
        self.arena_stats
    }

    /// Does `attacker` have a forced win from `game`'s position? The position is restored
    /// before returning, whatever the result.
    pub fn solve<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        self.search(game, &Job::solve(attacker), table, limits)
    }

    /// The position's value for its side to move, by two searches sharing `table` and the
    /// budgets of `limits` (as [`crate::Dfpn::solve_value`]).
    pub fn solve_value<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        let me = game.side_to_move();
        let read = crate::value::reads_opponent_pays(table);
        solve_value_by(game, limits, |game, attacker, limits| {
            if attacker == me || !read {
                self.solve(game, attacker, table, limits)
            } else {
                self.solve_after_opponent(game, attacker, table, limits)
            }
        })
    }

    /// [`solve`](Pns::solve) for `attacker` over a table that holds the opponent's search of
    /// the same position, reading its proofs as disproofs (as
    /// [`crate::Dfpn::solve_after_opponent`]).
    pub fn solve_after_opponent<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        self.opponent_salt = Some(search_salt(attacker.opponent(), table.key_salt()));
        let result = self.solve(game, attacker, table, limits);
        self.opponent_salt = None;
        result
    }

    /// Runs one PNS from `game`'s position as `job` describes: its attacker, the history before
    /// the root (repetitions of it count), and root thresholds at which to stop
    /// ([`Reason::Thresholds`]; infinite to solve). The position is restored before returning,
    /// whatever the result.
    pub fn search<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        job: &Job<'_>,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        let table_before = table.stats();
        self.stats = Stats::default();
        self.arena_stats = ArenaStats {
            capacity: self.trees[0].capacity(),
            ..ArenaStats::default()
        };
        // A root settled without a tree (a known outcome or bound) must not report the last
        // search's tree.
        self.trees[0].clear();
        self.abort = None;
        self.root_best = None;
        self.met_repetition = false;
        self.attacker = job.attacker;
        self.salt = search_salt(job.attacker, table.key_salt());
        self.threshold = job.threshold;
        self.start_us = limits.now_us();
        self.filter = PathFilter::EMPTY;
        self.base = job.history.len();

        let root = self.run_root(game, job, table, limits);
        let mover = game.side_to_move();
        let (status, numbers, distance, rep) = match root {
            Ok(n) => {
                let numbers = Numbers::new(n.phi, n.delta);
                let status = if !numbers.is_solved() {
                    Status::Unknown(self.abort.unwrap_or(Reason::Thresholds))
                } else if numbers.is_win() == (mover == job.attacker) {
                    Status::Proven
                } else {
                    Status::Disproven
                };
                if numbers.is_solved() {
                    (status, numbers, n.distance(), n.rep())
                } else {
                    (status, numbers, 0, NO_REP)
                }
            }
            Err(reason) => (Status::Unknown(reason), Numbers::UNIT, 0, NO_REP),
        };
        let best_move = match status {
            Status::Proven | Status::Disproven => self.root_best,
            Status::Unknown(_) if root.is_ok() => self.searching_move(),
            Status::Unknown(_) => None,
        };
        self.arena_stats.peak_nodes = self.trees[0].peak();
        let mut stats = self.stats;
        stats.table = table.stats().since(&table_before);
        stats.elapsed_us = match (self.start_us, limits.now_us()) {
            (Some(start), Some(now)) => Some(now.saturating_sub(start)),
            _ => None,
        };
        SearchResult {
            status,
            best_move,
            numbers,
            distance,
            path_dependent: rep != NO_REP,
            stats,
        }
    }

    /// The root's most-proving move in an unfinished search.
    fn searching_move(&self) -> Option<G::Move> {
        let tree = &self.trees[0];
        if tree.used() == 0 || !tree.node(0).has_children() {
            return None;
        }
        let first = tree.node(0).link as usize;
        Some(tree.mv(first + most_proving(tree.children(0))))
    }

    /// Sets up history and root, then grows the tree. Returns the root node (own view), or
    /// why nothing could be searched.
    fn run_root<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        job: &Job<'_>,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> Result<Node, Reason> {
        let base = self.base;
        if base >= self.path.len() {
            return Err(Reason::DepthLimit);
        }
        let mut path_key = 0;
        for (i, &hash) in job.history.iter().enumerate() {
            self.path[i].hash = hash;
            self.path[i].path_key = path_key;
            path_key ^= self.contribution(hash);
            self.filter.add(hash);
        }
        let hash = game.hash();
        let mover = game.side_to_move();
        let outcome = game.outcome();
        if game.has_failed() {
            return Err(Reason::GameError);
        }
        // A root that repeats the history, or whose result is known, needs no search.
        if let Some(depth) = base.checked_sub(1).and_then(|top| self.on_path(hash, top)) {
            self.stats.repetitions += 1;
            self.met_repetition = true;
            let n = self.repetition_numbers(game, mover);
            return Ok(Node::leaf(n.phi, n.delta, 0, depth as u16));
        }
        if let Some(n) = known_numbers(outcome, mover, self.attacker) {
            return Ok(Node::leaf(n.phi, n.delta, 0, NO_REP));
        }
        let estimate = game.estimate();
        if game.has_failed() {
            return Err(Reason::GameError);
        }
        let e = Numbers::unsolved_estimate(estimate.phi, estimate.delta);
        self.path[base] = Level {
            hash,
            path_key,
            node: 0,
            child: 0,
            mover,
            mv: G::Move::default(),
        };
        self.filter.add(hash);
        self.trees[0].reset(Node::leaf(e.phi, e.delta, 0, NO_REP));
        self.grow(game, table, limits, 0, base, usize::MAX);
        Ok(*self.trees[0].node(0))
    }

    /// The PNS loop on tree `t`, whose root is at path level `b` (and where the position is on
    /// entry and on return): select, expand, update, until the root is solved, a limit is
    /// reached, or (second level) the tree has used `budget` nodes.
    fn grow<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
        t: usize,
        b: usize,
        budget: usize,
    ) {
        let mut cur = b;
        while self.abort.is_none() {
            let root = *self.trees[t].node(0);
            if root.is_solved() {
                break;
            }
            if let Some(reason) =
                limits.exceeded(self.stats.nodes, self.stats.mid_calls, self.start_us)
            {
                self.abort = Some(reason);
                break;
            }
            if t == 0 {
                let numbers = Numbers::new(root.phi, root.delta);
                if numbers.reaches(self.threshold) {
                    self.abort = Some(Reason::Thresholds);
                    break;
                }
                if self.stats.mid_calls % CLOCK_POLL_INTERVAL == 0 {
                    let stats = self.stats;
                    limits.report(
                        |elapsed_us| Progress {
                            mid_calls: stats.mid_calls,
                            nodes: stats.nodes,
                            max_depth: stats.max_depth,
                            root: numbers,
                            elapsed_us,
                        },
                        self.start_us,
                    );
                }
            }
            if let Err(reason) = self.select(game, table, t, &mut cur) {
                self.abort = Some(reason);
                break;
            }
            let old = *self.trees[t].node(self.path[cur].node as usize);
            match self.expand(game, table, limits, t, b, cur, budget) {
                Ok(()) => cur = self.update(game, table, t, b, cur, old),
                Err(Halt::Budget) => break,
                Err(Halt::Abort(reason)) => {
                    self.abort = Some(reason);
                    break;
                }
            }
        }
        // Back to the tree's root, whatever happened.
        while cur > b {
            self.leave(game, cur);
            cur -= 1;
        }
    }

    /// Walks from level `cur` down to the most-proving leaf, playing the moves.
    fn select<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &T,
        t: usize,
        cur: &mut usize,
    ) -> Result<(), Reason> {
        loop {
            let d = *cur;
            let at = self.path[d].node as usize;
            let node = *self.trees[t].node(at);
            if !node.has_children() {
                return Ok(());
            }
            if d + 1 >= self.path.len() {
                return Err(Reason::DepthLimit);
            }
            let first = node.link as usize;
            // Load the block's first move before scanning its nodes, so the two cache misses
            // (nodes and moves live in separate arrays) overlap; the chosen move is usually on
            // the same line.
            let first_move = self.trees[t].mv(first);
            let best = most_proving(self.trees[t].children(at));
            let index = first + best;
            let mv = if best == 0 {
                first_move
            } else {
                self.trees[t].mv(index)
            };
            game.play(mv);
            let hash = game.hash();
            let parent = self.path[d];
            let path_key = parent.path_key ^ self.contribution(parent.hash);
            if !self.trees[t].node(index).has_children() {
                // The leaf to expand: start loading its table bucket, read after its children
                // have been evaluated.
                table.prefetch(self.first_key(hash, path_key));
            }
            self.path[d + 1] = Level {
                hash,
                path_key,
                node: index as u32,
                child: best as u32,
                mover: game.side_to_move(),
                mv,
            };
            self.filter.add(hash);
            *cur = d + 1;
            self.stats.max_depth = self.stats.max_depth.max((d + 1 - self.base) as u32);
        }
    }

    /// Takes back the move into level `d`.
    #[inline]
    fn leave(&mut self, game: &mut G, d: usize) {
        let level = self.path[d];
        game.undo(level.mv);
        self.filter.remove(level.hash);
    }

    /// Expands the leaf at level `d` of tree `t` (rooted at level `b`): generates its moves,
    /// evaluates the children until one decides the node, and either settles the node or gives
    /// it its child block.
    #[allow(clippy::too_many_arguments)]
    fn expand<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
        t: usize,
        b: usize,
        d: usize,
        budget: usize,
    ) -> Result<(), Halt> {
        self.stats.mid_calls += 1;
        if t == 0 {
            self.arena_stats.first_level_expansions += 1;
        }
        let level = self.path[d];
        if d > b && self.shares_numbers() {
            // The leaf's first numbers may have come from a table entry, and a false match (an
            // entry of another position passing the check) can make a finished game look
            // unsolved: the game's own outcome comes before its moves.
            let outcome = game.outcome();
            if game.has_failed() {
                return Err(Halt::Abort(Reason::GameError));
            }
            if let Some(numbers) = known_numbers(outcome, level.mover, self.attacker) {
                self.settle(game, table, t, b, d, numbers, 0, NO_REP, None, None);
                return Ok(());
            }
        }
        let n = {
            let mut list = MoveList::new(self.scratch_moves[t]);
            game.generate_moves(&mut list);
            if game.has_failed() {
                return Err(Halt::Abort(Reason::GameError));
            }
            if list.overflowed() {
                return Err(Halt::Abort(Reason::TooManyMoves));
            }
            list.len()
        };
        if n == 0 {
            let value = game.no_moves_value();
            if game.has_failed() {
                return Err(Halt::Abort(Reason::GameError));
            }
            let numbers = framed(value, level.mover, self.attacker);
            self.settle(game, table, t, b, d, numbers, 0, NO_REP, None, None);
            return Ok(());
        }
        let child_path_key = level.path_key ^ self.contribution(level.hash);
        if self.shares_numbers() && table.prefetch_pays() {
            // Every child will be looked up: start loading all their buckets first, so the
            // misses overlap instead of following one another (a third less time on the
            // Connect Four benchmark).
            for i in 0..n {
                let mv = self.scratch_moves[t][i];
                game.play(mv);
                table.prefetch(self.first_key(game.hash(), child_path_key));
                game.undo(mv);
            }
        }
        let mut kept = 0;
        for i in 0..n {
            let mv = self.scratch_moves[t][i];
            game.play(mv);
            let child = self.evaluate_child(game, table, limits, t, d, i, child_path_key, mv);
            game.undo(mv);
            self.stats.nodes += 1;
            if game.has_failed() {
                return Err(Halt::Abort(Reason::GameError));
            }
            if let Some(reason) = self.abort {
                return Err(Halt::Abort(reason));
            }
            self.scratch_nodes[t][i] = child;
            kept = i + 1;
            if child.phi == 0 && child.rep() == NO_REP {
                break; // a win on every path: the other moves cannot matter
            }
        }
        if d > b {
            // The position may have been solved elsewhere in the tree since this leaf was made.
            // Looked up only now, so the bucket's load (started by `select`) overlapped with
            // evaluating the children.
            let solved = match self.probe_solved(table, level.hash, level.path_key) {
                None => self
                    .dominated(table, game)
                    .map(|e| (e.numbers, e.distance, NO_REP)),
                found => found,
            };
            if let Some((numbers, distance, rep)) = solved {
                let n = self.parent_view(numbers, b, d);
                let i = level.node as usize;
                self.trees[t].settle(i, n.phi, n.delta, distance, rep);
                return Ok(());
            }
        }
        let s = summarize(&self.scratch_nodes[t][..kept]);
        if s.numbers.is_solved() {
            let mv = self.scratch_moves[t][s.best];
            self.settle(
                game,
                table,
                t,
                b,
                d,
                s.numbers,
                s.distance,
                s.rep,
                Some(s.best),
                Some(mv),
            );
            return Ok(());
        }
        let limit = if t == 0 { usize::MAX } else { budget };
        if !self.attach(t, d, kept, limit) {
            if t == 1 {
                return Err(Halt::Budget);
            }
            let won = self.compact(b, d);
            if won < self.trees[0].capacity() / MIN_RECLAIM_DIVISOR
                || !self.attach(t, d, kept, limit)
            {
                return Err(Halt::Abort(Reason::MemoryLimit));
            }
        }
        Ok(())
    }

    /// Gives the leaf at level `d` the first `kept` evaluated children as its block.
    fn attach(&mut self, t: usize, d: usize, kept: usize, limit: usize) -> bool {
        let at = self.path[d].node as usize;
        self.trees[t].attach_children(
            at,
            &self.scratch_nodes[t][..kept],
            &self.scratch_moves[t][..kept],
            limit,
        )
    }

    /// Compacts the first-level tree, re-derives the node indices on the path down to level
    /// `d` from the root at level `b`, and returns how many nodes came back.
    fn compact(&mut self, b: usize, d: usize) -> usize {
        let tree = &mut self.trees[0];
        let won = tree.compact();
        self.arena_stats.compactions += 1;
        self.arena_stats.reclaimed_nodes += won as u64;
        self.path[b].node = 0;
        for i in b + 1..=d {
            let parent = tree.node(self.path[i - 1].node as usize).link;
            self.path[i].node = parent + self.path[i].child;
        }
        won
    }

    /// The first numbers of the child `game` is now in, in the parent's view (the parent is at
    /// level `d` of tree `t`; the child is its `index`-th move).
    #[allow(clippy::too_many_arguments)]
    fn evaluate_child<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
        t: usize,
        d: usize,
        index: usize,
        path_key: u64,
        mv: G::Move,
    ) -> Node {
        let hash = game.hash();
        let mover = game.side_to_move();
        let (own, distance, rep) = if let Some(depth) = self.on_path(hash, d) {
            self.stats.repetitions += 1;
            self.met_repetition = true;
            (self.repetition_numbers(game, mover), 0, depth as u16)
        } else if let Some(found) = self.probe_child(table, hash, path_key) {
            // A position the table knows was searched, so it is not a finished game: the
            // entry makes the game's outcome check unnecessary (as in df-pn).
            found
        } else if let Some(e) = self.opponent_win(table, hash, mover) {
            // Won by the other player in the first search of a full value (as in df-pn).
            (e.numbers, e.distance, NO_REP)
        } else if let Some(e) = self.dominated(table, game) {
            (e.numbers, e.distance, NO_REP)
        } else if let Some(numbers) = known_numbers(game.outcome(), mover, self.attacker) {
            (numbers, 0, NO_REP)
        } else if t == 0
            && self.trees[1].capacity() > 0
            && d + 1 < self.path.len()
            && !game.has_failed()
        {
            let level = Level {
                hash,
                path_key,
                node: 0,
                child: index as u32,
                mover,
                mv,
            };
            self.second_level(game, table, limits, d + 1, level)
        } else {
            let e = game.estimate();
            (Numbers::unsolved_estimate(e.phi, e.delta), 0, NO_REP)
        };
        let n = if mover != self.path[d].mover {
            own.swapped()
        } else {
            own
        };
        Node::leaf(n.phi, n.delta, distance, rep)
    }

    /// PN²: a bounded PNS from the position `game` is in, at path level `d` described by
    /// `level`. Returns its root's numbers (own view), distance and repetition depth.
    fn second_level<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
        d: usize,
        level: Level<G::Move>,
    ) -> (Numbers, u16, u16) {
        self.path[d] = level;
        self.filter.add(level.hash);
        let e = game.estimate();
        let e = Numbers::unsolved_estimate(e.phi, e.delta);
        self.trees[1].reset(Node::leaf(e.phi, e.delta, 0, NO_REP));
        self.arena_stats.second_level_searches += 1;
        // The classic bound: the second-level tree may grow as large as the first-level one.
        let budget = self.trees[0].used().max(1);
        self.grow(game, table, limits, 1, d, budget);
        self.filter.remove(level.hash);
        let tree = &self.trees[1];
        self.arena_stats.second_level_peak_nodes =
            self.arena_stats.second_level_peak_nodes.max(tree.peak());
        let root = *tree.node(0);
        if root.is_solved() {
            (
                Numbers::new(root.phi, root.delta),
                root.distance(),
                root.rep(),
            )
        } else {
            (Numbers::new(root.phi, root.delta), 0, NO_REP)
        }
    }

    /// Recomputes the nodes from level `d` upwards after an expansion there, taking back the
    /// moves of the levels whose numbers changed. Returns the level of the first node whose
    /// numbers did not change (or the root's), where the next selection starts. `old` is the
    /// expanded node as it was before.
    fn update<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        t: usize,
        b: usize,
        mut d: usize,
        old: Node,
    ) -> usize {
        let expanded = d;
        let mut old = (old.phi, old.delta);
        loop {
            let at = self.path[d].node as usize;
            if self.trees[t].node(at).has_children() {
                let s = summarize(self.trees[t].children(at));
                if s.numbers.is_solved() {
                    let first = self.trees[t].node(at).link as usize;
                    let mv = self.trees[t].mv(first + s.best);
                    self.settle(
                        game,
                        table,
                        t,
                        b,
                        d,
                        s.numbers,
                        s.distance,
                        s.rep,
                        Some(s.best),
                        Some(mv),
                    );
                } else {
                    let n = self.parent_view(s.numbers, b, d);
                    let node = self.trees[t].node_mut(at);
                    node.phi = n.phi;
                    node.delta = n.delta;
                    if d == expanded && self.shares_numbers() {
                        // Keyed as df-pn keys unsolved numbers, so the two can share a table.
                        let level = self.path[d];
                        let best = Some(s.best.min(u16::MAX as usize) as u16);
                        let entry = Entry::new(s.numbers, best, 0, 1);
                        table.store(self.store_key(level.hash, level.path_key, false), &entry);
                    }
                }
            }
            let node = self.trees[t].node(at);
            if d == b || (node.phi, node.delta) == old {
                return d;
            }
            self.leave(game, d);
            d -= 1;
            let parent = self.trees[t].node(self.path[d].node as usize);
            old = (parent.phi, parent.delta);
        }
    }

    /// Makes the node at level `d` a solved leaf (its subtree leaves the tree) and stores the
    /// result in the table: under the position's key when it holds on every path, under the
    /// position-and-path key when it relies on a repetition above the node.
    #[allow(clippy::too_many_arguments)]
    fn settle<T: TranspositionTable>(
        &mut self,
        game: &G,
        table: &mut T,
        t: usize,
        b: usize,
        d: usize,
        numbers: Numbers,
        distance: u16,
        rep: u16,
        best: Option<usize>,
        best_move: Option<G::Move>,
    ) {
        // A repetition of this node itself or of a position below it is part of this subtree's
        // own cycle and holds on any path; only one above makes the result conditional.
        let rep = if rep != NO_REP && rep as usize >= d {
            NO_REP
        } else {
            rep
        };
        let distance = distance.min(MAX_DISTANCE);
        let level = self.path[d];
        let n = self.parent_view(numbers, b, d);
        self.trees[t].settle(level.node as usize, n.phi, n.delta, distance, rep);
        let best_index = best.map(|i| i.min(u16::MAX as usize) as u16);
        // PNS does not record the work below a node; every solved entry counts as one unit.
        let entry = Entry::new(numbers, best_index, distance, 1);
        table.store(
            self.store_key(level.hash, level.path_key, rep == NO_REP),
            &entry,
        );
        if rep == NO_REP && game.dominance() {
            self.remember_dominant(table, game, &entry, None);
        }
        if t == 0 && d == b {
            self.root_best = best_move;
        }
    }

    /// What the table knows about a new child: only with
    /// [`PnsConfig::transposition_numbers`], where a solved result is taken as it is and
    /// unsolved numbers become the child's first numbers.
    fn probe_child<T: TranspositionTable>(
        &self,
        table: &mut T,
        hash: u64,
        path_key: u64,
    ) -> Option<(Numbers, u16, u16)> {
        if !self.shares_numbers() {
            return None;
        }
        let (e, conditional) = self.lookup(table, hash, path_key, self.probes_path())?;
        Some(if e.numbers.is_solved() {
            (e.numbers, e.distance, if conditional { 0 } else { NO_REP })
        } else {
            let n = Numbers::unsolved_estimate(e.numbers.phi, e.numbers.delta);
            (n, 0, NO_REP)
        })
    }

    /// A solved result in the table for this position on this path: (numbers in its own view,
    /// distance, repetition depth). A result that holds for this set of ancestors only relies
    /// on a repetition somewhere above: assume the shallowest depth.
    fn probe_solved<T: TranspositionTable>(
        &self,
        table: &mut T,
        hash: u64,
        path_key: u64,
    ) -> Option<(Numbers, u16, u16)> {
        let (e, conditional) = self.lookup(table, hash, path_key, self.probes_path())?;
        e.numbers.is_solved().then_some((
            e.numbers,
            e.distance,
            if conditional { 0 } else { NO_REP },
        ))
    }

    /// Whether this search shares unsolved numbers through the table.
    #[inline]
    fn shares_numbers(&self) -> bool {
        match self.config.transposition_numbers {
            TranspositionNumbers::On => true,
            TranspositionNumbers::Off => false,
            TranspositionNumbers::Auto => G::REPETITION_RULE == RepetitionRule::Acyclic,
        }
    }

    /// Whether a draw-rule lookup goes on to the path-keyed probe after a position-keyed miss:
    /// only once a repetition was met, or when unsolved numbers are shared (before either,
    /// nothing path-keyed can be in the table for this search).
    #[inline]
    fn probes_path(&self) -> bool {
        self.met_repetition || self.shares_numbers()
    }

    /// Numbers of the node at level `d` as stored: in its parent's view (the tree root, at
    /// level `b`, in its own).
    #[inline]
    fn parent_view(&self, own: Numbers, b: usize, d: usize) -> Numbers {
        if d > b && self.path[d].mover != self.path[d - 1].mover {
            own.swapped()
        } else {
            own
        }
    }

    /// The path depth of a position with this hash among levels `0..=top`, if any.
    #[inline]
    fn on_path(&self, hash: u64, top: usize) -> Option<usize> {
        if G::REPETITION_RULE == RepetitionRule::Acyclic || !self.filter.may_contain(hash) {
            return None;
        }
        self.path[..=top].iter().rposition(|l| l.hash == hash)
    }
}

/// The child with the smallest φ (in the parent's view): the first one on ties.
#[inline]
fn most_proving(kids: &[Node]) -> usize {
    let mut best = 0;
    let mut phi = INFINITE;
    for (i, c) in kids.iter().enumerate() {
        if c.phi < phi {
            phi = c.phi;
            best = i;
        }
    }
    best
}

/// A node's numbers from its children (`φ = min φ'`, `δ = Σ δ'`), and for a solved node the
/// child that proves it, its distance and the repetition depth it relies on: for a win, the
/// winning child that holds on the most paths, then the shortest; for a loss, the longest
/// resistance, relying on every child's repetitions.
fn summarize(kids: &[Node]) -> Summary {
    let mut phi = INFINITE;
    let mut delta = 0;
    let mut best = 0;
    for (i, c) in kids.iter().enumerate() {
        if c.phi < phi {
            phi = c.phi;
            best = i;
        }
        delta = number::add(delta, c.delta);
    }
    let numbers = Numbers::new(phi, delta);
    let (best, distance, rep) = if numbers.is_win() {
        let (i, c) = kids
            .iter()
            .enumerate()
            .filter(|(_, c)| c.phi == 0)
            .min_by_key(|(_, c)| (core::cmp::Reverse(c.rep()), c.distance()))
            .expect("a won node has a winning child");
        (i, c.distance().saturating_add(1), c.rep())
    } else if numbers.is_loss() {
        let (i, c) = kids
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.distance())
            .expect("a lost node has children");
        let rep = kids.iter().map(|c| c.rep()).min().unwrap_or(NO_REP);
        (i, c.distance().saturating_add(1), rep)
    } else {
        (best, 0, NO_REP)
    };
    Summary {
        numbers,
        best,
        distance,
        rep,
    }
}

impl<G: Game> Keying<G> for Pns<'_, G> {
    #[inline]
    fn attacker(&self) -> Player {
        self.attacker
    }

    #[inline]
    fn salt(&self) -> u64 {
        self.salt
    }

    #[inline]
    fn opponent_salt(&self) -> Option<u64> {
        self.opponent_salt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::Dfpn;
    use std::vec;

    /// A one-position game under any repetition rule, to compare keys.
    struct Keyed<const RULE: u8>;

    impl<const RULE: u8> Game for Keyed<RULE> {
        type Move = u8;
        const REPETITION_RULE: RepetitionRule = match RULE {
            0 => RepetitionRule::Acyclic,
            1 => RepetitionRule::Draw,
            _ => RepetitionRule::ByPosition,
        };
        fn side_to_move(&self) -> Player {
            Player::First
        }
        fn hash(&self) -> u64 {
            0
        }
        fn outcome(&self) -> crate::game::Outcome {
            crate::game::Outcome::Loss
        }
        fn generate_moves(&self, _: &mut MoveList<'_, u8>) {}
        fn play(&mut self, _: u8) {}
        fn undo(&mut self, _: u8) {}
    }

    fn same_keys<const RULE: u8>() {
        let mut a = vec![0u8; Dfpn::<Keyed<RULE>>::stack_bytes(4, 2)];
        let dfpn = Dfpn::<Keyed<RULE>>::new(&mut a, 4, 2, Default::default()).unwrap();
        let mut b = vec![0u8; Pns::<Keyed<RULE>>::required_bytes(4, 4, 2, PnsConfig::PNS)];
        let pns = Pns::<Keyed<RULE>>::new(&mut b, 4, 2, PnsConfig::PNS).unwrap();
        for (hash, path) in [(0u64, 0u64), (1, 2), (0xDEAD_BEEF, 0x1234_5678_9ABC)] {
            assert_eq!(pns.contribution(hash), dfpn.contribution(hash));
            assert_eq!(pns.position_key(hash), dfpn.position_key(hash));
            assert_eq!(pns.path_key(hash, path), dfpn.path_key(hash, path));
        }
    }

    #[test]
    fn keys_are_df_pns_so_the_engines_share_tables() {
        same_keys::<0>();
        same_keys::<1>();
        same_keys::<2>();
    }
}
