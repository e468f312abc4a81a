//! Parallel PN-DFPN benchmark: positions that take one thread seconds to a minute, solved with
//! 1, 2, 4 and 8 worker threads over one shared table, next to serial df-pn on the same table
//! size. Prints per run: wall time, MID calls, jobs, worker idle share, coordinator (tree lock)
//! busy share; then medians over `--runs` and the speed-up over the first thread count of
//! `--threads` (the median of per-round ratios: rounds run every thread count back to back,
//! so a machine shared with other jobs slows them alike).
//!
//! ```sh
//! cargo run --release --features std --example parallel_bench              # every position
//! cargo run --release --features std --example parallel_bench -- --game uttt --threads 1,2
//! ```
//!
//! Options: `--game c4|uttt|all` (default all), `--threads LIST` (default 1,2,4,8),
//! `--runs N` (default 3), `--table-mib N` (default 256), `--job-work N`, `--split-work N`,
//! `--serial` (also time serial df-pn), `--no-thresholds` (jobs run to their budget), `--cap SECONDS` (per solve, default 300).

use std::time::{Duration, Instant};

use proofnum::{
    Dfpn, Game, Limits, ParallelConfig, ParallelLimits, ParallelSolver, Player, Status,
};
use proofnum::{SharedTable, Table};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::uttt::Uttt;

/// Connect Four positions (1-based columns) that serial df-pn solves in roughly 10 to 60
/// seconds on this project's machines (from the early suite in `games/suites/` and the
/// benchmark's fixed suite).
const CONNECT4: [&str; 3] = ["444444", "12345", "4453"];

/// The two Ultimate Tic-Tac-Toe self-play positions of the bench (`bench -- uttt`).
const UTTT: [&str; 2] = [
    "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX",
    "O;......O@.;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/...X.X.../.O.....XX",
];

struct Options {
    game: String,
    threads: Vec<usize>,
    runs: usize,
    table_mib: usize,
    job_work: Option<u64>,
    split_work: Option<u64>,
    serial: bool,
    no_thresholds: bool,
    cap: Duration,
}

fn parse() -> Options {
    let mut o = Options {
        game: "all".into(),
        threads: vec![1, 2, 4, 8],
        runs: 3,
        table_mib: 256,
        job_work: None,
        split_work: None,
        serial: false,
        no_thresholds: false,
        cap: Duration::from_secs(300),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut v = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--game" => o.game = v(),
            "--threads" => {
                o.threads = v()
                    .split(',')
                    .map(|t| t.parse().expect("--threads takes a list like 1,2,4"))
                    .collect()
            }
            "--runs" => o.runs = v().parse().expect("--runs N"),
            "--table-mib" => o.table_mib = v().parse().expect("--table-mib N"),
            "--job-work" => o.job_work = Some(v().parse().expect("--job-work N")),
            "--split-work" => o.split_work = Some(v().parse().expect("--split-work N")),
            "--serial" => o.serial = true,
            "--no-thresholds" => o.no_thresholds = true,
            "--cap" => o.cap = Duration::from_secs_f64(v().parse().expect("--cap SECONDS")),
            _ => panic!("unknown option {a}; see the example's docs"),
        }
    }
    o
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

struct Row {
    seconds: f64,
    mid_calls: u64,
    jobs: u64,
    idle: f64,
    busy: f64,
    status: Status,
}

