//! Which answers are confirmed before they are reported, and the one place the solve calls
//! choose between a confirmed and a plain search.
//!
//! The searches believe their table, and a table can mislead them: a false match (two
//! positions whose table keys are equal), two positions the game's `hash` does not tell apart,
//! or a table from `pn_table_load` whose entries were forged. So by default
//! (`pn_config.confirm`) every solved answer of a solve call is a claim that the core's
//! confirmation driver ([`proofnum_core::confirm`]) checks with the verification walk of
//! `pn_verify` before it is reported: the walk takes from the table only which move to try
//! first and accepts only leaves the game itself scores (told apart by the game's exact
//! encoding where it gives one, the `encode` callback). What the walk refutes is searched
//! again over [rekeyed](proofnum_core::Table::rekey) table keys, up to
//! [`MAX_SEARCHES`](proofnum_core::confirm::MAX_SEARCHES) searches; an answer refuted every
//! time is reported as `PN_STATUS_UNCONFIRMED`, never as an answer. The walk's budget is the
//! call's: its positions count against the node limit, in `pn_stats.confirm_nodes`.
//!
//! A caller may opt out for speed (`confirm = 0`). Over a loaded table (the solver's
//! `table_trusted` is false, from `pn_table_load` until `pn_table_clear`) answers
//! are confirmed all the same: those bytes are claims from outside. A refutation rekeys the
//! table rather than clearing it, so what the search learnt stays in the buckets (unreachable
//! under the new keys, and replaced first); the table stays untrusted until it is cleared,
//! since a forger may have written entries for the next keys too.
//!
//! What the walk does not decide stays unconfirmed: `distance` (the length of the solved line,
//! read from table entries) and the loser's choice of defence.

use proofnum_core::{Dfpn, Game, Limits, Player, Pns, SearchResult, Table, ValueResult};

/// Whether the solve calls confirm their answers now: as the configuration says
/// (`configured`), and always over a loaded table (`table_trusted` false).
pub(crate) fn required(configured: bool, table_trusted: bool) -> bool {
    configured || !table_trusted
}

/// The searcher the solve calls use for game type `G`.
pub(crate) enum Serial<'a, G: Game<Move = u32>> {
    /// Df-pn, which also walks to confirm its answers.
    Dfpn(&'a mut Dfpn<'static, G>),
    /// PNS or PN², with the df-pn searcher that walks to confirm their answers.
    Pns(&'a mut Pns<'static, G>, &'a mut Dfpn<'static, G>),
}

impl<G: Game<Move = u32>> Serial<'_, G> {
    /// Can `attacker` force a win? [`Dfpn::solve`](proofnum_core::Dfpn::solve) or
    /// [`Pns::solve`](proofnum_core::Pns::solve), confirmed by the core's driver when
    /// `confirm` is set (the df-pn searcher walks for PNS too, over the same table, with
    /// `memo` as its scratch memory).
    pub(crate) fn solve(
        self,
        game: &mut G,
        attacker: Player,
        table: &mut Table<'_>,
        memo: &mut [u64],
        confirm: bool,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        match (self, confirm) {
            (Serial::Dfpn(dfpn), false) => dfpn.solve(game, attacker, table, limits),
            (Serial::Dfpn(dfpn), true) => dfpn.solve_confirmed(game, attacker, table, memo, limits),
            (Serial::Pns(pns, _), false) => pns.solve(game, attacker, table, limits),
            (Serial::Pns(pns, walker), true) => {
                pns.solve_confirmed(walker, game, attacker, table, memo, limits)
            }
        }
    }

    /// The position's value for its side to move, as [`solve`](Serial::solve): each of the
    /// two searches confirmed when `confirm` is set.
    pub(crate) fn solve_value(
        self,
        game: &mut G,
        table: &mut Table<'_>,
        memo: &mut [u64],
        confirm: bool,
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        match (self, confirm) {
            (Serial::Dfpn(dfpn), false) => dfpn.solve_value(game, table, limits),
            (Serial::Dfpn(dfpn), true) => dfpn.solve_value_confirmed(game, table, memo, limits),
            (Serial::Pns(pns, _), false) => pns.solve_value(game, table, limits),
            (Serial::Pns(pns, walker), true) => {
                pns.solve_value_confirmed(walker, game, table, memo, limits)
            }
        }
    }
}
