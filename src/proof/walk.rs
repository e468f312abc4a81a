//! The verification walk: the whole proof (or disproof) tree, accepting only leaves the game
//! scores, and optionally writing it as a certificate.

use crate::certificate::{Heading, Sink, Writer};
use crate::dfpn::{Child, Dfpn, Frame};
use crate::game::{ENCODING_CAPACITY, Game, MoveList, Player, RepetitionRule};
use crate::keys::{Keying, NO_REP, framed, known_numbers, settled_by_class};
use crate::limits::{CLOCK_POLL_INTERVAL, Limits, Reason};
use crate::number::{INFINITE, Numbers};
use crate::result::{Stats, Status};
use crate::table::TranspositionTable;
use crate::table::entry::mix64;

use super::memo::KeyMap;
use super::{Verdict, Verification, VerifyStats};

impl<G: Game> Dfpn<'_, G> {
    /// Walks the whole proof tree (`claim` = [`Status::Proven`]) or disproof tree
    /// ([`Status::Disproven`]) of `attacker`'s search from `game`'s position, accepting only
    /// leaves the game scores itself, and searching again with df-pn wherever the table cannot
    /// say which move proves a node. `memo` is scratch memory for the positions verified (two
    /// words each; more, fewer repeated walks in games with transpositions; empty works; in a
    /// game with dominance it also remembers classes, see the [module docs](crate::proof)).
    /// The position is restored before returning.
    pub fn verify<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        claim: Status,
        table: &mut T,
        memo: &mut [u64],
        limits: &mut Limits<'_>,
    ) -> Verification<G::Move> {
        self.walk_claim(game, attacker, claim, table, memo, None, limits)
    }

    /// [`verify`](Dfpn::verify), writing the (dis)proof it walks into `sink` as a
    /// [certificate](crate::certificate) of `claim`, headed with `game_name`. The certificate
    /// is complete when the verdict is [`Verdict::Verified`]; otherwise what the sink took is
    /// no certificate. A sink that refuses bytes ends the walk with
    /// [`Verdict::Unknown`]`(`[`Reason::Output`]`)`.
    #[allow(clippy::too_many_arguments)]
    pub fn certify<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        claim: Status,
        table: &mut T,
        memo: &mut [u64],
        game_name: &str,
        sink: &mut dyn Sink,
        limits: &mut Limits<'_>,
    ) -> Verification<G::Move> {
        let mut encoding = [0u8; ENCODING_CAPACITY];
        let root_encoding = match game.encode(&mut encoding) {
            Some(n) if n <= ENCODING_CAPACITY => &encoding[..n],
            Some(_) => {
                return Verification {
                    verdict: Verdict::Unknown(Reason::GameError),
                    winning_move: None,
                    stats: VerifyStats::default(),
                };
            }
            None => &[],
        };
        let heading = Heading {
            game: game_name,
            rule: G::REPETITION_RULE,
            attacker,
            attacker_wins: claim == Status::Proven,
            root_encoding,
        };
        let writer = Writer::new(sink, &heading);
        self.walk_claim(game, attacker, claim, table, memo, Some(writer), limits)
    }

    /// The walk behind [`verify`](Dfpn::verify) and [`certify`](Dfpn::certify).
    #[allow(clippy::too_many_arguments)]
    fn walk_claim<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        claim: Status,
        table: &mut T,
        memo: &mut [u64],
        writer: Option<Writer<'_>>,
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
            memo: KeyMap::new(memo),
            stats: VerifyStats::default(),
            attacker,
            claim_attacker_wins,
            writer,
            next_id: 0,
            discarded: Discarded::default(),
            start_us: limits.now_us(),
        };
        let (mut verdict, root) = self.walk(game, &mut walker, table, limits);
        if let Some(writer) = walker.writer.take() {
            match (verdict, writer.finish(root)) {
                (Verdict::Verified, Ok(records)) => walker.stats.records = records,
                (Verdict::Verified, Err(_)) => verdict = Verdict::Unknown(Reason::Output),
                _ => {}
            }
        }
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

    /// The verification walk: an explicit loop over frames, like MID. Returns the verdict and
    /// the root's node (0 when the game scores the root itself).
    fn walk<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        w: &mut Walker<'_, '_>,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> (Verdict, u64) {
        self.set_attacker(w.attacker, table);
        let mut depth = 0usize;
        let mut result = match self.walk_enter(game, w, table, 0, 0, None) {
            Entered::Leaf(r) => return verdict(r),
            Entered::Frame => None,
            Entered::Error(reason) => return (Verdict::Unknown(reason), 0),
        };
        loop {
            if let Some(r) = result.take() {
                // The frame at `depth` is decided: hand the result to its parent.
                let r = match r {
                    Walk::Holds(..) => {
                        let frame = self.frames[depth];
                        // A repetition of this node or one below is part of its own subtree's
                        // cycle and holds on any line; only one above makes it conditional.
                        let rep = if frame.walk_rep as usize >= depth {
                            NO_REP
                        } else {
                            frame.walk_rep
                        };
                        // Under the draw rule, a disproof that relies on no repetition above
                        // holds on every line (the defender's cycles are its own; another
                        // line's repetitions are draws too), so any line may reuse it. Not
                        // by position, where another line's repetition may score otherwise.
                        let key =
                            if rep == NO_REP && G::REPETITION_RULE != RepetitionRule::ByPosition {
                                self.position_key(frame.ident)
                            } else {
                                frame.key
                            };
                        w.remember_held(key, frame.work_start);
                        if rep == NO_REP {
                            w.remember_class(game, frame.work_start);
                        }
                        self.write_node(depth, w);
                        if w.writer.as_ref().is_some_and(Writer::failed) {
                            return self.walk_abort(game, depth, Reason::Output);
                        }
                        Walk::Holds(frame.work_start, rep)
                    }
                    Walk::Fails => {
                        // What the frame's subtree held is no part of the certificate.
                        w.discard(self.frames[depth].work_start);
                        Walk::Fails
                    }
                };
                if depth == 0 {
                    return verdict(r);
                }
                depth -= 1;
                game.undo(self.walk_child(depth).mv);
                result = self.walk_child_done(depth, w, r);
                continue;
            }
            if let Some(reason) = w.exceeded(limits) {
                return self.walk_abort(game, depth, reason);
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
                    // The search gets what the walk has left of the node budget.
                    let spent = Stats {
                        nodes: w.stats.nodes + w.stats.search_nodes,
                        ..Stats::default()
                    };
                    let r = limits.after(&spent, |limits| {
                        self.search_from(
                            game,
                            w.attacker,
                            infinite,
                            depth,
                            frame.first_child,
                            table,
                            limits,
                        )
                    });
                    self.root_excluded = 0;
                    w.stats.search_nodes += r.stats.nodes;
                    if let Status::Unknown(reason) = r.status {
                        return self.walk_abort(game, depth, reason);
                    }
                    if (r.status == Status::Proven) != w.claim_attacker_wins {
                        // The search overwrote the frame: put its node back for the parent.
                        self.frames[depth] = frame;
                        result = Some(Walk::Fails);
                        continue;
                    }
                    let again = Reentry {
                        hint: self.root_best,
                        excluded: frame.excluded,
                        node: frame.work_start,
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
        w: &mut Walker<'_, '_>,
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
        let Some(ident) = identity(game) else {
            return Entered::Error(Reason::GameError);
        };
        if let Some(at) = self.frames[..depth].iter().position(|f| f.ident == ident) {
            // A repetition of the line: in a certificate, a reference to that position's node.
            let numbers = self.repetition_numbers(game, mover);
            let node = self.frames[at].work_start;
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover), node, at as u16));
        }
        if let Some(numbers) = known_numbers(outcome, mover, w.attacker) {
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover), 0, NO_REP));
        }
        // The search's path key, to find the table's hints; the walk's own, of identities.
        let (path_key, ident_path) = match depth {
            0 => (0, 0),
            d => {
                let up = &self.frames[d - 1];
                (
                    up.path_key ^ self.contribution(up.hash),
                    up.ident_path ^ self.contribution(up.ident),
                )
            }
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
            self.position_key(ident)
        } else {
            self.path_key(ident, ident_path)
        };
        if again.is_none() {
            // Under the acyclic and draw rules, what held relying on no repetition above holds
            // on every line (remembered under the position key); what relied on one holds for
            // these ancestors (under the path key, and may rely on any of them: assume the
            // shallowest). By position, everything is remembered per set of ancestors.
            let general = (G::REPETITION_RULE != RepetitionRule::ByPosition)
                .then(|| self.position_key(ident));
            let found = general
                .and_then(|key| w.held(key))
                .map(|node| (node, NO_REP))
                .or_else(|| {
                    (general != Some(memo_key))
                        .then(|| w.held(memo_key))
                        .flatten()
                        .map(|node| (node, 0))
                });
            if let Some((node, rep)) = found {
                w.stats.memo_hits += 1;
                return Entered::Leaf(Walk::Holds(node, rep));
            }
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
            return Entered::Leaf(holds(w.numbers_hold(numbers, mover), 0, NO_REP));
        }
        // Dominated by a position of its class that held (asked of positions with moves only,
        // as the search asks its dominance questions): in a certificate, a DOM record.
        if again.is_none()
            && let Some(by) = w.class_holds(game)
        {
            w.stats.memo_hits += 1;
            let node = w.new_node();
            if let Some(writer) = w.writer.as_mut() {
                writer.dominated_node(node, by);
                w.stats.records += 1;
            }
            return Entered::Leaf(Walk::Holds(node, NO_REP));
        }
        let first = first_child as usize;
        if !self.children.reserve(first + n) {
            return Entered::Error(Reason::DepthLimit);
        }
        let winner_to_move = w.winner_to_move(mover);
        let excluded = again.map_or(0, |a| a.excluded);
        let child_path = path_key ^ self.contribution(hash);
        // The shortest win the table hints at (plies to the end of its line).
        let mut shortest_hint: Option<u16> = None;
        for i in 0..n {
            let mv = self.scratch[i];
            let mut child = Child {
                mv,
                ..Child::default()
            };
            let tried = i < 64 && excluded & (1 << i) != 0;
            if winner_to_move && tried {
                child.numbers = Numbers::LOSS; // failed here before
            } else if winner_to_move {
                // The children the table says prove the node (numbers in this node's view):
                // only a hint, which the walk then checks.
                let (child_hash, child_mover) = game.peek(mv);
                child.flip = child_mover != mover;
                let exact = self
                    .lookup(table, child_hash, child_path, true)
                    .map(|(e, _)| e)
                    .filter(|e| e.numbers.is_solved());
                // A game with dominance also hints by a solved position of the child's class
                // (the search settled many positions that way, and never stored them).
                let hint = exact.or_else(|| {
                    game.dominance().then(|| {
                        game.play(mv);
                        let e = self.dominated(table, game);
                        game.undo(mv);
                        e
                    })?
                });
                if let Some(e) = hint {
                    child.distance = e.distance;
                    child.numbers = if child.flip {
                        e.numbers.swapped()
                    } else {
                        e.numbers
                    };
                    if child.numbers.is_win() {
                        shortest_hint =
                            Some(shortest_hint.map_or(e.distance, |d| d.min(e.distance)));
                    }
                }
            }
            self.children[first + i] = child;
        }
        if winner_to_move && shortest_hint != Some(0) {
            // Unless the table hints at a win at once, the children the game itself scores as
            // won: they end the line there, where a hinted line may wander (a table kept
            // across searches holds proofs from other lines, whose distances need not shrink
            // along this one).
            for i in 0..n {
                let child = &self.children[first + i];
                if i < 64 && excluded & (1 << i) != 0 || child.numbers.is_solved() {
                    continue;
                }
                let mv = child.mv;
                game.play(mv);
                let known = known_numbers(game.outcome(), game.side_to_move(), w.attacker);
                game.undo(mv);
                let child = &mut self.children[first + i];
                if let Some(own) = known {
                    child.numbers = if child.flip { own.swapped() } else { own };
                    child.distance = 0;
                }
            }
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
        // A node searched again keeps its id: nodes below it may already refer to it.
        let node = match again {
            Some(a) => a.node,
            None => w.new_node(),
        };
        self.frames[depth] = Frame {
            hash,
            key: memo_key,
            path_key,
            work_start: node,
            first_child,
            n_children: n as u32,
            best: 0,
            mover,
            excluded,
            ident,
            ident_path,
            walk_rep: NO_REP,
            ..Frame::EMPTY
        };
        Entered::Frame
    }

    /// What frame `depth` does next.
    fn walk_next(&mut self, depth: usize, w: &Walker<'_, '_>) -> Next {
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
            Next::Decided(Walk::Holds(frame.work_start, NO_REP))
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
    fn walk_child_done(&mut self, depth: usize, w: &Walker<'_, '_>, r: Walk) -> Option<Walk> {
        let frame = self.frames[depth];
        let slot = (frame.first_child + frame.best) as usize;
        match r {
            Walk::Holds(node, rep) => {
                set_node(&mut self.children[slot], node);
                let walk_rep = &mut self.frames[depth].walk_rep;
                *walk_rep = (*walk_rep).min(rep);
                if w.winner_to_move(frame.mover) {
                    Some(Walk::Holds(frame.work_start, NO_REP))
                } else {
                    self.frames[depth].best += 1;
                    None
                }
            }
            Walk::Fails if w.winner_to_move(frame.mover) => {
                // Never try this child again, nor let a new search choose it.
                self.children[slot].numbers = Numbers::LOSS;
                if frame.best < 64 {
                    self.frames[depth].excluded |= 1 << frame.best;
                } else {
                    self.frames[depth].fresh = false; // cannot be excluded
                }
                None
            }
            Walk::Fails => Some(Walk::Fails),
        }
    }

    /// Writes the certificate record of frame `depth`, which holds: the winning move's index
    /// and node where the claimed winner is to move, every move's node where the other side is.
    fn write_node(&self, depth: usize, w: &mut Walker<'_, '_>) {
        let Some(writer) = w.writer.as_mut() else {
            return;
        };
        let frame = &self.frames[depth];
        let first = frame.first_child as usize;
        let kids = &self.children[first..first + frame.n_children as usize];
        let id = frame.work_start;
        if (frame.mover == w.attacker) == w.claim_attacker_wins {
            let chosen = frame.best as usize;
            writer.or_node(id, chosen as u64, node_of(&kids[chosen]));
        } else {
            writer.and_node(id, kids.iter().map(node_of));
        }
        w.stats.records += 1;
    }

    /// Takes back the walk's moves above frame `depth` and reports `reason`.
    fn walk_abort(&mut self, game: &mut G, depth: usize, reason: Reason) -> (Verdict, u64) {
        for d in (0..depth).rev() {
            game.undo(self.walk_child(d).mv);
        }
        (Verdict::Unknown(reason), 0)
    }
}

