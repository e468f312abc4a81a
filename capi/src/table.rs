//! The solver's transposition table: clear, age, inspect, save and load.
//!
//! A saved table is the table's own bytes (a header, then the buckets). Loading validates the
//! header (magic, layout version, byte order, entry size, length) before copying anything, so
//! bytes that are not a table from a compatible build give a status and leave the solver's
//! table as it was.

use core::ffi::c_void;

use proofnum_core::Table;

use crate::boundary::{SizedStruct, guard, out, out_buffer, out_struct, slice};
use crate::solver::{Inner, handle, pn_solver};
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
    fn table(&mut self) -> Result<Table<'_>, pn_status> {
        // The header is the solver's own; if it no longer reads, the memory was overwritten.
        Table::attach(self.table).map_err(|_| pn_status::InvalidHandle)
    }
}

/// Empties the transposition table: every position is forgotten, the generation is reset,
/// and the table again spans the configured `table_bytes` (after loading a smaller one).
///
/// # Safety
/// `solver` is NULL or a pointer from `pn_solver_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_table_clear(solver: *mut pn_solver) -> pn_status {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let solver = unsafe { handle(solver)? };
        // A new table over the whole region: after loading a smaller saved table, clearing
        // gives back the configured size.
        let locked = solver.lock()?;
        Table::new(&mut *locked.inner.table).map_err(pn_status::from_table_error)?;
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
    guard(|| {
        // SAFETY: forwarded from the caller.
        let solver = unsafe { handle(solver)? };
        solver.lock()?.inner.table()?.new_generation();
        Ok(())
    })
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
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (solver, out_info) = unsafe { (handle(solver)?, out_struct(out_info)?) };
        let locked = solver.lock()?;
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
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (solver, out_bytes) = unsafe { (handle(solver)?, out(out_bytes)?) };
        let locked = solver.lock()?;
        if buffer.is_null() {
            return Err(pn_status::NullPointer);
        }
        if solver.overlaps(buffer as *const u8, buffer_bytes) {
            return Err(pn_status::InvalidArgument);
        }
        // SAFETY: forwarded from the caller; the buffer is not the table (checked above).
        let buffer = unsafe { out_buffer(buffer as *mut u8, buffer_bytes)? };
        let table = locked.inner.table()?;
        let bytes = table.as_bytes();
        buffer.write_prefix(bytes)?;
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
    guard(|| {
        // SAFETY: forwarded from the caller.
        let solver = unsafe { handle(solver)? };
        let locked = solver.lock()?;
        if bytes.is_null() {
            return Err(pn_status::NullPointer);
        }
        if solver.overlaps(bytes as *const u8, length) {
            return Err(pn_status::InvalidArgument);
        }
        // SAFETY: forwarded from the caller; the bytes are not the table (checked above).
        let saved = unsafe { slice(bytes as *const u8, length)? };
        Table::load(&mut *locked.inner.table, saved).map_err(pn_status::from_table_error)?;
        // Bytes from outside: answers over them are confirmed (see `confirm`).
        locked.inner.table_trusted = false;
        Ok(())
    })
}
