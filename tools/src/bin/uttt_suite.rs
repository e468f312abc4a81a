//! Ultimate Tic-Tac-Toe's worst cases: "does the side to move win?" by df-pn on every
//! position of a suite (`games/suites/uttt-selfplay.txt`: 47 positions of 28 to 40 plies from
//! seven public game records), with the answer, the first move, MID calls and the median time
//! per position, the specialist's figures where the baseline has them, and the worst
//! positions; a committed baseline to compare a build with; and a trace of where one
//! position's MID calls go.
//!
//! ```sh
//! # every position, one run each, compared with the committed baseline
//! cargo run --release -p proofnum-tools --bin uttt_suite -- run --baseline benches/baselines/uttt.tsv
//! # the baseline made again (three interleaved rounds for the median times)
//! cargo run --release -p proofnum-tools --bin uttt_suite -- run --runs 3 --write-baseline benches/baselines/uttt.tsv
//! # some positions only (a prefix of their id)
//! cargo run --release -p proofnum-tools --bin uttt_suite -- run --only selfplay-1s:3 --only random2
//! # where one position's MID calls go: per root move, per depth, the visits to root moves;
//! # with --positions also the expansions per distinct position, the proof tree left in the
//! # table, and (the same search run again) the work off the proof by where it left it
//! cargo run --release -p proofnum-tools --bin uttt_suite -- trace selfplay-tt-5s:28 --positions --table-mib 1024
//! ```
//!
//! One thread, a 64 MiB table cleared before each position, all of the game's knowledge, as
//! `bench -- uttt`. MID calls are deterministic; times are informative (medians of `--runs`
//! rounds, each round over every position, so positions interleave). The run asserts nothing;
//! `--baseline` prints which positions need more MID calls than the baseline and by how much,
//! and which answers changed (exit code 1 if any did).

use std::time::Instant;

use clap::Parser;
use proofnum_tools::{baseline, trace};

use baseline::Record;
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Game, Limits, Status};
use proofnum_games::uttt::{Move, Uttt};
use trace::{Traced, TracedTable};

/// The most plies a UTTT game has, and the most moves a position has.
const MAX_PLIES: usize = 81;

#[derive(Parser)]
#[command(name = "uttt_suite")]
enum Cli {
    /// Solves every position (or those selected) and prints its figures.
    Run {
        #[command(flatten)]
        common: Common,
        /// Rounds over the suite; times are the medians.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// Only positions whose id starts with this (repeatable).
        #[arg(long)]
        only: Vec<String>,
        /// Compare with this baseline (and show its peer figures).
        #[arg(long)]
        baseline: Option<String>,
        /// Write the figures as a baseline to this file (peer figures kept from `--baseline`).
        #[arg(long)]
        write_baseline: Option<String>,
    },
    /// Where one position's MID calls go.
    Trace {
        #[command(flatten)]
        common: Common,
        /// The position's id in the suite, or a position in ultimattt's notation.
        position: String,
        /// How many root moves, replies and visits to list.
        #[arg(long, default_value_t = 12)]
        top: usize,
        /// Also count how often each position is expanded (re-searches; memory: about 24
        /// bytes a position).
        #[arg(long)]
        positions: bool,
    },
}

#[derive(clap::Args, Clone)]
struct Common {
    /// The suite: lines `<id> <position>`.
    #[arg(long, default_value = "games/suites/uttt-selfplay.txt")]
    suite: String,
    /// df-pn's table, MiB.
    #[arg(long, default_value_t = 64.0)]
    table_mib: f64,
    /// Seconds per position; a capped position shows as unknown.
    #[arg(long = "cap", default_value_t = 300.0)]
    cap_s: f64,
}

/// The suite's positions as (id, position).
fn read_suite(path: &str) -> Vec<(String, Uttt)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (id, p) = l.split_once(' ').unwrap_or_else(|| {
                eprintln!("{path}: not `<id> <position>`: {l:?}");
                std::process::exit(2)
            });
            let game: Uttt = p.trim().parse().unwrap_or_else(|e| {
                eprintln!("{path}: {id}: {e}");
                std::process::exit(2)
            });
            (id.to_string(), game)
        })
        .collect()
}

/// One solve's figures.
struct Solve {
    answer: &'static str,
    best: Option<Move>,
    mid_calls: u64,
    nodes: u64,
    seconds: f64,
}

