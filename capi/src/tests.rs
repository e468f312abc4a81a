//! The exports called from Rust as C would call them, small enough to run under Miri
//! (`cargo +nightly miri test -p proofnum-capi --lib`), which checks the solver-in-caller-memory
//! layout, the busy flag and the cross-thread stop for undefined behaviour and data races.
//!
//! The game is the subtraction game "take 1, 2 or 3 stones; whoever takes the last stone
//! wins": the side to move loses exactly when the pile is a multiple of 4 (the classic
//! closed form), which is the oracle here.

use core::ffi::{c_int, c_void};
use core::mem::MaybeUninit;
use core::ptr::{null, null_mut};
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::format;
use std::vec;
use std::vec::Vec;

use crate::config::{pn_config, pn_config_init, pn_engine};
use crate::game::{pn_deferred_moves_fn, pn_game, pn_outcome};
use crate::result::pn_result;
use crate::solver::pn_solver_memory_requirements;
use crate::solver::{pn_solve, pn_solve_value, pn_solver, pn_solver_init, pn_solver_stop};
use crate::status::pn_status;
use crate::table::{pn_table_clear, pn_table_load, pn_table_save};

#[cfg(feature = "std")]
mod certificates;
mod dominance;
#[cfg(feature = "messages")]
mod errors;
#[cfg(feature = "std")]
mod loaded;

/// The default configuration, as a C caller starts one: `struct_size` set, then
/// `pn_config_init`.
fn default_config() -> pn_config {
    // SAFETY: a zeroed `pn_config` (integers only) is valid.
    let mut config = unsafe { MaybeUninit::<pn_config>::zeroed().assume_init() };
    config.struct_size = core::mem::size_of::<pn_config>();
    // SAFETY: a valid, aligned local of the size it names.
    assert_eq!(unsafe { pn_config_init(&mut config) }, pn_status::Ok);
    config
}

/// A pile and the side to move, plus knobs for misbehaving. Plain data (copied by `clone`,
/// or byte for byte with `copy_size`).
#[derive(Clone, Copy)]
struct Pile {
    stones: u32,
    to_move: u32,
    /// Report this side instead of the real one (garbage when > 1).
    bad_side: Option<u32>,
    /// The solver, for calls back into it from a callback.
    solver: *mut pn_solver,
    /// What a call back into the solver returned.
    reentered: Option<pn_status>,
    /// Call `pn_solver_init` on this memory (the running solver's own) from `play`, instead
    /// of a solve; whether that left the bytes alone is recorded in `untouched`.
    reinit: Option<(*mut MaybeUninit<u64>, usize, pn_config)>,
    untouched: Option<bool>,
    /// Wait in `generate_moves` until this is set (by another thread).
    wait_for: Option<&'static AtomicBool>,
    generated: &'static AtomicU32,
    /// Counts the copies `pile_clone` makes and `pile_free` releases.
    log: &'static CopyLog,
    /// The `play` call (counting from 1) that fails: it returns -1 and changes nothing.
    failing_play: Option<u32>,
    /// `play` calls so far, failed ones included, and `undo` calls.
    plays: u32,
    undos: u32,
    /// Plays still on the board: successful plays minus undos. An undo with none on the
    /// board takes back a move that was never played.
    on_board: u32,
    undos_of_unplayed_moves: u32,
    /// The length `encode` reports (its bytes written up to the capacity), instead of the
    /// real one: an over-long encoding when above `PN_ENCODING_CAPACITY`.
    encoding_length: Option<usize>,
    /// `encode` calls so far.
    encodes: u32,
}

/// What the copy callbacks did, and how `pile_clone` should fail.
struct CopyLog {
    /// Successful clones.
    made: AtomicU32,
    /// Frees.
    freed: AtomicU32,
    /// Clone calls, failed ones included.
    calls: AtomicU32,
    /// The clone call (counting from 1) from which `pile_clone` fails, and how; 0: never.
    fail_from: u32,
    fail: CloneFailure,
}

/// How `pile_clone` fails.
#[derive(Clone, Copy)]
#[cfg_attr(
    not(feature = "std"),
    allow(dead_code, reason = "used by the parallel tests")
)]
enum CloneFailure {
    /// Returns -1.
    Error,
    /// Returns 0 with a NULL copy.
    Null,
    /// Returns 0 with the original as its "copy".
    Same,
}

impl CopyLog {
    const fn new() -> CopyLog {
        CopyLog::failing(0, CloneFailure::Error)
    }

    const fn failing(fail_from: u32, fail: CloneFailure) -> CopyLog {
        CopyLog {
            made: AtomicU32::new(0),
            freed: AtomicU32::new(0),
            calls: AtomicU32::new(0),
            fail_from,
            fail,
        }
    }

    /// Copies made and freed so far.
    #[cfg_attr(
        not(feature = "std"),
        allow(dead_code, reason = "used by the parallel tests")
    )]
    fn counts(&self) -> (u32, u32) {
        (
            self.made.load(Ordering::SeqCst),
            self.freed.load(Ordering::SeqCst),
        )
    }
}

unsafe extern "C" fn pile_clone(ctx: *mut c_void, out: *mut *mut c_void) -> c_int {
    // SAFETY: ctx is a `Pile` (the test's, or a copy from here); out is valid (the adapter's
    // local).
    let p = unsafe { &*(ctx as *const Pile) };
    let call = p.log.calls.fetch_add(1, Ordering::SeqCst) + 1;
    if p.log.fail_from != 0 && call >= p.log.fail_from {
        match p.log.fail {
            CloneFailure::Error => return -1,
            CloneFailure::Null => unsafe { *out = null_mut() },
            CloneFailure::Same => unsafe { *out = ctx },
        }
        return 0;
    }
    p.log.made.fetch_add(1, Ordering::SeqCst);
    unsafe { *out = std::boxed::Box::into_raw(std::boxed::Box::new(*p)).cast() };
    0
}

unsafe extern "C" fn pile_free(ctx: *mut c_void) {
    // SAFETY: ctx is a copy `pile_clone` made with `Box::into_raw`, freed once (the library's
    // promise, which the counts check).
    let p = unsafe { std::boxed::Box::from_raw(ctx as *mut Pile) };
    p.log.freed.fetch_add(1, Ordering::SeqCst);
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
    p.generated.fetch_add(1, Ordering::Release);
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
    if let Some((memory, bytes, config)) = p.reinit
        && p.reentered.is_none()
    {
        // Reading the solver's bytes while the outer call borrows them is itself what Miri
        // flags, so the snapshot is taken only in native runs.
        let snapshot = || {
            // SAFETY: `memory` is the test's solver buffer of `bytes` bytes (rounded up to
            // whole words), alive for the whole test.
            (!cfg!(miri)).then(|| {
                unsafe { std::slice::from_raw_parts(memory.cast::<u64>(), bytes.div_ceil(8)) }
                    .to_vec()
            })
        };
        let before = snapshot();
        let mut rebuilt = null_mut();
        // SAFETY: valid pointers; the memory is the running solver's, which is the point.
        p.reentered = Some(unsafe { pn_solver_init(memory.cast(), bytes, &config, &mut rebuilt) });
        p.untouched = Some(before == snapshot() && rebuilt.is_null());
    }
    p.plays += 1;
    if p.failing_play == Some(p.plays) {
        return -1;
    }
    if !p.solver.is_null() && p.reentered.is_none() {
        let game = p.table_for_reentry();
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the solver is busy with the outer call.
        p.reentered = Some(unsafe { pn_solve(p.solver, &game, 0, null(), &mut r) });
    }
    p.stones -= take;
    p.to_move ^= 1;
    p.on_board += 1;
    0
}

