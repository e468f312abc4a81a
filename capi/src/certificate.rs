//! Proof certificates from C: [`pn_certify`] writes one through a sink callback, and
//! [`pn_certificate_check`] checks one against a C game.
//!
//! A certificate (the core's `proofnum::certificate`, format version 2) is the proof of a
//! claim written as bytes: where the claimed winner is to move, the index of its winning move
//! among the moves the game generates; where the other side is, an answer to every move; lines
//! that end at positions the game scores itself; positions reached twice written once. The
//! writer is the verification walk of `pn_verify`, which trusts no solved table entry, and the
//! checker is the `proofnum-check` crate, which shares no code with the search: it replays the
//! certificate on the game's callbacks alone and names the first faulty step.
//!
//! The writer needs no heap (the bytes stream through the sink as the walk goes); the checker
//! keeps the certificate's records and the positions it checked in memory it allocates, so
//! [`pn_certificate_check`] exists in builds with the `std` feature and returns
//! `PN_STATUS_UNSUPPORTED` without it, as the parallel calls do.

use core::ffi::{c_char, c_int, c_void};

use proofnum_core::certificate::{Sink, SinkError};

use crate::boundary::{Arg, SizedStruct, out_struct, slice};
use crate::config::pn_limits;
use crate::error::Error;
use crate::fail;
use crate::game::{pn_game, pn_outcome, pn_side};
use crate::proof::{claim_of, walked};
use crate::result::pn_result;
use crate::solver::{handle, pn_solver, read_game, with_rule, with_solver};
use crate::status::pn_status;

/// Takes the next `length` bytes of a certificate (at `bytes`, valid only during the call;
/// never called with `length` 0; the library gathers the certificate into pieces of a few
/// hundred bytes). Returns 0 when it took them all; anything else refuses them,
/// which ends `pn_certify` with `PN_STATUS_OUTPUT_FAILED`. Called on the thread of
/// `pn_certify`; it must not unwind or `longjmp`, and must not call the solver (only
/// `pn_solver_stop`).
pub type pn_sink_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, bytes: *const u8, length: usize) -> c_int>;

type SinkFn = unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int;

/// Bytes gathered before the sink callback is called: the writer produces a certificate a
/// field at a time (a tag, a varint), and one call per field would make a C or Python sink
/// the walk's bottleneck. 512 bytes keeps callbacks about two orders of magnitude fewer
/// while the buffer stays small enough for a microcontroller's stack.
const SINK_BUFFER_BYTES: usize = 512;

/// A C sink callback as the core's [`Sink`], called with pieces of up to
/// [`SINK_BUFFER_BYTES`] bytes (a field longer than that is passed on whole).
struct CSink {
    write: SinkFn,
    ctx: *mut c_void,
    buffer: [u8; SINK_BUFFER_BYTES],
    len: usize,
}

impl CSink {
    fn new(write: SinkFn, ctx: *mut c_void) -> CSink {
        CSink {
            write,
            ctx,
            buffer: [0; SINK_BUFFER_BYTES],
            len: 0,
        }
    }

    /// Passes `bytes` (not empty) to the callback.
    fn call(write: SinkFn, ctx: *mut c_void, bytes: &[u8]) -> Result<(), SinkError> {
        // SAFETY: the caller of `pn_certify` promised the sink may be called with its context
        // on this thread during the call; `bytes` is a live slice for the length passed.
        let rc = unsafe { write(ctx, bytes.as_ptr(), bytes.len()) };
        if rc == 0 { Ok(()) } else { Err(SinkError) }
    }

    /// Passes on what the buffer holds.
    fn flush(&mut self) -> Result<(), SinkError> {
        if self.len == 0 {
            return Ok(());
        }
        let len = core::mem::take(&mut self.len);
        Self::call(self.write, self.ctx, &self.buffer[..len])
    }
}

