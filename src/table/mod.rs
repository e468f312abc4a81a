//! The fixed-size lossy transposition table, in a caller-supplied byte buffer: the layout
//! (a 64-byte header, then 64-byte buckets of four 16-byte entries, [`entry`] has the encoding)
//! and the lock-free bucket protocol of [`shared`] are internals; [`Table`]'s documentation
//! describes what a user relies on.

pub mod entry;
#[cfg(target_has_atomic = "64")]
pub mod shared;

use core::fmt;
use core::mem::size_of;

pub use entry::{Entry, RawEntry};
#[cfg(target_has_atomic = "64")]
pub use shared::{SharedHandle, SharedTable};

/// Bytes in the header at the start of the table's aligned region.
pub const HEADER_BYTES: usize = 64;
/// Bytes in one bucket: one cache line.
pub const BUCKET_BYTES: usize = 64;
/// Entries in one bucket.
pub const ENTRIES_PER_BUCKET: usize = 4;
/// Bytes in one entry.
pub const ENTRY_BYTES: usize = 16;
/// The alignment the table gives its region (and each bucket).
pub const TABLE_ALIGN: usize = 64;
/// The most buckets a table uses: the bucket index comes from 32 key bits, and the table's
/// bytes, alignment slack included, must fit in `isize::MAX` (the limit of any Rust slice;
/// on 32-bit targets this is the tighter one, about 2^25 buckets). A saved header declaring
/// more is refused, so every size derived from a bucket count fits in a `usize`.
pub const MAX_BUCKETS: usize = {
    let by_address_space = (isize::MAX as usize - HEADER_BYTES - (TABLE_ALIGN - 1)) / BUCKET_BYTES;
    let by_index_bits = if usize::BITS > 32 {
        (1u64 << 32) as usize
    } else {
        usize::MAX
    };
    if by_address_space < by_index_bits {
        by_address_space
    } else {
        by_index_bits
    }
};
/// First bytes of a table's header.
pub const MAGIC: [u8; 8] = *b"PROOFNUM";
/// Version of the header and entry layout; bumped whenever saved tables become unreadable.
///
/// Version 2 hashes the data word into the key word with a non-linear mixer (version 1's linear
/// one let some torn pairs of words pass the check); version 3 makes the check cover all 128
/// bits of an entry, meta included; version 4 covers them at half the cost; version 5 stores a
/// solved entry's whole key; version 6 adds dominance entries (see [`entry`]).
pub const LAYOUT_VERSION: u32 = 6;
/// Written in native byte order; reading it back differently means a foreign byte order.
const BYTE_ORDER_MARK: u32 = 0x0102_0304;

/// One cache line of entries.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Bucket {
    slots: [RawEntry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(size_of::<Bucket>() == BUCKET_BYTES);
const _: () = assert!(size_of::<RawEntry>() == ENTRY_BYTES);

/// Why a buffer cannot be used as a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The buffer cannot hold the header and one bucket after alignment (or the saved table).
    TooSmall {
        /// Bytes required, including up to 63 bytes of alignment padding.
        needed: usize,
        /// Bytes given.
        available: usize,
    },
    /// The bytes do not begin with a table header.
    BadMagic,
    /// The header was written by an incompatible layout version.
    VersionMismatch {
        /// The version in the header.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The header describes another byte order or entry/bucket size.
    LayoutMismatch,
    /// The saved bytes are shorter than the bucket count in their header requires.
    Truncated {
        /// Bytes the header says the table occupies.
        needed: usize,
        /// Bytes given.
        available: usize,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooSmall { needed, available } => write!(
                f,
                "table buffer too small: {needed} bytes needed (header, one bucket, alignment), {available} given"
            ),
            TableError::BadMagic => f.write_str("not a proofnum table: bad magic"),
            TableError::VersionMismatch { found, expected } => write!(
                f,
                "table layout version {found} cannot be read by this build (version {expected})"
            ),
            TableError::LayoutMismatch => {
                f.write_str("table was saved with another byte order or entry size")
            }
            TableError::Truncated { needed, available } => write!(
                f,
                "saved table truncated: header needs {needed} bytes, {available} given"
            ),
        }
    }
}

/// Counters of table traffic since the table was made or cleared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that found their key.
    pub hits: u64,
    /// Writes.
    pub stores: u64,
    /// Writes that evicted a valid entry of another position (information the table lost).
    pub drops: u64,
}

impl TableStats {
    /// Adds another table's (or search's) counters to these.
    pub fn accumulate(&mut self, other: &TableStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.stores += other.stores;
        self.drops += other.drops;
    }

    /// The counters accumulated since `earlier`.
    pub fn since(&self, earlier: &TableStats) -> TableStats {
        TableStats {
            probes: self.probes - earlier.probes,
            hits: self.hits - earlier.hits,
            stores: self.stores - earlier.stores,
            drops: self.drops - earlier.drops,
        }
    }
}

