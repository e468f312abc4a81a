//! A PNS search allocates nothing: every byte comes from the caller's buffers.
//!
//! A counting global allocator records the allocations made on this thread while the solver
//! runs (the test harness's own threads do not count). Plain PNS, PN², shared transposition
//! numbers, a full arena with compactions, and solve_value are all covered.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::TicTacToe;
use proofnum::Table;
use proofnum::TranspositionNumbers;
use proofnum::{Limits, Player, Pns, PnsConfig, Reason, Status};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    // `try_with`: the thread-locals may already be gone while a thread shuts down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counting touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: as above; `ptr` and `layout` come from this allocator, i.e. from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns how many allocations it made on this thread.
fn allocations_in(f: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    ALLOCATIONS.with(|n| n.get())
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations_in(|| {
        let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
        assert_eq!(v.len(), 3);
    });
    assert_eq!(n, 1);
}

#[test]
fn pns_searches_allocate_nothing() {
    let mut table_memory = vec![0u8; Table::required_bytes(512)];
    let mut table = Table::new(&mut table_memory).unwrap();
    let configs = [
        (PnsConfig::PNS, 100_000),
        (
            PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::On),
            100_000,
        ),
        (PnsConfig::pn2(2_000), 4_000),
        // Small enough to fill: compactions, then Unknown(MemoryLimit).
        (PnsConfig::PNS, 300),
    ];
    for (config, nodes) in configs {
        let mut memory = vec![0u8; Pns::<TicTacToe>::required_bytes(nodes, 9, 9, config)];
        let mut pns = Pns::<TicTacToe>::new(&mut memory, 9, 9, config).unwrap();
        let mut game = TicTacToe::default();
        let mut results = Vec::with_capacity(3);
        let n = allocations_in(|| {
            for attacker in [Player::First, Player::Second] {
                table.clear();
                let r = pns.solve(&mut game, attacker, &mut table, &mut Limits::default());
                results.push(r.status);
            }
            let v = pns.solve_value(&mut game, &mut table, &mut Limits::default());
            results.push(match v.value {
                Ok(_) => Status::Disproven,
                Err(reason) => Status::Unknown(reason),
            });
        });
        assert_eq!(n, 0, "{config:?}: {n} heap allocations during the searches");
        if nodes == 300 {
            assert!(results.contains(&Status::Unknown(Reason::MemoryLimit)));
            assert!(pns.arena_stats().compactions > 0);
        } else {
            assert_eq!(results, [Status::Disproven; 3], "{config:?}");
        }
    }
}
