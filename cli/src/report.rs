//! What the command line prints: the position, the answer, the best move and the principal
//! variation, each said for what it is, the proof check, and the search's figures. Other
//! binaries (the distributed solver) print their results through the same functions.
//!
//! The best move is the engine's; the principal variation is that move followed by df-pn's
//! walk over the table from the position it leads to, so the line always starts with the best
//! move. What both are depends on the answer:
//! - the side to move wins: the shortest win in the proof found, and that win against the
//!   longest resistance;
//! - it loses: the defence that resists longest, and the winner's shortest win against it;
//! - a draw: the move that keeps the opponent from winning, and a drawn line in which each
//!   side plays the move that keeps the other from winning (each step follows the shortest
//!   proof found that the opponent of the side to move cannot win);
//! - `--attacker`: the same for the one question asked (a disproof's line shows the attacker
//!   failing to win, not how the game ends).
//!
//! df-pn, PNS and PN² choose their best move by the proof's distances, as the walk does; the
//! parallel solver by work spent when its threads split the root's moves, and the output says
//! so.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use proofnum::Table;
use proofnum::certificate::{IoSink, Sink};
use proofnum::{Dfpn, Game, Limits, Player, Reason, Stats, Status, Value, Verdict};

use crate::answer::{Answer, Found, Question};
use crate::games::Bundled;
use crate::outln;

/// Exit code when a limit stopped the search (or the proof check) before it could answer.
pub const EXIT_UNKNOWN: u8 = 1;
/// Exit code when `--verify` refutes the answer (a bug in the solver or a hash collision of
/// the game's own 64-bit keys).
pub const EXIT_REFUTED: u8 = 3;
/// How the parallel solver chooses its best move (`ParallelSolver`'s root choice).
const PARALLEL_CHOICE: &str = "the parallel solver's choice: among the root moves its threads \
    searched, the winning move that took least work, or the defence that took most; when one \
    job settled the root, that job's df-pn choice (shortest win, longest resistance)";
/// Slots of the proof check's set of verified positions.
const VERIFY_MEMO_SLOTS: usize = 1 << 22;

/// What a search's work is counted in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Work {
    /// df-pn and the parallel solver: MID calls.
    MidCalls,
    /// PNS and PN²: node expansions.
    Expansions,
}

impl Work {
    /// The unit's name in the report ("MID calls").
    pub fn name(self) -> &'static str {
        match self {
            Work::MidCalls => "MID calls",
            Work::Expansions => "expansions",
        }
    }
}

/// Prints the title line (game and side to move), the board and, when it is not simply the
/// moves typed, the position in the game's notation.
pub fn position<G: Bundled>(game: &G) {
    outln!(
        "{}, {} to move:\n{}",
        G::title(),
        G::side_label(game.side_to_move()),
        game.diagram()
    );
    if let Some(notation) = game.notation() {
        outln!("position: {notation}");
    }
}

/// Prints the search's figures: work, positions, time and speed, the confirmation's walk,
/// then the table's size, fill and traffic. `elapsed_s` is the wall time of the whole search,
/// confirmation included.
pub fn figures(work: Work, stats: &Stats, elapsed_s: f64, table: &Table<'_>) {
    outln!(
        "{}: {}   positions: {}   time: {:.3} s   positions/s: {}",
        work.name(),
        count(stats.mid_calls),
        count(stats.nodes),
        elapsed_s,
        count((stats.nodes as f64 / elapsed_s.max(1e-9)) as u64)
    );
    confirmation(stats);
    let t = stats.table;
    outln!(
        "table: {} entries, fill {}‰, {} probes, {:.1}% hits, {} stores, {} replaced",
        count(table.capacity() as u64),
        table.fill_per_mille(),
        count(t.probes),
        100.0 * t.hits as f64 / t.probes.max(1) as f64,
        count(t.stores),
        count(t.drops)
    );
}

