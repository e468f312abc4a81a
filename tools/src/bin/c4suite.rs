//! Connect Four test suites: generate them with the independent alpha-beta solver, and run
//! them with proofnum's df-pn.
//!
//! ```sh
//! # 100 positions of 28 to 36 stones, exact scores from the alpha-beta solver (not proofnum)
//! cargo run --release -p proofnum-tools --bin c4suite -- generate --stones 28..36 --count 100 --seed 1 > late.txt
//! # For each line: does the side to move win, and win/draw/loss, by df-pn; checks the signs
//! cargo run --release -p proofnum-tools --bin c4suite -- run games/suites/c4-late.txt
//! # The same with less of the game's knowledge (see `connect4::knowledge`), and the reference
//! # alpha-beta solver's time on the same lines
//! cargo run --release -p proofnum-tools --bin c4suite -- run games/suites/c4-middle.txt --rules threats
//! cargo run --release -p proofnum-tools --bin c4suite -- run games/suites/c4-middle.txt --reference
//! # Pascal Pons' six test sets (not in the repository: `scripts/fetch-pons-sets DIR` gets
//! # five; see games/suites/README.md), the value of every line, against the baseline
//! cargo run --release -p proofnum-tools --bin c4suite -- pons --dir target/pons-sets \
//!     --baseline benches/baselines/connect4-pons.tsv
//! ```
//!
//! Lines are `<moves> <score>`: the moves as 1-based columns, the score in Pascal Pons'
//! convention (positive: the side to move wins, 22 − k on 7×6 when its k-th stone connects;
//! 0: draw; negative: it loses). Generated positions are unfinished games in which the side
//! to move cannot connect four at once.

use std::time::Instant;

use clap::Parser;
use proofnum_tools::rng::Rng;
use proofnum_tools::{baseline, trace};

use proofnum::{Dfpn, DfpnConfig, Game, Limits, Status, Value};
use proofnum::{Table, TranspositionTable};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::connect4::reference::{Position, Solver};
use proofnum_games::connect4::suite;
use proofnum_games::connect4::{Restricted, rules};

/// Connect Four test suites.
#[derive(Parser)]
#[command(name = "c4suite")]
enum Cli {
    /// Positions with exact scores from the alpha-beta solver (not proofnum), to standard
    /// output.
    Generate {
        /// Stones on the board, as A..B (A < B <= 42).
        #[arg(long, value_parser = parse_stones)]
        stones: (usize, usize),
        /// Positions to make.
        #[arg(long, default_value_t = 20)]
        count: usize,
        /// The random games' seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solves every line with df-pn and checks it against the line's score; exits 1 on any
    /// disagreement.
    Run {
        /// The suite (lines `<moves> <score>`).
        file: String,
        /// df-pn's table, MiB.
        #[arg(long, default_value_t = 64.0)]
        table_mib: f64,
        /// Seconds per line.
        #[arg(long = "cap", default_value_t = 600.0)]
        cap_s: f64,
        /// The game's knowledge (see `connect4::knowledge`).
        #[arg(long, default_value = "all", value_parser = clap::builder::PossibleValuesParser::new(RULE_SETS.split(", ")))]
        rules: String,
        /// Ask df-pn only for the win/draw/loss value (not also "does it win").
        #[arg(long)]
        value_only: bool,
        /// df-pn with weak proof numbers (`DfpnConfig::weak_delta`).
        #[arg(long)]
        weak_delta: bool,
        /// Time the reference alpha-beta solver instead of df-pn.
        #[arg(long)]
        reference: bool,
    },
    /// On the draws and losses of one of Pons' sets: how much of the value's second search
    /// (the opponent's) is spent below positions the first search had already proven won for
    /// the side to move, which the second could take as disproofs if the searches shared
    /// their results across attackers.
    Reuse(ReuseArgs),
    /// Pascal Pons' six test sets: the win/draw/loss value of every line (the two searches of
    /// `solve_value`, timed apart), checked against the line's score; per set the mean and
    /// median time, MID calls, the second search's share and the worst lines. Exits 1 on any
    /// wrong answer (an unknown one, capped, is reported, not wrong).
    Pons {
        /// The directory holding `Test_L3_R1` … `Test_L1_R3` (optionally with `.txt`); a
        /// missing set is skipped.
        #[arg(long)]
        dir: String,
        /// Only the first N lines of a set, as SET=N (e.g. `L1_R3=90`; repeatable).
        #[arg(long = "lines", value_parser = parse_set_lines)]
        lines: Vec<(String, usize)>,
        /// Only these sets (repeatable; default all six).
        #[arg(long = "set")]
        sets: Vec<String>,
        /// df-pn's table, MiB (cleared before each line).
        #[arg(long, default_value_t = 64.0)]
        table_mib: f64,
        /// Seconds per line.
        #[arg(long = "cap", default_value_t = 600.0)]
        cap_s: f64,
        /// Rounds over the lines; times are the medians.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// Compare with this baseline.
        #[arg(long)]
        baseline: Option<String>,
        /// Write the figures as a baseline to this file.
        #[arg(long)]
        write_baseline: Option<String>,
        /// Print every line, not only the wrong and the worst.
        #[arg(long)]
        verbose: bool,
        /// Also search for the opponent's win alone (cleared table) on every line, and compare
        /// the MID calls of the two orders of the value's searches with what the answer needs
        /// (a win: the side to move's proof; a loss: the opponent's; a draw: both disproofs).
        #[arg(long)]
        orders: bool,
    },
}

/// `reuse`'s options.
#[derive(clap::Args)]
struct ReuseArgs {
    /// The directory holding Pons' sets (as for `pons`).
    #[arg(long)]
    dir: String,
    /// The set (e.g. L2_R2).
    #[arg(long)]
    set: String,
    /// Only its first N lines.
    #[arg(long, default_value_t = 1000)]
    lines: usize,
    /// df-pn's table, MiB (cleared before each line).
    #[arg(long, default_value_t = 64.0)]
    table_mib: f64,
}

fn parse_set_lines(text: &str) -> Result<(String, usize), String> {
    let bad = || format!("{text:?} is not SET=N (e.g. L1_R3=90)");
    let (set, n) = text.split_once('=').ok_or_else(bad)?;
    Ok((set.to_string(), n.parse().map_err(|_| bad())?))
}

fn parse_stones(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?} is not A..B with A < B <= 42");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b || b > 42 {
        return Err(bad());
    }
    Ok((a, b))
}

