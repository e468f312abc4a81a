//! The exports called from Rust as C would call them, small enough to run under Miri
//! (`cargo +nightly miri test -p proofnum-capi --lib`), which checks the solver-in-caller-memory
//! layout, the busy flag and the cross-thread stop for undefined behaviour and data races.
//!
//! The game is the subtraction game "take 1, 2 or 3 stones; whoever takes the last stone
//! wins": the side to move loses exactly when the pile is a multiple of 4 (the classic
//! closed form), which is the oracle here.

use core::ffi::{c_int, c_void};
use core::ptr::{null, null_mut};
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::vec;
use std::vec::Vec;

use crate::config::{pn_config, pn_config_default};
use crate::game::{pn_game, pn_outcome};
use crate::result::pn_result;
use crate::solver::pn_solver_memory_requirements;
use crate::solver::{pn_solve, pn_solve_value, pn_solver, pn_solver_init, pn_solver_stop};
use crate::status::pn_status;
use crate::table::{pn_table_clear, pn_table_load, pn_table_save};

/// A pile and the side to move, plus knobs for misbehaving.
struct Pile {
    stones: u32,
    to_move: u32,
    /// Report this side instead of the real one (garbage when > 1).
    bad_side: Option<u32>,
    /// The solver, for calls back into it from a callback.
    solver: *mut pn_solver,
    /// What a call back into the solver returned.
    reentered: Option<pn_status>,
    /// Wait in `generate_moves` until this is set (by another thread).
    wait_for: Option<&'static AtomicBool>,
    generated: &'static AtomicU32,
}