fn bench_position<G>(label: &str, game: &G, max_moves: usize, o: &Options, memory: &mut [u8])
where
    G: Game + Clone + Send,
    G::Move: Send,
{
    let attacker: Player = game.side_to_move();
    println!("\n{label} (attacker: side to move)");
    if o.serial {
        let mut secs = Vec::new();
        let mut mids = 0;
        let mut status = Status::Disproven;
        for _ in 0..o.runs {
            let mut table = Table::new(memory).unwrap();
            let mut stack = vec![0u8; Dfpn::<G>::stack_bytes(256, max_moves)];
            let mut dfpn = Dfpn::<G>::new(&mut stack, 256, max_moves, Default::default()).unwrap();
            let mut g = game.clone();
            let start = Instant::now();
            let mut clock = || start.elapsed().as_micros() as u64;
            let mut limits = Limits {
                clock: Some(&mut clock),
                max_time_us: o.cap.as_micros() as u64,
                ..Limits::none()
            };
            let r = dfpn.solve(&mut g, attacker, &mut table, &mut limits);
            secs.push(start.elapsed().as_secs_f64());
            mids = r.stats.mid_calls;
            status = r.status;
        }
        println!(
            "  serial df-pn   {:>10} {:>8.2} s {:>12} MID calls",
            status.to_string(),
            median(secs),
            mids
        );
    }
    println!(
        "  {:>7} {:>12} {:>9} {:>12} {:>8} {:>7} {:>7} {:>8}",
        "threads", "result", "wall s", "MID calls", "jobs", "idle%", "lock%", "speedup"
    );
    // Rounds interleave the thread counts, so that drifting machine load hits them alike; the
    // speed-up is the median over rounds of that round's one-thread time over its N-thread time.
    let solvers: Vec<ParallelSolver> = o
        .threads
        .iter()
        .map(|&threads| {
            let defaults = ParallelConfig::default();
            ParallelSolver::new(ParallelConfig {
                threads,
                job_work: o.job_work.unwrap_or(defaults.job_work),
                split_work: o.split_work.unwrap_or(defaults.split_work),
                max_moves,
                job_thresholds: !o.no_thresholds,
                ..defaults
            })
            .unwrap()
        })
        .collect();
    let mut rows: Vec<Vec<Row>> = o.threads.iter().map(|_| Vec::new()).collect();
    for _ in 0..o.runs {
        for (i, solver) in solvers.iter().enumerate() {
            let table = SharedTable::new(memory).unwrap();
            let mut limits = ParallelLimits {
                max_time: Some(o.cap),
                ..ParallelLimits::none()
            };
            let r = solver.solve(game, attacker, &table, &mut limits);
            let row = Row {
                seconds: r.stats.elapsed.as_secs_f64(),
                mid_calls: r.stats.mid_calls,
                jobs: r.stats.jobs,
                idle: r.stats.worker_idle_share,
                busy: r.stats.coordinator_busy_share,
                status: r.status,
            };
            println!(
                "  {:>7} {:>12} {:>9.2} {:>12} {:>8} {:>7.1} {:>7.2}",
                o.threads[i],
                row.status.to_string(),
                row.seconds,
                row.mid_calls,
                row.jobs,
                row.idle * 100.0,
                row.busy * 100.0
            );
            rows[i].push(row);
        }
    }
    let base: Vec<f64> = rows[0].iter().map(|r| r.seconds).collect();
    for (i, rows) in rows.iter().enumerate() {
        let speedup = median(rows.iter().zip(&base).map(|(r, b)| b / r.seconds).collect());
        println!(
            "  {:>7} {:>12} {:>9.2} {:>12.0} {:>8.0} {:>7.1} {:>7.2} {:>7.2}x",
            format!("{} med", o.threads[i]),
            "",
            median(rows.iter().map(|r| r.seconds).collect()),
            median(rows.iter().map(|r| r.mid_calls as f64).collect()),
            median(rows.iter().map(|r| r.jobs as f64).collect()),
            median(rows.iter().map(|r| r.idle * 100.0).collect()),
            median(rows.iter().map(|r| r.busy * 100.0).collect()),
            speedup
        );
    }
}

fn main() {
    let o = parse();
    let mut memory = vec![0u8; o.table_mib << 20];
    println!(
        "parallel PN-DFPN: table {} MiB, {} run(s) per line, cap {:?}, {} cores available",
        o.table_mib,
        o.runs,
        o.cap,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    if o.game == "c4" || o.game == "all" {
        for moves in CONNECT4 {
            let game = ConnectFour::from_moves(moves).expect("a legal position");
            bench_position(&format!("connect4 {moves}"), &game, 7, &o, &mut memory);
        }
    }
    if o.game == "uttt" || o.game == "all" {
        for text in UTTT {
            let game: Uttt = text.parse().expect("a legal position");
            bench_position(&format!("uttt {text}"), &game, 81, &o, &mut memory);
        }
    }
}
