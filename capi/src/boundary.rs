//! The one place where C's pointers and Rust's panics are checked.
//!
//! Every export's body runs inside [`guard`] (or [`guard_value`] for the few exports that
//! cannot fail), which catches a panic before it reaches C. The body takes its pointer
//! arguments through the helpers here, which check NULL, alignment and `struct_size` and
//! return a [`pn_status`] that the body passes on with `?`. Outputs are written through an
//! [`Out`], so a body writes its outputs only once it has succeeded.

use core::marker::PhantomData;
use core::mem::{align_of, size_of};
use core::ptr::NonNull;

use crate::status::pn_status;

/// Runs an export's body and returns its status; a panic becomes
/// [`pn_status::InternalError`].
pub fn guard(body: impl FnOnce() -> Result<(), pn_status>) -> pn_status {
    match catch(body) {
        Some(Ok(())) => pn_status::Ok,
        Some(Err(status)) => status,
        None => pn_status::InternalError,
    }
}

/// Runs the body of an export that cannot fail; a panic returns `on_panic`.
pub fn guard_value<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch(body).unwrap_or(on_panic)
}

/// `Some(result)`, or `None` when the body panicked.
#[cfg(not(target_os = "none"))]
fn catch<R>(body: impl FnOnce() -> R) -> Option<R> {
    // Unwind safety: after a panic the export only returns a status. The solver's busy flag
    // is released by its guard's destructor during unwinding, and a search resets all its
    // state when it starts, so nothing half-updated is observed later.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).ok()
}

/// Bare-metal builds abort on panic (see the crate's panic handler), so there is nothing to
/// catch.
#[cfg(target_os = "none")]
fn catch<R>(body: impl FnOnce() -> R) -> Option<R> {
    Some(body())
}

/// A C struct whose first field is `size_t struct_size`.
///
/// # Safety
/// The implementing type must be `#[repr(C)]`, begin with a `usize` field holding its size,
/// and be valid for every bit pattern (integers, raw pointers, optional function pointers).
pub unsafe trait SizedStruct: Copy {}

/// Reads an input struct: checks NULL, alignment and `struct_size`, then copies it.
///
/// Only sizes this library knows are accepted; today that is exactly `sizeof` the struct.
/// When a struct grows, older sizes will be accepted too, with defaults for the new fields.
///
/// # Safety
/// `ptr` is NULL or points to readable memory of at least `size_t` bytes, and of the whole
/// struct when that `size_t` equals its size.
pub unsafe fn read_input<T: SizedStruct>(ptr: *const T) -> Result<T, pn_status> {
    let ptr = non_null(ptr)?;
    // SAFETY: `ptr` is non-NULL and aligned (checked by `non_null`); by the caller's contract
    // its first `size_t` is readable, and by `SizedStruct` that is the `struct_size` field at
    // offset 0.
    let struct_size = unsafe { ptr.cast::<usize>().read() };
    if struct_size != size_of::<T>() {
        return Err(pn_status::BadStructSize);
    }
    // SAFETY: the caller declared, through `struct_size`, that the whole struct is there, and
    // every bit pattern is a valid `T` (`SizedStruct`).
    Ok(unsafe { ptr.read() })
}

/// An output location checked for NULL and alignment, written at most once.
pub struct Out<'a, T> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<T> Out<'_, T> {
    /// Writes the output (without reading or dropping what was there).
    pub fn write(self, value: T) {
        // SAFETY: `out` checked that the pointer is non-NULL and aligned, and its caller
        // promised it is valid for writes of a `T` for the duration of the export.
        unsafe { self.ptr.as_ptr().write(value) }
    }
}

/// Checks an out-pointer.
///
/// # Safety
/// `ptr` is NULL or valid for writes of a `T` until the export returns.
pub unsafe fn out<'a, T>(ptr: *mut T) -> Result<Out<'a, T>, pn_status> {
    Ok(Out {
        ptr: NonNull::new(ptr)
            .filter(|p| p.as_ptr().is_aligned())
            .ok_or(if ptr.is_null() {
                pn_status::NullPointer
            } else {
                pn_status::Misaligned
            })?,
        _borrow: PhantomData,
    })
}

