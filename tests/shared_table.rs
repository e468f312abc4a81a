//! The shared transposition table: it is the single-thread table's bytes and policy used from
//! many threads, and concurrent stores never make a probe return an entry nobody stored.

use proofnum::table::entry::{MAX_BEST_INDEX, MAX_DISTANCE, RawEntry};
use proofnum::table::{BUCKET_BYTES, ENTRIES_PER_BUCKET, HEADER_BYTES};
use proofnum::{Entry, Numbers, SharedHandle, SharedTable, Table, TableStats, TranspositionTable};
use proofnum_test_support::Rng;
use proptest::prelude::*;

fn entry(phi: u32, delta: u32, work: u64) -> Entry {
    Entry::new(Numbers::new(phi, delta), None, 0, work)
}

#[test]
fn tables_and_handles_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SharedTable<'static>>();
    send_sync::<SharedHandle<'static>>();
}

#[test]
fn sharing_keeps_the_bytes_entries_and_generation() {
    let mut buf = vec![0u8; Table::required_bytes(8)];
    let mut table = Table::new(&mut buf).unwrap();
    table.new_generation();
    table.store(7 << 32 | 3, &Entry::new(Numbers::WIN, Some(2), 5, 40));
    let before = table.as_bytes().to_vec();

    let shared = SharedTable::from_table(table);
    assert_eq!(shared.bucket_count(), 8);
    assert_eq!(shared.capacity(), 8 * ENTRIES_PER_BUCKET);
    assert_eq!(shared.generation(), 1);
    assert_eq!(shared.fill_per_mille(), 1000 / 32);
    let mut handle = shared.handle();
    let found = handle.probe(7 << 32 | 3).unwrap();
    assert_eq!(
        (found.numbers, found.best, found.distance),
        (Numbers::WIN, Some(2), 5)
    );
    assert_eq!(
        handle.stats(),
        TableStats {
            probes: 1,
            hits: 1,
            stores: 0,
            drops: 0
        }
    );

    let table = shared.into_table();
    assert_eq!(table.as_bytes(), &before[..], "a probe changes no byte");
    assert_eq!(table.generation(), 1);
}

#[test]
fn a_table_saved_after_shared_use_loads_as_a_normal_table() {
    let mut buf = vec![0u8; Table::required_bytes(16)];
    let mut shared = SharedTable::new(&mut buf).unwrap();
    shared.new_generation();
    shared.new_generation();
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let mut handle = shared.handle();
            s.spawn(move || {
                for k in 0..8u64 {
                    let key = ((t * 8 + k + 1) << 32) | ((t * 8 + k) * 0x1000_0000);
                    handle.store(key, &entry(k as u32 + 1, t as u32 + 1, k));
                }
            });
        }
    });
    let saved = shared.into_table().as_bytes().to_vec();
    let mut target = vec![0u8; saved.len() + 64];
    let mut loaded = Table::load(&mut target, &saved).unwrap();
    assert_eq!(loaded.generation(), 2);
    for t in 0..2u64 {
        for k in 0..8u64 {
            let key = ((t * 8 + k + 1) << 32) | ((t * 8 + k) * 0x1000_0000);
            if let Some(e) = loaded.probe(key) {
                assert_eq!(e.numbers, Numbers::new(k as u32 + 1, t as u32 + 1));
            }
        }
    }
    assert!(loaded.stats().hits > 0);
}

#[test]
fn copied_bytes_equal_the_tables_and_a_copy_taken_while_storing_loads() {
    let mut buf = vec![0u8; Table::required_bytes(4)];
    let mut table = Table::new(&mut buf).unwrap();
    table.new_generation();
    table.store(5 << 32 | 1, &entry(3, 4, 100));
    let expected = table.as_bytes().to_vec();
    let shared = SharedTable::from_table(table);
    assert_eq!(shared.byte_len(), expected.len());
    let mut copy = vec![0u8; shared.byte_len()];
    assert!(
        !shared.copy_bytes(&mut copy[1..]),
        "a wrong length writes nothing"
    );
    assert!(copy.iter().all(|&b| b == 0));
    assert!(shared.copy_bytes(&mut copy));
    assert_eq!(copy, expected);

    // While another thread stores into the one bucket, every copy loads as a table whose
    // entries are ones that thread stored (torn ones fail their check and miss). Their check
    // bits (a key's high 32) differ from the first entry's, 5: keys that share a bucket and
    // check bits are the same key to the table (a collision by construction).
    let stored: Vec<(u64, Entry)> = (1..=64u64)
        .map(|k| (((k + 100) << 32) | 2, entry(k as u32, 1, k)))
        .collect();
    std::thread::scope(|s| {
        let mut handle = shared.handle();
        let stored = &stored;
        s.spawn(move || {
            for _ in 0..200 {
                for (key, e) in stored {
                    handle.store(*key, e);
                }
            }
        });
        for _ in 0..200 {
            assert!(shared.copy_bytes(&mut copy));
            let mut target = vec![0u8; copy.len() + 64];
            let mut loaded = Table::load(&mut target, &copy).unwrap();
            for (key, e) in stored.iter() {
                if let Some(found) = loaded.probe(*key) {
                    assert_eq!(found.numbers, e.numbers);
                }
            }
        }
    });
}

