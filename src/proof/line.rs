//! The principal variation: the solved line, walked step by step with searches on top of it.

use crate::dfpn::Dfpn;
use crate::game::{Game, Player};
use crate::limits::{Limits, Reason};
use crate::number::{INFINITE, Numbers};
use crate::result::Status;
use crate::table::TranspositionTable;

use super::Variation;

impl<G: Game> Dfpn<'_, G> {
    /// Writes the principal variation of `attacker`'s search from `game`'s position into
    /// `out`: the claimed winner's shortest win and the loser's longest resistance, as far as
    /// the proofs found tell. Call it after a solve with the same table; what the table lost is
    /// searched again (within `limits`). The position is restored before returning.
    ///
    /// Every step is searched with the line so far as its history, so repetitions against the
    /// line count. In games with cycles a proof stored from another path may pass through a
    /// position of this line; when a later step shows that, the walk goes back to the last
    /// step where the winner chose, excludes that move there and chooses again. So each move
    /// of the line wins (or resists) on this very path.
    pub fn principal_variation<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        out: &mut [G::Move],
        limits: &mut Limits<'_>,
    ) -> Variation {
        let (len, cut) = self.walk_line(game, attacker, table, out.len(), limits);
        for (k, slot) in out[..len].iter_mut().enumerate() {
            *slot = self.children[k].mv;
        }
        for k in (0..len).rev() {
            game.undo(self.children[k].mv);
        }
        Variation { len, cut }
    }

    /// Walks the principal line from `game`'s position, leaving the game at its end: the line's
    /// moves are in `children[0..len].mv` and its positions' hashes in `frames[0..len]`.
    fn walk_line<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        max_len: usize,
        limits: &mut Limits<'_>,
    ) -> (usize, Option<Reason>) {
        let infinite = Numbers::new(INFINITE, INFINITE);
        let mut claim = None;
        let mut k = 0usize;
        self.frames[0].excluded = 0;
        self.set_exhaustive(true);
        let cut = loop {
            if k > self.max_depth() {
                break Some(Reason::DepthLimit);
            }
            let excluded = self.frames[k].excluded;
            self.root_excluded = excluded;
            // Child slots 0..k hold the line's moves; the search works above them.
            let r = self.search_from(game, attacker, infinite, k, k as u32, table, limits);
            self.root_excluded = 0;
            self.frames[k].excluded = excluded;
            let status = r.status;
            if let Status::Unknown(reason) = status {
                break Some(reason);
            }
            if *claim.get_or_insert(status) == status {
                let (Some(mv), Some(index)) = (r.best_move, self.root_best) else {
                    break None; // a finished game or a repetition ends the line
                };
                if k >= max_len {
                    break Some(Reason::TooManyMoves); // the line goes on beyond the buffer
                }
                if !self.children.reserve(k + 1) {
                    break Some(Reason::DepthLimit);
                }
                self.frames[k].chosen = index;
                self.children[k].mv = mv;
                game.play(mv);
                k += 1;
                // After a move from the last frame there is no frame to reset: the next turn
                // of the loop cuts the line at the depth limit.
                if let Some(frame) = self.frames.get_mut(k) {
                    frame.excluded = 0;
                }
                continue;
            }
            // This position does not go the claimed way on this path: go back to the last
            // step where the claimed winner chose, and rule that choice out.
            let winner_is_attacker = claim == Some(Status::Proven);
            let mut resumed = false;
            while k > 0 {
                k -= 1;
                game.undo(self.children[k].mv);
                let winner_moved = (self.frames[k].mover == attacker) == winner_is_attacker;
                let chosen = self.frames[k].chosen;
                if winner_moved && chosen < 64 {
                    self.frames[k].excluded |= 1 << chosen;
                    resumed = true;
                    break;
                }
            }
            if !resumed {
                // Only reachable if the root's own result changed under the walk.
                break Some(Reason::Thresholds);
            }
        };
        self.set_exhaustive(false);
        (k, cut)
    }
}
