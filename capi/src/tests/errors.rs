//! Error messages: `pn_config_error` for configurations, `pn_solver_last_error` for the calls
//! on a solver. Each test reads the words (the field, argument or callback, and its value),
//! not only that there are some.

use std::string::String;

use super::*;
use crate::config::pn_limits;
use crate::error::PN_ERROR_CAPACITY;
use crate::messages::{pn_config_error, pn_solver_last_error};

/// The solver's last error message.
pub(super) fn last_error(solver: *const pn_solver) -> String {
    let mut buf = [0 as core::ffi::c_char; PN_ERROR_CAPACITY];
    // SAFETY: a writable local buffer of its length.
    let n = unsafe { pn_solver_last_error(solver, buf.as_mut_ptr(), buf.len()) };
    // SAFETY: `pn_solver_last_error` wrote a NUL-terminated string into `buf`.
    let text = unsafe { core::ffi::CStr::from_ptr(buf.as_ptr()) };
    let text = String::from(text.to_str().expect("ASCII"));
    assert_eq!(n, text.len(), "the whole length, and all of it fits");
    text
}

/// What `pn_config_error` says of `config`.
fn config_error(config: *const pn_config) -> String {
    let mut buf = [0 as core::ffi::c_char; PN_ERROR_CAPACITY];
    // SAFETY: a writable local buffer of its length; `config` is NULL or a valid config.
    let n = unsafe { pn_config_error(config, buf.as_mut_ptr(), buf.len()) };
    // SAFETY: `pn_config_error` wrote a NUL-terminated string into `buf`.
    let text = unsafe { core::ffi::CStr::from_ptr(buf.as_ptr()) };
    let text = String::from(text.to_str().expect("ASCII"));
    assert_eq!(n, text.len());
    text
}

/// A change that makes a configuration unacceptable.
type Spoil = fn(&mut pn_config);

#[test]
fn configurations_are_refused_by_field_with_its_value_and_range() {
    assert_eq!(config_error(&default_config()), "");
    let cases: [(Spoil, &str); 9] = [
        (
            |c| c.table_bytes = 10,
            "config.table_bytes is 10; at least 191 (PN_TABLE_MIN_BYTES) needed",
        ),
        (
            |c| c.epsilon_denominator = 0,
            "config.epsilon_denominator is 0 (epsilon 1/0); expected 1 to 4294967295",
        ),
        (
            |c| c.max_moves = 0,
            "config.max_moves is 0; expected 1 to 33294320 (with config.max_depth 128)",
        ),
        (
            |c| c.max_depth = 0,
            "config.max_depth is 0; expected 1 to 65534",
        ),
        (
            |c| c.threads = 5000,
            "config.threads is 5000; expected 0 (one per core) to 1024",
        ),
        (
            |c| c.engine = 3,
            "config.engine is 3; expected 0 (PN_ENGINE_DFPN)",
        ),
        (
            |c| c.confirm = 9,
            "config.confirm is 9; expected 1 (PN_CONFIRM)",
        ),
        (
            |c| c.struct_size = 4,
            "config->struct_size is 4; expected 104 (sizeof in this header) or an earlier \
             version's 72, 96",
        ),
        (
            |c| c.table_bytes = usize::MAX,
            "the memory this configuration needs does not fit in the address space",
        ),
    ];
    for (spoil, said) in cases {
        let mut c = default_config();
        spoil(&mut c);
        let message = config_error(&c);
        let said = said.replace(
            "104",
            &std::format!("{}", core::mem::size_of::<pn_config>()),
        );
        let older: Vec<String> = <pn_config as crate::boundary::SizedStruct>::OLDER_SIZES
            .iter()
            .map(|n| std::format!("{n}"))
            .collect();
        let said = said.replace("72, 96", &older.join(", "));
        assert!(message.starts_with(&said), "{message:?} vs {said:?}");
        // The same configuration is refused by the calls, with the status the message is of.
        let (mut bytes, mut align) = (0, 0);
        // SAFETY: valid pointers to locals.
        let s = unsafe { pn_solver_memory_requirements(&c, &mut bytes, &mut align) };
        assert_ne!(s, pn_status::Ok, "{message}");
    }
    assert_eq!(config_error(null()), "config is NULL");
}

