//! What the command-line tests share: one run of the `proofnum` binary, its exit code and
//! what it wrote.

use std::process::Command;

/// One run of the command line.
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `proofnum ARGS…` to its end.
pub fn proofnum(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_proofnum"))
        .args(args)
        .output()
        .expect("the proofnum binary runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
