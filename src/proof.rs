//! After a search: the principal variation, and an independent check of the proof.
//!
//! Both walk the game from the root with the searcher's own stack: the walk keeps its path in
//! the lower frames, and whenever the table no longer knows what the walk needs, it runs a
//! df-pn search on top of that path (so repetitions against the path still count).
//!
//! [`Dfpn::principal_variation`] follows the solved line: the winner's shortest win, the loser's
//! longest resistance, as far as the proof that was found tells (it is the shortest line *in
//! that proof*, not necessarily the shortest win in the game).
//!
//! [`Dfpn::verify`] re-walks the whole proof (or disproof) tree: at the claimed winner's nodes it
//! needs one child that verifies, at the other side's nodes every child, and it accepts only
//! leaves the game itself scores (`outcome`, no moves, repetitions). The table only suggests
//! which move to try; a wrong entry (a hash collision in the table's 32-bit check) makes that
//! child fail to verify, and the walk tries the next or re-searches. Verified nodes are
//! remembered in a caller-supplied set of full 64-bit keys so transpositions are walked once;
//! only a collision of the game's own 64-bit hash can fool the walk.

use crate::dfpn::{Child, Dfpn, Frame};
use crate::game::{Game, MoveList, Player, RepetitionRule};
use crate::keys::{Keying, framed, known_numbers};
use crate::limits::{Limits, Reason};
use crate::number::{INFINITE, Numbers};
use crate::result::Status;
use crate::table::TranspositionTable;

/// The verdict of [`Dfpn::verify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every line of the (dis)proof tree was walked to a leaf the game scores as claimed.
    Verified,
    /// The claim is false: some node could not be shown to go the claimed way.
    Refuted,
    /// The walk stopped before it could decide.
    Unknown(Reason),
}

/// A principal variation written into a caller buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variation {
    /// Moves written at the start of the buffer.
    pub len: usize,
    /// Why the line ended: `None` when it reached a finished game (or a repetition), or the
    /// reason it stopped early (buffer full, limits, depth).
    pub cut: Option<Reason>,
}

/// The outcome of [`Dfpn::verify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verification<M> {
    /// Verified, refuted or unknown.
    pub verdict: Verdict,
    /// When verified and the claimed winner moves first: the root move whose whole (dis)proof
    /// tree was walked, a move checked on this very path down to leaves the game scores.
    pub winning_move: Option<M>,
    /// Counters of the walk.
    pub stats: VerifyStats,
}

/// Statistics of a verification walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyStats {
    /// Positions visited by the walk.
    pub nodes: u64,
    /// Positions the table could not vouch for, searched again with df-pn.
    pub searches: u64,
    /// Walks that reused a position already verified (transpositions).
    pub memo_hits: u64,
}

/// Marks an empty slot of the verified-set.
const EMPTY_KEY: u64 = 0;

/// A set of 64-bit keys in caller memory (open addressing, linear probing). Full sets simply
/// stop remembering.
struct KeySet<'a> {
    slots: &'a mut [u64],
    used: usize,
}

impl<'a> KeySet<'a> {
    fn new(slots: &'a mut [u64]) -> Self {
        slots.fill(EMPTY_KEY);
        KeySet { slots, used: 0 }
    }

    fn slot(&self, key: u64) -> usize {
        (((key >> 32) * self.slots.len() as u64) >> 32) as usize
    }

    fn contains(&self, key: u64) -> bool {
        let key = key.max(1);
        if self.slots.is_empty() {
            return false;
        }
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                EMPTY_KEY => return false,
                k if k == key => return true,
                _ => i = (i + 1) % self.slots.len(),
            }
        }
    }

    fn insert(&mut self, key: u64) {
        let key = key.max(1);
        // Keep a quarter free so probe sequences stay short and always end.
        if (self.used + 1) * 4 > self.slots.len() * 3 {
            return;
        }
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                EMPTY_KEY => {
                    self.slots[i] = key;
                    self.used += 1;
                    return;
                }
                k if k == key => return,
                _ => i = (i + 1) % self.slots.len(),
            }
        }
    }
}

