//! Dominance through the C ABI: the `class_hash`, `material` and `material_at_least`
//! callbacks.
//!
//! The game: a pile of stones, each player takes one or two, and whoever takes the last stone
//! wins (a player without stones to take has lost). The first player also holds tokens: with
//! one, it may take three stones instead, spending the token. A position's class is its pile
//! and side to move, its material the first player's tokens. More tokens only add moves for
//! the first player and change nothing for the second, so by induction on the pile a position
//! with more tokens is at least as good for the first player: the dominance the callbacks
//! declare is true. The oracle is a table of values by pile, tokens and side to move, filled
//! from the rules without proofnum.

use super::*;
use crate::config::PN_CONFIRM_OFF;
use crate::game::{pn_decided, pn_repetition};

/// The largest pile the tests solve.
const MAX_PILE: u32 = if cfg!(miri) { 7 } else { 30 };
/// The most tokens the tests give.
const MAX_TOKENS: u32 = 3;

/// The move that spends a token.
const TAKE_THREE: u32 = 3;

/// A position, plus knobs for misbehaving callbacks. Plain data (`clone` copies it).
#[derive(Clone, Copy, Debug)]
struct Tokens {
    pile: u32,
    tokens: u32,
    to_move: u32,
    /// The `class_hash` call (counting from 1) from which it fails.
    failing_class_hash: Option<u32>,
    /// The `material` call (counting from 1) from which it fails, after writing garbage.
    failing_material: Option<u32>,
    /// What `material_at_least` writes instead of its answer (garbage above 1).
    at_least_writes: Option<u32>,
    /// Every class hashed alike (`class_hash` collides for all of them).
    colliding_classes: bool,
    /// What `material_needed` writes to `*out_known` instead of its answer (garbage above 1).
    needed_writes: Option<u32>,
    /// `material_needed` and `material_join` calls so far.
    needs: u32,
    /// Calls so far.
    class_hashes: u32,
    materials: u32,
    comparisons: u32,
    class_encodings: u32,
}

impl Tokens {
    fn new(pile: u32, tokens: u32) -> Tokens {
        Tokens {
            pile,
            tokens,
            to_move: 0,
            failing_class_hash: None,
            failing_material: None,
            at_least_writes: None,
            colliding_classes: false,
            needed_writes: None,
            needs: 0,
            class_hashes: 0,
            materials: 0,
            comparisons: 0,
            class_encodings: 0,
        }
    }

    /// The callback table, with the dominance callbacks when `dominance` is set.
    fn table(&mut self, dominance: bool) -> pn_game {
        pn_game {
            struct_size: size_of::<pn_game>(),
            ctx: self as *mut Tokens as *mut c_void,
            side_to_move: Some(tk_side),
            hash: Some(tk_hash),
            outcome: Some(tk_outcome),
            generate_moves: Some(tk_generate),
            play: Some(tk_play),
            undo: Some(tk_undo),
            estimate: None,
            clone: Some(tk_clone),
            free: Some(tk_free),
            repetition_value: None,
            repetition_rule: pn_repetition::Acyclic as u32,
            copy_size: 0,
            encode: Some(tk_encode),
            class_hash: dominance.then_some(tk_class_hash as _),
            material: dominance.then_some(tk_material as _),
            material_at_least: dominance.then_some(tk_at_least as _),
            deferred_moves: None,
            encode_class: None,
            material_needed: None,
            material_join: None,
        }
    }
}

impl Tokens {
    /// The callback table with dominance and the material results need.
    fn table_with_needs(&mut self) -> pn_game {
        pn_game {
            material_needed: Some(tk_needed),
            material_join: Some(tk_join),
            ..self.table(true)
        }
    }
}

/// # Safety
/// `ctx` is a `Tokens` that nothing else uses during the callback.
unsafe fn tokens<'a>(ctx: *mut c_void) -> &'a mut Tokens {
    // SAFETY: the caller's contract.
    unsafe { &mut *(ctx as *mut Tokens) }
}

