//! Answers over a loaded table are confirmed before they are reported.
//!
//! A table from `pn_table_load` is bytes from outside. Its entries' checks stop random damage
//! (a damaged entry misses, see `proofnum::table::entry`), but not a forger: an entry with a
//! valid check can claim any position won, and the searches believe their table. So while the
//! table holds loaded bytes ([`Inner::table_trusted`] is false, from `pn_table_load` until
//! `pn_table_clear`), a solved answer of any solve call is a claim, confirmed here with the
//! core's verification walk ([`Dfpn::verify`](proofnum_core::Dfpn::verify)), which takes from
//! the table only which move to try first and accepts only leaves the game itself scores:
//! - verified: the answer is reported, with the walk's winning (or drawing) move as its best
//!   move when the winner is to move;
//! - refuted: the table lied. It is emptied (and trusted again: it now holds only what this
//!   solver stores), and the search runs again from scratch, whose answer is reported;
//! - the walk hit a limit or a callback failed: that status, with no answer.
//!
//! What stays unconfirmed is what the walk does not decide: `distance` (the length of the
//! solved line, read from table entries) and the loser's choice of defence.

use core::sync::atomic::AtomicBool;

use proofnum_core::{Game, Player, Status, Table, Verdict};

use crate::config::pn_limits;
use crate::game::{pn_game, pn_outcome};
use crate::result::pn_result;
use crate::solver::{Inner, with_rule};
use crate::status::pn_status;

/// What a search was asked, to turn its outcome back into claims the walk can check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Question {
    /// "Can this side force a win?" (`pn_solve`, `pn_solve_parallel`).
    Attacker(Player),
    /// "What is the value for the side to move?" (`pn_solve_value` and its parallel form).
    Value,
}

/// Every outcome, to read back a result's.
const OUTCOMES: [pn_outcome; 6] = [
    pn_outcome::Unknown,
    pn_outcome::Win,
    pn_outcome::Loss,
    pn_outcome::Draw,
    pn_outcome::Proven,
    pn_outcome::Disproven,
];

/// The (attacker, proven or disproven) claims an answer makes, given the side to move.
fn claims(question: Question, outcome: pn_outcome, mover: Player) -> [Option<(Player, Status)>; 2] {
    let proven = |a| Some((a, Status::Proven));
    let disproven = |a| Some((a, Status::Disproven));
    match (question, outcome) {
        (Question::Attacker(a), pn_outcome::Proven) => [proven(a), None],
        (Question::Attacker(a), pn_outcome::Disproven) => [disproven(a), None],
        (Question::Value, pn_outcome::Win) => [proven(mover), None],
        (Question::Value, pn_outcome::Loss) => [proven(mover.opponent()), None],
        // Neither side can force a win: two disproofs. The second one's walk holds the root
        // by one move of the side to move, its drawing move.
        (Question::Value, pn_outcome::Draw) => [disproven(mover), disproven(mover.opponent())],
        // Not an answer (or not this question's; the bounds come from the `outcome`
        // callback only): nothing to confirm.
        (_, pn_outcome::Unknown | pn_outcome::CannotWin | pn_outcome::CannotLose)
        | (Question::Attacker(_), pn_outcome::Win | pn_outcome::Loss | pn_outcome::Draw)
        | (Question::Value, pn_outcome::Proven | pn_outcome::Disproven) => [None, None],
    }
}

impl Inner {
    /// Runs `search` (one of the solve calls' searches, over this solver's table) and, when
    /// the table holds loaded bytes and the search answered, confirms the answer with the
    /// verification walk within `limits` (see the module docs).
    pub(crate) fn confirmed(
        &mut self,
        game: &pn_game,
        question: Question,
        limits: &pn_limits,
        stop: &AtomicBool,
        mut search: impl FnMut(&mut Inner) -> Result<pn_result, pn_status>,
    ) -> Result<pn_result, pn_status> {
        let result = search(self)?;
        if self.table_trusted || result.status() != pn_status::Ok {
            return Ok(result);
        }
        let outcome = OUTCOMES
            .into_iter()
            .find(|&o| o as u32 == result.outcome)
            .ok_or(pn_status::InternalError)?;
        let ((verdict, winning_move, nodes), failure) =
            with_rule!(self, game, |dfpn, g, table, memo| {
                let mover = g.side_to_move();
                let mut walked = (Verdict::Verified, None, 0u64);
                for (attacker, claim) in claims(question, outcome, mover).into_iter().flatten() {
                    let v = limits.with(stop, |l| dfpn.verify(g, attacker, claim, table, memo, l));
                    walked.2 += v.stats.nodes;
                    walked.1 = v.winning_move.or(walked.1);
                    if v.verdict != Verdict::Verified {
                        walked.0 = v.verdict;
                        break;
                    }
                }
                walked
            })?;
        let mut stats = result.stats;
        stats.nodes = stats.nodes.saturating_add(nodes);
        let confirmed = match (failure, verdict) {
            (Some(status), _) => pn_result::new(status, pn_outcome::Unknown),
            (None, Verdict::Verified) => match winning_move {
                Some(mv) => result.with_move(Some(mv)),
                None => result,
            },
            (None, Verdict::Refuted) => {
                // The table made the search claim what the game refutes: forget it and
                // search again over an empty table, which this solver then fills itself.
                Table::new(&mut *self.table).map_err(pn_status::from_table_error)?;
                self.table_trusted = true;
                return search(self);
            }
            (None, Verdict::Unknown(reason)) => {
                pn_result::new(pn_status::from_reason(reason), pn_outcome::Unknown)
            }
        };
        Ok(pn_result { stats, ..confirmed })
    }
}
