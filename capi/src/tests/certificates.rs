//! Certificates through the C ABI: `pn_certify` writes them through a sink callback,
//! `pn_certificate_check` checks them against the C game. The game is the subtraction game of
//! the parent module (take 1, 2 or 3; whoever takes the last stone wins), whose rule is the
//! oracle: the side to move loses exactly on multiples of four.

use core::ffi::c_char;
use std::string::String;

use super::*;
use crate::certificate::{
    pn_certificate_check, pn_certify, pn_check_limits, pn_check_limits_default, pn_check_report,
    pn_check_verdict,
};

const NAME: &str = "subtraction 1-3";

/// A sink that appends to a `Vec<u8>`.
pub(super) unsafe extern "C" fn collect(
    ctx: *mut c_void,
    bytes: *const u8,
    length: usize,
) -> c_int {
    assert!(length > 0, "never called with nothing to write");
    // SAFETY: `ctx` is the test's vector; the library passes `length` readable bytes.
    let out = unsafe { &mut *(ctx as *mut Vec<u8>) };
    out.extend_from_slice(unsafe { core::slice::from_raw_parts(bytes, length) });
    0
}

/// A sink that takes `*ctx` bytes at most, then refuses.
unsafe extern "C" fn refuse_after(ctx: *mut c_void, _bytes: *const u8, length: usize) -> c_int {
    // SAFETY: `ctx` is the test's budget.
    let left = unsafe { &mut *(ctx as *mut usize) };
    match left.checked_sub(length) {
        Some(rest) => {
            *left = rest;
            0
        }
        None => 1,
    }
}

/// `pn_certify` of `attacker`'s `claim` on the pile, into a vector.
fn certify(
    solver: *mut pn_solver,
    pile: &mut Pile,
    attacker: u32,
    claim: pn_outcome,
) -> (pn_status, pn_result, Vec<u8>) {
    certify_game(solver, &pile.table(), NAME, attacker, claim)
}

/// `pn_certify` of `attacker`'s `claim` on `game`, named `name`, into a vector.
pub(super) fn certify_game(
    solver: *mut pn_solver,
    game: &pn_game,
    name: &str,
    attacker: u32,
    claim: pn_outcome,
) -> (pn_status, pn_result, Vec<u8>) {
    let mut bytes = Vec::new();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the sink's context is the vector, alive during the call.
    let s = unsafe {
        pn_certify(
            solver,
            game,
            attacker,
            claim as u32,
            name.as_ptr().cast(),
            name.len(),
            Some(collect),
            (&mut bytes as *mut Vec<u8>).cast(),
            null(),
            &mut r,
        )
    };
    (s, r, bytes)
}

/// What `pn_certificate_check` wrote.
pub(super) struct Checked {
    pub(super) status: pn_status,
    pub(super) report: pn_check_report,
    line: Vec<u64>,
    pub(super) message: String,
}

/// `pn_certificate_check` of `bytes` on the game, named `name`, with room for 16 moves of a
/// faulty line and `message_capacity` bytes of message.
pub(super) fn check_as(
    game: &pn_game,
    name: &[u8],
    bytes: &[u8],
    limits: Option<&pn_check_limits>,
    message_capacity: usize,
) -> Checked {
    let mut line = [u64::MAX; 16];
    let mut message = vec![0x55u8; message_capacity];
    let mut report = pn_check_report {
        struct_size: size_of::<pn_check_report>(),
        ..pn_check_report::default()
    };
    // SAFETY: valid pointers and lengths; the game's context outlives the call.
    let status = unsafe {
        pn_certificate_check(
            game,
            name.as_ptr().cast::<c_char>(),
            name.len(),
            bytes.as_ptr(),
            bytes.len(),
            limits.map_or(null(), |l| l as *const pn_check_limits),
            line.as_mut_ptr(),
            line.len(),
            message.as_mut_ptr().cast::<c_char>(),
            message.len(),
            &mut report,
        )
    };
    let shown = (report.line_length as usize).min(line.len());
    let text = match message.iter().position(|&b| b == 0) {
        Some(end) => String::from_utf8(message[..end].to_vec()).unwrap(),
        None => String::new(),
    };
    Checked {
        status,
        report,
        line: line[..shown].to_vec(),
        message: text,
    }
}