/// Prints what confirming the answers cost (nothing when no answer was confirmed): the
/// positions the walks visited, their share of the search's, and the refuted answers.
pub fn confirmation(stats: &Stats) {
    if stats.confirm_nodes > 0 || stats.refutations > 0 {
        outln!(
            "confirmed: {} positions walked ({:.1}% of the search's){}",
            count(stats.confirm_nodes),
            100.0 * stats.confirm_nodes as f64 / stats.nodes.max(1) as f64,
            match stats.refutations {
                0 => String::new(),
                n => format!(", {n} answers refuted and searched again over new keys"),
            }
        );
    }
}

/// 1234567 → "1,234,567".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How the engine that solved chose its best move.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Chooser {
    /// By the proof's distances (df-pn, PNS, PN²): shortest win, longest resistance.
    Distance,
    /// By work spent (the parallel solver).
    Work,
}

/// What one attacker search settled: `attacker` can (`Proven`) or cannot (`Disproven`) force a
/// win.
#[derive(Clone, Copy)]
struct Claim {
    attacker: Player,
    status: Status,
}

/// What the principal variation follows after the best move.
enum Line {
    /// The claim's proof: the claimed winner's (or refuter's) shortest line against the other
    /// side's longest resistance.
    Claim(Claim),
    /// Each side in turn plays the move that keeps the other from winning.
    Draw,
}

/// Prints the answer, the best move, the principal variation and (with `verify`) the proof
/// check; returns the exit code.
pub fn answer<G: Bundled>(
    dfpn: &mut Dfpn<'_, G>,
    game: &mut G,
    table: &mut Table<'_>,
    question: Question,
    found: &Found<G::Move>,
    chooser: Chooser,
    verify: bool,
) -> ExitCode {
    answer_with_line(dfpn, game, table, question, found, chooser, verify, true)
}

