//! `tsumesuite explain`: where a record's main line misses a longer defence.
//!
//! When no mate within the record's length exists (`MateWithin` of the record's moves is
//! disproven), the record's line cannot be the shortest mate against the longest defence:
//! somewhere one of White's recorded replies is not its longest. The walk follows the
//! record, asking `MateWithin` with the moves the record has left at every position: the
//! answer stays "no" until the first White position whose recorded reply leaves a mate
//! within the record, and there some other reply does not. That position, each such reply
//! (a drop, a board-move interposition, a capture of the checker or a king move) and how
//! many plies it lasts are the explanation: a longer defence the record misses, or one that
//! a convention this solver does not apply would discount (a wider futile-interposition
//! rule, 2手長駒余り), which the kind of reply tells a reader to check.
//!
//! Every answer is a search's proven or disproven (with the same conventions as the length
//! search, `proofnum_games::shogi::mate`); a search stopped by `--cap` says so and the walk
//! stops there.

use std::io::Write;
use std::time::Instant;

use haitaka::{Color, Piece};
use proofnum::{Dfpn, Game, MoveList, Player, Reason, Status, Table};
use proofnum_games::shogi::mate::{Exactness, MateConfig, MateWithin, solve_tsume};
use proofnum_games::shogi::notation::hand_text;
use proofnum_games::shogi::{MAX_MOVES, Move, Tsume};

use super::{Common, Problem};

/// df-pn and a table for the walk's searches: one table a problem, shared by its searches
/// (entries of different budgets have different hashes, so sharing is sound and saves the
/// subtrees the searches have in common).
struct Searcher<'a, 'm> {
    dfpn: &'a mut Dfpn<'m, MateWithin>,
    table: Table<'a>,
    cap_s: f64,
    mid_calls: u64,
}

impl Searcher<'_, '_> {
    /// Whether Black mates within the budget of `within`'s current position.
    fn settle(&mut self, within: &mut MateWithin) -> Status {
        let result = proofnum_tools::capped(self.cap_s, |limits| {
            self.dfpn
                .solve(within, Player::First, &mut self.table, limits)
        });
        self.mid_calls += result.stats.mid_calls;
        result.status
    }

    /// The fewest Black moves that mate from `within`'s position (Black to move), from its
    /// budget up to `most`.
    fn fewest_moves(&mut self, within: &mut MateWithin, most: u32) -> Fewest {
        let first = within.budget();
        let mut found = Fewest::NoneWithin(most);
        for moves in first..=most {
            within.set_budget(moves);
            match self.settle(within) {
                Status::Proven => {
                    found = Fewest::Moves(moves);
                    break;
                }
                Status::Disproven => {}
                Status::Unknown(reason) => {
                    found = Fewest::Limit(reason);
                    break;
                }
            }
        }
        within.set_budget(first);
        found
    }
}

/// What [`Searcher::fewest_moves`] found.
enum Fewest {
    /// Black mates in this many moves and no fewer.
    Moves(u32),
    /// No mate within this many moves.
    NoneWithin(u32),
    /// A search stopped at a limit before either.
    Limit(Reason),
}

/// What kind of reply a White move to a check is.
fn reply_kind(within: &MateWithin, reply: Move) -> &'static str {
    let board = within.tsume().board();
    if reply.is_drop() {
        return "drop interposition";
    }
    let from = reply.origin().and_then(|square| board.piece_on(square));
    if from == Some(Piece::King) {
        "king move"
    } else if board.color_on(reply.to()) == Some(Color::Black) {
        "capture of the checker"
    } else {
        "board-move interposition"
    }
}

