//! The distributed solver against brute force on random games, with the ranks as threads of
//! this process ([`LocalLink`]): the same suite as `examples/oracle_mpi.rs` runs under
//! `mpirun` in `scripts/tests/`, here without MPI. Three and five ranks, tiny tables and job
//! budgets; the seed is fresh each run and printed on failure (`PROOFNUM_SEED=<seed>`
//! reproduces the games, not the thread timing).

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "support/oracle_suite.rs"]
mod oracle_suite;

use common::{ACYCLIC, BY_POSITION, DRAW, Shape};
use oracle_suite::{Tally, run_shape};
use proofnum_mpi::{Link, LocalLink};

/// Runs `run` on every rank of `ranks` local ranks: rank 0 on this thread (its error fails the
/// test), the others on threads of their own that are left behind if rank 0 gives up.
fn on_ranks(ranks: usize, run: fn(&LocalLink, u64) -> Result<Tally, String>) -> Tally {
    let seed = common::seed();
    let mut links = LocalLink::connect(ranks).into_iter();
    let coordinator = links.next().expect("rank 0");
    let workers: Vec<_> = links
        .map(|link| std::thread::spawn(move || run(&link, seed)))
        .collect();
    let tally = run(&coordinator, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    eprintln!("{ranks} ranks: {tally:?}");
    for w in workers {
        w.join()
            .expect("a worker rank panicked")
            .expect("a worker rank failed");
    }
    assert_eq!(coordinator.rank(), 0);
    tally
}

fn trees_and_dags(link: &LocalLink, seed: u64) -> Result<Tally, String> {
    let mut t = run_shape::<_, ACYCLIC>(link, Shape::Tree, 120, seed ^ 201)?;
    let d = run_shape::<_, DRAW>(link, Shape::Dag, 120, seed ^ 202)?;
    t.games += d.games;
    t.trees_grown += d.trees_grown;
    t.jobs += d.jobs;
    t.shared += d.shared;
    Ok(t)
}

fn cyclic(link: &LocalLink, seed: u64) -> Result<Tally, String> {
    let mut t = run_shape::<_, DRAW>(link, Shape::Cyclic, 120, seed ^ 203)?;
    let p = run_shape::<_, BY_POSITION>(link, Shape::Cyclic, 120, seed ^ 204)?;
    t.games += p.games;
    t.trees_grown += p.trees_grown;
    t.jobs += p.jobs;
    t.shared += p.shared;
    Ok(t)
}

#[test]
fn random_trees_and_dags_match_brute_force_on_three_ranks() {
    let t = on_ranks(3, trees_and_dags);
    assert_eq!(t.games, 240);
    assert!(t.trees_grown > t.games / 8, "root trees should grow: {t:?}");
    assert!(
        t.shared > 0,
        "solved positions should pass between ranks: {t:?}"
    );
}

#[test]
fn random_cyclic_graphs_match_brute_force_on_five_ranks() {
    let t = on_ranks(5, cyclic);
    assert_eq!(t.games, 240);
    assert!(t.trees_grown > t.games / 8, "root trees should grow: {t:?}");
    // Under the draw and position rules, where a solved result may hold on its path only.
    assert!(
        t.shared > 0,
        "solved positions should pass between ranks: {t:?}"
    );
}

#[test]
fn one_rank_solves_with_the_coordinators_own_threads() {
    let t = on_ranks(1, trees_and_dags);
    assert_eq!(t.games, 240);
}
