//! What one coordinator costs, measured, and how many job slots it keeps busy (the figures of
//! `docs/src/scale-out.md`):
//!
//! 1. **Job sizes**: a real distributed solve in this process (ranks as threads over
//!    `LocalLink`: the coordinator and one worker rank with one job slot) of a Connect Four
//!    position at several job budgets; the durations of its jobs.
//! 2. **The coordinator's cost per operation**: the scheduler alone (`next_job` and
//!    `hand_in`) on a synthetic root tree as it grows to a million nodes, and encoding and
//!    decoding the two messages of a job.
//! 3. **A simulation**: W job slots whose jobs take the measured durations, one coordinator
//!    that takes each result in and hands the slot its next job at the measured cost per
//!    operation, messages that take a network latency; prints the slots' busy share and the
//!    coordinator's.
//!
//! ```sh
//! cargo run --release -p proofnum-mpi --example coordinator_bench
//! cargo run --release -p proofnum-mpi --example coordinator_bench -- --position 4453 --op-us 4.4
//! ```
//!
//! `--position P` (Connect Four, default 12345), `--op-us X` (the cost per coordinator
//! operation the simulation uses; default: the one measured in part 1, which includes the
//! messages' encoding, the tree and the sends), `--latency-us X` (one-way message latency;
//! default: the simulation runs 2 and 50).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::{Duration, Instant};

use proofnum::parallel::{JobReport, Next, Ticket};
use proofnum::{Game, Numbers, ParallelConfig, ParallelLimits, Reason, Scheduler, Stats, Status};
use proofnum_games::connect4::ConnectFour;
use proofnum_mpi::wire::{JobDone, JobOrder, Message};
use proofnum_mpi::{Coordinator, LocalLink, Settings, serve};
use proofnum_test_support::Rng;

/// Part 1: one solve of `position` with jobs of `job_work` MID calls; returns the job
/// durations' histogram (log2 µs), the mean job time, and the coordinator's µs per operation.
fn job_sizes(position: &str, job_work: u64) -> ([u64; 32], f64, f64) {
    let game = ConnectFour::from_moves(position).expect("a Connect Four position");
    let mut links = LocalLink::connect(2).into_iter();
    let coordinator_link = links.next().expect("rank 0");
    let worker = links.next().expect("rank 1");
    let worker_game = game;
    let handle = std::thread::spawn(move || serve(&worker, &worker_game, 1));
    let settings = Settings {
        parallel: ParallelConfig {
            threads: 1,
            job_work,
            split_work: 2 * job_work,
            max_depth: 42,
            max_moves: 7,
            ..ParallelConfig::default()
        },
        table_bytes: 64 << 20,
        ..Settings::default()
    };
    let mut c = Coordinator::new(&coordinator_link, settings).expect("a coordinator");
    // The side to move's question, as parallel_bench asks it.
    let attacker = game.side_to_move();
    let r = c
        .solve(&game, attacker, &mut ParallelLimits::none(), None)
        .expect("the solve runs");
    c.finish();
    handle
        .join()
        .expect("the worker")
        .expect("the worker serves");
    let s = &r.stats;
    let jobs = s.search.jobs.max(1);
    let busy: u64 = s.ranks.iter().map(|r| r.busy_ns).sum();
    let op_us = s.coordinator_busy.as_secs_f64() * 1e6 / s.coordinator_ops.max(1) as f64;
    println!(
        "  jobs of {job_work:>6} MID calls: {:>5} jobs, mean {:>8.0} µs, {} ({}); coordinator {:.2} µs per operation",
        jobs,
        busy as f64 / 1e3 / jobs as f64,
        r.status,
        s.search.mid_calls,
        op_us
    );
    (s.job_micros_log2, busy as f64 / 1e3 / jobs as f64, op_us)
}

