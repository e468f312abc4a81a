# The Rust tests of every crate, with every feature: the oracle suites, the games, the C ABI
# from C, C++ and Python (capi/tests/ffi.rs runs ffi-tests/run.sh), the doctests.
cargo test --workspace --all-features
