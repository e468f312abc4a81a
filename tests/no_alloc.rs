//! A solve performs zero heap allocations: all memory is the caller's.
//!
//! A counting global allocator wraps the system one; the test allocates its buffers first,
//! then checks the counter does not move across solves, PV extraction and verification.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::TicTacToe;
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, Player, Status};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded under the caller's `GlobalAlloc::realloc` contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn solving_allocates_nothing() {
    let mut table_memory = vec![0u8; Table::required_bytes(256)];
    let mut stack = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(9, 9)];
    let mut line = [0u8; 9];
    let mut memo = vec![0u64; 1024];

    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut table = Table::new(&mut table_memory).unwrap();
    let mut dfpn = Dfpn::<TicTacToe>::new(&mut stack, 9, 9, DfpnConfig::default()).unwrap();
    let mut game = TicTacToe::default();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    let v = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
    game.play(0); // a corner: still a draw
    let pv = dfpn.principal_variation(
        &mut game,
        Player::Second,
        &mut table,
        &mut line,
        &mut Limits::default(),
    );
    let check = dfpn.verify(
        &mut game,
        Player::Second,
        Status::Disproven,
        &mut table,
        &mut memo,
        &mut Limits::default(),
    );
    let after = ALLOCATIONS.load(Ordering::Relaxed);

    assert_eq!(r.status, Status::Disproven);
    assert!(v.value.is_ok());
    assert!(pv.len > 0);
    assert_eq!(check.verdict, proofnum::Verdict::Verified);
    assert!(r.stats.mid_calls > 100, "a real search ran");
    assert_eq!(after - before, 0, "heap allocations during the solve");
}
