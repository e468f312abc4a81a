//! The full game value (win, draw or loss) as two attacker searches sharing one table.

use crate::dfpn::Dfpn;
use crate::game::{Game, Player, Value};
use crate::keys::search_salt;
use crate::limits::{Limits, Reason};
use crate::result::{SearchResult, Stats, Status};
use crate::table::TranspositionTable;

/// The game-theoretic value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueResult<M> {
    /// The value for the side to move, or why it is not known.
    pub value: Result<Value, Reason>,
    /// A move that achieves the value: the winning move, the drawing move, or the defence that
    /// resists longest in a lost position.
    pub best_move: Option<M>,
    /// Counters of both searches together.
    pub stats: Stats,
}

impl<G: Game> Dfpn<'_, G> {
    /// Solves the position's value: first "can the side to move win?", then, if not, "can the
    /// opponent win?" (a loss if so, a draw if not). Both searches share `table` (their keys
    /// differ by attacker) and the budgets of `limits` (the second gets what the first left).
    /// In a table small enough to stay in the caches the second reads the first's proofs as
    /// disproofs ([`solve_after_opponent`](Dfpn::solve_after_opponent); see
    /// `reads_opponent_pays`).
    pub fn solve_value<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> ValueResult<G::Move> {
        let me = game.side_to_move();
        let read = reads_opponent_pays(table);
        solve_value_by(game, limits, |game, attacker, limits| {
            if attacker == me || !read {
                self.solve(game, attacker, table, limits)
            } else {
                self.solve_after_opponent(game, attacker, table, limits)
            }
        })
    }

    /// [`solve`](Dfpn::solve) for `attacker` over a table that holds the opponent's search of
    /// the same position (the first of [`solve_value`](Dfpn::solve_value)'s two): where that
    /// search proved the opponent wins, this one knows at once that `attacker` does not. A
    /// position new to this search costs one more table probe, in another bucket: fewer MID
    /// calls always, less time only where the table stays in the caches (Connect Four, Pons'
    /// L2_R2 set, draws and losses: 0.92 of the MID calls; with 4 MiB 0.87 of the time for
    /// draws and the same for losses, with 64 MiB 1.06 to 1.12 of it).
    pub fn solve_after_opponent<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        self.opponent_salt = Some(search_salt(attacker.opponent(), table.key_salt()));
        let result = self.solve(game, attacker, table, limits);
        self.opponent_salt = None;
        result
    }
}

/// Whether a full value's second search should read the first's proofs
/// (`solve_after_opponent`) in `table`: only where its extra probes hit the caches, that is in
/// a table too small to prefetch for (measured: see `Dfpn::solve_after_opponent`).
pub(crate) fn reads_opponent_pays<T: TranspositionTable + ?Sized>(table: &T) -> bool {
    !table.prefetch_pays()
}

/// The value of `game`'s position by two attacker searches run by `solve`: "can the side to
/// move win?", then, if not, "can the opponent win?". The second search gets what the first
/// left of each budget in `limits`; `limits` is restored afterwards.
pub(crate) fn solve_value_by<G: Game>(
    game: &mut G,
    limits: &mut Limits<'_>,
    mut solve: impl FnMut(&mut G, Player, &mut Limits<'_>) -> SearchResult<G::Move>,
) -> ValueResult<G::Move> {
    let me = game.side_to_move();
    let first = solve(game, me, limits);
    let mut stats = first.stats;
    match first.status {
        Status::Proven => {
            return ValueResult {
                value: Ok(Value::Win),
                best_move: first.best_move,
                stats,
            };
        }
        Status::Unknown(reason) => {
            return ValueResult {
                value: Err(reason),
                best_move: first.best_move,
                stats,
            };
        }
        Status::Disproven => {}
    }
    // The second search gets only what the first left of each budget.
    let second = limits.after(&first.stats, |limits| solve(game, me.opponent(), limits));
    stats.accumulate(&second.stats);
    let value = match second.status {
        Status::Proven => Ok(Value::Loss),
        Status::Disproven => Ok(Value::Draw),
        Status::Unknown(reason) => Err(reason),
    };
    ValueResult {
        value,
        best_move: second.best_move,
        stats,
    }
}