/// What a search needs from a transposition table. The single-thread [`Table`] implements it,
/// and so does each thread's [`SharedHandle`] to a shared table over the same bytes.
pub trait TranspositionTable {
    /// The entry stored for `key`, if the table still has it.
    fn probe(&mut self, key: u64) -> Option<Entry>;
    /// A hint that `key` will be probed soon: start loading its bucket. The default does
    /// nothing.
    #[inline]
    fn prefetch(&self, _key: u64) {}
    /// Whether prefetching a position's children pays for the moves it costs (making each
    /// child's key means playing and taking back its move once more). The default, false,
    /// suits tables without [`prefetch`](TranspositionTable::prefetch) and tables small
    /// enough to stay in the caches.
    #[inline]
    fn prefetch_pays(&self) -> bool {
        false
    }
    /// Remembers `entry` for `key`, possibly evicting another entry.
    fn store(&mut self, key: u64, entry: &Entry);
    /// Counters of this table's traffic.
    fn stats(&self) -> TableStats;
    /// The salt the searches mix into every key they make over this table
    /// ([`Table::rekey`]). The default, 0, suits tables that are never rekeyed.
    #[inline]
    fn key_salt(&self) -> u64 {
        0
    }
    /// Makes every entry unreachable by changing the [`key_salt`](Self::key_salt), as
    /// [`Table::rekey`]; false when this table cannot (the default, and a handle to a table
    /// other threads share).
    fn rekey(&mut self) -> bool {
        false
    }
    /// A dominance entry of the class `class_key` whose material and result `applies`
    /// accepts (`applies(material, mover_wins)`), decoded (the table's dominance entries; for
    /// games with [`Game::dominance`](crate::Game::dominance)). The default knows none.
    fn probe_dominant(
        &mut self,
        class_key: u64,
        applies: &mut dyn FnMut(u32, bool) -> bool,
    ) -> Option<Entry> {
        let _ = (class_key, applies);
        None
    }
    /// Remembers that in the class `class_key`, the side to move wins (`mover_wins`) or fails
    /// with `material`, with `entry`'s best move, distance and work. The default forgets it.
    fn store_dominant(&mut self, class_key: u64, material: u32, mover_wins: bool, entry: &Entry) {
        let _ = (class_key, material, mover_wins, entry);
    }
}

/// The key under which df-pn and PNS store the results of `attacker`'s search that hold on
/// every path, for the position whose [`Game::hash`](crate::Game::hash) is `hash`, over a table
/// whose [`key_salt`](Table::key_salt) is `key_salt`: the splitmix64 finaliser of the hash
/// XOR a salt for the attacker and the table. An entry compares the key's high half (its
/// check) and, when solved, the low half too; the low half picks the bucket. For tools that
/// read saved tables, and for tests that build positions whose keys collide.
pub fn position_key(hash: u64, attacker: crate::Player, key_salt: u64) -> u64 {
    entry::mix64(hash ^ crate::keys::search_salt(attacker, key_salt))
}