/// As [`answer`], walking and printing the principal variation only when `walk_line` is true.
/// The distributed solver leaves it out unless asked: its coordinator's table holds little of
/// the proof, so the walk would search most of it again on one core.
#[allow(clippy::too_many_arguments)]
pub fn answer_with_line<G: Bundled>(
    dfpn: &mut Dfpn<'_, G>,
    game: &mut G,
    table: &mut Table<'_>,
    question: Question,
    found: &Found<G::Move>,
    chooser: Chooser,
    verify: bool,
    walk_line: bool,
) -> ExitCode {
    let mover = game.side_to_move();
    let (me, them) = (G::name(mover), G::name(mover.opponent()));
    if let Question::CanWin(attacker) = question {
        outln!("question: can {} force a win?", G::name(attacker));
    }
    let answer = match found.answer {
        Ok(answer) => answer,
        Err(reason) => {
            match question {
                Question::Value => outln!("value: unknown ({reason})"),
                Question::CanWin(_) => outln!("answer: unknown ({reason})"),
            }
            return ExitCode::from(EXIT_UNKNOWN);
        }
    };
    let by_distance = chooser == Chooser::Distance;
    // The claims to check, the line to follow, and what the best move and the line are.
    let (claims, line, best_is, line_is): (Vec<Claim>, Line, String, String) = match answer {
        Answer::Value(value) => {
            let who = match value {
                Value::Win => format!("win for {me}"),
                Value::Loss => format!("win for {them}"),
                Value::Draw => "draw".to_string(),
            };
            outln!("value: {value:?} for the side to move ({who})");
            match value {
                // The winner's line needs no gloss (and the README's first example shows it).
                Value::Win => {
                    let claim = proven(mover);
                    (
                        vec![claim],
                        Line::Claim(claim),
                        String::new(),
                        String::new(),
                    )
                }
                Value::Loss => {
                    let claim = proven(mover.opponent());
                    (
                        vec![claim],
                        Line::Claim(claim),
                        longest_defence(by_distance, ""),
                        format!(
                            "the best move, then {them}'s shortest win found against {me}'s \
                             longest resistance"
                        ),
                    )
                }
                Value::Draw => (
                    vec![disproven(mover), disproven(mover.opponent())],
                    Line::Draw,
                    if by_distance {
                        format!(
                            "holds the draw: the first move of the shortest proof found that \
                             {them} cannot win"
                        )
                    } else {
                        format!("holds the draw: it keeps {them} from winning")
                    },
                    "a drawn line: the best move, then each side's move that keeps the other \
                     from winning, by the shortest proof found"
                        .to_string(),
                ),
            }
        }
        Answer::Status(status) => {
            let Question::CanWin(attacker) = question else {
                unreachable!("a yes/no answer comes from --attacker")
            };
            let (a, d) = (G::name(attacker), G::name(attacker.opponent()));
            let claim = Claim { attacker, status };
            let attacker_moves = attacker == mover;
            let (best_is, line_is) = if status == Status::Proven {
                outln!("answer: proven: {a} can force a win");
                let best_is = match (attacker_moves, by_distance) {
                    (true, true) => "wins: the shortest win in the proof found".to_string(),
                    (true, false) => "wins".to_string(),
                    (false, _) => longest_defence(by_distance, &format!(" to {a}'s win")),
                };
                let line_is = format!(
                    "the best move, then {a}'s shortest win found against {d}'s longest \
                     resistance"
                );
                (best_is, line_is)
            } else {
                outln!("answer: disproven: {a} cannot force a win ({d} wins, or it is a draw)");
                let best_is = match (attacker_moves, by_distance) {
                    (true, true) => format!(
                        "{a} cannot force a win whatever it plays: the try whose refutation is \
                         longest in the proof found"
                    ),
                    (true, false) => format!("{a} cannot force a win whatever it plays"),
                    (false, true) => format!(
                        "keeps {a} from winning: the first move of the shortest refutation found"
                    ),
                    (false, false) => format!("keeps {a} from winning"),
                };
                let line_is = format!(
                    "the best move, then {d}'s shortest refutations found against {a}'s longest \
                     tries: it shows {a} failing to win, not how the game ends"
                );
                (best_is, line_is)
            };
            (vec![claim], Line::Claim(claim), best_is, line_is)
        }
    };

    match found.best_move {
        Some(mv) if best_is.is_empty() => outln!("best move: {}", G::show_move(mv)),
        Some(mv) => outln!("best move: {} ({best_is})", G::show_move(mv)),
        None => outln!(
            "best move: none (the game scores this position without a search: it is over, or \
             its rules see the result at once)"
        ),
    }
    if found.best_move.is_some() && !by_distance {
        outln!("  ({PARALLEL_CHOICE})");
    }
    if walk_line {
        let (moves, cut) = principal_line(dfpn, game, table, found.best_move, &line);
        let shown: Vec<String> = moves.iter().map(|&m| G::show_move(m)).collect();
        if shown.is_empty() {
            outln!("principal variation: none");
        } else {
            outln!("principal variation: {}", shown.join(" "));
        }
        if !line_is.is_empty() && !moves.is_empty() {
            outln!("  ({line_is})");
        }
        if let Some(reason) = cut {
            outln!("  (the line stops early: {reason})");
        }
    }

    let mut code = ExitCode::SUCCESS;
    if verify {
        for claim in &claims {
            let label = if claims.len() == 1 {
                String::new()
            } else {
                format!(", {} cannot win", G::name(claim.attacker))
            };
            let check_start = Instant::now();
            let mut memo = vec![0u64; VERIFY_MEMO_SLOTS];
            let check = dfpn.verify(
                game,
                claim.attacker,
                claim.status,
                table,
                &mut memo,
                &mut Limits::default(),
            );
            outln!(
                "proof check{label}: {:?} ({} positions walked, {} searched again, {:.2} s)",
                check.verdict,
                count(check.stats.nodes),
                check.stats.searches,
                check_start.elapsed().as_secs_f64()
            );
            match check.verdict {
                Verdict::Verified => {}
                Verdict::Refuted => {
                    eprintln!("error: the proof check refuted the answer");
                    code = ExitCode::from(EXIT_REFUTED);
                }
                Verdict::Unknown(_) => code = ExitCode::from(EXIT_UNKNOWN),
            }
        }
    }
    code
}

