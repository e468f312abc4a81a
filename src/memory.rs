//! Carving caller-supplied byte buffers into aligned, typed regions.
//!
//! Every byte the solver touches comes from buffers the caller hands in, in the spirit of zstd's
//! static contexts: a size query (`*_bytes`) says how much to give, a constructor carves the
//! buffer, and running short is a [`MemoryError`], never a panic. This module owns the one
//! pointer cast that turns bytes into typed slots.

use core::fmt;
use core::mem::{MaybeUninit, align_of, size_of};

/// A buffer that cannot hold what was asked of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// The buffer holds `available` bytes but `needed` are required (alignment included).
    TooSmall {
        /// Bytes required.
        needed: usize,
        /// Bytes given.
        available: usize,
    },
    /// A size or count does not fit the layout (too deep a stack, an overflowing size).
    Unsupported,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::TooSmall { needed, available } => {
                write!(
                    f,
                    "buffer too small: {needed} bytes needed, {available} given"
                )
            }
            MemoryError::Unsupported => f.write_str("size outside the supported range"),
        }
    }
}

/// Bytes to reserve for `count` values of `T` carved from a buffer of unknown alignment:
/// the values themselves plus the worst-case padding to align the first one.
pub const fn bytes_for<T>(count: usize) -> usize {
    count
        .saturating_mul(size_of::<T>())
        .saturating_add(align_of::<T>() - 1)
}

/// Hands out aligned typed regions from the front of a byte buffer.
pub struct Carver<'a> {
    rest: &'a mut [u8],
    needed: usize,
    failed: bool,
    given: usize,
}

impl<'a> Carver<'a> {
    /// Starts carving `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        let given = buf.len();
        Carver {
            rest: buf,
            needed: 0,
            failed: false,
            given,
        }
    }

    /// Takes `count` uninitialised slots of `T`, aligned for `T`.
    ///
    /// On failure the carver remembers it, and [`finish`](Carver::finish) reports the total
    /// that would have been needed, so callers can carve several regions and check once.
    pub fn take<T>(&mut self, count: usize) -> Option<&'a mut [MaybeUninit<T>]> {
        if count == 0 {
            // Nothing to place, so no padding either.
            return Some(&mut []);
        }
        let rest = core::mem::take(&mut self.rest);
        let pad = rest.as_ptr().align_offset(align_of::<T>());
        let Some(len) = count.checked_mul(size_of::<T>()) else {
            self.failed = true;
            self.needed = usize::MAX;
            return None;
        };
        self.needed = self
            .needed
            .saturating_add(pad.min(rest.len()))
            .saturating_add(len);
        if self.failed || pad > rest.len() || rest.len() - pad < len {
            self.failed = true;
            self.rest = rest;
            return None;
        }
        let (_, aligned) = rest.split_at_mut(pad);
        let (region, tail) = aligned.split_at_mut(len);
        self.rest = tail;
        let ptr = region.as_mut_ptr() as *mut MaybeUninit<T>;
        // SAFETY: `region` is an exclusively borrowed, in-bounds run of `count * size_of::<T>()`
        // bytes whose start is aligned for `T` (we skipped `align_offset` bytes), and it lives
        // for `'a`. Any byte pattern is a valid `MaybeUninit<T>`, and no other reference to these
        // bytes exists once `region` is consumed here. For zero-sized `T`, a dangling aligned
        // pointer with any count is valid.
        Some(unsafe { core::slice::from_raw_parts_mut(ptr, count) })
    }

    /// Takes `count` slots of `T`, each set to `value`: typed, initialised memory the safe
    /// code can index freely.
    pub fn take_filled<T: Copy>(&mut self, count: usize, value: T) -> Option<&'a mut [T]> {
        let slots = self.take::<T>(count)?;
        for slot in slots.iter_mut() {
            slot.write(value);
        }
        let ptr = slots.as_mut_ptr() as *mut T;
        // SAFETY: every slot of `slots` was initialised by the loop above, and
        // `MaybeUninit<T>` has the layout of `T`; the exclusive borrow moves into the result.
        Some(unsafe { core::slice::from_raw_parts_mut(ptr, count) })
    }

    /// Takes `count` slots of `T` that become usable, each set to `T::default()`, as
    /// [`LazySlots::reserve`] asks for them.
    pub fn take_lazy<T: Copy + Default>(&mut self, count: usize) -> Option<LazySlots<'a, T>> {
        let slots = self.take::<T>(count)?;
        Some(LazySlots { slots, filled: 0 })
    }

    /// `Ok` when every `take` succeeded, otherwise how many bytes all of them needed.
    pub fn finish(self) -> Result<(), MemoryError> {
        if self.failed {
            Err(MemoryError::TooSmall {
                needed: self.needed,
                available: self.given,
            })
        } else {
            Ok(())
        }
    }
}