/// The salt after `salt` ([`Table::rekey`]): the splitmix64 sequence.
pub(crate) fn next_key_salt(salt: u64) -> u64 {
    entry::mix64(salt.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// Tables from this size on are prefetched (`TranspositionTable::prefetch_pays`): smaller ones
/// stay in a core's L2 and L3 caches, where a probe costs less than the extra play, hash and
/// undo of prefetching (measured with callgrind and the Connect Four bench: 2 MiB L2 and 32 MiB
/// shared L3 on the development machines; the guide's benchmarks chapter has the figures).
pub const PREFETCH_MIN_BYTES: usize = 8 << 20;

/// True on targets where [`TranspositionTable::prefetch`] does something and the table of
/// `bucket_count` buckets is large enough for it to pay.
#[inline]
pub(crate) fn prefetch_pays(bucket_count: usize) -> bool {
    cfg!(target_arch = "x86_64") && bucket_count.saturating_mul(BUCKET_BYTES) >= PREFETCH_MIN_BYTES
}

/// The bucket for a key: its low 32 bits scaled onto the bucket count (Lemire's multiply-shift,
/// so any count works, not only powers of two).
#[inline]
pub fn bucket_index(key: u64, bucket_count: usize) -> usize {
    (((key as u32) as u64 * bucket_count as u64) >> 32) as usize
}

/// The `i`-th of `samples` buckets spread evenly over `bucket_count` (for the fill estimate).
/// Computed in 64 bits: `i * bucket_count` exceeds 32 bits for large tables on 32-bit targets.
#[inline]
fn sample_bucket(i: usize, bucket_count: usize, samples: usize) -> usize {
    (i as u64 * bucket_count as u64 / samples as u64) as usize
}

/// The header fields, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    bucket_count: usize,
    generation: u8,
    key_salt: u64,
}

impl Header {
    fn write(&self, out: &mut [u8]) {
        out[..HEADER_BYTES].fill(0);
        out[0..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&LAYOUT_VERSION.to_ne_bytes());
        out[12..16].copy_from_slice(&BYTE_ORDER_MARK.to_ne_bytes());
        out[16..20].copy_from_slice(&(ENTRY_BYTES as u32).to_ne_bytes());
        out[20..24].copy_from_slice(&(BUCKET_BYTES as u32).to_ne_bytes());
        out[24..32].copy_from_slice(&(self.bucket_count as u64).to_ne_bytes());
        out[32..36].copy_from_slice(&(self.generation as u32).to_ne_bytes());
        out[40..48].copy_from_slice(&self.key_salt.to_ne_bytes());
    }

    fn read(bytes: &[u8]) -> Result<Header, TableError> {
        if bytes.len() < HEADER_BYTES {
            return Err(TableError::Truncated {
                needed: HEADER_BYTES + BUCKET_BYTES,
                available: bytes.len(),
            });
        }
        let u32_at = |i: usize| u32::from_ne_bytes(bytes[i..i + 4].try_into().unwrap());
        if bytes[0..8] != MAGIC {
            return Err(TableError::BadMagic);
        }
        if u32_at(8) != LAYOUT_VERSION {
            return Err(TableError::VersionMismatch {
                found: u32_at(8),
                expected: LAYOUT_VERSION,
            });
        }
        if u32_at(12) != BYTE_ORDER_MARK
            || u32_at(16) != ENTRY_BYTES as u32
            || u32_at(20) != BUCKET_BYTES as u32
        {
            return Err(TableError::LayoutMismatch);
        }
        let count = u64::from_ne_bytes(bytes[24..32].try_into().unwrap());
        if count == 0 || count > MAX_BUCKETS as u64 {
            return Err(TableError::LayoutMismatch);
        }
        let generation = u32_at(32);
        if generation >= 1 << entry::GEN_BITS {
            return Err(TableError::LayoutMismatch);
        }
        let bucket_count = usize::try_from(count).map_err(|_| TableError::LayoutMismatch)?;
        Ok(Header {
            bucket_count,
            generation: generation as u8,
            key_salt: u64::from_ne_bytes(bytes[40..48].try_into().unwrap()),
        })
    }

    /// Bytes of header and buckets. `bucket_count` is at most [`MAX_BUCKETS`] (checked by
    /// `read`, capped by `Table::new`), so this cannot overflow; it saturates anyway, and a
    /// saturated size is larger than any buffer, so it could only ever be refused.
    fn table_bytes(&self) -> usize {
        self.bucket_count
            .saturating_mul(BUCKET_BYTES)
            .saturating_add(HEADER_BYTES)
    }
}

/// The fixed-size lossy transposition table over a caller's buffer, for one thread
/// ([`SharedTable`] is the same bytes used from many threads at once, converted without
/// copying).
///
/// The table aligns its region itself (so equal buffer sizes give equal tables at any
/// alignment) and fills it with 64-byte buckets (one cache line) of four 16-byte entries after
/// a 64-byte header ([`Table::required_bytes`], [`Table::bucket_count_for`]). A key's low 32
/// bits pick the bucket and its high 32 bits are the check stored in the entry. The table is
/// lossy by design and works with a single bucket: the searches keep every frame's children on
/// their own stack, so a dropped write slows a search down but never stops it.
///
/// Replacement keeps what is expensive to recompute: a store first updates the entry of the
/// same key, then fills an empty slot, and otherwise evicts the entry with the lowest keep
/// score (older generations first, then the smallest subtree, solved entries credited extra).
/// Generations ([`Table::new_generation`]) age entries between searches without clearing them.
///
/// The header (magic, layout version, byte order, sizes, bucket count, generation, key salt)
/// lets a caller save [`Table::as_bytes`] and load it later with [`Table::load`] or
/// [`Table::attach`]; a header that does not match this build's layout is rejected with a
/// [`TableError`].
///
/// # Trust: what the table may make the solver say
/// A probe that matches another position's entry (a false match) may cost work, never an
/// answer: solved entries match only their own 64-bit key, the searches ask the game's outcome
/// of a position whose numbers came from the table before expanding it, and every answer can
/// be confirmed ([`crate::confirm`]) by a walk that takes nothing from the table but which
/// move to try first. Random damage to saved bytes (a flipped bit, a torn write) makes an
/// entry miss: every entry carries a check over all its bits. The check is no secret, though:
/// whoever writes the bytes can write entries with valid checks that claim anything. So a
/// table whose bytes came from outside, through [`Table::load`] or [`Table::attach`], is
/// *untrusted* ([`Table::is_trusted`] is false) until [`Table::clear`] empties it, and an
/// answer found over it is only a claim to confirm (the C interface confirms every answer over
/// a loaded table, even when its caller opted out of confirmation). [`Table::rekey`] makes
/// every entry unreachable at once, which a refuted confirmation uses before it searches again.
pub struct Table<'a> {
    /// The 64-byte aligned region: header, then `bucket_count` buckets.
    region: &'a mut [u8],
    bucket_count: usize,
    generation: u8,
    /// Mixed into every key the searches make over this table ([`Table::rekey`]).
    key_salt: u64,
    stats: TableStats,
    /// False for bytes that came from outside (`load`, `attach`) until `clear`.
    trusted: bool,
}

