//! Best-first PNS (and PN²) against independent oracles on thousands of random games.
//!
//! Every search runs twice: once in a roomy arena, where it must be solved and where it shows
//! its peak tree size `P`, and once in an arena of `P/2 ..= P` nodes (fresh table both times,
//! so the searches are identical until the small arena fills). Below `P` the small arena must
//! reclaim solved subtrees to go on; its answer must be the right one or Unknown(MemoryLimit),
//! and at `P` it must be solved. Answers are checked against brute-force minimax over paths
//! (and, for the draw rule, retrograde analysis); solve_value is checked too.
//!
//! Besides the shared random games of the test-support crate (most of which PNS solves with a
//! handful of nodes), "bushy" games — uniform branching, terminal positions only near the bottom — need
//! trees of hundreds to thousands of nodes, so reclamation runs many times per search.
//!
//! The seed is fresh each run and printed on failure (`PROOFNUM_SEED=<seed>` reproduces it).

mod common;

use std::rc::Rc;

use common::oracle::{Case, OnGraph};
use common::{ACYCLIC, BY_POSITION, DRAW, Graph, GraphGame, Node, Rng, Savings, Shape, TicTacToe};
use proofnum::Table;
use proofnum::TranspositionNumbers;
use proofnum::{
    Dfpn, Game, Limits, MoveList, Numbers, Outcome, Player, Pns, PnsConfig, Reason, RepetitionRule,
    Status, Value, Verdict,
};

/// The roomy arena: every search must be solved in it.
const ROOMY: usize = 1 << 16;
/// Table sizes in buckets: one bucket (almost no transposition help) to roomy.
const TABLE_BUCKETS: [usize; 3] = [1, 64, 1024];
/// PN² second-level regions: none (plain PNS), tiny, medium, roomy.
const SECOND_LEVEL: [usize; 4] = [0, 8, 64, 4096];
const MAX_DEPTH: usize = 48;
const MAX_MOVES: usize = 8;
/// A safety net: these games need far fewer nodes; hitting it means the search looped.
const NODE_CAP: u64 = 20_000_000;

/// A random graph as a game that owns its graph, so one searcher serves every game of a run.
/// It plays exactly as `common::GraphGame`.
struct OwnedGame<const RULE: u8> {
    graph: Rc<Graph>,
    at: u32,
}

impl<const RULE: u8> OwnedGame<RULE> {
    fn view(&self) -> GraphGame<'_, RULE> {
        GraphGame {
            graph: &self.graph,
            at: self.at,
        }
    }
}

impl<const RULE: u8> Game for OwnedGame<RULE> {
    type Move = u64;
    const REPETITION_RULE: RepetitionRule = GraphGame::<RULE>::REPETITION_RULE;
    fn side_to_move(&self) -> Player {
        self.view().side_to_move()
    }
    fn hash(&self) -> u64 {
        self.view().hash()
    }
    fn outcome(&self) -> Outcome {
        self.view().outcome()
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, u64>) {
        self.view().generate_moves(moves)
    }
    fn play(&mut self, mv: u64) {
        let mut v = self.view();
        v.play(mv);
        self.at = v.at;
    }
    fn undo(&mut self, mv: u64) {
        let mut v = self.view();
        v.undo(mv);
        self.at = v.at;
    }
    fn estimate(&self) -> Numbers {
        self.view().estimate()
    }
    fn repetition_value(&self) -> Value {
        self.view().repetition_value()
    }
    fn no_moves_value(&self) -> Value {
        self.view().no_moves_value()
    }
}

impl<const RULE: u8> OnGraph for OwnedGame<RULE> {
    fn at(&self) -> u32 {
        self.at
    }
}