fn generate(stones: (usize, usize), count: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut solver = Solver::<7, 6>::new(1 << 24);
    let mut seen = std::collections::HashSet::new();
    let mut made = 0;
    while made < count {
        let n = stones.0 + rng.below(stones.1 - stones.0);
        let mut p = Position::<7, 6>::new();
        let mut moves = String::new();
        let mut ok = true;
        for _ in 0..n {
            let open: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
            let c = open[rng.below(open.len())];
            p.play(c);
            moves.push(char::from(b'1' + c as u8));
            if p.is_over() {
                ok = false;
                break;
            }
        }
        if !ok || p.can_win_now() || !seen.insert(moves.clone()) {
            continue;
        }
        let start = Instant::now();
        let score = solver.score(&mut p).expect("an unfinished game");
        eprintln!("{moves} {score} ({:.2?})", start.elapsed());
        println!("{moves} {score}");
        made += 1;
    }
}

/// The suite's lines, or exit with the parse error.
fn read_suite(path: &str) -> Vec<suite::Line> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    suite::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    })
}

/// The summary lines: total MID calls, total, mean and median time per position.
fn summary(path: &str, what: &str, mid_calls: u64, mut seconds: Vec<f64>) {
    let total: f64 = seconds.iter().sum();
    seconds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{path} ({what}): {} positions, {mid_calls} MID calls, {total:.2} s, mean {:.2} ms, \
         median {:.2} ms per position",
        seconds.len(),
        1e3 * total / seconds.len().max(1) as f64,
        1e3 * seconds[seconds.len() / 2],
    );
}

/// How `run` solves: `value_only` asks only for the win/draw/loss value (`solve_value`), not
/// also "does the side to move win"; `weak_delta` is `DfpnConfig::weak_delta`.
#[derive(Clone, Copy)]
struct RunOptions {
    value_only: bool,
    weak_delta: bool,
}

