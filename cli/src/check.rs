//! `proofnum check GAME POSITION FILE`: a certificate checked by `proofnum-check`, which
//! replays it against the game's rules and shares no code with the search.
//!
//! Prints what the certificate claims and whether it holds: valid, with the positions judged;
//! or invalid, with the first faulty position (the moves leading to it, in the game's
//! notation) and what is wrong there.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use proofnum::{Game, MoveList, Player};
use proofnum_check::{Certificate, CheckError, Limits, check, read};

use crate::games::{Bundled, WithGame};
use crate::outln;
use crate::report::{EXIT_REFUTED, EXIT_UNKNOWN, count};

/// Exit code of a certificate that does not hold (the same as a refuted proof check).
pub const EXIT_INVALID: u8 = EXIT_REFUTED;

/// Reads the certificate at `path`; an unreadable file is an `Err` (bad input), a file that is
/// no certificate is reported as invalid.
pub fn load(path: &Path) -> Result<Result<Certificate, String>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(read(&bytes).map_err(|e| e.to_string()))
}

/// Checks a certificate against a bundled game's position, for
/// [`with_game`](crate::games::with_game).
pub struct CheckCertificate<'a> {
    /// The certificate, or why its bytes are none.
    pub certificate: &'a Result<Certificate, String>,
    /// Where it was read from, for the report.
    pub path: &'a Path,
    /// Stop after judging this many positions.
    pub max_positions: u64,
}

impl WithGame for CheckCertificate<'_> {
    type Output = Result<ExitCode, String>;

    fn run<G: Bundled>(self, position: &str) -> Self::Output {
        let game = G::parse(position).map_err(|e| format!("{} position: {e}", G::title()))?;
        // The rules alone, as the certificate was written.
        let mut rules = game.rules_only();
        Ok(report(&mut rules, G::NAME, self, &G::name, &G::show_move))
    }
}

/// Checks and prints; returns the exit code. `name` and `show` write players and moves.
pub fn report<G: Game>(
    game: &mut G,
    game_name: &str,
    c: CheckCertificate<'_>,
    name: &dyn Fn(Player) -> &'static str,
    show: &dyn Fn(G::Move) -> String,
) -> ExitCode {
    let shown = c.path.display();
    let cert = match c.certificate {
        Ok(cert) => cert,
        Err(e) => {
            outln!("certificate {shown}: INVALID: {e}");
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let h = &cert.heading;
    outln!(
        "certificate {shown}: claims that {} can{} force a win ({}, {:?} repetitions)",
        name(h.attacker),
        if h.attacker_wins { "" } else { "not" },
        h.game,
        h.rule
    );
    let start = Instant::now();
    let limits = Limits {
        max_positions: c.max_positions,
        ..Limits::default()
    };
    match check(game, game_name, cert, &limits) {
        Ok(r) => {
            outln!(
                "valid: {} positions judged, {} records, {}, longest line {} plies, {:.3} s",
                count(r.positions),
                count(r.records as u64),
                if r.exact {
                    "positions told apart by exact encodings"
                } else {
                    "no exact encodings: every line followed as in a tree"
                },
                r.depth,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(CheckError::Invalid { line, fault }) => {
            outln!("INVALID: {fault}");
            outln!("  at the position after: {}", moves_of(game, &line, show));
            ExitCode::from(EXIT_INVALID)
        }
        Err(CheckError::Incomplete { positions }) => {
            outln!(
                "unknown: stopped after {} positions (--max-positions)",
                count(positions)
            );
            ExitCode::from(EXIT_UNKNOWN)
        }
        Err(e) => {
            outln!("INVALID: {e}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// The moves that move indices `line` name from `game`'s position, in the game's notation
/// ("the start" for none). The position is restored.
fn moves_of<G: Game>(game: &mut G, line: &[u64], show: &dyn Fn(G::Move) -> String) -> String {
    let mut buffer = vec![G::Move::default(); 4096];
    let mut played = Vec::new();
    let mut shown = Vec::new();
    for &index in line {
        let mut list = MoveList::new(&mut buffer);
        game.generate_moves(&mut list);
        let Some(&mv) = list.as_slice().get(index as usize) else {
            shown.push(format!("(move {index} of {})", list.len()));
            break;
        };
        shown.push(show(mv));
        game.play(mv);
        played.push(mv);
    }
    for mv in played.into_iter().rev() {
        game.undo(mv);
    }
    if shown.is_empty() {
        "the start (the certificate's own position)".to_string()
    } else {
        shown.join(" ")
    }
}