/// What the small arenas did across a run.
#[derive(Default, Debug)]
struct Tally {
    /// Searches whose small arena was below their peak, so they had to reclaim.
    forced: u64,
    /// Forced searches that compacted and still solved their game.
    solved_after_compaction: u64,
    /// Forced searches that truly ran out of memory.
    out_of_memory: u64,
    /// Compactions over all forced searches.
    compactions: u64,
    /// Searches at least as roomy as their peak (must be solved).
    unforced: u64,
    largest_peak: usize,
    /// Roomy results verified by df-pn's proof walk, and the df-pn searches it needed where
    /// the table had lost a PNS result.
    verified: u64,
    verify_searches: u64,
}

fn status_for(graph: &Graph, expected: Value, attacker: Player) -> Status {
    if graph.attacker_wins(expected, attacker) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

/// Checks one game under one configuration.
#[allow(clippy::too_many_arguments)]
fn check<const RULE: u8>(
    graph: Rc<Graph>,
    expected: Value,
    roomy: &mut Pns<'_, OwnedGame<RULE>>,
    walker: &mut Dfpn<'_, OwnedGame<RULE>>,
    table: &mut Table<'_>,
    rng: &mut Rng,
    context: &str,
    tally: &mut Tally,
) {
    let config = roomy.config();
    let mut game = OwnedGame::<RULE> {
        graph: graph.clone(),
        at: graph.root,
    };
    let case = Case {
        graph: &graph,
        expected,
        by_position: RULE == BY_POSITION,
        context,
    };
    case.check(
        roomy,
        &mut game,
        table,
        || Limits::nodes(NODE_CAP),
        |table| table.clear(),
        |roomy, game, table, attacker, r| {
            let want = case.status_for(attacker);
            // PNS leaves its solved nodes, with their proving moves, in the table under df-pn's
            // keys: df-pn's verification and principal variation work from them.
            let mut memo = [0u64; 256];
            let v = walker.verify(
                game,
                attacker,
                r.status,
                table,
                &mut memo,
                &mut Limits::nodes(NODE_CAP),
            );
            assert_eq!(v.verdict, Verdict::Verified, "{context}: {attacker:?}");
            tally.verified += 1;
            tally.verify_searches += v.stats.searches;
            let root = graph.node(graph.root);
            if r.status == Status::Proven
                && root.outcome == Outcome::Unknown
                && !root.children.is_empty()
            {
                let mut line = [0u64; MAX_DEPTH];
                let pv = walker.principal_variation(
                    game,
                    attacker,
                    table,
                    &mut line,
                    &mut Limits::nodes(NODE_CAP),
                );
                assert!(pv.len >= 1, "{context}: a proven interior root has a line");
                case.assert_best_move_wins(attacker, r.status, Some(line[0]));
            }
            assert_eq!(game.at, graph.root, "{context}: position not restored");
            let peak = roomy.arena_stats().peak_nodes;
            tally.largest_peak = tally.largest_peak.max(peak);

            // The same search in an arena of P/2 ..= P nodes.
            let nodes = (peak * (4 + rng.below(5) as usize) / 8).max(1);
            let bytes = Pns::<OwnedGame<RULE>>::required_bytes(nodes, MAX_DEPTH, MAX_MOVES, config);
            let mut memory = vec![0u8; bytes];
            let mut small =
                Pns::<OwnedGame<RULE>>::new(&mut memory, MAX_DEPTH, MAX_MOVES, config).unwrap();
            assert_eq!(small.node_capacity(), nodes);
            table.clear();
            let s = small.solve(game, attacker, table, &mut Limits::nodes(NODE_CAP));
            assert_eq!(game.at, graph.root, "{context}: position not restored");
            let arena = small.arena_stats();
            assert!(arena.peak_nodes <= nodes);
            if nodes >= peak {
                tally.unforced += 1;
                assert_eq!(s.status, want, "{context}: {nodes} nodes ≥ peak {peak}");
                assert_eq!(s.stats.nodes, r.stats.nodes, "{context}: same search");
                return;
            }
            tally.forced += 1;
            tally.compactions += arena.compactions;
            assert!(
                arena.compactions > 0 || s.status != want,
                "{context}: {nodes}-node arena (peak {peak}) solved without compaction: {:?} / {:?}\n{graph:#?}",
                s.stats,
                r.stats
            );
            if s.status == Status::Unknown(Reason::MemoryLimit) {
                tally.out_of_memory += 1;
                assert!(
                    !s.numbers.is_solved(),
                    "{context}: unknown with solved numbers"
                );
            } else {
                assert_eq!(
                    s.status, want,
                    "{context}: {nodes}-node arena (peak {peak}), attacker {attacker:?}\n{graph:#?}"
                );
                case.assert_best_move_wins(attacker, s.status, s.best_move);
                tally.solved_after_compaction += 1;
                if config.second_level_nodes == 0 {
                    // Compaction moves nodes but never changes the tree: plain PNS runs the very
                    // same search as in the roomy arena. (PN²'s second-level budget follows the
                    // first-level tree's size, which compaction does change.)
                    assert_eq!(
                        (s.stats.nodes, s.stats.mid_calls, s.best_move),
                        (r.stats.nodes, r.stats.mid_calls, r.best_move),
                        "{context}: compaction changed the search"
                    );
                }
            }
        },
    );
}

/// Which games a run draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The shared generator of the test-support crate (`Graph::random`).
    Common(Shape),
    /// Uniform branching with terminal positions only near the bottom: large proofs.
    BushyTree,
    /// Layered DAG with the same property: large proofs and many transpositions.
    BushyDag,
}