impl<'a> Table<'a> {
    /// Bytes a buffer of unknown alignment needs for a table of `buckets` buckets
    /// (4 entries each), alignment slack included. Saturates at `usize::MAX` (no buffer is
    /// that large) instead of overflowing.
    pub const fn required_bytes(buckets: usize) -> usize {
        buckets
            .saturating_mul(BUCKET_BYTES)
            .saturating_add(HEADER_BYTES + TABLE_ALIGN - 1)
    }

    /// The smallest usable buffer: header, one bucket and alignment slack.
    pub const MIN_BYTES: usize = Self::required_bytes(1);

    /// The buckets [`Table::new`] makes in a buffer of `bytes` bytes, wherever the buffer
    /// starts: what is left after the header and the most alignment padding any address needs.
    /// So equal buffer sizes give equal tables, and a saved table loads into a buffer of the
    /// size it was made in.
    pub const fn bucket_count_for(bytes: usize) -> usize {
        let buckets = bytes.saturating_sub(HEADER_BYTES + TABLE_ALIGN - 1) / BUCKET_BYTES;
        if buckets < MAX_BUCKETS {
            buckets
        } else {
            MAX_BUCKETS
        }
    }

    /// Makes an empty table of [`Table::bucket_count_for`] `buf.len()` buckets.
    pub fn new(buf: &'a mut [u8]) -> Result<Table<'a>, TableError> {
        let available = buf.len();
        let bucket_count = Self::bucket_count_for(available);
        let region = aligned_region(buf);
        if bucket_count == 0 {
            return Err(TableError::TooSmall {
                needed: Self::MIN_BYTES,
                available,
            });
        }
        let header = Header {
            bucket_count,
            generation: 0,
            key_salt: 0,
        };
        let region = &mut region[..header.table_bytes()];
        header.write(region);
        let mut table = Table {
            region,
            bucket_count,
            generation: 0,
            key_salt: 0,
            stats: TableStats::default(),
            trusted: true,
        };
        crate::memory::clear_lazily(table.buckets_mut(), Bucket::default());
        Ok(table)
    }

    /// Uses a buffer that already holds a table at its 64-byte aligned start (one written by
    /// this build, saved and placed back at an aligned address, or shared memory), without
    /// clearing it. The table is untrusted (see [trust](Table#trust-what-the-table-may-make-the-solver-say)).
    pub fn attach(buf: &'a mut [u8]) -> Result<Table<'a>, TableError> {
        let available = buf.len();
        let region = aligned_region(buf);
        let header = Header::read(region)?;
        if region.len() < header.table_bytes() {
            return Err(TableError::Truncated {
                needed: header.table_bytes(),
                available: region.len().min(available),
            });
        }
        Ok(Table {
            region: &mut region[..header.table_bytes()],
            bucket_count: header.bucket_count,
            generation: header.generation,
            key_salt: header.key_salt,
            stats: TableStats::default(),
            trusted: false,
        })
    }

    /// Makes a table in `buf` from bytes saved with [`as_bytes`](Table::as_bytes). The saved
    /// header is validated before anything is copied; on error `buf` is untouched. The table is
    /// untrusted: an answer found over it is a claim to confirm with
    /// [`Dfpn::verify`](crate::Dfpn::verify) (see [trust](Table#trust-what-the-table-may-make-the-solver-say)).
    pub fn load(buf: &'a mut [u8], saved: &[u8]) -> Result<Table<'a>, TableError> {
        let header = Header::read(saved)?;
        let bytes = header.table_bytes();
        if saved.len() < bytes {
            return Err(TableError::Truncated {
                needed: bytes,
                available: saved.len(),
            });
        }
        let available = buf.len();
        let pad = buf.as_ptr().align_offset(TABLE_ALIGN);
        if pad > available || available - pad < bytes {
            return Err(TableError::TooSmall {
                needed: bytes + TABLE_ALIGN - 1,
                available,
            });
        }
        let region = &mut aligned_region(buf)[..bytes];
        region.copy_from_slice(&saved[..bytes]);
        Ok(Table {
            region,
            bucket_count: header.bucket_count,
            generation: header.generation,
            key_salt: header.key_salt,
            stats: TableStats::default(),
            trusted: false,
        })
    }

    /// The table's bytes (header and buckets), ready to save and [`load`](Table::load) later.
    pub fn as_bytes(&self) -> &[u8] {
        self.region
    }

    /// Number of buckets.
    pub fn bucket_count(&self) -> usize {
        self.bucket_count
    }

    /// False for a table whose bytes came from outside ([`load`](Table::load),
    /// [`attach`](Table::attach)) and have not been [cleared](Table::clear) since: answers
    /// found over it are claims to confirm (see [trust](Table#trust-what-the-table-may-make-the-solver-say)).
    pub fn is_trusted(&self) -> bool {
        self.trusted
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.bucket_count * ENTRIES_PER_BUCKET
    }

    /// The current generation (entries from older ones are replaced first).
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Starts a new generation: existing entries stay usable but are the first to be replaced.
    pub fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & ((1 << entry::GEN_BITS) - 1) as u8;
        self.write_header();
    }

    /// The salt mixed into every key the searches make over this table: 0 for a new table,
    /// changed by [`rekey`](Table::rekey).
    pub fn key_salt(&self) -> u64 {
        self.key_salt
    }

    /// Makes every entry unreachable at once, without touching the buckets: the searches mix
    /// a new salt into their keys, so what they stored before matches none of them (but a
    /// false match, as any other position's entry) and, in an older generation, is replaced
    /// first. What a confirmation that refuted an answer does before the search runs again
    /// ([`crate::confirm`]): the same search over new keys meets none of the old false
    /// matches. A cleared table starts again from salt 0.
    pub fn rekey(&mut self) {
        self.key_salt = next_key_salt(self.key_salt);
        self.new_generation();
    }

    /// Empties every bucket, resets the generation, the key salt and the statistics. The table
    /// is trusted from now on: it holds only what searches store.
    pub fn clear(&mut self) {
        crate::memory::clear_lazily(self.buckets_mut(), Bucket::default());
        self.generation = 0;
        self.key_salt = 0;
        self.stats = TableStats::default();
        self.trusted = true;
        self.write_header();
    }

    /// Occupied entries per thousand, estimated from up to 1024 buckets spread evenly over the
    /// table (exact for tables of up to 1024 buckets).
    pub fn fill_per_mille(&self) -> u32 {
        let buckets = self.buckets();
        let samples = buckets.len().min(1024);
        let mut used = 0usize;
        for i in 0..samples {
            let b = &buckets[sample_bucket(i, buckets.len(), samples)];
            used += b.slots.iter().filter(|s| !s.is_empty()).count();
        }
        (used * 1000 / (samples * ENTRIES_PER_BUCKET)) as u32
    }

    fn write_header(&mut self) {
        Header {
            bucket_count: self.bucket_count,
            generation: self.generation,
            key_salt: self.key_salt,
        }
        .write(self.region);
    }

    #[inline]
    fn buckets(&self) -> &[Bucket] {
        let ptr = self.region[HEADER_BYTES..].as_ptr() as *const Bucket;
        // SAFETY: `region` is 64-byte aligned (see `aligned_region`) and exactly
        // HEADER_BYTES + bucket_count * 64 long, so the bytes after the header are
        // `bucket_count` 64-aligned, in-bounds `Bucket`s. `Bucket` is plain `u64`s (any bit
        // pattern is valid) and the memory is initialised because it came from a `&mut [u8]`.
        // The shared borrow of `self` keeps the region borrowed for the returned lifetime.
        unsafe { core::slice::from_raw_parts(ptr, self.bucket_count) }
    }

    #[inline]
    fn buckets_mut(&mut self) -> &mut [Bucket] {
        let ptr = self.region[HEADER_BYTES..].as_mut_ptr() as *mut Bucket;
        // SAFETY: as in `buckets`; the exclusive borrow of `self` makes this the only
        // reference to the bucket bytes for the returned lifetime.
        unsafe { core::slice::from_raw_parts_mut(ptr, self.bucket_count) }
    }
}

impl TranspositionTable for Table<'_> {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.stats.probes += 1;
        let bucket = &self.buckets()[bucket_index(key, self.bucket_count)];
        let found = bucket.slots.iter().find(|s| s.matches(key)).copied();
        if found.is_some() {
            self.stats.hits += 1;
        }
        found.map(RawEntry::decode)
    }

