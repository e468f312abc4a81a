//! Solves Connect Four positions once with df-pn and prints MID calls: run it under
//! `perf stat -e instructions:u` to count instructions per MID call, a figure that does not
//! depend on how loaded the machine is.
//!
//! ```sh
//! cargo build --release --example mid_cost
//! perf stat -e instructions:u target/release/examples/mid_cost 0.25 157564142155 335662333565
//! ```
//! For a profile by function or line (`valgrind --tool=callgrind`, `perf record`), build with
//! `--profile profiling` instead (release code with debug info; the binary is in
//! `target/profiling/examples/`): the release profile carries no debug info.
//!
//! Arguments: `[--weak]` (`DfpnConfig::weak_delta`), the table size
//! in MiB, then the positions (columns played, 1-based).

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Limits};
use proofnum_games::connect4::ConnectFour;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut config = DfpnConfig::default();
    args.retain(|a| match a.as_str() {
        "--weak" => std::mem::replace(&mut config.weak_delta, true),
        _ => true,
    });
    let Some((mib, positions)) = args.split_first() else {
        eprintln!("usage: mid_cost TABLE_MIB POSITION...");
        std::process::exit(2);
    };
    let mib: f64 = mib.parse().expect("table MiB");
    let mut memory = vec![0u8; (mib * (1 << 20) as f64) as usize];
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<ConnectFour>::new(&mut stack, 42, 7, config).unwrap();
    let mut total = 0;
    for p in positions {
        let mut table = Table::new(&mut memory).unwrap();
        let mut game = ConnectFour::from_moves(p).expect("position");
        let r = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
        println!("{p}: {:?} {} MID calls", r.value, r.stats.mid_calls);
        total += r.stats.mid_calls;
    }
    println!("total MID calls: {total}");
}
