//! PNS, PN² and df-pn side by side on Connect Four positions of increasing difficulty.
//!
//! ```sh
//! cargo run --release --example pns_bench                          # every engine, 3 runs each
//! cargo run --release --example pns_bench -- --engine pns --runs 5 --nodes 8388608
//! cargo run --release --example pns_bench -- --engine pn2 --second-level 1048576
//! cargo run --release --example pns_bench -- --engine dfpn --table-mib 64
//! ```
//!
//! Each position is searched for "does the side to move win?" and checked against the value
//! the independent alpha-beta solver of `proofnum-games` gives (listed below with each
//! position). Per engine and position it prints the median time of the runs, expansions (MID
//! calls for df-pn), positions evaluated, expansions and positions per second, and for PNS the
//! peak number of tree nodes and the arena's size. All memory is allocated before the runs.
//!
//! Engines: `pns` and `pn2` with the default settings (Connect Four is declared acyclic, so
//! transpositions share unsolved numbers), `pns-off` without that sharing, `dfpn`.
//!
//! Options: `--engine pns|pns-off|pn2|dfpn|all`, `--runs N`, `--nodes N` (first-level PNS
//! nodes), `--second-level N` (PN² second-level nodes), `--table-mib N`, `--max-nodes N`
//! (positions evaluated per search; the hard positions need tens of millions with df-pn).

use std::time::Instant;

use proofnum::Table;
use proofnum::{
    ArenaStats, Dfpn, DfpnConfig, Game, Limits, Pns, PnsConfig, SearchResult, Status,
    TranspositionNumbers, Value,
};
use proofnum_games::connect4::{Column, ConnectFour};

/// Positions as move strings, with their value for the side to move from the reference
/// alpha-beta solver, easiest first (random games with a fixed seed, 24 to 12 stones).
const SUITE: [(&str, Value); 11] = [
    ("646664325341133523345765", Value::Loss),
    ("4126361545141124642243", Value::Loss),
    ("33433113237625744544", Value::Loss),
    ("176771726517563535", Value::Win),
    ("131323574237652611", Value::Loss),
    ("1777154332576477", Value::Win),
    ("52255424516244", Value::Loss),
    ("647262774144", Value::Win),
    ("12225611647123", Value::Win),
    ("764476473674", Value::Loss),
    ("76522735653762", Value::Loss),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Pns,
    PnsOff,
    Pn2,
    Dfpn,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Pns => "pns",
            Engine::PnsOff => "pns-off",
            Engine::Pn2 => "pn2",
            Engine::Dfpn => "dfpn",
        }
    }
}

struct Options {
    engines: Vec<Engine>,
    runs: usize,
    nodes: usize,
    second_level: usize,
    table_mib: usize,
    max_nodes: u64,
}