fn check(pile: &mut Pile, bytes: &[u8]) -> Checked {
    check_as(&pile.table(), NAME.as_bytes(), bytes, None, 256)
}

fn claim_for(pile: u32, attacker: u32) -> pn_outcome {
    // The mover (side 0 at a fresh pile) wins off the multiples of four.
    if (attacker == 0) == (pile % 4 != 0) {
        pn_outcome::Proven
    } else {
        pn_outcome::Disproven
    }
}

fn opposite(claim: pn_outcome) -> pn_outcome {
    if claim == pn_outcome::Proven {
        pn_outcome::Disproven
    } else {
        pn_outcome::Proven
    }
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn certificates_of_true_claims_check_and_false_claims_are_refuted() {
    let (_memory, solver) = solver(&small_config());
    for n in 0..=13u32 {
        for attacker in [0, 1] {
            let claim = claim_for(n, attacker);
            let mut pile = Pile::new(n);
            let (s, r, bytes) = certify(solver, &mut pile, attacker, claim);
            assert_eq!((s, r.outcome), (pn_status::Ok, claim as u32), "pile {n}");
            assert!(bytes.starts_with(b"PNCERT"));
            assert_eq!(
                (pile.stones, pile.to_move),
                (n, 0),
                "the position is restored"
            );
            let c = check(&mut pile, &bytes);
            assert_eq!(c.status, pn_status::Ok, "pile {n}: {}", c.message);
            assert_eq!(c.report.verdict, pn_check_verdict::Valid as u32);
            assert_eq!(c.report.exact, 1, "the pile has an encoding");
            assert!(c.report.positions >= 1);
            assert!(c.message.starts_with("valid: "), "{}", c.message);
            assert_eq!(c.report.message_length as usize, c.message.len());
            assert_eq!(
                (pile.stones, pile.to_move),
                (n, 0),
                "the checker restores it too"
            );

            let (s, r, _) = certify(solver, &mut pile, attacker, opposite(claim));
            assert_eq!((s, r.outcome), (pn_status::Refuted, 0), "pile {n}");
        }
    }
}

/// The offset of the first OR record's move index in a certificate (format version 2).
fn first_or_index(bytes: &[u8]) -> usize {
    let varint = |at: &mut usize| {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let b = bytes[*at];
            *at += 1;
            value |= u64::from(b & 0x7F) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return value;
            }
        }
    };
    let mut at = 8; // magic, version, reserved
    let name = varint(&mut at) as usize;
    at += name + 3; // the name, rule, attacker, claim
    let encoding = varint(&mut at) as usize;
    at += encoding;
    loop {
        let tag = bytes[at];
        at += 1;
        match tag {
            1 => {
                varint(&mut at); // id
                return at;
            }
            2 => {
                varint(&mut at); // id
                let count = varint(&mut at);
                for _ in 0..count {
                    varint(&mut at);
                }
            }
            _ => panic!("no OR record"),
        }
    }
}