/// What the walk learnt about the node it just left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Holds,
    Fails,
}

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

    /// Walks the whole proof tree (`claim` = [`Status::Proven`]) or disproof tree
    /// ([`Status::Disproven`]) of `attacker`'s search from `game`'s position, accepting only
    /// leaves the game scores itself, and searching again with df-pn wherever the table cannot
    /// say which move proves a node. `memo` is scratch memory for the set of verified positions
    /// (more slots, fewer repeated walks in games with transpositions; empty works). The
    /// position is restored before returning.
    pub fn verify<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        claim: Status,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> Verification<G::Move> {
        let claim_attacker_wins = match claim {
            Status::Proven => true,
            Status::Disproven => false,
            Status::Unknown(_) => {
                return Verification {
                    verdict: Verdict::Unknown(Reason::Thresholds),
                    winning_move: None,
                    stats: VerifyStats::default(),
                };
            }
        };
        let mut walker = Walker {
            memo: KeySet::new(memo),
            stats: VerifyStats::default(),
            attacker,
            claim_attacker_wins,
        };
        let verdict = self.walk(game, &mut walker, table, limits);
        // The root frame still names the child that made a winner-to-move root hold.
        let root = self.frames[0];
        let winning_move = (verdict == Verdict::Verified
            && root.n_children > 0
            && walker.winner_to_move(root.mover))
        .then(|| self.children[(root.first_child + root.best) as usize].mv);
        Verification {
            verdict,
            winning_move,
            stats: walker.stats,
        }
    }

    /// The verification walk: an explicit loop over frames, like MID.
    fn walk<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        w: &mut Walker<'_>,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> Verdict {
        self.attacker = w.attacker;
        let mut depth = 0usize;
        let mut result = match self.walk_enter(game, w, table, 0, 0, None) {
            Entered::Leaf(r) => return verdict(r),
            Entered::Frame => None,
            Entered::Error(reason) => return Verdict::Unknown(reason),
        };
        loop {
            if let Some(r) = result.take() {
                // The frame at `depth` is decided: hand the result to its parent.
                if r == Walk::Holds {
                    w.memo.insert(self.frames[depth].key);
                }
                if depth == 0 {
                    return verdict(r);
                }
                depth -= 1;
                game.undo(self.walk_child(depth).mv);
                result = self.walk_child_done(depth, w, r);
                continue;
            }
            if w.stats.nodes >= limits.max_nodes {
                return self.walk_abort(game, depth, Reason::NodeLimit);
            }
            if let Some(stop) = limits.stop
                && stop.load(core::sync::atomic::Ordering::Relaxed)
            {
                return self.walk_abort(game, depth, Reason::Stopped);
            }
            match self.walk_next(depth, w) {
                Next::Decided(r) => result = Some(r),
                Next::Child(index) => {
                    if depth + 1 > self.max_depth() {
                        return self.walk_abort(game, depth, Reason::DepthLimit);
                    }
                    self.frames[depth].best = index;
                    let mv = self.walk_child(depth).mv;
                    game.play(mv);
                    let frame = self.frames[depth];
                    let first = frame.first_child + frame.n_children;
                    match self.walk_enter(game, w, table, depth + 1, first, None) {
                        Entered::Leaf(r) => {
                            game.undo(mv);
                            result = self.walk_child_done(depth, w, r);
                        }
                        Entered::Frame => depth += 1,
                        Entered::Error(reason) => {
                            game.undo(mv);
                            return self.walk_abort(game, depth, reason);
                        }
                    }
                }
                Next::Research => {
                    // No child is known to prove this node on this path: search it again on top
                    // of the walk's path, with the children that failed here excluded, and try
                    // the move the search finds. A disproof by that search is sound on any
                    // path; a proof may lean on a stored proof through a position of this path,
                    // which the walk then catches and excludes.
                    let frame = self.frames[depth];
                    if !frame.fresh {
                        return self.walk_abort(game, depth, Reason::TooManyMoves);
                    }
                    w.stats.searches += 1;
                    let infinite = Numbers::new(INFINITE, INFINITE);
                    self.root_excluded = frame.excluded;
                    let r = self.search_from(
                        game,
                        w.attacker,
                        infinite,
                        depth,
                        frame.first_child,
                        table,
                        limits,
                    );
                    self.root_excluded = 0;
                    self.attacker = w.attacker;
                    if let Status::Unknown(reason) = r.status {
                        return self.walk_abort(game, depth, reason);
                    }
                    if (r.status == Status::Proven) != w.claim_attacker_wins {
                        result = Some(Walk::Fails);
                        continue;
                    }
                    let hint = self.root_best;
                    let again = Reentry {
                        hint,
                        excluded: frame.excluded,
                    };
                    match self.walk_enter(game, w, table, depth, frame.first_child, Some(again)) {
                        Entered::Frame => {}
                        Entered::Leaf(r) => result = Some(r),
                        Entered::Error(reason) => return self.walk_abort(game, depth, reason),
                    }
                }
            }
        }
    }

    /// Sets up the walk's frame `depth` for the position `game` is in, or scores it as a leaf.
    /// `again` is set when the node was just searched again.
    fn walk_enter<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        w: &mut Walker<'_>,
        table: &mut T,
        depth: usize,
        first_child: u32,
        again: Option<Reentry>,
    ) -> Entered {
        w.stats.nodes += 1;
        let hash = game.hash();
        let mover = game.side_to_move();
        let outcome = game.outcome();
        if game.has_failed() {
            return Entered::Error(Reason::GameError);
        }
        if self.frames[..depth].iter().any(|f| f.hash == hash) {
            let numbers = self.repetition_numbers(game, mover);
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover)));
        }
        if let Some(numbers) = known_numbers(outcome, mover, w.attacker) {
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover)));
        }
        let path_key = match depth {
            0 => 0,
            d => self.frames[d - 1].path_key ^ self.contribution(self.frames[d - 1].hash),
        };
        // Proofs never rely on repetitions under the draw rule, so they hold on every path (as
        // everything does in acyclic games); anything else is remembered for this set of
        // ancestors only.
        let path_free = match G::REPETITION_RULE {
            RepetitionRule::Acyclic => true,
            RepetitionRule::Draw => w.claim_attacker_wins,
            RepetitionRule::ByPosition => false,
        };
        let memo_key = if path_free {
            self.position_key(hash)
        } else {
            self.path_key(hash, path_key)
        };
        if again.is_none() && w.memo.contains(memo_key) {
            w.stats.memo_hits += 1;
            return Entered::Leaf(Walk::Holds);
        }
        let n = {
            let mut list = MoveList::new(self.scratch);
            game.generate_moves(&mut list);
            if game.has_failed() {
                return Entered::Error(Reason::GameError);
            }
            if list.overflowed() {
                return Entered::Error(Reason::TooManyMoves);
            }
            list.len()
        };
        if n == 0 {
            let value = game.no_moves_value();
            let numbers = framed(value, mover, w.attacker);
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover)));
        }
        let first = first_child as usize;
        if first + n > self.children.len() {
            return Entered::Error(Reason::DepthLimit);
        }
        let winner_to_move = w.winner_to_move(mover);
        let excluded = again.map_or(0, |a| a.excluded);
        for i in 0..n {
            let mv = self.scratch[i];
            let mut child = Child {
                mv,
                ..Child::default()
            };
            if winner_to_move && !(i < 64 && excluded & (1 << i) != 0) {
                // Children that win at once by the game's own scoring, then those the table
                // says prove the node (numbers in this node's view).
                game.play(mv);
                let child_hash = game.hash();
                let child_mover = game.side_to_move();
                let flip = child_mover != mover;
                let known = known_numbers(game.outcome(), child_mover, w.attacker);
                let child_path = path_key ^ self.contribution(hash);
                let numbers = known.or_else(|| {
                    self.lookup(table, child_hash, child_path, true)
                        .filter(|(e, _)| e.numbers.is_solved())
                        .map(|(e, _)| {
                            child.distance = e.distance;
                            e.numbers
                        })
                });
                game.undo(mv);
                if let Some(own) = numbers {
                    child.numbers = if flip { own.swapped() } else { own };
                }
            } else if winner_to_move {
                child.numbers = Numbers::LOSS; // failed here before
            }
            self.children[first + i] = child;
        }
        if game.has_failed() {
            return Entered::Error(Reason::GameError);
        }
        if let Some(Reentry {
            hint: Some(best), ..
        }) = again
            && (best as usize) < n
        {
            // The search's own choice comes first, whatever the table kept.
            self.children[first + best as usize].numbers = Numbers::WIN;
            self.children[first + best as usize].distance = 0;
        }
        self.frames[depth] = Frame {
            hash,
            key: memo_key,
            path_key,
            first_child,
            n_children: n as u32,
            best: 0,
            mover,
            excluded,
            ..Frame::EMPTY
        };
        Entered::Frame
    }

    /// What frame `depth` does next.
    fn walk_next(&mut self, depth: usize, w: &Walker<'_>) -> Next {
        let frame = self.frames[depth];
        let first = frame.first_child as usize;
        let kids = &self.children[first..first + frame.n_children as usize];
        if w.winner_to_move(frame.mover) {
            // The untried child the table says wins, shortest first.
            let pick = kids
                .iter()
                .enumerate()
                .filter(|(_, c)| c.numbers.is_win())
                .min_by_key(|(_, c)| c.distance)
                .map(|(i, _)| i as u32);
            match pick {
                Some(i) => Next::Child(i),
                None => Next::Research,
            }
        } else if frame.best == frame.n_children {
            Next::Decided(Walk::Holds)
        } else {
            Next::Child(frame.best)
        }
    }

    /// The child frame `depth` is walking.
    fn walk_child(&self, depth: usize) -> Child<G::Move> {
        let frame = &self.frames[depth];
        self.children[(frame.first_child + frame.best) as usize]
    }

    /// Takes the walked child's result into frame `depth`; `Some` when that decides the frame.
    fn walk_child_done(&mut self, depth: usize, w: &Walker<'_>, r: Walk) -> Option<Walk> {
        let frame = self.frames[depth];
        let slot = (frame.first_child + frame.best) as usize;
        if w.winner_to_move(frame.mover) {
            match r {
                Walk::Holds => Some(Walk::Holds),
                Walk::Fails => {
                    // Never try this child again, nor let a new search choose it.
                    self.children[slot].numbers = Numbers::LOSS;
                    if frame.best < 64 {
                        self.frames[depth].excluded |= 1 << frame.best;
                    } else {
                        self.frames[depth].fresh = false; // cannot be excluded
                    }
                    None
                }
            }
        } else {
            match r {
                Walk::Holds => {
                    self.frames[depth].best += 1;
                    None
                }
                Walk::Fails => Some(Walk::Fails),
            }
        }
    }

    /// Takes back the walk's moves above frame `depth` and reports `reason`.
    fn walk_abort(&mut self, game: &mut G, depth: usize, reason: Reason) -> Verdict {
        for d in (0..depth).rev() {
            game.undo(self.walk_child(d).mv);
        }
        Verdict::Unknown(reason)
    }
}