/// Slots of `T` carved at once but set to their first value only as they are first needed,
/// a step at a time: the slice they deref to is the prefix set so far. The first value is
/// `T::default()`, so that the searcher's struct grows by one word, not a `T` (a bare-metal
/// caller's solver memory is counted in bytes).
///
/// Why: a search's stack is sized for its deepest line (df-pn's children, `max_depth + 1`
/// frames of `max_moves` each: 25 MB for chess's 4000 plies), but most searches use a small
/// prefix of it. Setting every slot when the stack is carved wrote all of it for every
/// searcher made, most of a quick mate's time (`chess::mate::solve_mate`, two searchers a
/// call).
pub struct LazySlots<'a, T> {
    slots: &'a mut [MaybeUninit<T>],
    /// Slots `..filled` are set.
    filled: usize,
}

impl<T: Copy + Default> LazySlots<'_, T> {
    /// Slots set ahead of need at a time, so that a search going deeper sets them seldom.
    const STEP: usize = 4096;

    /// How many slots there are, set or not.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Makes the first `len` slots usable (setting those not set yet): false, with nothing
    /// changed, when there are fewer.
    #[inline]
    pub fn reserve(&mut self, len: usize) -> bool {
        if len <= self.filled {
            return true;
        }
        if len > self.slots.len() {
            return false;
        }
        let end = len.saturating_add(Self::STEP).min(self.slots.len());
        for slot in &mut self.slots[self.filled..end] {
            slot.write(T::default());
        }
        self.filled = end;
        true
    }
}

impl<T> core::ops::Deref for LazySlots<'_, T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `reserve` wrote every slot of `slots[..filled]` before raising `filled`,
        // `filled <= slots.len()`, and `MaybeUninit<T>` has the layout of `T`.
        unsafe { core::slice::from_raw_parts(self.slots.as_ptr() as *const T, self.filled) }
    }
}

impl<T> core::ops::DerefMut for LazySlots<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; the exclusive borrow of `self` covers the slots.
        unsafe { core::slice::from_raw_parts_mut(self.slots.as_mut_ptr() as *mut T, self.filled) }
    }
}

/// Sets every element of `slice` to `empty`, writing only the elements that differ.
///
/// Why: memory fresh from the operating system (a `calloc`ed or `vec![0; n]` buffer) is
/// mapped to one shared zero page until it is first written; writing it, even with the zeros
/// it already reads as, makes the system find, zero and map every page of it. Read instead,
/// a clear buffer stays unallocated, and only the pages a search stores into are ever made:
/// a 64 MiB table for a search of a few hundred positions no longer costs 64 MiB of page
/// zeroing (`proofnum chess` on a mate in one: 0.14 s before, 0.01 s after; see the
/// CHANGELOG). Memory a search has dirtied costs no more than a plain fill did.
pub(crate) fn clear_lazily<T: Copy + PartialEq>(slice: &mut [T], empty: T) {
    for element in slice.iter_mut() {
        if *element != empty {
            *element = empty;
        }
    }
}

