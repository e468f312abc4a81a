//! Tsume-shogi suites: run proofnum on every problem of a collection and check every answer.
//!
//! ```sh
//! # The Open Tsume collection (160 problems of Shogi Zuko and Shogi Muso): proof, exact
//! # length, a line replayed on a second move generator; one row a problem, totals at the end
//! cargo run --release -p proofnum-tools --bin tsumesuite -- run games/suites/tsume-open.jsonl --cap 60
//! # Only some problems, and the mating lines for the external referee (scripts/)
//! cargo run --release -p proofnum-tools --bin tsumesuite -- run games/suites/tsume-open.jsonl \
//!     --ids zukou-001,musou-001 --lines /tmp/lines.tsv
//! # The proof alone (no length), one row per problem as tab-separated values, for the
//! # side-by-side benchmark against cshogi's df-pn (scripts/tsume_bench.py)
//! cargo run --release -p proofnum-tools --bin tsumesuite -- prove games/suites/tsume-open.jsonl --cap 60
//! # Is there a mate within N Black moves (2N - 1 plies, futile interpositions not counted)?
//! # MateWithin(N) of proofnum_games::shogi::mate, for one length of one problem
//! cargo run --release -p proofnum-tools --bin tsumesuite -- within games/suites/tsume-open.jsonl \
//!     --ids musou-071 --moves 6
//! # Where a record too short for its problem misses a longer defence (the record's line
//! # walked with MateWithin; see explain.rs)
//! cargo run --release -p proofnum-tools --bin tsumesuite -- explain games/suites/tsume-open.jsonl \
//!     --ids musou-004 --cap 60
//! ```
//!
//! Each problem ends in one verdict:
//! - **solved**: proven, and the mating line proofnum reports replays on rsshogi's board (an
//!   independent move generator): every Black move a legal check, every White move legal,
//!   checkmate at the end.
//! - **wrong**: proven, but the line does not replay so.
//! - **disputed**: "no mate" where the collection records a mate. A recorded line is one
//!   line, not a proof, so this is not a refutation either way; it fails the run until someone
//!   has looked, except for the problems the dataset itself flags as suspected misprints of
//!   the position ([`SUSPECTED_MISPRINTS`]), where "no mate" is a right answer.
//! - **unknown**: a limit stopped the proof.
//!
//! The length column compares proofnum's length (plies, by the conventions of
//! `proofnum_games::shogi::mate`) with the record: `=`, `<` (a shorter mate than the record's,
//! which the proof settles), `>`, and `≤N` when only an upper bound was shown. The exit code
//! is 1 when any problem is wrong or disputed.
//!
//! Certificates: with `--certificates DIR`, every answer's proof (or disproof) is written to
//! `DIR/<id>.cert` (`proofnum::certificate`, walked in tsume-shogi with its rules and hand
//! dominance alone, `Knowledge::CERTIFICATE`) and
//! checked at once by `proofnum-check`, which shares no code with the search: the row's
//! verdict says `certified` when the check accepts it, and a rejected certificate fails the
//! run like a wrong answer.

mod explain;
mod replay;

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use proofnum::certificate::Sink;
use proofnum::{Dfpn, DfpnConfig, Game, Player, SearchResult, Status, Table};
use proofnum_games::shogi::mate::{
    Exactness, MateConfig, MateMemory, MateWithin, TsumeReport, solve_tsume_in_with,
};
use proofnum_games::shogi::{Knowledge, MAX_MOVES, Tsume};

/// Problems the Open Tsume dataset flags as suspected misprints of the position: "no mate" is
/// a right answer for them (a strong solver finds no mate in two of the three).
const SUSPECTED_MISPRINTS: [&str; 3] = ["musou-037", "musou-073", "musou-088"];