impl Sink for CSink {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        if self.len + bytes.len() > SINK_BUFFER_BYTES {
            self.flush()?;
        }
        if bytes.len() > SINK_BUFFER_BYTES {
            return Self::call(self.write, self.ctx, bytes);
        }
        self.buffer[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(())
    }
}

/// The game's name from C: `length` bytes of UTF-8 (no NUL needed), outside the solver's
/// memory when there is a solver.
///
/// # Safety
/// As [`slice`].
unsafe fn name<'a>(
    ptr: *const c_char,
    length: usize,
    solver: Option<&pn_solver>,
) -> Result<&'a str, Error> {
    if solver.is_some_and(|s| length > 0 && s.overlaps(ptr.cast(), length)) {
        return Err(fail!(
            pn_status::InvalidArgument,
            "game_name ({ptr:p}, {length} bytes) overlaps the solver's memory"
        ));
    }
    // SAFETY: forwarded from the caller.
    let bytes = unsafe { slice(ptr.cast::<u8>(), length) }.arg(ptr, "game_name")?;
    core::str::from_utf8(bytes).map_err(|e| {
        fail!(
            pn_status::InvalidArgument,
            "game_name is not UTF-8 (byte {} of {length})",
            e.valid_up_to()
        )
    })
}

/// Writes the certificate of a claim through `sink`: that `attacker` (0 or 1, a `pn_side`)
/// wins from the game's position (`claim` is `PN_OUTCOME_PROVEN`), or does not
/// (`PN_OUTCOME_DISPROVEN`), typically the answer a solve call just found. The certificate's
/// header names the game as `game_name` (`game_name_length` bytes of UTF-8, no NUL needed),
/// which the checker compares with the name it is given, the repetition rule, the attacker,
/// the claim and, when the game has an `encode` callback, the root position's encoding.
///
/// The certificate is written by the walk of `pn_verify`, which checks the claim as it goes
/// without trusting the table's solved entries (positions the table no longer proves are
/// searched again within `limits`), and is streamed through `sink` (called with `sink_ctx`)
/// in pieces, so nothing is held in memory. Positions walked once are written once (the
/// configured `verify_memo_entries` remembers them; a smaller memo writes shared positions
/// again, a larger certificate that is just as valid).
///
/// Returns `PN_STATUS_OK` when the certificate is complete (the claim holds; `outcome` and
/// `best_move` as for `pn_verify`). Otherwise what the sink took is no certificate, and the
/// status says why: `PN_STATUS_REFUTED` (the claim does not hold), `PN_STATUS_OUTPUT_FAILED`
/// (the sink refused bytes), a limit, or a failed callback (`PN_STATUS_CALLBACK_INVALID` also
/// for an encoding longer than `PN_ENCODING_CAPACITY`). In those cases `*out_result` is
/// written, with the positions walked in `stats.nodes`. For any other status nothing is
/// written and the sink was not called. `PN_STATUS_INVALID_ARGUMENT` for a `game_name` that is
/// not UTF-8 or lies in the solver's memory, or a `claim` that is neither; a NULL `sink` is
/// `PN_STATUS_NULL_POINTER`.
///
/// # Safety
/// As `pn_solve`; `game_name` is NULL or readable for `game_name_length` bytes; `sink` is safe
/// to call with `sink_ctx` on this thread during the call.
#[unsafe(no_mangle)]
#[allow(
    clippy::too_many_arguments,
    reason = "a C signature: every buffer and its length"
)]
pub unsafe extern "C" fn pn_certify(
    solver: *mut pn_solver,
    game: *const pn_game,
    attacker: u32,
    claim: u32,
    game_name: *const c_char,
    game_name_length: usize,
    sink: pn_sink_fn,
    sink_ctx: *mut c_void,
    limits: *const pn_limits,
    out_result: *mut pn_result,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        // SAFETY: forwarded from the caller.
        let (game, limits, out_result) = unsafe {
            (
                read_game(game)?,
                pn_limits::read(limits)?,
                out_struct(out_result).struct_arg(out_result, "out_result")?,
            )
        };
        let attacker = pn_side::arg(attacker, "attacker")?;
        let claim = claim_of(claim)?;
        let write = sink.ok_or_else(|| fail!(pn_status::NullPointer, "sink is NULL"))?;
        // SAFETY: forwarded from the caller.
        let game_name = unsafe { name(game_name, game_name_length, Some(locked.solver))? };
        let stop = locked.solver.stop_flag();
        let mut sink = CSink::new(write, sink_ctx);
        let result = with_rule!(locked.inner, &game, |dfpn, g, table, memo| {
            limits.with(stop, |l| {
                dfpn.certify(g, attacker, claim, table, memo, game_name, &mut sink, l)
            })
        })
        .map(|(v, failure)| {
            let result = walked(&v, failure, claim);
            // The certificate's last piece; a refusal of it spoils a complete certificate.
            match (sink.flush(), result.status()) {
                (Err(SinkError), pn_status::Ok) => pn_result {
                    stats: result.stats,
                    ..pn_result::new(pn_status::OutputFailed, pn_outcome::Unknown)
                },
                _ => result,
            }
        });
        locked.finish(result, out_result, &limits)
    })
}