/// "Does the side to move win?" from a cleared table.
fn solve_uttt(game: &mut Uttt, memory: &mut [u8], stack: &mut [u8], cap_s: f64) -> Solve {
    let mut table = Table::new(memory).expect("table memory");
    let mut dfpn = Dfpn::<Uttt>::new(stack, MAX_PLIES, MAX_PLIES, DfpnConfig::default())
        .expect("stack memory");
    let start = Instant::now();
    let mut clock = || start.elapsed().as_micros() as u64;
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: (cap_s * 1e6) as u64,
        ..Limits::none()
    };
    let me = game.side_to_move();
    let r = dfpn.solve(game, me, &mut table, &mut limits);
    Solve {
        answer: answer(r.status),
        best: r.best_move,
        mid_calls: r.stats.mid_calls,
        nodes: r.stats.nodes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn answer(status: Status) -> &'static str {
    match status {
        Status::Proven => "win",
        Status::Disproven => "no-win",
        Status::Unknown(_) => "unknown",
    }
}

fn run(common: &Common, runs: usize, only: &[String], base: Option<&str>, out: Option<&str>) {
    let positions: Vec<(String, Uttt)> = read_suite(&common.suite)
        .into_iter()
        .filter(|(id, _)| only.is_empty() || only.iter().any(|o| id.starts_with(o.as_str())))
        .collect();
    let baseline = base.map(baseline::read).unwrap_or_default();
    let mut memory =
        proofnum_tools::timed_table_memory((common.table_mib * (1 << 20) as f64) as usize);
    let mut stack = vec![0u8; Dfpn::<Uttt>::stack_bytes(MAX_PLIES, MAX_PLIES)];
    let load_before = baseline::load_average();
    println!(
        "uttt suite {}: {} positions, df-pn 1+ε (ε = 1/4), table {} MiB, {} round(s), cap {} s, load {}",
        common.suite,
        positions.len(),
        common.table_mib,
        runs,
        common.cap_s,
        load_before
    );
    // Rounds over the whole suite, so that each position's runs are spread over time.
    let mut results: Vec<Vec<Solve>> = (0..positions.len()).map(|_| Vec::new()).collect();
    for round in 0..runs.max(1) {
        for (i, (id, game)) in positions.iter().enumerate() {
            let mut g = game.clone();
            let s = solve_uttt(&mut g, &mut memory, &mut stack, common.cap_s);
            if round == 0 {
                print_line(id, game, &s, &results[i], &baseline);
            }
            if let Some(first) = results[i].first() {
                if first.mid_calls != s.mid_calls {
                    println!(
                        "NOTE {id}: MID calls differ between rounds ({} and {})",
                        first.mid_calls, s.mid_calls
                    );
                }
            }
            results[i].push(s);
        }
    }
    let records: Vec<Record> = positions
        .iter()
        .zip(&results)
        .map(|((id, _), runs)| {
            let (peer_work, peer_ms) = baseline::peer_of(&baseline, id);
            Record {
                id: id.clone(),
                answer: runs[0].answer.to_string(),
                mid_calls: runs[0].mid_calls,
                median_ms: 1e3
                    * baseline::median(&runs.iter().map(|s| s.seconds).collect::<Vec<_>>()),
                peer_work,
                peer_ms,
            }
        })
        .collect();
    summary(&records, runs);
    let load_after = baseline::load_average();
    println!("load after: {load_after}");
    let mut changed = 0;
    if !baseline.is_empty() {
        changed = baseline::compare(&baseline, &records);
    }
    if let Some(path) = out {
        let header = vec![
            format!(
                "uttt_suite run --runs {runs} --table-mib {} (one thread, ε = 1/4, all knowledge); load {load_before} before, {load_after} after",
                common.table_mib
            ),
            "answer: does the side to move win (win / no-win / unknown at the cap)".into(),
            "peer: ultimattt's df-pn (one thread, 64 MiB), MID calls and ms, where measured side by side".into(),
        ];
        std::fs::write(path, baseline::format(&header, &records)).expect("write the baseline");
        println!("baseline written to {path}");
    }
    if changed > 0 {
        std::process::exit(1);
    }
}

fn print_line(id: &str, game: &Uttt, s: &Solve, _: &[Solve], baseline: &[Record]) {
    let (peer_mid, peer_ms) = baseline::peer_of(baseline, id);
    let ratio = peer_mid.map_or("-".to_string(), |p| {
        format!("{:.2}", s.mid_calls as f64 / p as f64)
    });
    println!(
        "{:<20} {} to move {:>7} {:>4} {:>12} MID {:>13} nodes {:>9.3} s  ultimattt {:>10} MID {:>9}  MID ratio {:>5}",
        id,
        if game.side_to_move() == proofnum::Player::First {
            'X'
        } else {
            'O'
        },
        s.answer,
        s.best.map_or("-".to_string(), |m| m.to_string()),
        s.mid_calls,
        s.nodes,
        s.seconds,
        peer_mid.map_or("-".to_string(), |p| p.to_string()),
        peer_ms.map_or("-".to_string(), |t| format!("{:.0} ms", t)),
        ratio
    );
}

