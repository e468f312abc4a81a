//! Dominance (`Game::dominance`): a position solved with some material is solved for every
//! position of its class with material at least as good for the winner (or, for a loss, no
//! better for the loser), and the table finds such entries, not only exact ones.
//!
//! The games: random DAGs whose positions are a graph node and First's material, a count of
//! stones in hand. First may play a graph move, or, with a stone in hand, a drop: a graph move
//! that spends one. A leaf is a win for First when First holds at least the leaf's threshold
//! of stones. So more stones never hurt First: First's moves with more stones are a superset,
//! Second's are the same, the leaves are monotone. The oracle is negamax over (node, stones),
//! independent of the solver; the solver must agree with and without dominance, and dominance
//! must save work over the run.

mod common;
#[path = "common/reached.rs"]
mod reached;

use std::collections::HashMap;

use common::Rng;
use proofnum::Table;
use proofnum::proof::Verdict;
use proofnum::{
    Decided, Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Player, Pns, PnsConfig,
    RepetitionRule, Status,
};
use proofnum_check::{Certificate, CheckError, Fault, Record};

#[derive(Clone, Debug)]
struct Node {
    mover: Player,
    children: Vec<u32>,
    /// A leaf: First wins with at least this many stones, else loses (`None`: interior).
    threshold: Option<u32>,
    hash: u64,
}

#[derive(Clone, Debug)]
struct Graph {
    nodes: Vec<Node>,
}

impl Graph {
    /// A layered DAG: layer by layer, each node's children in the next layer; the last layer
    /// is leaves. Interior nodes may also be leaves' parents only.
    fn random(rng: &mut Rng) -> Graph {
        let layers = 2 + rng.below(7) as usize;
        let width = 1 + rng.below(6) as usize;
        let mut nodes = Vec::new();
        let mut layer_start = Vec::new();
        for l in 0..layers {
            layer_start.push(nodes.len());
            let count = if l == 0 {
                1
            } else {
                1 + rng.below(width as u64) as usize
            };
            for _ in 0..count {
                let mover = if l % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                nodes.push(Node {
                    mover,
                    children: Vec::new(),
                    threshold: None,
                    hash: rng.next_u64(),
                });
            }
        }
        layer_start.push(nodes.len());
        for l in 0..layers {
            let (a, b) = (layer_start[l], layer_start[l + 1]);
            let next = layer_start.get(l + 1..l + 3).map(|r| (r[0], r[1]));
            for node in &mut nodes[a..b] {
                let Some((c0, c1)) = next.filter(|_| l + 1 < layers && !rng.chance(15)) else {
                    node.threshold = Some(rng.below(4) as u32);
                    continue;
                };
                for _ in 0..rng.branching(4) {
                    let c = (c0 + rng.below((c1 - c0) as u64) as usize) as u32;
                    if !node.children.contains(&c) {
                        node.children.push(c);
                    }
                }
            }
        }
        Graph { nodes }
    }

    /// First's value (win or loss) at `node` with `stones`, by negamax.
    fn first_wins(&self, node: u32, stones: u32, memo: &mut HashMap<(u32, u32), bool>) -> bool {
        if let Some(&v) = memo.get(&(node, stones)) {
            return v;
        }
        let n = &self.nodes[node as usize];
        let v = match n.threshold {
            Some(t) => stones >= t,
            None => {
                let mut options: Vec<(u32, u32)> =
                    n.children.iter().map(|&c| (c, stones)).collect();
                if n.mover == Player::First && stones > 0 {
                    options.extend(n.children.iter().map(|&c| (c, stones - 1)));
                }
                let results = options.iter().map(|&(c, s)| self.first_wins(c, s, memo));
                if n.mover == Player::First {
                    results.into_iter().any(|w| w)
                } else {
                    results.into_iter().all(|w| w)
                }
            }
        };
        memo.insert((node, stones), v);
        v
    }
}

