//! Runs the C ABI's C, C++ and Python clients (`ffi-tests/run.sh`) from `cargo test`.
//!
//! Integration tests cannot link a staticlib/cdylib crate, so this test builds the library
//! itself with the same features as the test build, in a target directory of its own (the
//! outer `cargo test` holds the lock on the main one), then hands it to the script, which
//! compiles the C and C++ programs with warnings as errors under ASan and UBSan, runs them and
//! the examples, and ends with "N passed, N failed".

use std::path::{Path, PathBuf};
use std::process::Command;

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ sits in the repository")
        .to_path_buf()
}

#[test]
fn c_cpp_and_python_clients_pass() {
    let root = repository_root();
    let target_dir = root.join("target").join("ffi");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // The C tests use every engine and read the error messages, so the library has PNS and
    // PN² (the `pns` feature) and the messages even when this test build leaves them out; std
    // follows the test build.
    let features: &[&str] = if cfg!(feature = "std") {
        &["--features=std,pns,messages"]
    } else {
        &["--no-default-features", "--features=pns,messages"]
    };
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--release", "-p", "proofnum-capi"])
        .args(features)
        .arg("--target-dir")
        .arg(&target_dir)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building libproofnum failed");

    let lib_dir = target_dir.join("release");
    let build_dir = target_dir.join(if cfg!(feature = "std") {
        "clients-std"
    } else {
        "clients-no-std"
    });
    let output = Command::new("bash")
        // The whole script, even where the caller's environment asks for its quick part.
        .env_remove("FFI_TESTS_QUICK")
        .arg(root.join("ffi-tests").join("run.sh"))
        .arg(&lib_dir)
        .arg(&build_dir)
        .output()
        .expect("bash runs ffi-tests/run.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        output.status.success(),
        "ffi-tests/run.sh failed: {summary}"
    );
    assert!(
        summary.ends_with(" passed, 0 failed"),
        "unexpected summary: {summary}"
    );
}