/// Totals, medians and the worst positions.
fn summary(records: &[Record], runs: usize) {
    let mids: Vec<f64> = records.iter().map(|r| r.mid_calls as f64).collect();
    let times: Vec<f64> = records.iter().map(|r| r.median_ms).collect();
    let total: u64 = records.iter().map(|r| r.mid_calls).sum();
    let unknown = records.iter().filter(|r| r.answer == "unknown").count();
    println!(
        "summary: {} positions ({} wins, {} no-wins, {unknown} unknown), {total} MID calls, median {:.0} MID calls and {:.1} ms per position (times: medians of {runs} round(s))",
        records.len(),
        records.iter().filter(|r| r.answer == "win").count(),
        records.iter().filter(|r| r.answer == "no-win").count(),
        baseline::median(&mids),
        baseline::median(&times)
    );
    let mut by_mid: Vec<&Record> = records.iter().collect();
    by_mid.sort_by_key(|r| std::cmp::Reverse(r.mid_calls));
    println!("worst by MID calls:");
    for r in by_mid.iter().take(8) {
        println!(
            "  {:<20} {:>7} {:>12} MID {:>10.1} ms",
            r.id, r.answer, r.mid_calls, r.median_ms
        );
    }
    let mut ratios: Vec<(f64, &Record)> = records
        .iter()
        .filter_map(|r| r.peer_work.map(|p| (r.mid_calls as f64 / p as f64, r)))
        .collect();
    if !ratios.is_empty() {
        ratios.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        println!(
            "worst MID-call ratios against ultimattt ({} positions measured):",
            ratios.len()
        );
        for (q, r) in ratios.iter().take(8) {
            let t = r
                .peer_ms
                .map_or("-".into(), |p| format!("{:.2}", r.median_ms / p));
            println!(
                "  {:<20} {:>12} MID against {:>10}: {q:.2}×; time ratio {t}",
                r.id,
                r.mid_calls,
                r.peer_work.unwrap()
            );
        }
    }
}