/// Writes one element of every 4 KiB of `buf` (the value it holds), so that the system
/// allocates all of the buffer now instead of at a search's first stores into each page.
///
/// For benchmarks that time a search alone against a program that prepares its table before
/// its clock starts: since [`Table::new`](crate::Table::new) leaves memory that is already
/// clear unwritten, a fresh buffer's page faults would otherwise fall inside the search (a
/// 1 GiB table on huge pages: 2.4 s more in one tsume-shogi search on the development
/// machine). Programs that answer a question need not call it: they pay only for the pages
/// they use.
pub fn prefault<T: Copy>(buf: &mut [T]) {
    for page in buf.chunks_mut((4096 / size_of::<T>().max(1)).max(1)) {
        // An unknown value must be stored: the write cannot be left out.
        page[0] = core::hint::black_box(page[0]);
    }
}

/// The size of a huge page on x86_64 and aarch64 Linux: transparent huge pages come in
/// aligned blocks of it.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Asks the system to back `buf` with huge pages where it can (Linux's transparent huge pages,
/// `madvise(MADV_HUGEPAGE)` on the aligned 2 MiB blocks inside it); returns whether it did.
/// Call it before the memory is first written (before [`Table::new`](crate::Table::new)),
/// which is when the pages are chosen. The contents do not change.
///
/// Why: a table of hundreds of MiB is probed at random, so with 4 KiB pages nearly every probe
/// also misses the TLB and walks the page tables; profiles show the search stalled on its
/// table prefetches. With 2 MiB pages, tsume-shogi's df-pn ran the same MID calls in a median
/// 0.89 of the time (1 GiB table; the CHANGELOG and the guide's "Using it from Rust"). Small
/// buffers (no aligned block inside), kernels without transparent huge pages (the call fails:
/// `false`) and other systems: nothing is done. The size assumes 4 KiB base pages (x86_64,
/// most aarch64 kernels); elsewhere the advice covers fewer, larger blocks or none.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn advise_huge_pages(buf: &mut [u8]) -> bool {
    // Not under Miri, which has no `madvise` (and no pages to choose).
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        let start = buf.as_mut_ptr();
        let skip = start.align_offset(HUGE_PAGE_BYTES);
        if skip >= buf.len() {
            return false;
        }
        let len = (buf.len() - skip) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if len == 0 {
            return false;
        }
        // SAFETY: `start + skip .. + len` lies inside `buf`, which this function borrows
        // mutably, so the range is memory this process owns and nothing else uses now. The
        // address is aligned to a huge page, hence to a page as `madvise` requires.
        // MADV_HUGEPAGE is advice about page size only: it never changes, frees or unmaps
        // the memory, so the slice stays valid and its contents are kept.
        let done = unsafe {
            libc::madvise(
                start.add(skip).cast::<libc::c_void>(),
                len,
                libc::MADV_HUGEPAGE,
            )
        };
        done == 0
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    {
        let _ = buf;
        false
    }
}

