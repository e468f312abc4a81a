//! Error messages: what a failed call found wrong, in words, beside its status.
//!
//! A status says which kind of thing went wrong (`PN_STATUS_INVALID_ARGUMENT`); the message
//! says which field, callback or buffer, with its value and what was expected
//! (`config.max_moves is 0; expected 1 to 33294320`). Like rustls-ffi's error strings, and
//! without allocating: a message is built into a fixed buffer of [`PN_ERROR_CAPACITY`] bytes,
//! carried by an `Error` to the export, and kept in the solver the call used
//! (`pn_solver_last_error`). Calls that have no solver to keep it in describe a configuration
//! through `pn_config_error` instead. Those two calls are in [`messages`](crate::messages),
//! above the solver; this module is below everything that fails.

use core::ffi::c_char;
use core::fmt;

use crate::status::pn_status;

/// Bytes of the longest error message, its terminating NUL included: a buffer of this size
/// always holds a whole message from `pn_solver_last_error` or `pn_config_error`.
pub const PN_ERROR_CAPACITY: usize = 256;

/// A message of at most `PN_ERROR_CAPACITY - 1` bytes of ASCII (longer text is cut).
#[cfg(feature = "messages")]
#[derive(Clone, Copy)]
pub(crate) struct Message {
    bytes: [u8; PN_ERROR_CAPACITY - 1],
    len: usize,
}

#[cfg(feature = "messages")]
impl Message {
    /// The empty message: no error.
    pub(crate) const EMPTY: Message = Message {
        bytes: [0; PN_ERROR_CAPACITY - 1],
        len: 0,
    };

    /// The message's text (without a NUL).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The message as a `&str`.
    pub(crate) fn as_str(&self) -> &str {
        // SAFETY: the bytes are UTF-8: a message is built only from whole `&str`s and from
        // ASCII (`write_str` cuts at a character boundary, `ascii` checks).
        unsafe { core::str::from_utf8_unchecked(self.as_bytes()) }
    }

    /// A message of this text.
    pub(crate) fn of(text: &str) -> Message {
        let mut m = Message::EMPTY;
        let _ = fmt::Write::write_str(&mut m, text);
        m
    }

    /// A message of these ASCII bytes (a status's description), cut at the capacity.
    fn ascii(text: &'static [u8]) -> Message {
        let mut m = Message::EMPTY;
        // Anything else would break `as_str`'s UTF-8; the descriptions are ASCII literals.
        let take = if text.is_ascii() {
            text.len().min(m.bytes.len())
        } else {
            0
        };
        m.bytes[..take].copy_from_slice(&text[..take]);
        m.len = take;
        m
    }

    /// A message written by `args`.
    pub(crate) fn format(args: fmt::Arguments<'_>) -> Message {
        let mut m = Message::EMPTY;
        let _ = fmt::write(&mut m, args);
        m
    }
}

