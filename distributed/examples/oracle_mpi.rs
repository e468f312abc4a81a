//! The random-game oracle suite under MPI: every rank draws the same random games (rank 0
//! picks the seed and sends it), rank 0 coordinates, the others serve, and every answer must
//! equal brute force (`tests/common`). A disagreement or an error is printed with the seed and
//! ends every rank (`MPI_Abort`, exit code 1).
//!
//! ```sh
//! cargo build --release -p proofnum-mpi --example oracle_mpi
//! mpirun --oversubscribe -np 3 target/release/examples/oracle_mpi --games 200
//! ```
//!
//! `--games N` per shape and rule (default 200); `PROOFNUM_SEED=<seed>` repeats a run's games.

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../tests/support/oracle_suite.rs"]
mod oracle_suite;

use std::time::{Duration, Instant};

use common::{ACYCLIC, BY_POSITION, DRAW, Shape};
use mpi::Threading;
use oracle_suite::{Tally, run_shape};
use proofnum_mpi::{Link, MpiLink};

/// One part of the suite: (link, games, seed) to rank 0's tally.
type Suite = fn(&MpiLink, usize, u64) -> Result<Tally, String>;

fn main() {
    let mut games = 200;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--games", Some(n)) => games = n.parse().expect("--games takes a count"),
            _ => {
                eprintln!("usage: oracle_mpi [--games N]");
                std::process::exit(2);
            }
        }
    }
    let (universe, _) =
        mpi::initialize_with_threading(Threading::Funneled).expect("MPI initialises once");
    let link = MpiLink::new(&universe);
    let seed = if link.rank() == 0 {
        let seed = common::seed();
        for rank in 1..link.size() {
            link.send(rank, &[seed]);
        }
        seed
    } else {
        loop {
            if let Some((0, words)) = link.receive(Duration::from_secs(1)) {
                break words[0];
            }
        }
    };
    let start = Instant::now();
    let runs: [(&str, Suite); 5] = [
        ("trees, acyclic", |l, g, s| {
            run_shape::<_, ACYCLIC>(l, Shape::Tree, g, s ^ 301)
        }),
        ("trees, draw rule", |l, g, s| {
            run_shape::<_, DRAW>(l, Shape::Tree, g, s ^ 302)
        }),
        ("DAGs, draw rule", |l, g, s| {
            run_shape::<_, DRAW>(l, Shape::Dag, g, s ^ 303)
        }),
        ("cyclic, draw rule", |l, g, s| {
            run_shape::<_, DRAW>(l, Shape::Cyclic, g, s ^ 304)
        }),
        ("cyclic, position rule", |l, g, s| {
            run_shape::<_, BY_POSITION>(l, Shape::Cyclic, g, s ^ 305)
        }),
    ];
    let mut total = Tally::default();
    for (name, run) in runs {
        match run(&link, games, seed) {
            Ok(t) => {
                if link.rank() == 0 {
                    println!(
                        "{name}: {} games, {} searches grew a root tree, {} jobs, {} solved positions passed on, {} stale results, 0 disagreements",
                        t.games, t.trees_grown, t.jobs, t.shared, t.stale
                    );
                }
                total.games += t.games;
                total.trees_grown += t.trees_grown;
                total.shared += t.shared;
            }
            Err(e) => {
                eprintln!("oracle_mpi: seed {seed}: {e}");
                link.abort(1);
            }
        }
    }
    if link.rank() == 0 {
        println!(
            "{} ranks: {} games agree with brute force (seed {seed}, {:.1} s)",
            link.size(),
            total.games,
            start.elapsed().as_secs_f64()
        );
        if total.trees_grown <= total.games / 8 {
            eprintln!(
                "oracle_mpi: too few root trees grew ({} of {})",
                total.trees_grown, total.games
            );
            link.abort(1);
        }
        if total.shared == 0 {
            eprintln!("oracle_mpi: no solved position passed between ranks");
            link.abort(1);
        }
    }
}