/// The position's identity for the walk: a hash of its exact encoding ([`Game::encode`]), so
/// that positions the game's own hash confuses are still told apart (with the odds of a
/// 64-bit hash of their encodings colliding), or the game's hash when it has no encoding.
/// `None` when the game writes more than [`ENCODING_CAPACITY`] bytes.
fn identity<G: Game>(game: &G) -> Option<u64> {
    hashed_encoding(|bytes| game.encode(bytes), || game.hash())
}

/// The class's identity, as [`identity`] is the position's: a hash of the class's exact
/// encoding ([`Game::encode_class`]), or the game's class hash when it has none. The table's
/// class entries are keyed by the class hash, so a class confusion there is not one here.
fn class_identity<G: Game>(game: &G) -> Option<u64> {
    hashed_encoding(|bytes| game.encode_class(bytes), || game.class_hash())
}

/// A hash of the bytes `encode` writes, or `otherwise` when it writes none; `None` when it
/// claims more than [`ENCODING_CAPACITY`] bytes.
fn hashed_encoding(
    encode: impl FnOnce(&mut [u8]) -> Option<usize>,
    otherwise: impl FnOnce() -> u64,
) -> Option<u64> {
    let mut bytes = [0u8; ENCODING_CAPACITY];
    let Some(n) = encode(&mut bytes) else {
        return Some(otherwise());
    };
    let bytes = bytes.get(..n)?;
    let mut h = mix64(n as u64 ^ ENCODING_SALT);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = mix64(h ^ u64::from_le_bytes(word));
    }
    Some(h)
}