/// Solves one position with the counting wrappers and prints where the MID calls went.
fn trace_position(common: &Common, position: &str, top: usize, positions: bool) {
    let game: Uttt = match read_suite(&common.suite)
        .into_iter()
        .find(|(id, _)| id == position)
    {
        Some((_, g)) => g,
        None => position.parse().unwrap_or_else(|e| {
            eprintln!(
                "{position:?} is neither an id of {} nor a position: {e}",
                common.suite
            );
            std::process::exit(2)
        }),
    };
    let mut memory =
        proofnum_tools::timed_table_memory((common.table_mib * (1 << 20) as f64) as usize);
    let mut stack = vec![0u8; Dfpn::<Traced<Uttt>>::stack_bytes(MAX_PLIES, MAX_PLIES)];
    let mut traced = Traced::new(game.clone());
    traced.trace.borrow_mut().count_positions = positions;
    let mut table = TracedTable {
        inner: Table::new(&mut memory).expect("table memory"),
        trace: traced.trace.clone(),
    };
    let mut dfpn =
        Dfpn::<Traced<Uttt>>::new(&mut stack, MAX_PLIES, MAX_PLIES, DfpnConfig::default())
            .expect("stack memory");
    let start = Instant::now();
    let mut clock = || start.elapsed().as_micros() as u64;
    let mut limits = Limits {
        clock: Some(&mut clock),
        max_time_us: (common.cap_s * 1e6) as u64,
        ..Limits::none()
    };
    let me = traced.side_to_move();
    let r = dfpn.solve(&mut traced, me, &mut table, &mut limits);
    let mut t = traced.trace.borrow();
    println!(
        "{position}: {} ({:?}), best {:?}, {} MID calls, {:.2} s",
        answer(r.status),
        r.status,
        r.best_move.map(|m| m.to_string()),
        r.stats.mid_calls,
        start.elapsed().as_secs_f64()
    );
    println!("{}", game.diagram());
    let counted: u64 = t.per_depth.iter().sum();
    println!(
        "move generations counted: {counted} (MID calls {}; the difference is entries settled by the game's outcome)",
        r.stats.mid_calls
    );

    // Per root move: MID calls, visits, final numbers in the root's view.
    let finals: Vec<(Move, proofnum::Numbers)> =
        dfpn.root_children().map(|(m, n, _)| (m, n)).collect();
    let mut children: Vec<(Move, u64)> = t.per_child.iter().map(|(m, c)| (*m, *c)).collect();
    children.sort_by_key(|c| std::cmp::Reverse(c.1));
    println!(
        "root moves ({} of {}), MID calls below each, visits, numbers at the end (child's side to move: φ, δ):",
        children.len(),
        finals.len()
    );
    for (m, c) in children.iter().take(top) {
        let visits = t.visits.iter().filter(|v| v.child == *m).count();
        let n = finals.iter().find(|(f, _)| f == m).map(|(_, n)| *n);
        println!(
            "  {m}  {c:>12} MID ({:>5.1}%)  {visits:>6} visits  {:>8.0} MID/visit  final {}",
            100.0 * *c as f64 / counted as f64,
            *c as f64 / visits.max(1) as f64,
            n.map_or("-".into(), fmt_numbers)
        );
    }
    let mut grand: Vec<((Move, Move), u64)> =
        t.per_grandchild.iter().map(|(k, c)| (*k, *c)).collect();
    grand.sort_by_key(|g| std::cmp::Reverse(g.1));
    println!("heaviest replies (root move, reply):");
    for ((a, b), c) in grand.iter().take(top) {
        println!(
            "  {a} {b}  {c:>12} MID ({:>5.1}%)",
            100.0 * *c as f64 / counted as f64
        );
    }
    println!("MID calls per depth below the root:");
    let mut line = String::new();
    for (d, c) in t.per_depth.iter().enumerate() {
        line.push_str(&format!(" {d}:{c}"));
    }
    println!(" {line}");
    println!(
        "deepest line: {}",
        t.deepest_path
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );

    if positions && !matches!(r.status, Status::Unknown(_)) {
        let winner = if r.status == Status::Proven {
            me
        } else {
            me.opponent()
        };
        let mut seen = std::collections::HashSet::new();
        let mut missing = 0;
        let mut g = game.clone();
        proof_tree(
            &mut g,
            &mut table.inner,
            me,
            winner,
            &mut seen,
            &mut missing,
        );
        println!(
            "proof tree in the table: {} positions ({missing} of them not found solved: lost from the table); MID calls per proof position {:.1}",
            seen.len(),
            r.stats.mid_calls as f64 / seen.len().max(1) as f64
        );
        // The same search again (it is deterministic), each expansion counted on the proof or
        // off it by the depth where its path left the proof.
        drop(t);
        let mut again = Traced::new(game.clone());
        again.trace.borrow_mut().proof = seen;
        let mut memory2 =
            proofnum::memory::table_memory((common.table_mib * (1 << 20) as f64) as usize);
        let mut table2 = Table::new(&mut memory2).expect("table memory");
        let mut limits = Limits::none();
        let r2 = dfpn.solve(&mut again, me, &mut table2, &mut limits);
        let a = again.trace.borrow();
        let mut by_depth = String::new();
        for (d, c) in a.off_proof_by_depth.iter().enumerate() {
            if *c > 0 {
                by_depth.push_str(&format!(" {d}:{c}"));
            }
        }
        println!(
            "the same search again ({} MID calls): {} expansions on the proof tree, {} off it; off it by the depth where the path left the proof (a move the proof does not take):{by_depth}",
            r2.stats.mid_calls,
            a.on_proof,
            a.off_proof_by_depth.iter().sum::<u64>()
        );
        let mut branches: Vec<(&Vec<Move>, &u64)> = a.off_proof_by_branch.iter().collect();
        branches.sort_by_key(|(_, c)| std::cmp::Reverse(**c));
        println!("  the heaviest moves off the proof (the moves to where the path left it):");
        for (path, c) in branches.iter().take(top) {
            let moves: Vec<String> = path.iter().map(|m| m.to_string()).collect();
            println!("    {:<24} {c:>12} expansions", moves.join(" "));
        }
        drop(a);
        t = traced.trace.borrow();
    }
    if positions {
        let unique = t.expansions.len() as u64;
        println!(
            "positions expanded: {unique} distinct for {counted} expansions ({:.2} expansions per position)",
            counted as f64 / unique.max(1) as f64
        );
        let mut per_depth = String::new();
        for (d, (all, first)) in t.per_depth.iter().zip(&t.first_expansions).enumerate() {
            per_depth.push_str(&format!(" {d}:{:.1}", *all as f64 / (*first).max(1) as f64));
        }
        println!("  expansions per distinct position, by depth (first seen there):{per_depth}");
        let mut buckets = [(0u64, 0u64); 32];
        for &c in t.expansions.values() {
            let b = (32 - c.leading_zeros()) as usize;
            buckets[b].0 += 1;
            buckets[b].1 += u64::from(c);
        }
        println!("  positions by expansions (2^(k-1) ≤ n < 2^k): positions, expansions");
        for (k, (n, e)) in buckets.iter().enumerate() {
            if *n > 0 {
                println!("    k={k:>2}: {n:>10} positions {e:>12} expansions");
            }
        }
    }

    // The threshold pattern: visits to root children, how long each, how often the root
    // switches.
    let visits = &t.visits;
    let switches = visits
        .windows(2)
        .filter(|w| w[0].child != w[1].child)
        .count();
    let mut buckets = [0u64; 32];
    let mut bucket_mid = [0u64; 32];
    for v in visits {
        let b = (64 - v.mid_calls.leading_zeros()) as usize;
        buckets[b.min(31)] += 1;
        bucket_mid[b.min(31)] += v.mid_calls;
    }
    println!(
        "visits to root moves: {}, switches between moves: {switches}",
        visits.len()
    );
    println!("  visits by MID calls (2^(k-1) ≤ MID < 2^k): count, MID calls in them");
    for k in 0..32 {
        if buckets[k] > 0 {
            println!(
                "    k={k:>2}: {:>7} visits {:>12} MID",
                buckets[k], bucket_mid[k]
            );
        }
    }
    println!(
        "  the largest visits (order, move, MID calls, numbers stored on return in the child's view):"
    );
    let mut order: Vec<usize> = (0..visits.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(visits[i].mid_calls));
    for &i in order.iter().take(top) {
        let v = &visits[i];
        println!(
            "    #{i:<6} {} {:>12} MID  exit {}",
            v.child,
            v.mid_calls,
            v.exit.map_or("-".into(), fmt_numbers)
        );
    }
    println!("  the last visits:");
    for (i, v) in visits
        .iter()
        .enumerate()
        .skip(visits.len().saturating_sub(top))
    {
        println!(
            "    #{i:<6} {} {:>12} MID  exit {}",
            v.child,
            v.mid_calls,
            v.exit.map_or("-".into(), fmt_numbers)
        );
    }
}