    #[inline]
    fn store(&mut self, key: u64, entry: &Entry) {
        let raw = RawEntry::encode(key, entry, self.generation);
        self.store_raw(key, raw, |s| s.matches(key));
    }

    fn probe_dominant(
        &mut self,
        class_key: u64,
        applies: &mut dyn FnMut(u32, bool) -> bool,
    ) -> Option<Entry> {
        self.stats.probes += 1;
        let bucket = &self.buckets()[bucket_index(class_key, self.bucket_count)];
        let found = bucket.slots.iter().copied().find(|s| {
            s.dominant_for(class_key)
                .is_some_and(|(material, wins)| applies(material, wins))
        });
        if found.is_some() {
            self.stats.hits += 1;
        }
        found.map(RawEntry::decode)
    }

    fn store_dominant(&mut self, class_key: u64, material: u32, mover_wins: bool, entry: &Entry) {
        let raw =
            RawEntry::encode_dominant(class_key, material, mover_wins, entry, self.generation);
        self.store_raw(class_key, raw, |s| {
            s.dominant_for(class_key) == Some((material, mover_wins))
        });
    }

    fn stats(&self) -> TableStats {
        self.stats
    }

    #[inline]
    fn key_salt(&self) -> u64 {
        self.key_salt
    }

    fn rekey(&mut self) -> bool {
        Table::rekey(self);
        true
    }

