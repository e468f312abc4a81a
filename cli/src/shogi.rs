//! `proofnum shogi "<SFEN>"`: is this tsume-shogi problem a mate, and how long is it?
//!
//! Tsume has its own report: the board (a KIF diagram) and its SFEN, the question (Black, to
//! move, checks at every move; White answers with every legal move, drops included), the
//! answer, the length in plies by the composers' conventions (`proofnum_games::shogi::mate`:
//! the shortest mate against the longest defence, futile interpositions not counted) with
//! whether it is exact or an upper bound, and the mating line in USI and in the Japanese
//! notation of KIF records (`▲５二金打 △同　玉(51)`). Exit codes as for the other games: 0
//! answered, 1 stopped by a limit, 2 bad input.

use std::process::ExitCode;
use std::time::Duration;

use proofnum::Status;
use proofnum_games::shogi::Tsume;
use proofnum_games::shogi::mate::{Exactness, MateConfig, solve_tsume_with};
use proofnum_games::shogi::notation::piece_name;

use crate::report::{CertificateFile, confirmation, count};
use crate::solve::{Engine, Options, check_allocatable, mib_to_bytes};
use crate::{out, outln};

/// Exit code when a limit stopped the search before it answered.
const EXIT_LIMIT: u8 = 1;

/// Runs `proofnum shogi`: prints the report and returns the exit code; `Err` for bad input.
pub fn run(position: &str, options: &Options) -> Result<ExitCode, String> {
    if options.verify
        || options.threads.is_some()
        || options.engine != Engine::Dfpn
        || options.attacker.is_some()
    {
        return Err(
            "shogi runs df-pn and its own mate-length searches with Black as the attacker: \
             --verify, --threads, --engine and --attacker are not available for it"
                .into(),
        );
    }
    if position.trim().is_empty() {
        return Err(
            "shogi needs a tsume position as SFEN, e.g. \"4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\""
                .into(),
        );
    }
    let mut tsume = Tsume::from_sfen(position).map_err(|e| e.to_string())?;
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

    outln!("Tsume-shogi, Black (the attacker) to move:");
    out!("{}", tsume.diagram());
    outln!("SFEN: {}", tsume.sfen());
    let missing: Vec<String> = tsume
        .remaining_pieces()
        .iter()
        .zip(proofnum_games::shogi::HAND_PIECES)
        .filter(|&(&n, _)| n > 0)
        .map(|(&n, piece)| format!("{n} {}", piece_name(piece)))
        .collect();
    if !missing.is_empty() {
        outln!(
            "note: pieces neither on the board nor in a hand ({}): White's hand is limited to \
             what the SFEN gives it",
            missing.join(", ")
        );
    }
    outln!(
        "question: can Black mate giving check at every move? (White answers with every legal \
         move; mate by a pawn drop is illegal; a repetition fails for Black)"
    );

    let mut file = match &options.certificate {
        Some(path) => Some(CertificateFile::create(path)?),
        None => None,
    };
    let report = solve_tsume_with(
        &mut tsume,
        &config,
        file.as_mut().map(CertificateFile::sink),
    );
    let code = match report.status {
        Status::Proven => {
            match (report.plies(), report.exactness) {
                (Some(1), Exactness::Exact) => outln!("answer: yes, mate in 1 ply (1手詰, exact)"),
                (Some(n), Exactness::Exact) => outln!(
                    "answer: yes, mate in {n} plies ({n}手詰; exact: no mate within {} plies by \
                     the composers' conventions, futile interpositions not counted)",
                    n - 2
                ),
                (Some(n), how) => outln!("answer: yes, mate in at most {n} plies ({how})"),
                (None, how) => outln!("answer: yes, a mate ({how})"),
            }
            if !report.line.is_empty() {
                let kind = if report.line_is_optimal {
                    "a longest defence against a shortest mate"
                } else {
                    "a mating line of the proof, not necessarily the longest defence"
                };
                let plies = report.line.len();
                outln!(
                    "line ({kind}, {plies} pl{}):",
                    if plies == 1 { "y" } else { "ies" }
                );
                outln!("  {}", tsume.japanese_line(&report.line));
                outln!("  usi: {}", tsume.usi_line(&report.line));
            }
            ExitCode::SUCCESS
        }
        Status::Disproven => {
            outln!("answer: no, Black cannot mate by continuous checks (不詰)");
            ExitCode::SUCCESS
        }
        Status::Unknown(reason) => {
            outln!("answer: unknown ({reason})");
            ExitCode::from(EXIT_LIMIT)
        }
    };
    let seconds = report.elapsed.as_secs_f64();
    outln!(
        "MID calls: {} (proof {})   positions: {}   time: {seconds:.3} s (proof {:.3} s)",
        count(report.stats.mid_calls),
        count(report.proof_stats.mid_calls),
        count(report.stats.nodes),
        report.proof_elapsed.as_secs_f64(),
    );
    confirmation(&report.stats);
    if let Some(file) = file
        && !file.finish(report.certificate_records)?
    {
        return Ok(ExitCode::from(EXIT_LIMIT));
    }
    let memo = if config.confirm {
        config.table_bytes / 4
    } else {
        0
    };
    outln!(
        "memory: table {} bytes + confirmation memo {} bytes",
        count(config.table_bytes as u64),
        count(memo as u64)
    );
    Ok(code)
}