/// Part 2: the scheduler's own cost on a synthetic tree (every result unsolved, with 7
/// children, so the tree grows by 7 nodes a job) with `in_flight` jobs running, until the
/// tree has a million nodes or `max_jobs` jobs have come back.
fn scheduler_cost(in_flight: usize, max_jobs: u64) {
    let config = ParallelConfig {
        split_work: 0,
        ..ParallelConfig::default()
    };
    let mut limits = ParallelLimits::none();
    let mut s: Scheduler<'_, u8> = Scheduler::new(&config, true, &mut limits);
    let mut rng = Rng::new(7);
    let mut path = Vec::new();
    let mut running: VecDeque<Ticket> = VecDeque::new();
    let mut children = Vec::new();
    let (mut done, mut window_ops, mut window) = (0u64, 0u64, Duration::ZERO);
    let mut next_report = 1_000usize;
    println!("  tree nodes    jobs    ns per operation (next_job or hand_in)");
    while done < max_jobs {
        let started = Instant::now();
        while running.len() < in_flight {
            match s.next_job(&mut path) {
                Next::Job(a) => running.push_back(a.ticket),
                Next::Busy | Next::Over => break,
            }
            window_ops += 1;
        }
        let Some(ticket) = running.pop_front() else {
            break;
        };
        children.clear();
        for mv in 0..7u8 {
            let n = Numbers::new(1 + rng.below(40) as u32, 1 + rng.below(40) as u32);
            children.push((mv, n, true));
        }
        let numbers = Numbers::new(1 + rng.below(40) as u32, 1 + rng.below(200) as u32);
        let report = JobReport {
            status: Status::Unknown(Reason::WorkLimit),
            numbers,
            best_move: None,
            stats: Stats {
                mid_calls: 1,
                ..Stats::default()
            },
            children: &children,
        };
        s.hand_in(ticket, &report);
        window_ops += 1;
        window += started.elapsed();
        done += 1;
        if s.is_over() {
            break;
        }
        if s.tree_nodes() >= next_report {
            println!(
                "  {:>10} {:>7}    {:>6.0}",
                s.tree_nodes(),
                done,
                window.as_nanos() as f64 / window_ops as f64
            );
            (window_ops, window) = (0, Duration::ZERO);
            next_report *= 10;
            if next_report > 1_000_000 {
                break;
            }
        }
    }
}

/// Part 2b: encoding and decoding a job's two messages (`path` moves, `children` children).
fn message_cost(path: usize, children: usize) -> (usize, usize, f64) {
    let job = Message::Job(JobOrder {
        epoch: 1,
        slot: 0,
        ticket: (12, 345),
        threshold: Numbers::new(40, 90),
        max_work: 20_000,
        max_nodes: u64::MAX,
        max_time_us: u64::MAX,
        path: (0..path as u64).map(|i| i % 7).collect(),
        solved: Vec::new(),
    });
    let done = Message::Done(JobDone {
        epoch: 1,
        slot: 0,
        ticket: (12, 345),
        status: Status::Unknown(Reason::Thresholds),
        numbers: Numbers::new(40, 91),
        best_move: Some(3),
        stats: Stats::default(),
        busy_ns: 7_000_000,
        children: (0..children as u64)
            .map(|c| (c, Numbers::new(9, 9), true))
            .collect(),
        solved: Vec::new(),
    });
    let rounds = 100_000;
    let started = Instant::now();
    let mut sink = 0usize;
    for _ in 0..rounds {
        let words = std::hint::black_box(&job).encode();
        sink += Message::decode(&words).is_ok() as usize;
        let words = std::hint::black_box(&done).encode();
        sink += Message::decode(&words).is_ok() as usize;
    }
    assert_eq!(sink, 2 * rounds);
    let ns = started.elapsed().as_nanos() as f64 / rounds as f64;
    (8 * job.encode().len(), 8 * done.encode().len(), ns)
}