/// Explains one problem with `dfpn` and a fresh table in `table_bytes`: prints what the walk
/// finds.
pub(super) fn explain(
    problem: &Problem,
    common: &Common,
    dfpn: &mut Dfpn<'_, MateWithin>,
    table_bytes: &mut [u8],
    defences: Option<&mut std::fs::File>,
) -> Result<(), String> {
    let mut searcher = Searcher {
        dfpn,
        table: Table::new(table_bytes).map_err(|e| format!("{e:?}"))?,
        cap_s: common.cap_s,
        mid_calls: 0,
    };
    if problem.solution.len() != problem.plies as usize {
        return Err(format!(
            "{}: the record's line has {} plies, its length says {}",
            problem.id,
            problem.solution.len(),
            problem.plies
        ));
    }
    let record_moves = problem.plies.div_ceil(2);
    let mut within = MateWithin::new(common.tsume(problem)?, record_moves);
    let id = &problem.id;
    let start = Instant::now();
    match searcher.settle(&mut within) {
        Status::Proven => {
            println!(
                "{id}: a mate within the record's {} plies exists: the record is not too short",
                problem.plies
            );
            return Ok(());
        }
        Status::Unknown(reason) => {
            println!(
                "{id}: whether a mate within {} plies exists is open ({reason})",
                problem.plies
            );
            return Ok(());
        }
        Status::Disproven => {}
    }
    println!(
        "{id}: no mate within the record's {} plies (disproven); along the record's line:",
        problem.plies
    );
    for (ply, text) in problem.solution.iter().enumerate() {
        let ply = ply + 1;
        let mv = within
            .tsume()
            .parse_move(text)
            .map_err(|e| format!("{id}: the record's ply {ply} ({text}): {e}"))?;
        let black = within.tsume().color_to_move() == Color::Black;
        let shown = within.tsume().japanese_line(&[mv]);
        within.play(mv);
        let status = searcher.settle(&mut within);
        if let Status::Unknown(reason) = status {
            println!("  ply {ply} {text} {shown}: open ({reason}); the walk stops");
            return Ok(());
        }
        if status == Status::Disproven {
            continue;
        }
        if black {
            // Disproven before the move, proven after it: the searches disagree.
            return Err(format!(
                "{id}: no mate within the record before ply {ply} ({text}) but one after it"
            ));
        }
        within.undo(mv);
        println!(
            "  still none after ply {}; at ply {ply} White's recorded {text} {shown} allows a \
             mate within the record; the replies that do not, or that stay open:",
            ply - 1
        );
        let at = Walked {
            id,
            record: mv,
            ply: ply as u32,
            record_plies: problem.plies,
        };
        longer_replies(&mut searcher, &mut within, &at, defences)?;
        println!(
            "  ({:.1} s, {} MID calls)",
            start.elapsed().as_secs_f64(),
            searcher.mid_calls
        );
        return Ok(());
    }
    Err(format!(
        "{id}: the record's line ends without the searches finding a mate within it"
    ))
}

/// Where the walk stopped: White's position before the record's reply `record` at `ply`.
struct Walked<'a> {
    id: &'a str,
    record: Move,
    ply: u32,
    record_plies: u32,
}

/// At White's position where the walk stopped, every other reply after which Black cannot
/// mate within the record's moves, with how many plies it lasts, and the replies the searches
/// left open; each reply shown to outlast the record is written to `defences` too when given,
/// a tab-separated row for an external check (`scripts/tsume_explain_check.py`): id, ply, the
/// reply in USI, the position after it as SFEN, the plies the record has left after it, the
/// plies the mate takes after it (`-` when a limit or `--cap` left it unsettled), the mating
/// line in USI (`-` for a drop, whose position carries a free capture the line cannot show;
/// `?` when a limit stopped the line's search).
fn longer_replies(
    searcher: &mut Searcher<'_, '_>,
    within: &mut MateWithin,
    at: &Walked<'_>,
    mut defences: Option<&mut std::fs::File>,
) -> Result<(), String> {
    let mut storage = [Move::default(); MAX_MOVES];
    let mut replies = MoveList::new(&mut storage);
    within.generate_moves(&mut replies);
    let replies: Vec<Move> = replies.as_slice().to_vec();
    let (mut found, mut open) = (0, 0);
    for reply in replies.into_iter().filter(|&r| r != at.record) {
        let kind = reply_kind(within, reply);
        let usi = within.tsume().usi(reply);
        let shown = format!("{usi} {}", within.tsume().japanese_line(&[reply]));
        within.play(reply);
        let outcome = match searcher.settle(within) {
            Status::Proven => Ok(None),
            Status::Unknown(reason) => {
                open += 1;
                Ok(Some(format!("open ({reason})")))
            }
            Status::Disproven => {
                found += 1;
                outlasting(searcher, within, at, reply, &usi, defences.as_deref_mut()).map(Some)
            }
        };
        within.undo(reply);
        if let Some(line) = outcome? {
            println!("    {shown} ({kind}): {line}");
        }
    }
    if found == 0 {
        if open == 0 {
            return Err(format!(
                "{}: no reply outlasts the record where the walk says one must",
                at.id
            ));
        }
        println!("    no reply shown to outlast the record: {open} open within the limits");
    }
    Ok(())
}

