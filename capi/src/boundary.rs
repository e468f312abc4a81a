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

use crate::error::Error;
use crate::fail;
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
/// # Versions
/// A struct grows only at its end, and each earlier version's size (its `sizeof`, tail padding
/// included) is the offset of the first field added after it. Callers built against an older header pass that older size: an input
/// is then read up to it, with every newer field zero (so a new field must mean "as before"
/// when zero), and an output is written only up to it. Sizes that are neither the current one
/// nor in [`OLDER_SIZES`](SizedStruct::OLDER_SIZES) give [`pn_status::BadStructSize`].
///
/// # Safety
/// The implementing type must be `#[repr(C)]`, begin with a `usize` field holding its size,
/// be valid for every bit pattern (integers, raw pointers, optional function pointers), and
/// list in `OLDER_SIZES` only offsets of its fields other than the first (each is then at
/// least `size_of::<usize>()` and smaller than the struct).
pub unsafe trait SizedStruct: Copy {
    /// The sizes of the struct's earlier versions, oldest first.
    const OLDER_SIZES: &'static [usize] = &[];
}

/// The `struct_size` a caller declared, if it is a version of `T` this library knows.
fn known_size<T: SizedStruct>(struct_size: usize) -> Result<usize, pn_status> {
    if struct_size == size_of::<T>() || T::OLDER_SIZES.contains(&struct_size) {
        Ok(struct_size)
    } else {
        Err(pn_status::BadStructSize)
    }
}

/// Reads an input struct: checks NULL, alignment and `struct_size`, then copies it. From a
/// caller with an older version of the struct (see [`SizedStruct`]) it copies that version's
/// bytes and leaves the newer fields zero.
///
/// # Safety
/// `ptr` is NULL or points to readable memory of at least `size_t` bytes, and of
/// `struct_size` bytes when that is a size of `T` this library knows.
pub unsafe fn read_input<T: SizedStruct>(ptr: *const T) -> Result<T, pn_status> {
    let ptr = non_null(ptr)?;
    // SAFETY: `ptr` is non-NULL and aligned (checked by `non_null`); by the caller's contract
    // its first `size_t` is readable, and by `SizedStruct` that is the `struct_size` field at
    // offset 0.
    let struct_size = known_size::<T>(unsafe { ptr.cast::<usize>().read() })?;
    if struct_size == size_of::<T>() {
        // SAFETY: the caller declared, through `struct_size`, that the whole struct is there,
        // and every bit pattern is a valid `T` (`SizedStruct`).
        return Ok(unsafe { ptr.read() });
    }
    let mut value = core::mem::MaybeUninit::<T>::zeroed();
    // SAFETY: the caller declared `struct_size` readable bytes at `ptr`, and `struct_size` is
    // one of `T`'s older sizes, smaller than `T` (`SizedStruct`), so the copy stays inside
    // `value`; the two do not overlap (`value` is a local).
    unsafe {
        core::ptr::copy_nonoverlapping(
            ptr.as_ptr().cast::<u8>(),
            value.as_mut_ptr().cast::<u8>(),
            struct_size,
        )
    };
    // SAFETY: every byte of `value` is initialised (zeroed, then partly overwritten with the
    // caller's bytes), and every bit pattern is a valid `T` (`SizedStruct`).
    Ok(unsafe { value.assume_init() })
}

/// An output location checked for NULL and alignment, written at most once.
pub struct Out<'a, T> {
    ptr: NonNull<T>,
    /// Bytes of `T` to write: all of them, or the size of the older version of a
    /// [`SizedStruct`] the caller has room for.
    bytes: usize,
    /// The first byte written when `bytes` is less than the whole `T`: past `struct_size`
    /// when the caller set it ([`out_struct`]), 0 when the library writes it too
    /// ([`out_version`]).
    from: usize,
    _borrow: PhantomData<&'a mut T>,
}

impl<T> Out<'_, T> {
    /// Writes the output (without reading or dropping what was there). For a caller with an
    /// older version of a struct, only that version's bytes are written, and its
    /// `struct_size` is left as the caller set it (so the struct stays the caller's version),
    /// or, through [`out_version`], written as part of those bytes.
    pub fn write(self, value: T) {
        if self.bytes == size_of::<T>() {
            // SAFETY: `out` checked that the pointer is non-NULL and aligned, and its caller
            // promised it is valid for writes of a `T` for the duration of the export.
            unsafe { self.ptr.as_ptr().write(value) }
        } else {
            let skip = self.from;
            // SAFETY: only `out_struct` and `out_version` make `bytes` differ from
            // `size_of::<T>()`: `T` is then a `SizedStruct` (plain `Copy` data beginning with
            // `struct_size: usize`) and `bytes` one of its older sizes, at least
            // `size_of::<usize>()` (so at least `skip`, which is 0 or that) and less than
            // `size_of::<T>()`, which the caller promised writable at the pointer. So both
            // ranges `skip..bytes` are in bounds; `value` is a local, so they do not overlap;
            // the bytes are copied untyped, padding included.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    (&value as *const T).cast::<u8>().add(skip),
                    self.ptr.as_ptr().cast::<u8>().add(skip),
                    self.bytes - skip,
                )
            };
        }
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
        bytes: size_of::<T>(),
        from: 0,
        _borrow: PhantomData,
    })
}