/// The pile's exact encoding: the stones (4 bytes, little-endian) and the side to move.
unsafe extern "C" fn encode(ctx: *mut c_void, out: *mut u8, cap: usize, len: *mut usize) -> c_int {
    // SAFETY: as in `side`; `out` holds `cap` bytes.
    let p = unsafe { &mut *(ctx as *mut Pile) };
    p.encodes += 1;
    let mut bytes = [0u8; 5];
    bytes[..4].copy_from_slice(&p.stones.to_le_bytes());
    bytes[4] = p.to_move as u8;
    let n = bytes.len().min(cap);
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, n) };
    unsafe { *len = p.encoding_length.unwrap_or(bytes.len()) };
    0
}

unsafe extern "C" fn undo(ctx: *mut c_void, take: u32) -> c_int {
    // SAFETY: as in `side`.
    let p = unsafe { &mut *(ctx as *mut Pile) };
    p.undos += 1;
    match p.on_board.checked_sub(1) {
        Some(left) => p.on_board = left,
        None => p.undos_of_unplayed_moves += 1,
    }
    p.stones += take;
    p.to_move ^= 1;
    0
}

static NEVER: AtomicU32 = AtomicU32::new(0);
static NO_COPIES: CopyLog = CopyLog::new();

impl Pile {
    fn new(stones: u32) -> Pile {
        Pile {
            stones,
            to_move: 0,
            bad_side: None,
            solver: null_mut(),
            reentered: None,
            reinit: None,
            untouched: None,
            wait_for: None,
            generated: &NEVER,
            log: &NO_COPIES,
            failing_play: None,
            plays: 0,
            undos: 0,
            on_board: 0,
            undos_of_unplayed_moves: 0,
            encoding_length: None,
            encodes: 0,
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
            clone: Some(pile_clone),
            free: Some(pile_free),
            repetition_value: None,
            repetition_rule: crate::game::pn_repetition::Acyclic as u32,
            copy_size: 0,
            encode: Some(encode),
            class_hash: None,
            material: None,
            material_at_least: None,
            deferred_moves: None,
            encode_class: None,
            material_needed: None,
            material_join: None,
        }
    }

    /// A table whose context is a fresh pile (the reentrant call must not touch this one).
    fn table_for_reentry(&self) -> pn_game {
        let mut t = Pile::new(1).table();
        t.ctx = null_mut(); // never called: the solver is busy
        t
    }
}

/// A solver in a vector of 8-byte words, with the memory kept alive by the caller. The words
/// are `MaybeUninit`: the solver's typed values leave padding bytes uninitialised, which a
/// `Vec<u64>` must not hold (`-Zmiri-recursive-validation` checks that too).
fn solver(config: &pn_config) -> (Vec<MaybeUninit<u64>>, *mut pn_solver) {
    let (mut bytes, mut align) = (0, 0);
    // SAFETY: valid pointers to locals.
    let s = unsafe { pn_solver_memory_requirements(config, &mut bytes, &mut align) };
    assert_eq!(s, pn_status::Ok);
    assert!(align <= 8);
    let mut memory = vec![MaybeUninit::new(0u64); bytes.div_ceil(8)];
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
        // The subtraction game's proofs are small; every walk clears its memo.
        verify_memo_entries: 1024,
        ..default_config()
    }
}

fn value(solver: *mut pn_solver, pile: &mut Pile) -> (pn_status, pn_result) {
    value_of(solver, &pile.table())
}

/// `pn_solve_value` of `game`, whose context must outlive the call.
fn value_of(solver: *mut pn_solver, game: &pn_game) -> (pn_status, pn_result) {
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the caller keeps the game's context alive.
    let s = unsafe { pn_solve_value(solver, game, null(), &mut r) };
    (s, r)
}