unsafe extern "C" fn tk_side(ctx: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: ctx is the test's `Tokens` (or a copy); out is the adapter's local.
    unsafe { *out = tokens(ctx).to_move };
    0
}

unsafe extern "C" fn tk_class_hash(ctx: *mut c_void, out: *mut u64) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.class_hashes += 1;
    if t.failing_class_hash.is_some_and(|k| t.class_hashes >= k) {
        return -1;
    }
    let class = (t.pile as u64) << 1 | t.to_move as u64;
    unsafe { *out = if t.colliding_classes { 0x5EED } else { class } };
    0
}

unsafe extern "C" fn tk_encode_class(
    ctx: *mut c_void,
    out: *mut u8,
    cap: usize,
    len: *mut usize,
) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.class_encodings += 1;
    // SAFETY: as in `tk_encode`.
    unsafe { write_encoding(&[t.pile as u8, t.to_move as u8], out, cap, len) }
}

/// Writes `bytes` as an encoding callback does: as many as `cap` allows into `out`, and the
/// full length to `*len`.
///
/// # Safety
/// `out` holds `cap` writable bytes and `len` is writable (the library's buffers).
unsafe fn write_encoding(bytes: &[u8], out: *mut u8, cap: usize, len: *mut usize) -> c_int {
    let n = bytes.len().min(cap);
    // SAFETY: the caller's contract.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, n) };
    unsafe { *len = bytes.len() };
    0
}

unsafe extern "C" fn tk_hash(ctx: *mut c_void, out: *mut u64) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    unsafe { *out = ((t.pile as u64) << 1 | t.to_move as u64) << 8 | t.tokens as u64 };
    0
}

unsafe extern "C" fn tk_material(ctx: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.materials += 1;
    if t.failing_material.is_some_and(|k| t.materials >= k) {
        // Garbage first: none of it may reach the table.
        unsafe { *out = 0 };
        return -1;
    }
    unsafe { *out = t.tokens };
    0
}

unsafe extern "C" fn tk_at_least(
    ctx: *mut c_void,
    side: u32,
    a: u32,
    b: u32,
    out: *mut u32,
) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.comparisons += 1;
    // The first player's tokens: more is at least as good for it, fewer for the second.
    let at_least = if side == 0 { a >= b } else { a <= b };
    unsafe { *out = t.at_least_writes.unwrap_or(at_least as u32) };
    0
}

/// The tokens a result needs: at an empty pile the side to move has lost whatever the
/// tokens; a take of three spends one, so it needs one more than the position after it; the
/// first player with no token would gain that move with one (if three stones are left), so
/// a loss of its with none holds with none only; nothing else depends on the tokens.
unsafe extern "C" fn tk_needed(
    ctx: *mut c_void,
    decided: u32,
    mv: u32,
    material: u32,
    known: *mut u32,
    out: *mut u32,
) -> c_int {
    // SAFETY: as in `tk_side`; `known` and `out` are the adapter's locals.
    let t = unsafe { tokens(ctx) };
    t.needs += 1;
    if let Some(garbage) = t.needed_writes {
        unsafe { *known = garbage };
        return 0;
    }
    let first = t.to_move == 0;
    let need = match decided {
        d if d == pn_decided::ByOutcome as u32 && t.pile == 0 => {
            if first {
                u32::MAX // the first player lost: with any tokens
            } else {
                0
            }
        }
        d if d == pn_decided::ByMove as u32 || d == pn_decided::ThroughLosingMove as u32 => {
            material.saturating_add(u32::from(first && mv == TAKE_THREE))
        }
        d if d == pn_decided::ByEveryMove as u32 => {
            if first && t.tokens == 0 && t.pile >= 3 {
                0
            } else {
                material
            }
        }
        _ => {
            unsafe { *known = 0 };
            return 0;
        }
    };
    unsafe {
        *known = 1;
        *out = need;
    }
    0
}