#[test]
fn each_call_on_a_solver_keeps_what_it_found_wrong_and_a_success_clears_it() {
    let (_memory, solver) = solver(&small_config());
    assert_eq!(last_error(solver), "");
    let mut pile = Pile::new(5);
    let game = pile.table();
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);

    // SAFETY: valid pointers; the pile outlives the call.
    let s = unsafe { pn_solve(solver, &game, 5, null(), &mut r) };
    assert_eq!(s, pn_status::InvalidArgument);
    assert_eq!(
        last_error(solver),
        "attacker is 5; expected 0 (PN_SIDE_FIRST) or 1 (PN_SIDE_SECOND)"
    );

    let limits = pn_limits {
        max_time_us: 1000,
        ..pn_limits::NONE
    };
    // SAFETY: as above.
    let s = unsafe { pn_solve(solver, &game, 0, &limits, &mut r) };
    assert_eq!(s, pn_status::InvalidArgument);
    assert!(
        last_error(solver)
            .starts_with("limits->max_time_us is 1000 but limits->clock is NULL; a time limit"),
        "{}",
        last_error(solver)
    );

    let (s, _) = value(solver, &mut pile);
    assert_eq!(s, pn_status::Ok);
    assert_eq!(last_error(solver), "", "a success clears the message");

    // A call that never has the solver leaves its message alone: a busy one (from inside a
    // callback) and one whose solver pointer is no solver.
    // SAFETY: a valid solver.
    assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
    let mut inside = Pile::new(6);
    inside.solver = solver;
    inside.bad_side = None;
    let (s, _) = value(solver, &mut inside);
    assert_eq!(
        (s, inside.reentered),
        (pn_status::Ok, Some(pn_status::Busy))
    );
    assert_eq!(last_error(solver), "");
    // SAFETY: NULL is refused before anything is read.
    let s = unsafe { pn_solve(null_mut(), &game, 0, null(), &mut r) };
    assert_eq!(s, pn_status::NullPointer);
    assert_eq!(last_error(solver), "");
    assert_eq!(
        last_error(null()),
        "solver: a required pointer argument is NULL"
    );
}

#[test]
fn a_broken_callback_is_named_with_what_it_returned_or_wrote() {
    let (_memory, solver) = solver(&small_config());
    let mut pile = Pile::new(5);
    pile.bad_side = Some(7);
    let (s, _) = value(solver, &mut pile);
    assert_eq!(s, pn_status::CallbackInvalid);
    assert_eq!(
        last_error(solver),
        "callback side_to_move wrote 7; expected 0 (PN_SIDE_FIRST) or 1 (PN_SIDE_SECOND)"
    );

    let mut missing = Pile::new(5).table();
    missing.generate_moves = None;
    let mut r = pn_result::new(pn_status::Ok, pn_outcome::Unknown);
    // SAFETY: valid pointers.
    let s = unsafe { pn_solve(solver, &missing, 0, null(), &mut r) };
    assert_eq!(s, pn_status::MissingCallback);
    assert!(last_error(solver).starts_with("game->generate_moves is NULL"));

    // SAFETY: a valid solver.
    assert_eq!(unsafe { pn_table_clear(solver) }, pn_status::Ok);
    let mut failing = Pile {
        failing_play: Some(2),
        ..Pile::new(9)
    };
    let (s, _) = value(solver, &mut failing);
    assert_eq!(s, pn_status::CallbackFailed);
    let message = last_error(solver);
    assert!(
        message.starts_with("callback play returned -1 for move ")
            && message.ends_with("expected 0 (a non-zero return is the game's error)"),
        "{message}"
    );
}

#[test]
fn table_calls_say_which_bytes_and_how_many() {
    let (_memory, solver) = solver(&small_config());
    let ten = [0u8; 10];
    // SAFETY: valid pointers; the bytes are not the solver's.
    let s = unsafe { pn_table_load(solver, ten.as_ptr().cast(), ten.len()) };
    assert_eq!(s, pn_status::TableTruncated);
    assert!(last_error(solver).starts_with("the 10 saved bytes are too few"));
    let mut small = [0u8; 64];
    let mut written = 0;
    // SAFETY: as above.
    let s = unsafe { pn_table_save(solver, small.as_mut_ptr().cast(), small.len(), &mut written) };
    assert_eq!(s, pn_status::BufferTooSmall);
    assert!(
        last_error(solver).starts_with("buffer of 64 bytes; the table needs "),
        "{}",
        last_error(solver)
    );
}
