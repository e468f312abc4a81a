//! Tables loaded from bytes the solver did not write: random damage is
//! rejected by the entries' checks, and forged entries (valid checks, false claims) never make
//! a solve call report a wrong answer. The oracle is the subtraction game's rule: the side to
//! move loses exactly on multiples of four, and wins by taking `n % 4`.

use super::*;
use crate::parallel::pn_solve_value_parallel;
use proofnum_core::Numbers;
use proofnum_core::table::{ENTRY_BYTES, HEADER_BYTES, RawEntry};

/// The table after solving the values of piles `0..=max` from scratch, as `pn_table_save`
/// writes it.
fn saved_table(config: &pn_config, max: u32) -> Vec<u8> {
    let (_memory, solver) = solver(config);
    for n in 0..=max {
        let (s, _) = value(solver, &mut Pile::new(n));
        assert_eq!(s, pn_status::Ok);
    }
    let mut saved = vec![0u8; 1 << 16];
    let mut n = 0;
    // SAFETY: valid pointers; `saved` does not overlap the solver.
    let s = unsafe { pn_table_save(solver, saved.as_mut_ptr().cast(), saved.len(), &mut n) };
    assert_eq!(s, pn_status::Ok);
    saved.truncate(n);
    saved
}

/// The entries of saved table bytes, as (offset, raw entry).
fn entries(saved: &[u8]) -> impl Iterator<Item = (usize, RawEntry)> + '_ {
    let word = |at: usize| u64::from_ne_bytes(saved[at..at + 8].try_into().unwrap());
    (HEADER_BYTES..saved.len())
        .step_by(ENTRY_BYTES)
        .map(move |at| {
            let raw = RawEntry {
                key_word: word(at),
                data_word: word(at + 8),
            };
            (at, raw)
        })
        .filter(|(_, raw)| !raw.is_empty())
}

/// `pn_solve` for the side to move (side 0 at the root of a fresh pile).
fn solve_for_mover(solver: *mut pn_solver, pile: &mut Pile) -> (pn_status, pn_result) {
    let game = pile.table();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the game's context outlives the call.
    let s = unsafe { pn_solve(solver, &game, 0, null(), &mut r) };
    (s, r)
}

/// Asserts every answer for piles `0..=max` against the rule of four, in a solver whose table
/// was loaded from `bytes`.
fn assert_answers_hold(config: &pn_config, bytes: &[u8], max: u32, what: &str) {
    for n in 0..=max {
        for ask_value in [true, false] {
            // Room for the saved table whatever the alignment of this solver's memory (a
            // smaller saved table is used at its own size).
            let (_memory, solver) = solver(&pn_config {
                table_bytes: 2 * config.table_bytes,
                ..*config
            });
            // SAFETY: valid pointers; `bytes` does not overlap the solver.
            let s = unsafe { pn_table_load(solver, bytes.as_ptr().cast(), bytes.len()) };
            // Only entries are changed here, never the header: the bytes load.
            assert_eq!(s, pn_status::Ok, "{what}: loading");
            let mut pile = Pile::new(n);
            let wins = n % 4 != 0;
            if ask_value {
                let (s, r) = value(solver, &mut pile);
                let want = if wins {
                    pn_outcome::Win
                } else {
                    pn_outcome::Loss
                };
                assert_eq!(
                    (s, r.outcome),
                    (pn_status::Ok, want as u32),
                    "{what}: pile {n}"
                );
                if wins {
                    assert_eq!(
                        (r.has_best_move, r.best_move),
                        (1, n % 4),
                        "{what}: pile {n}"
                    );
                }
            } else {
                let (s, r) = solve_for_mover(solver, &mut pile);
                let want = if wins {
                    pn_outcome::Proven
                } else {
                    pn_outcome::Disproven
                };
                assert_eq!(
                    (s, r.outcome),
                    (pn_status::Ok, want as u32),
                    "{what}: pile {n}"
                );
                // Every line ends within n plies, the winner making the last move.
                assert!(r.distance <= n, "{what}: pile {n}: {r:?}");
                assert_eq!(r.distance % 2 == 1, wins, "{what}: pile {n}: {r:?}");
                if wins {
                    assert_eq!(
                        (r.has_best_move, r.best_move),
                        (1, n % 4),
                        "{what}: pile {n}"
                    );
                }
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn forged_entries_with_valid_checks_never_make_a_wrong_answer() {
    // The review's forgery: entries rewritten to claim "the side to move wins", their checks
    // recomputed (they are no secret). Before, pn_solve_value answered "win" for lost piles.
    let config = small_config();
    let max = if cfg!(miri) { 4 } else { 12 };
    let mut forged = saved_table(&config, max);
    let list: Vec<(usize, RawEntry)> = entries(&forged).collect();
    assert!(!list.is_empty());
    for (at, raw) in list {
        let entry = proofnum_core::Entry {
            numbers: Numbers::WIN,
            ..raw.decode()
        };
        let lie = RawEntry::encode((raw.check() as u64) << 32, &entry, raw.generation());
        forged[at..at + 8].copy_from_slice(&lie.key_word.to_ne_bytes());
        forged[at + 8..at + 16].copy_from_slice(&lie.data_word.to_ne_bytes());
    }
    assert_answers_hold(&config, &forged, max, "forged table");

    // The parallel calls confirm too.
    let (_memory, solver) = solver(&pn_config {
        threads: 2,
        table_bytes: 2 * config.table_bytes,
        ..config
    });
    // SAFETY: valid pointers; `forged` does not overlap the solver.
    let s = unsafe { pn_table_load(solver, forged.as_ptr().cast(), forged.len()) };
    assert_eq!(s, pn_status::Ok);
    let mut pile = Pile::new(8);
    let game = pile.table();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the game's context outlives the call.
    let s = unsafe { pn_solve_value_parallel(solver, &game, null(), &mut r) };
    assert_eq!((s, r.outcome), (pn_status::Ok, pn_outcome::Loss as u32));
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn random_bit_flips_never_change_a_value_a_best_move_or_a_distance() {
    // Before layout version 3 the check covered 96 of an entry's 128 bits, and flips in the
    // other 32 changed distances (to more plies than the game has) and best moves.
    let config = small_config();
    let max = if cfg!(miri) { 3 } else { 12 };
    let clean = saved_table(&config, max);
    // Flips land in the entries (the empty slots and the header are checked elsewhere).
    let at: Vec<usize> = entries(&clean).map(|(at, _)| at).collect();
    let mut state = 0x243F_6A88_85A3_08D3u64;
    let trials = if cfg!(miri) { 2 } else { 3000 };
    for trial in 0..trials {
        let mut damaged = clean.clone();
        for _ in 0..1 + trial % 4 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (state >> 16) as usize;
            let bit = r % (ENTRY_BYTES * 8);
            damaged[at[(r >> 8) % at.len()] + bit / 8] ^= 1 << (bit % 8);
        }
        assert_answers_hold(&config, &damaged, max, &std::format!("trial {trial}"));
    }
}
