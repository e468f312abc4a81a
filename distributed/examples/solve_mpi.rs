//! The `solve_mpi` binary under its old name, for the commands that build it as an example
//! (`cargo build --release -p proofnum-mpi --example solve_mpi`, then
//! `target/release/examples/solve_mpi`): the same program, the same options. The binary is
//! `cargo build --release -p proofnum-mpi`, then `target/release/solve_mpi`.

#[allow(dead_code)]
#[path = "../src/bin/solve_mpi.rs"]
mod solve_mpi;

fn main() -> std::process::ExitCode {
    solve_mpi::main()
}