/// A position: a node and First's stones. `DOM` switches dominance on.
#[derive(Clone)]
struct Stones<'g, const DOM: bool> {
    graph: &'g Graph,
    at: u32,
    stones: u32,
    /// First's drops come before its graph moves (an order the walk tests need).
    drops_first: bool,
    classes: Classes,
    /// Solved results are kept with the least material they need (`Game::material_needed`).
    needs: bool,
}

/// How a game tells its classes (graph nodes) apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Classes {
    /// By a random hash per node, with no class encoding: the usual case.
    Hashed,
    /// Every class hashed alike (a total class-hash collision), with no class encoding.
    Colliding,
    /// Every class hashed alike, but told apart by an exact class encoding (the node).
    CollidingEncoded,
}

/// A move: from, to, and whether it drops a stone.
type Mv = (u32, u32, bool);

impl<const DOM: bool> Game for Stones<'_, DOM> {
    type Move = Mv;
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        self.graph.nodes[self.at as usize].mover
    }
    fn hash(&self) -> u64 {
        let node = self.graph.nodes[self.at as usize].hash;
        node ^ (self.stones as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn class_hash(&self) -> u64 {
        match self.classes {
            Classes::Hashed => self.graph.nodes[self.at as usize].hash,
            Classes::Colliding | Classes::CollidingEncoded => 0x5EED_C1A5_5E5C_011D,
        }
    }
    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        if self.classes != Classes::CollidingEncoded {
            return None;
        }
        out[..4].copy_from_slice(&self.at.to_le_bytes());
        Some(4)
    }
    fn material(&self) -> u32 {
        self.stones
    }
    fn dominance(&self) -> bool {
        DOM
    }
    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        match player {
            Player::First => a >= b,
            Player::Second => a <= b,
        }
    }
    /// A leaf won by First needs its threshold, one lost needs fewer stones than that; a
    /// drop needs one stone more than the position after it; nothing else changes the
    /// stones, so a node lost to every move needs the join of what it needs through each.
    fn material_needed(&self, decided: Decided<Mv>) -> Option<u32> {
        if !self.needs {
            return None;
        }
        let n = &self.graph.nodes[self.at as usize];
        match decided {
            Decided::ByOutcome => {
                let t = n.threshold?;
                Some(if self.stones >= t { t } else { t - 1 })
            }
            // A drop spends a stone: one more here than after it, whoever wins.
            Decided::ByMove {
                mv: (_, _, drop),
                after,
            }
            | Decided::ThroughLosingMove {
                mv: (_, _, drop),
                after,
            } => Some(after + u32::from(drop)),
            // First with no stone would gain drops with one, but they reach the children
            // its graph moves reach, with the stones it has now.
            Decided::ByEveryMove { joined } => Some(joined),
        }
    }
    fn reduces_material(&self) -> bool {
        self.needs
    }
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        match winner {
            Player::First => a.max(b),
            Player::Second => a.min(b),
        }
    }
    fn outcome(&self) -> Outcome {
        let n = &self.graph.nodes[self.at as usize];
        match n.threshold {
            None => Outcome::Unknown,
            Some(t) => {
                let first_wins = self.stones >= t;
                if first_wins == (n.mover == Player::First) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                }
            }
        }
    }
    fn generate_moves(&self, moves: &mut MoveList<'_, Mv>) {
        let n = &self.graph.nodes[self.at as usize];
        let drops = n.mover == Player::First && self.stones > 0;
        for drop in [self.drops_first, !self.drops_first] {
            if !drop || drops {
                for &c in &n.children {
                    moves.push((self.at, c, drop));
                }
            }
        }
    }
    fn play(&mut self, (_, to, drop): Mv) {
        self.stones -= drop as u32;
        self.at = to;
    }
    fn undo(&mut self, (from, _, drop): Mv) {
        self.at = from;
        self.stones += drop as u32;
    }
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        out[..4].copy_from_slice(&self.at.to_le_bytes());
        out[4..8].copy_from_slice(&self.stones.to_le_bytes());
        Some(8)
    }
}

const MAX_DEPTH: usize = 16;
const MAX_MOVES: usize = 8;