fn random_game(rng: &mut Rng, kind: Kind, by_position: bool) -> Graph {
    match kind {
        Kind::Common(shape) => Graph::random_maybe_bounded(rng, shape, by_position),
        Kind::BushyTree | Kind::BushyDag => {
            let mut g = bushy(rng, kind == Kind::BushyDag);
            if rng.chance(35) {
                g.add_true_bounds(rng, 20);
            }
            g
        }
    }
}

/// A layered game: `layers` layers of `width` positions (the DAG) or a full tree; every
/// interior position has 2–4 moves into the next layer; positions in the last layer are
/// finished (win 45 %, loss 45 %, draw 10 %); a few moves keep the turn.
fn bushy(rng: &mut Rng, dag: bool) -> Graph {
    let layers = 5 + rng.below(4) as usize;
    let keep_turn = if rng.chance(30) { 10 } else { 0 };
    let mut nodes: Vec<Node> = Vec::new();
    let interior = |mover| Node {
        mover,
        outcome: Outcome::Unknown,
        children: Vec::new(),
        repetition: Value::Draw,
        estimate: None,
        hash: 0,
        bound: None,
    };
    nodes.push(interior(rng.player()));
    let mut layer: Vec<u32> = vec![0];
    for l in 1..layers {
        let last = l + 1 == layers;
        let mut next: Vec<u32> = Vec::new();
        let width = if dag { 4 + rng.below(24) as usize } else { 0 };
        if dag {
            for _ in 0..width {
                next.push(nodes.len() as u32);
                nodes.push(interior(rng.player()));
            }
        }
        for &p in &layer {
            let mover = nodes[p as usize].mover;
            for _ in 0..2 + rng.below(3) {
                let c = if dag {
                    next[rng.below(width as u64) as usize]
                } else {
                    let c = nodes.len() as u32;
                    let m = if rng.chance(keep_turn) {
                        mover
                    } else {
                        mover.opponent()
                    };
                    nodes.push(interior(m));
                    next.push(c);
                    c
                };
                nodes[p as usize].children.push(c);
            }
        }
        if last {
            for &c in &next {
                nodes[c as usize].outcome = match rng.below(20) {
                    0..=8 => Outcome::Win,
                    9..=17 => Outcome::Loss,
                    _ => Outcome::Draw,
                };
            }
        }
        layer = next;
    }
    let mut g = Graph {
        shape: if dag { Shape::Dag } else { Shape::Tree },
        nodes,
        root: 0,
        no_moves: Value::Loss,
    };
    let with_estimates = rng.chance(30);
    for n in g.nodes.iter_mut() {
        n.hash = rng.next_u64();
        if with_estimates {
            n.estimate = Some(Numbers::new(rng.below(12) as u32, rng.below(12) as u32));
        }
    }
    g
}

