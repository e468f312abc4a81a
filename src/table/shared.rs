//! The transposition table shared by many threads: the same caller bytes and layout as
//! [`Table`], probed and stored from several threads at once.
//!
//! # Scheme: lockless entries with a check word
//!
//! Each 16-byte entry is two [`AtomicU64`] words, read and written with `Relaxed` loads and
//! stores. A reader can therefore never race with a writer in the sense of Rust's memory model
//! (every access is atomic), but it can see the key word of one store and the data word of
//! another: a torn entry. The entry encoding ([`entry`]) XORs the key word with a
//! non-linear hash of the data word (Hyatt and Mann's lockless hashing), so a torn pair fails
//! the 32-bit check like an entry of another position, with the same odds, about 2^-32, as two
//! positions sharing check bits. A probe then misses and a store treats the slot as another
//! position's; nothing waits and nothing is locked. A torn entry can be returned only with
//! those odds, which the search already accepts for key collisions (and which
//! [`Dfpn::verify`](crate::Dfpn::verify) guards against).
//!
//! Races cost only information, which the lossy table tolerates anyway (the solver keeps its
//! children's numbers on its own stack): two stores into one slot keep one of them, or leave a
//! torn slot that matches no key until it is replaced; a store may evict an entry that another
//! thread refreshed a moment earlier.
//!
//! Probe and store follow the single-thread table exactly (update the entry of the same key in
//! place, else fill the empty or lowest-[`keep_score`](RawEntry::keep_score) slot, first one
//! on ties), so with one thread a [`SharedHandle`] and a [`Table`] leave identical bytes, and a
//! table saved after parallel use ([`SharedTable::into_table`], then [`Table::as_bytes`]) loads
//! as a normal table.
//!
//! The bucket protocol is written once, generic over the [`Word`] it loads and stores
//! ([`probe_bucket`], [`store_bucket`]), so a model checker can run this very code over its
//! own atomics: `tests/shared_table_loom.rs` runs it under [loom] with
//! `RUSTFLAGS="--cfg loom" cargo test --release --test shared_table_loom`.
//!
//! # Why not locks
//!
//! Measured against per-bucket spin locks: the 64-byte buckets have no spare bits, so the locks
//! are a byte per bucket in an array beside the table, taken around the same [`probe_bucket`]
//! and [`store_bucket`] with a test-and-test-and-set loop like the `spin` crate's `SpinMutex`.
//! `cargo bench --bench shared_table` (`benches/shared_table.rs`) on the 2-core development
//! machine, which other jobs share: million probes + stores per second over all threads, each
//! thread probing and then storing random keys drawn from twice as many positions as the table
//! holds (about half the probes hit), the median of 5 rounds that each run every variant:
//!
//! | table            | threads | `Table` | lockless | spin locks |
//! |------------------|---------|---------|----------|------------|
//! | 256 KiB (cached) | 1       | 57.3    | 62.2     | 56.8       |
//! | 256 KiB (cached) | 2       | –       | 89.4     | 78.8       |
//! | 256 MiB          | 1       | 9.7     | 9.7      | 9.7        |
//! | 256 MiB          | 2       | –       | 19.1     | 19.5       |
//!
//! Three runs of the benchmark agreed within about 10 %, except one in which another job took a
//! core: two threads on the cached table then managed 70.2 lockless but 36.5 with spin locks,
//! because a thread preempted while holding a bucket's lock keeps the other spinning. On the
//! large table every variant waits for memory, and the lock (its array is 1/64 of the table)
//! costs nothing measurable; on the cached one the lock is a tenth of the time of one thread
//! and more with two (the lock bytes of 64 buckets share a cache line, so the threads' locks
//! contend even when their buckets differ). The lockless scheme is never measurably slower, needs no
//! memory beyond the table, and cannot stall on a preempted thread, so it is the one kept; a
//! per-bucket seqlock would need a version word per bucket, which the layout has no room for.
//!
//! [loom]: https://docs.rs/loom

use core::mem::{align_of, size_of, size_of_val};
use core::sync::atomic::{AtomicU64, Ordering};

use super::{
    BUCKET_BYTES, ENTRIES_PER_BUCKET, Entry, HEADER_BYTES, Header, RawEntry, TABLE_ALIGN, Table,
    TableError, TableStats, TranspositionTable, bucket_index, entry, sample_bucket,
};

/// 64-bit words in the header.
const HEADER_WORDS: usize = HEADER_BYTES / size_of::<u64>();
/// 64-bit words in one bucket: a key word and a data word per entry.
pub const BUCKET_WORDS: usize = BUCKET_BYTES / size_of::<u64>();

