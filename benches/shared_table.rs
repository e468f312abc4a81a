//! Throughput of the transposition tables: the single-thread `Table`, the lockless
//! `SharedTable`, and the same shared bucket code under per-bucket spin locks, with 1 and 2
//! threads, on a cache-resident (256 KiB) and a large (256 MiB) table.
//!
//! ```sh
//! cargo bench --bench shared_table            # all sizes
//! cargo bench --bench shared_table -- small   # 256 KiB only
//! ```
//!
//! Each thread repeats: draw a random key (from twice as many positions as the table holds),
//! probe it, store an entry for it. The figure is million probes + stores per second over all
//! threads, the median of 5 rounds; each round runs every variant once. The tables are filled
//! (untimed) before the first round, and the single-thread and lockless variants share one
//! table, handed back and forth without copying.
//!
//! The spin-locked variant exists only here, for the comparison that chose the lockless
//! scheme: the 64-byte buckets have no spare bits, so its locks are a byte per bucket in an
//! array beside the table (64 to a cache line), taken for every probe and store with a
//! test-and-test-and-set loop like the `spin` crate's `SpinMutex` (a weak compare-exchange
//! with Acquire, spinning on a Relaxed load with `spin_loop`, a Release store to unlock). Under
//! the lock it runs the library's own bucket code, so the lock is the only difference.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use proofnum::table::entry::RawEntry;
use proofnum::table::shared::{BUCKET_WORDS, probe_bucket, store_bucket};
use proofnum::table::{BUCKET_BYTES, ENTRIES_PER_BUCKET, bucket_index};
use proofnum::{Entry, Numbers, SharedTable, Table, TableStats, TranspositionTable};

/// Runs per figure; the median is printed.
const RUNS: usize = 5;

/// The splitmix64 generator: a fast, well-mixed stream of keys and entry fields.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
}

/// `iterations` rounds of probe-then-store on random keys out of `positions`; returns the hits
/// (so the work cannot be optimised away).
fn workload(
    table: &mut impl TranspositionTable,
    seed: u64,
    positions: u64,
    iterations: u64,
) -> u64 {
    let mut rng = Rng(seed);
    let mut hits = 0;
    for _ in 0..iterations {
        let r = rng.next();
        // A position's key is a fixed function of its index, so positions repeat.
        let key = Rng(((r as u128 * positions as u128) >> 64) as u64).next();
        let entry = Entry::new(
            Numbers::new((r >> 32) as u32 & 0xFFFF | 1, (r as u32) >> 20 | 1),
            Some((r >> 48) as u16 & 63),
            0,
            r >> 58,
        );
        if table.probe(key).is_some() {
            hits += 1;
        }
        table.store(key, &entry);
    }
    black_box(hits)
}

/// Per-bucket spin locks around the shared bucket code (see the module docs).
struct LockedTable {
    words: Vec<AtomicU64>,
    locks: Vec<AtomicBool>,
    bucket_count: usize,
}

impl LockedTable {
    fn new(bytes: usize) -> LockedTable {
        let bucket_count = bytes / BUCKET_BYTES;
        LockedTable {
            words: (0..bucket_count * BUCKET_WORDS)
                .map(|_| AtomicU64::new(0))
                .collect(),
            locks: (0..bucket_count).map(|_| AtomicBool::new(false)).collect(),
            bucket_count,
        }
    }

    /// Runs `f` on `key`'s bucket with its lock held.
    #[inline]
    fn with_bucket<R>(&self, key: u64, f: impl FnOnce(&[AtomicU64]) -> R) -> R {
        let index = bucket_index(key, self.bucket_count);
        let lock = &self.locks[index];
        while lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while lock.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        }
        let result = f(&self.words[index * BUCKET_WORDS..(index + 1) * BUCKET_WORDS]);
        lock.store(false, Ordering::Release);
        result
    }
}

impl LockedTable {
    fn handle(&self) -> LockedHandle<'_> {
        LockedHandle {
            table: self,
            stats: TableStats::default(),
        }
    }
}

/// One thread's access to a [`LockedTable`].
struct LockedHandle<'t> {
    table: &'t LockedTable,
    stats: TableStats,
}

