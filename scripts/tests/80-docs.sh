# The README and the user guide (docs/src/) as a reader meets them: every ```sh block of the
# README and of every chapter but the C one (part 55 runs that) runs at the repository root,
# in order, through scripts/docs-test.py, which also checks that docs/src/SUMMARY.md lists every
# chapter and that every relative link and anchor resolves. Blocks too long for CI, or that
# need what a test machine lacks, carry a marker that says what the test runs instead (a
# smaller cap, a build instead of an install) or which test covers them; `python3
# scripts/docs-test.py commands --list` prints the plan. The Rust blocks are doctests (part
# 10's cargo test), the Python blocks run in part 40. About 3.5 minutes when the other parts'
# release builds are there; 8 when it builds what they left out (2 cores, load 5 to 7).
python3 scripts/docs-test.py links
python3 scripts/docs-test.py commands