/// Checks an out-pointer to a struct that begins with `struct_size` (the caller says which
/// version of the struct it has room for).
///
/// # Safety
/// As [`out`], and the struct's first `size_t` is readable.
pub unsafe fn out_struct<'a, T: SizedStruct>(ptr: *mut T) -> Result<Out<'a, T>, pn_status> {
    let p = non_null(ptr)?;
    // SAFETY: non-NULL, aligned, and its first `size_t` is readable by the caller's contract.
    let struct_size = unsafe { p.cast::<usize>().read() };
    if struct_size != size_of::<T>() {
        return Err(pn_status::BadStructSize);
    }
    // SAFETY: forwarded from the caller.
    unsafe { out(ptr) }
}

/// A borrowed C buffer of `len` elements. A zero length gives an empty slice whatever the
/// pointer; otherwise NULL, misalignment and sizes over `isize::MAX` bytes are errors.
///
/// # Safety
/// When `len > 0` and `ptr` is non-NULL and aligned, `ptr` points to `len` initialised `T`s
/// that nothing writes until the export returns.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> Result<&'a [T], pn_status> {
    if len == 0 {
        return Ok(&[]);
    }
    let p = non_null(ptr)?;
    check_len::<T>(len)?;
    // SAFETY: non-NULL, aligned, at most isize::MAX bytes, and the caller's contract covers
    // validity and the absence of writers.
    Ok(unsafe { core::slice::from_raw_parts(p.as_ptr(), len) })
}

/// A mutable C buffer of `len` elements, checked as [`slice`].
///
/// # Safety
/// When `len > 0` and `ptr` is non-NULL and aligned, `ptr` points to `len` initialised `T`s
/// that nothing else reads or writes until the export returns.
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> Result<&'a mut [T], pn_status> {
    if len == 0 {
        return Ok(&mut []);
    }
    let p = non_null(ptr)?;
    check_len::<T>(len)?;
    // SAFETY: as in `slice`, with exclusive access by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts_mut(p.as_ptr(), len) })
}

/// The pointer as `NonNull` when it is non-NULL and aligned for `T`.
pub fn non_null<T>(ptr: *const T) -> Result<NonNull<T>, pn_status> {
    let p = NonNull::new(ptr as *mut T).ok_or(pn_status::NullPointer)?;
    if (p.as_ptr() as usize) % align_of::<T>() != 0 {
        return Err(pn_status::Misaligned);
    }
    Ok(p)
}

/// `len` elements of `T` fit in `isize::MAX` bytes, as slices require.
fn check_len<T>(len: usize) -> Result<(), pn_status> {
    match len.checked_mul(size_of::<T>()) {
        Some(bytes) if bytes <= isize::MAX as usize => Ok(()),
        _ => Err(pn_status::InvalidArgument),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let status = guard(|| panic!("deliberate panic inside the boundary"));
        assert_eq!(status, pn_status::InternalError);
        assert_eq!(guard_value(7u32, || panic!("deliberate")), 7);
        assert_eq!(guard(|| Err(pn_status::Busy)), pn_status::Busy);
        assert_eq!(guard(|| Ok(())), pn_status::Ok);
    }

    #[test]
    fn pointers_are_checked() {
        let words = [0u64; 2];
        let base = words.as_ptr() as *const u8;
        // SAFETY: in bounds of `words`.
        let odd = unsafe { base.add(1) } as *const u64;
        assert_eq!(
            non_null::<u64>(core::ptr::null()).err(),
            Some(pn_status::NullPointer)
        );
        assert_eq!(non_null(odd).err(), Some(pn_status::Misaligned));
        // SAFETY: the checks fail before anything is read.
        unsafe {
            assert_eq!(slice(odd, 1).err(), Some(pn_status::Misaligned));
            assert_eq!(
                slice::<u64>(core::ptr::null(), 1).err(),
                Some(pn_status::NullPointer)
            );
            assert_eq!(slice::<u64>(core::ptr::null(), 0).unwrap().len(), 0);
            assert_eq!(
                slice(words.as_ptr(), usize::MAX / 4).err(),
                Some(pn_status::InvalidArgument)
            );
            assert_eq!(slice(words.as_ptr(), 2).unwrap(), &[0, 0]);
        }
    }
}