/// Checks an out-pointer to a struct that begins with `struct_size` (the caller says which
/// version of the struct it has room for; an older one is written only up to its size).
///
/// # Safety
/// `ptr` is NULL or aligned with its first `size_t` readable, and valid for writes of
/// `struct_size` bytes until the export returns when that is a size of `T` this library
/// knows.
pub unsafe fn out_struct<'a, T: SizedStruct>(ptr: *mut T) -> Result<Out<'a, T>, pn_status> {
    let p = non_null(ptr)?;
    // SAFETY: non-NULL, aligned, and its first `size_t` is readable by the caller's contract.
    let bytes = known_size::<T>(unsafe { p.cast::<usize>().read() })?;
    Ok(Out {
        ptr: p,
        bytes,
        from: size_of::<usize>(),
        _borrow: PhantomData,
    })
}

/// Checks an out-pointer to a struct of which the caller has room for the version of
/// `struct_size` bytes, a size it gave the library earlier (in an input of the same struct),
/// so the output's own `struct_size` need not be set: that version is written whole,
/// `struct_size` included.
///
/// # Safety
/// `ptr` is NULL or aligned and valid for writes of `struct_size` bytes until the export
/// returns when that is a size of `T` this library knows.
pub unsafe fn out_version<'a, T: SizedStruct>(
    ptr: *mut T,
    struct_size: usize,
) -> Result<Out<'a, T>, pn_status> {
    Ok(Out {
        ptr: non_null(ptr)?,
        bytes: known_size::<T>(struct_size)?,
        from: 0,
        _borrow: PhantomData,
    })
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

/// Element types of output buffers: plain integers, for which all-zero bytes are a valid
/// value.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type.
pub unsafe trait ZeroIsValid: Copy {}
// SAFETY: integers are valid for every bit pattern, zero included.
unsafe impl ZeroIsValid for u8 {}
// SAFETY: as for `u8`.
unsafe impl ZeroIsValid for u32 {}
// SAFETY: as for `u8`.
unsafe impl ZeroIsValid for u64 {}

/// A C output buffer of `len` elements: only writable, its memory possibly uninitialised
/// (fresh `malloc` memory), so no Rust slice may cover it until the library has written
/// every element. Checked as [`slice()`]; nothing is written until one of its methods is called.
pub struct OutBuffer<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<'a, T: ZeroIsValid> OutBuffer<'a, T> {
    /// Copies `values` to the start of the buffer and leaves the rest as it was, or
    /// `BufferTooSmall` (nothing written) when they do not fit.
    pub fn write_prefix(self, values: &[T]) -> Result<(), pn_status> {
        if values.len() > self.len {
            return Err(pn_status::BufferTooSmall);
        }
        // SAFETY: the buffer is valid for writes of `len >= values.len()` elements
        // (`out_buffer`'s contract) and is not `values` (the caller's buffers never overlap
        // the library's memory, checked by the exports). The copy only writes, so it does not
        // matter whether the buffer's old contents were initialised.
        unsafe { core::ptr::copy_nonoverlapping(values.as_ptr(), self.ptr.as_ptr(), values.len()) };
        Ok(())
    }

