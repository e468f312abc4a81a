//! Status codes: what every export returns, and how the core's errors map onto them.
//!
//! The codes are a `#[repr(u32)]` enum so the header lists them by name. Rust only ever
//! *returns* them; a code that comes back from C (to [`pn_status_str`], say) is read as a
//! `uint32_t` and looked up with [`pn_status::from_u32`], because an out-of-range value in a
//! Rust enum would be undefined behaviour.

use core::ffi::{CStr, c_char};

use proofnum_core::{MemoryError, Reason, TableError};

use crate::boundary;

/// The result of a call. `PN_STATUS_OK` is 0; every other value says what went wrong, and
/// which argument, field or callback it was, with its value, is said in words by
/// `pn_solver_last_error` (calls on a solver) and `pn_config_error` (configurations).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum pn_status {
    /// Success. For a search: the position was solved.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// An input struct's `struct_size` is not a size this library knows.
    BadStructSize = 2,
    /// An argument is out of range (a side other than 0 or 1, ε with a zero denominator,
    /// `max_moves` of 0, a time limit without a clock, ...).
    InvalidArgument = 3,
    /// A buffer is smaller than required.
    BufferTooSmall = 4,
    /// A pointer is not aligned as required (the solver memory, or a struct).
    Misaligned = 5,
    /// The solver pointer does not point to a solver made by `pn_solver_init` at that address:
    /// memory that holds something else (zeroed, or overwritten since) or a copy of a solver
    /// at another address. The check reads the first 16 bytes at the pointer, so they must be
    /// readable and hold bytes the program wrote: memory never written at all (fresh from
    /// `malloc`) cannot be told apart safely and is not a valid solver argument.
    InvalidHandle = 6,
    /// The solver is in use by another call (from another thread, or from inside a callback).
    Busy = 7,
    /// The call needs a feature this build does not have (the `std` feature's parallel
    /// solver, the `pns` feature's PNS and PN² engines).
    Unsupported = 8,
    /// A required game callback is NULL.
    MissingCallback = 9,
    /// The search stopped at its node limit without an answer.
    NodeLimit = 10,
    /// The search stopped at its time limit without an answer.
    TimeLimit = 11,
    /// The search was stopped by `pn_solver_stop` without an answer.
    Stopped = 12,
    /// A line was deeper than the configured `max_depth`.
    DepthLimit = 13,
    /// A position had more moves than the configured `max_moves`.
    TooManyMoves = 14,
    /// A game callback returned a non-zero error code.
    CallbackFailed = 15,
    /// A game callback reported a value out of range (a side other than 0 or 1, an outcome
    /// that is not one of `PN_OUTCOME_UNKNOWN/WIN/LOSS/DRAW`, a move count it did not write).
    CallbackInvalid = 16,
    /// The bytes given as a saved table do not start with a proofnum table header.
    TableBadMagic = 17,
    /// The saved table was written by an incompatible layout version.
    TableVersionMismatch = 18,
    /// The saved table was written with another byte order or entry size.
    TableLayoutMismatch = 19,
    /// The saved table is shorter than its header says.
    TableTruncated = 20,
    /// `pn_verify` found that the claimed result does not hold (a wrong table entry from a
    /// collision of the game's hashes, or a game whose callbacks are not consistent).
    Refuted = 21,
    /// A bug in proofnum: a panic was caught, or an impossible state was reached.
    InternalError = 22,
    /// The search ran out of memory without an answer: the PNS arena (`PN_ENGINE_PNS`,
    /// `PN_ENGINE_PN2`) was full even after its solved subtrees were freed, or a parallel call
    /// could not have a worker thread or its search stack.
    MemoryLimit = 23,
    /// The search's answer was refuted by its confirmation each time it was searched again
    /// with new table keys: false matches in the table, or positions the game's hash does not
    /// tell apart, kept leading it astray. No answer is reported rather than a wrong one.
    Unconfirmed = 24,
    /// A certificate could not be written: its sink callback refused bytes.
    OutputFailed = 25,
    /// `pn_certificate_check` rejected the certificate: its bytes are not a certificate, it is
    /// about another game, rule or position, or a step of its proof is faulty (the report says
    /// which, and where).
    CertificateInvalid = 26,
}