/// A reply after which Black cannot mate within the record's moves (`within` is after it):
/// how long it lasts, its row written to `defences`.
fn outlasting(
    searcher: &mut Searcher<'_, '_>,
    within: &mut MateWithin,
    at: &Walked<'_>,
    reply: Move,
    usi: &str,
    defences: Option<&mut std::fs::File>,
) -> Result<String, String> {
    // Black's moves from here, at most a dozen more than the record left.
    let most = within.budget() + 12;
    let (text, plies, line) = match searcher.fewest_moves(within, most) {
        Fewest::Moves(moves) => {
            let mut text = format!(
                "mate in {moves} more Black moves: {} plies in all, the record {}",
                at.ply + 2 * moves - 1,
                at.record_plies
            );
            let line = if reply.is_drop() {
                "-".to_string()
            } else {
                let (shown, line) = mating_line(within, moves, searcher.cap_s)?;
                text.push_str(&shown);
                line.unwrap_or_else(|| "?".to_string())
            };
            (text, (2 * moves - 1).to_string(), line)
        }
        Fewest::NoneWithin(most) => (
            format!("no mate within {most} more Black moves (disproven)"),
            "-".to_string(),
            "?".to_string(),
        ),
        Fewest::Limit(reason) => (
            format!("outlasts the record; its length search stopped ({reason})"),
            "-".to_string(),
            "?".to_string(),
        ),
    };
    if let Some(file) = defences {
        writeln!(
            file,
            "{}\t{}\t{usi}\t{}\t{}\t{plies}\t{line}",
            at.id,
            at.ply,
            within.tsume().sfen(),
            at.record_plies - at.ply,
        )
        .map_err(|e| format!("--defences: {e}"))?;
    }
    Ok(text)
}

/// The mating line from `within`'s position (Black to move, no free capture pending: the
/// reply before it was a board move), by `solve_tsume` on that position alone, and Black's
/// hand where it ends: whether the longer defence ends with pieces left over (駒余り), which
/// the 2手長駒余り convention weighs. The line is shown only when that search shows its length
/// exact and the line a longest defence against a shortest mate; a limit leaves no line
/// (`None`), and an exact length other than the walk's `moves` is an error (the searches
/// disagree). The line
/// shows futile interpositions and their captures (module docs of
/// `proofnum_games::shogi::mate`), which leave pieces in hand that a composer's main line
/// would not.
fn mating_line(
    within: &MateWithin,
    moves: u32,
    cap_s: f64,
) -> Result<(String, Option<String>), String> {
    let sfen = within.tsume().sfen();
    let mut tsume = Tsume::from_sfen(&sfen).map_err(|e| format!("{sfen}: {e}"))?;
    let config = MateConfig {
        max_time: Some(std::time::Duration::from_secs_f64(cap_s)),
        ..MateConfig::default()
    };
    let report = solve_tsume(&mut tsume, &config);
    if report.status != Status::Proven || report.exactness != Exactness::Exact {
        let shown = format!(
            "; no line: from {sfen} alone the length search ended {:?}, {}",
            report.status, report.exactness
        );
        return Ok((shown, None));
    }
    if report.mate_moves != Some(moves) {
        return Err(format!(
            "from {sfen}: the walk says mate in {moves}, the length search in {:?}",
            report.mate_moves
        ));
    }
    if !report.line_is_optimal {
        // The length is exact but the walk for a longest defence stopped at a limit.
        return Ok(("; no line: its walk stopped at a limit".to_string(), None));
    }
    let line = tsume.usi_line(&report.line);
    for &mv in &report.line {
        tsume.play(mv);
    }
    let hand = hand_text(tsume.board(), Color::Black);
    let shown = format!("; line {line}; Black's hand at the end: {hand}");
    Ok((shown, Some(line)))
}