/// The subtraction game's value for the side to move: lost on a multiple of four.
fn pile_value(stones: u32) -> pn_outcome {
    if stones % 4 == 0 {
        pn_outcome::Loss
    } else {
        pn_outcome::Win
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn subtraction_game_values_follow_the_multiples_of_four() {
    let (_memory, solver) = solver(&small_config());
    let piles = if cfg!(miri) { 0..=6 } else { 0..=40 };
    for n in piles {
        let mut pile = Pile::new(n);
        let (s, r) = value(solver, &mut pile);
        assert_eq!(s, pn_status::Ok, "pile {n}");
        assert_eq!(r.outcome, pile_value(n) as u32, "pile {n}");
        if n % 4 != 0 {
            assert_eq!((r.has_best_move, r.best_move), (1, n % 4), "pile {n}");
        }
        assert_eq!((pile.stones, pile.to_move), (n, 0), "restored");
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
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
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn outputs_go_into_uninitialised_buffers_and_non_solvers_are_refused_reading_16_bytes() {
    // "Writable" buffers may be fresh, never-written memory: the library must write them
    // through raw pointers, not make slices over them (Miri checks this test).
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(6);
    let game = pile.table();
    let mut line: Vec<u32> = Vec::with_capacity(16);
    let mut n = 0;
    // SAFETY: valid pointers; the spare capacity is writable and does not overlap the solver.
    let s = unsafe {
        crate::proof::pn_principal_variation(
            solver,
            &game,
            0,
            null(),
            line.spare_capacity_mut().as_mut_ptr().cast(),
            16,
            &mut n,
        )
    };
    assert_eq!(s, pn_status::Ok);
    // SAFETY: the call wrote the line's `n <= 16` moves.
    unsafe { line.set_len(n) };
    let mut stones = pile.stones;
    for (i, &take) in line.iter().enumerate() {
        stones -= take;
        if i % 2 == 0 {
            assert_eq!(stones % 4, 0, "the winner leaves a multiple of four");
        }
    }
    assert_eq!(stones, 0);

    let mut saved: Vec<u8> = Vec::with_capacity(4096);
    // SAFETY: as above.
    let s = unsafe {
        pn_table_save(
            solver,
            saved.spare_capacity_mut().as_mut_ptr().cast(),
            4096,
            &mut n,
        )
    };
    assert_eq!(s, pn_status::Ok);
    // SAFETY: the call wrote the table's `n <= 4096` bytes.
    unsafe { saved.set_len(n) };
    // SAFETY: valid pointers; `saved` does not overlap the solver.
    assert_eq!(
        unsafe { pn_table_load(solver, saved.as_ptr().cast(), n) },
        pn_status::Ok
    );

    // The handle check reads only the first 16 bytes: here initialised, never a solver.
    let mut not_solvers = vec![[0u64; 2], [u64::from_be_bytes(*b"PNSOLVER"), 0]];
    for words in &mut not_solvers {
        let fake = words.as_mut_ptr().cast::<pn_solver>();
        // SAFETY: 16 readable, initialised, aligned bytes: what the header asks of a handle.
        assert_eq!(unsafe { pn_solver_stop(fake) }, pn_status::InvalidHandle);
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
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

/// `small_config` with best-first PNS (`pn2`: PN²) over an arena of `arena_nodes` nodes.
#[cfg(feature = "pns")]
fn pns_config(pn2: bool, arena_nodes: usize) -> pn_config {
    pn_config {
        engine: if pn2 { pn_engine::Pn2 } else { pn_engine::Pns } as u32,
        arena_nodes,
        second_level_nodes: 64,
        ..small_config()
    }
}

fn requirements(config: &pn_config) -> Result<usize, pn_status> {
    let (mut bytes, mut align) = (0, 0);
    // SAFETY: valid pointers to locals.
    match unsafe { pn_solver_memory_requirements(config, &mut bytes, &mut align) } {
        pn_status::Ok => Ok(bytes),
        status => Err(status),
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
#[cfg(feature = "pns")]
fn pns_and_pn2_solve_the_subtraction_game_and_leave_a_table_df_pn_can_read() {
    for pn2 in [false, true] {
        let (_memory, solver) = solver(&pns_config(pn2, 4096));
        let piles = if cfg!(miri) { 0..=6 } else { 0..=40 };
        for n in piles {
            let mut pile = Pile::new(n);
            let (s, r) = value(solver, &mut pile);
            assert_eq!(s, pn_status::Ok, "pn2 {pn2}, pile {n}");
            let want = if n % 4 == 0 {
                pn_outcome::Loss
            } else {
                pn_outcome::Win
            };
            assert_eq!(r.outcome, want as u32, "pn2 {pn2}, pile {n}");
            if n % 4 != 0 {
                assert_eq!((r.has_best_move, r.best_move), (1, n % 4), "pile {n}");
            }
            assert!(r.stats.mid_calls > 0 || n == 0, "expansions are counted");
            assert_eq!((pile.stones, pile.to_move), (n, 0), "restored");
        }
        // `pn_solve` too, for the side not to move (who cannot win a non-multiple of 4).
        let mut pile = Pile::new(9);
        let game = pile.table();
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the pile outlives the call.
        let s = unsafe { pn_solve(solver, &game, 1, null(), &mut r) };
        assert_eq!(
            (s, r.outcome),
            (pn_status::Ok, pn_outcome::Disproven as u32)
        );
        // The principal variation walks the table with df-pn after a PNS solve.
        let mut line = [0u32; 16];
        let mut len = 0;
        // SAFETY: valid pointers; `line` does not overlap the solver.
        let s = unsafe {
            crate::proof::pn_principal_variation(
                solver,
                &game,
                0,
                null(),
                line.as_mut_ptr(),
                line.len(),
                &mut len,
            )
        };
        assert_eq!(s, pn_status::Ok);
        assert_eq!(
            line[..len].iter().sum::<u32>(),
            9,
            "the line takes the whole pile"
        );
        assert_eq!(line[0], 1, "the winner leaves 8");
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
#[cfg(feature = "pns")]
fn the_pns_arena_takes_twenty_bytes_a_node_from_the_solver_memory() {
    // A node is 16 bytes and its move (a `uint32_t`) 4 (`Pns::bytes_per_node`).
    let a = requirements(&pns_config(false, 1000)).unwrap();
    let b = requirements(&pns_config(false, 2000)).unwrap();
    assert_eq!(b - a, 1000 * 20);
    let dfpn = requirements(&small_config()).unwrap();
    assert!(
        a > dfpn + 1000 * 20,
        "the df-pn stack is kept beside the arena"
    );
    // PN²'s second level has its own region.
    let pn2 = pn_config {
        second_level_nodes: 1064,
        ..pns_config(true, 1000)
    };
    assert_eq!(
        requirements(&pn2).unwrap() - requirements(&pns_config(true, 1000)).unwrap(),
        1000 * 20
    );
    // 0 means the default arena.
    assert_eq!(
        requirements(&pns_config(false, 0)),
        requirements(&pns_config(false, crate::config::PN_DEFAULT_ARENA_NODES))
    );
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
#[cfg(feature = "pns")]
fn a_full_arena_ends_with_memory_limit_and_no_answer() {
    for pn2 in [false, true] {
        let (_dfpn_memory, dfpn) = solver(&small_config());
        let (_memory, solver) = solver(&pns_config(pn2, 2));
        let stones = if cfg!(miri) { 9 } else { 39 };
        let mut pile = Pile::new(stones);
        let (s, r) = value(solver, &mut pile);
        assert_eq!(s, pn_status::MemoryLimit, "pn2 {pn2}");
        assert_eq!(r.status, pn_status::MemoryLimit as u32);
        assert_eq!((r.outcome, r.distance), (pn_outcome::Unknown as u32, 0));
        assert_eq!((pile.stones, pile.to_move), (stones, 0), "restored");
        // Df-pn on a solver of its own gets the value the arena could not hold.
        let (s, r) = value(dfpn, &mut pile);
        assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn an_invalid_engine_is_refused_and_the_memory_left_untouched() {
    for bad in [
        pn_config {
            engine: 3,
            ..small_config()
        },
        pn_config {
            engine: u32::MAX,
            ..small_config()
        },
        pn_config {
            engine: pn_engine::Pns as u32,
            arena_nodes: 16,
            max_moves: crate::config::PN_PNS_MAX_MOVES + 1,
            ..small_config()
        },
    ] {
        let pns_without_engines = !cfg!(feature = "pns") && bad.engine == pn_engine::Pns as u32;
        let want = if pns_without_engines {
            pn_status::Unsupported
        } else {
            pn_status::InvalidArgument
        };
        assert_eq!(requirements(&bad), Err(want));
        let mut memory = vec![0xA5u64; 1 << 16];
        let mut handle = null_mut();
        // SAFETY: the memory is valid for its length; init fails before touching it.
        let s = unsafe { pn_solver_init(memory.as_mut_ptr().cast(), 1 << 19, &bad, &mut handle) };
        assert_eq!(s, want);
        assert!(handle.is_null(), "nothing written");
        assert!(memory.iter().all(|&w| w == 0xA5), "the memory is untouched");
    }
}

/// Without the `pns` feature (the bare-metal builds by default) PNS and PN² are not built: a
/// config asking for them is unsupported, and the build says so in `pn_features`.
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
#[cfg(not(feature = "pns"))]
fn without_the_pns_feature_the_best_first_engines_are_unsupported() {
    use crate::version::{PN_FEATURE_PNS, pn_features};
    assert_eq!(pn_features() & PN_FEATURE_PNS, 0);
    for engine in [pn_engine::Pns, pn_engine::Pn2] {
        let config = pn_config {
            engine: engine as u32,
            ..small_config()
        };
        assert_eq!(requirements(&config), Err(pn_status::Unsupported));
        let mut memory = vec![0u64; 1 << 16];
        let mut handle = null_mut();
        // SAFETY: the memory is valid for its length.
        let s =
            unsafe { pn_solver_init(memory.as_mut_ptr().cast(), 1 << 19, &config, &mut handle) };
        assert_eq!(s, pn_status::Unsupported);
        assert!(handle.is_null(), "nothing written");
    }
    // Df-pn is always there.
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let (s, r) = value(solver, &mut pile);
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
}

#[test]
fn a_caller_with_the_first_config_struct_gets_df_pn_as_before() {
    let v1 = core::mem::offset_of!(pn_config, arena_nodes);
    // Past the first version: the caller's memory, not the config (garbage engine included).
    let old = pn_config {
        struct_size: v1,
        engine: pn_engine::Pn2 as u32 + 40,
        arena_nodes: 1,
        second_level_nodes: 1,
        ..small_config()
    };
    assert_eq!(requirements(&old), requirements(&small_config()));
    let (_dfpn_memory, reference) = solver(&small_config());
    let (_memory, solver) = solver(&old);
    let mut pile = Pile::new(if cfg!(miri) { 6 } else { 23 });
    let (s, r) = value(solver, &mut pile);
    let (_, want) = value(reference, &mut pile);
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    assert_eq!(
        (r.stats.mid_calls, r.stats.nodes),
        (want.stats.mid_calls, want.stats.nodes),
        "the same df-pn search"
    );
    // The configuration comes back in the caller's version, and only that far.
    let mut back = pn_config {
        struct_size: 0,
        engine: 77,
        arena_nodes: 77,
        second_level_nodes: 77,
        ..small_config()
    };
    // SAFETY: valid pointers.
    let s = unsafe { crate::solver::pn_solver_config(solver, &mut back) };
    assert_eq!(s, pn_status::Ok);
    assert_eq!(back.struct_size, v1);
    assert_eq!(back.max_depth, small_config().max_depth);
    assert_eq!(
        (back.engine, back.arena_nodes, back.second_level_nodes),
        (77, 77, 77)
    );
}

/// A `deferred_moves` callback that defers `N` moves (all of them when `N` exceeds them).
unsafe extern "C" fn defer<const N: usize>(_ctx: *mut c_void, out_n: *mut usize) -> c_int {
    // SAFETY: the library passes a valid `size_t` to write.
    unsafe { *out_n = N };
    0
}

unsafe extern "C" fn defer_fails(_ctx: *mut c_void, _out_n: *mut usize) -> c_int {
    -3
}

unsafe extern "C" fn defer_writes_nothing(_ctx: *mut c_void, _out_n: *mut usize) -> c_int {
    0
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn deferred_moves_change_no_value_and_a_broken_count_is_an_error() {
    let (_memory, solver) = solver(&small_config());
    let counts: [pn_deferred_moves_fn; 3] = [Some(defer::<1>), Some(defer::<2>), Some(defer::<9>)];
    for deferred_moves in counts {
        for n in 0..=24 {
            // SAFETY: a solver from `solver`, with no call running.
            assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
            let mut pile = Pile::new(n);
            let game = pn_game {
                deferred_moves,
                ..pile.table()
            };
            let (s, r) = value_of(solver, &game);
            assert_eq!(s, pn_status::Ok, "pile {n}");
            assert_eq!(r.outcome, pile_value(n) as u32, "pile {n}");
            assert_eq!((pile.stones, pile.to_move), (n, 0), "restored");
        }
    }
    for (deferred_moves, status) in [
        (
            Some(defer_fails as unsafe extern "C" fn(*mut c_void, *mut usize) -> c_int),
            pn_status::CallbackFailed,
        ),
        (Some(defer_writes_nothing as _), pn_status::CallbackInvalid),
    ] {
        // SAFETY: as above.
        assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
        let mut pile = Pile::new(9);
        let game = pn_game {
            deferred_moves,
            ..pile.table()
        };
        let (s, r) = value_of(solver, &game);
        assert_eq!((s, r.outcome, r.has_best_move), (status, 0, 0));
        assert_eq!((pile.stones, pile.to_move), (9, 0), "restored");
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

/// The calls that play moves on a C game, each run over a pile with an empty table:
/// `pn_solve_value`, `pn_solve`, `pn_principal_variation` and `pn_verify` under df-pn, and
/// the two solves under PNS and PN² where they are built.
fn every_call_that_plays(mut each: impl FnMut(&str, &mut dyn FnMut(&mut Pile) -> pn_status)) {
    #[cfg(feature = "pns")]
    let configs = [
        ("df-pn", small_config()),
        ("PNS", pns_config(false, 4096)),
        ("PN²", pns_config(true, 4096)),
    ];
    #[cfg(not(feature = "pns"))]
    let configs = [("df-pn", small_config())];
    for (engine, config) in configs {
        let (_memory, solver) = solver(&config);
        let clear = || {
            // SAFETY: a valid solver, with no call running.
            assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
        };
        each(&format!("{engine} pn_solve_value"), &mut |pile| {
            clear();
            value(solver, pile).0
        });
        each(&format!("{engine} pn_solve"), &mut |pile| {
            clear();
            let game = pile.table();
            let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
            // SAFETY: valid pointers; the pile outlives the call.
            unsafe { pn_solve(solver, &game, 0, null(), &mut r) }
        });
        if engine != "df-pn" {
            continue;
        }
        each("pn_principal_variation", &mut |pile| {
            clear();
            let game = pile.table();
            let (mut line, mut len) = ([0u32; 16], 0);
            // SAFETY: valid pointers; `line` does not overlap the solver.
            unsafe {
                crate::proof::pn_principal_variation(
                    solver,
                    &game,
                    0,
                    null(),
                    line.as_mut_ptr(),
                    line.len(),
                    &mut len,
                )
            }
        });
        each("pn_verify", &mut |pile| {
            clear();
            let game = pile.table();
            let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
            // SAFETY: valid pointers; the pile outlives the call.
            unsafe {
                crate::proof::pn_verify(solver, &game, 0, pn_outcome::Proven as u32, null(), &mut r)
            }
        });
    }
}

/// A `play` that returns an error has not played its move, so the library must never take
/// that move back: an `undo` of it would leave the game one ply off. Whichever `play` call
/// fails, in every engine and call, the game sees no undo of an unplayed move and is back at
/// its starting position (9 stones, the first player to move) when the call returns
/// `CALLBACK_FAILED`.
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn a_play_that_fails_is_never_undone_and_the_game_is_restored() {
    let failing_calls = if cfg!(miri) { 1..=3 } else { 1..=40 };
    every_call_that_plays(|call, run| {
        for failing in failing_calls.clone() {
            let mut pile = Pile {
                failing_play: Some(failing),
                ..Pile::new(9)
            };
            let status = run(&mut pile);
            if pile.plays < failing {
                continue; // the call answered from the table before this many plays
            }
            let at = format!("{call}, play {failing} of {} failing", pile.plays);
            assert_eq!(status, pn_status::CallbackFailed, "{at}");
            assert_eq!(
                pile.undos_of_unplayed_moves, 0,
                "{at}: an unplayed move undone"
            );
            assert_eq!(pile.on_board, 0, "{at}: a played move left on the board");
            assert_eq!((pile.stones, pile.to_move), (9, 0), "{at}: restored");
        }
    });
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
fn an_init_over_the_memory_of_the_running_solver_is_busy_and_touches_nothing() {
    let config = small_config();
    let (mut memory, solver) = solver(&config);
    let bytes = requirements(&config).unwrap();
    let mut pile = Pile::new(6);
    pile.reinit = Some((memory.as_mut_ptr(), bytes, config));
    let (s, r) = value(solver, &mut pile);
    assert_eq!(pile.reentered, Some(pn_status::Busy));
    assert_ne!(pile.untouched, Some(false));
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    // Once the call has returned, the memory is the caller's to rebuild.
    let mut again = null_mut();
    // SAFETY: valid pointers; no call uses the solver now.
    let s = unsafe { pn_solver_init(memory.as_mut_ptr().cast(), bytes, &config, &mut again) };
    assert_eq!((s, again), (pn_status::Ok, solver));
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
    while GENERATED.load(Ordering::Acquire) == 0 {
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
fn a_stop_with_no_call_running_does_not_reach_the_next_search() {
    // A late stop (meant for a search that has returned) used to stop
    // the next, unrelated search at once.
    let (_memory, solver) = solver(&small_config());
    // SAFETY: a valid solver.
    assert_eq!(unsafe { pn_solver_stop(solver) }, pn_status::Ok);
    let mut pile = Pile::new(8);
    let (s, r) = value(solver, &mut pile);
    // 8 stones, take 1 to 3: a multiple of 4 loses for the side to move.
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Loss as u32));
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

#[test]
fn a_saved_table_declaring_absurd_bucket_counts_is_refused() {
    // The review's 32-bit overflow: 64 + (2^26 + 1) * 64 wraps to 128 in 32 bits, so these
    // 128 bytes loaded on i686 and the next solve read far past them (run under Miri with
    // `--target i686-unknown-linux-gnu`). Now refused on every target, the table kept.
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let (_, before) = value(solver, &mut pile);
    let mut saved = vec![0u8; 4096];
    let mut n = 0;
    // SAFETY: valid pointers; `saved` does not overlap the solver.
    let s = unsafe { pn_table_save(solver, saved.as_mut_ptr().cast(), saved.len(), &mut n) };
    assert_eq!(s, pn_status::Ok);
    for count in [
        (1u64 << 26) + 1,
        1 << 31,
        (1 << 32) + 1,
        u64::MAX / 64,
        u64::MAX,
    ] {
        let mut forged = saved[..128].to_vec();
        forged[24..32].copy_from_slice(&count.to_ne_bytes());
        // SAFETY: valid pointers; `forged` does not overlap the solver.
        let s = unsafe { pn_table_load(solver, forged.as_ptr().cast(), forged.len()) };
        assert!(
            matches!(
                s,
                pn_status::TableLayoutMismatch | pn_status::TableTruncated
            ),
            "{count} buckets: {s:?}"
        );
    }
    let (s, after) = value(solver, &mut pile);
    assert_eq!((s, after.outcome), (pn_status::Ok, before.outcome));
    assert!(after.stats.nodes < before.stats.nodes, "the table was kept");
}

#[test]
fn callers_with_the_first_versions_of_the_game_and_result_structs_still_work() {
    use crate::result::pn_stats;
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(7);
    let game = pn_game {
        struct_size: core::mem::offset_of!(pn_game, copy_size),
        ..pile.table()
    };
    let v1_result = core::mem::offset_of!(pn_result, stats) + core::mem::offset_of!(pn_stats, jobs);
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    r.struct_size = v1_result;
    // Beyond version 1 of the struct: the caller's memory, not the result's.
    r.stats.jobs = 77;
    r.stats.threads = 77;
    // SAFETY: valid pointers; the pile outlives the call.
    let s = unsafe { pn_solve_value(solver, &game, null(), &mut r) };
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    assert!(r.stats.nodes > 0);
    assert_eq!(r.struct_size, v1_result, "the caller's version is kept");
    assert_eq!(
        (r.stats.jobs, r.stats.threads),
        (77, 77),
        "nothing past it written"
    );
    // A size that was never a version.
    let odd = pn_game {
        struct_size: core::mem::offset_of!(pn_game, copy_size) - 4,
        ..game
    };
    // SAFETY: as above.
    let s = unsafe { pn_solve_value(solver, &odd, null(), &mut r) };
    assert_eq!(s, pn_status::BadStructSize);
}

#[test]
fn callers_with_the_second_versions_of_the_game_and_result_structs_still_work() {
    use crate::result::pn_stats;
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile {
        // Garbage, were it read: past the caller's struct, `encode` is never called.
        encoding_length: Some(usize::MAX),
        ..Pile::new(7)
    };
    let game = pn_game {
        struct_size: core::mem::offset_of!(pn_game, encode),
        ..pile.table()
    };
    let v2_result =
        core::mem::offset_of!(pn_result, stats) + core::mem::offset_of!(pn_stats, confirm_nodes);
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    r.struct_size = v2_result;
    r.stats.confirm_nodes = 77;
    r.stats.refutations = 77;
    // SAFETY: valid pointers; the pile outlives the call.
    let s = unsafe { pn_solve_value(solver, &game, null(), &mut r) };
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    assert_eq!(pile.encodes, 0);
    assert_eq!(r.struct_size, v2_result);
    assert_eq!((r.stats.confirm_nodes, r.stats.refutations), (77, 77));
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn default_configs_confirm_and_confirm_off_walks_nothing() {
    for (confirm, walks) in [(None, true), (Some(crate::config::PN_CONFIRM_OFF), false)] {
        let config = pn_config {
            confirm: confirm.unwrap_or(small_config().confirm),
            ..small_config()
        };
        let (_memory, solver) = solver(&config);
        for n in [5u32, 8, 13] {
            let mut pile = Pile::new(n);
            let (s, r) = value(solver, &mut pile);
            assert_eq!(s, pn_status::Ok);
            assert_eq!(
                r.stats.confirm_nodes > 0,
                walks,
                "pile {n}, confirm {confirm:?}"
            );
            assert_eq!(r.stats.refutations, 0);
            // The walk tells positions apart by their encodings.
            assert_eq!(pile.encodes > 0, walks, "pile {n}");
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn an_encoding_longer_than_the_capacity_is_an_invalid_callback() {
    let (_memory, solver) = solver(&small_config());
    for length in [crate::game::PN_ENCODING_CAPACITY + 1, usize::MAX] {
        let mut pile = Pile {
            encoding_length: Some(length),
            ..Pile::new(9)
        };
        let (s, r) = value(solver, &mut pile);
        assert_eq!((s, r.outcome), (pn_status::CallbackInvalid, 0));
        assert_eq!(r.has_best_move, 0);
        assert_eq!(
            (pile.stones, pile.to_move),
            (9, 0),
            "the position is restored"
        );
    }
    // Exactly the capacity is fine (the pile writes its 5 bytes and claims the rest).
    let mut pile = Pile {
        encoding_length: Some(crate::game::PN_ENCODING_CAPACITY),
        ..Pile::new(9)
    };
    assert_eq!(value(solver, &mut pile).0, pn_status::Ok);
}

#[cfg(not(feature = "std"))]
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn without_std_the_parallel_calls_are_unsupported_and_write_nothing() {
    use crate::parallel::{pn_solve_parallel, pn_solve_value_parallel};
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(5);
    let game = pile.table();
    let untouched = pn_result::new(pn_status::Refuted, pn_outcome::Draw);
    let mut r = untouched;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            pn_solve_parallel(solver, &game, 0, null(), &mut r),
            pn_status::Unsupported
        );
        assert_eq!(
            pn_solve_value_parallel(solver, &game, null(), &mut r),
            pn_status::Unsupported
        );
    }
    assert_eq!(r, untouched);
    assert_eq!(
        crate::version::pn_features() & crate::version::PN_FEATURE_PARALLEL,
        0
    );
}

#[cfg(not(feature = "std"))]
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn without_std_the_checker_is_unsupported_and_certificates_are_still_written() {
    use crate::certificate::{pn_certificate_check, pn_certify, pn_check_report};
    unsafe extern "C" fn count(ctx: *mut c_void, _bytes: *const u8, length: usize) -> c_int {
        // SAFETY: `ctx` is the test's counter.
        unsafe { *(ctx as *mut usize) += length };
        0
    }
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(5);
    let game = pile.table();
    let mut written = 0usize;
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    let name = b"subtraction";
    // SAFETY: valid pointers; the counter outlives the call.
    let s = unsafe {
        pn_certify(
            solver,
            &game,
            0,
            pn_outcome::Proven as u32,
            name.as_ptr().cast(),
            name.len(),
            Some(count),
            (&mut written as *mut usize).cast(),
            null(),
            &mut r,
        )
    };
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Proven as u32));
    assert!(written > 0, "the writer needs no heap");
    let mut report = pn_check_report {
        struct_size: size_of::<pn_check_report>(),
        ..pn_check_report::default()
    };
    // SAFETY: valid pointers; nothing is read without std.
    let s = unsafe {
        pn_certificate_check(
            &game,
            name.as_ptr().cast(),
            name.len(),
            null(),
            0,
            null(),
            null_mut(),
            0,
            null_mut(),
            0,
            &mut report,
        )
    };
    assert_eq!(s, pn_status::Unsupported);
    assert_eq!(report.verdict, 0, "nothing written");
}

/// The parallel calls: the same games with worker threads, each on its own copy.
#[cfg(feature = "std")]
mod parallel {
    use super::*;
    use crate::config::pn_limits;
    use crate::parallel::copies::{Copies, WorkerGame};
    use crate::parallel::{pn_solve_parallel, pn_solve_value_parallel};
    use proofnum_core::Game;

    fn config(threads: u32) -> pn_config {
        pn_config {
            threads,
            ..small_config()
        }
    }

    fn value_parallel(solver: *mut pn_solver, game: &pn_game) -> (pn_status, pn_result) {
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the game's context outlives the call, and its callbacks
        // keep the threading contract (each copy is its own `Pile`).
        let s = unsafe { pn_solve_value_parallel(solver, game, null(), &mut r) };
        (s, r)
    }

    /// Copies made and freed since `before`.
    fn since(log: &CopyLog, before: (u32, u32)) -> (u32, u32) {
        let now = log.counts();
        (now.0 - before.0, now.1 - before.1)
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn parallel_values_follow_the_multiples_of_four_with_one_copy_per_thread() {
        static LOG: CopyLog = CopyLog::new();
        assert_ne!(
            crate::version::pn_features() & crate::version::PN_FEATURE_PARALLEL,
            0
        );
        for threads in [2u32, 4] {
            let (_memory, solver) = solver(&config(threads));
            let piles = if cfg!(miri) { 3..=5 } else { 0..=24 };
            for n in piles {
                let before = LOG.counts();
                let mut pile = Pile {
                    log: &LOG,
                    ..Pile::new(n)
                };
                let (s, r) = value_parallel(solver, &pile.table());
                assert_eq!(s, pn_status::Ok, "pile {n}, {threads} threads");
                let wins = n % 4 != 0;
                let want = if wins {
                    pn_outcome::Win
                } else {
                    pn_outcome::Loss
                };
                assert_eq!(r.outcome, want as u32, "pile {n}");
                if wins {
                    assert_eq!((r.has_best_move, r.best_move), (1, n % 4), "pile {n}");
                }
                assert_eq!((r.stats.threads, r.distance), (threads, 0));
                assert!(r.stats.jobs >= 1, "pile {n}");
                assert!(n == 0 || r.stats.nodes >= 1, "pile {n}");
                // Confirmed by default: the walk visited the proof.
                assert!(n == 0 || r.stats.confirm_nodes >= 1, "pile {n}");
                assert_eq!(r.stats.refutations, 0, "pile {n}");
                // One copy per thread and one for the confirming walk, made before the search
                // and reused by the second one of a lost pile; each freed once.
                assert_eq!(since(&LOG, before), (threads + 1, threads + 1), "pile {n}");
                assert_eq!((pile.stones, pile.to_move), (n, 0), "only read");

                // Both players as the attacker.
                for attacker in [0u32, 1] {
                    let game = pile.table();
                    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
                    // SAFETY: as in `value_parallel`.
                    let s = unsafe { pn_solve_parallel(solver, &game, attacker, null(), &mut r) };
                    assert_eq!(s, pn_status::Ok);
                    let proven = (attacker == 0) == wins;
                    let want = if proven {
                        pn_outcome::Proven
                    } else {
                        pn_outcome::Disproven
                    };
                    assert_eq!(r.outcome, want as u32, "pile {n}, attacker {attacker}");
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn unconfirmed_parallel_values_take_one_copy_per_thread_and_walk_nothing() {
        static LOG: CopyLog = CopyLog::new();
        let (_memory, solver) = solver(&pn_config {
            confirm: crate::config::PN_CONFIRM_OFF,
            ..config(2)
        });
        for n in [5u32, 8] {
            let before = LOG.counts();
            let mut pile = Pile {
                log: &LOG,
                ..Pile::new(n)
            };
            let (s, r) = value_parallel(solver, &pile.table());
            let want = if n % 4 != 0 {
                pn_outcome::Win
            } else {
                pn_outcome::Loss
            };
            assert_eq!((s, r.outcome), (pn_status::Ok, want as u32), "pile {n}");
            assert_eq!((r.stats.confirm_nodes, r.stats.refutations), (0, 0));
            assert_eq!(since(&LOG, before), (2, 2), "pile {n}");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_parallel_solve_fills_the_table_the_serial_calls_use() {
        static LOG: CopyLog = CopyLog::new();
        let n = if cfg!(miri) { 9 } else { 23 };
        let mut pile = Pile {
            log: &LOG,
            ..Pile::new(n)
        };
        let game = pile.table();
        let serial = |solver| {
            let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
            // SAFETY: valid pointers; the pile outlives the call.
            let s = unsafe { pn_solve(solver, &game, 0, null(), &mut r) };
            assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Proven as u32));
            r
        };
        let (_cold_memory, cold_solver) = solver(&config(2));
        let cold = serial(cold_solver);

        let (_memory, solver) = solver(&config(2));
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: as in `value_parallel`.
        let s = unsafe { pn_solve_parallel(solver, &game, 0, null(), &mut r) };
        assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Proven as u32));
        assert!(r.stats.table_stores > 0);
        // The serial search finds the root solved in the table the workers filled.
        let warm = serial(solver);
        assert!(
            warm.stats.nodes < cold.stats.nodes,
            "warm {} vs cold {} nodes",
            warm.stats.nodes,
            cold.stats.nodes
        );
        assert!(warm.stats.table_hits > 0);
        // The table still reads as a table: saved and loaded back.
        let mut saved = vec![0u8; 8192];
        let mut len = 0;
        // SAFETY: valid pointers; `saved` does not overlap the solver.
        unsafe {
            assert_eq!(
                pn_table_save(solver, saved.as_mut_ptr().cast(), saved.len(), &mut len),
                pn_status::Ok
            );
            assert_eq!(
                pn_table_load(solver, saved.as_ptr().cast(), len),
                pn_status::Ok
            );
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn without_a_way_to_copy_the_game_nothing_is_searched_or_written() {
        static LOG: CopyLog = CopyLog::new();
        let (_memory, solver) = solver(&config(2));
        let mut pile = Pile {
            log: &LOG,
            ..Pile::new(9)
        };
        let table = pile.table();
        let cases = [
            (
                pn_game {
                    clone: None,
                    free: None,
                    ..table
                },
                pn_status::MissingCallback,
            ),
            (
                pn_game {
                    free: None,
                    ..table
                },
                pn_status::MissingCallback,
            ),
            (
                pn_game {
                    copy_size: size_of::<Pile>(),
                    ..table
                },
                pn_status::InvalidArgument,
            ),
            (
                pn_game {
                    play: None,
                    ..table
                },
                pn_status::MissingCallback,
            ),
        ];
        for (game, want) in cases {
            let untouched = pn_result::new(pn_status::Refuted, pn_outcome::Draw);
            let mut r = untouched;
            // SAFETY: as in `value_parallel`.
            let s = unsafe { pn_solve_value_parallel(solver, &game, null(), &mut r) };
            assert_eq!(s, want);
            assert_eq!(r, untouched, "nothing written");
        }
        assert_eq!(LOG.counts(), (0, 0), "no copy made");
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    #[cfg_attr(
        miri,
        ignore = "Miri stops at an allocation it cannot model, before try_reserve"
    )]
    fn memory_that_cannot_be_had_is_a_status_and_threads_have_a_bound() {
        // Byte copies of 2^40 bytes aborted the process in the allocator,
        // and `threads` had no upper bound (2^22 was accepted).
        use crate::config::PN_MAX_THREADS;
        let (_memory, solver) = solver(&config(2));
        let mut pile = Pile::new(6);
        let table = pile.table();
        let huge = pn_game {
            clone: None,
            free: None,
            copy_size: (1u64 << 40).min(isize::MAX as u64 / 2) as usize,
            ..table
        };
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the copy fails to be allocated before `ctx` is read.
        let s = unsafe { pn_solve_value_parallel(solver, &huge, null(), &mut r) };
        assert_eq!(s, pn_status::MemoryLimit);
        // The solver is unharmed: 6 stones, take 1 to 3, is a win for the side to move.
        let (s, r) = value_parallel(solver, &table);
        assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));

        for threads in [PN_MAX_THREADS + 1, 1 << 22, u32::MAX] {
            let (mut bytes, mut align) = (0, 0);
            let c = config(threads);
            // SAFETY: valid pointers to locals.
            let s = unsafe { pn_solver_memory_requirements(&c, &mut bytes, &mut align) };
            assert_eq!(s, pn_status::InvalidArgument, "{threads} threads");
            let mut memory = vec![0u64; 1 << 16];
            let mut handle = null_mut();
            // SAFETY: the memory is 512 KiB long and aligned; the config is refused first.
            let s = unsafe { pn_solver_init(memory.as_mut_ptr().cast(), 1 << 19, &c, &mut handle) };
            assert_eq!(s, pn_status::InvalidArgument, "{threads} threads");
        }
        let (mut bytes, mut align) = (0, 0);
        // SAFETY: valid pointers to locals.
        let s = unsafe {
            pn_solver_memory_requirements(&config(PN_MAX_THREADS), &mut bytes, &mut align)
        };
        assert_eq!(s, pn_status::Ok);
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_clone_that_fails_ends_the_call_with_every_copy_freed_and_nothing_written() {
        static FIRST: CopyLog = CopyLog::failing(1, CloneFailure::Error);
        static THIRD: CopyLog = CopyLog::failing(3, CloneFailure::Error);
        static NULL: CopyLog = CopyLog::failing(2, CloneFailure::Null);
        static SAME: CopyLog = CopyLog::failing(1, CloneFailure::Same);
        let (_memory, solver) = solver(&config(4));
        for (log, want, made, said) in [
            (
                &FIRST,
                pn_status::CallbackFailed,
                0,
                "callback clone returned -1",
            ),
            (
                &THIRD,
                pn_status::CallbackFailed,
                2,
                "callback clone returned -1",
            ),
            (
                &NULL,
                pn_status::CallbackInvalid,
                1,
                "callback clone returned 0 but wrote NULL",
            ),
            (
                &SAME,
                pn_status::CallbackInvalid,
                0,
                "callback clone wrote its own ctx",
            ),
        ] {
            let mut pile = Pile {
                log,
                ..Pile::new(9)
            };
            let untouched = pn_result::new(pn_status::Refuted, pn_outcome::Draw);
            let mut r = untouched;
            let game = pile.table();
            // SAFETY: as in `value_parallel`.
            let s = unsafe { pn_solve_parallel(solver, &game, 0, null(), &mut r) };
            assert_eq!(s, want);
            #[cfg(feature = "messages")]
            {
                let message = errors::last_error(solver);
                assert!(message.starts_with(said), "{message}");
            }
            #[cfg(not(feature = "messages"))]
            let _ = said;
            assert_eq!(r, untouched, "nothing written");
            assert_eq!(log.counts(), (made, made), "the copies made are freed");
            assert_eq!((pile.stones, pile.to_move), (9, 0));
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn plain_data_games_are_copied_byte_for_byte() {
        static LOG: CopyLog = CopyLog::new();
        let (_memory, solver) = solver(&config(2));
        for n in if cfg!(miri) { 4..=5 } else { 0..=16 } {
            let mut pile = Pile {
                log: &LOG,
                ..Pile::new(n)
            };
            let game = pn_game {
                clone: None,
                free: None,
                copy_size: size_of::<Pile>(),
                ..pile.table()
            };
            let (s, r) = value_parallel(solver, &game);
            assert_eq!(s, pn_status::Ok);
            let want = if n % 4 != 0 {
                pn_outcome::Win
            } else {
                pn_outcome::Loss
            };
            assert_eq!(r.outcome, want as u32, "pile {n}");
            assert_eq!((pile.stones, pile.to_move), (n, 0));
        }
        assert_eq!(LOG.counts(), (0, 0), "no clone callback called");
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn garbage_from_a_copy_is_an_error_not_an_answer() {
        static LOG: CopyLog = CopyLog::new();
        let (_memory, solver) = solver(&config(2));
        let mut pile = Pile {
            log: &LOG,
            bad_side: Some(7),
            ..Pile::new(9)
        };
        let (s, r) = value_parallel(solver, &pile.table());
        assert_eq!(s, pn_status::CallbackInvalid);
        assert_eq!(r.outcome, pn_outcome::Unknown as u32);
        assert_eq!(r.has_best_move, 0);
        let (made, freed) = LOG.counts();
        // Two workers' copies and the confirming walk's.
        assert_eq!((made, freed), (3, 3));
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_node_limit_ends_a_parallel_search_with_the_result_written() {
        static LOG: CopyLog = CopyLog::new();
        let (_memory, solver) = solver(&config(2));
        let mut pile = Pile {
            log: &LOG,
            ..Pile::new(30)
        };
        let limits = pn_limits {
            max_nodes: 1,
            ..pn_limits::NONE
        };
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        let game = pile.table();
        // SAFETY: as in `value_parallel`.
        let s = unsafe { pn_solve_value_parallel(solver, &game, &limits, &mut r) };
        assert_eq!(s, pn_status::NodeLimit);
        assert_eq!(r.outcome, pn_outcome::Unknown as u32);
        assert!(r.stats.nodes >= 1 && r.stats.jobs >= 1);
        assert_eq!(LOG.counts(), (3, 3));
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_stop_with_no_call_running_does_not_reach_the_next_parallel_search() {
        let (_memory, solver) = solver(&config(2));
        let mut pile = Pile::new(10);
        let game = pile.table();
        // SAFETY: a valid solver.
        assert_eq!(unsafe { pn_solver_stop(solver) }, pn_status::Ok);
        let (s, r) = value_parallel(solver, &game);
        // 10 stones, take 1 to 3: 10 mod 4 != 0, so the side to move wins.
        assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Win as u32));
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_stop_from_another_thread_ends_a_parallel_search() {
        static RELEASE: AtomicBool = AtomicBool::new(false);
        static GENERATED: AtomicU32 = AtomicU32::new(0);
        static LOG: CopyLog = CopyLog::new();
        /// The solver pointer, sent to the searching thread.
        struct Handle(*mut pn_solver);
        // SAFETY: a solver may be used from any thread, one call at a time (its busy flag
        // enforces that), and `pn_solver_stop` from any thread at any time.
        unsafe impl Send for Handle {}
        // A pile whose proof needs far more steps than a job runs between two looks at the
        // stop flag (1024), with a table too small to hold it.
        let stones = if cfg!(miri) { 1500 } else { 5000 };
        let (_memory, solver) = solver(&pn_config {
            max_depth: stones + 100,
            ..config(2)
        });
        let handle = Handle(solver);
        let searcher = std::thread::spawn(move || {
            let handle = handle;
            let mut pile = Pile {
                wait_for: Some(&RELEASE),
                generated: &GENERATED,
                log: &LOG,
                ..Pile::new(stones)
            };
            let game = pile.table();
            let r = value_parallel(handle.0, &game);
            (r, pile.stones)
        });
        // Wait until a worker is inside a callback, stop, then let the callback return.
        while GENERATED.load(Ordering::Acquire) == 0 {
            std::thread::yield_now();
        }
        // SAFETY: the solver's memory lives until the end of this test; stop is the one call
        // allowed while another thread uses the solver.
        assert_eq!(unsafe { pn_solver_stop(solver) }, pn_status::Ok);
        RELEASE.store(true, Ordering::Release);
        let ((s, r), stones_after) = searcher.join().unwrap();
        assert_eq!(s, pn_status::Stopped);
        assert_eq!(r.outcome, pn_outcome::Unknown as u32);
        assert_eq!(stones_after, stones);
        assert_eq!(LOG.counts(), (3, 3));
    }

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
    fn a_clone_the_spare_list_cannot_serve_copies_the_position_or_reports_why_not() {
        static LOG: CopyLog = CopyLog::failing(4, CloneFailure::Error);
        let mut pile = Pile {
            log: &LOG,
            ..Pile::new(6)
        };
        let table = pile.table();
        let copies = Copies::new(&table).unwrap();
        {
            // SAFETY: the pile outlives the adapters; everything runs on this thread.
            let root = unsafe { WorkerGame::<1>::root(&table, &copies, 3) }.unwrap();
            // SAFETY: the pile is the game's own context, used by this thread only.
            unsafe { copies.fill(table.ctx, 1) }.unwrap();
            assert_eq!(copies.spare_count(), 1);
            let spare = root.clone(); // the spare copy
            assert_eq!(copies.spare_count(), 0);
            let fresh = root.clone(); // copied now
            let mut of_copy = spare.clone(); // a copy's copy, copied now
            assert_eq!(LOG.counts(), (3, 0));
            assert!(!fresh.has_failed() && fresh.side_to_move() == proofnum_core::Player::First);
            of_copy.play(2);
            of_copy.undo(2);
            assert_eq!(of_copy.hash(), root.hash());
            let broken = root.clone(); // the fourth clone call fails
            assert!(broken.has_failed());
            assert_eq!(
                broken.failure().map(|e| e.status),
                Some(pn_status::CallbackFailed)
            );
            assert_eq!(
                copies.failure().map(|e| e.status),
                Some(pn_status::CallbackFailed)
            );
            let broken_again = broken.clone(); // nothing to copy from
            assert!(broken_again.has_failed());
            assert_eq!(LOG.counts(), (3, 0));
            // Dropped adapters: a failed one holds no copy, sound ones give theirs back.
            drop((spare, fresh, of_copy, broken, broken_again));
            assert_eq!(copies.spare_count(), 3);
            assert_eq!(LOG.counts(), (3, 0));
        }
        drop(copies);
        assert_eq!(
            LOG.counts(),
            (3, 3),
            "the spare copies are freed with the list"
        );
        assert_eq!((pile.stones, pile.to_move), (6, 0));
    }
}
