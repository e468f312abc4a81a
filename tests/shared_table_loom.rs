//! A model check of the shared table's bucket protocol under loom, which runs every
//! interleaving of the threads (and every value a `Relaxed` load may return under the C++
//! memory model): concurrent stores into one slot never make a probe return a mix of entries.
//!
//! The protocol code is the library's own ([`probe_bucket`], [`store_bucket`]), run over loom's
//! atomics. Run with:
//!
//! ```sh
//! RUSTFLAGS="--cfg loom" cargo test --release --test shared_table_loom
//! ```
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use proofnum::table::entry::RawEntry;
use proofnum::table::shared::{BUCKET_WORDS, Word, probe_bucket, store_bucket};
use proofnum::{Entry, Numbers};

/// A bucket word as loom's atomic.
struct LoomWord(AtomicU64);

impl Word for LoomWord {
    fn load(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn store(&self, value: u64) {
        self.0.store(value, Ordering::Relaxed)
    }
}

const GENERATION: u8 = 5;
/// The probed key, and another with different check bits.
const KEY: u64 = 0x0000_00AB_1234_5678;
const OTHER_KEY: u64 = 0x0000_00CD_1234_5678;

fn raw(key: u64, phi: u32, delta: u32, best: u16, work: u64) -> RawEntry {
    RawEntry::encode(
        key,
        &Entry::new(Numbers::new(phi, delta), Some(best), 0, work),
        GENERATION,
    )
}

/// A bucket of `slots` slots holding `initial` (from slot 0 on), the rest empty.
fn bucket(slots: usize, initial: &[RawEntry]) -> Arc<Vec<LoomWord>> {
    let mut words: Vec<u64> = initial
        .iter()
        .flat_map(|e| [e.key_word, e.data_word])
        .collect();
    words.resize(2 * slots, 0);
    Arc::new(
        words
            .into_iter()
            .map(|w| LoomWord(AtomicU64::new(w)))
            .collect(),
    )
}

/// The model's precondition: no mix of two of these entries' words passes the check for
/// `KEY` (true of the protocol's hash for all but about 2^-32 of pairs; checked, not assumed).
fn assert_no_torn_pair_matches(entries: &[RawEntry]) {
    for a in entries {
        for b in entries {
            let torn = RawEntry {
                key_word: a.key_word,
                data_word: b.data_word,
            };
            if a.data_word != b.data_word {
                assert!(!torn.matches(KEY), "pick other test entries");
            }
        }
    }
}

/// Two threads store `a` and `b` for their keys into a bucket of `slots` slots holding
/// `initial`, while the main thread probes `KEY`. The probe, and one after both stores, must
/// find nothing or exactly one of the entries written whole for `KEY`.
fn two_stores_and_a_probe(
    slots: usize,
    initial: &[RawEntry],
    a: (u64, RawEntry),
    b: (u64, RawEntry),
) {
    let mut all = initial.to_vec();
    all.extend([a.1, b.1]);
    assert_no_torn_pair_matches(&all);
    let for_key: Vec<RawEntry> = initial
        .iter()
        .copied()
        .filter(|e| e.matches(KEY))
        .chain(
            [a, b]
                .into_iter()
                .filter(|(k, _)| *k == KEY)
                .map(|(_, e)| e),
        )
        .collect();
    let initial = initial.to_vec();
    loom::model(move || {
        let words = bucket(slots, &initial);
        let writers: Vec<_> = [a, b]
            .into_iter()
            .map(|(key, entry)| {
                let words = words.clone();
                loom::thread::spawn(move || {
                    store_bucket(&words[..], key, entry, GENERATION);
                })
            })
            .collect();
        let during = probe_bucket(&words[..], KEY);
        for w in writers {
            w.join().unwrap();
        }
        let after = probe_bucket(&words[..], KEY);
        for found in [during, after].into_iter().flatten() {
            assert!(
                for_key.contains(&found),
                "probe returned {found:?}, never stored whole"
            );
        }
    });
}

#[test]
fn two_stores_of_one_key_into_one_empty_slot() {
    let a = raw(KEY, 1, 1, 3, 10);
    let b = raw(KEY, 2, 2, 7, 1000);
    two_stores_and_a_probe(1, &[], (KEY, a), (KEY, b));
}

#[test]
fn two_stores_of_one_key_over_its_old_entry() {
    let old = raw(KEY, 9, 4, 0, 5);
    let a = raw(KEY, 1, 1, 3, 10);
    let b = raw(KEY, 0, u32::MAX, 7, 1000);
    two_stores_and_a_probe(1, &[old], (KEY, a), (KEY, b));
}

#[test]
fn stores_of_two_keys_into_one_slot() {
    let a = raw(KEY, 1, 1, 3, 10);
    let b = raw(OTHER_KEY, 1, 1, 3, 10);
    two_stores_and_a_probe(1, &[], (KEY, a), (OTHER_KEY, b));
}

#[test]
fn two_stores_of_one_key_into_a_full_size_bucket() {
    let other = raw(OTHER_KEY, 6, 6, 1, 1 << 20);
    let a = raw(KEY, 1, 1, 3, 10);
    let b = raw(KEY, 2, 2, 7, 1000);
    two_stores_and_a_probe(BUCKET_WORDS / 2, &[other], (KEY, a), (KEY, b));
}