    #[inline]
    fn prefetch_pays(&self) -> bool {
        prefetch_pays(self.bucket_count)
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = &self.buckets()[bucket_index(key, self.bucket_count)];
            // SAFETY: `_mm_prefetch` only hints the cache; it never faults or writes, and the
            // pointer is to an in-bounds bucket anyway. SSE is part of the x86_64 baseline.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    (bucket as *const Bucket).cast::<i8>(),
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

impl Table<'_> {
    /// Writes `raw` into `key`'s bucket: over the slot `same` recognises as its own, else over
    /// an empty one or the one least worth keeping.
    #[inline]
    fn store_raw(&mut self, key: u64, raw: RawEntry, same: impl Fn(RawEntry) -> bool) {
        self.stats.stores += 1;
        let generation = self.generation;
        let index = bucket_index(key, self.bucket_count);
        let bucket = &mut self.buckets_mut()[index];
        let slot = match bucket.slots.iter().position(|&s| same(s)) {
            Some(i) => i,
            None => {
                let (i, victim) = bucket
                    .slots
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, s)| s.keep_score(generation))
                    .expect("a bucket has slots");
                if !victim.is_empty() {
                    self.stats.drops += 1;
                }
                i
            }
        };
        self.buckets_mut()[index].slots[slot] = raw;
    }
}