/// The claims an answer makes: one proof or disproof, or a draw's two disproofs.
fn claims(question: Question, answer: Answer, mover: Player) -> Vec<Claim> {
    match (question, answer) {
        (_, Answer::Value(Value::Win)) => vec![proven(mover)],
        (_, Answer::Value(Value::Loss)) => vec![proven(mover.opponent())],
        (_, Answer::Value(Value::Draw)) => vec![disproven(mover), disproven(mover.opponent())],
        (Question::CanWin(attacker), Answer::Status(status)) => vec![Claim { attacker, status }],
        (Question::Value, Answer::Status(_)) => unreachable!("a yes/no answer needs --attacker"),
    }
}

/// A certificate file being written by a game's own report (chess, shogi), whose searches
/// stream the proof into [`sink`](CertificateFile::sink).
pub struct CertificateFile {
    path: PathBuf,
    sink: IoSink<BufWriter<File>>,
}

impl CertificateFile {
    /// Creates the file at `path` (`--certificate`); an `Err` names it.
    pub fn create(path: &Path) -> Result<CertificateFile, String> {
        let file =
            File::create(path).map_err(|e| format!("--certificate {}: {e}", path.display()))?;
        Ok(CertificateFile {
            path: path.to_path_buf(),
            sink: IoSink(BufWriter::new(file)),
        })
    }

    /// Where the search writes.
    pub fn sink(&mut self) -> &mut dyn Sink {
        &mut self.sink
    }

    /// Ends the file: with `records` (a certificate was written), flushes it and prints where
    /// and how big; without, removes it and says so on standard error. `Ok(false)` when there
    /// is no certificate; an `Err` when the file could not be written.
    pub fn finish(self, records: Option<u64>) -> Result<bool, String> {
        let shown = self.path.display();
        let written = self.sink.0.into_inner().map_err(|e| e.into_error());
        written
            .and_then(|f| f.sync_all())
            .map_err(|e| format!("--certificate {shown}: {e}"))?;
        match records {
            Some(records) => {
                outln!(
                    "certificate: {shown} ({} records, {} bytes)",
                    count(records),
                    count(std::fs::metadata(&self.path).map_or(0, |m| m.len()))
                );
                Ok(true)
            }
            None => {
                let _ = std::fs::remove_file(&self.path);
                eprintln!("error: no certificate: the search did not answer, or its walk stopped");
                Ok(false)
            }
        }
    }
}