/// The proof (or disproof) tree the table holds after a search: from the root, the stored
/// best move where the `winner` (the attacker after a proof, the defender after a disproof)
/// is to move and every move where the other side is; positions the game's own outcome
/// settles are leaves. Fills `seen` with its positions and counts those not found solved.
fn proof_tree<T: proofnum::TranspositionTable>(
    game: &mut Uttt,
    table: &mut T,
    attacker: proofnum::Player,
    winner: proofnum::Player,
    seen: &mut std::collections::HashSet<u64>,
    missing: &mut u64,
) {
    use proofnum::game::{MoveList, Outcome};
    if !seen.insert(game.hash()) {
        return;
    }
    let mover = game.side_to_move();
    match game.outcome() {
        Outcome::Win | Outcome::Loss | Outcome::Draw => return,
        Outcome::CannotWin if mover == attacker => return,
        Outcome::CannotLose if mover != attacker => return,
        _ => {}
    }
    let key = proofnum::position_key(game.hash(), attacker, table.key_salt());
    let Some(entry) = table.probe(key).filter(|e| e.numbers.is_solved()) else {
        *missing += 1;
        return;
    };
    let mut buffer = [Move::default(); MAX_PLIES];
    let mut list = MoveList::new(&mut buffer);
    game.generate_moves(&mut list);
    let n = list.len();
    let moves: Vec<Move> = buffer[..n].to_vec();
    let chosen: Vec<Move> = if mover == winner {
        match entry.best.map(usize::from).filter(|&b| b < n) {
            Some(b) => vec![moves[b]],
            None => {
                *missing += 1;
                return;
            }
        }
    } else {
        moves
    };
    for m in chosen {
        game.play(m);
        proof_tree(game, table, attacker, winner, seen, missing);
        game.undo(m);
    }
}

fn fmt_numbers(n: proofnum::Numbers) -> String {
    let f = |x: u32| {
        if x == proofnum::INFINITE {
            "∞".to_string()
        } else {
            x.to_string()
        }
    };
    format!("({}, {})", f(n.phi), f(n.delta))
}

fn main() {
    match Cli::parse() {
        Cli::Run {
            common,
            runs,
            only,
            baseline,
            write_baseline,
        } => run(
            &common,
            runs,
            &only,
            baseline.as_deref(),
            write_baseline.as_deref(),
        ),
        Cli::Trace {
            common,
            position,
            top,
            positions,
        } => trace_position(&common, &position, top, positions),
    }
}
