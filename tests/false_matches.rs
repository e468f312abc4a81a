//! No wrong answer from a false match: every engine's confirmed answers against the
//! brute-force oracle on random games.
//!
//! Built with `RUSTFLAGS="--cfg proofnum_narrow_check"` (as `.ci/run` does, in release, with
//! `PROOFNUM_FALSE_MATCH_GAMES` games per engine), the table matches entries on 8 check bits,
//! solved ones included, so false matches happen every few hundred probes: the engines'
//! unconfirmed answers are then sometimes wrong (the test requires that some are, so the
//! narrow check has teeth), and their confirmed answers (`solve_confirmed`,
//! `solve_value_confirmed`) must never be: right or unknown. In a normal build the same games
//! run as one more oracle suite, where every answer, confirmed or not, must be right.
//!
//! Games: random trees, DAGs and cyclic graphs under every repetition rule, with true bounds in
//! some; engines: df-pn, PNS, PN² and the parallel solver with two threads; tables of 1 to 4096
//! buckets, the confirmed search sometimes over the table the unconfirmed one left (with its
//! wrong entries) and sometimes over a fresh one. The seed is fresh each run and printed on
//! failure (`PROOFNUM_SEED=<seed>` reproduces it).

mod common;

use common::{ACYCLIC, BY_POSITION, DRAW, Graph, GraphGame, Rng, Shape};
use proofnum::{
    Dfpn, DfpnConfig, Limits, ParallelConfig, ParallelLimits, ParallelSolver, Player, Pns,
    PnsConfig, SearchResult, Status, Value,
};
use proofnum::{SharedTable, Table};

const MAX_DEPTH: usize = 48;
const MAX_MOVES: usize = 8;
const TABLE_BUCKETS: [usize; 4] = [1, 4, 64, 4096];
const ARENA_NODES: usize = 1 << 14;
/// Each search's node budget: false matches can make a search wander (it then ends unknown).
const NODE_CAP: u64 = 2_000_000;
/// The walk's memo, two words a position.
const MEMO_WORDS: usize = 1 << 10;

/// From this many games on, the narrow check must have made some unconfirmed answer wrong
/// (about one game in 500 gets one with PN², the fewest).
const BITE_GAMES: u64 = 5_000;

/// Games per engine (the parallel solver gets a quarter): `PROOFNUM_FALSE_MATCH_GAMES`, else
/// a few hundred.
fn games_per_engine() -> usize {
    std::env::var("PROOFNUM_FALSE_MATCH_GAMES")
        .map(|s| {
            s.parse()
                .expect("PROOFNUM_FALSE_MATCH_GAMES must be a number")
        })
        .unwrap_or(300)
}

#[derive(Default, Debug)]
struct Tally {
    games: u64,
    /// Unconfirmed answers (each attacker's search) that were wrong.
    raw_wrong: u64,
    raw_answers: u64,
    /// Confirmed answers: right, unknown (never wrong: the test fails first).
    right: u64,
    unknown: u64,
    /// Refutations the confirmations met (each followed by a search over new keys).
    refutations: u64,
}

impl Tally {
    fn raw(&mut self, status: Status, want: Status) {
        if status != Status::Unknown(proofnum::Reason::NodeLimit) {
            self.raw_answers += 1;
            self.raw_wrong += u64::from(status != want);
        }
    }

    fn confirmed(&mut self, status: Status, want: Status, context: &str) {
        match status {
            Status::Unknown(_) => self.unknown += 1,
            s => {
                assert_eq!(s, want, "{context}: a confirmed answer is wrong");
                self.right += 1;
            }
        }
    }

    fn confirmed_value(
        &mut self,
        value: Result<Value, proofnum::Reason>,
        want: Value,
        context: &str,
    ) {
        match value {
            Err(_) => self.unknown += 1,
            Ok(v) => {
                assert_eq!(v, want, "{context}: a confirmed value is wrong");
                self.right += 1;
            }
        }
    }
}