#[test]
fn clear_and_new_generation_match_the_single_thread_table() {
    let mut a = vec![0u8; Table::required_bytes(2)];
    let mut b = vec![0u8; Table::required_bytes(2)];
    let mut table = Table::new(&mut a).unwrap();
    let mut shared = SharedTable::new(&mut b).unwrap();
    table.store(1 << 32, &entry(1, 2, 3));
    shared.handle().store(1 << 32, &entry(1, 2, 3));
    table.new_generation();
    shared.new_generation();
    table.store(2 << 32, &entry(1, 2, 3));
    shared.handle().store(2 << 32, &entry(1, 2, 3));
    assert_eq!(shared.generation(), table.generation());
    assert_eq!(shared.fill_per_mille(), table.fill_per_mille());
    table.clear();
    shared.clear();
    assert_eq!(shared.generation(), 0);
    assert_eq!(shared.fill_per_mille(), 0);
    assert_eq!(shared.into_table().as_bytes(), table.as_bytes());
}

/// One step of a single-thread run.
#[derive(Clone, Debug)]
enum Op {
    Probe(usize),
    Store(usize, Entry),
    NewGeneration,
    Clear,
}

/// A few keys with distinct check bits (high halves) over a 3-bucket table, so buckets fill,
/// entries are replaced and updated in place.
const KEYS: usize = 24;

fn key(i: usize) -> u64 {
    (i as u64 + 1) << 32 | (i as u64).wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF
}

fn any_entry() -> impl Strategy<Value = Entry> {
    (
        prop_oneof![
            Just(Numbers::WIN),
            Just(Numbers::LOSS),
            (1..20u32, 1..20u32).prop_map(|(p, d)| Numbers::new(p, d)),
        ],
        proptest::option::of(0..=MAX_BEST_INDEX),
        0..=MAX_DISTANCE,
        prop_oneof![0..4u64, 0..1u64 << 20],
    )
        .prop_map(|(n, best, distance, work)| Entry::new(n, best, distance, work))
}

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..KEYS).prop_map(Op::Probe),
        8 => (0..KEYS, any_entry()).prop_map(|(k, e)| Op::Store(k, e)),
        1 => Just(Op::NewGeneration),
        1 => Just(Op::Clear),
    ]
}

fn add(a: TableStats, b: TableStats) -> TableStats {
    TableStats {
        probes: a.probes + b.probes,
        hits: a.hits + b.hits,
        stores: a.stores + b.stores,
        drops: a.drops + b.drops,
    }
}

proptest! {
    /// With one thread, a handle is the single-thread table: the same probe answers and
    /// counters, and the same bytes at the end.
    #[test]
    #[cfg_attr(miri, ignore = "a proptest property: minutes under Miri")]
    fn one_thread_through_a_handle_is_the_single_thread_table(
        ops in proptest::collection::vec(any_op(), 0..200)
    ) {
        let buckets = 3;
        let mut a = vec![0u8; Table::required_bytes(buckets)];
        let mut b = vec![0u8; Table::required_bytes(buckets)];
        let mut table = Table::new(&mut a).unwrap();
        let mut shared = SharedTable::new(&mut b).unwrap();
        let mut table_stats = TableStats::default();
        let mut shared_stats = TableStats::default();
        let mut handle = shared.handle();
        for op in &ops {
            match op {
                Op::Probe(k) => prop_assert_eq!(handle.probe(key(*k)), table.probe(key(*k))),
                Op::Store(k, e) => {
                    handle.store(key(*k), e);
                    table.store(key(*k), e);
                }
                Op::NewGeneration | Op::Clear => {
                    // A handle counts until it is dropped, the table until it is cleared.
                    shared_stats = add(shared_stats, handle.stats());
                    if matches!(op, Op::Clear) {
                        table_stats = add(table_stats, table.stats());
                        shared.clear();
                        table.clear();
                    } else {
                        shared.new_generation();
                        table.new_generation();
                    }
                    handle = shared.handle();
                }
            }
        }
        prop_assert_eq!(add(shared_stats, handle.stats()), add(table_stats, table.stats()));
        let shared = shared.into_table();
        prop_assert_eq!(shared.as_bytes(), table.as_bytes());
    }
}