/// Keeps the class memo's keys apart from positions' (an arbitrary odd constant).
const CLASS_SALT: u64 = 0xBB67_AE85_84CA_A73B;

/// Keeps the memo's keys for nodes' materials apart from the others (an arbitrary odd
/// constant).
const MATERIAL_SALT: u64 = 0x3C6E_F372_FE94_F82B;

/// The memo key of the material of the position held at `node`.
fn material_key(node: u64) -> u64 {
    mix64(node ^ MATERIAL_SALT)
}

/// The node ids of the subtrees that failed while a certificate is written: its references
/// must reach only records the checker reaches from the root (a dominance record's node is
/// checked before the record, and a failed subtree's nodes are not checked at all). Ids are
/// given out in walk order, so a failed subtree is a range, and a later failure above it
/// swallows it: a stack of disjoint ranges in increasing order. When the stack is full,
/// every id up to the newest failure counts as failed (fewer references, never a wrong one).
#[derive(Clone, Copy)]
struct Discarded {
    ranges: [(u64, u64); DISCARDED_RANGES],
    len: usize,
    /// Every id up to this one counts as failed.
    floor: u64,
}

/// How many failed ranges [`Discarded`] tells apart.
const DISCARDED_RANGES: usize = 64;

impl Default for Discarded {
    fn default() -> Self {
        Discarded {
            ranges: [(0, 0); DISCARDED_RANGES],
            len: 0,
            floor: 0,
        }
    }
}