/// Part 3: W slots with jobs drawn from `histogram`, one coordinator at `op_us` per operation
/// (taking a result in, handing a job out), `latency_us` one way; returns (slots' busy share,
/// coordinator's busy share) over `jobs` jobs.
fn simulate(
    histogram: &[u64; 32],
    slots: usize,
    op_us: f64,
    latency_us: f64,
    jobs: u64,
) -> (f64, f64) {
    let total: u64 = histogram.iter().sum();
    let mut rng = Rng::new(11);
    let draw = |rng: &mut Rng| -> f64 {
        let mut pick = rng.below(total);
        let bucket = histogram
            .iter()
            .position(|&c| {
                if pick < c {
                    true
                } else {
                    pick -= c;
                    false
                }
            })
            .unwrap_or(0);
        let low = (1u64 << bucket) as f64;
        low + (rng.below(1 << 20) as f64 / (1 << 20) as f64) * low
    };
    // Events: (time in ns, slot) when a slot's result reaches the coordinator.
    let mut arrivals: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let (op, latency) = ((op_us * 1e3) as u64, (latency_us * 1e3) as u64);
    let mut busy_ns = 0f64;
    // Every slot gets its first job from the coordinator, one after another.
    let mut coordinator_free = 0u64;
    for slot in 0..slots {
        coordinator_free += op;
        let d = draw(&mut rng) * 1e3;
        busy_ns += d;
        arrivals.push(Reverse((
            coordinator_free + latency + d as u64 + latency,
            slot,
        )));
    }
    let mut coordinator_busy = slots as u64 * op;
    let mut finished = 0u64;
    let mut end = 0u64;
    while let Some(Reverse((at, slot))) = arrivals.pop() {
        finished += 1;
        end = end.max(at);
        if finished >= jobs {
            break;
        }
        // Take the result in, then hand this slot its next job.
        let start = coordinator_free.max(at);
        coordinator_free = start + 2 * op;
        coordinator_busy += 2 * op;
        let d = draw(&mut rng) * 1e3;
        busy_ns += d;
        arrivals.push(Reverse((
            coordinator_free + latency + d as u64 + latency,
            slot,
        )));
    }
    let end = end.max(1) as f64;
    (
        (busy_ns / (slots as f64 * end)).min(1.0),
        coordinator_busy as f64 / end,
    )
}

fn main() {
    let mut position = "12345".to_string();
    let mut op_us: Option<f64> = None;
    let mut latencies = vec![2.0, 50.0];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--position" => position = v,
            "--op-us" => op_us = Some(v.parse().expect("--op-us X")),
            "--latency-us" => latencies = vec![v.parse().expect("--latency-us X")],
            _ => panic!("unknown option {a}; see the example's docs"),
        }
    }
    println!(
        "1. job sizes: Connect Four {position}, the side to move's question, one job slot ({} cores, load {})",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    );
    let mut measured = Vec::new();
    for job_work in [5_000, 20_000, 80_000] {
        measured.push((job_work, job_sizes(&position, job_work)));
    }
    println!("\n2. the scheduler alone: 64 jobs in flight, synthetic tree");
    scheduler_cost(64, 2_000_000);
    println!("\n   messages (encode + decode both):");
    for (name, path, children) in [("Connect Four", 12, 7), ("UTTT", 20, 81)] {
        let (job_bytes, done_bytes, ns) = message_cost(path, children);
        println!(
            "   {name:<12} path {path:>2}, {children:>2} children: job {job_bytes} B, result {done_bytes} B, {ns:.0} ns"
        );
    }
    // The median of the three runs' costs per operation.
    let op = op_us.unwrap_or_else(|| {
        let mut ops: Vec<f64> = measured.iter().map(|m| m.1.2).collect();
        ops.sort_by(f64::total_cmp);
        ops[ops.len() / 2]
    });
    println!(
        "\n3. simulation: one coordinator at {op:.2} µs per operation (2 per job), jobs drawn from part 1"
    );
    println!(
        "   {:>9} {:>11} {:>8} slots: busy share of the slots / of the coordinator",
        "job MID", "mean job", "latency"
    );
    let slot_counts = [16usize, 64, 256, 1024, 4096, 16384];
    for (job_work, (histogram, mean_us, _)) in &measured {
        for &latency in &latencies {
            let cells: Vec<String> = slot_counts
                .iter()
                .map(|&w| {
                    let (slots, coordinator) =
                        simulate(histogram, w, op, latency, 40 * w as u64 + 20_000);
                    format!("{w}: {:.0}%/{:.0}%", 100.0 * slots, 100.0 * coordinator)
                })
                .collect();
            println!(
                "   {:>9} {:>8.1} ms {:>5} µs {}",
                job_work,
                mean_us / 1e3,
                latency,
                cells.join("  ")
            );
        }
    }
}