/// Bounds on `pn_certificate_check`. Start from `pn_check_limits_default()`; NULL means the
/// defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pn_check_limits {
    /// `sizeof(pn_check_limits)`.
    pub struct_size: usize,
    /// Stop with `PN_STATUS_NODE_LIMIT` after judging this many positions; `PN_UNLIMITED`
    /// (the default) for no limit.
    pub max_positions: u64,
    /// The most moves a position may have (1 ..= `PN_CHECK_MAX_MOVES`; the default is
    /// `PN_CHECK_DEFAULT_MAX_MOVES`); more is `PN_STATUS_TOO_MANY_MOVES`. The checker
    /// allocates a buffer of this many moves for each position it judges.
    pub max_moves: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, and only integer fields.
unsafe impl SizedStruct for pn_check_limits {}

/// The default `max_moves` of `pn_certificate_check`.
pub const PN_CHECK_DEFAULT_MAX_MOVES: u32 = 4096;
/// The largest `max_moves` of `pn_certificate_check`: 2^20 moves, a 4 MiB buffer.
pub const PN_CHECK_MAX_MOVES: u32 = 1 << 20;

impl pn_check_limits {
    /// The defaults.
    const DEFAULT: pn_check_limits = pn_check_limits {
        struct_size: size_of::<pn_check_limits>(),
        max_positions: crate::config::PN_UNLIMITED,
        max_moves: PN_CHECK_DEFAULT_MAX_MOVES,
    };
}

/// The default check limits: no limit on positions, `PN_CHECK_DEFAULT_MAX_MOVES` moves.
#[unsafe(no_mangle)]
pub extern "C" fn pn_check_limits_default() -> pn_check_limits {
    pn_check_limits::DEFAULT
}

/// What `pn_certificate_check` found (`pn_check_report.verdict`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_check_verdict {
    /// The certificate proves its claim for this game and position (`PN_STATUS_OK`).
    Valid = 0,
    /// The bytes are not a certificate (truncated, damaged, another format version): `offset`
    /// is where the problem is (`PN_STATUS_CERTIFICATE_INVALID`).
    Malformed = 1,
    /// The certificate is about another game (its name), repetition rule or position
    /// (`PN_STATUS_CERTIFICATE_INVALID`).
    Mismatch = 2,
    /// A step of the proof is faulty: the line of move indices from the root to the faulty
    /// position is in `line`, what is wrong in the message (`PN_STATUS_CERTIFICATE_INVALID`).
    Faulty = 3,
    /// The check stopped at `max_positions` before it could finish (`PN_STATUS_NODE_LIMIT`).
    Incomplete = 4,
}