const _: () = assert!(BUCKET_WORDS == 2 * ENTRIES_PER_BUCKET);
// The casts between the table's bytes and its words rely on these.
const _: () = assert!(size_of::<AtomicU64>() == size_of::<u64>());
const _: () = assert!(TABLE_ALIGN % align_of::<AtomicU64>() == 0);
const _: () = assert!(HEADER_BYTES % size_of::<u64>() == 0 && BUCKET_BYTES % size_of::<u64>() == 0);

/// One 64-bit word of a shared bucket as the protocol uses it: a load and a store, each atomic
/// on its own and ordered with nothing else (`Relaxed`). Implemented for [`AtomicU64`]; a model
/// checker implements it for its own atomic type to check [`probe_bucket`] and
/// [`store_bucket`].
pub trait Word {
    /// Reads the word.
    fn load(&self) -> u64;
    /// Writes the word.
    fn store(&self, value: u64);
}

impl Word for AtomicU64 {
    #[inline]
    fn load(&self) -> u64 {
        AtomicU64::load(self, Ordering::Relaxed)
    }

    #[inline]
    fn store(&self, value: u64) {
        AtomicU64::store(self, value, Ordering::Relaxed)
    }
}

/// The slot of `bucket` (words `[key word, data word]` per slot, any number of slots) whose
/// entry matches `key`, read one word at a time. A slot torn by concurrent stores fails the
/// check and is skipped, so the result is always an entry some store wrote whole.
#[inline]
pub fn probe_bucket<W: Word>(bucket: &[W], key: u64) -> Option<RawEntry> {
    find_in_bucket(bucket, |raw| raw.matches(key))
}

/// The first slot of `bucket` holding an entry that `accept` takes, read as [`probe_bucket`]
/// reads (dominance entries are found this way).
#[inline]
pub fn find_in_bucket<W: Word>(
    bucket: &[W],
    mut accept: impl FnMut(RawEntry) -> bool,
) -> Option<RawEntry> {
    bucket.chunks_exact(2).find_map(|slot| {
        let data_word = slot[1].load();
        if data_word == 0 {
            return None;
        }
        let raw = RawEntry {
            key_word: slot[0].load(),
            data_word,
        };
        accept(raw).then_some(raw)
    })
}

/// Writes `raw`, the encoding of an entry for `key`, into `bucket` with the single-thread
/// table's policy: over the slot that matches `key`, else over the first slot of lowest
/// [`keep_score`](RawEntry::keep_score) in `generation` (an empty one if any). Returns whether
/// a valid entry of another position was evicted (as far as this thread's reading of the
/// bucket could tell).
#[inline]
pub fn store_bucket<W: Word>(bucket: &[W], key: u64, raw: RawEntry, generation: u8) -> bool {
    store_bucket_by(bucket, raw, generation, |seen| seen.matches(key))
}

/// [`store_bucket`] over the slot that `same` recognises as the new entry's own.
#[inline]
pub fn store_bucket_by<W: Word>(
    bucket: &[W],
    raw: RawEntry,
    generation: u8,
    same: impl Fn(RawEntry) -> bool,
) -> bool {
    let mut same_key = None;
    let mut victim = (usize::MAX, u32::MAX, false);
    for (i, slot) in bucket.chunks_exact(2).enumerate() {
        let seen = RawEntry {
            key_word: slot[0].load(),
            data_word: slot[1].load(),
        };
        if same(seen) {
            same_key = Some(i);
            break;
        }
        let score = seen.keep_score(generation);
        if score < victim.1 {
            victim = (i, score, !seen.is_empty());
        }
    }
    let (slot, dropped) = match same_key {
        Some(i) => (i, false),
        None => (victim.0, victim.2),
    };
    if let Some(words) = bucket.get(2 * slot..2 * slot + 2) {
        words[0].store(raw.key_word);
        words[1].store(raw.data_word);
    }
    dropped
}

/// A transposition table that many threads use at once, each through its own
/// [`SharedHandle`]. It owns the caller's buffer for `'a`, like [`Table`], and converts to and
/// from one without copying ([`from_table`](SharedTable::from_table),
/// [`into_table`](SharedTable::into_table)). Stores and probes take no lock: an entry is two
/// words whose check covers both (Hyatt and Mann's lockless hashing), so an entry torn by
/// two threads' stores fails the check like another position's entry and is missed.
pub struct SharedTable<'a> {
    /// The table's 64-byte aligned region (header, then buckets) as words.
    words: &'a mut [AtomicU64],
    bucket_count: usize,
    generation: u8,
    /// As [`Table::key_salt`].
    key_salt: u64,
    /// As [`Table::is_trusted`].
    trusted: bool,
}