/// The certificate's checksum (FNV-1a, 64-bit, of every byte before it) made right again.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in &bytes[..body] {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    bytes[body..].copy_from_slice(&h.to_le_bytes());
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn spoiled_certificates_are_rejected_with_their_reasons() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let (s, _, bytes) = certify(solver, &mut pile, 0, pn_outcome::Proven);
    assert_eq!(s, pn_status::Ok);

    // Truncated anywhere: not a certificate.
    for cut in [0, 5, 8, bytes.len() / 2, bytes.len() - 1] {
        let c = check(&mut pile, &bytes[..cut]);
        assert_eq!(c.status, pn_status::CertificateInvalid, "cut at {cut}");
        assert_eq!(c.report.verdict, pn_check_verdict::Malformed as u32);
        assert!(
            c.message.starts_with("not a valid certificate"),
            "{}",
            c.message
        );
    }
    // A changed byte: the checksum no longer holds.
    let mut changed = bytes.clone();
    let middle = changed.len() / 2;
    changed[middle] ^= 0x10;
    let c = check(&mut pile, &changed);
    assert_eq!(c.report.verdict, pn_check_verdict::Malformed as u32);
    assert!(c.report.offset > 0, "{}", c.message);

    // A wrong move, resealed so that only the proof is wrong: the first OR record plays a
    // move the game does not list.
    let mut wrong = bytes.clone();
    let at = first_or_index(&wrong);
    wrong[at] = 100;
    reseal(&mut wrong);
    let c = check(&mut pile, &wrong);
    assert_eq!(c.status, pn_status::CertificateInvalid);
    assert_eq!(c.report.verdict, pn_check_verdict::Faulty as u32);
    assert!(c.message.contains("plays move 100"), "{}", c.message);
    assert_eq!(c.report.line_length as usize, c.line.len());
    assert_eq!((pile.stones, pile.to_move), (9, 0));

    // Another game's name, another position.
    let c = check_as(&pile.table(), b"another game", &bytes, None, 256);
    assert_eq!(c.report.verdict, pn_check_verdict::Mismatch as u32);
    assert!(c.message.contains("another game"), "{}", c.message);
    let c = check(&mut Pile::new(10), &bytes);
    assert_eq!(c.report.verdict, pn_check_verdict::Mismatch as u32);
    assert!(c.message.contains("another position"), "{}", c.message);
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn the_report_and_buffers_are_written_as_far_as_they_reach() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let (_, _, bytes) = certify(solver, &mut pile, 0, pn_outcome::Proven);
    // A message cut short: NUL-terminated at the capacity, its whole length reported.
    let c = check_as(&pile.table(), NAME.as_bytes(), &bytes, None, 7);
    assert_eq!(c.status, pn_status::Ok);
    assert_eq!(c.message, "valid:", "6 bytes and the NUL");
    assert!(c.report.message_length > 7);
    // No message buffer at all.
    let c = check_as(&pile.table(), NAME.as_bytes(), &bytes, None, 0);
    assert_eq!((c.status, c.message.as_str()), (pn_status::Ok, ""));

    // A position limit: incomplete, with what was judged.
    let one = pn_check_limits {
        max_positions: 1,
        ..pn_check_limits_default()
    };
    let c = check_as(&pile.table(), NAME.as_bytes(), &bytes, Some(&one), 256);
    assert_eq!(c.status, pn_status::NodeLimit);
    assert_eq!(c.report.verdict, pn_check_verdict::Incomplete as u32);
    // Fewer moves allowed than the game lists; and a move bound out of range.
    let two = pn_check_limits {
        max_moves: 2,
        ..pn_check_limits_default()
    };
    let c = check_as(&pile.table(), NAME.as_bytes(), &bytes, Some(&two), 256);
    assert_eq!(c.status, pn_status::TooManyMoves);
    for max_moves in [0, crate::certificate::PN_CHECK_MAX_MOVES + 1] {
        let bad = pn_check_limits {
            max_moves,
            ..pn_check_limits_default()
        };
        let c = check_as(&pile.table(), NAME.as_bytes(), &bytes, Some(&bad), 256);
        assert_eq!(c.status, pn_status::InvalidArgument);
        assert_eq!(
            c.report.struct_size,
            size_of::<pn_check_report>(),
            "nothing written"
        );
        assert_eq!(c.report.verdict, 0);
    }
    // A name that is not UTF-8.
    let c = check_as(&pile.table(), &[0xFF, 0xFE], &bytes, None, 256);
    assert_eq!(c.status, pn_status::InvalidArgument);
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn a_sink_that_refuses_ends_the_walk_with_output_failed() {
    let (_memory, solver) = solver(&small_config());
    for budget in [0usize, 10, 40] {
        let mut pile = Pile::new(9);
        let game = pile.table();
        let mut left = budget;
        let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
        // SAFETY: valid pointers; the sink's context is `left`, alive during the call.
        let s = unsafe {
            pn_certify(
                solver,
                &game,
                0,
                pn_outcome::Proven as u32,
                NAME.as_ptr().cast(),
                NAME.len(),
                Some(refuse_after),
                (&mut left as *mut usize).cast(),
                null(),
                &mut r,
            )
        };
        assert_eq!(
            (s, r.outcome),
            (pn_status::OutputFailed, 0),
            "budget {budget}"
        );
        assert_eq!(
            r.status,
            pn_status::OutputFailed as u32,
            "the result is written"
        );
        assert_eq!((pile.stones, pile.to_move), (9, 0));
    }
    // No sink, no solver name in UTF-8: refused before anything runs.
    let mut pile = Pile::new(9);
    let game = pile.table();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    let bad_name = [0xC3u8]; // a cut two-byte sequence
    // SAFETY: valid pointers.
    unsafe {
        let claim = pn_outcome::Proven as u32;
        let name = NAME.as_ptr().cast();
        let s = pn_certify(
            solver,
            &game,
            0,
            claim,
            name,
            4,
            None,
            null_mut(),
            null(),
            &mut r,
        );
        assert_eq!(s, pn_status::NullPointer);
        let bad = bad_name.as_ptr().cast();
        let s = pn_certify(
            solver,
            &game,
            0,
            claim,
            bad,
            1,
            Some(collect),
            null_mut(),
            null(),
            &mut r,
        );
        assert_eq!(s, pn_status::InvalidArgument);
        let s = pn_certify(
            solver,
            &game,
            0,
            3,
            name,
            4,
            Some(collect),
            null_mut(),
            null(),
            &mut r,
        );
        assert_eq!(
            s,
            pn_status::InvalidArgument,
            "a claim must be PROVEN or DISPROVEN"
        );
    }
    assert_eq!(pile.plays, 0);
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn over_long_encodings_are_invalid_callbacks_in_the_writer_and_the_checker() {
    let (_memory, solver) = solver(&small_config());
    let mut good = Pile::new(9);
    let (_, _, bytes) = certify(solver, &mut good, 0, pn_outcome::Proven);
    let mut pile = Pile {
        encoding_length: Some(crate::game::PN_ENCODING_CAPACITY + 1),
        ..Pile::new(9)
    };
    let (s, r, _) = certify(solver, &mut pile, 0, pn_outcome::Proven);
    assert_eq!((s, r.outcome), (pn_status::CallbackInvalid, 0));
    let c = check(&mut pile, &bytes);
    assert_eq!(c.status, pn_status::CallbackInvalid);
    assert_eq!(c.report.verdict, 0, "nothing written");
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; runs natively and under TSan")]
fn games_without_an_encoding_are_checked_as_trees_only_when_acyclic() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(9);
    let plain = pn_game {
        encode: None,
        ..pile.table()
    };
    let mut bytes = Vec::new();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers; the sink's context is the vector.
    let s = unsafe {
        pn_certify(
            solver,
            &plain,
            0,
            pn_outcome::Proven as u32,
            NAME.as_ptr().cast(),
            NAME.len(),
            Some(collect),
            (&mut bytes as *mut Vec<u8>).cast(),
            null(),
            &mut r,
        )
    };
    assert_eq!(s, pn_status::Ok);
    let c = check_as(&plain, NAME.as_bytes(), &bytes, None, 256);
    assert_eq!(
        (c.status, c.report.exact),
        (pn_status::Ok, 0),
        "{}",
        c.message
    );
    // Under the draw rule a repetition could not be recognised: the encoding is required.
    let drawn = pn_game {
        repetition_rule: crate::game::pn_repetition::Draw as u32,
        ..plain
    };
    let mut drawn_bytes = Vec::new();
    // SAFETY: as above.
    let s = unsafe {
        pn_certify(
            solver,
            &drawn,
            0,
            pn_outcome::Proven as u32,
            NAME.as_ptr().cast(),
            NAME.len(),
            Some(collect),
            (&mut drawn_bytes as *mut Vec<u8>).cast(),
            null(),
            &mut r,
        )
    };
    assert_eq!(s, pn_status::Ok);
    let c = check_as(&drawn, NAME.as_bytes(), &drawn_bytes, None, 256);
    assert_eq!(c.status, pn_status::MissingCallback);
    // Nor is a certificate of one rule checked under another.
    let c = check_as(&drawn, NAME.as_bytes(), &bytes, None, 256);
    assert_eq!(c.report.verdict, pn_check_verdict::Mismatch as u32);
    // A certificate naming its root by an encoding is not for a game without one.
    let (_, _, encoded) = certify(solver, &mut pile, 0, pn_outcome::Proven);
    let c = check_as(&plain, NAME.as_bytes(), &encoded, None, 256);
    assert_eq!(c.report.verdict, pn_check_verdict::Mismatch as u32);
}