/// df-pn's answers for both attackers, and its MID calls, from (root, stones); and with
/// confirmation, the answers and the MID calls and confirmation positions together.
fn dfpn_answers<const DOM: bool>(graph: &Graph, stones: u32, buckets: usize) -> ([Status; 2], u64) {
    dfpn_run::<DOM>(graph, stones, buckets, false, false)
}

/// Runs `f` with a df-pn searcher over a fresh table of `buckets` buckets and the game at
/// (root, `stones`).
fn with_dfpn<'g, const DOM: bool, R>(
    graph: &'g Graph,
    stones: u32,
    buckets: usize,
    drops_first: bool,
    f: impl FnOnce(&mut Dfpn<'_, Stones<'g, DOM>>, &mut Table<'_>, &mut Stones<'g, DOM>) -> R,
) -> R {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Stones<DOM>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<Stones<DOM>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default()).unwrap();
    let mut game = Stones::<DOM> {
        graph,
        at: 0,
        stones,
        drops_first,
        classes: Classes::Hashed,
        needs: false,
    };
    f(&mut dfpn, &mut table, &mut game)
}

fn dfpn_run<const DOM: bool>(
    graph: &Graph,
    stones: u32,
    buckets: usize,
    confirm: bool,
    needs: bool,
) -> ([Status; 2], u64) {
    with_dfpn::<DOM, _>(graph, stones, buckets, false, |dfpn, table, game| {
        game.needs = needs;
        let mut mid_calls = 0;
        let mut answers = [Status::Proven; 2];
        for (i, attacker) in [Player::First, Player::Second].into_iter().enumerate() {
            let limits = &mut Limits::nodes(10_000_000);
            let r = if confirm {
                let mut memo = vec![0u64; 1 << 10];
                dfpn.solve_confirmed(game, attacker, table, &mut memo, limits)
            } else {
                dfpn.solve(game, attacker, table, limits)
            };
            mid_calls += r.stats.mid_calls + r.stats.confirm_nodes;
            answers[i] = r.status;
            assert_eq!((game.at, game.stones), (0, stones), "restored");
        }
        (answers, mid_calls)
    })
}

fn pns_answers<const DOM: bool>(graph: &Graph, stones: u32, buckets: usize) -> [Status; 2] {
    let mut memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut memory).unwrap();
    let bytes = Pns::<Stones<DOM>>::required_bytes(1 << 12, MAX_DEPTH, MAX_MOVES, PnsConfig::PNS);
    let mut arena = vec![0u8; bytes];
    let mut pns =
        Pns::<Stones<DOM>>::new(&mut arena, MAX_DEPTH, MAX_MOVES, PnsConfig::PNS).unwrap();
    let mut game = Stones::<DOM> {
        graph,
        at: 0,
        stones,
        drops_first: false,
        classes: Classes::Hashed,
        needs: false,
    };
    [Player::First, Player::Second].map(|attacker| {
        pns.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(10_000_000),
        )
        .status
    })
}