/// Tsume-shogi suites checked problem by problem.
#[derive(Parser)]
#[command(name = "tsumesuite")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Proves every problem, finds its length, replays its line; exits 1 on any wrong or
    /// disputed answer.
    Run {
        /// The suite (JSON lines with id, sfen, moves, solution_usi).
        file: String,
        #[command(flatten)]
        common: Common,
        /// Seconds per problem for the length search after the proof (the proof has `--cap`);
        /// 0: no length search (the proof's line is still replayed and written).
        #[arg(long = "length-cap", default_value_t = 60.0)]
        length_cap_s: f64,
        /// Write `id, sfen, line` (tab-separated, USI) of every proven problem here, for the
        /// external referee.
        #[arg(long)]
        lines: Option<String>,
        /// Write a certificate per answer here (`<id>.cert`), each checked by `proofnum-check`.
        #[arg(long)]
        certificates: Option<String>,
    },
    /// df-pn's proof alone, one tab-separated row per problem (id, status, seconds, MID
    /// calls, positions, deepest ply), for side-by-side benchmarks.
    Prove {
        /// The suite (JSON lines).
        file: String,
        #[command(flatten)]
        common: Common,
    },
    /// Whether Black mates within `--moves` moves (`MateWithin`: 2N - 1 plies by the
    /// composers' conventions, futile interpositions not counted), one tab-separated row per
    /// problem (id, moves, status, seconds, MID calls, positions, confirmation: the answer's
    /// walk after the clock, within another `--cap`). Proven: a mate that short exists;
    /// disproven: none does (so a line claiming one misses a defence).
    Within {
        /// The suite (JSON lines).
        file: String,
        #[command(flatten)]
        common: Common,
        /// Black's counted moves.
        #[arg(long)]
        moves: u32,
    },
    /// Where a record's main line misses a longer defence: for each problem with no mate
    /// within its recorded length, the first White position of the record whose recorded reply
    /// is not its longest, and the replies that outlast the record there (their kind and
    /// length). `--cap` bounds each of the walk's searches; a problem it cannot explain is
    /// reported on standard error and makes the exit code 1.
    Explain {
        /// The suite (JSON lines with id, sfen, moves, solution_usi).
        file: String,
        #[command(flatten)]
        common: Common,
        /// Write each longer defence here as a tab-separated row (id, ply, reply, SFEN after
        /// it, plies the record has left, plies the mate takes, mating line or `-`), for
        /// `scripts/tsume_explain_check.py`.
        #[arg(long)]
        defences: Option<String>,
    },
}

#[derive(clap::Args)]
struct Common {
    /// Seconds per problem for the proof (`within` gives its confirmation walk as long again).
    #[arg(long = "cap", default_value_t = 60.0)]
    cap_s: f64,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = 1024)]
    table_mib: usize,
    /// Only the problems with these ids (comma-separated; all when absent).
    #[arg(long, value_delimiter = ',')]
    ids: Vec<String>,
    /// Only the problems recorded at most this many plies long.
    #[arg(long, default_value_t = u32::MAX)]
    max_plies: u32,
    /// Switch a piece of knowledge off (repeatable): mate-in-one, order, estimate, dominance, defer-drops, proof-pieces.
    #[arg(long, value_parser = knowledge_rule)]
    without: Vec<Knowledge>,
    /// Keep unsolved numbers per path (`DfpnConfig::share_unsolved` off).
    #[arg(long)]
    path_keyed_unsolved: bool,
}

/// A knowledge rule by its name.
fn knowledge_rule(name: &str) -> Result<Knowledge, String> {
    Knowledge::EACH
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, k)| k)
        .ok_or_else(|| {
            let names: Vec<&str> = Knowledge::EACH.iter().map(|(n, _)| *n).collect();
            format!("expected one of {}", names.join(", "))
        })
}

impl Common {
    /// df-pn's settings these options ask for (the proof of `run` and `prove` alike).
    fn dfpn(&self) -> DfpnConfig {
        DfpnConfig {
            share_unsolved: !self.path_keyed_unsolved,
            ..DfpnConfig::default()
        }
    }

    /// A problem's position with the knowledge these options leave on.
    fn tsume(&self, problem: &Problem) -> Result<Tsume, String> {
        let tsume = Tsume::from_sfen(&problem.sfen).map_err(|e| format!("{}: {e}", problem.id))?;
        let knowledge = self
            .without
            .iter()
            .fold(Knowledge::ALL, |k, &w| k.without(w));
        Ok(tsume.with_knowledge(knowledge))
    }
}

/// One problem of a suite.
struct Problem {
    id: String,
    sfen: String,
    /// The recorded length, plies.
    plies: u32,
    /// The recorded main line, USI.
    solution: Vec<String>,
}