impl Discarded {
    /// The ids from `first` to `last` failed.
    fn add(&mut self, first: u64, last: u64) {
        if first > last {
            return;
        }
        while self.len > 0 && self.ranges[self.len - 1].0 >= first {
            self.len -= 1;
        }
        if self.len > 0 && self.ranges[self.len - 1].1 + 1 >= first {
            let top = &mut self.ranges[self.len - 1];
            top.1 = top.1.max(last);
        } else if self.len < DISCARDED_RANGES {
            self.ranges[self.len] = (first, last);
            self.len += 1;
        } else {
            self.floor = last;
            self.len = 0;
        }
    }

    /// Whether id `node` lies outside every failed range.
    fn keeps(&self, node: u64) -> bool {
        if node <= self.floor {
            return false;
        }
        let ranges = &self.ranges[..self.len];
        // The last range starting at or before `node`.
        let after = ranges.partition_point(|&(first, _)| first <= node);
        after == 0 || ranges[after - 1].1 < node
    }
}

/// Keeps encodings' identities apart from game hashes (an arbitrary odd constant).
const ENCODING_SALT: u64 = 0x6A09_E667_F3BC_C909;

/// A walked child's node, kept in its numbers' place: the walk has no use for the numbers of
/// a child it has walked (the claimed winner's frame is decided by the first child that holds,
/// and the other side's frame walks its children in order).
fn set_node<M>(child: &mut Child<M>, node: u64) {
    child.numbers = Numbers::new(node as u32, (node >> 32) as u32);
}