#[test]
fn dominance_answers_like_the_oracle_and_saves_work() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let (mut with, mut without) = (0u64, 0u64);
    let (mut confirmed_with, mut confirmed_without) = (0u64, 0u64);
    let (mut with_needs, mut confirmed_with_needs) = (0u64, 0u64);
    for i in 0..3000 {
        let graph = Graph::random(&mut rng);
        let stones = rng.below(5) as u32;
        let buckets = [1, 16, 1024][rng.below(3) as usize];
        let first_wins = graph.first_wins(0, stones, &mut HashMap::new());
        // Proven for First exactly when First wins; for Second exactly when First loses (no
        // draws in these games).
        let want = if first_wins {
            [Status::Proven, Status::Disproven]
        } else {
            [Status::Disproven, Status::Proven]
        };
        let context = format!("seed {seed}, game {i}, {stones} stones, {buckets} buckets");
        let (a, w) = dfpn_answers::<true>(&graph, stones, buckets);
        assert_eq!(a, want, "{context}: df-pn with dominance\n{graph:#?}");
        let (b, wo) = dfpn_answers::<false>(&graph, stones, buckets);
        assert_eq!(b, want, "{context}: df-pn without");
        assert_eq!(
            pns_answers::<true>(&graph, stones, buckets),
            want,
            "{context}: PNS"
        );
        with += w;
        without += wo;
        let (a, w) = dfpn_run::<true>(&graph, stones, buckets, true, false);
        assert_eq!(a, want, "{context}: confirmed df-pn with dominance");
        let (b, wo) = dfpn_run::<false>(&graph, stones, buckets, true, false);
        assert_eq!(b, want, "{context}: confirmed df-pn without");
        confirmed_with += w;
        confirmed_without += wo;
        let (c, wn) = dfpn_run::<true>(&graph, stones, buckets, false, true);
        assert_eq!(
            c, want,
            "{context}: df-pn with dominance and needs\n{graph:#?}"
        );
        let (c, cn) = dfpn_run::<true>(&graph, stones, buckets, true, true);
        assert_eq!(
            c, want,
            "{context}: confirmed df-pn with dominance and needs"
        );
        with_needs += wn;
        confirmed_with_needs += cn;
    }
    println!(
        "MID calls: {with_needs} with dominance and the material results need, {with} with \
         dominance, {without} without; confirmed, with the walks' positions: \
         {confirmed_with_needs}, {confirmed_with} and {confirmed_without}"
    );
    assert!(
        with < without,
        "dominance saved no work: {with} against {without}"
    );
    assert!(
        with_needs < with,
        "the material results need saved no work: {with_needs} against {with}"
    );
}

/// The verification walk of a game with dominance accepts a position when one of its class
/// with material no better for the claimed winner held earlier in the walk. So every true
/// claim verifies and no false one does, against the oracle, whichever side attacks.
#[test]
fn the_walk_accepts_by_dominance_only_what_holds() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let (mut walked, mut walked_without) = (0u64, 0u64);
    for i in 0..2000 {
        let (graph, stones, first_wins, drops_first) = walk_game(&mut rng);
        for attacker in [Player::First, Player::Second] {
            let claims = true_and_false_claims(first_wins, attacker);
            let context = format!("seed {seed}, game {i}, {stones} stones, {attacker:?} attacks");
            let hashed = Classes::Hashed;
            let runs = [
                (
                    "with dominance",
                    walk_claims::<true>(
                        &graph,
                        stones,
                        attacker,
                        claims,
                        drops_first,
                        hashed,
                        i % 2 == 1,
                    ),
                    &mut walked,
                ),
                (
                    "without",
                    walk_claims::<false>(
                        &graph,
                        stones,
                        attacker,
                        claims,
                        drops_first,
                        hashed,
                        false,
                    ),
                    &mut walked_without,
                ),
            ];
            for (how, (told, nodes), total) in runs {
                assert_eq!(
                    told,
                    [Verdict::Verified, Verdict::Refuted],
                    "{context}: {how}\n{graph:#?}"
                );
                *total += nodes;
            }
        }
    }
    println!("walked positions: {walked} with dominance, {walked_without} without");
    assert!(
        walked < walked_without,
        "the class memo spared no walk: {walked} against {walked_without}"
    );
}

