//! Benchmark workloads: Ultimate Tic-Tac-Toe, Atari Go 6×6 and Connect Four positions solved
//! with df-pn, printing per position the result, MID calls, MID calls per second, peak table
//! fill, memory and time (medians over `--runs`), and a summary line.
//!
//! ```sh
//! cargo run --release -p proofnum-tools --bin bench -- connect4                      # the fixed suite
//! cargo run --release -p proofnum-tools --bin bench -- connect4 --cache-compare      # 256 KiB vs 1 GiB table
//! cargo run --release -p proofnum-tools --bin bench -- uttt --runs 1                 # the two self-play positions
//! cargo run --release -p proofnum-tools --bin bench -- uttt --runs 1 --ablation      # each UTTT rule off in turn
//! cargo run --release -p proofnum-tools --bin bench -- uttt --position 'O;...'       # other UTTT positions
//! cargo run --release -p proofnum-tools --bin bench -- atarigo                       # the 6×6 crosscut
//! cargo run --release -p proofnum-tools --bin bench -- atarigo --sweep --cap 300 --chart docs/src/atarigo-table1.png
//! ```
//!
//! Options: `--table-mib N` (default 64), `--epsilon F` (default 0.25; 0 is classic df-pn),
//! `--weak-delta` (`DfpnConfig::weak_delta`),
//! `--runs N` (default 3), `--cap SECONDS` (per solve; a capped run shows as unsolved).
//!
//! Memory is exactly what the program hands the solver: the table buffer and the stack buffer
//! (`Dfpn::stack_bytes`); the solver allocates nothing else. Peak table fill is the fill at the
//! end of a run: entries are replaced, never removed, so it only grows.

use std::time::Instant;

use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Epsilon, Game, Limits, Player, Status, Value};
use proofnum_games::atarigo::AtariGo6;
use proofnum_games::connect4::ConnectFour;
use proofnum_games::uttt::{Knowledge, Uttt};

/// The Connect Four suite: positions of increasing difficulty, from the end game
/// (sub-millisecond) towards the opening (seconds). Lines of Pascal Pons' published test sets,
/// and the last, the slowest line of this project's middle suite (`games/suites/`).
const CONNECT4_SUITE: [&str; 9] = [
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "23163416124767223154467471272416755633",
    "34441157374153736716346556774311552222",
    "43745416472735",
    "427631264721",
    "335662333565",
    "157564142155",
    "2711156125533335",
];

/// The two Ultimate Tic-Tac-Toe positions of ultimattt's self-play (`selfplay-tt-5s` at plies
/// 30 and 29; X wins the first, O does not win the second).
const UTTT_POSITIONS: [&str; 2] = [
    "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX",
    "O;......O@.;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/...X.X.../.O.....XX",
];

/// Solving times in seconds from Table 1 of Pawlewicz and Lew (2007), 3 GHz Pentium 4, for
/// table sizes 2^12 … 2^22 entries; `None` where they gave up (2-hour limit).
const PAPER_DFPN_EPS: [Option<f64>; 11] = [
    Some(672.0),
    Some(236.0),
    Some(95.0),
    Some(98.0),
    Some(55.0),
    Some(70.0),
    Some(32.0),
    Some(77.0),
    Some(38.0),
    Some(54.0),
    Some(68.0),
];
const PAPER_DFPN: [Option<f64>; 11] = [
    None,
    None,
    Some(3403.0),
    Some(279.0),
    Some(189.0),
    Some(187.0),
    Some(104.0),
    Some(168.0),
    Some(111.0),
    Some(113.0),
    Some(106.0),
];

/// Entries per 64-byte table bucket.
const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Clone, Copy)]
struct Options {
    table_mib: f64,
    epsilon: Epsilon,
    /// `DfpnConfig::weak_delta` (`--weak-delta`).
    weak_delta: bool,
    runs: usize,
    cap_s: f64,
}

