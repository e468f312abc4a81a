//! Answers confirmed before they are reported: a false match in the table may cost work, never
//! an answer.
//!
//! The searches believe their table. Its entries match on the whole 64-bit key when solved and
//! on 32 check bits otherwise ([`Table`](crate::Table#trust-what-the-table-may-make-the-solver-say)), and a search asks the game's own
//! outcome before it expands a position whose numbers came from the table, so a false match
//! can hand a search another position's solved value only when two positions' keys are equal:
//! positions the game's hash does not tell apart. That is rare, not impossible (a 64-bit
//! running hash collides about once among 10^10 positions), and a table loaded from outside
//! may say anything. So [`Dfpn::solve_confirmed`] confirms every solved answer with the
//! verification walk of [`Dfpn::verify`] before reporting it: the walk takes from the table
//! only which move to try first and accepts only leaves the game itself scores. When the walk
//! refutes the answer, the table is [rekeyed](crate::Table::rekey) (every old entry becomes
//! unreachable at once) and the search runs again, up to [`MAX_SEARCHES`] times in all; an
//! answer refuted every time is reported as unknown ([`Reason::Unconfirmed`]), never as
//! proven or disproven.
//!
//! The walk costs about what the proof's size costs: a few per cent of the search where the
//! table keeps the proof, more where it lost it and the walk must search parts again. The
//! confirmation is only as exact as the game's hash, which the walk uses to recognise
//! transpositions and repetitions; a [certificate](crate::certificate) and its checker tell
//! positions apart by their exact encodings instead.

use crate::dfpn::Dfpn;
use crate::game::{Game, Player};
use crate::limits::{Limits, Reason};
use crate::number::Numbers;
use crate::pns::Pns;
use crate::proof::Verdict;
use crate::result::{SearchResult, Stats, Status};
use crate::table::TranspositionTable;
use crate::value::{ValueResult, solve_value_by};

/// The most searches one confirmed answer takes: the first, and one more over new table keys
/// each time the confirmation refutes an answer. A refutation needs a false match (or a
/// collision of the game's hash) that new keys do not repeat, so a second one in a row is
/// already rare; four keeps the cost of a pathological game bounded.
pub const MAX_SEARCHES: u32 = 4;

impl<G: Game> Dfpn<'_, G> {
    /// [`solve`](Dfpn::solve), with a solved answer confirmed before it is returned (see the
    /// [module docs](crate::confirm)). `memo` is scratch memory for the walk (two words a
    /// position it verifies; more memory, fewer positions walked twice). A confirmed answer's
    /// best move, where the claimed winner is to move, is the move the walk checked. Every
    /// budget of `limits` covers the searches and the walks together.
    pub fn solve_confirmed<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        confirmed(
            self,
            game,
            attacker,
            table,
            memo,
            limits,
            |dfpn, g, t, l| dfpn.solve(g, attacker, t, l),
        )
    }

    /// [`solve_value`](Dfpn::solve_value) with each search's answer confirmed
    /// ([`solve_confirmed`](Dfpn::solve_confirmed)).
    pub fn solve_value_confirmed<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        // The second search reads the first's proofs, as in `solve_value`; its walk then
        // verifies the disproofs they gave.
        let me = game.side_to_move();
        let read = crate::value::reads_opponent_pays(table);
        solve_value_by(game, limits, |game, attacker, limits| {
            confirmed(
                self,
                game,
                attacker,
                table,
                memo,
                limits,
                |dfpn, g, t, l| {
                    if attacker == me || !read {
                        dfpn.solve(g, attacker, t, l)
                    } else {
                        dfpn.solve_after_opponent(g, attacker, t, l)
                    }
                },
            )
        })
    }
}

impl<G: Game> Pns<'_, G> {
    /// [`solve`](Pns::solve), with a solved answer confirmed by `walker`'s verification walk
    /// over the same table before it is returned (see [`Dfpn::solve_confirmed`]).
    pub fn solve_confirmed<T: TranspositionTable>(
        &mut self,
        walker: &mut Dfpn<'_, G>,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        confirmed(walker, game, attacker, table, memo, limits, |_, g, t, l| {
            self.solve(g, attacker, t, l)
        })
    }

    /// [`solve_value`](Pns::solve_value) with each search's answer confirmed.
    pub fn solve_value_confirmed<T: TranspositionTable>(
        &mut self,
        walker: &mut Dfpn<'_, G>,
        game: &mut G,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        solve_value_by(game, limits, |game, attacker, limits| {
            self.solve_confirmed(walker, game, attacker, table, memo, limits)
        })
    }
}

/// Runs `search` (an answer to "can `attacker` force a win?" over `table`) and confirms a
/// solved answer with `walker`'s verification walk, searching again over a rekeyed table when
/// the walk refutes it (see the module docs). The budgets of `limits` cover every search and
/// walk together.
pub fn confirmed<G: Game, T: TranspositionTable>(
    walker: &mut Dfpn<'_, G>,
    game: &mut G,
    attacker: Player,
    table: &mut T,
    memo: &mut [u64],
    limits: &mut Limits<'_>,
    mut search: impl FnMut(&mut Dfpn<'_, G>, &mut G, &mut T, &mut Limits<'_>) -> SearchResult<G::Move>,
) -> SearchResult<G::Move> {
    let start_us = limits.now_us();
    let mut spent = Stats::default();
    for _ in 0..MAX_SEARCHES {
        let mut r = limits.after(&spent, |l| search(walker, game, table, l));
        spent.accumulate(&r.stats);
        spent.elapsed_us = since(limits, start_us).or(spent.elapsed_us);
        let claim = r.status;
        if let Status::Unknown(_) = claim {
            r.stats = spent;
            return r;
        }
        let v = limits.after(&spent, |l| {
            walker.verify(game, attacker, claim, table, memo, l)
        });
        spent.confirm_nodes += v.stats.nodes + v.stats.search_nodes;
        spent.elapsed_us = since(limits, start_us).or(spent.elapsed_us);
        match v.verdict {
            Verdict::Verified => {
                r.best_move = v.winning_move.or(r.best_move);
                r.stats = spent;
                return r;
            }
            Verdict::Unknown(reason) => {
                r.status = Status::Unknown(reason);
                r.stats = spent;
                return r;
            }
            Verdict::Refuted => {
                spent.refutations += 1;
                if !table.rekey() {
                    break;
                }
            }
        }
    }
    SearchResult {
        status: Status::Unknown(Reason::Unconfirmed),
        best_move: None,
        numbers: Numbers::UNIT,
        distance: 0,
        path_dependent: false,
        stats: spent,
    }
}

/// Microseconds since `start_us` on the limits' clock, if there is one.
fn since(limits: &mut Limits<'_>, start_us: Option<u64>) -> Option<u64> {
    Some(limits.now_us()?.saturating_sub(start_us?))
}