/// Solves every line with df-pn on a game with the knowledge `R` (a `rules` set).
fn run<const R: u8>(
    path: &str,
    rules_name: &str,
    table_mib: f64,
    cap_s: f64,
    options: RunOptions,
) -> bool {
    type G<const R: u8> = Restricted<7, 6, R>;
    let RunOptions {
        value_only,
        weak_delta,
    } = options;
    let config = DfpnConfig {
        weak_delta,
        ..DfpnConfig::default()
    };
    let lines = read_suite(path);
    let mut memory = proofnum_tools::timed_table_memory((table_mib * (1 << 20) as f64) as usize);
    let mut table = Table::new(&mut memory).expect("table memory");
    let mut stack = vec![0u8; Dfpn::<G<R>>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<G<R>>::new(&mut stack, 42, 7, config).unwrap();
    let (mut passed, mut failed) = (0, 0);
    let (mut mid_calls, mut seconds) = (0, Vec::new());
    for line in &lines {
        table.clear();
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: (cap_s * 1e6) as u64,
            ..Limits::none()
        };
        let verdict = if value_only {
            let mut position = G::<R>::from(line.position().unwrap());
            let v = dfpn.solve_value(&mut position, &mut table, &mut limits);
            suite::Verdict {
                wins: proofnum::Status::Unknown(proofnum::Reason::Stopped), // not asked
                value: v.value,
                mid_calls: v.stats.mid_calls,
            }
        } else {
            suite::solve_line(line, &mut dfpn, &mut table, &mut limits).unwrap()
        };
        let elapsed = start.elapsed().as_secs_f64();
        let ok = if value_only {
            verdict.value == Ok(line.value())
        } else {
            verdict.agrees_with(line)
        };
        println!(
            "{} {:<42} {:>4}  wins: {:<10} value: {:<18} {:>10} MID {:>8.3} s",
            if ok { "ok  " } else { "FAIL" },
            line.moves,
            line.score,
            if value_only {
                "-".to_string()
            } else {
                verdict.wins.to_string()
            },
            format!("{:?}", verdict.value),
            verdict.mid_calls,
            elapsed
        );
        mid_calls += verdict.mid_calls;
        seconds.push(elapsed);
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    let question = if value_only {
        "value only"
    } else {
        "both questions"
    };
    summary(
        path,
        &format!("df-pn, rules {rules_name}, {question}"),
        mid_calls,
        seconds,
    );
    println!("{passed} passed, {failed} failed");
    failed == 0
}

/// Times the reference alpha-beta solver's win/draw/loss answer (one null-window search
/// around 0, like Pons' "weak" mode) on every line, as a same-machine peer figure; checks the
/// sign.
fn run_reference(path: &str) -> bool {
    let lines = read_suite(path);
    let mut solver = Solver::<7, 6>::new(1 << 24);
    let mut failed = 0;
    let mut seconds = Vec::new();
    for line in &lines {
        let mut p = Position::<7, 6>::from_moves(&line.moves).unwrap();
        let start = Instant::now();
        let nodes = solver.nodes();
        let value = solver.value(&mut p);
        let elapsed = start.elapsed().as_secs_f64();
        let ok = value == Some(line.value());
        println!(
            "{} {:<42} {:>4}  value: {:<12} {:>10} nodes {:>8.3} s",
            if ok { "ok  " } else { "FAIL" },
            line.moves,
            line.score,
            format!("{value:?}"),
            solver.nodes() - nodes,
            elapsed
        );
        failed += usize::from(!ok);
        seconds.push(elapsed);
        solver = Solver::<7, 6>::new(1 << 24); // a fresh table per line, like df-pn's
    }
    summary(path, "reference alpha-beta", 0, seconds);
    println!("{} passed, {failed} failed", lines.len() - failed);
    failed == 0
}

/// The knowledge sets `--rules` accepts: the threat analysis alone (what the game knew
/// before move ordering, bounds and estimates), each step added, and `all` without each.
const RULE_SETS: &str = "plain, threats, threats+order, threats+order+bounds, all, \
                         all-order, all-bounds, all-estimate";

fn run_rules(name: &str, path: &str, table_mib: f64, cap_s: f64, options: RunOptions) -> bool {
    use rules::*;
    const T: u8 = WIN_NOW | THREATS;
    match name {
        "plain" => run::<NONE>(path, name, table_mib, cap_s, options),
        "threats" => run::<T>(path, name, table_mib, cap_s, options),
        "threats+order" => run::<{ T | ORDER }>(path, name, table_mib, cap_s, options),
        "threats+order+bounds" => {
            run::<{ T | ORDER | BOUNDS }>(path, name, table_mib, cap_s, options)
        }
        "all" => run::<ALL>(path, name, table_mib, cap_s, options),
        "all-order" => run::<{ ALL & !ORDER }>(path, name, table_mib, cap_s, options),
        "all-bounds" => run::<{ ALL & !BOUNDS }>(path, name, table_mib, cap_s, options),
        "all-estimate" => run::<{ ALL & !ESTIMATE }>(path, name, table_mib, cap_s, options),
        _ => {
            eprintln!("unknown --rules {name:?}; one of {RULE_SETS}");
            std::process::exit(2)
        }
    }
}

/// Pons' sets in his order (easiest first), with the mean time per line of his solver in weak
/// mode (win/draw/loss) where it was measured on this project's machines (the issue tracker's
/// figures: one thread; `None` where no figure was taken).
const PONS_SETS: [(&str, Option<f64>); 6] = [
    ("L3_R1", None),
    ("L2_R1", None),
    ("L2_R2", Some(3.6e-3)),
    ("L1_R1", None),
    ("L1_R2", Some(80e-3)),
    ("L1_R3", Some(4.6)),
];

/// One line's figures: the two searches of the value, apart.
struct PonsLine {
    id: String,
    moves: String,
    score: i32,
    value: Result<Value, proofnum::Reason>,
    first_mid: u64,
    second_mid: u64,
    first_s: Vec<f64>,
    second_s: Vec<f64>,
    /// With `--orders`: MID calls of the opponent's search alone, from a cleared table.
    opponent_alone: Option<u64>,
}

impl PonsLine {
    fn seconds(&self) -> f64 {
        baseline::median(&self.first_s) + baseline::median(&self.second_s)
    }
    fn mid_calls(&self) -> u64 {
        self.first_mid + self.second_mid
    }
    fn answer(&self) -> &'static str {
        match self.value {
            Ok(Value::Win) => "win",
            Ok(Value::Draw) => "draw",
            Ok(Value::Loss) => "loss",
            Err(_) => "unknown",
        }
    }
    fn wrong(&self) -> bool {
        matches!(self.value, Ok(v) if v != suite::value_of_score(self.score))
    }
}

