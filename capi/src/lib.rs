//! # proofnum C ABI
//!
//! The C interface of [proofnum](proofnum_core): a proof-number solver placed inside memory
//! the caller hands in, solving games given as tables of callbacks. The header
//! `include/proofnum.h` is generated from this crate by cbindgen (`capi/cbindgen.toml`); every
//! exported item's doc comment becomes its comment there.
//!
//! # Conventions
//! - Every function returns a [`pn_status`] (0 is [`pn_status::Ok`]) unless it cannot fail.
//!   [`pn_status_str`] names a status; values arriving from C are taken as `uint32_t` and
//!   mapped, never reinterpreted as a Rust enum.
//! - Results go through out-pointers and are written only when the call succeeds (a search
//!   that ran writes its result even when it ended without an answer; see [`pn_solve`]).
//! - Every buffer pointer is followed by its length in elements.
//! - Every input struct begins with `size_t struct_size`, set to `sizeof` the struct, so the
//!   struct can grow without breaking old callers.
//! - A failed call on a solver keeps a message in it saying what was wrong, naming the field,
//!   argument or callback with its value ([`messages::pn_solver_last_error`]); calls without a
//!   solver refuse configurations that [`messages::pn_config_error`] describes. The status codes
//!   stay as they are: the message adds the detail.
//! - No Rust panic crosses the boundary: every export runs inside [`boundary::guard`], which
//!   turns a panic into [`pn_status::InternalError`] on targets with a standard library, and
//!   bare-metal builds (`target_os = "none"`) abort in this crate's panic handler.
//!
//! # Memory
//! Like zstd's static contexts: [`pn_solver_memory_requirements`] says how many bytes and
//! which alignment a [`pn_config`] needs, [`pn_solver_init`] builds the solver inside that
//! memory (the solver object, its transposition table, its search stack, the PNS arena when
//! the configured engine is PNS or PN², and its move buffer, all from the one buffer), and
//! there is nothing to free: the caller owns the memory and may reuse it once the solver is no
//! longer used. The parallel calls are the exception: they
//! allocate threads, search stacks, the root tree and copies of the game, and free all of it
//! before returning (see [`parallel`]).
//!
//! # Features
//! - `std` (default): the parallel solver's calls and the certificate checker
//!   (`pn_certificate_check`, the `proofnum-check` crate). Without it they exist and return
//!   [`pn_status::Unsupported`], so the header is one ABI for every build. The standard
//!   library itself is linked on every target that has one, for the panic boundary; only
//!   bare-metal targets build without it.
//! - `pns` (default): the best-first engines, PNS and PN² ([`config::pn_engine`]). Without it
//!   they are not built (a third of a bare-metal program's flash) and a config asking for them
//!   gives [`pn_status::Unsupported`]; `pn_features()` says which build this is.
//! - `messages` (default): error messages that name what was wrong. Without it
//!   `pn_solver_last_error` and `pn_config_error` give each status's fixed description, and a
//!   bare-metal program saves the formatting code (about 10 KB of flash).
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
// The exported names are C's (`pn_solver`, `pn_status`): one spelling on both sides.
#![allow(non_camel_case_types)]
// An `Error` carries its message inline (`error::Message`: 255 bytes with the `messages`
// feature, a static text without it): the crate allocates
// nothing, and errors arise only while a call checks its arguments or reports its end, never
// inside a search, where a larger `Result` would cost anything.
#![allow(
    clippy::result_large_err,
    reason = "error messages live inline, without allocation"
)]

#[cfg(not(target_os = "none"))]
extern crate std;

// In the order the header presents them: cbindgen (`sort_by = "None"` in capi/cbindgen.toml)
// writes each kind of item (constants, then types, then functions) in source order, module by
// module in the order declared here, a module's own items before its submodules'. So the
// functions read in the order a caller uses them: version and features, statuses and their
// messages, the configuration and the limits, the solver's memory and init, the solve calls
// and the stop request, the principal variation and the verification walk, the table,
// certificates, and the parallel calls. (Types come after every constant and before every
// function, in the order the functions first use them.)

// Version and features.
pub mod version;
// Statuses,
pub mod status;
// and the words beside them: how long they may be, and the calls that give them.
pub mod error;
pub mod messages;
// The configuration and the limits of a search.
pub mod config;
// The solver's memory and init, the solve calls and the stop request.
pub mod solver;
// The game as callbacks.
pub mod game;
// The results.
pub mod result;
// The principal variation and the verification walk.
pub mod proof;
// The transposition table.
pub mod table;
// Certificates: after the walks of `proof`, since its export is one more walk.
pub mod certificate;
// The parallel calls.
pub mod parallel;

// Export nothing.
pub mod boundary;
mod claims;
mod confirm;
#[cfg(test)]
mod tests;

pub use config::{pn_config, pn_limits};
pub use game::{pn_game, pn_outcome, pn_side};
pub use result::{pn_result, pn_stats};
pub use solver::{
    pn_solve, pn_solve_value, pn_solver, pn_solver_init, pn_solver_memory_requirements,
};
pub use status::{pn_status, pn_status_str};

/// Bare-metal builds have no unwinding and no process to abort: a panic (which the solver
/// never raises on valid input) stops the program with a trap instruction where the
/// architecture has one (a HardFault on Cortex-M), otherwise by spinning forever.
#[cfg(all(target_os = "none", not(test)))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    #[cfg(any(target_arch = "arm", target_arch = "aarch64"))]
    // SAFETY: `udf` is the architecturally undefined instruction: it raises an exception and
    // never returns, which is what `noreturn` promises; it touches no memory.
    unsafe {
        core::arch::asm!("udf #0", options(noreturn, nomem, nostack))
    }
    #[cfg(not(any(target_arch = "arm", target_arch = "aarch64")))]
    loop {
        core::hint::spin_loop();
    }
}