unsafe extern "C" fn side(ctx: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: ctx is the `Pile` the test passed; out is valid (the adapter's local).
    let p = unsafe { &*(ctx as *const Pile) };
    unsafe { *out = p.bad_side.unwrap_or(p.to_move) };
    0
}

unsafe extern "C" fn hash(ctx: *mut c_void, out: *mut u64) -> c_int {
    // SAFETY: as in `side`.
    let p = unsafe { &*(ctx as *const Pile) };
    unsafe { *out = (p.stones as u64) << 1 | p.to_move as u64 };
    0
}

unsafe extern "C" fn outcome(ctx: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `side`.
    let p = unsafe { &*(ctx as *const Pile) };
    let o = if p.stones == 0 {
        pn_outcome::Loss
    } else {
        pn_outcome::Unknown
    };
    unsafe { *out = o as u32 };
    0
}

unsafe extern "C" fn generate(
    ctx: *mut c_void,
    moves: *mut u32,
    cap: usize,
    n: *mut usize,
) -> c_int {
    // SAFETY: as in `side`; `moves` holds `cap` slots.
    let p = unsafe { &mut *(ctx as *mut Pile) };
    p.generated.fetch_add(1, Ordering::Relaxed);
    if let Some(flag) = p.wait_for {
        while !flag.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
    }
    let count = p.stones.min(3) as usize;
    for i in 0..count.min(cap) {
        unsafe { *moves.add(i) = i as u32 + 1 };
    }
    unsafe { *n = count };
    0
}

unsafe extern "C" fn play(ctx: *mut c_void, take: u32) -> c_int {
    // SAFETY: as in `side`.
    let p = unsafe { &mut *(ctx as *mut Pile) };
    if !p.solver.is_null() && p.reentered.is_none() {
        let game = p.table_for_reentry();
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the solver is busy with the outer call.
        p.reentered = Some(unsafe { pn_solve(p.solver, &game, 0, null(), &mut r) });
    }
    p.stones -= take;
    p.to_move ^= 1;
    0
}

unsafe extern "C" fn undo(ctx: *mut c_void, take: u32) -> c_int {
    // SAFETY: as in `side`.
    let p = unsafe { &mut *(ctx as *mut Pile) };
    p.stones += take;
    p.to_move ^= 1;
    0
}

static NEVER: AtomicU32 = AtomicU32::new(0);

impl Pile {
    fn new(stones: u32) -> Pile {
        Pile {
            stones,
            to_move: 0,
            bad_side: None,
            solver: null_mut(),
            reentered: None,
            wait_for: None,
            generated: &NEVER,
        }
    }

    fn table(&mut self) -> pn_game {
        pn_game {
            struct_size: size_of::<pn_game>(),
            ctx: self as *mut Pile as *mut c_void,
            side_to_move: Some(side),
            hash: Some(hash),
            outcome: Some(outcome),
            generate_moves: Some(generate),
            play: Some(play),
            undo: Some(undo),
            estimate: None,
            clone: None,
            free: None,
            repetition_value: None,
            repetition_rule: crate::game::pn_repetition::Acyclic as u32,
        }
    }

    /// A table whose context is a fresh pile (the reentrant call must not touch this one).
    fn table_for_reentry(&self) -> pn_game {
        let mut t = Pile::new(1).table();
        t.ctx = null_mut(); // never called: the solver is busy
        t
    }
}

/// A solver in a `Vec<u64>` (8-byte aligned), with the memory kept alive by the caller.
fn solver(config: &pn_config) -> (Vec<u64>, *mut pn_solver) {
    let (mut bytes, mut align) = (0, 0);
    // SAFETY: valid pointers to locals.
    let s = unsafe { pn_solver_memory_requirements(config, &mut bytes, &mut align) };
    assert_eq!(s, pn_status::Ok);
    assert!(align <= 8);
    let mut memory = vec![0u64; bytes.div_ceil(8)];
    let mut handle = null_mut();
    // SAFETY: the memory is `bytes` long, aligned and outlives the solver (returned together).
    let s = unsafe { pn_solver_init(memory.as_mut_ptr().cast(), bytes, config, &mut handle) };
    assert_eq!(s, pn_status::Ok);
    (memory, handle)
}

fn small_config() -> pn_config {
    pn_config {
        table_bytes: 4096,
        max_depth: 64,
        max_moves: 3,
        ..pn_config_default()
    }
}

fn value(solver: *mut pn_solver, pile: &mut Pile) -> (pn_status, pn_result) {
    let game = pile.table();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the game's context outlives the call.
    let s = unsafe { pn_solve_value(solver, &game, null(), &mut r) };
    (s, r)
}

#[test]
fn subtraction_game_values_follow_the_multiples_of_four() {
    let (_memory, solver) = solver(&small_config());
    let piles = if cfg!(miri) { 0..=6 } else { 0..=40 };
    for n in piles {
        let mut pile = Pile::new(n);
        let (s, r) = value(solver, &mut pile);
        assert_eq!(s, pn_status::Ok, "pile {n}");
        let want = if n % 4 == 0 {
            pn_outcome::Loss
        } else {
            pn_outcome::Win
        };
        assert_eq!(r.outcome, want as u32, "pile {n}");
        if n % 4 != 0 {
            assert_eq!((r.has_best_move, r.best_move), (1, n % 4), "pile {n}");
        }
        assert_eq!((pile.stones, pile.to_move), (n, 0), "restored");
    }
}

#[test]
fn the_principal_variation_takes_the_pile_to_multiples_of_four() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(if cfg!(miri) { 6 } else { 11 });
    let game = pile.table();
    let mut line = [0u32; 16];
    let mut n = 0;
    // SAFETY: valid pointers; `line` does not overlap the solver.
    let s = unsafe {
        crate::proof::pn_principal_variation(
            solver,
            &game,
            0,
            null(),
            line.as_mut_ptr(),
            line.len(),
            &mut n,
        )
    };
    assert_eq!(s, pn_status::Ok);
    let mut stones = pile.stones;
    for (i, &take) in line[..n].iter().enumerate() {
        stones -= take;
        if i % 2 == 0 {
            assert_eq!(stones % 4, 0, "the winner leaves a multiple of four");
        }
    }
    assert_eq!(stones, 0);
}