/// The report of `pn_certificate_check`. Set `struct_size` to `sizeof(pn_check_report)`
/// before the call; the call fills in everything else.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pn_check_report {
    /// `sizeof(pn_check_report)`, set by the caller.
    pub struct_size: usize,
    /// A `pn_check_verdict`.
    pub verdict: u32,
    /// 1 when positions were told apart by the game's exact encodings (its `encode`
    /// callback); 0 when the game has none and the certificate was followed as a tree (only
    /// games declared `PN_REPETITION_ACYCLIC` can be checked so).
    pub exact: u32,
    /// Positions judged.
    pub positions: u64,
    /// Distinct records the proof uses (valid certificates).
    pub records: u64,
    /// The longest line followed, in plies (valid certificates).
    pub depth: u64,
    /// `PN_CHECK_VERDICT_MALFORMED`: the byte offset of the problem in the certificate.
    pub offset: u64,
    /// `PN_CHECK_VERDICT_FAULTY`: the plies from the root to the faulty position; the first
    /// `line_capacity` of its move indices (each an index among the moves the game generates
    /// in that position) are in `line`.
    pub line_length: u64,
    /// Bytes of the message, without its NUL: when `message_capacity` is less than this plus
    /// one, the message was cut short (at a character boundary).
    pub message_length: u64,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, and only integer fields.
unsafe impl SizedStruct for pn_check_report {}

/// Checks a certificate (`certificate_length` bytes at `certificate`, as `pn_certify` wrote
/// it) against the game's callbacks and position, sharing nothing with the solver: no solver
/// argument, no table, no search. The certificate must name `game_name` (`game_name_length`
/// bytes of UTF-8), the game's repetition rule and, where the game has an `encode` callback,
/// this position; positions are told apart by their encodings (a game without one can only
/// be checked under `PN_REPETITION_ACYCLIC`, its shared positions followed again as a tree).
/// The game's position is restored before returning (unless a callback failed).
///
/// Returns `PN_STATUS_OK` for a valid certificate; `PN_STATUS_CERTIFICATE_INVALID` when it is
/// rejected, the report's `verdict` saying why (malformed bytes, a mismatch, or a faulty step
/// with its line); `PN_STATUS_NODE_LIMIT` when `max_positions` ran out first. In those three
/// cases `*out_report` is written, the first `line_capacity` move indices of a faulty line to
/// `line`, and a NUL-terminated English message (cut to `message_capacity` bytes; "valid: ..."
/// for a valid certificate) to `message`. Otherwise nothing is written:
/// `PN_STATUS_MISSING_CALLBACK` (also for a game whose positions can repeat and that has no
/// `encode`), `PN_STATUS_CALLBACK_FAILED` or `CALLBACK_INVALID` (the game broke its contract,
/// an encoding over `PN_ENCODING_CAPACITY` included), `PN_STATUS_TOO_MANY_MOVES`,
/// `PN_STATUS_INVALID_ARGUMENT` (a name that is not UTF-8, `max_moves` out of range),
/// `PN_STATUS_MEMORY_LIMIT` (the move buffers could not be had), and `PN_STATUS_UNSUPPORTED`
/// in builds without `PN_FEATURE_STD`. The checker allocates memory in proportion to the
/// certificate (its records and the positions checked).
///
/// # Safety
/// `game`, `limits` and `out_report` are NULL or valid, as for `pn_solve`, with callbacks
/// safe to call with their context on this thread during the call; `game_name` and
/// `certificate` are NULL or readable for their lengths; `line` is NULL or writable for
/// `line_capacity` values and `message` for `message_capacity` bytes (their contents need not
/// be initialised), and they overlap nothing else.
#[unsafe(no_mangle)]
#[allow(
    clippy::too_many_arguments,
    reason = "a C signature: every buffer and its length"
)]
pub unsafe extern "C" fn pn_certificate_check(
    game: *const pn_game,
    game_name: *const c_char,
    game_name_length: usize,
    certificate: *const u8,
    certificate_length: usize,
    limits: *const pn_check_limits,
    line: *mut u64,
    line_capacity: usize,
    message: *mut c_char,
    message_capacity: usize,
    out_report: *mut pn_check_report,
) -> pn_status {
    #[cfg(feature = "std")]
    {
        // SAFETY: forwarded from the caller.
        unsafe {
            checker::run(
                game,
                game_name,
                game_name_length,
                certificate,
                certificate_length,
                limits,
                line,
                line_capacity,
                message,
                message_capacity,
                out_report,
            )
        }
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = (
            game,
            game_name,
            game_name_length,
            certificate,
            certificate_length,
            limits,
            line,
            line_capacity,
            message,
            message_capacity,
            out_report,
        );
        pn_status::Unsupported
    }
}

