//! A Connect Four suite (`games/suites/`) solved by the distributed solver: every rank reads the
//! file, and for each line rank 0 coordinates a solve of the position's value while the other
//! ranks run its jobs. Each answer must equal the sign of the line's score, which the
//! independent alpha-beta solver gave (`games/src/connect4/reference.rs`); a disagreement ends
//! every rank with exit code 1 (`MPI_Abort`).
//!
//! ```sh
//! cargo build --release -p proofnum-mpi --example c4suite_mpi
//! mpirun --oversubscribe -np 3 target/release/examples/c4suite_mpi games/suites/c4-late.txt
//! ```
//!
//! Options after the file: `--table-mib N` per rank (default 16), `--job-work N` (default
//! 1000: small jobs, so that these small positions grow root trees), `--split-work N` (default
//! 2000), `--share-solved N` (default 0), `--shared-min-work-log2 N` (default 6: positions with
//! at least 2^N MID calls below them are shared), `--jobs-ahead N` (default 0).

use std::time::{Duration, Instant};

use mpi::Threading;
use proofnum::{ParallelConfig, ParallelLimits};
use proofnum_games::connect4::suite;
use proofnum_mpi::{Coordinator, Link, MpiLink, Settings, serve};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().unwrap_or_else(|| usage());
    let mut settings = Settings {
        parallel: ParallelConfig {
            threads: 1,
            job_work: 1000,
            split_work: 2000,
            max_depth: 42,
            max_moves: 7,
            ..ParallelConfig::default()
        },
        table_bytes: 16 << 20,
        coordinator_threads: 0,
        solved_per_job: 0,
        shared_min_work_log2: proofnum_mpi::pool::MIN_SHARED_WORK_LOG2,
        rank_timeout: Duration::from_secs(120),
        jobs_ahead: 0,
    };
    while let Some(option) = args.next() {
        let value: u64 = args
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| usage());
        match option.as_str() {
            "--table-mib" => settings.table_bytes = (value as usize) << 20,
            "--job-work" => settings.parallel.job_work = value,
            "--split-work" => settings.parallel.split_work = value,
            "--share-solved" => settings.solved_per_job = value as usize,
            "--shared-min-work-log2" => {
                settings.shared_min_work_log2 = u8::try_from(value).unwrap_or_else(|_| usage())
            }
            "--jobs-ahead" => settings.jobs_ahead = value as usize,
            _ => usage(),
        }
    }
    let (universe, _) =
        mpi::initialize_with_threading(Threading::Funneled).expect("MPI initialises once");
    let link = MpiLink::new(&universe);
    if link.size() == 1 {
        settings.coordinator_threads = 1;
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("c4suite_mpi: {file}: {e}");
        link.abort(2)
    });
    let lines = suite::parse(&text).unwrap_or_else(|e| {
        eprintln!("c4suite_mpi: {file}: {e}");
        link.abort(2)
    });
    let start = Instant::now();
    let (mut mid_calls, mut jobs, mut grown, mut shared) = (0u64, 0u64, 0usize, 0u64);
    for line in &lines {
        let game = line.position().expect("parse checked the positions");
        if link.rank() != 0 {
            if let Err(e) = serve(&link, &game, 1) {
                eprintln!("c4suite_mpi: rank {}: {e}", link.rank());
                link.abort(1);
            }
            continue;
        }
        let mut coordinator = Coordinator::new(&link, settings).unwrap_or_else(|e| {
            eprintln!("c4suite_mpi: {e}");
            link.abort(1)
        });
        let r = coordinator.solve_value(&game, &mut ParallelLimits::none(), None);
        coordinator.finish();
        match r {
            Ok(r) if r.value == Ok(line.value()) => {
                mid_calls += r.stats.search.mid_calls;
                jobs += r.stats.search.jobs;
                grown += (r.stats.search.tree_nodes_peak > 1) as usize;
                shared += r.stats.solved_forwarded;
            }
            Ok(r) => {
                eprintln!(
                    "c4suite_mpi: {line}: {:?}, but the alpha-beta score says {:?}",
                    r.value,
                    line.value()
                );
                link.abort(1);
            }
            Err(e) => {
                eprintln!("c4suite_mpi: {line}: {e}");
                link.abort(1);
            }
        }
    }
    if link.rank() == 0 {
        println!(
            "{file}: {} lines agree with the alpha-beta scores on {} ranks ({} MID calls, {} jobs, \
             {grown} root trees grew, {shared} solved positions passed on, {:.1} s)",
            lines.len(),
            link.size(),
            mid_calls,
            jobs,
            start.elapsed().as_secs_f64()
        );
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: c4suite_mpi FILE [--table-mib N] [--job-work N] [--split-work N] [--share-solved N] \
         [--shared-min-work-log2 N] [--jobs-ahead N]"
    );
    std::process::exit(2)
}