/// The value of `position` as `solve_value` finds it (the side to move's win, then the
/// opponent's), each search timed and counted apart: (value, MID calls and seconds of each).
fn value_in_two(
    dfpn: &mut Dfpn<'_, ConnectFour>,
    table: &mut Table<'_>,
    position: &mut ConnectFour,
    cap_s: f64,
) -> (Result<Value, proofnum::Reason>, [u64; 2], [f64; 2]) {
    let me = position.side_to_move();
    let start = Instant::now();
    let mut clock = || start.elapsed().as_micros() as u64;
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: (cap_s * 1e6) as u64,
        ..Limits::none()
    };
    let first = dfpn.solve(position, me, table, &mut limits);
    let t1 = start.elapsed().as_secs_f64();
    match first.status {
        Status::Proven => return (Ok(Value::Win), [first.stats.mid_calls, 0], [t1, 0.0]),
        Status::Unknown(r) => return (Err(r), [first.stats.mid_calls, 0], [t1, 0.0]),
        Status::Disproven => {}
    }
    // As `solve_value`: the first search's proofs are read where the table stays in the caches.
    let second = if table.prefetch_pays() {
        dfpn.solve(position, me.opponent(), table, &mut limits)
    } else {
        dfpn.solve_after_opponent(position, me.opponent(), table, &mut limits)
    };
    let t2 = start.elapsed().as_secs_f64() - t1;
    let value = match second.status {
        Status::Proven => Ok(Value::Loss),
        Status::Disproven => Ok(Value::Draw),
        Status::Unknown(r) => Err(r),
    };
    (
        value,
        [first.stats.mid_calls, second.stats.mid_calls],
        [t1, t2],
    )
}

