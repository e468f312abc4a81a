//! What a resumed rank loads: the table file a worker rank wrote beside a checkpoint
//! (`PATH.rankN`) is used only for the solve that checkpoint is of. A file left there by another
//! solve (another game whose positions hash alike, written by a run with more ranks, or when the
//! latest write failed) would make the rank believe that solve's results: here it would turn a
//! loss into a win. Ranks are threads of this process ([`LocalLink`]); the answers are checked
//! against brute force (`tests/common`).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::time::Duration;

use common::{ACYCLIC, Graph, GraphGame, Node, Shape};
use proofnum::{
    Game, MoveCodec, Outcome, ParallelConfig, ParallelLimits, Player, Status, Table, Value,
};
use proofnum_mpi::{CheckpointPlan, Coordinator, LocalLink, Settings, serve};

/// A line of three moves: First, Second, then First chooses between two positions with
/// `outcome` for their mover (Second). Every node's hash is its index, as in games that hash
/// poorly: two such graphs share every hash.
fn line(outcome: Outcome) -> Graph {
    let node = |mover, outcome, children: Vec<u32>, hash| Node {
        mover,
        outcome,
        children,
        repetition: Value::Draw,
        estimate: None,
        hash,
        bound: None,
    };
    Graph {
        shape: Shape::Tree,
        nodes: vec![
            node(Player::First, Outcome::Unknown, vec![1], 0),
            node(Player::Second, Outcome::Unknown, vec![2], 1),
            node(Player::First, Outcome::Unknown, vec![3, 4], 2),
            node(Player::Second, outcome, vec![], 3),
            node(Player::Second, outcome, vec![], 4),
        ],
        root: 0,
        no_moves: Value::Loss,
    }
}

fn settings(coordinator_threads: usize) -> Settings {
    Settings {
        parallel: ParallelConfig {
            threads: 1,
            job_work: 1,
            split_work: 0,
            max_depth: 8,
            max_moves: 4,
            ..ParallelConfig::default()
        },
        table_bytes: Table::required_bytes(64),
        coordinator_threads,
        solved_per_job: 0,
        ..Settings::default()
    }
}

/// Rank 0's link, the others serving `game` on threads of their own.
fn workers<G>(ranks: usize, game: &G) -> LocalLink
where
    G: Game + MoveCodec + Clone + Send + Sync + 'static,
{
    let mut links = LocalLink::connect(ranks).into_iter();
    let coordinator = links.next().expect("rank 0");
    for link in links {
        let game = game.clone();
        std::thread::spawn(move || serve(&link, &game, 1));
    }
    coordinator
}

fn plan(path: &Path, label: &str, every: Option<Duration>) -> CheckpointPlan {
    CheckpointPlan {
        path: path.to_path_buf(),
        every,
        label: label.into(),
        announce: false,
        trigger: None,
    }
}

#[test]
fn a_rank_file_of_another_solve_is_not_loaded() {
    // First wins `won` (its last choice is between two positions lost for Second) and loses
    // `lost`; the positions hash alike.
    let won: &'static Graph = Box::leak(Box::new(line(Outcome::Loss)));
    let lost: &'static Graph = Box::leak(Box::new(line(Outcome::Win)));
    for (graph, wins) in [(won, true), (lost, false)] {
        assert_eq!(
            graph.attacker_wins(graph.oracle_value(false, "line"), Player::First),
            wins
        );
    }
    let dir = std::env::temp_dir().join(format!("pnmpi-{}-rank-files", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("solve.ck");

    // 1. `won` on two ranks, checkpointed all along: rank 1's table, holding `won`'s results,
    // is left beside the checkpoint as solve.ck.rank1.
    let game = GraphGame::<ACYCLIC>::new(won);
    let link = workers(2, &game);
    let mut c = Coordinator::new(&link, settings(0))
        .unwrap()
        .with_checkpoints(plan(&path, "won", Some(Duration::ZERO)));
    let r = c
        .solve(&game, Player::First, &mut ParallelLimits::none(), None)
        .unwrap();
    assert_eq!(r.status, Status::Proven);
    assert!(r.stats.checkpoints.0 > 0);
    c.finish();
    assert!(dir.join("solve.ck.rank1").exists());

    // 2. `lost` on rank 0 alone, stopped after its first job: solve.ck is now `lost`'s, and
    // the rank file beside it is still `won`'s.
    let game = GraphGame::<ACYCLIC>::new(lost);
    let link = workers(1, &game);
    let mut c = Coordinator::new(&link, settings(1))
        .unwrap()
        .with_checkpoints(plan(&path, "lost", None));
    let mut limits = ParallelLimits {
        max_work: 1,
        ..ParallelLimits::none()
    };
    let r = c.solve(&game, Player::First, &mut limits, None).unwrap();
    assert!(matches!(r.status, Status::Unknown(_)), "{:?}", r.status);
    c.finish();

    // 3. `lost` resumed on two ranks: rank 1 must not take `won`'s table for its own.
    let checkpoint = proofnum_mpi::Checkpoint::read(&path).unwrap();
    let link = workers(2, &game);
    let mut c = Coordinator::new(&link, settings(0))
        .unwrap()
        .with_checkpoints(plan(&path, "lost", None));
    let r = c
        .solve(
            &game,
            Player::First,
            &mut ParallelLimits::none(),
            Some(&checkpoint),
        )
        .unwrap();
    c.finish();
    assert_eq!(r.status, Status::Disproven, "First loses `lost`");
    let _ = std::fs::remove_dir_all(&dir);
}