/// Classes whose hashes collide (here every class hashes alike) mislead the table's class
/// entries, and would mislead the walk too if it keyed classes by that hash: the same games
/// without a class encoding show it, the walk then verifying false claims. With the game's
/// exact class encoding ([`Game::encode_class`]) the walk keys classes by it and verifies no
/// false claim, against the oracle.
#[test]
fn class_encodings_keep_colliding_class_hashes_from_confirming_false_claims() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let (mut truths, mut truths_verified, mut lies_verified_by_hash) = (0, 0, 0);
    // 2000 games, and more while the colliding hash has misled no walk yet: it misleads one
    // to a dozen walks in 2000 games (2 to 24 over 300 seeds) and none on a rare seed, which
    // would fail the test without any fault in the walk.
    for i in 0.. {
        if i >= 2000 && (lies_verified_by_hash > 0 || i >= 20_000) {
            break;
        }
        let (graph, stones, first_wins, drops_first) = walk_game(&mut rng);
        for attacker in [Player::First, Player::Second] {
            let claims = true_and_false_claims(first_wins, attacker);
            let context = format!("seed {seed}, game {i}, {stones} stones, {attacker:?} attacks");
            let (encoded, _) = walk_claims::<true>(
                &graph,
                stones,
                attacker,
                claims,
                drops_first,
                Classes::CollidingEncoded,
                false,
            );
            assert_ne!(
                encoded[1],
                Verdict::Verified,
                "{context}: a false claim verified\n{graph:#?}"
            );
            truths += 1;
            truths_verified += usize::from(encoded[0] == Verdict::Verified);
            let (hashed, _) = walk_claims::<true>(
                &graph,
                stones,
                attacker,
                claims,
                drops_first,
                Classes::Colliding,
                false,
            );
            lies_verified_by_hash += usize::from(hashed[1] == Verdict::Verified);
        }
    }
    println!(
        "{truths_verified} of {truths} true claims verified with class encodings, no false \
         one; {lies_verified_by_hash} false claims verified by the colliding class hash alone"
    );
    assert!(
        lies_verified_by_hash > 0,
        "seed {seed}: the colliding class hash never misled the walk in {truths} walks: the \
         encodings were not tested"
    );
    // The table is misled too (its class entries collide), so the walk's own searches may
    // fail to show a true claim (it is then refuted, "not shown": the confirmed solve
    // reports it unconfirmed), but plenty must still be shown.
    assert!(
        truths_verified * 3 > truths,
        "seed {seed}: too few true claims verified: {truths_verified} of {truths}"
    );
}

/// A random game for the walk tests: the graph, First's stones, whether First wins (the
/// oracle), and whether First's drops come first.
fn walk_game(rng: &mut Rng) -> (Graph, u32, bool, bool) {
    let graph = Graph::random(rng);
    let stones = rng.below(5) as u32;
    let first_wins = graph.first_wins(0, stones, &mut HashMap::new());
    (graph, stones, first_wins, rng.chance(50))
}

/// The verdicts of the walks of `claims` after a df-pn search of `attacker`'s question, and
/// the positions the walks visited.
fn walk_claims<const DOM: bool>(
    graph: &Graph,
    stones: u32,
    attacker: Player,
    claims: [Status; 2],
    drops_first: bool,
    classes: Classes,
    needs: bool,
) -> ([Verdict; 2], u64) {
    with_dfpn::<DOM, _>(graph, stones, 1024, drops_first, |dfpn, table, game| {
        game.classes = classes;
        game.needs = needs;
        dfpn.solve(game, attacker, table, &mut Limits::nodes(10_000_000));
        let mut memo = vec![0u64; 1 << 10];
        let mut nodes = 0;
        let verdicts = claims.map(|claim| {
            let v = dfpn.verify(
                game,
                attacker,
                claim,
                table,
                &mut memo,
                &mut Limits::nodes(10_000_000),
            );
            nodes += v.stats.nodes;
            assert_eq!((game.at, game.stones), (0, stones), "restored");
            v.verdict
        });
        (verdicts, nodes)
    })
}

