# README's "Use from C" runs as written: every ```sh block of that section, in order, as one
# script run by `bash -e` at the repository root, as a new user would paste them (cargo-c's
# install and its consumers, the clients built from the build directory, the bare-metal build,
# the header's regeneration). The prefixes and builds those lines make in target/ are removed
# first, so the run starts as on a fresh clone. README's `bash ffi-tests/run.sh ...` line runs
# with FFI_TESTS_QUICK=1: the header and minimal.c only (under a second instead of about a
# minute), since part 10's `cargo test` runs the whole script on the same build
# (capi/tests/ffi.rs). README's cbindgen line rewrites include/proofnum.h: the header must come
# out as committed (else it was stale, and this run would have hidden that from CI's
# `cbindgen --verify` step, which comes later); a changed header is put back and fails the part.
set -euo pipefail
script=$(mktemp)
committed_header=$(mktemp)
trap 'rm -f "$script" "$committed_header"' EXIT
cp include/proofnum.h "$committed_header"
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
if ! cmp -s include/proofnum.h "$committed_header"; then
    diff -u "$committed_header" include/proofnum.h | head -n 40 || true
    cp "$committed_header" include/proofnum.h
    echo "include/proofnum.h is stale: README's cbindgen line changed it (the diff above);" \
        "regenerate it and commit it" >&2
    exit 1
fi