fn run<const RULE: u8>(kind: Kind, games: usize, salt: u64) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    // One roomy searcher per configuration and one table per size, reused by every game.
    let configs: Vec<PnsConfig> = SECOND_LEVEL
        .iter()
        .flat_map(|&second| {
            let c = PnsConfig::pn2(second);
            [
                c,
                c.with_transposition_numbers(TranspositionNumbers::On),
                c.with_transposition_numbers(TranspositionNumbers::Off),
            ]
        })
        .collect();
    let mut memories: Vec<Vec<u8>> = configs
        .iter()
        .map(|&c| {
            let bytes = Pns::<OwnedGame<RULE>>::required_bytes(ROOMY, MAX_DEPTH, MAX_MOVES, c);
            vec![0u8; bytes]
        })
        .collect();
    let mut roomy: Vec<Pns<'_, OwnedGame<RULE>>> = memories
        .iter_mut()
        .zip(&configs)
        .map(|(m, &c)| Pns::new(m, MAX_DEPTH, MAX_MOVES, c).unwrap())
        .collect();
    let mut table_memories: Vec<Vec<u8>> = TABLE_BUCKETS
        .iter()
        .map(|&b| vec![0u8; Table::required_bytes(b)])
        .collect();
    let mut tables: Vec<Table<'_>> = table_memories
        .iter_mut()
        .map(|m| Table::new(m).unwrap())
        .collect();
    let mut stack = vec![0u8; Dfpn::<OwnedGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut walker =
        Dfpn::<OwnedGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, Default::default()).unwrap();
    let mut tally = Tally::default();
    for i in 0..games {
        let graph = Rc::new(random_game(&mut rng, kind, RULE == BY_POSITION));
        let expected = graph.oracle_value(RULE == BY_POSITION, &format!("seed {seed} game {i}"));
        // Plain PNS half of the time, PN² with one of the second-level sizes otherwise; each
        // with automatic, always or never shared transposition numbers.
        let second = if rng.chance(50) {
            0
        } else {
            1 + rng.below(SECOND_LEVEL.len() as u64 - 1) as usize
        };
        let c = 3 * second + rng.below(3) as usize;
        let t = rng.below(TABLE_BUCKETS.len() as u64) as usize;
        let context = format!(
            "seed {seed} game {i} ({kind:?}, {} buckets, {:?})",
            TABLE_BUCKETS[t], configs[c]
        );
        check::<RULE>(
            graph,
            expected,
            &mut roomy[c],
            &mut walker,
            &mut tables[t],
            &mut rng,
            &context,
            &mut tally,
        );
    }
    println!("{kind:?} rule {RULE}: {tally:?}");
    // How often reclaiming lets a search finish is asserted by the bisection test on bushy
    // trees; here it is reported (a handful to dozens per run).
    assert!(tally.forced > 0, "seed {seed}: no search had to reclaim");
}

#[test]
fn random_trees_match_brute_force() {
    run::<ACYCLIC>(Kind::Common(Shape::Tree), 1_500, 11);
    run::<DRAW>(Kind::Common(Shape::Tree), 1_500, 12);
}

#[test]
fn random_dags_match_brute_force() {
    run::<ACYCLIC>(Kind::Common(Shape::Dag), 1_500, 13);
    run::<DRAW>(Kind::Common(Shape::Dag), 1_500, 14);
}

#[test]
fn random_cyclic_graphs_with_draw_rule_match_brute_force_and_retrograde() {
    run::<DRAW>(Kind::Common(Shape::Cyclic), 6_000, 15);
}