    /// Zero-fills the buffer through its raw pointer, after which every element is
    /// initialised, and borrows it as a slice for the library to write into.
    pub fn zeroed(self) -> &'a mut [T] {
        // SAFETY: the buffer is valid for writes of `len` elements, aligned and non-NULL
        // (dangling only when `len` is 0, where nothing is written) by `out_buffer`.
        unsafe { core::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
        // SAFETY: the `len` elements were all just written with zero bytes, a valid `T`
        // (`ZeroIsValid`), so the slice covers initialised values; nothing else accesses the
        // buffer until the export returns (`out_buffer`'s contract).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Checks an output buffer of `len` elements: a zero length is an empty buffer whatever the
/// pointer; otherwise NULL, misalignment and sizes over `isize::MAX` bytes are errors.
///
/// # Safety
/// When `len > 0` and `ptr` is non-NULL and aligned, `ptr` is valid for writes of `len` `T`s
/// (initialised or not) that nothing else reads or writes until the export returns.
pub unsafe fn out_buffer<'a, T: ZeroIsValid>(
    ptr: *mut T,
    len: usize,
) -> Result<OutBuffer<'a, T>, pn_status> {
    let ptr = if len == 0 {
        NonNull::dangling()
    } else {
        check_len::<T>(len)?;
        non_null(ptr)?
    };
    Ok(OutBuffer {
        ptr,
        len,
        _borrow: PhantomData,
    })
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

/// Errors of the pointer checks above, said of the argument they were about.
pub(crate) trait Arg<T> {
    /// The error, if any, as a message naming the argument `what` (a NULL or misaligned
    /// pointer, a length too large), the pointer being `ptr` to a `P`.
    fn arg<P>(self, ptr: *const P, what: &str) -> Result<T, Error>;
    /// As [`arg`](Arg::arg), for a pointer to a [`SizedStruct`]: a `struct_size` this
    /// library does not know is said with its value and the sizes it knows.
    ///
    /// # Safety
    /// As for the check that failed: `ptr` is NULL, misaligned, or has its first `size_t`
    /// readable.
    unsafe fn struct_arg<P: SizedStruct>(self, ptr: *const P, what: &str) -> Result<T, Error>;
}

impl<T> Arg<T> for Result<T, pn_status> {
    fn arg<P>(self, ptr: *const P, what: &str) -> Result<T, Error> {
        self.map_err(|status| match status {
            pn_status::NullPointer => fail!(status, "{what} is NULL"),
            pn_status::Misaligned => fail!(
                status,
                "{what} ({ptr:p}) is not aligned to {} bytes",
                align_of::<P>()
            ),
            _ => Error::from(status).about(what),
        })
    }

    unsafe fn struct_arg<P: SizedStruct>(self, ptr: *const P, what: &str) -> Result<T, Error> {
        match self {
            Err(pn_status::BadStructSize) => {
                // SAFETY: the size check ran, so `ptr` is non-NULL and aligned, and its first
                // `size_t` is readable (the caller's contract).
                let size = unsafe { ptr.cast::<usize>().read() };
                #[cfg_attr(not(feature = "messages"), allow(unused_mut))]
                let mut e = fail!(
                    pn_status::BadStructSize,
                    "{what}->struct_size is {size}; expected {} (sizeof in this header)",
                    size_of::<P>()
                );
                #[cfg(feature = "messages")]
                for (i, older) in P::OLDER_SIZES.iter().enumerate() {
                    let sep = if i == 0 {
                        " or an earlier version's "
                    } else {
                        ", "
                    };
                    let _ =
                        core::fmt::Write::write_fmt(&mut e.message, format_args!("{sep}{older}"));
                }
                Err(e)
            }
            other => other.arg(ptr, what),
        }
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

    /// A struct that grew: version 1 ended before `added`.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Grown {
        struct_size: usize,
        old: u64,
        added: u64,
    }

    // SAFETY: `#[repr(C)]`, `struct_size` first, integers only; the older size is a field's
    // offset.
    unsafe impl SizedStruct for Grown {
        const OLDER_SIZES: &'static [usize] = &[core::mem::offset_of!(Grown, added)];
    }

    #[test]
    fn older_versions_of_a_struct_are_read_and_written_up_to_their_size() {
        let v1 = core::mem::offset_of!(Grown, added);
        let caller = Grown {
            struct_size: v1,
            old: 7,
            added: 99, // beyond version 1: not the caller's memory
        };
        // SAFETY: a valid, aligned local.
        let read = unsafe { read_input(&caller) }.unwrap();
        assert_eq!((read.struct_size, read.old, read.added), (v1, 7, 0));

        let mut room = caller;
        // SAFETY: as above.
        let out = unsafe { out_struct(&mut room) }.unwrap();
        out.write(Grown {
            struct_size: size_of::<Grown>(),
            old: 8,
            added: 9,
        });
        assert_eq!(
            room,
            Grown {
                struct_size: v1,
                old: 8,
                added: 99
            },
            "written up to version 1's size, struct_size kept"
        );

        for bad in [0, size_of::<usize>(), size_of::<Grown>() + 8] {
            let g = Grown {
                struct_size: bad,
                ..caller
            };
            // SAFETY: as above; the size check fails before anything else is read.
            assert_eq!(
                unsafe { read_input(&g) }.err(),
                Some(pn_status::BadStructSize)
            );
        }
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