/// The part of `buf` that starts at its first 64-byte aligned address (empty if none).
fn aligned_region(buf: &mut [u8]) -> &mut [u8] {
    let pad = buf.as_ptr().align_offset(TABLE_ALIGN).min(buf.len());
    &mut buf[pad..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Numbers;
    use std::vec;
    use std::vec::Vec;

    fn entry(phi: u32, delta: u32, work: u64) -> Entry {
        Entry::new(Numbers::new(phi, delta), None, 0, work)
    }

    #[test]
    fn too_small_buffers_are_rejected() {
        // Less than a header and a bucket fails at any alignment.
        let mut buf = vec![0u8; HEADER_BYTES + BUCKET_BYTES - 1];
        assert!(matches!(
            Table::new(&mut buf),
            Err(TableError::TooSmall { .. })
        ));
        let mut buf = vec![0u8; Table::MIN_BYTES];
        let t = Table::new(&mut buf).unwrap();
        assert_eq!(t.bucket_count(), 1);
        assert_eq!(t.capacity(), 4);
    }

    #[test]
    fn one_bucket_keeps_the_most_expensive_entries() {
        let mut buf = vec![0u8; Table::MIN_BYTES];
        let mut t = Table::new(&mut buf).unwrap();
        // Keys differ only in their check bits, so they share the single bucket.
        for (i, work) in [1000u64, 1, 500, 2].into_iter().enumerate() {
            t.store((i as u64 + 1) << 32, &entry(2, 2, work));
        }
        t.store(99 << 32, &entry(3, 3, 100));
        assert_eq!(t.stats().drops, 1);
        assert!(t.probe(2 << 32).is_none(), "the cheapest entry was evicted");
        for k in [1u64, 3, 4, 99] {
            assert!(t.probe(k << 32).is_some(), "key {k} kept");
        }
    }

    #[test]
    fn solved_entries_outlive_unsolved_ones_of_equal_work() {
        let mut buf = vec![0u8; Table::MIN_BYTES];
        let mut t = Table::new(&mut buf).unwrap();
        t.store(1 << 32, &Entry::new(Numbers::WIN, None, 3, 8));
        for k in 2..=4u64 {
            t.store(k << 32, &entry(5, 5, 8));
        }
        t.store(5 << 32, &entry(5, 5, 8));
        assert!(t.probe(1 << 32).is_some());
    }

    #[test]
    fn older_generations_are_replaced_first() {
        let mut buf = vec![0u8; Table::MIN_BYTES];
        let mut t = Table::new(&mut buf).unwrap();
        t.store(1 << 32, &entry(2, 2, 1 << 20));
        t.new_generation();
        for k in 2..=4u64 {
            t.store(k << 32, &entry(2, 2, 1));
        }
        t.store(5 << 32, &entry(2, 2, 1));
        assert!(
            t.probe(1 << 32).is_none(),
            "stale expensive entry went first"
        );
        assert!(t.probe(5 << 32).is_some());
    }

    #[test]
    fn store_updates_in_place_and_clear_empties() {
        let mut buf = vec![0u8; Table::required_bytes(16)];
        let mut t = Table::new(&mut buf).unwrap();
        assert_eq!(t.bucket_count(), 16);
        t.store(0xABCD_0000_1234, &entry(4, 5, 10));
        t.store(0xABCD_0000_1234, &entry(6, 7, 20));
        let e = t.probe(0xABCD_0000_1234).unwrap();
        assert_eq!(e.numbers, Numbers::new(6, 7));
        assert_eq!(t.stats().drops, 0);
        assert!(t.fill_per_mille() > 0);
        t.clear();
        assert!(t.probe(0xABCD_0000_1234).is_none());
        assert_eq!(t.fill_per_mille(), 0);
    }

    #[test]
    fn save_and_load_round_trip_across_alignments() {
        let mut buf = vec![0u8; Table::required_bytes(8)];
        let mut t = Table::new(&mut buf).unwrap();
        t.new_generation();
        t.store(42 << 32 | 7, &Entry::new(Numbers::WIN, Some(3), 9, 77));
        let saved = t.as_bytes().to_vec();
        // Load into a buffer starting at every offset of a cache line.
        let mut big = vec![0u8; saved.len() + 2 * TABLE_ALIGN];
        for off in [0usize, 1, 7, 33] {
            let mut loaded = Table::load(&mut big[off..], &saved).unwrap();
            assert_eq!(loaded.generation(), 1);
            assert_eq!(loaded.bucket_count(), 8);
            let e = loaded.probe(42 << 32 | 7).unwrap();
            assert_eq!(e.best, Some(3));
            assert_eq!(e.distance, 9);
        }
    }

    #[test]
    fn bad_headers_are_rejected_and_leave_the_buffer_intact() {
        let mut buf = vec![0u8; Table::required_bytes(2)];
        let t = Table::new(&mut buf).unwrap();
        let saved = t.as_bytes().to_vec();
        let mut target = vec![0xEEu8; saved.len() + TABLE_ALIGN];

        let mut bad = saved.clone();
        bad[0] = b'X';
        assert_eq!(
            Table::load(&mut target, &bad).err(),
            Some(TableError::BadMagic)
        );
        let mut bad = saved.clone();
        bad[8..12].copy_from_slice(&99u32.to_ne_bytes());
        assert_eq!(
            Table::load(&mut target, &bad).err(),
            Some(TableError::VersionMismatch {
                found: 99,
                expected: LAYOUT_VERSION
            })
        );
        let mut bad = saved.clone();
        bad[12..16].copy_from_slice(&BYTE_ORDER_MARK.swap_bytes().to_ne_bytes());
        assert_eq!(
            Table::load(&mut target, &bad).err(),
            Some(TableError::LayoutMismatch)
        );
        assert!(matches!(
            Table::load(&mut target, &saved[..saved.len() - 1]),
            Err(TableError::Truncated { .. })
        ));
        let mut small = vec![0xEEu8; saved.len() - 1];
        assert!(matches!(
            Table::load(&mut small, &saved),
            Err(TableError::TooSmall { .. })
        ));
        assert!(target.iter().all(|&b| b == 0xEE), "target untouched");
        assert!(small.iter().all(|&b| b == 0xEE), "target untouched");
    }

    /// A saved table whose header declares `count` buckets, followed by `body` bytes of
    /// buckets (fewer than the header says, unless the count is tiny).
    fn header_declaring(count: u64, body: usize) -> Vec<u8> {
        let mut buf = vec![0u8; Table::required_bytes(1)];
        let saved = Table::new(&mut buf).unwrap().as_bytes().to_vec();
        let mut forged = saved[..HEADER_BYTES].to_vec();
        forged[24..32].copy_from_slice(&count.to_ne_bytes());
        forged.resize(HEADER_BYTES + body, 0);
        forged
    }

    #[test]
    fn absurd_bucket_counts_are_refused_without_overflow() {
        // On a 32-bit target 64 + (2^26 + 1) * 64 wraps to 128: the review's 128-byte saved
        // table that loaded and then indexed far past its buffer (run this test under Miri
        // with `--target i686-unknown-linux-gnu`). Every count here is refused on every
        // target, by the bucket cap or as truncated, and the target stays untouched.
        let mut target = vec![0xEEu8; 4096];
        let counts = [
            (1u64 << 26) + 1,
            (1 << 26) + 2,
            1 << 31,
            (1 << 32) + 1,
            MAX_BUCKETS as u64 + 1,
            (usize::MAX / BUCKET_BYTES) as u64 + 1,
            u64::MAX / BUCKET_BYTES as u64,
            u64::MAX,
        ];
        for count in counts {
            let forged = header_declaring(count, BUCKET_BYTES);
            let loaded = Table::load(&mut target, &forged);
            assert!(loaded.is_err(), "{count} buckets in 128 bytes loaded");
            if count > MAX_BUCKETS as u64 {
                assert_eq!(loaded.err(), Some(TableError::LayoutMismatch));
            }
            let mut in_place = forged.clone();
            in_place.resize(4096, 0);
            assert!(Table::attach(&mut in_place).is_err(), "{count} attached");
        }
        assert!(target.iter().all(|&b| b == 0xEE), "target untouched");
        // The largest count is accepted by the header and asks for its bytes.
        let forged = header_declaring(MAX_BUCKETS as u64, BUCKET_BYTES);
        assert!(matches!(
            Table::load(&mut target, &forged),
            Err(TableError::Truncated { .. })
        ));
        assert_eq!(Table::required_bytes(usize::MAX), usize::MAX);
        assert!(Table::required_bytes(MAX_BUCKETS) <= isize::MAX as usize);
    }

    #[test]
    fn tables_from_outside_bytes_are_untrusted_until_cleared() {
        let mut buf = vec![0u8; Table::required_bytes(4)];
        let t = Table::new(&mut buf).unwrap();
        assert!(t.is_trusted(), "only what searches store");
        let saved = t.as_bytes().to_vec();
        let mut target = vec![0u8; saved.len() + TABLE_ALIGN];
        let mut loaded = Table::load(&mut target, &saved).unwrap();
        assert!(!loaded.is_trusted(), "loaded bytes are a claim");
        loaded.new_generation();
        assert!(
            !loaded.is_trusted(),
            "a new generation keeps the old entries"
        );
        #[cfg(target_has_atomic = "64")]
        let mut loaded = {
            let shared = SharedTable::from_table(loaded);
            assert!(!shared.is_trusted());
            shared.into_table()
        };
        loaded.clear();
        assert!(loaded.is_trusted(), "emptied");
        assert!(!Table::attach(&mut buf).unwrap().is_trusted());
    }

    #[test]
    fn attach_reuses_an_aligned_table_in_place() {
        let mut buf = vec![0u8; Table::required_bytes(4)];
        {
            let mut t = Table::new(&mut buf).unwrap();
            t.store(5 << 32, &entry(8, 9, 3));
        }
        let mut t = Table::attach(&mut buf).unwrap();
        assert_eq!(t.probe(5 << 32).unwrap().numbers, Numbers::new(8, 9));
        let mut junk = vec![1u8; 256];
        assert_eq!(Table::attach(&mut junk).err(), Some(TableError::BadMagic));
    }

    #[test]
    fn fill_samples_stay_in_the_table_at_the_largest_bucket_count() {
        // 1023 * MAX_BUCKETS overflows 32 bits on 32-bit targets (and 2^32 buckets times
        // 1023 fits 64): the sample index must still be the last bucket's neighbourhood.
        let last = sample_bucket(1023, MAX_BUCKETS, 1024);
        assert!((MAX_BUCKETS - MAX_BUCKETS / 1024 - 1..MAX_BUCKETS).contains(&last));
        assert_eq!(sample_bucket(0, MAX_BUCKETS, 1024), 0);
        assert_eq!(sample_bucket(5, 10, 10), 5);
    }

    #[test]
    fn equal_buffer_sizes_give_equal_tables_at_any_address() {
        // A table saved from a buffer must load into another buffer of the same size, wherever
        // either starts (the bucket count once depended on the buffer's alignment).
        let mut big = vec![0u8; 4096 + 2 * TABLE_ALIGN];
        for len in [Table::MIN_BYTES, 1000, 4096] {
            let counts: Vec<usize> = (0..TABLE_ALIGN)
                .map(|offset| {
                    Table::new(&mut big[offset..offset + len])
                        .unwrap()
                        .bucket_count()
                })
                .collect();
            assert!(
                counts.iter().all(|&c| c == Table::bucket_count_for(len)),
                "{len}: {counts:?}"
            );
            let saved = Table::new(&mut big[..len]).unwrap().as_bytes().to_vec();
            let mut target = vec![0u8; len + TABLE_ALIGN];
            for offset in 0..TABLE_ALIGN {
                let loaded = Table::load(&mut target[offset..offset + len], &saved);
                assert!(
                    loaded.is_ok(),
                    "{len} bytes at offset {offset}: {:?}",
                    loaded.err()
                );
            }
        }
        assert_eq!(Table::bucket_count_for(Table::required_bytes(77)), 77);
    }

    #[test]
    fn bucket_index_spans_the_table() {
        assert_eq!(bucket_index(u32::MAX as u64, 10), 9);
        assert_eq!(bucket_index(0, 10), 0);
        assert_eq!(bucket_index(0xFFFF_FFFF_0000_0000, 1), 0);
    }
}
