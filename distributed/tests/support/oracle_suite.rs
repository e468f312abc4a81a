//! The random-game oracle suite of the threaded solver (`tests/parallel_oracle.rs`), run by
//! the distributed solver: every game is solved for both attackers and for its value by a
//! coordinator and worker ranks, with tiny tables, job budgets and split thresholds so that
//! root trees grow and many jobs run at once, and the answers must equal brute-force minimax
//! (`tests/common`). Used by `tests/local_oracle.rs` (ranks as threads) and by
//! `examples/oracle_mpi.rs` (ranks as MPI processes); every rank draws the same games from the
//! same seed.

use std::time::Duration;

use proofnum::Table;
use proofnum::{DfpnConfig, Epsilon, Outcome, ParallelConfig, ParallelLimits, Player, Status};
use proofnum_mpi::{Coordinator, Link, Settings, serve};

use crate::common::{BY_POSITION, Graph, GraphGame, Rng, Shape};

const TABLE_BUCKETS: [usize; 4] = [1, 4, 64, 4096];
const MAX_DEPTH: usize = 64;
const MAX_MOVES: usize = 8;
/// A safety net: these games need far fewer nodes; hitting it means the search looped.
const NODE_CAP: u64 = 5_000_000;

/// What a run of the suite saw (on rank 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Games solved.
    pub games: usize,
    /// Games whose root tree grew beyond its root.
    pub trees_grown: usize,
    /// Jobs run.
    pub jobs: u64,
    /// Results refused as stale.
    pub stale: u64,
    /// Solved positions passed on between ranks.
    pub shared: u64,
}

/// The settings of game `i`: drawn from `rng`, so every rank draws the same.
fn settings(rng: &mut Rng, ranks: usize) -> Settings {
    let buckets = TABLE_BUCKETS[rng.below(TABLE_BUCKETS.len() as u64) as usize];
    let epsilon = if rng.chance(50) {
        Epsilon::ZERO
    } else {
        Epsilon::QUARTER
    };
    Settings {
        parallel: ParallelConfig {
            threads: 1 + rng.below(2) as usize,
            job_work: [1, 2, 5, 40][rng.below(4) as usize],
            split_work: [0, 1, 4, 30][rng.below(4) as usize],
            dfpn: DfpnConfig {
                epsilon,
                search_stale_entries: rng.chance(30),
                weak_delta: rng.chance(30),
                share_unsolved: false, // can loop: see DfpnConfig::share_unsolved
            },
            job_thresholds: rng.chance(50),
            max_depth: MAX_DEPTH,
            max_moves: MAX_MOVES,
        },
        table_bytes: Table::required_bytes(buckets),
        // With one rank the coordinator's own slots are the only ones.
        coordinator_threads: if ranks == 1 { 1 } else { rng.below(2) as usize },
        solved_per_job: [0, 4, 16][rng.below(3) as usize],
        // Every solved position is worth sharing here: the default (2^6 MID calls below it)
        // is more than these games' jobs of at most 40 ever spend, so nothing was shared.
        shared_min_work_log2: [0, 0, 2][rng.below(3) as usize],
        rank_timeout: Duration::from_secs(120),
        jobs_ahead: rng.below(2) as usize,
    }
}

/// Rank 0's checks of one game; the session is finished whatever happens, so the other ranks
/// never wait for a coordinator that gave up.
fn coordinate<L: Link, const RULE: u8>(
    link: &L,
    graph: &Graph,
    settings: Settings,
    context: &str,
    tally: &mut Tally,
) -> Result<(), String> {
    let expected = graph.oracle_value(RULE == BY_POSITION, context);
    let game = GraphGame::<RULE>::new(graph);
    let mut coordinator = Coordinator::new(link, settings).map_err(|e| e.to_string())?;
    let outcome = (|| {
        for attacker in [Player::First, Player::Second] {
            let mut limits = ParallelLimits {
                max_nodes: NODE_CAP,
                ..ParallelLimits::none()
            };
            let r = coordinator
                .solve(&game, attacker, &mut limits, None)
                .map_err(|e| format!("{context}: {e}"))?;
            let wins = graph.attacker_wins(expected, attacker);
            let want = if wins {
                Status::Proven
            } else {
                Status::Disproven
            };
            if r.status != want {
                return Err(format!(
                    "{context}: attacker {attacker:?}: {} but the oracle says {want} (value {expected:?})\n{graph:#?}",
                    r.status
                ));
            }
            tally.jobs += r.stats.search.jobs;
            tally.stale += r.stats.stale_results;
            tally.shared += r.stats.solved_forwarded;
            if r.stats.search.tree_nodes_peak > 1 {
                tally.trees_grown += 1;
            }
            let root = graph.node(graph.root);
            if wins && root.mover == attacker && root.outcome == Outcome::Unknown {
                let mv = r
                    .best_move
                    .ok_or_else(|| format!("{context}: a proven interior root without a move"))?;
                if (mv >> 32) as u32 != graph.root
                    || !graph.child_wins_for(mv as u32, attacker, RULE == BY_POSITION)
                {
                    return Err(format!(
                        "{context}: best move {mv:#x} does not win\n{graph:#?}"
                    ));
                }
            }
        }
        let v = coordinator
            .solve_value(&game, &mut ParallelLimits::none(), None)
            .map_err(|e| format!("{context}: {e}"))?;
        if v.value != Ok(expected) {
            return Err(format!(
                "{context}: solve_value {:?}, oracle {expected:?}\n{graph:#?}",
                v.value
            ));
        }
        Ok(())
    })();
    coordinator.finish();
    tally.games += 1;
    outcome
}

/// Runs `games` random games of `shape` under rule `RULE` on every rank of `link` (each rank
/// calls it with the same `seed`). Returns rank 0's tally, or the first disagreement.
pub fn run_shape<L: Link, const RULE: u8>(
    link: &L,
    shape: Shape,
    games: usize,
    seed: u64,
) -> Result<Tally, String> {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for i in 0..games {
        let graph = Graph::random_maybe_bounded(&mut rng, shape, RULE == BY_POSITION);
        let settings = settings(&mut rng, link.size());
        if link.rank() == 0 {
            let context = format!(
                "seed {seed} game {i} ({shape:?}, rule {RULE}, {} ranks, {settings:?})",
                link.size()
            );
            coordinate::<L, RULE>(link, &graph, settings, &context, &mut tally)?;
        } else {
            serve(link, &GraphGame::<RULE>::new(&graph), 1).map_err(|e| e.to_string())?;
        }
    }
    Ok(tally)
}