/// The stress test's entries: every field is a function of the key and φ, and φ names the
/// thread and the store, so a probe can tell an entry some thread stored for that key from
/// anything else (a torn mix of two stores, or another key's entry).
fn stress_entry(key: u64, thread: usize, store: u32) -> Entry {
    let phi = ((thread as u32) << 24) | (store + 1);
    let h = splitmix(key ^ phi as u64);
    Entry::new(
        Numbers::new(phi, 1 + (h as u32 >> 2)),
        Some((h >> 32) as u16 % (MAX_BEST_INDEX + 1)),
        (h >> 41) as u16 % (MAX_DISTANCE + 1),
        1 << ((h >> 52) % 40),
    )
}

/// The entry stored for `key` as store `phi`, if `phi` names one.
fn expected_entry(key: u64, phi: u32, threads: usize, stores: u32) -> Option<Entry> {
    let (thread, store) = ((phi >> 24) as usize, (phi & 0xFF_FFFF).checked_sub(1)?);
    (thread < threads && store < stores).then(|| stress_entry(key, thread, store))
}

/// SplitMix64's first output from state `x`: a well-mixed function of `x`.
fn splitmix(x: u64) -> u64 {
    Rng::new(x).next_u64()
}

/// Eight threads store and probe a few keys of a tiny table as fast as they can. Every probe
/// that finds something must find an entry some thread stored for that key, whole.
fn hammer(buckets: usize, keys: usize) {
    const THREADS: usize = 8;
    // Miri (`.ci/run`) interprets every operation and explores thread interleavings: a
    // hundred there.
    const OPS_PER_THREAD: u32 = if cfg!(miri) { 100 } else { 200_000 };
    let keys: Vec<u64> = (0..keys as u64)
        .map(|i| splitmix(i) & 0xFFFF_FFFF | (i + 1) << 32)
        .collect();
    let mut buf = vec![0u8; Table::required_bytes(buckets)];
    let shared = SharedTable::new(&mut buf).unwrap();
    assert_eq!(shared.bucket_count(), buckets);
    let hits: u64 = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                let mut handle = shared.handle();
                let keys = &keys;
                s.spawn(move || {
                    let mut rng = thread as u64;
                    let mut stores = 0;
                    for _ in 0..OPS_PER_THREAD {
                        rng = splitmix(rng);
                        let key = keys[(rng >> 8) as usize % keys.len()];
                        if rng & 1 == 0 {
                            handle.store(key, &stress_entry(key, thread, stores));
                            stores += 1;
                        } else if let Some(found) = handle.probe(key) {
                            let expected =
                                expected_entry(key, found.numbers.phi, THREADS, OPS_PER_THREAD);
                            assert_eq!(Some(found), expected, "key {key:#x}: not a stored entry");
                        }
                    }
                    handle.stats().hits
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert!(hits > 0, "the threads found each other's entries");

    // What is left: every slot is empty, a whole stored entry, or a torn pair no key matches.
    let table = shared.into_table();
    let bytes = &table.as_bytes()[HEADER_BYTES..];
    assert_eq!(bytes.len(), buckets * BUCKET_BYTES);
    for slot in bytes.chunks_exact(16) {
        let raw = RawEntry {
            key_word: u64::from_ne_bytes(slot[..8].try_into().unwrap()),
            data_word: u64::from_ne_bytes(slot[8..].try_into().unwrap()),
        };
        for &key in keys.iter().filter(|&&k| raw.matches(k)) {
            let found = raw.decode();
            let expected = expected_entry(key, found.numbers.phi, THREADS, OPS_PER_THREAD);
            assert_eq!(Some(found), expected, "slot left with a mixed entry");
        }
    }
}

#[test]
fn eight_threads_on_one_bucket_never_see_a_torn_entry() {
    hammer(1, 8);
}

#[test]
fn eight_threads_on_four_buckets_never_see_a_torn_entry() {
    hammer(4, 24);
}