impl pn_status {
    /// Every status, in numeric order (each at the index of its value).
    pub(crate) const ALL: [pn_status; 27] = [
        pn_status::Ok,
        pn_status::NullPointer,
        pn_status::BadStructSize,
        pn_status::InvalidArgument,
        pn_status::BufferTooSmall,
        pn_status::Misaligned,
        pn_status::InvalidHandle,
        pn_status::Busy,
        pn_status::Unsupported,
        pn_status::MissingCallback,
        pn_status::NodeLimit,
        pn_status::TimeLimit,
        pn_status::Stopped,
        pn_status::DepthLimit,
        pn_status::TooManyMoves,
        pn_status::CallbackFailed,
        pn_status::CallbackInvalid,
        pn_status::TableBadMagic,
        pn_status::TableVersionMismatch,
        pn_status::TableLayoutMismatch,
        pn_status::TableTruncated,
        pn_status::Refuted,
        pn_status::InternalError,
        pn_status::MemoryLimit,
        pn_status::Unconfirmed,
        pn_status::OutputFailed,
        pn_status::CertificateInvalid,
    ];

    /// The status with this value, if there is one.
    pub fn from_u32(value: u32) -> Option<pn_status> {
        Self::ALL.get(value as usize).copied()
    }

    /// A short English description.
    pub fn message(self) -> &'static CStr {
        match self {
            pn_status::Ok => c"ok",
            pn_status::NullPointer => c"a required pointer argument is NULL",
            pn_status::BadStructSize => c"struct_size does not match the struct",
            pn_status::InvalidArgument => c"an argument is out of range",
            pn_status::BufferTooSmall => c"buffer too small",
            pn_status::Misaligned => c"pointer not aligned as required",
            pn_status::InvalidHandle => {
                c"not a solver initialised by pn_solver_init at this address"
            }
            pn_status::Busy => c"the solver is in use by another call",
            pn_status::Unsupported => c"not supported by this build (needs the std or pns feature)",
            pn_status::MissingCallback => c"a required game callback is NULL",
            pn_status::NodeLimit => c"node limit reached without an answer",
            pn_status::TimeLimit => c"time limit reached without an answer",
            pn_status::Stopped => c"stopped without an answer",
            pn_status::DepthLimit => c"a line is deeper than max_depth",
            pn_status::TooManyMoves => c"a position has more moves than max_moves",
            pn_status::CallbackFailed => c"a game callback returned an error",
            pn_status::CallbackInvalid => c"a game callback reported an out-of-range value",
            pn_status::TableBadMagic => c"not a saved proofnum table (bad magic)",
            pn_status::TableVersionMismatch => c"saved table has an incompatible layout version",
            pn_status::TableLayoutMismatch => c"saved table has another byte order or entry size",
            pn_status::TableTruncated => c"saved table is shorter than its header says",
            pn_status::Refuted => c"the claimed result does not hold",
            pn_status::InternalError => c"internal error in proofnum (a bug): please report it",
            pn_status::MemoryLimit => {
                c"out of search memory (PNS arena, or worker threads and stacks) without an answer"
            }
            pn_status::Unconfirmed => {
                c"the answer was refuted by its confirmation each time it was searched again"
            }
            pn_status::OutputFailed => c"the certificate sink refused bytes",
            pn_status::CertificateInvalid => {
                c"the certificate is not valid for this game and position"
            }
        }
    }

    /// Why a search ended without an answer, as a status. The work budget and thresholds are
    /// never set through this interface, so those reasons mean a bug.
    pub fn from_reason(reason: Reason) -> pn_status {
        match reason {
            Reason::NodeLimit => pn_status::NodeLimit,
            Reason::TimeLimit => pn_status::TimeLimit,
            Reason::Stopped => pn_status::Stopped,
            Reason::DepthLimit => pn_status::DepthLimit,
            Reason::TooManyMoves => pn_status::TooManyMoves,
            // The C game adapter records the precise failure; this is the fallback.
            Reason::GameError => pn_status::CallbackInvalid,
            // PNS's arena was full even after freeing solved subtrees, or a parallel call could
            // not have a worker's stack or thread.
            Reason::MemoryLimit => pn_status::MemoryLimit,
            Reason::Unconfirmed => pn_status::Unconfirmed,
            Reason::Output => pn_status::OutputFailed,
            // The work budget and thresholds are never set through this interface.
            Reason::WorkLimit | Reason::Thresholds => pn_status::InternalError,
        }
    }

    /// A table error as a status.
    pub fn from_table_error(error: TableError) -> pn_status {
        match error {
            TableError::TooSmall { .. } => pn_status::BufferTooSmall,
            TableError::BadMagic => pn_status::TableBadMagic,
            TableError::VersionMismatch { .. } => pn_status::TableVersionMismatch,
            TableError::LayoutMismatch => pn_status::TableLayoutMismatch,
            TableError::Truncated { .. } => pn_status::TableTruncated,
        }
    }

    /// A memory error as a status.
    pub fn from_memory_error(error: MemoryError) -> pn_status {
        match error {
            MemoryError::TooSmall { .. } => pn_status::BufferTooSmall,
            MemoryError::Unsupported => pn_status::InvalidArgument,
        }
    }
}