#[test]
fn switching_repetition_rules_rebuilds_the_searcher_in_place() {
    let (_memory, solver) = solver(&small_config());
    for rule in [1u32, 0, 1, 0] {
        let mut pile = Pile::new(5);
        let mut game = pile.table();
        game.repetition_rule = rule;
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the pile outlives the call.
        let s = unsafe { pn_solve_value(solver, &game, null(), &mut r) };
        assert_eq!(
            (s, r.outcome),
            (pn_status::Ok, pn_outcome::Win as u32),
            "rule {rule}"
        );
        assert_eq!((r.has_best_move, r.best_move), (1, 1));
    }
}

#[test]
fn garbage_from_a_callback_is_an_error_not_an_answer() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(5);
    pile.bad_side = Some(7);
    let (s, r) = value(solver, &mut pile);
    assert_eq!(s, pn_status::CallbackInvalid);
    assert_eq!(r.outcome, pn_outcome::Unknown as u32);
    assert_eq!(r.has_best_move, 0);
}

#[test]
fn a_call_from_inside_a_callback_is_refused() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(6);
    pile.solver = solver;
    let (s, r) = value(solver, &mut pile);
    assert_eq!(pile.reentered, Some(pn_status::Busy));
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
}

#[test]
fn a_stop_from_another_thread_ends_the_search() {
    static RELEASE: AtomicBool = AtomicBool::new(false);
    static GENERATED: AtomicU32 = AtomicU32::new(0);
    /// The solver pointer, sent to the worker thread.
    struct Handle(*mut pn_solver);
    // SAFETY: a solver may be used from any thread, one call at a time (its busy flag
    // enforces that), and `pn_solver_stop` from any thread at any time.
    unsafe impl Send for Handle {}
    let (_memory, solver) = solver(&small_config());
    let handle = Handle(solver);
    let worker = std::thread::spawn(move || {
        let handle = handle;
        let mut pile = Pile::new(30);
        pile.wait_for = Some(&RELEASE);
        pile.generated = &GENERATED;
        value(handle.0, &mut pile)
    });
    // Wait until the search is inside a callback, stop it, then let the callback return.
    while GENERATED.load(Ordering::Relaxed) == 0 {
        std::thread::yield_now();
    }
    // SAFETY: the solver's memory lives until the end of this test; stop is the one call
    // allowed while another thread uses the solver.
    assert_eq!(unsafe { pn_solver_stop(solver) }, pn_status::Ok);
    RELEASE.store(true, Ordering::Release);
    let (s, r) = worker.join().unwrap();
    assert_eq!(s, pn_status::Stopped);
    assert_eq!(r.outcome, pn_outcome::Unknown as u32);
}

#[test]
fn a_saved_table_loads_back_and_a_corrupt_one_is_refused() {
    let (memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let (_, cold) = value(solver, &mut pile);
    let mut saved = vec![0u8; 4096];
    let mut n = 0;
    // SAFETY: valid pointers; `saved` does not overlap the solver.
    unsafe {
        assert_eq!(
            pn_table_save(solver, saved.as_mut_ptr().cast(), saved.len(), &mut n),
            pn_status::Ok
        );
        assert_eq!(pn_table_clear(solver), pn_status::Ok);
        assert_eq!(
            pn_table_load(solver, saved.as_ptr().cast(), n),
            pn_status::Ok
        );
    }
    let (s, warm) = value(solver, &mut pile);
    assert_eq!((s, warm.outcome), (pn_status::Ok, cold.outcome));
    assert!(warm.stats.nodes < cold.stats.nodes);
    saved[0] ^= 0xFF;
    // SAFETY: as above.
    unsafe {
        assert_eq!(
            pn_table_load(solver, saved.as_ptr().cast(), n),
            pn_status::TableBadMagic
        );
        // The solver's own memory is not a place to load from.
        assert_eq!(
            pn_table_load(solver, memory.as_ptr().cast(), n),
            pn_status::InvalidArgument
        );
    }
}