/// For the first player more tokens are better, for the second fewer.
unsafe extern "C" fn tk_join(
    ctx: *mut c_void,
    winner: u32,
    a: u32,
    b: u32,
    out: *mut u32,
) -> c_int {
    // SAFETY: as in `tk_side`; `out` is the adapter's local.
    let t = unsafe { tokens(ctx) };
    t.needs += 1;
    unsafe { *out = if winner == 0 { a.max(b) } else { a.min(b) } };
    0
}

unsafe extern "C" fn tk_outcome(ctx: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    let o = if t.pile == 0 {
        pn_outcome::Loss
    } else {
        pn_outcome::Unknown
    };
    unsafe { *out = o as u32 };
    0
}

unsafe extern "C" fn tk_generate(
    ctx: *mut c_void,
    moves: *mut u32,
    cap: usize,
    n: *mut usize,
) -> c_int {
    // SAFETY: as in `tk_side`; `moves` holds `cap` slots.
    let t = unsafe { tokens(ctx) };
    let mut list = [0u32; 3];
    let mut count = 0;
    for take in 1..=2 {
        if t.pile >= take {
            list[count] = take;
            count += 1;
        }
    }
    if t.to_move == 0 && t.tokens > 0 && t.pile >= TAKE_THREE {
        list[count] = TAKE_THREE;
        count += 1;
    }
    for (i, &mv) in list[..count.min(cap)].iter().enumerate() {
        unsafe { *moves.add(i) = mv };
    }
    unsafe { *n = count };
    0
}

unsafe extern "C" fn tk_play(ctx: *mut c_void, take: u32) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.pile -= take;
    t.tokens -= (take == TAKE_THREE) as u32;
    t.to_move ^= 1;
    0
}

unsafe extern "C" fn tk_undo(ctx: *mut c_void, take: u32) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    t.to_move ^= 1;
    t.tokens += (take == TAKE_THREE) as u32;
    t.pile += take;
    0
}

unsafe extern "C" fn tk_encode(
    ctx: *mut c_void,
    out: *mut u8,
    cap: usize,
    len: *mut usize,
) -> c_int {
    // SAFETY: as in `tk_side`.
    let t = unsafe { tokens(ctx) };
    // SAFETY: `out` holds `cap` bytes and `len` is the library's local.
    unsafe {
        write_encoding(
            &[t.pile as u8, t.tokens as u8, t.to_move as u8],
            out,
            cap,
            len,
        )
    }
}

unsafe extern "C" fn tk_clone(ctx: *mut c_void, out: *mut *mut c_void) -> c_int {
    // SAFETY: as in `tk_side`; out is the library's local.
    let copy = std::boxed::Box::new(*unsafe { tokens(ctx) });
    unsafe { *out = std::boxed::Box::into_raw(copy).cast() };
    0
}

unsafe extern "C" fn tk_free(ctx: *mut c_void) {
    // SAFETY: ctx is a copy `tk_clone` made, freed once.
    drop(unsafe { std::boxed::Box::from_raw(ctx as *mut Tokens) });
}

/// Whether the side to move wins, by pile, tokens and side to move: the rules, bottom up.
struct Oracle {
    wins: Vec<[[bool; 2]; MAX_TOKENS as usize + 1]>,
}

impl Oracle {
    fn new() -> Oracle {
        let mut wins = vec![[[false; 2]; MAX_TOKENS as usize + 1]; MAX_PILE as usize + 1];
        for pile in 0..=MAX_PILE as usize {
            for tokens in 0..=MAX_TOKENS as usize {
                for mover in 0..2 {
                    let mut options = Vec::new();
                    for take in 1..=2 {
                        if pile >= take {
                            options.push((pile - take, tokens));
                        }
                    }
                    if mover == 0 && tokens > 0 && pile >= 3 {
                        options.push((pile - 3, tokens - 1));
                    }
                    // A move wins when the opponent, to move next, loses.
                    wins[pile][tokens][mover] =
                        options.iter().any(|&(p, t)| !wins[p][t][1 - mover]);
                }
            }
        }
        Oracle { wins }
    }

