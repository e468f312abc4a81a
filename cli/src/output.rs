//! Standard output for the report, ending the process quietly when its reader has gone.
//!
//! Rust programs ignore SIGPIPE, so a `println!` into a pipe whose reader has exited
//! (`proofnum connect4 | head -3`) panics with "failed printing to stdout: Broken pipe". Unix
//! tools instead end at that write, silently: SIGPIPE kills them and the shell reports status
//! 141. [`outln!`](crate::outln) and [`out!`](crate::out) do the same without touching signal
//! handlers (no `unsafe`): on a closed pipe they exit with [`EXIT_CLOSED_OUTPUT`] and print
//! nothing; any other write error (a full disk) is reported on standard error with
//! [`EXIT_WRITE_ERROR`].

use std::fmt;
use std::io::{self, Write};
use std::process;

/// Exit status when standard output was closed before the report was written: 128 + SIGPIPE
/// (13), what a shell reports for a Unix tool that SIGPIPE ended.
pub const EXIT_CLOSED_OUTPUT: i32 = 128 + 13;
/// Exit status when the report could not be written for another reason (sysexits' EX_IOERR).
pub const EXIT_WRITE_ERROR: i32 = 74;

/// Writes `args` (and a newline when `newline`) to standard output, or ends the process as
/// the module says.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    let mut out = io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(error) = written {
        drop(out);
        failed(&error);
    }
}

/// Ends the process after a failed write to standard output.
fn failed(error: &io::Error) -> ! {
    if error.kind() == io::ErrorKind::BrokenPipe {
        process::exit(EXIT_CLOSED_OUTPUT);
    }
    // Standard error may be gone too: nothing more to do then.
    let _ = writeln!(io::stderr(), "error: cannot write the report: {error}");
    process::exit(EXIT_WRITE_ERROR);
}

/// `println!` for the report: see [`output`](crate::output) for what happens when standard
/// output is closed.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*), true)
    };
}

/// `print!` for the report: see [`output`](crate::output).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*), false)
    };
}