#[test]
fn random_cyclic_graphs_with_position_rule_match_brute_force() {
    run::<BY_POSITION>(Kind::Common(Shape::Cyclic), 4_000, 16);
}

#[test]
fn bushy_trees_match_brute_force_in_small_arenas() {
    run::<ACYCLIC>(Kind::BushyTree, 150, 17);
    run::<DRAW>(Kind::BushyTree, 150, 18);
}

#[test]
fn bushy_dags_match_brute_force_in_small_arenas() {
    run::<ACYCLIC>(Kind::BushyDag, 150, 19);
    run::<DRAW>(Kind::BushyDag, 150, 20);
}

/// A cyclic game that wrongly declares itself acyclic may run into a limit (its tree can
/// follow a cycle), but it never gets a wrong answer: without repetitions every leaf is one
/// the game scores, so a solved tree is a real proof or disproof.
#[test]
fn cyclic_graphs_declared_acyclic_never_get_a_wrong_answer() {
    let seed = common::seed() ^ 25;
    let mut rng = Rng::new(seed);
    let mut table_memory = vec![0u8; Table::required_bytes(64)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let config = PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::On);
    let mut memory =
        vec![0u8; Pns::<OwnedGame<ACYCLIC>>::required_bytes(4096, MAX_DEPTH, MAX_MOVES, config)];
    let mut pns =
        Pns::<OwnedGame<ACYCLIC>>::new(&mut memory, MAX_DEPTH, MAX_MOVES, config).unwrap();
    let mut answered = 0;
    for i in 0..3000 {
        let graph = Rc::new(Graph::random(&mut rng, Shape::Cyclic));
        let expected = graph.brute_value(false);
        let mut game = OwnedGame::<ACYCLIC> {
            graph: graph.clone(),
            at: graph.root,
        };
        let context = format!("seed {seed} game {i}");
        let case = Case {
            graph: &graph,
            expected,
            by_position: false,
            context: &context,
        };
        answered += case.answers_never_wrong(
            &mut pns,
            &mut game,
            &mut table,
            || Limits::nodes(100_000),
            |table| table.clear(),
        );
    }
    assert!(
        answered > 1000,
        "most such games still get answers: {answered}"
    );
}

/// For each game, the smallest arena in which plain PNS (with or without shared transposition
/// numbers) still solves it (found by bisection,
/// fresh table each time): below the peak it must have reclaimed solved subtrees, and it must
/// have run the very search of the roomy arena. Answers are checked against brute force.
///
/// Returns how many games were solved below their peak, and how many had a peak over two
/// blocks (so that something could be reclaimed at all).
fn smallest_arenas<const RULE: u8>(kind: Kind, games: usize, salt: u64) -> (usize, usize) {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let mut table_memory = vec![0u8; Table::required_bytes(64)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let (mut below_peak, mut saved, mut large) = (0, 0usize, 0);
    for i in 0..games {
        let graph = Rc::new(random_game(&mut rng, kind, RULE == BY_POSITION));
        let expected = graph.brute_value(RULE == BY_POSITION);
        let mut game = OwnedGame::<RULE> {
            graph: graph.clone(),
            at: graph.root,
        };
        let attacker = rng.player();
        let want = status_for(&graph, expected, attacker);
        let config = PnsConfig::PNS.with_transposition_numbers(
            [TranspositionNumbers::On, TranspositionNumbers::Off][rng.below(2) as usize],
        );
        let mut solve_in = |nodes: usize| {
            let bytes = Pns::<OwnedGame<RULE>>::required_bytes(nodes, MAX_DEPTH, MAX_MOVES, config);
            let mut memory = vec![0u8; bytes];
            let mut pns = Pns::new(&mut memory, MAX_DEPTH, MAX_MOVES, config).unwrap();
            table.clear();
            let r = pns.solve(
                &mut game,
                attacker,
                &mut table,
                &mut Limits::nodes(NODE_CAP),
            );
            (r, pns.arena_stats())
        };
        let (roomy, roomy_arena) = solve_in(ROOMY);
        let context = format!("seed {seed} game {i} ({kind:?}, attacker {attacker:?}, {config:?})");
        assert_eq!(roomy.status, want, "{context}\n{graph:#?}");
        let peak = roomy_arena.peak_nodes;
        // Searches that need only a block or two leave nothing to reclaim.
        if peak > 2 * MAX_MOVES {
            large += 1;
        }
        let (mut lo, mut hi) = (1, peak);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (r, _) = solve_in(mid);
            if r.status == Status::Unknown(Reason::MemoryLimit) {
                lo = mid + 1;
            } else {
                assert_eq!(r.status, want, "{context}: {mid} nodes\n{graph:#?}");
                hi = mid;
            }
        }
        let (r, arena) = solve_in(lo);
        assert_eq!(r.status, want, "{context}: {lo} nodes");
        assert_eq!(
            (r.stats.nodes, r.stats.mid_calls, r.best_move, r.distance),
            (
                roomy.stats.nodes,
                roomy.stats.mid_calls,
                roomy.best_move,
                roomy.distance
            ),
            "{context}: the search in {lo} nodes differs from the roomy one"
        );
        if lo < peak {
            below_peak += 1;
            saved += peak - lo;
            assert!(arena.compactions > 0, "{context}");
            assert!(arena.reclaimed_nodes > 0, "{context}");
        }
    }
    println!(
        "{kind:?}: {below_peak} of {games} games ({large} with a peak over {}) solved below their peak, {saved} nodes saved",
        2 * MAX_MOVES
    );
    (below_peak, large)
}