/// The checker's body (`std` builds).
#[cfg(feature = "std")]
mod checker {
    use core::ffi::c_char;
    use std::format;
    use std::string::{String, ToString};
    use std::vec::Vec;

    use proofnum_check::{CheckError, Limits, Report, check, read};

    use super::{PN_CHECK_MAX_MOVES, name, pn_check_limits, pn_check_report, pn_check_verdict};
    use crate::boundary::{guard, out_buffer, out_struct, read_input, slice};
    use crate::game::{CGame, RULE_ACYCLIC, RULE_BY_POSITION, RULE_DRAW, pn_game, pn_repetition};
    use crate::status::pn_status;

    /// What a check came to, for the report.
    struct Outcome {
        status: pn_status,
        verdict: pn_check_verdict,
        report: Report,
        offset: u64,
        line: Vec<u64>,
        message: String,
    }

    /// [`pn_certificate_check`](super::pn_certificate_check).
    ///
    /// # Safety
    /// As the export.
    #[allow(clippy::too_many_arguments, reason = "the export's arguments")]
    pub(super) unsafe fn run(
        game: *const pn_game,
        game_name: *const c_char,
        game_name_length: usize,
        certificate: *const u8,
        certificate_length: usize,
        limits: *const pn_check_limits,
        line: *mut u64,
        line_capacity: usize,
        message: *mut c_char,
        message_capacity: usize,
        out_report: *mut pn_check_report,
    ) -> pn_status {
        guard(|| {
            // SAFETY: forwarded from the caller.
            let (game, game_name, bytes, limits, out_report, line, message) = unsafe {
                (
                    read_input(game)?,
                    name(game_name, game_name_length, None)?,
                    slice(certificate, certificate_length)?,
                    if limits.is_null() {
                        pn_check_limits::DEFAULT
                    } else {
                        read_input(limits)?
                    },
                    out_struct(out_report)?,
                    out_buffer(line, line_capacity)?,
                    out_buffer(message.cast::<u8>(), message_capacity)?,
                )
            };
            if !(1..=PN_CHECK_MAX_MOVES).contains(&limits.max_moves) {
                return Err(pn_status::InvalidArgument);
            }
            let limits = Limits {
                max_positions: limits.max_positions,
                max_moves: limits.max_moves as usize,
            };
            let outcome = match read(bytes) {
                Err(e) => Outcome {
                    status: pn_status::CertificateInvalid,
                    verdict: pn_check_verdict::Malformed,
                    report: empty_report(),
                    offset: e.offset as u64,
                    line: Vec::new(),
                    message: e.to_string(),
                },
                Ok(cert) => {
                    let run = |rule: pn_repetition| match rule {
                        pn_repetition::Draw => {
                            checked::<RULE_DRAW>(&game, game_name, &cert, &limits)
                        }
                        pn_repetition::Acyclic => {
                            checked::<RULE_ACYCLIC>(&game, game_name, &cert, &limits)
                        }
                        pn_repetition::ByPosition => {
                            checked::<RULE_BY_POSITION>(&game, game_name, &cert, &limits)
                        }
                    };
                    run(pn_repetition::from_u32(game.repetition_rule)?)?
                }
            };
            // The message, cut to the buffer at a character boundary, NUL-terminated.
            let text = outcome.message.as_bytes();
            if message_capacity > 0 {
                let mut cut = text.len().min(message_capacity - 1);
                while !outcome.message.is_char_boundary(cut) {
                    cut -= 1;
                }
                let mut shown = Vec::new();
                shown
                    .try_reserve_exact(cut + 1)
                    .map_err(|_| pn_status::MemoryLimit)?;
                shown.extend_from_slice(&text[..cut]);
                shown.push(0);
                message.write_prefix(&shown)?;
            }
            let shown = outcome.line.len().min(line_capacity);
            line.write_prefix(&outcome.line[..shown])?;
            out_report.write(pn_check_report {
                struct_size: size_of::<pn_check_report>(),
                verdict: outcome.verdict as u32,
                exact: outcome.report.exact as u32,
                positions: outcome.report.positions,
                records: outcome.report.records as u64,
                depth: outcome.report.depth as u64,
                offset: outcome.offset,
                line_length: outcome.line.len() as u64,
                message_length: text.len() as u64,
            });
            match outcome.status {
                pn_status::Ok => Ok(()),
                status => Err(status),
            }
        })
    }