/// The node [`set_node`] kept.
fn node_of<M>(child: &Child<M>) -> u64 {
    child.numbers.phi as u64 | (child.numbers.delta as u64) << 32
}

/// `Holds` at `node`, relying on a repetition at line depth `rep`, when `b`; else `Fails`.
fn holds(b: bool, node: u64, rep: u16) -> Walk {
    if b {
        Walk::Holds(node, rep)
    } else {
        Walk::Fails
    }
}

/// The verdict of the root's walk, and its node.
fn verdict(r: Walk) -> (Verdict, u64) {
    match r {
        Walk::Holds(node, _) => (Verdict::Verified, node),
        Walk::Fails => (Verdict::Refuted, 0),
    }
}

/// The state of a verification walk.
struct Walker<'m, 's> {
    /// The positions that held, and in a game with dominance their classes, each with the
    /// materials that held ([`remember_class`](Walker::remember_class)).
    memo: KeyMap<'m>,
    stats: VerifyStats,
    attacker: Player,
    claim_attacker_wins: bool,
    /// The certificate being written, if any.
    writer: Option<Writer<'s>>,
    /// The last node id given out (ids start at 1; 0 is a leaf the game scores).
    next_id: u64,
    /// Writing a certificate: the nodes of subtrees that failed, which it must not refer to.
    discarded: Discarded,
    /// The clock when the walk began.
    start_us: Option<u64>,
}

impl Walker<'_, '_> {
    /// The node remembered for a position key that held, if the certificate may refer to it.
    fn held(&self, key: u64) -> Option<u64> {
        let mut found = None;
        self.memo.any(key, |node| {
            let kept = self.kept(node);
            found = kept.then_some(node);
            kept
        });
        found
    }

    /// Remembers that the position keyed `key` held at `node`. Writing a certificate, a key
    /// keeps every node it held at (one may later be discarded); otherwise the first.
    fn remember_held(&mut self, key: u64, node: u64) {
        if self.writer.is_some() {
            self.memo.insert_value(key, node);
        } else {
            self.memo.insert(key, node);
        }
    }

    /// Remembers that the position `game` is in holds on every line (at `node`), for the
    /// positions of its class with material at least as good for the claimed winner, in a
    /// game with dominance: a proof that leans on dominance reaches positions the search never
    /// visited (a shogi position proven with a gold in hand proves the one with two), whose
    /// subtrees the table knows nothing of. The class keeps the node, the node its material.
    fn remember_class<G: Game>(&mut self, game: &G, node: u64) {
        if let Some(class) = self.class_key(game) {
            let material = game.material();
            if !game.has_failed() {
                self.memo.insert_value(class, node);
                self.memo.insert(material_key(node), u64::from(material));
            }
        }
    }

