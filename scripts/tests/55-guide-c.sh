# The user guide's C chapter (docs/src/c.md) runs as written: every ```sh block of it, in
# order, as one script run by `bash -e` at the repository root, as a new user would paste them
# (cargo-c's install and its consumers, the clients built from the build directory, the
# bare-metal build, the header's regeneration). scripts/docs-test.py, which runs the other
# chapters' commands (part 80), leaves this chapter to this part. The prefixes and builds those
# lines make in target/ are removed first, so the run starts as on a fresh clone. The
# chapter's `bash ffi-tests/run.sh ...` line runs with FFI_TESTS_QUICK=1: the header and
# minimal.c only (under a second instead of about a minute), since part 10's `cargo test` runs
# the whole script on the same build (capi/tests/ffi.rs). The chapter's cbindgen line rewrites
# include/proofnum.h: the header must come out as committed (else it was stale, and this run
# would have hidden that from CI's `cbindgen --verify` step, which comes later); a changed
# header is put back and fails the part.
set -euo pipefail
script=$(mktemp)
committed_header=$(mktemp)
trap 'rm -f "$script" "$committed_header"' EXIT
cp include/proofnum.h "$committed_header"
awk '/^```sh$/{block = 1; next}
     block && /^```$/{block = 0; next}
     block' docs/src/c.md >"$script"
# The extraction found the commands (a moved chapter must fail here, not pass empty).
grep -q 'cargo cinstall' "$script"
grep -q 'cc -std=c99' "$script"
echo "the guide's C chapter: $(grep -cv '^\s*#' "$script") lines of commands"
rm -rf target/prefix target/prefix-static target/cmake-example
SECONDS=0
FFI_TESTS_QUICK=1 bash -e -x "$script"
echo "the guide's C chapter ran in $SECONDS s"
if ! cmp -s include/proofnum.h "$committed_header"; then
    diff -u "$committed_header" include/proofnum.h | head -n 40 || true
    cp "$committed_header" include/proofnum.h
    echo "include/proofnum.h is stale: the C chapter's cbindgen line changed it (the diff above);" \
        "regenerate it and commit it" >&2
    exit 1
fi
