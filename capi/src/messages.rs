//! The calls that say in words what a failed call found wrong, beside its status: the
//! solver's last error and the problem with a configuration. The messages themselves are
//! built in [`error`](crate::error); these calls read them from a solver or from a
//! configuration, so this module sits above both (nothing below imports it).

use core::ffi::c_char;

use crate::boundary::{Arg, guard_value, read_input};
use crate::config::pn_config;
use crate::error::{Error, Message, copy_out};
use crate::solver::{handle, pn_solver};

/// Copies the message of what the last call on this solver found wrong into `buf` (at most
/// `len` bytes, NUL included: `snprintf`'s contract) and returns the message's whole length,
/// without the NUL. `buf` may be NULL with `len` 0 to ask for the length;
/// `PN_ERROR_CAPACITY` bytes always hold a whole message. The message is ASCII, in English,
/// for people (match on the status, not on the words), and names what was wrong: the
/// argument or field with its value and what was expected (`config.max_moves is 0; ...`,
/// `attacker is 5; ...`, `limits->max_time_us is 1000 but limits->clock is NULL; ...`), the
/// callback and what it returned or wrote (`callback play returned 7 for move 3; ...`), the
/// size a buffer needed, the limit a search hit. (In a build without the `messages` feature,
/// which `pn_features()` tells by `PN_FEATURE_MESSAGES`, it is the status's description from
/// `pn_status_str`: bare-metal builds save the formatting code that way.)
///
/// Every other call given this solver sets the message once it has the solver to itself: empty
/// when the call succeeds (a return of 0 means "no error"), the description of the failure
/// otherwise, for every status other than `PN_STATUS_OK` (a search that ended on a limit
/// too). A call that fails before it has the solver leaves the message alone, as it is
/// another call's: a solver argument that is NULL, misaligned or not a solver
/// (`PN_STATUS_NULL_POINTER`, `MISALIGNED`, `INVALID_HANDLE`) and `PN_STATUS_BUSY`. So does
/// `pn_solver_stop`, and this call, which only reads it. After `PN_STATUS_INTERNAL_ERROR` (a
/// bug) the message may be empty.
///
/// Calls without a solver have no message to keep: `pn_solver_memory_requirements` and
/// `pn_solver_init` refuse a configuration that `pn_config_error` describes, and their other
/// statuses (`PN_STATUS_BUFFER_TOO_SMALL`, `MISALIGNED` for the memory) say all there is
/// with the requirements they compare against; `pn_certificate_check` says what is wrong
/// with a certificate in its report.
///
/// Like the other calls on a solver, it may not run while another call uses the solver
/// (another thread, or a callback of the running call): it then writes and returns the text
/// of `PN_STATUS_BUSY` instead. For a `solver` that is NULL or not a solver it writes what is
/// wrong with the pointer.
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `buf` is NULL or writable for `len`
/// bytes, and not inside the solver's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_solver_last_error(
    solver: *const pn_solver,
    buf: *mut c_char,
    len: usize,
) -> usize {
    let message = guard_value(Message::of("internal error in proofnum (a bug)"), || {
        // SAFETY: forwarded from the caller.
        let solver = match unsafe { handle(solver.cast_mut()) } {
            Ok(solver) => solver,
            Err(status) => return Error::from(status).about("solver").text(),
        };
        match solver.lock() {
            Ok(locked) => locked.inner.last_error,
            Err(status) => Error::from(status).text(),
        }
    });
    guard_value(0, || {
        // SAFETY: forwarded from the caller.
        unsafe { copy_out(message.as_bytes(), buf, len) }
    })
}

/// Copies what `pn_solver_memory_requirements` and `pn_solver_init` would refuse in `config`
/// into `buf`, as `pn_solver_last_error` does (at most `len` bytes, NUL included; returns
/// the whole length): the field, its value and the range allowed
/// (`config.epsilon_denominator is 0 ...`, `config.table_bytes is 10; at least 191 ...`), a
/// NULL config or a `struct_size` this library does not know. An acceptable configuration
/// gives the empty string and 0. Those two calls have no solver to keep a message in: call
/// this when they fail with `PN_STATUS_INVALID_ARGUMENT`, `BAD_STRUCT_SIZE`, `NULL_POINTER`
/// (for the config) or `UNSUPPORTED`. It reads `config` and nothing else, and may be called
/// from any thread.
///
/// # Safety
/// `config` is NULL or readable as for `pn_solver_memory_requirements`; `buf` is NULL or
/// writable for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_config_error(
    config: *const pn_config,
    buf: *mut c_char,
    len: usize,
) -> usize {
    let message = guard_value(Message::of("internal error in proofnum (a bug)"), || {
        // SAFETY: forwarded from the caller.
        match unsafe { config_problem(config) } {
            Ok(()) => Message::EMPTY,
            Err(error) => error.text(),
        }
    });
    guard_value(0, || {
        // SAFETY: forwarded from the caller.
        unsafe { copy_out(message.as_bytes(), buf, len) }
    })
}

/// What the solver's constructors refuse in `config`, if anything.
///
/// # Safety
/// As [`pn_config_error`]'s `config`.
unsafe fn config_problem(config: *const pn_config) -> Result<(), Error> {
    // SAFETY: forwarded from the caller.
    let config = unsafe { read_input(config).struct_arg(config, "config")? };
    crate::solver::memory_layout(&config).map(|_| ())
}
