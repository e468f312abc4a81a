# README's "Use from C" runs as written: every ```sh block of that section, in order, as one
# script run by `bash -e` at the repository root, as a new user would paste them (cargo-c's
# install and its consumers, the clients built from the build directory, the bare-metal build,
# the header's regeneration). The prefixes and builds those lines make in target/ are removed
# first, so the run starts as on a fresh clone. README's `bash ffi-tests/run.sh ...` line runs
# with FFI_TESTS_QUICK=1: the header and minimal.c only (about 5 s instead of 65), since part
# 10's `cargo test` runs the whole script on the same build (capi/tests/ffi.rs).
set -euo pipefail
script=$(mktemp)
trap 'rm -f "$script"' EXIT
awk '/^## /{section = ($0 == "## Use from C")}
     section && /^```sh$/{block = 1; next}
     section && block && /^```$/{block = 0; next}
     section && block' README.md >"$script"
# The extraction found the section (a renamed heading must fail here, not pass empty).
grep -q 'cargo cinstall' "$script"
grep -q 'cc -std=c99' "$script"
echo "README's C section: $(grep -cv '^\s*#' "$script") lines of commands"
rm -rf target/prefix target/prefix-static target/cmake-example
SECONDS=0
FFI_TESTS_QUICK=1 bash -e -x "$script"
echo "README's C section ran in $SECONDS s"