impl<'a> SharedTable<'a> {
    /// Makes an empty shared table using as much of `buf` as whole buckets allow
    /// (as [`Table::new`]).
    pub fn new(buf: &'a mut [u8]) -> Result<SharedTable<'a>, TableError> {
        Table::new(buf).map(SharedTable::from_table)
    }

    /// Shares `table`: the same bytes, entries and generation, nothing copied.
    pub fn from_table(table: Table<'a>) -> SharedTable<'a> {
        let Table {
            region,
            bucket_count,
            generation,
            key_salt,
            stats: _,
            trusted,
        } = table;
        let len = region.len() / size_of::<AtomicU64>();
        let ptr = region.as_mut_ptr().cast::<AtomicU64>();
        // SAFETY: `region` is 64-byte aligned (`Table` takes it from `aligned_region`), which
        // satisfies `AtomicU64`'s alignment (asserted above), and its length is a multiple of 8
        // (header and buckets are whole words, asserted above), so it is exactly `len` in-bounds
        // words. `AtomicU64` has the size and bit validity of `u64`, for which every
        // initialised 8 bytes are valid, and the bytes are initialised (they came as `&mut
        // [u8]`). `region` is an exclusive borrow for 'a that is moved into the new slice and
        // not used again, so the words are the only way to reach these bytes for 'a.
        let words = unsafe { core::slice::from_raw_parts_mut(ptr, len) };
        SharedTable {
            words,
            bucket_count,
            generation,
            key_salt,
            trusted,
        }
    }

    /// Ends sharing: the single-thread table over the same bytes, with fresh statistics.
    /// Every [`SharedHandle`] borrows the shared table, so none can outlive this.
    pub fn into_table(self) -> Table<'a> {
        let len = size_of_val::<[AtomicU64]>(self.words);
        let ptr = self.words.as_mut_ptr().cast::<u8>();
        // SAFETY: the words are `len` initialised bytes (an `AtomicU64` has no padding), any
        // byte is a valid `u8`, and `u8` needs no alignment. `self.words` is an exclusive
        // borrow for 'a that `self` gives up here, so the bytes are reachable only through the
        // returned slice for 'a; no handle remains (each borrows `self`).
        let region = unsafe { core::slice::from_raw_parts_mut(ptr, len) };
        Table {
            region,
            bucket_count: self.bucket_count,
            generation: self.generation,
            key_salt: self.key_salt,
            stats: TableStats::default(),
            trusted: self.trusted,
        }
    }

    /// A handle for one thread: it probes and stores ([`TranspositionTable`]) and counts its
    /// own traffic. Handles are `Send`; make one per worker.
    pub fn handle(&self) -> SharedHandle<'_> {
        SharedHandle {
            buckets: &self.words[HEADER_WORDS..],
            bucket_count: self.bucket_count,
            generation: self.generation,
            key_salt: self.key_salt,
            stats: TableStats::default(),
        }
    }

    /// Bytes of the table (header and buckets): the length of [`Table::as_bytes`] for the
    /// same table, and what [`copy_bytes`](SharedTable::copy_bytes) writes.
    pub fn byte_len(&self) -> usize {
        size_of_val::<[AtomicU64]>(self.words)
    }

    /// Copies the table's bytes into `out` as [`Table::as_bytes`] lays them out, so they can be
    /// saved and [loaded](Table::load) later, while other threads go on probing and storing
    /// (a checkpoint of a running search). An entry stored during the copy may come out torn;
    /// it then fails its check when loaded, like a damaged entry, and is a miss. Returns false,
    /// writing nothing, when `out` is not exactly [`byte_len`](SharedTable::byte_len) long.
    pub fn copy_bytes(&self, out: &mut [u8]) -> bool {
        if out.len() != self.byte_len() {
            return false;
        }
        for (word, chunk) in self
            .words
            .iter()
            .zip(out.chunks_exact_mut(size_of::<u64>()))
        {
            chunk.copy_from_slice(&Word::load(word).to_ne_bytes());
        }
        true
    }

    /// Number of buckets.
    pub fn bucket_count(&self) -> usize {
        self.bucket_count
    }

    /// As [`Table::is_trusted`]: false while the bytes are a loaded or attached table's.
    pub fn is_trusted(&self) -> bool {
        self.trusted
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.bucket_count * ENTRIES_PER_BUCKET
    }

    /// Occupied entries per thousand, estimated as [`Table::fill_per_mille`] does (while other
    /// threads store, a snapshot of a moving count).
    pub fn fill_per_mille(&self) -> u32 {
        let buckets = &self.words[HEADER_WORDS..];
        let samples = self.bucket_count.min(1024);
        let mut used = 0usize;
        for i in 0..samples {
            let start = sample_bucket(i, self.bucket_count, samples) * BUCKET_WORDS;
            let bucket = &buckets[start..start + BUCKET_WORDS];
            used += bucket
                .chunks_exact(2)
                .filter(|slot| Word::load(&slot[1]) != 0)
                .count();
        }
        (used * 1000 / (samples * ENTRIES_PER_BUCKET)) as u32
    }