/// One measured solve.
#[derive(Clone, Copy, Default)]
struct Run {
    result: Option<&'static str>,
    mid_calls: u64,
    nodes: u64,
    fill_per_mille: u32,
    seconds: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Solves `game` (the full value with `value`, else "does the side to move win") in a fresh
/// table of `table_bytes` bytes.
fn solve_once<G: Game>(
    game: &mut G,
    value: bool,
    memory: &mut [u8],
    stack: &mut [u8],
    depth: usize,
    moves: usize,
    options: &Options,
) -> Run {
    let mut table = Table::new(memory).expect("table memory");
    let config = DfpnConfig {
        epsilon: options.epsilon,
        weak_delta: options.weak_delta,
        ..DfpnConfig::default()
    };
    let mut dfpn = Dfpn::<G>::new(stack, depth, moves, config).expect("stack memory");
    let start = Instant::now();
    let mut clock = || start.elapsed().as_micros() as u64;
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: (options.cap_s * 1e6) as u64,
        ..Limits::none()
    };
    let (result, stats) = if value {
        let v = dfpn.solve_value(game, &mut table, &mut limits);
        let r = match v.value {
            Ok(Value::Win) => Some("win"),
            Ok(Value::Draw) => Some("draw"),
            Ok(Value::Loss) => Some("loss"),
            Err(_) => None,
        };
        (r, v.stats)
    } else {
        let me = game.side_to_move();
        let r = dfpn.solve(game, me, &mut table, &mut limits);
        let s = match r.status {
            Status::Proven => Some("wins"),
            Status::Disproven => Some("no win"),
            Status::Unknown(_) => None,
        };
        (s, r.stats)
    };
    Run {
        result,
        mid_calls: stats.mid_calls,
        nodes: stats.nodes,
        fill_per_mille: table.fill_per_mille(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Runs `runs` solves of each position and prints a line per position and a summary.
fn bench<G: Game + Clone>(
    name: &str,
    positions: &[(String, G)],
    value: bool,
    depth: usize,
    moves: usize,
    options: &Options,
) -> (u64, f64) {
    let table_bytes = (options.table_mib * (1 << 20) as f64) as usize;
    let mut memory = vec![0u8; table_bytes.max(Table::MIN_BYTES)];
    // Allocated now, outside the timed searches (`Table::new` leaves clear memory unwritten).
    proofnum::memory::prefault(&mut memory);
    let stack_bytes = Dfpn::<G>::stack_bytes(depth, moves);
    let mut stack = vec![0u8; stack_bytes];
    let capacity = Table::new(&mut memory).unwrap().capacity();
    println!(
        "{name}: table {:.2} MiB ({} entries), stack {} bytes, ε = {}, {} run(s), cap {} s",
        table_bytes as f64 / (1 << 20) as f64,
        capacity,
        stack_bytes,
        options.epsilon.as_f64(),
        options.runs,
        options.cap_s
    );
    println!(
        "{:<40} {:>7} {:>12} {:>12} {:>10} {:>8} {:>10} {:>9} {:>9}",
        "position", "result", "MID calls", "nodes", "MID/s", "fill‰", "memory", "ns/MID", "time s"
    );
    let (mut total_mid, mut total_s) = (0u64, 0.0);
    for (label, game) in positions {
        let runs: Vec<Run> = (0..options.runs)
            .map(|_| {
                let mut g = game.clone();
                solve_once(
                    &mut g,
                    value,
                    &mut memory,
                    &mut stack,
                    depth,
                    moves,
                    options,
                )
            })
            .collect();
        let seconds = median(runs.iter().map(|r| r.seconds).collect());
        let r = runs[0];
        let shown: String = if label.len() > 40 {
            format!("{}…", &label[..39])
        } else {
            label.clone()
        };
        println!(
            "{:<40} {:>7} {:>12} {:>12} {:>10.0} {:>8} {:>10} {:>9.0} {:>9.3}",
            shown,
            r.result.unwrap_or("capped"),
            r.mid_calls,
            r.nodes,
            r.mid_calls as f64 / seconds,
            r.fill_per_mille,
            table_bytes + stack_bytes,
            seconds * 1e9 / r.mid_calls.max(1) as f64,
            seconds
        );
        total_mid += r.mid_calls;
        total_s += seconds;
    }
    println!(
        "summary {name}: {} positions, {} MID calls in {:.3} s: {:.0} MID/s, {:.0} ns per MID call",
        positions.len(),
        total_mid,
        total_s,
        total_mid as f64 / total_s,
        total_s * 1e9 / total_mid.max(1) as f64
    );
    (total_mid, total_s)
}

fn connect4(options: &Options, cache_compare: bool) {
    let positions: Vec<(String, ConnectFour)> = CONNECT4_SUITE
        .iter()
        .map(|m| {
            (
                m.to_string(),
                ConnectFour::from_moves(m).expect("suite position"),
            )
        })
        .collect();
    if !cache_compare {
        bench("connect4", &positions, true, 42, 7, options);
        return;
    }
    // ns per MID call with a cache-resident table and with one far larger than cache.
    let small = Options {
        table_mib: 0.25,
        ..*options
    };
    let large = Options {
        table_mib: 1024.0,
        ..*options
    };
    let (m1, s1) = bench("connect4, 256 KiB table", &positions, true, 42, 7, &small);
    let (m2, s2) = bench("connect4, 1 GiB table", &positions, true, 42, 7, &large);
    println!(
        "cache compare: 256 KiB {:.0} ns/MID, 1 GiB {:.0} ns/MID (ratio {:.2})",
        s1 * 1e9 / m1 as f64,
        s2 * 1e9 / m2 as f64,
        (s2 / m2 as f64) / (s1 / m1 as f64)
    );
}

/// The two UTTT positions (or the `chosen` ones) with all the game's knowledge; with
/// `ablation`, then with each rule of `proofnum_games::uttt::knowledge` switched off in turn,
/// and with none (the plain game).
fn uttt(options: &Options, ablation: bool, chosen: &[String]) {
    let texts: Vec<&str> = if chosen.is_empty() {
        UTTT_POSITIONS.to_vec()
    } else {
        chosen.iter().map(String::as_str).collect()
    };
    let solve = |name: &str, knowledge: Knowledge| {
        let positions: Vec<(String, Uttt)> = texts
            .iter()
            .map(|p| {
                let g: Uttt = p.parse().unwrap_or_else(|e| {
                    eprintln!("position {p:?}: {e}");
                    std::process::exit(2)
                });
                (p.to_string(), g.with_knowledge(knowledge))
            })
            .collect();
        bench(name, &positions, false, 81, 81, options)
    };
    solve("uttt", Knowledge::ALL);
    if !ablation {
        return;
    }
    for (rule, knowledge) in Knowledge::EACH {
        solve(
            &format!("uttt without {rule}"),
            Knowledge::ALL.without(knowledge),
        );
    }
    solve("uttt without knowledge", Knowledge::NONE);
}

fn atarigo(options: &Options) {
    let positions = vec![("6x6 crosscut".to_string(), AtariGo6::crosscut())];
    bench("atarigo", &positions, false, 36, 36, options);
}

/// Table 1 of the 1+ε paper: solving time and MID calls of the 6×6 crosscut for table sizes
/// 2^12 … 2^22 entries, with ε = 0 and ε = 1/4.
fn atarigo_sweep(options: &Options, chart: Option<&str>, font: &str) {
    let variants = [
        ("df-pn (ε = 0)", Epsilon::ZERO),
        ("df-pn 1+ε (ε = 1/4)", Epsilon::QUARTER),
    ];
    let sizes: Vec<u32> = (12..=22).collect();
    let mut seconds = vec![vec![None; sizes.len()]; 2];
    let load_before = load_average();
    println!(
        "Atari Go 6×6 crosscut (Black to move; Black wins), cap {} s per run, median of {} run(s)",
        options.cap_s, options.runs
    );
    println!("machine load before (1, 5, 15-minute load averages): {load_before}");
    println!(
        "{:<22} {:>5} {:>12} {:>10} {:>10} {:>8} {:>12}",
        "variant", "size", "MID calls", "MID/s", "time s", "fill‰", "paper 2007 s"
    );
    for (v, (name, epsilon)) in variants.iter().enumerate() {
        for (i, &log2) in sizes.iter().enumerate() {
            let entries = 1usize << log2;
            let buckets = entries / ENTRIES_PER_BUCKET;
            let o = Options {
                table_mib: Table::required_bytes(buckets) as f64 / (1 << 20) as f64,
                epsilon: *epsilon,
                ..*options
            };
            let table_bytes = Table::required_bytes(buckets);
            let mut memory = vec![0u8; table_bytes];
            // Allocated now, outside the timed searches (`Table::new` leaves clear memory unwritten).
            proofnum::memory::prefault(&mut memory);
            let mut stack = vec![0u8; Dfpn::<AtariGo6>::stack_bytes(36, 36)];
            let runs: Vec<Run> = (0..o.runs)
                .map(|_| {
                    let mut g = AtariGo6::crosscut();
                    solve_once(&mut g, false, &mut memory, &mut stack, 36, 36, &o)
                })
                .collect();
            let r = runs[0];
            let t = median(runs.iter().map(|r| r.seconds).collect());
            let solved = runs.iter().all(|r| r.result == Some("wins"));
            let paper = if v == 0 {
                PAPER_DFPN[i]
            } else {
                PAPER_DFPN_EPS[i]
            };
            println!(
                "{:<22} 2^{:<3} {:>12} {:>10.0} {:>10} {:>8} {:>12}",
                name,
                log2,
                r.mid_calls,
                r.mid_calls as f64 / t,
                if solved {
                    format!("{t:.2}")
                } else {
                    "–".to_string()
                },
                r.fill_per_mille,
                paper.map(|p| format!("{p:.0}")).unwrap_or("–".into())
            );
            if solved {
                seconds[v][i] = Some(t);
            }
        }
    }
    let load_after = load_average();
    println!("machine load after: {load_after}");
    if let Some(path) = chart {
        let series = [
            ("proofnum df-pn (ε = 0)", &seconds[0][..]),
            ("proofnum df-pn 1+ε (ε = 1/4)", &seconds[1][..]),
            ("Pawlewicz and Lew 2007: df-pn", &PAPER_DFPN[..]),
            ("Pawlewicz and Lew 2007: df-pn 1+ε", &PAPER_DFPN_EPS[..]),
        ];
        let unsolved = |times: &[Option<f64>]| -> Vec<String> {
            sizes
                .iter()
                .zip(times)
                .filter(|(_, t)| t.is_none())
                .map(|(log2, _)| format!("2^{log2}"))
                .collect()
        };
        let mut notes = vec![
            format!(
                "proofnum: 1 thread, median of {} run(s) on {} shared cores; load averages \
                 (1/5/15 min) {load_before} before, {load_after} after.",
                options.runs,
                std::thread::available_parallelism().map_or(1, |n| n.get())
            ),
            format!(
                "Pawlewicz and Lew 2007: 3 GHz Pentium 4, 2-hour limit; their df-pn did not solve \
                 {}.",
                unsolved(&PAPER_DFPN).join(" and ")
            ),
        ];
        for (v, (name, _)) in variants.iter().enumerate() {
            let missing = unsolved(&seconds[v]);
            if !missing.is_empty() {
                notes.push(format!(
                    "proofnum {name} did not solve {} within the {} s cap.",
                    missing.join(", "),
                    options.cap_s
                ));
            }
        }
        chart::draw(path, font, &sizes, &series, &notes).expect("chart");
        println!("chart written to {path}");
    }
}

/// The 1, 5 and 15-minute load averages (Linux's `/proc/loadavg`), or "unknown".
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

mod chart {
    //! The Table 1 chart: solving time against table size, log scales, one line per variant;
    //! this machine's runs solid, the paper's dashed, and notes on where each was measured.

    use plotters::prelude::*;
    use plotters::style::{FontStyle, register_font};

    /// Seconds for a log-scale axis label: "0.5 s", "2 s", "100 s".
    fn seconds_label(y: &f64) -> String {
        if *y >= 1.0 {
            format!("{y:.0} s")
        } else {
            format!("{y:.1} s")
        }
    }

    pub fn draw(
        path: &str,
        font: &str,
        sizes: &[u32],
        series: &[(&str, &[Option<f64>])],
        notes: &[String],
    ) -> Result<(), Box<dyn std::error::Error>> {
        let bytes = std::fs::read(font).map_err(|e| {
            format!("font {font}: {e} (install fonts-dejavu-core or pass --font FILE.ttf)")
        })?;
        register_font(
            "sans-serif",
            FontStyle::Normal,
            Box::leak(bytes.into_boxed_slice()),
        )
        .map_err(|_| format!("font {font} is not a TrueType font"))?;
        let (w, h) = (1000u32, 660u32);
        let mut pixels = vec![0u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
            root.fill(&WHITE)?;
            // The notes go under the plot.
            let note_height = 22 * notes.len() as u32 + 8;
            let (plot_area, note_area) = root.split_vertically(h - note_height);
            let max = series
                .iter()
                .flat_map(|(_, s)| s.iter().flatten())
                .fold(1.0f64, |m, &x| m.max(x));
            let min = series
                .iter()
                .flat_map(|(_, s)| s.iter().flatten())
                .fold(max, |m, &x| m.min(x));
            // Whole decades, so every point has a labelled line below and above it.
            let (min, max) = (
                10f64.powf(min.log10().floor()),
                10f64.powf(max.log10().ceil()),
            );
            let x0 = *sizes.first().unwrap() as f64 - 0.3;
            let x1 = *sizes.last().unwrap() as f64 + 0.3;
            let mut chart = ChartBuilder::on(&plot_area)
                .caption(
                    "Atari Go 6×6 crosscut: time to prove Black's win against table size",
                    ("sans-serif", 24),
                )
                .margin(16)
                .x_label_area_size(52)
                .y_label_area_size(72)
                .build_cartesian_2d(x0..x1, (min..max).log_scale())?;
            chart
                .configure_mesh()
                .x_desc("transposition table size (entries, log scale)")
                .y_desc("solving time (seconds, log scale)")
                .x_labels(sizes.len())
                .x_label_formatter(&|x| format!("2^{}", x.round() as i64))
                .y_label_formatter(&seconds_label)
                .axis_desc_style(("sans-serif", 16))
                .label_style(("sans-serif", 15))
                .draw()?;
            let colours = [RED, BLUE, RGBColor(230, 120, 120), RGBColor(120, 120, 230)];
            for (k, (name, values)) in series.iter().enumerate() {
                let colour = colours[k % colours.len()];
                let points: Vec<(f64, f64)> = sizes
                    .iter()
                    .zip(values.iter())
                    .filter_map(|(&s, v)| v.map(|t| (s as f64, t)))
                    .collect();
                // This machine's runs solid and thick, the paper's dashed.
                let mine = k < 2;
                let style = colour.stroke_width(if mine { 3 } else { 2 });
                let legend = move |(x, y): (i32, i32)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
                };
                if mine {
                    chart
                        .draw_series(LineSeries::new(points.clone(), style))?
                        .label(*name)
                        .legend(legend);
                } else {
                    chart
                        .draw_series(DashedLineSeries::new(points.clone(), 10, 6, style))?
                        .label(*name)
                        .legend(move |(x, y)| {
                            plotters::element::DashedPathElement::new(
                                vec![(x, y), (x + 24, y)],
                                7,
                                4,
                                colour.stroke_width(3),
                            )
                        });
                }
                let radius = if mine { 4 } else { 3 };
                chart.draw_series(
                    points
                        .iter()
                        .map(|&p| Circle::new(p, radius, colour.filled())),
                )?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .draw()?;
            for (i, note) in notes.iter().enumerate() {
                note_area.draw(&Text::new(
                    note.as_str(),
                    (24, 4 + 22 * i as i32),
                    ("sans-serif", 15).into_font().color(&BLACK.mix(0.8)),
                ))?;
            }
            root.present()?;
        }
        let file = std::fs::File::create(path)?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header()?.write_image_data(&pixels)?;
        Ok(())
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: bench <connect4|uttt|atarigo> [--table-mib N] [--epsilon F] [--runs N] [--cap S] [--weak-delta]\n\
         \x20      connect4: [--cache-compare]   uttt: [--ablation] [--position P]...\n\
         \x20      atarigo: [--sweep] [--chart FILE.png] [--font FILE.ttf]"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(game) = args.first() else { usage() };
    let mut options = Options {
        table_mib: 64.0,
        epsilon: Epsilon::QUARTER,
        weak_delta: false,
        runs: 3,
        cap_s: 600.0,
    };
    let (mut cache_compare, mut sweep, mut chart) = (false, false, None);
    let mut ablation = false;
    let mut uttt_positions = Vec::new();
    let mut font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf".to_string();
    let mut i = 1;
    let value = |i: usize| args.get(i + 1).cloned().unwrap_or_else(|| usage());
    while i < args.len() {
        match args[i].as_str() {
            "--table-mib" => options.table_mib = value(i).parse().unwrap_or_else(|_| usage()),
            "--runs" => options.runs = value(i).parse().unwrap_or_else(|_| usage()),
            "--cap" => options.cap_s = value(i).parse().unwrap_or_else(|_| usage()),
            "--epsilon" => {
                let f: f64 = value(i).parse().unwrap_or_else(|_| usage());
                // As a fraction over 1024.
                options.epsilon =
                    Epsilon::new((f * 1024.0).round() as u32, 1024).unwrap_or_else(|| usage());
            }
            "--chart" => chart = Some(value(i)),
            "--position" => uttt_positions.push(value(i)),
            "--font" => font = value(i),
            "--cache-compare" => {
                cache_compare = true;
                i -= 1;
            }
            "--sweep" => {
                sweep = true;
                i -= 1;
            }
            "--weak-delta" => {
                options.weak_delta = true;
                i -= 1;
            }
            "--ablation" => {
                ablation = true;
                i -= 1;
            }
            _ => usage(),
        }
        i += 2;
    }
    options.runs = options.runs.max(1);
    let _ = Player::First;
    match game.as_str() {
        "connect4" => connect4(&options, cache_compare),
        "uttt" => uttt(&options, ablation, &uttt_positions),
        "atarigo" if sweep => atarigo_sweep(&options, chart.as_deref(), &font),
        "atarigo" => atarigo(&options),
        _ => usage(),
    }
}