fn want(graph: &Graph, expected: Value, attacker: Player) -> Status {
    if graph.attacker_wins(expected, attacker) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

/// df-pn: unconfirmed, then confirmed (over the same table or a fresh one), then the value.
fn dfpn_game<const RULE: u8>(
    graph: &Graph,
    expected: Value,
    rng: &mut Rng,
    t: &mut Tally,
    c: &str,
) {
    let buckets = TABLE_BUCKETS[rng.below(4) as usize];
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
            .unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let mut memo = vec![0u64; MEMO_WORDS];
    for attacker in [Player::First, Player::Second] {
        let w = want(graph, expected, attacker);
        let r = dfpn.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(NODE_CAP),
        );
        t.raw(r.status, w);
        if rng.chance(30) {
            table.clear();
        }
        let r = dfpn.solve_confirmed(
            &mut game,
            attacker,
            &mut table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        t.refutations += r.stats.refutations;
        t.confirmed(
            r.status,
            w,
            &format!("{c}: df-pn, {attacker:?}, {buckets} buckets"),
        );
        assert_eq!(game.at, graph.root, "{c}: restored");
    }
    let v = dfpn.solve_value_confirmed(
        &mut game,
        &mut table,
        &mut memo,
        &mut Limits::nodes(NODE_CAP),
    );
    t.refutations += v.stats.refutations;
    t.confirmed_value(
        v.value,
        expected,
        &format!("{c}: df-pn value, {buckets} buckets"),
    );
}

/// PNS or PN² (`second_level` nodes), confirmed by a df-pn walker over the same table.
fn pns_game<const RULE: u8>(
    graph: &Graph,
    expected: Value,
    second_level: usize,
    rng: &mut Rng,
    t: &mut Tally,
    c: &str,
) {
    let buckets = TABLE_BUCKETS[rng.below(4) as usize];
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let config = if second_level == 0 {
        PnsConfig::PNS
    } else {
        PnsConfig::pn2(second_level)
    };
    let bytes = Pns::<GraphGame<RULE>>::required_bytes(ARENA_NODES, MAX_DEPTH, MAX_MOVES, config);
    let mut arena = vec![0u8; bytes];
    let mut pns = Pns::<GraphGame<RULE>>::new(&mut arena, MAX_DEPTH, MAX_MOVES, config).unwrap();
    let mut stack = vec![0u8; Dfpn::<GraphGame<RULE>>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut walker =
        Dfpn::<GraphGame<RULE>>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
            .unwrap();
    let mut game = GraphGame::<RULE>::new(graph);
    let mut memo = vec![0u64; MEMO_WORDS];
    let engine = if second_level == 0 { "PNS" } else { "PN²" };
    for attacker in [Player::First, Player::Second] {
        let w = want(graph, expected, attacker);
        let r: SearchResult<u64> = pns.solve(
            &mut game,
            attacker,
            &mut table,
            &mut Limits::nodes(NODE_CAP),
        );
        t.raw(r.status, w);
        let r = pns.solve_confirmed(
            &mut walker,
            &mut game,
            attacker,
            &mut table,
            &mut memo,
            &mut Limits::nodes(NODE_CAP),
        );
        t.refutations += r.stats.refutations;
        t.confirmed(
            r.status,
            w,
            &format!("{c}: {engine}, {attacker:?}, {buckets} buckets"),
        );
        assert_eq!(game.at, graph.root, "{c}: restored");
    }
    let v = pns.solve_value_confirmed(
        &mut walker,
        &mut game,
        &mut table,
        &mut memo,
        &mut Limits::nodes(NODE_CAP),
    );
    t.refutations += v.stats.refutations;
    t.confirmed_value(v.value, expected, &format!("{c}: {engine} value"));
}

/// The parallel solver with two threads over a shared table.
fn parallel_game<const RULE: u8>(
    graph: &Graph,
    expected: Value,
    rng: &mut Rng,
    t: &mut Tally,
    c: &str,
) {
    let buckets = TABLE_BUCKETS[rng.below(4) as usize];
    let mut table_memory = vec![0u8; Table::required_bytes(buckets)];
    let mut table = SharedTable::new(&mut table_memory).unwrap();
    let solver = ParallelSolver::new(ParallelConfig {
        threads: 2,
        job_work: [5, 40, 200][rng.below(3) as usize],
        max_depth: MAX_DEPTH,
        max_moves: MAX_MOVES,
        ..ParallelConfig::default()
    })
    .unwrap();
    let game = GraphGame::<RULE>::new(graph);
    let mut memo = vec![0u64; MEMO_WORDS];
    let limits = || ParallelLimits {
        max_nodes: NODE_CAP,
        ..ParallelLimits::none()
    };
    for attacker in [Player::First, Player::Second] {
        let w = want(graph, expected, attacker);
        let r = solver.solve(&game, attacker, &table, &mut limits());
        t.raw(r.status, w);
        let r = solver.solve_confirmed(&game, attacker, &mut table, &mut memo, &mut limits());
        t.refutations += r.stats.refutations;
        t.confirmed(
            r.status,
            w,
            &format!("{c}: parallel, {attacker:?}, {buckets} buckets"),
        );
    }
    let v = solver.solve_value_confirmed(&game, &mut table, &mut memo, &mut limits());
    t.refutations += v.stats.refutations;
    t.confirmed_value(v.value, expected, &format!("{c}: parallel value"));
}

/// Plays one game: the graph, its oracle value, the repetition rule, the run's generator, the
/// tally, the context for messages.
type Engine<'a> = dyn FnMut(&Graph, Value, u8, &mut Rng, &mut Tally, &str) + 'a;

/// Runs `engine` on `games` random games of every shape and rule.
fn run(name: &str, games: usize, engine: &mut Engine<'_>) -> Tally {
    let seed = common::seed();
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for i in 0..games {
        let shape = [Shape::Tree, Shape::Dag, Shape::Cyclic][i % 3];
        let rule = match (shape, rng.below(3)) {
            (Shape::Cyclic, 0) => DRAW,
            (_, 0) => ACYCLIC,
            (_, 1) => DRAW,
            _ => BY_POSITION,
        };
        let graph = Graph::random_maybe_bounded(&mut rng, shape, rule == BY_POSITION);
        let context = format!("seed {seed}, {name} game {i} ({shape:?}, rule {rule})");
        let expected = graph.oracle_value(rule == BY_POSITION, &context);
        engine(&graph, expected, rule, &mut rng, &mut tally, &context);
        tally.games += 1;
    }
    println!("{name}: {tally:?}");
    let narrow = cfg!(proofnum_narrow_check);
    if narrow && tally.games >= BITE_GAMES {
        // The narrow check must bite, or this suite proves nothing.
        assert!(
            tally.raw_wrong > 0,
            "{name}: no unconfirmed answer was wrong: {tally:?}"
        );
    } else if !narrow {
        assert_eq!(
            tally.raw_wrong, 0,
            "{name}: a wrong answer without false matches: {tally:?}"
        );
    }
    // Unknown is allowed, but confirmation must not give up on most answers.
    assert!(
        tally.unknown * 10 <= tally.right,
        "{name}: too many unknowns: {tally:?}"
    );
    tally
}

macro_rules! by_rule {
    ($f:ident, $rule:expr, $($arg:expr),*) => {
        match $rule {
            ACYCLIC => $f::<ACYCLIC>($($arg),*),
            DRAW => $f::<DRAW>($($arg),*),
            _ => $f::<BY_POSITION>($($arg),*),
        }
    };
}

#[test]
fn dfpn_confirmed_answers_are_never_wrong() {
    run("df-pn", games_per_engine(), &mut |g, v, rule, rng, t, c| {
        by_rule!(dfpn_game, rule, g, v, rng, t, c)
    });
}

#[test]
fn pns_confirmed_answers_are_never_wrong() {
    run("PNS", games_per_engine(), &mut |g, v, rule, rng, t, c| {
        by_rule!(pns_game, rule, g, v, 0, rng, t, c)
    });
}

#[test]
fn pn2_confirmed_answers_are_never_wrong() {
    run("PN²", games_per_engine(), &mut |g, v, rule, rng, t, c| {
        by_rule!(pns_game, rule, g, v, 64, rng, t, c)
    });
}

#[test]
fn parallel_confirmed_answers_are_never_wrong() {
    // Thread starts and job hand-offs make each game cost milliseconds: a quarter as many.
    run(
        "parallel",
        games_per_engine() / 4,
        &mut |g, v, rule, rng, t, c| by_rule!(parallel_game, rule, g, v, rng, t, c),
    );
}