    fn empty_report() -> Report {
        Report {
            positions: 0,
            records: 0,
            exact: false,
            depth: 0,
        }
    }

    /// Checks `cert` on the game with repetition rule `R`; a broken callback's status
    /// overrides what the checker said, and so do the errors that are not a verdict.
    fn checked<const R: u8>(
        game: &pn_game,
        game_name: &str,
        cert: &proofnum_check::Certificate,
        limits: &Limits,
    ) -> Result<Outcome, pn_status> {
        let mut moves = Vec::new();
        moves
            .try_reserve_exact(limits.max_moves)
            .map_err(|_| pn_status::MemoryLimit)?;
        moves.resize(limits.max_moves, 0u32);
        // SAFETY: the caller of `pn_certificate_check` promised the callbacks may be called
        // with the game's context on this thread during the call; `moves` is this call's own
        // buffer, used only through the adapter, which it outlives.
        let mut cgame = unsafe { CGame::<R>::new(game, &mut moves)? };
        let checked = check(&mut cgame, game_name, cert, limits);
        if let Some(failure) = cgame.failure() {
            return Err(failure.into());
        }
        let invalid = |verdict, line, message| Outcome {
            status: pn_status::CertificateInvalid,
            verdict,
            report: empty_report(),
            offset: 0,
            line,
            message,
        };
        Ok(match checked {
            Ok(report) => Outcome {
                status: pn_status::Ok,
                verdict: pn_check_verdict::Valid,
                report,
                offset: 0,
                line: Vec::new(),
                message: format!(
                    "valid: {} positions judged, {} records, {}",
                    report.positions,
                    report.records,
                    if report.exact {
                        "positions told apart by their exact encodings"
                    } else {
                        "followed as a tree (the game has no encoding)"
                    }
                ),
            },
            Err(e @ CheckError::Mismatch(_)) => {
                invalid(pn_check_verdict::Mismatch, Vec::new(), e.to_string())
            }
            Err(CheckError::Invalid { line, fault }) => {
                let message = format!("{fault}, after the moves {line:?}");
                invalid(pn_check_verdict::Faulty, line, message)
            }
            Err(e @ CheckError::Incomplete { positions }) => Outcome {
                status: pn_status::NodeLimit,
                verdict: pn_check_verdict::Incomplete,
                report: Report {
                    positions,
                    ..empty_report()
                },
                offset: 0,
                line: Vec::new(),
                message: e.to_string(),
            },
            Err(CheckError::NeedsEncoding) => return Err(pn_status::MissingCallback),
            // Without a failure recorded by the adapter, the game listed more moves than
            // `max_moves` (an encoding over the capacity is recorded as a failure).
            Err(CheckError::Game(_)) => return Err(pn_status::TooManyMoves),
        })
    }
}