/// The `pons` command; true when no answer was wrong.
#[allow(clippy::too_many_arguments)]
fn run_pons(
    dir: &str,
    limits: &[(String, usize)],
    only: &[String],
    table_mib: f64,
    cap_s: f64,
    runs: usize,
    base: Option<&str>,
    out: Option<&str>,
    verbose: bool,
    orders: bool,
) -> bool {
    let mut memory = proofnum_tools::timed_table_memory((table_mib * (1 << 20) as f64) as usize);
    let mut table = Table::new(&mut memory).expect("table memory");
    let mut stack = vec![0u8; Dfpn::<ConnectFour>::stack_bytes(42, 7)];
    let mut dfpn = Dfpn::<ConnectFour>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
    let load_before = baseline::load_average();
    println!(
        "Pons' test sets from {dir}: value (win/draw/loss) by df-pn, one thread, table {table_mib} MiB cleared per line, {runs} round(s), cap {cap_s} s per line; load {load_before}"
    );
    let mut all: Vec<PonsLine> = Vec::new();
    let mut sets_run = Vec::new();
    for (set, pons_s) in PONS_SETS {
        if !only.is_empty() && !only.iter().any(|o| o == set) {
            continue;
        }
        let path = [format!("{dir}/Test_{set}"), format!("{dir}/Test_{set}.txt")]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists());
        let Some(path) = path else {
            println!("{set}: no Test_{set} in {dir}, skipped");
            continue;
        };
        let mut lines = read_suite(&path);
        if let Some((_, n)) = limits.iter().find(|(s, _)| s == set) {
            lines.truncate(*n);
        }
        let mut results: Vec<PonsLine> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| PonsLine {
                id: format!("{set}:{}", i + 1),
                moves: l.moves.clone(),
                score: l.score,
                value: Err(proofnum::Reason::Stopped),
                first_mid: 0,
                second_mid: 0,
                first_s: Vec::new(),
                second_s: Vec::new(),
                opponent_alone: None,
            })
            .collect();
        // Rounds over the set, so that a line's runs are spread over time.
        for round in 0..runs.max(1) {
            for (line, r) in lines.iter().zip(results.iter_mut()) {
                table.clear();
                let mut position = line.position().expect("a suite line");
                let (value, mid, secs) = value_in_two(&mut dfpn, &mut table, &mut position, cap_s);
                if round == 0 {
                    r.value = value;
                    r.first_mid = mid[0];
                    r.second_mid = mid[1];
                } else if r.first_mid != mid[0] || r.second_mid != mid[1] {
                    println!("NOTE {}: MID calls differ between rounds", r.id);
                }
                r.first_s.push(secs[0]);
                r.second_s.push(secs[1]);
                if orders && round == 0 {
                    table.clear();
                    let mut limits = Limits::none();
                    let opponent = position.side_to_move().opponent();
                    let alone = dfpn.solve(&mut position, opponent, &mut table, &mut limits);
                    r.opponent_alone = Some(alone.stats.mid_calls);
                }
            }
        }
        if orders {
            orders_summary(set, &results);
        }
        pons_set_summary(set, pons_s, &results, verbose);
        sets_run.push(set);
        all.extend(results);
    }
    let load_after = baseline::load_average();
    println!("load after: {load_after}");
    let wrong = all.iter().filter(|r| r.wrong()).count();
    let unknown = all.iter().filter(|r| r.value.is_err()).count();
    let records: Vec<baseline::Record> = all
        .iter()
        .map(|r| baseline::Record {
            id: r.id.clone(),
            answer: r.answer().to_string(),
            mid_calls: r.mid_calls(),
            median_ms: 1e3 * r.seconds(),
            peer_work: None,
            peer_ms: None,
        })
        .collect();
    let mut changed = 0;
    if let Some(b) = base {
        changed = baseline::compare(&baseline::read(b), &records);
    }
    if let Some(path) = out {
        let limits_text: Vec<String> = limits
            .iter()
            .map(|(s, n)| format!(" --lines {s}={n}"))
            .collect();
        let header = vec![
            format!(
                "c4suite pons --runs {runs} --table-mib {table_mib}{} (sets {}): value by df-pn's two searches; load {load_before} before, {load_after} after",
                limits_text.concat(),
                sets_run.join(", ")
            ),
            "id: set:line (1-based line of Pons' file); answer: win/draw/loss for the side to move; mid_calls: both searches".into(),
        ];
        std::fs::write(path, baseline::format(&header, &records)).expect("write the baseline");
        println!("baseline written to {path}");
    }
    println!(
        "{} lines: {wrong} wrong, {unknown} unknown (capped), answers changed against the baseline: {changed}",
        all.len()
    );
    println!(
        "{} passed, {} failed",
        all.len() - wrong - unknown,
        wrong + unknown
    );
    wrong == 0
}