    /// The value for the first player to move.
    fn value(&self, pile: u32, tokens: u32) -> pn_outcome {
        self.value_for(pile, tokens, 0)
    }

    /// The value for `mover` (0: the first player, 1: the second) to move.
    fn value_for(&self, pile: u32, tokens: u32, mover: u32) -> pn_outcome {
        if self.wins[pile as usize][tokens as usize][mover as usize] {
            pn_outcome::Win
        } else {
            pn_outcome::Loss
        }
    }
}

fn config(confirm: bool) -> pn_config {
    pn_config {
        table_bytes: 1 << 16,
        max_depth: 64,
        max_moves: 3,
        verify_memo_entries: 1024,
        confirm: if confirm {
            small_config().confirm
        } else {
            PN_CONFIRM_OFF
        },
        ..default_config()
    }
}

fn solve_value(solver: *mut pn_solver, game: &pn_game) -> (pn_status, pn_result) {
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the game's context outlives the call.
    let s = unsafe { pn_solve_value(solver, game, null(), &mut r) };
    (s, r)
}

fn clear(solver: *mut pn_solver) {
    // SAFETY: a solver from `solver`.
    assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
}

/// Every (pile, tokens), each over a fresh table: the values, and the MID calls in all.
fn values(solver: *mut pn_solver, dominance: bool) -> (u64, Vec<(u32, u32, pn_status, u32)>) {
    let mut mid_calls = 0;
    let mut answers = Vec::new();
    for pile in 0..=MAX_PILE {
        for tokens in 0..=MAX_TOKENS {
            clear(solver);
            let mut t = Tokens::new(pile, tokens);
            let (s, r) = solve_value(solver, &t.table(dominance));
            assert_eq!((t.pile, t.tokens, t.to_move), (pile, tokens, 0), "restored");
            assert_eq!(
                t.class_hashes > 0 || t.materials > 0,
                dominance && pile > 0,
                "the callbacks are asked exactly when given ({pile}, {tokens})"
            );
            mid_calls += r.stats.mid_calls;
            answers.push((pile, tokens, s, r.outcome));
        }
    }
    (mid_calls, answers)
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn values_with_dominance_follow_the_rules_and_take_fewer_mid_calls() {
    let oracle = Oracle::new();
    for confirm in [false, true] {
        let (_memory, solver) = solver(&config(confirm));
        let (with, with_answers) = values(solver, true);
        let (without, without_answers) = values(solver, false);
        for (pile, tokens, s, outcome) in with_answers.into_iter().chain(without_answers) {
            let want = oracle.value(pile, tokens) as u32;
            assert_eq!(
                (s, outcome),
                (pn_status::Ok, want),
                "{pile} stones, {tokens} tokens"
            );
        }
        std::println!("confirm {confirm}: {with} MID calls with dominance, {without} without");
        assert!(
            with < without,
            "confirm {confirm}: {with} against {without}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn one_or_two_of_the_three_callbacks_are_missing_and_by_position_is_invalid() {
    let (_memory, solver) = solver(&config(false));
    let mut t = Tokens::new(7, 1);
    let full = t.table(true);
    let partial = [
        pn_game {
            class_hash: None,
            ..full
        },
        pn_game {
            material: None,
            ..full
        },
        pn_game {
            material_at_least: None,
            ..full
        },
        pn_game {
            material: None,
            material_at_least: None,
            ..full
        },
    ];
    for game in partial {
        assert_eq!(solve_value(solver, &game).0, pn_status::MissingCallback);
    }
    // The core keeps results per line under the by-position rule and would ignore them.
    let by_position = pn_game {
        repetition_rule: pn_repetition::ByPosition as u32,
        repetition_value: Some(tk_outcome),
        ..full
    };
    assert_eq!(
        solve_value(solver, &by_position).0,
        pn_status::InvalidArgument
    );
    assert_eq!((t.class_hashes, t.materials, t.comparisons), (0, 0, 0));
    // Under the draw rule they work.
    let draw = pn_game {
        repetition_rule: pn_repetition::Draw as u32,
        ..full
    };
    let (s, r) = solve_value(solver, &draw);
    assert_eq!(
        (s, r.outcome),
        (pn_status::Ok, Oracle::new().value(7, 1) as u32)
    );
    assert!(t.class_hashes > 0);
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn callers_with_the_third_version_of_the_game_struct_get_no_dominance() {
    let (_memory, solver) = solver(&config(true));
    let mut t = Tokens::new(11, 2);
    let game = pn_game {
        struct_size: core::mem::offset_of!(pn_game, class_hash),
        ..t.table(true)
    };
    let (s, r) = solve_value(solver, &game);
    assert_eq!(
        (s, r.outcome),
        (pn_status::Ok, Oracle::new().value(11, 2) as u32)
    );
    assert_eq!(
        (t.class_hashes, t.materials, t.comparisons),
        (0, 0, 0),
        "never read"
    );
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn garbage_from_material_at_least_is_an_invalid_callback_never_an_answer() {
    let (_memory, solver) = solver(&config(false));
    for garbage in [2, 7, u32::MAX] {
        clear(solver);
        let mut t = Tokens {
            at_least_writes: Some(garbage),
            ..Tokens::new(MAX_PILE, 2)
        };
        let (s, r) = solve_value(solver, &t.table(true));
        assert_eq!(
            (s, r.outcome),
            (pn_status::CallbackInvalid, 0),
            "writes {garbage}"
        );
        assert!(t.comparisons > 0);
    }
}

/// A failing `class_hash` or `material` stops the call with `CALLBACK_FAILED`, whichever call
/// it is (every call of the searches of small piles, the stores of solved results among
/// them), and leaves nothing in the table that misleads a later call: afterwards, over the
/// same table and without confirmation, every value is the rules' one.
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn failing_class_hash_or_material_fails_the_call_and_leaves_no_false_entry() {
    let oracle = Oracle::new();
    let (_memory, solver) = solver(&config(false));
    let largest = if cfg!(miri) { 4 } else { 12 };
    let mut failures = 0;
    for (pile, tokens) in (1..=largest).flat_map(|p| (1..=MAX_TOKENS).map(move |t| (p, t))) {
        for failing_material in [false, true] {
            for k in 1.. {
                clear(solver);
                let mut t = Tokens::new(pile, tokens);
                if failing_material {
                    t.failing_material = Some(k);
                } else {
                    t.failing_class_hash = Some(k);
                }
                let (s, r) = solve_value(solver, &t.table(true));
                if s == pn_status::Ok {
                    // Past the search's last call.
                    assert_eq!(r.outcome, oracle.value(pile, tokens) as u32);
                    break;
                }
                let context = format!(
                    "{pile} stones, {tokens} tokens, call {k} fails \
                                       (material: {failing_material})"
                );
                assert_eq!((s, r.outcome), (pn_status::CallbackFailed, 0), "{context}");
                failures += 1;
                for p in 0..=largest {
                    for tk in 0..=MAX_TOKENS {
                        let mut t = Tokens::new(p, tk);
                        let (s, r) = solve_value(solver, &t.table(true));
                        assert_eq!(
                            (s, r.outcome),
                            (pn_status::Ok, oracle.value(p, tk) as u32),
                            "{context}; then {p} stones, {tk} tokens"
                        );
                    }
                }
            }
        }
    }
    assert!(failures > 0);
}

/// The parallel calls: each worker's copy answers the dominance callbacks.
#[cfg(feature = "std")]
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn parallel_values_with_dominance_follow_the_rules() {
    use crate::parallel::pn_solve_value_parallel;
    let oracle = Oracle::new();
    let config = pn_config {
        threads: 2,
        ..config(true)
    };
    let (_memory, solver) = solver(&config);
    let piles = if cfg!(miri) { 5..=6 } else { 0..=MAX_PILE };
    for pile in piles {
        for tokens in 0..=MAX_TOKENS {
            let mut t = Tokens::new(pile, tokens);
            let game = t.table(true);
            let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
            // SAFETY: valid pointers; each copy is its own `Tokens`.
            let s = unsafe { pn_solve_value_parallel(solver, &game, null(), &mut r) };
            assert_eq!(
                (s, r.outcome),
                (pn_status::Ok, oracle.value(pile, tokens) as u32),
                "{pile} stones, {tokens} tokens"
            );
        }
    }
    // A copy whose `class_hash` fails fails the call.
    let mut t = Tokens {
        failing_class_hash: Some(1),
        ..Tokens::new(MAX_PILE, 1)
    };
    let game = t.table(true);
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: as above.
    let s = unsafe { pn_solve_value_parallel(solver, &game, null(), &mut r) };
    assert_eq!((s, r.outcome), (pn_status::CallbackFailed, 0));
}

/// `pn_certify` with the dominance callbacks writes dominance records where the walk settles a
/// position by one of its class, and `pn_certificate_check` accepts them through the same
/// callbacks; without them (the same game, no dominance declared) it refuses such a
/// certificate as faulty. (Certificates need `std`.)
#[test]
#[cfg(feature = "std")]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn certificates_with_dominance_records_check_through_the_callbacks() {
    use super::certificates::{certify_game, check_as};
    use crate::certificate::pn_check_verdict;

    let check = |game: &pn_game, bytes: &[u8]| {
        let c = check_as(game, b"tokens", bytes, None, 256);
        (c.status, c.report.verdict, c.message)
    };
    let oracle = Oracle::new();
    let (_memory, solver) = solver(&config(true));
    let mut with_records = 0;
    for pile in 1..=MAX_PILE {
        for tokens in 0..=MAX_TOKENS {
            clear(solver);
            let mut t = Tokens::new(pile, tokens);
            let claim = if oracle.value(pile, tokens) == pn_outcome::Win {
                pn_outcome::Proven
            } else {
                pn_outcome::Disproven
            };
            let game = t.table(true);
            let (s, r, bytes) = certify_game(solver, &game, "tokens", 0, claim);
            assert_eq!(
                (s, r.outcome),
                (pn_status::Ok, claim as u32),
                "({pile}, {tokens})"
            );
            let (status, verdict, message) = check(&game, &bytes);
            assert_eq!(
                (status, verdict),
                (pn_status::Ok, pn_check_verdict::Valid as u32),
                "({pile}, {tokens}): {message}"
            );
            let cert = proofnum_check::read(&bytes).unwrap();
            let dominated = cert
                .records
                .values()
                .any(|r| matches!(r, proofnum_check::Record::Dominated { .. }));
            if dominated {
                with_records += 1;
                let (status, verdict, message) = check(&t.table(false), &bytes);
                assert_eq!(
                    (status, verdict),
                    (
                        pn_status::CertificateInvalid,
                        pn_check_verdict::Faulty as u32
                    ),
                    "({pile}, {tokens}): no dominance declared"
                );
                assert!(message.contains("claims dominance"), "{message}");
            }
        }
    }
    assert!(with_records > 0, "no certificate used dominance");
}

/// With `encode_class` the confirming walk and the certificate checker tell classes apart by
/// it: over a class hash that collides for every class (so the table's class entries mislead
/// the search), no answer is wrong (each is the rules' value or unconfirmed), certificates
/// written through the callbacks check, and the callback is asked. Callers with the fifth
/// version of the struct, which ends before `encode_class`, never have it called.
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn class_encodings_keep_colliding_class_hashes_from_wrong_answers() {
    let oracle = Oracle::new();
    let (_memory, solver) = solver(&config(true));
    let (mut right, mut unconfirmed) = (0, 0);
    #[cfg_attr(not(feature = "std"), allow(unused_mut))] // counted only with certificates
    let mut certified = 0;
    for pile in 1..=MAX_PILE {
        for tokens in 0..=MAX_TOKENS {
            let want = oracle.value(pile, tokens) as u32;
            clear(solver);
            let mut t = Tokens {
                colliding_classes: true,
                ..Tokens::new(pile, tokens)
            };
            let game = pn_game {
                encode_class: Some(tk_encode_class),
                ..t.table(true)
            };
            let (s, r) = solve_value(solver, &game);
            match s {
                pn_status::Ok => {
                    assert_eq!(r.outcome, want, "({pile}, {tokens})");
                    right += 1;
                }
                pn_status::Unconfirmed => unconfirmed += 1,
                other => panic!("({pile}, {tokens}): {other:?}"),
            }
            assert!(
                t.class_encodings > 0,
                "({pile}, {tokens}): encode_class never asked"
            );
            #[cfg(feature = "std")] // certificates are std-only
            {
                use super::certificates::{certify_game, check_as};
                use crate::certificate::pn_check_verdict;
                clear(solver);
                let claim = if want == pn_outcome::Win as u32 {
                    pn_outcome::Proven
                } else {
                    pn_outcome::Disproven
                };
                let (s, _, bytes) = certify_game(solver, &game, "tokens", 0, claim);
                if s == pn_status::Ok {
                    let c = check_as(&game, b"tokens", &bytes, None, 256);
                    assert_eq!(
                        (c.status, c.report.verdict),
                        (pn_status::Ok, pn_check_verdict::Valid as u32),
                        "({pile}, {tokens}): {}",
                        c.message
                    );
                    certified += 1;
                }
            }
            // The fifth version of the struct: `encode_class` is not there to be called.
            clear(solver);
            let mut old = Tokens::new(pile, tokens);
            let game = pn_game {
                struct_size: core::mem::offset_of!(pn_game, encode_class),
                encode_class: Some(tk_encode_class),
                ..old.table(true)
            };
            let (s, r) = solve_value(solver, &game);
            assert_eq!((s, r.outcome), (pn_status::Ok, want), "({pile}, {tokens})");
            assert_eq!(
                old.class_encodings, 0,
                "({pile}, {tokens}): read past struct_size"
            );
        }
    }
    std::println!("{right} right, {unconfirmed} unconfirmed, {certified} certificates checked");
    assert!(right > 0, "no answer confirmed");
    assert!(
        certified > 0 || cfg!(not(feature = "std")),
        "no certificate written"
    );
}

/// A solved position: pile, tokens, side to move, status and outcome.
type Answer = (u32, u32, u32, pn_status, u32);

/// Every (pile, tokens), in one table with the token counts falling and in another with them
/// rising, so that results found with one count meet positions with others (a win found
/// with 3 tokens may need 1, a loss found with none may hold with 2): the values, the MID
/// calls, and the callbacks' calls.
fn values_in_one_table(solver: *mut pn_solver, needs: bool) -> (u64, u32, Vec<Answer>) {
    let (mut mid_calls, mut calls) = (0, 0);
    let mut answers = Vec::new();
    for (i, tokens) in (0..=MAX_TOKENS).rev().chain(0..=MAX_TOKENS).enumerate() {
        if i == 0 || tokens == 0 && i > MAX_TOKENS as usize {
            clear(solver); // a table for the counts falling, another for them rising
        }
        // Large piles first: their searches meet the small piles' positions before those
        // are solved at their own roots (which the table is not asked about).
        for (pile, mover) in (0..=MAX_PILE).rev().flat_map(|pile| [(pile, 1), (pile, 0)]) {
            let mut t = Tokens {
                to_move: mover,
                ..Tokens::new(pile, tokens)
            };
            let game = if needs {
                t.table_with_needs()
            } else {
                t.table(true)
            };
            let (s, r) = solve_value(solver, &game);
            assert_eq!(
                (t.pile, t.tokens, t.to_move),
                (pile, tokens, mover),
                "restored"
            );
            mid_calls += r.stats.mid_calls;
            calls += t.needs;
            answers.push((pile, tokens, mover, s, r.outcome));
        }
    }
    (mid_calls, calls, answers)
}

/// `material_needed` and `material_join` through the C ABI: the values, over tables shared by
/// every token count (so a result kept with the tokens it needs settles positions with
/// other counts), are the rules' for either player to move, with confirmation on and off,
/// and the callbacks are asked. Wrong needs fail it (checked: a three-stone take that needs
/// no token, a loss without tokens that would hold with some).
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn values_with_the_material_results_need_follow_the_rules() {
    let oracle = Oracle::new();
    for confirm in [false, true] {
        let (_memory, solver) = solver(&config(confirm));
        let (with, calls, with_answers) = values_in_one_table(solver, true);
        let (without, none, without_answers) = values_in_one_table(solver, false);
        for (pile, tokens, mover, s, outcome) in with_answers.into_iter().chain(without_answers) {
            let want = oracle.value_for(pile, tokens, mover) as u32;
            assert_eq!(
                (s, outcome),
                (pn_status::Ok, want),
                "{pile} stones, {tokens} tokens, player {mover} to move"
            );
        }
        std::println!(
            "confirm {confirm}: {with} MID calls with the material results need, {without} \
             with dominance alone; {calls} calls of the two callbacks"
        );
        // Whether the reduced entries save MID calls depends on the game (here about as
        // many with them as without); the Rust tests of `tests/dominance.rs` measure that.
        assert!(calls > 0 && none == 0);
    }
}

/// One of the two callbacks without the other is `MISSING_CALLBACK`, and so are both without
/// the dominance callbacks they refine; garbage in `*out_known` is `CALLBACK_INVALID`, never
/// an answer; callers with the sixth version of the struct, which ends before them, never
/// have them called.
#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn the_material_callbacks_come_in_pairs_and_garbage_is_invalid() {
    let (_memory, solver) = solver(&config(false));
    let mut t = Tokens::new(MAX_PILE, 2);
    let full = t.table_with_needs();
    let broken = [
        pn_game {
            material_join: None,
            ..full
        },
        pn_game {
            material_needed: None,
            ..full
        },
        pn_game {
            class_hash: None,
            material: None,
            material_at_least: None,
            ..full
        },
    ];
    for game in broken {
        assert_eq!(solve_value(solver, &game).0, pn_status::MissingCallback);
    }
    assert_eq!(t.needs, 0);
    for garbage in [2, 7, u32::MAX] {
        clear(solver);
        let mut t = Tokens {
            needed_writes: Some(garbage),
            ..Tokens::new(MAX_PILE, 2)
        };
        let (s, r) = solve_value(solver, &t.table_with_needs());
        assert_eq!(
            (s, r.outcome),
            (pn_status::CallbackInvalid, 0),
            "writes {garbage}"
        );
        assert!(t.needs > 0);
    }
    clear(solver);
    let mut t = Tokens::new(MAX_PILE, 2);
    let sixth = pn_game {
        struct_size: core::mem::offset_of!(pn_game, material_needed),
        ..t.table_with_needs()
    };
    let (s, r) = solve_value(solver, &sixth);
    assert_eq!(
        (s, r.outcome),
        (pn_status::Ok, Oracle::new().value(MAX_PILE, 2) as u32)
    );
    assert_eq!(t.needs, 0, "never called");
}