    /// The node of a position of the class of the one `game` is in, with material no better
    /// for the claimed winner, that held on every line: this one then holds by the game's
    /// dominance.
    fn class_holds<G: Game>(&self, game: &G) -> Option<u64> {
        let class = self.class_key(game)?;
        let material = game.material();
        if game.has_failed() {
            return None;
        }
        let mut found = None;
        self.memo.any(class, |node| {
            let held = self.memo.get(material_key(node));
            let settles = self.kept(node)
                && held.is_some_and(|held| {
                    settled_by_class(
                        game,
                        self.attacker,
                        self.claim_attacker_wins,
                        material,
                        held as u32,
                    )
                });
            found = settles.then_some(node);
            settles
        });
        found
    }

    /// The memo key of the class of the position `game` is in, when the walk remembers
    /// classes there (see [`remember_class`](Walker::remember_class)).
    fn class_key<G: Game>(&self, game: &G) -> Option<u64> {
        if G::REPETITION_RULE == RepetitionRule::ByPosition || !game.dominance() {
            return None;
        }
        let class = class_identity(game)?;
        (!game.has_failed()).then(|| mix64(class ^ CLASS_SALT))
    }

    /// Writing a certificate, forgets the nodes from `first` to the last given out: a subtree
    /// that failed, whose records no reference from the root reaches.
    fn discard(&mut self, first: u64) {
        if self.writer.is_some() {
            self.discarded.add(first, self.next_id);
        }
    }

    /// Whether the certificate may refer to `node` (always, when none is written).
    fn kept(&self, node: u64) -> bool {
        self.writer.is_none() || self.discarded.keeps(node)
    }

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

    /// A new node id.
    fn new_node(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Why the walk must stop now: its node limit, the stop flag, or (checked every
    /// [`CLOCK_POLL_INTERVAL`] positions) the time limit.
    fn exceeded(&self, limits: &mut Limits<'_>) -> Option<Reason> {
        let nodes = self.stats.nodes + self.stats.search_nodes;
        if nodes >= limits.max_nodes {
            return Some(Reason::NodeLimit);
        }
        if let Some(stop) = limits.stop
            && stop.load(core::sync::atomic::Ordering::Relaxed)
        {
            return Some(Reason::Stopped);
        }
        if self.stats.nodes % CLOCK_POLL_INTERVAL == 0
            && let (Some(start), Some(now)) = (self.start_us, limits.now_us())
            && now.saturating_sub(start) >= limits.max_time_us
        {
            return Some(Reason::TimeLimit);
        }
        None
    }
}

/// What the walk learnt about the node it just left: it holds (in a certificate, at this
/// node: 0 for a position the game scores; relying on a repetition of the line's position at
/// this depth, or on none: [`NO_REP`]), or it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Holds(u64, u16),
    Fails,
}

/// How a node is entered again after it was searched anew.
#[derive(Clone, Copy)]
struct Reentry {
    /// The child the search chose.
    hint: Option<u32>,
    /// Children that failed at this node before.
    excluded: u64,
    /// The node's id, kept.
    node: u64,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_ranges_swallow_those_inside_and_a_full_stack_fails_everything_before() {
        let mut d = Discarded::default();
        d.add(5, 9);
        d.add(12, 14);
        assert!(d.keeps(4) && !d.keeps(5) && !d.keeps(9) && d.keeps(10) && !d.keeps(13));
        d.add(15, 20); // next to the last: one range 12..=20
        assert_eq!(d.len, 2);
        d.add(3, 25); // a failure above both
        assert_eq!(d.len, 1);
        assert!(d.keeps(2) && !d.keeps(3) && !d.keeps(10) && d.keeps(26));
        d.add(7, 6); // no ids given out: nothing
        assert_eq!(d.len, 1);
        let mut full = Discarded::default();
        for k in 0..=DISCARDED_RANGES as u64 {
            full.add(10 * k + 1, 10 * k + 2);
        }
        let last = 10 * DISCARDED_RANGES as u64 + 2;
        assert!(!full.keeps(5) && !full.keeps(last) && full.keeps(last + 1));
    }
}