/// Certificates of games with dominance carry dominance records ("this position holds because
/// that one, of its class with material no better for the claimed winner, held"), and
/// `proofnum-check` checks them: every true answer's certificate checks; the same certificate
/// is refused by the game without dominance, and so is one whose dominance record names a
/// node not checked before it, or one of another class or better material for the winner.
#[test]
fn certificates_with_dominance_records_check_and_spoiled_ones_do_not() {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let (mut certificates, mut with_records, mut spoiled) = (0, 0, 0);
    let mut passed_by_colliding_hash = 0;
    // 2000 games, and more while too few certificates use dominance: 4 % of them do (2.8 %
    // on the fewest of 3000 seeds), against the floor of 2.5 % asserted below, which one seed
    // in several thousand would fall under in 2000 games without any fault in the walk.
    for i in 0.. {
        if i >= 2000 && (with_records * 40 > certificates || i >= 20_000) {
            break;
        }
        let (graph, stones, first_wins, drops_first) = walk_game(&mut rng);
        for attacker in [Player::First, Player::Second] {
            let context = format!("seed {seed}, game {i}, {stones} stones, {attacker:?} attacks");
            let mut twin = graph.clone();
            for node in &mut twin.nodes {
                node.threshold = node.threshold.map(|_| rng.below(4) as u32);
            }
            let misleading = rng.chance(50).then_some(&twin);
            let truth = true_claim(first_wins, attacker);
            let Some(cert) = certify_answer(
                &graph,
                stones,
                attacker,
                truth,
                drops_first,
                misleading,
                i % 2 == 1,
                &context,
            ) else {
                continue;
            };
            assert_eq!(
                cert.heading.attacker_wins,
                first_wins == (attacker == Player::First),
                "{context}: the claim against the oracle"
            );
            let check_as = |cert: &Certificate, dominance: bool, classes: Classes| {
                check_stones(&graph, stones, drops_first, cert, dominance, classes)
            };
            let check =
                |cert: &Certificate, dominance: bool| check_as(cert, dominance, Classes::Hashed);
            if let Err(e) = check(&cert, true) {
                panic!("{context}: {e}\n{graph:#?}\n{cert:#?}");
            }
            if let Err(e) = check_as(&cert, true, Classes::CollidingEncoded) {
                panic!("{context}: classes by their encodings: {e}\n{graph:#?}\n{cert:#?}");
            }
            certificates += 1;
            // Only the records the checker reaches: a try of the walk that failed leaves its
            // records in the certificate, unreached, and a certificate whose dominance records
            // are all there (3 seeds in 1000: 554, 558, 984) is rightly accepted by the game
            // without dominance.
            let dominated = reached_dominance_records(&cert);
            if dominated.is_empty() {
                continue;
            }
            with_records += 1;
            let refused = |bad: &Certificate, dominance: bool, what: &str| {
                let r = check(bad, dominance);
                assert!(
                    not_dominated(&r),
                    "{context}: {what}: {r:?}\n{graph:#?}\n{bad:#?}"
                );
            };
            // Only records the checker reaches matter: spoil them all at once.
            refused(&cert, false, "the game without dominance");
            let mut bad = cert.clone();
            for &(id, _) in &dominated {
                bad.records.insert(id, Record::Dominated { by: id });
            }
            refused(&bad, true, "a record naming itself");
            // Other nodes given out before the record's (ids follow the walk's order): of
            // another class, of the class with better material for the winner, or not yet
            // checked where the record is (an ancestor); refused unless one truly dominates.
            let (id, by) = dominated[0];
            let others: Vec<u64> = cert
                .records
                .keys()
                .copied()
                .filter(|&n| {
                    n < id && n != by && !matches!(cert.records[&n], Record::Dominated { .. })
                })
                .collect();
            for other in others {
                let mut bad = cert.clone();
                bad.records.insert(id, Record::Dominated { by: other });
                let refused = not_dominated(&check(&bad, true));
                spoiled += usize::from(refused);
                // Classes told apart by their encodings are judged as by distinct hashes;
                // by one colliding hash, a record naming another class may pass.
                assert_eq!(
                    not_dominated(&check_as(&bad, true, Classes::CollidingEncoded)),
                    refused,
                    "{context}: classes by their encodings, record {id} naming {other}"
                );
                if refused {
                    let passed = check_as(&bad, true, Classes::Colliding).is_ok();
                    passed_by_colliding_hash += usize::from(passed);
                }
            }
        }
    }
    println!(
        "{certificates} certificates checked, {with_records} with dominance records; \
         {spoiled} records redirected to a node that does not dominate, all refused \
         ({passed_by_colliding_hash} of them pass when every class hashes alike and the \
         game gives no class encoding)"
    );
    assert!(
        passed_by_colliding_hash > 0,
        "seed {seed}: no redirected record passed by a colliding class hash: the encodings \
         were not tested"
    );
    assert!(
        with_records * 40 > certificates,
        "seed {seed}: too few certificates use dominance: {with_records} of {certificates}"
    );
    assert!(spoiled > 0, "seed {seed}: no redirected record was refused");
}