fn parse_options() -> Options {
    let mut o = Options {
        engines: vec![Engine::Pns, Engine::PnsOff, Engine::Pn2, Engine::Dfpn],
        runs: 3,
        nodes: 1 << 22,
        second_level: 1 << 20,
        table_mib: 16,
        max_nodes: 200_000_000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| -> &str {
            args.get(i + 1)
                .unwrap_or_else(|| panic!("{} needs a value", args[i]))
        };
        let number = |i: usize| -> usize {
            value(i)
                .parse()
                .unwrap_or_else(|_| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--engine" => {
                o.engines = match value(i) {
                    "pns" => vec![Engine::Pns],
                    "pns-off" => vec![Engine::PnsOff],
                    "pn2" => vec![Engine::Pn2],
                    "dfpn" => vec![Engine::Dfpn],
                    "all" => o.engines.clone(),
                    other => panic!("unknown engine {other}: pns, pns-off, pn2, dfpn or all"),
                }
            }
            "--runs" => o.runs = number(i).max(1),
            "--nodes" => o.nodes = number(i),
            "--second-level" => o.second_level = number(i),
            "--table-mib" => o.table_mib = number(i),
            "--max-nodes" => o.max_nodes = number(i) as u64,
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    o
}

/// One search's figures.
#[derive(Clone, Copy)]
struct Run {
    status: Status,
    seconds: f64,
    expansions: u64,
    nodes: u64,
    arena: Option<ArenaStats>,
}

fn run_one(
    engine: Engine,
    position: &str,
    pns: &mut [Option<Pns<'_, ConnectFour>>; 3],
    dfpn: &mut Dfpn<'_, ConnectFour>,
    table: &mut Table<'_>,
    max_nodes: u64,
) -> Run {
    let mut game = ConnectFour::from_moves(position).expect("suite positions are legal");
    let attacker = game.side_to_move();
    table.clear();
    let start = Instant::now();
    let mut limits = Limits::nodes(max_nodes);
    let (r, arena): (SearchResult<Column>, _) = match engine {
        Engine::Dfpn => (dfpn.solve(&mut game, attacker, table, &mut limits), None),
        Engine::Pns | Engine::PnsOff | Engine::Pn2 => {
            let k = match engine {
                Engine::Pns => 0,
                Engine::PnsOff => 1,
                _ => 2,
            };
            let p = pns[k].as_mut().expect("searcher made for this engine");
            let r = p.solve(&mut game, attacker, table, &mut limits);
            (r, Some(p.arena_stats()))
        }
    };
    Run {
        status: r.status,
        seconds: start.elapsed().as_secs_f64(),
        expansions: r.stats.mid_calls,
        nodes: r.stats.nodes,
        arena,
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

fn main() {
    let o = parse_options();
    let depth = 42;
    let moves = 7;
    let configs = [
        PnsConfig::PNS,
        PnsConfig::PNS.with_transposition_numbers(TranspositionNumbers::Off),
        PnsConfig::pn2(o.second_level),
    ];
    let engines_for = [Engine::Pns, Engine::PnsOff, Engine::Pn2];
    // All memory up front: one buffer per PNS configuration in use, the df-pn stack, a table.
    let mut buffers: Vec<Vec<u8>> = configs
        .iter()
        .zip(engines_for)
        .map(|(&c, e)| {
            let bytes = if o.engines.contains(&e) {
                Pns::<ConnectFour>::required_bytes(o.nodes, depth, moves, c)
            } else {
                0
            };
            vec![0u8; bytes]
        })
        .collect();
    let mut searchers: [Option<Pns<'_, ConnectFour>>; 3] = [None, None, None];
    for ((slot, buffer), (&c, e)) in searchers
        .iter_mut()
        .zip(buffers.iter_mut())
        .zip(configs.iter().zip(engines_for))
    {
        if o.engines.contains(&e) {
            *slot =
                Some(Pns::new(buffer, depth, moves, c).expect("memory sized by required_bytes"));
        }
    }
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(depth, moves)];
    let mut dfpn = Dfpn::<ConnectFour>::new(&mut stack, depth, moves, DfpnConfig::default())
        .expect("stack sized by stack_bytes");
    let mut table_memory = vec![0u8; o.table_mib << 20];
    let mut table = Table::new(&mut table_memory).expect("at least one bucket");

    println!(
        "PNS: {} bytes a node ({} node + {} move), {} first-level nodes = {:.1} MiB; PN² second level {} nodes; table {} MiB; {} runs, medians",
        Pns::<ConnectFour>::bytes_per_node(),
        Pns::<ConnectFour>::bytes_per_node() - std::mem::size_of::<Column>(),
        std::mem::size_of::<Column>(),
        o.nodes,
        (o.nodes * Pns::<ConnectFour>::bytes_per_node()) as f64 / (1 << 20) as f64,
        o.second_level,
        o.table_mib,
        o.runs,
    );
    println!(
        "{:<26} {:<7} {:<10} {:>9} {:>11} {:>12} {:>8} {:>8} {:>10}",
        "position",
        "engine",
        "result",
        "time ms",
        "expansions",
        "positions",
        "Mexp/s",
        "Mpos/s",
        "peak nodes"
    );
    let mut totals: Vec<(Engine, f64, u64, u64, usize)> = Vec::new();
    for &(position, value) in &SUITE {
        for &engine in &o.engines {
            let runs: Vec<Run> = (0..o.runs)
                .map(|_| {
                    run_one(
                        engine,
                        position,
                        &mut searchers,
                        &mut dfpn,
                        &mut table,
                        o.max_nodes,
                    )
                })
                .collect();
            let r = runs[0];
            assert!(
                runs.iter()
                    .all(|x| x.status == r.status && x.expansions == r.expansions),
                "searches are deterministic"
            );
            let want = if value == Value::Win {
                Status::Proven
            } else {
                Status::Disproven
            };
            let result = match r.status {
                s if s == want => "ok".to_string(),
                Status::Unknown(reason) => format!("unknown: {reason}"),
                s => panic!(
                    "{position}: {} says {s}, the reference says {value:?}",
                    engine.name()
                ),
            };
            let seconds = median(runs.iter().map(|x| x.seconds).collect());
            let peak = r.arena.map(|a| a.peak_nodes);
            println!(
                "{:<26} {:<7} {:<10} {:>9.1} {:>11} {:>12} {:>8.2} {:>8.2} {:>10}",
                position,
                engine.name(),
                result,
                seconds * 1e3,
                r.expansions,
                r.nodes,
                r.expansions as f64 / seconds / 1e6,
                r.nodes as f64 / seconds / 1e6,
                peak.map_or("-".to_string(), |p| p.to_string()),
            );
            if r.status == want {
                match totals.iter_mut().find(|t| t.0 == engine) {
                    Some(t) => {
                        t.1 += seconds;
                        t.2 += r.expansions;
                        t.3 += r.nodes;
                        t.4 += 1;
                    }
                    None => totals.push((engine, seconds, r.expansions, r.nodes, 1)),
                }
            }
        }
    }
    println!("\nsolved positions per engine (sums over them):");
    for (engine, seconds, expansions, nodes, solved) in totals {
        println!(
            "{:<7} {:>2} solved  {:>9.1} ms  {:>11} expansions  {:>12} positions  {:.2} Mexp/s  {:.2} Mpos/s",
            engine.name(),
            solved,
            seconds * 1e3,
            expansions,
            nodes,
            expansions as f64 / seconds / 1e6,
            nodes as f64 / seconds / 1e6,
        );
    }
}