#[test]
fn bushy_trees_solve_in_arenas_below_their_peak() {
    // Trees solve subtrees all along the search, so most can do with less than their peak.
    let (a, a_large) = smallest_arenas::<ACYCLIC>(Kind::BushyTree, 30, 21);
    let (b, b_large) = smallest_arenas::<DRAW>(Kind::BushyTree, 30, 26);
    assert!(2 * (a + b) > a_large + b_large, "reclamation rarely helped");
}

#[test]
fn bushy_dags_solve_in_arenas_below_their_peak() {
    // In DAGs the table solves transpositions at once, so fewer subtrees are left to reclaim
    // (a quarter to a half of the games in our runs): correctness is what is checked here.
    smallest_arenas::<ACYCLIC>(Kind::BushyDag, 30, 22);
    smallest_arenas::<DRAW>(Kind::BushyDag, 30, 27);
}

#[test]
fn cyclic_graphs_solve_in_arenas_below_their_peak() {
    smallest_arenas::<DRAW>(Kind::Common(Shape::Cyclic), 300, 23);
    smallest_arenas::<BY_POSITION>(Kind::Common(Shape::Cyclic), 300, 24);
}

#[test]
fn tic_tac_toe_is_a_draw_in_a_small_arena() {
    // Neither player can force a win (checked by brute force below). The full game tree has
    // 549 946 nodes; 4 000 suffice because solved subtrees are reclaimed and the table shares
    // solved transpositions.
    let mut table_memory = vec![0u8; Table::required_bytes(1024)];
    let mut table = Table::new(&mut table_memory).unwrap();
    for config in [PnsConfig::PNS, PnsConfig::pn2(2000)] {
        let mut memory = vec![0u8; Pns::<TicTacToe>::required_bytes(4000, 9, 9, config)];
        let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, config).unwrap();
        let mut game = TicTacToe::default();
        for attacker in [Player::First, Player::Second] {
            table.clear();
            let r = pns.solve(&mut game, attacker, &mut table, &mut Limits::default());
            assert_eq!(
                r.status,
                Status::Disproven,
                "attacker {attacker:?} {config:?}"
            );
        }
        let v = pns.solve_value(&mut game, &mut table, &mut Limits::default());
        assert_eq!(v.value, Ok(Value::Draw));
        assert_eq!(game.cells, [0; 9]);
        assert_eq!(game.value(), Value::Draw);
    }
}