/// The value of `"key": ...` in a flat JSON object line (a string without escapes, or a
/// number).
fn json_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pattern = format!("\"{key}\":");
    let start = line.find(&pattern)? + pattern.len();
    let rest = line[start..].trim_start();
    if let Some(text) = rest.strip_prefix('"') {
        return Some(&text[..text.find('"')?]);
    }
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn read_suite(path: &str, common: &Common) -> Result<Vec<Problem>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut problems = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let field =
            |key| json_field(line, key).ok_or_else(|| format!("{path}:{}: no \"{key}\"", n + 1));
        let problem = Problem {
            id: field("id")?.to_string(),
            sfen: field("sfen")?.to_string(),
            plies: field("moves")?
                .parse()
                .map_err(|_| format!("{path}:{}: \"moves\" is not a number", n + 1))?,
            solution: field("solution_usi")?
                .split_whitespace()
                .map(String::from)
                .collect(),
        };
        if (common.ids.is_empty() || common.ids.contains(&problem.id))
            && problem.plies <= common.max_plies
        {
            problems.push(problem);
        }
    }
    Ok(problems)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            file,
            common,
            length_cap_s,
            lines,
            certificates,
        } => run(&file, &common, length_cap_s, lines, certificates),
        Command::Prove { file, common } => prove(&file, &common),
        Command::Within {
            file,
            common,
            moves,
        } => within(&file, &common, moves),
        Command::Explain {
            file,
            common,
            defences,
        } => explain_all(&file, &common, defences),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The verdict of one problem.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Solved,
    Wrong,
    Disputed,
    Unknown,
}