/// Writes the proof of `answer` as certificates (`proofnum::certificate`): one file at `path`,
/// or for a draw's two disproofs `path.first` and `path.second` (by the player who cannot
/// win), and prints where, their size and records. The proof is walked in the game with its
/// rules alone ([`Bundled::RulesOnly`]), the table's entries serving as hints, so the
/// certificate's leaves are finished games and its checker needs no knowledge of the game's.
/// An `Err` says what failed: the file, or a walk that could not finish.
pub fn certificates<G: Bundled>(
    game: &G,
    table: &mut Table<'_>,
    memo: &mut [u64],
    question: Question,
    answer: Answer,
    path: &Path,
) -> Result<(), String> {
    let mut stack = vec![0u8; Dfpn::<G::RulesOnly>::stack_bytes(G::MAX_DEPTH, G::MAX_MOVES)];
    let mut dfpn = Dfpn::<G::RulesOnly>::new(
        &mut stack,
        G::MAX_DEPTH,
        G::MAX_MOVES,
        proofnum::DfpnConfig::default(),
    )
    .map_err(|e| e.to_string())?;
    let mut game = game.rules_only();
    let game = &mut game;
    let game_name = G::NAME;
    let claims = claims(question, answer, game.side_to_move());
    for claim in &claims {
        let file_path = if claims.len() == 1 {
            path.to_path_buf()
        } else {
            let suffix = match claim.attacker {
                Player::First => "first",
                Player::Second => "second",
            };
            let mut p = path.as_os_str().to_owned();
            p.push(format!(".{suffix}"));
            PathBuf::from(p)
        };
        let shown = file_path.display();
        let file = File::create(&file_path).map_err(|e| format!("--certificate {shown}: {e}"))?;
        let mut sink = IoSink(BufWriter::new(file));
        let start = Instant::now();
        let v = dfpn.certify(
            game,
            claim.attacker,
            claim.status,
            table,
            memo,
            game_name,
            &mut sink,
            &mut Limits::default(),
        );
        let flushed = sink
            .0
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all());
        let bytes = std::fs::metadata(&file_path).map(|m| m.len()).unwrap_or(0);
        match (v.verdict, flushed) {
            (Verdict::Verified, Ok(())) => outln!(
                "certificate: {shown} ({} can{} force a win): {} bytes, {} records, written in \
                 {:.2} s",
                G::name(claim.attacker),
                if claim.status == Status::Proven {
                    ""
                } else {
                    "not"
                },
                count(bytes),
                count(v.stats.records),
                start.elapsed().as_secs_f64()
            ),
            (_, Err(e)) => return Err(format!("--certificate {shown}: {e}")),
            (verdict, Ok(())) => {
                let _ = std::fs::remove_file(&file_path);
                return Err(format!(
                    "--certificate {shown}: the proof walk ended {verdict:?}: no certificate"
                ));
            }
        }
    }
    Ok(())
}

fn proven(attacker: Player) -> Claim {
    Claim {
        attacker,
        status: Status::Proven,
    }
}

fn disproven(attacker: Player) -> Claim {
    Claim {
        attacker,
        status: Status::Disproven,
    }
}

/// What the best move of a lost position is; `to_what` says what every move loses to.
fn longest_defence(by_distance: bool, to_what: &str) -> String {
    if by_distance {
        format!("every move loses{to_what}: the defence that resists longest in the proof found")
    } else {
        format!("every move loses{to_what}")
    }
}

/// The best move (if any) and the line `line` follows from the position it leads to, with
/// why the line stopped early, if it did. The position is restored before returning.
fn principal_line<G: Bundled>(
    dfpn: &mut Dfpn<'_, G>,
    game: &mut G,
    table: &mut Table<'_>,
    best: Option<G::Move>,
    line: &Line,
) -> (Vec<G::Move>, Option<Reason>) {
    let mut moves = Vec::new();
    let mut played = Vec::new();
    if let Some(mv) = best {
        game.play(mv);
        moves.push(mv);
        played.push(mv);
    }
    let cut = match line {
        Line::Claim(claim) => {
            let mut out = vec![G::Move::default(); G::MAX_DEPTH];
            let v = dfpn.principal_variation(
                game,
                claim.attacker,
                table,
                &mut out,
                &mut Limits::default(),
            );
            moves.extend_from_slice(&out[..v.len]);
            v.cut
        }
        Line::Draw => loop {
            // Every bundled game ends within MAX_DEPTH plies; this only guards the loop.
            if moves.len() > G::MAX_DEPTH {
                break Some(Reason::DepthLimit);
            }
            // The side to move's move from the proof that its opponent cannot win.
            let mut one = [G::Move::default()];
            let defender = game.side_to_move();
            let v = dfpn.principal_variation(
                game,
                defender.opponent(),
                table,
                &mut one,
                &mut Limits::default(),
            );
            if v.len == 0 {
                break v.cut;
            }
            game.play(one[0]);
            moves.push(one[0]);
            played.push(one[0]);
        },
    };
    for &mv in played.iter().rev() {
        game.undo(mv);
    }
    (moves, cut)
}