/// The MID calls of the value's two searches in either order, against what the answer needs.
fn orders_summary(set: &str, results: &[PonsLine]) {
    let (mut mine_first, mut opponent_first, mut needed) = (0u64, 0u64, 0u64);
    // Both searches alternated with equal budgets until one proves (or both disprove): a win
    // costs the side to move's proof plus as much of the opponent's search, at most all of
    // it; a loss the other way round; a draw both disproofs.
    let mut alternated = 0u64;
    for r in results {
        let (Ok(value), Some(opp)) = (r.value, r.opponent_alone) else {
            continue;
        };
        // The side to move's search ran first from a cleared table: `first_mid` is its cost
        // alone; `opp` is the opponent's alone.
        let mine = r.first_mid;
        mine_first += r.mid_calls();
        let (b, need) = match value {
            Value::Win => (opp + mine, mine),
            Value::Loss => (opp, opp),
            Value::Draw => (opp + mine, opp + mine),
        };
        opponent_first += b;
        needed += need;
        alternated += match value {
            Value::Win => mine + mine.min(opp),
            Value::Loss => opp + opp.min(mine),
            Value::Draw => opp + mine,
        };
    }
    println!(
        "  orders ({set}): side to move first (solve_value) {mine_first} MID calls, opponent first {opponent_first}, alternated {alternated} ({:.0}%), the searches the answers need {needed} ({:.0}% of solve_value's)",
        100.0 * alternated as f64 / mine_first.max(1) as f64,
        100.0 * needed as f64 / mine_first.max(1) as f64
    );
}

/// The `reuse` command.
fn run_reuse(args: &ReuseArgs) {
    use trace::{Traced, TracedTable};
    let path = [
        format!("{}/Test_{}", args.dir, args.set),
        format!("{}/Test_{}.txt", args.dir, args.set),
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).exists())
    .unwrap_or_else(|| {
        eprintln!("no Test_{} in {}", args.set, args.dir);
        std::process::exit(2)
    });
    let mut lines = read_suite(&path);
    lines.truncate(args.lines);
    let mut memory =
        proofnum_tools::timed_table_memory((args.table_mib * (1 << 20) as f64) as usize);
    let mut stack = vec![0u8; Dfpn::<Traced<ConnectFour>>::stack_bytes(42, 7)];
    let mut dfpn =
        Dfpn::<Traced<ConnectFour>>::new(&mut stack, 42, 7, DfpnConfig::default()).unwrap();
    // Per value (draw, loss): lines, first-search MID calls, second-search MID calls, of them
    // below a position the first search proved won for the side to move.
    let mut totals = [(0u64, 0u64, 0u64, 0u64); 2];
    for line in &lines {
        let mut game = Traced::new(line.position().expect("a suite line"));
        let me = game.side_to_move();
        {
            let mut t = game.trace.borrow_mut();
            t.track_path = true;
            t.record_wins_for = Some(me);
        }
        let mut table = TracedTable {
            inner: Table::new(&mut memory).expect("table memory"),
            trace: game.trace.clone(),
        };
        let first = dfpn.solve(&mut game, me, &mut table, &mut Limits::none());
        if first.status != Status::Disproven {
            continue;
        }
        {
            let mut t = game.trace.borrow_mut();
            t.record_wins_for = None;
            t.decided = std::mem::take(&mut t.recorded);
            t.decided_expansions = 0;
        }
        let second = dfpn.solve(&mut game, me.opponent(), &mut table, &mut Limits::none());
        let i = match second.status {
            Status::Disproven => 0,
            Status::Proven => 1,
            Status::Unknown(_) => continue,
        };
        let t = game.trace.borrow();
        totals[i].0 += 1;
        totals[i].1 += first.stats.mid_calls;
        totals[i].2 += second.stats.mid_calls;
        totals[i].3 += t.decided_expansions;
    }
    for (name, (n, m1, m2, decided)) in ["draws", "losses"].iter().zip(totals) {
        println!(
            "{} {name}: {n} lines; first search {m1} MID calls, second {m2}, of them below a position the first had proven won for the side to move: {decided} ({:.1}% of the second, {:.1}% of both)",
            args.set,
            100.0 * decided as f64 / m2.max(1) as f64,
            100.0 * decided as f64 / (m1 + m2).max(1) as f64
        );
    }
}