#[cfg(feature = "messages")]
impl fmt::Write for Message {
    /// Appends what fits, cut at a character boundary; never fails (a cut message is still
    /// the most useful thing to keep).
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = self.bytes.len() - self.len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Without the `messages` feature a message is a fixed text (a status's description, or a
/// literal): a pointer and a length, so that an [`Error`] stays two words and bare-metal
/// builds carry no message buffers, copies or formatting code.
#[cfg(not(feature = "messages"))]
#[derive(Clone, Copy)]
pub(crate) struct Message {
    text: &'static str,
}

#[cfg(not(feature = "messages"))]
impl Message {
    /// The empty message: no error.
    pub(crate) const EMPTY: Message = Message { text: "" };

    /// The message's text (without a NUL).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The message as a `&str`.
    pub(crate) fn as_str(&self) -> &str {
        self.text
    }

    /// A message of this text.
    pub(crate) fn of(text: &'static str) -> Message {
        Message { text }
    }

    /// A message of these ASCII bytes (a status's description).
    fn ascii(text: &'static [u8]) -> Message {
        Message {
            text: core::str::from_utf8(text).unwrap_or(""),
        }
    }

    /// Empty in builds without the `messages` feature, which leave out the formatting
    /// machinery (their errors give their status's description).
    pub(crate) fn format(_args: fmt::Arguments<'_>) -> Message {
        Message::EMPTY
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// A failure: its status, and a message saying what exactly is wrong (empty when the status
/// says it all; [`Error::text`] then gives the status's description).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Error {
    /// The status the export returns.
    pub(crate) status: pn_status,
    /// What is wrong, in words.
    pub(crate) message: Message,
}

impl Error {
    /// An error with a message written by `args` (see [`fail!`](crate::fail)).
    pub(crate) fn new(status: pn_status, args: fmt::Arguments<'_>) -> Error {
        Error {
            status,
            message: Message::format(args),
        }
    }

    /// The message to keep: the detailed one, or the status's description.
    pub(crate) fn text(&self) -> Message {
        if self.message.as_bytes().is_empty() {
            Message::ascii(self.status.message().to_bytes())
        } else {
            self.message
        }
    }

    /// The same error, its message prefixed by `what` and ": " (which argument it is about).
    pub(crate) fn about(self, what: &str) -> Error {
        let text = self.text();
        Error::new(self.status, format_args!("{what}: {}", text.as_str()))
    }
}

impl From<pn_status> for Error {
    fn from(status: pn_status) -> Error {
        Error {
            status,
            message: Message::EMPTY,
        }
    }
}

impl From<Error> for pn_status {
    fn from(error: Error) -> pn_status {
        error.status
    }
}

/// `Error::new(status, format_args!(...))`.
#[cfg(feature = "messages")]
#[macro_export]
#[doc(hidden)]
macro_rules! fail {
    ($status:expr, $($fmt:tt)+) => {
        $crate::error::Error::new($status, format_args!($($fmt)+))
    };
}

/// Without the `messages` feature: the status alone. The words are in a closure that is never
/// called, so the values they name count as used, and the compiler drops the text and the
/// formatting code.
#[cfg(not(feature = "messages"))]
#[macro_export]
#[doc(hidden)]
macro_rules! fail {
    ($status:expr, $($fmt:tt)+) => {{
        let _unused = || {
            let _ = format_args!($($fmt)+);
        };
        $crate::error::Error::from($status)
    }};
}

/// Copies `text` into C's `buf` (`len` bytes) as `snprintf` does: at most `len - 1` bytes and
/// a NUL, nothing when `buf` is NULL or `len` is 0; returns the length of the whole text.
///
/// # Safety
/// `buf` is NULL or writable for `len` bytes.
pub(crate) unsafe fn copy_out(text: &[u8], buf: *mut c_char, len: usize) -> usize {
    if !buf.is_null() && len > 0 {
        let n = text.len().min(len - 1);
        // SAFETY: `buf` is writable for `len > n` bytes (caller), and `text` is Rust memory,
        // so the two do not overlap.
        unsafe {
            core::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
            buf.add(n).write(0);
        }
    }
    text.len()
}

#[cfg(all(test, feature = "messages"))]
mod tests {
    use super::*;

    #[test]
    fn messages_are_cut_at_their_capacity_and_copied_like_snprintf() {
        let long = Message::format(format_args!("{:300}", "x"));
        assert_eq!(long.as_bytes().len(), PN_ERROR_CAPACITY - 1);
        let text = b"config.max_moves is 0";
        let mut buf = [0x55 as c_char; 8];
        // SAFETY: `buf` is a writable local of 8 bytes.
        let n = unsafe { copy_out(text, buf.as_mut_ptr(), buf.len()) };
        assert_eq!(n, text.len());
        // SAFETY: `copy_out` wrote a NUL within the buffer.
        let got = unsafe { core::ffi::CStr::from_ptr(buf.as_ptr()) };
        assert_eq!(got.to_bytes(), b"config.");
        // SAFETY: NULL is allowed and writes nothing.
        assert_eq!(
            unsafe { copy_out(text, core::ptr::null_mut(), 0) },
            text.len()
        );
        let e = Error::from(pn_status::NullPointer).about("game");
        assert_eq!(
            e.text().as_str(),
            "game: a required pointer argument is NULL"
        );
    }
}