/// The dominance records of `cert` that the checker reaches from its root, with the nodes
/// they name, by id.
fn reached_dominance_records(cert: &Certificate) -> Vec<(u64, u64)> {
    reached::reached_records(cert)
        .into_iter()
        .filter_map(|(id, r)| match r {
            Record::Dominated { by } => Some((id, by)),
            _ => None,
        })
        .collect()
}

/// `attacker`'s true answer (by the oracle's `first_wins`).
fn true_claim(first_wins: bool, attacker: Player) -> Status {
    if first_wins == (attacker == Player::First) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

/// `attacker`'s true answer and its opposite.
fn true_and_false_claims(first_wins: bool, attacker: Player) -> [Status; 2] {
    match true_claim(first_wins, attacker) {
        Status::Proven => [Status::Proven, Status::Disproven],
        _ => [Status::Disproven, Status::Proven],
    }
}

/// Whether the check refused a certificate for a dominance record that does not settle its
/// position.
fn not_dominated(r: &Result<proofnum_check::Report, CheckError>) -> bool {
    matches!(
        r,
        Err(CheckError::Invalid {
            fault: Fault::NotDominated { .. },
            ..
        })
    )
}

/// The certificate of `attacker`'s answer `truth` from (root, `stones`), written by the walk,
/// which must verify it. With `misleading`, the table first holds the results of a twin game
/// (the same positions' hashes, other leaves): the walk's hints are then often wrong, its
/// attempts fail, and what it held inside them must stay out of the certificate.
#[allow(clippy::too_many_arguments)]
fn certify_answer(
    graph: &Graph,
    stones: u32,
    attacker: Player,
    truth: Status,
    drops_first: bool,
    misleading: Option<&Graph>,
    needs: bool,
    context: &str,
) -> Option<Certificate> {
    with_dfpn::<true, _>(graph, stones, 1024, drops_first, |dfpn, table, game| {
        game.needs = needs;
        let limits = &mut Limits::nodes(10_000_000);
        match misleading {
            Some(twin) => {
                let mut other = Stones::<true> {
                    graph: twin,
                    ..*game
                };
                dfpn.solve(&mut other, attacker, table, limits);
            }
            None => {
                let r = dfpn.solve(game, attacker, table, limits);
                assert_eq!(r.status, truth, "{context}");
            }
        }
        let mut memo = vec![0u64; 1 << 10];
        let mut bytes = Vec::new();
        let v = dfpn.certify(
            game,
            attacker,
            truth,
            table,
            &mut memo,
            "stones",
            &mut bytes,
            &mut Limits::nodes(10_000_000),
        );
        assert_eq!((game.at, game.stones), (0, stones), "restored");
        if misleading.is_some() && v.verdict != Verdict::Verified {
            return None; // the walk's searches over a misleading table may give up
        }
        assert_eq!(v.verdict, Verdict::Verified, "{context}");
        Some(proofnum_check::read(&bytes).unwrap_or_else(|e| panic!("{context}: {e}")))
    })
}

/// `proofnum-check`'s verdict on `cert` for (root, `stones`), with or without dominance.
fn check_stones(
    graph: &Graph,
    stones: u32,
    drops_first: bool,
    cert: &Certificate,
    dominance: bool,
    classes: Classes,
) -> Result<proofnum_check::Report, CheckError> {
    fn check<const DOM: bool>(
        mut game: Stones<'_, DOM>,
        cert: &Certificate,
    ) -> Result<proofnum_check::Report, CheckError> {
        proofnum_check::check(&mut game, "stones", cert, &Default::default())
    }
    if dominance {
        check(
            Stones::<true> {
                graph,
                at: 0,
                stones,
                drops_first,
                classes,
                needs: false,
            },
            cert,
        )
    } else {
        check(
            Stones::<false> {
                graph,
                at: 0,
                stones,
                drops_first,
                classes,
                needs: false,
            },
            cert,
        )
    }
}