/// One set's figures: mean and median time, MID calls, the second search's share for draws
/// and losses, Pons' time where measured, and the worst lines.
fn pons_set_summary(set: &str, pons_s: Option<f64>, results: &[PonsLine], verbose: bool) {
    for r in results {
        if verbose || r.wrong() || r.value.is_err() {
            println!(
                "{} {:<10} {:<14} {:>4} {:<7} first {:>10} MID {:>9.4} s second {:>10} MID {:>9.4} s",
                if r.wrong() {
                    "WRONG"
                } else if r.value.is_err() {
                    "UNKNOWN"
                } else {
                    "ok"
                },
                r.id,
                r.moves,
                r.score,
                r.answer(),
                r.first_mid,
                baseline::median(&r.first_s),
                r.second_mid,
                baseline::median(&r.second_s)
            );
        }
    }
    let n = results.len().max(1) as f64;
    let secs: Vec<f64> = results.iter().map(PonsLine::seconds).collect();
    let mean_s = secs.iter().sum::<f64>() / n;
    let mids: Vec<f64> = results.iter().map(|r| r.mid_calls() as f64).collect();
    let wrong = results.iter().filter(|r| r.wrong()).count();
    println!(
        "{set}: {} lines, {wrong} wrong; mean {:.3} ms, median {:.3} ms per line; mean {:.0} MID calls (median {:.0}); Pons weak {}",
        results.len(),
        1e3 * mean_s,
        1e3 * baseline::median(&secs),
        mids.iter().sum::<f64>() / n,
        baseline::median(&mids),
        pons_s.map_or("not measured".to_string(), |p| format!(
            "{:.3} ms: ratio {:.2}",
            1e3 * p,
            mean_s / p
        ))
    );
    for (what, value) in [
        ("wins", Value::Win),
        ("draws", Value::Draw),
        ("losses", Value::Loss),
    ] {
        let of: Vec<&PonsLine> = results.iter().filter(|r| r.value == Ok(value)).collect();
        if of.is_empty() {
            continue;
        }
        let k = of.len() as f64;
        let t1: f64 = of.iter().map(|r| baseline::median(&r.first_s)).sum();
        let t2: f64 = of.iter().map(|r| baseline::median(&r.second_s)).sum();
        let m1: u64 = of.iter().map(|r| r.first_mid).sum();
        let m2: u64 = of.iter().map(|r| r.second_mid).sum();
        println!(
            "  {what:<6} {:>4}: mean {:.3} ms ({:.3} first search + {:.3} second), {:.0} MID calls ({:.0} + {:.0}); second search {:.0}% of the MID calls{}",
            of.len(),
            1e3 * (t1 + t2) / k,
            1e3 * t1 / k,
            1e3 * t2 / k,
            (m1 + m2) as f64 / k,
            m1 as f64 / k,
            m2 as f64 / k,
            100.0 * m2 as f64 / (m1 + m2).max(1) as f64,
            pons_s.map_or(String::new(), |p| format!(
                ", {:.2}× Pons' mean",
                (t1 + t2) / k / p
            ))
        );
    }
    let mut worst: Vec<&PonsLine> = results.iter().collect();
    worst.sort_by_key(|r| std::cmp::Reverse(r.mid_calls()));
    println!("  worst lines by MID calls:");
    for r in worst.iter().take(5) {
        println!(
            "    {:<10} {:<14} {:>4} {:<5} {:>10} MID ({:>10} + {:>10}) {:>9.3} s",
            r.id,
            r.moves,
            r.score,
            r.answer(),
            r.mid_calls(),
            r.first_mid,
            r.second_mid,
            r.seconds()
        );
    }
}

fn main() {
    match Cli::parse() {
        Cli::Generate {
            stones,
            count,
            seed,
        } => generate(stones, count, seed),
        Cli::Run {
            file,
            table_mib,
            cap_s,
            rules,
            value_only,
            weak_delta,
            reference,
        } => {
            let ok = if reference {
                run_reference(&file)
            } else {
                let options = RunOptions {
                    value_only,
                    weak_delta,
                };
                run_rules(&rules, &file, table_mib, cap_s, options)
            };
            if !ok {
                std::process::exit(1);
            }
        }
        Cli::Reuse(args) => run_reuse(&args),
        Cli::Pons {
            dir,
            lines,
            sets,
            table_mib,
            cap_s,
            runs,
            baseline,
            write_baseline,
            verbose,
            orders,
        } => {
            let ok = run_pons(
                &dir,
                &lines,
                &sets,
                table_mib,
                cap_s,
                runs,
                baseline.as_deref(),
                write_baseline.as_deref(),
                verbose,
                orders,
            );
            if !ok {
                std::process::exit(1);
            }
        }
    }
}