impl TranspositionTable for LockedHandle<'_> {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.stats.probes += 1;
        let found = self.table.with_bucket(key, |b| probe_bucket(b, key));
        self.stats.hits += found.is_some() as u64;
        found.map(RawEntry::decode)
    }

    #[inline]
    fn store(&mut self, key: u64, entry: &Entry) {
        self.stats.stores += 1;
        let raw = RawEntry::encode(key, entry, 0);
        let dropped = self
            .table
            .with_bucket(key, |b| store_bucket(b, key, raw, 0));
        self.stats.drops += dropped as u64;
    }

    fn stats(&self) -> TableStats {
        self.stats
    }
}

/// Seconds `f` takes.
fn time(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

/// Runs the workload on `threads` threads, each with a handle from `handle`; returns seconds.
fn run_threads<H: TranspositionTable + Send>(
    threads: usize,
    handle: impl Fn() -> H,
    seed: impl Fn(usize) -> u64,
    positions: u64,
    iterations_per_thread: u64,
) -> f64 {
    time(|| {
        std::thread::scope(|s| {
            for t in 0..threads {
                let mut handle = handle();
                let seed = seed(t);
                s.spawn(move || workload(&mut handle, seed, positions, iterations_per_thread));
            }
        })
    })
}

/// The variants measured, in the order they run within each round.
const VARIANTS: [(&str, usize); 5] = [
    ("Table", 1),
    ("lockless", 1),
    ("lockless", 2),
    ("spin locks", 1),
    ("spin locks", 2),
];

fn bench_size(label: &str, bytes: usize, iterations_per_thread: u64) {
    let buckets = bytes / BUCKET_BYTES;
    let capacity = (buckets * ENTRIES_PER_BUCKET) as u64;
    let positions = 2 * capacity;
    let mut buf = vec![0u8; Table::required_bytes(buckets)];
    let mut table = Some(Table::new(&mut buf).unwrap());
    let locked = LockedTable::new(buckets * BUCKET_BYTES);

    // Untimed: fill both tables about as full as the timed rounds will keep them.
    let fill_seed = |_| u64::MAX;
    workload(table.as_mut().unwrap(), fill_seed(0), positions, capacity);
    run_threads(1, || locked.handle(), fill_seed, positions, capacity);

    // Rounds run every variant once, so the machine's load (shared with other jobs) falls on
    // all of them alike; each figure is the median over the rounds.
    let mut figures = vec![Vec::new(); VARIANTS.len()];
    let mut table_hits = 0;
    for round in 0..RUNS {
        for (v, &(name, threads)) in VARIANTS.iter().enumerate() {
            let seed = |t: usize| ((round * 8 + t) * VARIANTS.len() + v) as u64;
            let seconds = match name {
                "Table" => time(|| {
                    table_hits = workload(
                        table.as_mut().unwrap(),
                        seed(0),
                        positions,
                        iterations_per_thread,
                    );
                }),
                "lockless" => {
                    let shared = SharedTable::from_table(table.take().unwrap());
                    let seconds = run_threads(
                        threads,
                        || shared.handle(),
                        seed,
                        positions,
                        iterations_per_thread,
                    );
                    table = Some(shared.into_table());
                    seconds
                }
                _ => run_threads(
                    threads,
                    || locked.handle(),
                    seed,
                    positions,
                    iterations_per_thread,
                ),
            };
            let ops = 2 * iterations_per_thread * threads as u64;
            figures[v].push(ops as f64 / seconds / 1e6);
        }
    }
    for (v, &(name, threads)) in VARIANTS.iter().enumerate() {
        figures[v].sort_by(f64::total_cmp);
        let median = figures[v][RUNS / 2];
        println!("{label:<18} {threads:>7} {name:<12} {median:>10.1}");
    }
    println!(
        "{label:<18} fill {}‰, {:.0}% of probes hit (last single-thread round)",
        table.unwrap().fill_per_mille(),
        100.0 * table_hits as f64 / iterations_per_thread as f64
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a further argument picks the sizes.
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    println!("table              threads variant      Mops/s (median of {RUNS})");
    if only.as_deref().is_none_or(|o| o == "small") {
        bench_size("256 KiB (cached)", 256 << 10, 4_000_000);
    }
    if only.as_deref().is_none_or(|o| o == "large") {
        bench_size("256 MiB", 256 << 20, 2_000_000);
    }
}
