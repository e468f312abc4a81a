//! The solver's transposition table: clear, age, inspect, save and load.
//!
//! A saved table is the table's own bytes (a header, then the buckets). Loading validates the
//! header (magic, layout version, byte order, entry size, length) before copying anything, so
//! bytes that are not a table from a compatible build give a status and leave the solver's
//! table as it was.

use core::ffi::c_void;

use proofnum_core::{Table, TableError};

use crate::boundary::{Arg, SizedStruct, out, out_buffer, out_struct, slice};
use crate::error::{Error, Message};
use crate::fail;
use crate::solver::{Inner, handle, pn_solver, with_solver};
use crate::status::pn_status;

/// A picture of the transposition table.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pn_table_info {
    /// `sizeof(pn_table_info)`, set by the caller.
    pub struct_size: usize,
    /// Bytes a saved copy takes (`pn_table_save`).
    pub saved_bytes: usize,
    /// Entries the table holds.
    pub entries: u64,
    /// The generation (advanced by `pn_table_new_generation`, reset by `pn_table_clear`).
    pub generation: u32,
    /// Occupied entries per thousand (estimated from a sample on large tables).
    pub fill_per_mille: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, and only integer fields.
unsafe impl SizedStruct for pn_table_info {}

impl Inner {
    fn table(&mut self) -> Result<Table<'_>, Error> {
        // The header is the solver's own; if it no longer reads, the memory was overwritten.
        Table::attach(self.table).map_err(|_| {
            fail!(
                pn_status::InvalidHandle,
                "the solver's table header no longer reads: its memory was overwritten"
            )
        })
    }
}

/// A table error in words, said of `what` (the saved bytes given to `pn_table_load`).
fn table_error(error: TableError, what: &str) -> Error {
    let status = pn_status::from_table_error(error);
    match error {
        TableError::TooSmall { needed, available } => fail!(
            status,
            "{what} hold a table of {needed} bytes; this solver's table has room for \
             {available} (config.table_bytes)"
        ),
        TableError::BadMagic => fail!(
            status,
            "{what} do not begin with a proofnum table header (bad magic)"
        ),
        TableError::VersionMismatch { found, expected } => fail!(
            status,
            "{what} have table layout version {found}; this build reads version {expected}"
        ),
        TableError::LayoutMismatch => fail!(
            status,
            "{what} were saved with another byte order or entry size"
        ),
        TableError::Truncated { needed, available } => fail!(
            status,
            "{what} are too few: their header says the table takes {needed} bytes, and \
             {available} are given"
        ),
    }
}

/// Writes a picture of the table to `*out_info` (set its `struct_size` first).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `out_info` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_get_info(
    solver: *mut pn_solver,
    out_info: *mut pn_table_info,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        // SAFETY: forwarded from the caller.
        let out_info = unsafe { out_struct(out_info).struct_arg(out_info, "out_info")? };
        let table = locked.inner.table()?;
        out_info.write(pn_table_info {
            struct_size: core::mem::size_of::<pn_table_info>(),
            saved_bytes: table.as_bytes().len(),
            entries: table.capacity() as u64,
            generation: table.generation() as u32,
            fill_per_mille: table.fill_per_mille(),
        });
        Ok(())
    })
}

/// Copies the table (header and entries) into `buffer`, which holds `buffer_bytes` bytes, and
/// writes the number of bytes copied to `*out_bytes`. The size is `saved_bytes` of
/// `pn_table_info`; a smaller buffer gives `PN_STATUS_BUFFER_TOO_SMALL` and nothing is written.
/// The buffer must not overlap the solver's memory (`PN_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `buffer` is NULL or writable for
/// `buffer_bytes` bytes (its contents need not be initialised); `out_bytes` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_save(
    solver: *mut pn_solver,
    buffer: *mut c_void,
    buffer_bytes: usize,
    out_bytes: *mut usize,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        // SAFETY: forwarded from the caller.
        let out_bytes = unsafe { out(out_bytes) }.arg(out_bytes, "out_bytes")?;
        if buffer.is_null() {
            return Err(fail!(pn_status::NullPointer, "buffer is NULL"));
        }
        if locked.solver.overlaps(buffer as *const u8, buffer_bytes) {
            return Err(fail!(
                pn_status::InvalidArgument,
                "buffer ({buffer:p}, {buffer_bytes} bytes) overlaps the solver's memory"
            ));
        }
        // SAFETY: forwarded from the caller; the buffer is not the table (checked above).
        let out_buf = unsafe { out_buffer(buffer as *mut u8, buffer_bytes) }
            .arg(buffer as *const u8, "buffer")?;
        let table = locked.inner.table()?;
        let bytes = table.as_bytes();
        out_buf.write_prefix(bytes).map_err(|status| {
            fail!(
                status,
                "buffer of {buffer_bytes} bytes; the table needs {} \
                 (pn_table_info.saved_bytes)",
                bytes.len()
            )
        })?;
        out_bytes.write(bytes.len());
        Ok(())
    })
}

