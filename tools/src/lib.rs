//! What proofnum's suite runners, benchmarks and referees share; the programs themselves are
//! this package's binaries (`cargo run --release -p proofnum-tools --bin NAME -- --help`):
//!
//! - `chesssuite`: chess mate suites refereed by Stockfish (generate, run, bench, prove, dive);
//! - `chess_mates`: the chess knowledge ablation and mate distances;
//! - `tsumesuite`: tsume-shogi suites (proof, length, every line replayed on rsshogi);
//! - `c4suite`: Connect Four suites against an independent alpha-beta solver;
//! - `uttt_suite`: Ultimate Tic-Tac-Toe positions against a committed baseline;
//! - `bench`: the games' benchmark workloads and the Atari Go chart.
//!
//! The modules:
//! - [`stockfish`]: a Stockfish driver over UCI, the chess suites' independent referee;
//! - [`baseline`]: the committed baselines' format and the comparison of a run with one;
//! - [`trace`]: where a df-pn search spends its MID calls, measured from outside the core;
//! - [`rng`]: the suite generators' random numbers;
//! - [`timed_table_memory`]: a table's memory, allocated before a clock starts;
//! - [`capped`]: a search run with limits that stop it after so many seconds.
//!
//! Nothing here is part of the solver or published: these programs measure and check it.

pub mod baseline;
pub mod rng;
pub mod stockfish;
pub mod trace;

/// `bytes` of table memory as `proofnum::memory::table_memory` gives them (zeroed, advised
/// for huge pages), with every page allocated now (`proofnum::memory::prefault`): the
/// runners time searches alone, and `Table::new` leaves clear memory unwritten, so a fresh
/// buffer's page faults would otherwise fall inside the first timed search.
pub fn timed_table_memory(bytes: usize) -> Vec<u8> {
    let mut memory = proofnum::memory::table_memory(bytes);
    proofnum::memory::prefault(&mut memory);
    memory
}

/// Runs `search` with limits that stop it `cap_s` seconds from now (and no other limit).
pub fn capped<R>(cap_s: f64, search: impl FnOnce(&mut proofnum::Limits<'_>) -> R) -> R {
    let start = std::time::Instant::now();
    let mut clock = move || start.elapsed().as_micros() as u64;
    let mut limits = proofnum::Limits {
        clock: Some(&mut clock),
        max_time_us: (cap_s * 1e6) as u64,
        ..proofnum::Limits::default()
    };
    search(&mut limits)
}