/// A static, NUL-terminated English description of a status code; never NULL. Codes this
/// library does not know give "unknown status code".
#[unsafe(no_mangle)]
pub extern "C" fn pn_status_str(status: u32) -> *const c_char {
    boundary::guard_value(c"unknown status code".as_ptr(), || {
        pn_status::from_u32(status)
            .map_or(c"unknown status code", pn_status::message)
            .as_ptr()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_map_back_and_forth() {
        for (i, s) in pn_status::ALL.iter().enumerate() {
            assert_eq!(*s as u32, i as u32, "ALL is in numeric order");
            assert_eq!(pn_status::from_u32(i as u32), Some(*s));
        }
        assert_eq!(pn_status::from_u32(pn_status::ALL.len() as u32), None);
        assert_eq!(pn_status::from_u32(u32::MAX), None);
    }

    #[test]
    fn new_statuses_are_appended_and_reasons_map_onto_them() {
        assert_eq!(
            pn_status::from_reason(Reason::MemoryLimit),
            pn_status::MemoryLimit
        );
        assert_eq!(
            pn_status::MemoryLimit as u32,
            23,
            "appended after INTERNAL_ERROR"
        );
        assert_eq!(
            pn_status::from_reason(Reason::Unconfirmed),
            pn_status::Unconfirmed
        );
        assert_eq!(
            pn_status::from_reason(Reason::Output),
            pn_status::OutputFailed
        );
        assert_eq!(
            (
                pn_status::Unconfirmed as u32,
                pn_status::OutputFailed as u32
            ),
            (24, 25),
            "appended after MEMORY_LIMIT"
        );
        assert_eq!(pn_status::ALL.last(), Some(&pn_status::CertificateInvalid));
        assert_eq!(
            pn_status::from_reason(Reason::WorkLimit),
            pn_status::InternalError
        );
    }

    #[test]
    fn every_status_has_its_own_message() {
        let mut seen = std::vec::Vec::new();
        for s in pn_status::ALL {
            let m = s.message().to_bytes();
            assert!(!m.is_empty());
            assert!(!seen.contains(&m), "{s:?} repeats a message");
            seen.push(m);
        }
        // SAFETY: pn_status_str returns a static NUL-terminated string.
        let unknown = unsafe { CStr::from_ptr(pn_status_str(999)) };
        assert_eq!(unknown, c"unknown status code");
    }
}