    /// The current generation (entries from older ones are replaced first).
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Starts a new generation, as [`Table::new_generation`]. Handles made before must be
    /// dropped first (they borrow the table), and new ones store in the new generation.
    pub fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & ((1 << entry::GEN_BITS) - 1) as u8;
        self.write_header();
    }

    /// The salt of the searches' keys, as [`Table::key_salt`].
    pub fn key_salt(&self) -> u64 {
        self.key_salt
    }

    /// Makes every entry unreachable at once, as [`Table::rekey`]. Handles made before must be
    /// dropped first.
    pub fn rekey(&mut self) {
        self.key_salt = super::next_key_salt(self.key_salt);
        self.new_generation();
    }

    /// Empties every bucket and resets the generation and key salt; the table is trusted from
    /// now on, as after [`Table::clear`].
    pub fn clear(&mut self) {
        for word in &mut self.words[HEADER_WORDS..] {
            *word.get_mut() = 0;
        }
        self.generation = 0;
        self.key_salt = 0;
        self.trusted = true;
        self.write_header();
    }

    fn write_header(&mut self) {
        let mut bytes = [0u8; HEADER_BYTES];
        Header {
            bucket_count: self.bucket_count,
            generation: self.generation,
            key_salt: self.key_salt,
        }
        .write(&mut bytes);
        for (word, chunk) in self.words[..HEADER_WORDS]
            .iter_mut()
            .zip(bytes.chunks_exact(size_of::<u64>()))
        {
            *word.get_mut() = u64::from_ne_bytes(chunk.try_into().expect("8-byte chunk"));
        }
    }
}

/// One thread's access to a [`SharedTable`]: probes and stores through
/// [`TranspositionTable`], with its own [`TableStats`] (add the handles' counters up for the
/// table's).
pub struct SharedHandle<'t> {
    /// The bucket words (the header excluded).
    buckets: &'t [AtomicU64],
    bucket_count: usize,
    generation: u8,
    key_salt: u64,
    stats: TableStats,
}

impl SharedHandle<'_> {
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; BUCKET_WORDS] {
        let start = bucket_index(key, self.bucket_count) * BUCKET_WORDS;
        self.buckets[start..start + BUCKET_WORDS]
            .try_into()
            .expect("a bucket is BUCKET_WORDS words")
    }
}

impl TranspositionTable for SharedHandle<'_> {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.stats.probes += 1;
        let found = probe_bucket(self.bucket(key), key);
        if found.is_some() {
            self.stats.hits += 1;
        }
        found.map(RawEntry::decode)
    }

    #[inline]
    fn store(&mut self, key: u64, entry: &Entry) {
        self.stats.stores += 1;
        let raw = RawEntry::encode(key, entry, self.generation);
        if store_bucket(self.bucket(key), key, raw, self.generation) {
            self.stats.drops += 1;
        }
    }

    fn stats(&self) -> TableStats {
        self.stats
    }

    #[inline]
    fn key_salt(&self) -> u64 {
        self.key_salt
    }

    fn probe_dominant(
        &mut self,
        class_key: u64,
        applies: &mut dyn FnMut(u32, bool) -> bool,
    ) -> Option<Entry> {
        self.stats.probes += 1;
        let found = find_in_bucket(self.bucket(class_key), |raw| {
            raw.dominant_for(class_key)
                .is_some_and(|(material, wins)| applies(material, wins))
        });
        if found.is_some() {
            self.stats.hits += 1;
        }
        found.map(RawEntry::decode)
    }

    fn store_dominant(&mut self, class_key: u64, material: u32, mover_wins: bool, entry: &Entry) {
        self.stats.stores += 1;
        let raw =
            RawEntry::encode_dominant(class_key, material, mover_wins, entry, self.generation);
        let same = |seen: RawEntry| seen.dominant_for(class_key) == Some((material, mover_wins));
        if store_bucket_by(self.bucket(class_key), raw, self.generation, same) {
            self.stats.drops += 1;
        }
    }

    #[inline]
    fn prefetch_pays(&self) -> bool {
        super::prefetch_pays(self.bucket_count)
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.bucket(key);
            // SAFETY: `_mm_prefetch` only hints the cache; it never faults or writes, and the
            // pointer is to an in-bounds bucket anyway. SSE is part of the x86_64 baseline.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.as_ptr().cast::<i8>(),
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}
