//! `proofnum chess "<FEN>"`: can a side force checkmate, and in how many moves?
//!
//! Chess has its own report: the board and its FEN, the question (the side to move by default,
//! `--attacker white|black` for either side), the answer as "mates in N" with whether N is
//! exact or an upper bound and why (`proofnum_games::chess::mate`), the mating line in SAN and
//! UCI, and the figures. `--checks-only` restricts the attacker to checking moves (a disproof
//! then only says there is no mate by checks), `--fifty-move` applies the fifty-move rule.

use std::process::ExitCode;
use std::time::Duration;

use proofnum::{Game, Player, Status};
use proofnum_games::chess::mate::{Exactness, MateConfig, solve_mate_with};
use proofnum_games::chess::{Chess, notation};
use proofnum_games::input::quote;

use crate::report::{CertificateFile, confirmation, count};
use crate::solve::{Engine, Options, check_allocatable, mib_to_bytes};
use crate::{out, outln};

/// Exit code when a limit stopped the search before it answered.
const EXIT_LIMIT: u8 = 1;

fn color_name(player: Player) -> &'static str {
    match player {
        Player::First => "White",
        Player::Second => "Black",
    }
}

/// Reads `--attacker` for chess: white, black, first, second (default: the side to move).
fn attacker(options: &Options, to_move: Player) -> Result<Player, String> {
    let Some(name) = &options.attacker else {
        return Ok(to_move);
    };
    match name.to_ascii_lowercase().as_str() {
        "white" | "w" | "first" => Ok(Player::First),
        "black" | "b" | "second" => Ok(Player::Second),
        _ => Err(format!(
            "--attacker {}: expected white or black (or first, second)",
            quote(name)
        )),
    }
}

/// Runs `proofnum chess`: prints the report and returns the exit code; `Err` for bad input.
pub fn run(position: &str, options: &Options) -> Result<ExitCode, String> {
    if options.verify || options.threads.is_some() || options.engine != Engine::Dfpn {
        return Err(
            "chess runs df-pn and its own mate-distance searches: --verify, --threads and \
             --engine are not available for it"
                .into(),
        );
    }
    let mut chess = if position.trim().is_empty() {
        Chess::startpos()
    } else {
        Chess::from_fen(position).map_err(|e| e.to_string())?
    };
    let to_move = chess.side_to_move();
    let attacker = attacker(options, to_move)?;
    chess = chess.with_fifty_move_rule(options.fifty_move);
    if options.checks_only {
        chess = chess.with_checks_only(attacker);
    }

    let table_bytes = mib_to_bytes("--table-mib", options.table_mib)?;
    if options.table_mib == 0 {
        return Err("--table-mib 0: the mate search needs a table of at least 1 MiB".into());
    }
    check_allocatable("--table-mib", table_bytes)?;
    let config = MateConfig {
        table_bytes,
        max_nodes: options.max_nodes.unwrap_or(u64::MAX),
        max_time: options.max_seconds.map(Duration::from_secs_f64),
        dfpn: options.dfpn_config(),
        confirm: !options.no_confirm,
        ..MateConfig::default()
    };
    outln!("Chess, {} to move:", color_name(to_move));
    out!("{}", notation::diagram(chess.board()));
    outln!("FEN: {}", chess.fen());
    let restriction = if options.checks_only {
        " by checks alone (--checks-only)"
    } else {
        ""
    };
    let fifty = if options.fifty_move {
        ", fifty-move rule on"
    } else {
        ""
    };
    outln!(
        "question: can {} force checkmate{restriction}? (repetitions are draws{fifty})",
        color_name(attacker)
    );

    let mut file = match &options.certificate {
        Some(path) => Some(CertificateFile::create(path)?),
        None => None,
    };
    let report = solve_mate_with(
        &mut chess,
        attacker,
        &config,
        file.as_mut().map(CertificateFile::sink),
    );
    let who = color_name(attacker);
    let code = match report.status {
        Status::Proven => {
            let n = report.mate_in;
            let subject = if attacker == to_move {
                format!("{who} mates")
            } else {
                format!("{} to move is mated by {who}", color_name(to_move))
            };
            match (n, report.exactness) {
                (Some(0), _) => {
                    outln!("answer: yes, {} is already checkmated", color_name(to_move))
                }
                (Some(n), Exactness::Exact) => outln!(
                    "answer: yes, {subject} in {n} (exact: no mate within {} move{})",
                    n - 1,
                    if n == 2 { "" } else { "s" }
                ),
                (Some(n), how) => outln!("answer: yes, {subject} in at most {n} ({how})"),
                (None, how) => outln!("answer: yes, {subject} ({how})"),
            }
            if options.checks_only {
                outln!("(a mate by checks; a shorter mate with quiet moves may exist)");
            }
            if report.bounds.len() > 1 {
                let shown: Vec<String> = report
                    .bounds
                    .iter()
                    .map(|(k, t)| format!("{k} at {:.3} s", t.as_secs_f64()))
                    .collect();
                outln!("mates within: {} (proven in turn)", shown.join(", "));
            }
            if !report.line.is_empty() {
                let kind = if report.line_is_optimal {
                    "a longest defence against a shortest mate"
                } else {
                    "a mating line of the proof, not necessarily the longest defence"
                };
                outln!("line ({kind}):");
                outln!("  {}", chess.san_line(&report.line));
                outln!("  uci: {}", chess.uci_line(&report.line));
            }
            ExitCode::SUCCESS
        }
        Status::Disproven => {
            if options.checks_only {
                outln!(
                    "answer: no mate by checks alone: {who} cannot force checkmate giving check \
                     at every move (a mate with quiet moves may still exist; run without \
                     --checks-only)"
                );
            } else {
                outln!("answer: no, {who} cannot force checkmate");
            }
            ExitCode::SUCCESS
        }
        Status::Unknown(reason) => {
            outln!("answer: unknown ({reason})");
            ExitCode::from(EXIT_LIMIT)
        }
    };
    let seconds = report.elapsed.as_secs_f64();
    outln!(
        "MID calls: {} (proof {})   positions: {}   time: {seconds:.3} s   positions/s: {}",
        count(report.stats.mid_calls),
        count(report.proof_stats.mid_calls),
        count(report.stats.nodes),
        count((report.stats.nodes as f64 / seconds.max(1e-9)) as u64),
    );
    confirmation(&report.stats);
    if let Some(file) = file
        && !file.finish(report.certificate_records)?
    {
        return Ok(ExitCode::from(EXIT_LIMIT));
    }
    outln!(
        "memory: table {} bytes + confirmation memo {} bytes",
        count(config.table_bytes as u64),
        count(if config.confirm {
            config.table_bytes as u64 / 4
        } else {
            0
        })
    );
    Ok(code)
}