fn run(
    file: &str,
    common: &Common,
    length_cap_s: f64,
    lines: Option<String>,
    certificates: Option<String>,
) -> Result<ExitCode, String> {
    let problems = read_suite(file, common)?;
    if let Some(dir) = &certificates {
        std::fs::create_dir_all(dir).map_err(|e| format!("--certificates {dir}: {e}"))?;
    }
    let (mut certified, mut rejected) = (0, 0);
    let mut lines_out = create_file(lines.as_deref())?;
    println!(
        "{:<10} {:>6} {:>9} {:>11} {:>5} {:>8} {:>8} {:>12} {:>12} {:>6}  verdict",
        "problem",
        "record",
        "answer",
        "length",
        "vs",
        "proof s",
        "total s",
        "proof MID",
        "MID calls",
        "depth"
    );
    let (mut solved, mut wrong, mut disputed, mut unknown) = (0, 0, 0, 0);
    let (mut equal, mut shorter, mut longer, mut bounded) = (0, 0, 0, 0);
    let (mut proof_seconds, mut total_seconds) = (0.0, 0.0);
    // One memory for every problem, made (and prefaulted) before the first clock starts, as
    // `prove` makes its table.
    let mut memory: Option<MateMemory> = None;
    for problem in &problems {
        let mut tsume = common.tsume(problem)?;
        let config = MateConfig {
            table_bytes: common.table_mib << 20,
            max_proof_time: Some(Duration::from_secs_f64(common.cap_s)),
            max_length_time: Some(Duration::from_secs_f64(length_cap_s)),
            exact: length_cap_s > 0.0,
            dfpn: common.dfpn(),
            ..MateConfig::default()
        };
        let cert_path = certificates
            .as_ref()
            .map(|dir| std::path::Path::new(dir).join(format!("{}.cert", problem.id)));
        let mut bytes = cert_path.as_ref().map(|_| Vec::<u8>::new());
        let memory = memory.get_or_insert_with(|| {
            let mut memory = MateMemory::tsume(&config);
            memory.prefault();
            memory
        });
        let report = solve_tsume_in_with(
            memory,
            &mut tsume,
            &config,
            bytes.as_mut().map(|b| b as &mut dyn Sink),
        );
        let (mut verdict, answer, mut note) = judge(problem, &tsume, &report);
        if let (Some(path), Some(bytes), Some(_)) = (&cert_path, bytes, report.certificate_records)
        {
            // Written, then checked against the rules (and hand dominance) by the independent
            // checker.
            std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut rules_only = tsume.clone().with_knowledge(Knowledge::CERTIFICATE);
            let checked = proofnum_check::read(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|c| {
                    proofnum_check::check(&mut rules_only, "shogi", &c, &Default::default())
                        .map_err(|e| e.to_string())
                });
            match checked {
                Ok(r) => {
                    certified += 1;
                    note.push_str(&format!(
                        " (certified: {} records, {} bytes)",
                        r.records,
                        bytes.len()
                    ));
                }
                Err(e) => {
                    rejected += 1;
                    verdict = Verdict::Wrong;
                    note.push_str(&format!(" (certificate REJECTED: {e})"));
                }
            }
        }
        let (length, versus) = match (report.plies(), report.exactness) {
            (Some(n), Exactness::Exact) => {
                let vs = match n.cmp(&problem.plies) {
                    std::cmp::Ordering::Equal => {
                        equal += 1;
                        "="
                    }
                    std::cmp::Ordering::Less => {
                        shorter += 1;
                        "<"
                    }
                    std::cmp::Ordering::Greater => {
                        longer += 1;
                        ">"
                    }
                };
                (n.to_string(), vs)
            }
            (Some(n), _) => {
                bounded += 1;
                (format!("≤{n}"), "?")
            }
            (None, _) => ("-".to_string(), ""),
        };
        match verdict {
            Verdict::Solved => solved += 1,
            Verdict::Wrong => wrong += 1,
            Verdict::Disputed => disputed += 1,
            Verdict::Unknown => unknown += 1,
        }
        let proof_s = report.proof_elapsed.as_secs_f64();
        let total_s = report.elapsed.as_secs_f64();
        proof_seconds += proof_s;
        total_seconds += total_s;
        println!(
            "{:<10} {:>6} {:>9} {:>11} {:>5} {:>8.2} {:>8.2} {:>12} {:>12} {:>6}  {}{}",
            problem.id,
            problem.plies,
            answer,
            length,
            versus,
            proof_s,
            total_s,
            report.proof_stats.mid_calls,
            report.stats.mid_calls,
            report.proof_stats.max_depth,
            match verdict {
                Verdict::Solved => "solved",
                Verdict::Wrong => "WRONG",
                Verdict::Disputed => "DISPUTED",
                Verdict::Unknown => "unknown",
            },
            note
        );
        if let (Some(out), Status::Proven) = (&mut lines_out, report.status) {
            writeln!(
                out,
                "{}\t{}\t{}",
                problem.id,
                problem.sfen,
                tsume.usi_line(&report.line)
            )
            .map_err(|e| e.to_string())?;
        }
        let _ = std::io::stdout().flush();
    }
    println!(
        "{} problems: {solved} solved, {wrong} wrong, {disputed} disputed, {unknown} unknown; \
         lengths: {equal} equal to the record, {shorter} shorter, {longer} longer, {bounded} \
         bounds only; proof time {proof_seconds:.1} s, total {total_seconds:.1} s",
        problems.len()
    );
    if certificates.is_some() {
        println!("certificates: {certified} written and checked, {rejected} rejected");
    }
    Ok(if wrong + disputed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Judges a report: the verdict, the answer's word, and a note.
fn judge(
    problem: &Problem,
    tsume: &Tsume,
    report: &TsumeReport,
) -> (Verdict, &'static str, String) {
    match report.status {
        Status::Proven => {
            let line: Vec<String> = report.line.iter().map(|&mv| tsume.usi(mv)).collect();
            match replay::replay(&problem.sfen, &line) {
                Ok(_) => (Verdict::Solved, "mate", String::new()),
                Err(e) => (Verdict::Wrong, "mate", format!(" (line: {e})")),
            }
        }
        Status::Disproven if SUSPECTED_MISPRINTS.contains(&problem.id.as_str()) => (
            Verdict::Solved,
            "no mate",
            " (a suspected misprint: no mate as transcribed)".into(),
        ),
        Status::Disproven => {
            let record = match replay::replay(&problem.sfen, &problem.solution) {
                Ok(_) => "the record's line replays to mate",
                Err(_) => "the record's line does not replay",
            };
            (Verdict::Disputed, "no mate", format!(" ({record})"))
        }
        Status::Unknown(reason) => (Verdict::Unknown, "unknown", format!(" ({reason})")),
    }
}

/// `prove`: the proof alone, tab-separated rows.
fn prove(file: &str, common: &Common) -> Result<ExitCode, String> {
    println!("id\tstatus\tseconds\tmid_calls\tpositions\tdepth");
    each_problem(
        file,
        common,
        false,
        |problem| common.tsume(problem),
        |problem, result, row| println!("{}\t{row}\t{}", problem.id, result.stats.max_depth),
    )
}

/// The deepest line the suite runners' df-pn searches (zukou-100 is 611 plies; the length
/// game's futile captures add plies).
const MAX_PLIES: usize = 4000;

/// The file at `path` created for writing, when a path is given.
fn create_file(path: Option<&str>) -> Result<Option<std::fs::File>, String> {
    path.map(|path| std::fs::File::create(path).map_err(|e| format!("{path}: {e}")))
        .transpose()
}

/// `explain`: [`explain::explain`] for every problem, in one table memory and one df-pn.
fn explain_all(file: &str, common: &Common, defences: Option<String>) -> Result<ExitCode, String> {
    let mut out = create_file(defences.as_deref())?;
    let mut table_bytes = proofnum_tools::timed_table_memory(common.table_mib << 20);
    let mut stack = vec![0u8; Dfpn::<MateWithin>::stack_bytes(MAX_PLIES, MAX_MOVES)];
    let mut dfpn = Dfpn::<MateWithin>::new(&mut stack, MAX_PLIES, MAX_MOVES, common.dfpn())
        .map_err(|e| format!("{e:?}"))?;
    // A problem the walk cannot explain (a record's move that is not legal, searches that
    // disagree) is reported and the others still run; the exit code says so.
    let mut failed = 0;
    for problem in &read_suite(file, common)? {
        let result = explain::explain(problem, common, &mut dfpn, &mut table_bytes, out.as_mut());
        if let Err(e) = result {
            eprintln!("error: {e}");
            failed += 1;
        }
        let _ = std::io::stdout().flush();
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `within`: `MateWithin(moves)` for every problem, tab-separated rows.
fn within(file: &str, common: &Common, moves: u32) -> Result<ExitCode, String> {
    if moves == 0 {
        return Err("--moves: at least 1 (Black moves first)".into());
    }
    println!("id\tmoves\tstatus\tseconds\tmid_calls\tpositions\tconfirmation");
    each_problem(
        file,
        common,
        true,
        |problem| Ok(MateWithin::new(common.tsume(problem)?, moves)),
        |problem, _, row| println!("{}\t{moves}\t{row}", problem.id),
    )
}

/// The confirmation column of [`each_problem`]: `status`'s walk from `position`.
fn walk<G: Game>(
    dfpn: &mut Dfpn<'_, G>,
    position: &mut G,
    status: Status,
    table: &mut Table<'_>,
    common: &Common,
) -> String {
    if !matches!(status, Status::Proven | Status::Disproven) {
        return "-".into();
    }
    let mut memo = vec![0u64; CONFIRM_MEMO_WORDS];
    let start = std::time::Instant::now();
    let v = proofnum_tools::capped(common.cap_s, |limits| {
        dfpn.verify(position, Player::First, status, table, &mut memo, limits)
    });
    match v.verdict {
        proofnum::Verdict::Verified => format!(
            "confirmed ({} positions, {:.1} s)",
            v.stats.nodes + v.stats.search_nodes,
            start.elapsed().as_secs_f64()
        ),
        proofnum::Verdict::Refuted => "REFUTED".into(),
        proofnum::Verdict::Unknown(reason) => format!("unconfirmed ({reason})"),
    }
}

/// Scratch memory for a confirmation walk's verified positions (`Dfpn::verify`), in words:
/// 64 MiB, enough that a walk of millions of positions seldom walks one twice.
const CONFIRM_MEMO_WORDS: usize = 1 << 23;

/// df-pn on the game `game` makes of every problem of the suite, each in a fresh table and
/// within `--cap`; `print` gets the result and the row's common fields (status, seconds, MID
/// calls, positions; tab-separated), and with `confirm` a last one: the answer's walk after
/// the clock stops (`Dfpn::verify`, within another `--cap`): `confirmed (N positions, T s)`,
/// `REFUTED`, or why it stopped.
fn each_problem<G: Game>(
    file: &str,
    common: &Common,
    confirm: bool,
    game: impl Fn(&Problem) -> Result<G, String>,
    print: impl Fn(&Problem, &SearchResult<G::Move>, &str),
) -> Result<ExitCode, String> {
    let problems = read_suite(file, common)?;
    let mut table_bytes = proofnum_tools::timed_table_memory(common.table_mib << 20);
    let mut stack = vec![0u8; Dfpn::<G>::stack_bytes(MAX_PLIES, MAX_MOVES)];
    let mut dfpn = Dfpn::<G>::new(&mut stack, MAX_PLIES, MAX_MOVES, common.dfpn())
        .map_err(|e| format!("{e:?}"))?;
    for problem in &problems {
        let mut position = game(problem)?;
        let mut table = Table::new(&mut table_bytes).map_err(|e| format!("{e:?}"))?;
        let start = std::time::Instant::now();
        let result = proofnum_tools::capped(common.cap_s, |limits| {
            dfpn.solve(&mut position, Player::First, &mut table, limits)
        });
        let seconds = start.elapsed().as_secs_f64();
        let status = match result.status {
            Status::Proven => "proven".to_string(),
            Status::Disproven => "disproven".to_string(),
            Status::Unknown(reason) => format!("unknown ({reason})"),
        };
        let mut row = format!(
            "{status}\t{seconds:.6}\t{}\t{}",
            result.stats.mid_calls, result.stats.nodes
        );
        if confirm {
            row.push('\t');
            row.push_str(&walk(
                &mut dfpn,
                &mut position,
                result.status,
                &mut table,
                common,
            ));
        }
        print(problem, &result, &row);
        let _ = std::io::stdout().flush();
    }
    Ok(ExitCode::SUCCESS)
}