fn holds(b: bool) -> Walk {
    if b { Walk::Holds } else { Walk::Fails }
}

/// The state of a verification walk.
struct Walker<'a> {
    memo: KeySet<'a>,
    stats: VerifyStats,
    attacker: Player,
    claim_attacker_wins: bool,
}

impl Walker<'_> {
    /// True when the claimed winner is to move (one child must hold).
    fn winner_to_move(&self, mover: Player) -> bool {
        (mover == self.attacker) == self.claim_attacker_wins
    }

    /// Whether numbers of a node with `mover` to move say the claim holds there.
    fn numbers_hold(&self, numbers: Numbers, mover: Player) -> bool {
        if self.winner_to_move(mover) {
            numbers.is_win()
        } else {
            numbers.is_loss()
        }
    }
}

/// How a node is entered again after it was searched anew.
#[derive(Clone, Copy)]
struct Reentry {
    /// The child the search chose.
    hint: Option<u32>,
    /// Children that failed at this node before.
    excluded: u64,
}

enum Entered {
    Leaf(Walk),
    Frame,
    Error(Reason),
}

enum Next {
    Decided(Walk),
    Child(u32),
    Research,
}

fn verdict(r: Walk) -> Verdict {
    match r {
        Walk::Holds => Verdict::Verified,
        Walk::Fails => Verdict::Refuted,
    }
}