#[test]
fn tic_tac_toe_positions_match_brute_force() {
    // Every position reachable in up to three plies, with a one-bucket table and a small arena.
    let mut table_memory = vec![0u8; Table::required_bytes(1)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut memory = vec![0u8; Pns::<TicTacToe>::required_bytes(3000, 9, 9, PnsConfig::PNS)];
    let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, PnsConfig::PNS).unwrap();
    let mut checked = 0;
    TicTacToe::default().walk(3, &mut |g| {
        let want = g.value();
        let got = pns.solve_value(g, &mut table, &mut Limits::default());
        assert_eq!(got.value, Ok(want), "position {:?}", g.cells);
        checked += 1;
    });
    assert!(checked > 500, "checked {checked}");
}

/// The second search of a full value reads the first's proofs as its own disproofs
/// (`Pns::solve_after_opponent`), as in df-pn: on random games where the side to move cannot
/// win, the opponent's search over the first search's table gets the oracle's answer. Returns
/// the nodes with and without reading, for the caller to check the saving where it is reliable
/// (`Savings::assert_saved`).
fn second_search_reads_first_proofs<const RULE: u8>(
    shape: Shape,
    games: usize,
    salt: u64,
) -> Savings {
    let seed = common::seed() ^ salt;
    let mut rng = Rng::new(seed);
    let config = PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::On);
    let mut memory =
        vec![0u8; Pns::<OwnedGame<RULE>>::required_bytes(ROOMY, MAX_DEPTH, MAX_MOVES, config)];
    let mut pns = Pns::<OwnedGame<RULE>>::new(&mut memory, MAX_DEPTH, MAX_MOVES, config).unwrap();
    let (mut reading, mut plain, mut fewer) = (0u64, 0u64, 0usize);
    for i in 0..games {
        let graph = Rc::new(Graph::random(&mut rng, shape));
        let expected = graph.oracle_value(false, &format!("seed {seed} game {i}"));
        if expected == Value::Win {
            continue; // the first search proves it: no second search
        }
        let context = format!("seed {seed} game {i} ({shape:?})");
        let me = graph.node(graph.root).mover;
        let mut nodes = [0u64; 2];
        for (k, read) in [true, false].into_iter().enumerate() {
            let mut table_memory = vec![0u8; Table::required_bytes(1024)];
            let mut table = Table::new(&mut table_memory).unwrap();
            let mut game = OwnedGame::<RULE> {
                graph: graph.clone(),
                at: graph.root,
            };
            let first = pns.solve(&mut game, me, &mut table, &mut Limits::nodes(NODE_CAP));
            assert_eq!(first.status, Status::Disproven, "{context}: first search");
            let limits = &mut Limits::nodes(NODE_CAP);
            let second = if read {
                pns.solve_after_opponent(&mut game, me.opponent(), &mut table, limits)
            } else {
                pns.solve(&mut game, me.opponent(), &mut table, limits)
            };
            let want = status_for(&graph, expected, me.opponent());
            assert_eq!(
                second.status, want,
                "{context}: second search, reading {read}\n{graph:#?}"
            );
            assert_eq!(game.at, graph.root, "{context}: position not restored");
            nodes[k] = second.stats.nodes;
        }
        reading += nodes[0];
        plain += nodes[1];
        fewer += usize::from(nodes[0] < nodes[1]);
    }
    Savings {
        seed,
        reading,
        plain,
        fewer,
    }
}

#[test]
fn second_search_of_a_value_reads_the_first_searchs_proofs() {
    let dag = second_search_reads_first_proofs::<ACYCLIC>(Shape::Dag, 3_000, 41);
    second_search_reads_first_proofs::<DRAW>(Shape::Cyclic, 3_000, 42);
    dag.assert_saved("nodes");
}