/// Replaces the table with one saved by `pn_table_save` (`bytes`, `length` long). The
/// header is checked first: `PN_STATUS_TABLE_BAD_MAGIC`, `TABLE_VERSION_MISMATCH`,
/// `TABLE_LAYOUT_MISMATCH` or `TABLE_TRUNCATED` for bytes that are not a compatible table,
/// `PN_STATUS_BUFFER_TOO_SMALL` for a table larger than this solver's; in every such case the
/// current table is unchanged. A smaller saved table is loaded whole and used at its own size.
///
/// A loaded table is untrusted until `pn_table_clear`. Each entry's check covers all its bits,
/// so damaged bytes only make entries miss; but a forger can write entries with valid checks,
/// so every solved answer of a solve call (serial or parallel) over a loaded table is first
/// confirmed by the walk of `pn_verify`, within the call's limits, even when the
/// configuration's `confirm` opted out (the parallel calls' walk runs on the calling thread).
/// A refuted answer is searched again over new table keys (the loaded entries become
/// unreachable); a walk that hits a limit gives that status. So a loaded table never makes a
/// call report a wrong outcome or winning move; `distance` and the loser's choice of defence
/// are read from it unconfirmed, and `pn_principal_variation` follows its entries as they are
/// (`pn_verify` checks a claim whatever the table says).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`; `bytes` is NULL or readable for
/// `length` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_load(
    solver: *mut pn_solver,
    bytes: *const c_void,
    length: usize,
) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        if bytes.is_null() {
            return Err(fail!(pn_status::NullPointer, "bytes is NULL"));
        }
        if locked.solver.overlaps(bytes as *const u8, length) {
            return Err(fail!(
                pn_status::InvalidArgument,
                "bytes ({bytes:p}, {length} bytes) overlaps the solver's memory"
            ));
        }
        // SAFETY: forwarded from the caller; the bytes are not the table (checked above).
        let saved = unsafe { slice(bytes as *const u8, length) }.arg(bytes, "bytes")?;
        Table::load(&mut *locked.inner.table, saved).map_err(|e| {
            let what = Message::format(format_args!("the {length} saved bytes"));
            table_error(e, what.as_str())
        })?;
        // Bytes from outside: answers over them are confirmed (see `confirm`).
        locked.inner.table_trusted = false;
        Ok(())
    })
}

/// Empties the transposition table: every position is forgotten, the generation is reset,
/// and the table again spans the configured `table_bytes` (after loading a smaller one).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_clear(solver: *mut pn_solver) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        // A new table over the whole region: after loading a smaller saved table,
        // clearing gives back the configured size.
        Table::new(&mut *locked.inner.table)
            .map_err(|e| table_error(e, "the solver's table region"))?;
        // Only what this solver stores from now on: nothing to confirm.
        locked.inner.table_trusted = true;
        Ok(())
    })
}

/// Starts a new table generation: what earlier searches stored stays usable but is replaced
/// first. Call it between searches of unrelated positions (a new move in the real game).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_new_generation(solver: *mut pn_solver) -> pn_status {
    // SAFETY: forwarded from the caller.
    let solver = unsafe { handle(solver) };
    with_solver(solver, |locked| {
        locked.inner.table()?.new_generation();
        Ok(())
    })
}