/// `bytes` zeroed bytes for a [`Table`](crate::Table) (or any large, randomly probed buffer),
/// advised for huge pages ([`advise_huge_pages`]). The zeroed pages are handed out by the
/// system lazily, so the allocation itself touches nothing. Aborts like `vec!` when the
/// allocator refuses; check first with `Vec::try_reserve_exact` to report that instead.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn table_memory(bytes: usize) -> std::vec::Vec<u8> {
    let mut memory = std::vec![0u8; bytes];
    advise_huge_pages(&mut memory);
    memory
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_lazily_empties_every_element() {
        let mut words = [0u64, 7, 0, u64::MAX, 1];
        clear_lazily(&mut words, 0);
        assert_eq!(words, [0; 5]);
        let mut bytes = [9u8; 3];
        clear_lazily(&mut bytes, 9);
        assert_eq!(bytes, [9; 3]);
    }

    #[test]
    fn lazy_slots_are_set_as_they_are_reserved() {
        let mut buf = [0xA5u8; 64 * 1024];
        let mut carver = Carver::new(&mut buf);
        let mut slots = carver.take_lazy::<u32>(10_000).unwrap();
        assert_eq!((slots.capacity(), slots.len()), (10_000, 0));
        assert!(slots.reserve(3));
        assert!(slots.len() >= 3 && slots.iter().all(|&v| v == 0));
        slots[2] = 9;
        assert!(slots.reserve(2), "already usable");
        assert_eq!(slots[2], 9, "reserving again keeps what was written");
        assert!(slots.reserve(10_000));
        assert_eq!(slots.len(), 10_000);
        assert!(
            slots
                .iter()
                .enumerate()
                .all(|(i, &v)| v == if i == 2 { 9 } else { 0 })
        );
        assert!(!slots.reserve(10_001), "beyond the capacity");
        assert_eq!(slots.len(), 10_000);
    }

    #[test]
    fn prefaulting_keeps_the_contents() {
        let mut buf: std::vec::Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let before = buf.clone();
        prefault(&mut buf);
        assert_eq!(buf, before);
        prefault::<u8>(&mut []);
        let mut words: std::vec::Vec<u64> = (0..3000u64).collect();
        prefault(&mut words);
        assert!(words.iter().copied().eq(0..3000u64));
    }

    #[test]
    fn a_table_over_dirty_bytes_starts_empty() {
        // `Table::new` writes only the buckets that are not already empty: the rest of a
        // buffer of leftovers must still be cleared.
        let mut buf = [0xA5u8; 64 * 40];
        let mut table = crate::Table::new(&mut buf).unwrap();
        assert_eq!(table.fill_per_mille(), 0);
        for key in 0..1000u64 {
            assert!(
                crate::TranspositionTable::probe(
                    &mut table,
                    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                )
                .is_none()
            );
        }
    }

    #[test]
    fn carving_aligns_and_reports_shortfall() {
        let mut buf = [0u8; 100];
        let mut c = Carver::new(&mut buf[1..]);
        let a = c.take::<u64>(4).unwrap();
        assert_eq!(a.as_ptr() as usize % core::mem::align_of::<u64>(), 0);
        assert_eq!(a.len(), 4);
        assert!(c.take::<u64>(100).is_none());
        match c.finish() {
            Err(MemoryError::TooSmall { needed, available }) => {
                assert_eq!(available, 99);
                assert!(needed > 800);
            }
            other => panic!("expected TooSmall, got {other:?}"),
        }
    }

    #[test]
    fn bytes_for_covers_any_start_alignment() {
        let need = bytes_for::<u64>(3);
        let mut buf = [0u8; 64];
        for start in 0..8 {
            let mut c = Carver::new(&mut buf[start..start + need]);
            assert!(c.take::<u64>(3).is_some(), "start offset {start}");
            assert!(c.finish().is_ok());
        }
    }

    #[test]
    fn taking_nothing_needs_no_bytes() {
        // An odd start and no room at all: an empty region still fits, with no padding.
        let mut buf = [0u8; 9];
        let mut c = Carver::new(&mut buf[1..2]);
        assert_eq!(c.take::<u8>(1).map(|r| r.len()), Some(1));
        assert_eq!(c.take::<u64>(0).map(|r| r.len()), Some(0));
        assert!(c.finish().is_ok());
    }

    #[cfg(feature = "std")]
    #[test]
    #[cfg_attr(
        miri,
        ignore = "megabytes written byte by byte, and no madvise under Miri"
    )]
    fn huge_page_advice_keeps_the_contents() {
        let mut buf = std::vec![0u8; 3 * HUGE_PAGE_BYTES];
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (i % 251) as u8;
        }
        // Linux may refuse (a kernel without transparent huge pages); other systems never advise.
        let advised = advise_huge_pages(&mut buf);
        assert!(cfg!(target_os = "linux") || !advised);
        assert!(buf.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
        // No aligned huge page inside: nothing to advise.
        assert!(!advise_huge_pages(&mut buf[..HUGE_PAGE_BYTES / 2]));
        let zeroed = table_memory(4 * HUGE_PAGE_BYTES);
        assert_eq!(zeroed.len(), 4 * HUGE_PAGE_BYTES);
        assert!(zeroed.iter().all(|&b| b == 0));
    }
}
