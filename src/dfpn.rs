//! Depth-first proof-number search (df-pn) with the 1+ε trick, run as an explicit loop over
//! frames in caller memory.
//!
//! MID (Nagai, *Df-pn algorithm for searching AND/OR trees and its applications*, PhD thesis,
//! University of Tokyo, 2002) is usually written as a recursive function. Here
//! each recursion level is a frame in a caller-supplied stack region and the children's
//! numbers live in that region too, so a deep proof can never overflow the machine stack, and a
//! dropped table write only costs a re-search: the frame still holds its children's (φ, δ)
//! (in recursive df-pn the table is load-bearing: a dropped write loses the children's numbers).
//!
//! # Numbers and thresholds
//! A frame keeps each child's numbers *in the frame's own view* ("how hard is it for the side
//! to move here to win through this child"). With strict alternation that is the child's
//! (δ, φ); when a move keeps the same side to move (passes, extra turns) it is the child's
//! (φ, δ). The node's numbers are then `φ = min φ'(c)` and `δ = Σ δ'(c)`, and the selected child
//! gets the thresholds of the 1+ε trick (Pawlewicz and Lew, *Improving depth-first PN-search:
//! 1 + ε trick*, Computers and Games 2006), in the frame's view:
//! `φ'_t = min(φ_t, max(φ'₂ + 1, ⌈φ'₂ (1 + ε)⌉))` and `δ'_t = δ_t − δ + δ'(c)`
//! (computed in saturating arithmetic, so infinite numbers stay infinite).
//!
//! # Repetitions and the table
//! A child that repeats a position on the current path is a leaf scored by the game's
//! [`RepetitionRule`]. A position's value depends on the path only through the *set* of
//! positions on it, so every frame carries a path key (an XOR of its ancestors' mixed hashes),
//! and the table has two kinds of keys: the position key, for results that hold on every path,
//! and the position-and-path key, for results that hold for one set of ancestors.
//!
//! - [`RepetitionRule::Acyclic`]: no repetition can happen, everything is position-keyed.
//! - [`RepetitionRule::ByPosition`]: a repetition may favour either side, so everything is
//!   path-keyed. Exact for any rule.
//! - [`RepetitionRule::Draw`]: every solved result carries the shallowest path depth whose
//!   repetition it relies on. A solved result relying on no repetition above its own node is
//!   position-keyed; one that does (the graph-history interaction problem, Kishimoto and
//!   Müller) and all unsolved numbers are path-keyed. This is exact:
//!   - a draw never favours the attacker, so proofs never rely on repetitions and conditional
//!     results are always disproofs;
//!   - a disproof relying only on repetitions inside its own subtree holds on every path (the
//!     defender can repeat the same cycle), so it is the position's value with infinite play
//!     counted as a draw (retrograde analysis);
//!   - with stored values that are retrograde-correct and conditional ones that are disproofs,
//!     the root's value is exact: the attacker's distance-decreasing winning strategy never
//!     meets a repetition or a conditional disproof of its own positions, and the defender's
//!     drawing strategy only meets non-wins.
//!
//!   Unsolved numbers are path-keyed with ε = 0 because position-keyed ones can feed on
//!   themselves around a cycle: two siblings on a cycle each read the other's stored numbers,
//!   each search raises them a little, and with ε = 0 the search alternates between them
//!   forever (df-pn's infinite loop on cyclic graphs, Kishimoto and Müller 2003; we saw a
//!   16-node graph spend millions of MID calls this way). Path-keyed numbers depend only on
//!   numbers stored for strictly larger sets of ancestors, which is a finite tree, so every
//!   search terminates. Solved results are still shared between transpositions. With ε > 0
//!   and [`DfpnConfig::share_unsolved`] unsolved numbers are position-keyed, as in classic
//!   df-pn: transpositions share their progress, which pays far more in transposition-rich
//!   games (tsume-shogi, chess mates) than the path keys' guarantee, at the price of that
//!   guarantee (the fuzzer found a cyclic game where it loops to the node limit).
//!
//! Termination otherwise does not rest on the table: each MID call returns only when its
//! numbers reach its thresholds (strictly above the numbers it started with), and those numbers
//! are computed from the frame's own children.

use core::mem::size_of;

use crate::game::{Decided, Game, MoveList, Player, RepetitionRule};
use crate::keys::{Keying, NO_REP, PathFilter, framed, known_numbers, search_salt};
use crate::limits::{CLOCK_POLL_INTERVAL, Limits, Progress, Reason};
use crate::memory::{Carver, LazySlots, MemoryError, bytes_for};
use crate::number::{self, Epsilon, INFINITE, Numbers};
use crate::result::{SearchResult, Stats, Status};
use crate::table::entry::MAX_DISTANCE;
use crate::table::{Entry, TranspositionTable};

/// Settings of the df-pn search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfpnConfig {
    /// ε of the 1+ε trick; [`Epsilon::ZERO`] gives classic df-pn. Default 1/4.
    pub epsilon: Epsilon,
    /// When a position is entered and its numbers, computed from its children, already reach
    /// its thresholds (the table had lost it, so its parent only had a guess), search one of its
    /// children anyway instead of returning at once (threshold raising after Kishimoto's TCA).
    ///
    /// It pays when the table is far too small for the tree: a whole-board solve of 5×4
    /// Connect Four with 16,384 buckets takes 52,391 MID calls with it and 488,115 without.
    /// It costs when the quick return was the useful answer: the 7×6 position
    /// `427631264721` takes 68,554 MID calls with it and 457 without. Default off, as classic
    /// df-pn.
    pub search_stale_entries: bool,
    /// Against over-counting in DAGs: a position reached by several paths is counted once per
    /// path in the sum of δ. With this on, δ is the weak proof number of Ueda et al. (WPNS,
    /// 2008): the largest child δ plus one for each other unsolved child, instead of the sum.
    /// Default off: it depends on the game (`cargo run --release -p proofnum-tools --bin bench --
    /// <game> --weak-delta`, MID calls, 64 MiB table): the Connect Four suite needs 2.3× fewer MID
    /// calls with it (2.35 M → 1.04 M) and the Atari Go crosscut 1.9× fewer (930 k → 493 k),
    /// at the same cost per call, but Ultimate Tic-Tac-Toe's first bench position, solved in
    /// 2.27 M MID calls without it, is still open after 24.6 M with it, and the Connect Four
    /// position `444444` needs 20.3 M MID calls with it against 1.57 M without: it depends on
    /// the position as much as on the game.
    pub weak_delta: bool,
    /// Under [`RepetitionRule::Draw`], store unsolved numbers under the position key, shared by
    /// every path that reaches the position (as classic df-pn does), instead of under the
    /// position-and-path key. Solved results are keyed as always (a disproof that relies on a
    /// repetition above its node stays path-keyed), so answers are exact either way; what
    /// changes is that transpositions share their progress. The price: position-keyed numbers
    /// can feed on themselves around a cycle, so termination no longer follows from the finite
    /// tree of ancestor sets. With ε = 0 that makes df-pn loop (the oracle tests found such
    /// cyclic graphs), so the option is **ignored when ε = 0**; with ε > 0 loops are rarer
    /// (none in 11 runs of the oracle tests' random cyclic graphs) but not impossible (see
    /// below). No effect under the other rules (acyclic games share everything,
    /// [`RepetitionRule::ByPosition`] nothing).
    ///
    /// Sharing, df-pn also skips the second, path-keyed probe of each child, which only
    /// finds disproofs that rely on a repetition above (it still stores them, for the proof
    /// walkers).
    ///
    /// Default off: with ε > 0 too the fuzzer (`fuzz/fuzz_targets/oracle.rs`) found a random
    /// cyclic game where it loops until the node limit, so it is for searches that run under
    /// limits anyway (the chess and tsume mate solvers turn it on). It pays wherever
    /// transpositions are common (`tsumesuite prove
    /// games/suites/tsume-open.jsonl --max-plies 31 --cap 10`, with `--path-keyed-unsolved`
    /// for off: 77 of 89 problems proven against 71, and on the 71 both prove a median 0.74
    /// of the MID calls; `chesssuite prove games/suites/chess-mates.epd --min-mate 1`: the
    /// same 70 mates with a geometric mean of 513 MID calls against 590, in 4.9 s against
    /// 8.3 s).
    pub share_unsolved: bool,
}

impl Default for DfpnConfig {
    fn default() -> Self {
        DfpnConfig {
            epsilon: Epsilon::QUARTER,
            search_stale_entries: false,
            weak_delta: false,
            share_unsolved: false,
        }
    }
}

/// The deepest stack (in plies, history included) a [`Dfpn`] can be built for: repetition
/// depths are recorded in 16 bits.
pub const MAX_STACK_DEPTH: usize = u16::MAX as usize - 1;

/// One level of the MID recursion.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// The game's hash of the position (for repetition checks).
    pub(crate) hash: u64,
    /// Walkers only: the key under which a verified position is remembered.
    pub(crate) key: u64,
    /// XOR of the path contributions of the positions above.
    pub(crate) path_key: u64,
    /// The MID thresholds in this node's view.
    pub(crate) threshold: Numbers,
    /// Numbers of a node without moves (used when `n_children == 0`).
    pub(crate) own: Numbers,
    /// `Stats::mid_calls` when the frame was entered (walkers: the node's certificate id).
    pub(crate) work_start: u64,
    /// Index of the first child slot.
    pub(crate) first_child: u32,
    /// Number of child slots in use.
    pub(crate) n_children: u32,
    /// How many of the last child slots hold moves not made yet ([`Game::deferred_moves`]):
    /// numbered [`Numbers::LOSS`] (counting nothing) until every child before them has
    /// failed for the mover; then the first of them is made.
    pub(crate) deferred: u32,
    /// The child being searched.
    pub(crate) best: u32,
    /// The side to move here.
    pub(crate) mover: Player,
    /// No child has been searched from this frame yet.
    pub(crate) fresh: bool,
    /// Walkers only: children (by index < 64) excluded at this step of a line.
    pub(crate) excluded: u64,
    /// Walkers only: the index of the child chosen at this step of a line.
    pub(crate) chosen: u32,
    /// Verification walks only: the position's identity (a hash of its exact encoding, or the
    /// game's hash when it has none) and the XOR of its ancestors' identities' contributions,
    /// so the walk tells positions apart even where the game's hashes collide.
    pub(crate) ident: u64,
    pub(crate) ident_path: u64,
    /// Verification walks only: the shallowest line depth whose position the node's accepted
    /// subtree repeats ([`NO_REP`]: none), as a solved result's `rep` in MID.
    pub(crate) walk_rep: u16,
}

impl Frame {
    pub(crate) const EMPTY: Frame = Frame {
        hash: 0,
        key: 0,
        path_key: 0,
        threshold: Numbers::UNIT,
        own: Numbers::UNIT,
        work_start: 0,
        first_child: 0,
        n_children: 0,
        deferred: 0,
        best: 0,
        mover: Player::First,
        fresh: true,
        excluded: 0,
        chosen: 0,
        ident: 0,
        ident_path: 0,
        walk_rep: NO_REP,
    };
}

/// A child of a frame.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Child<M> {
    /// The child's numbers in the parent's view.
    pub(crate) numbers: Numbers,
    /// For solved children: plies to the end of the solved line.
    pub(crate) distance: u16,
    /// Shallowest path depth whose repetition this child's solved value relies on.
    pub(crate) rep: u16,
    /// The child's side to move differs from the parent's.
    pub(crate) flip: bool,
    /// The game's `outcome` was asked about the child (when it was made, or when it was
    /// searched): false when its numbers came from a table entry, which a false match may have
    /// given a finished game, so the outcome is asked before the child is expanded.
    pub(crate) checked: bool,
    /// The move from the parent.
    pub(crate) mv: M,
}

/// The node's numbers and the best child, computed from the children.
#[derive(Clone, Copy, Debug)]
struct Eval {
    numbers: Numbers,
    best: u32,
    second_phi: u32,
    /// Every child made so far has failed for the mover, and deferred moves are left: they
    /// must be made before the node is lost (`numbers` then say "unsolved").
    make_next_deferred: bool,
}

/// What a finished frame hands to its parent.
#[derive(Clone, Copy, Debug)]
struct Finished {
    numbers: Numbers,
    distance: u16,
    rep: u16,
    best: Option<u32>,
}

/// What a search is asked to do: which attacker, within which thresholds, after which history.
#[derive(Clone, Copy, Debug)]
pub struct Job<'h> {
    /// The player trying to force a win.
    pub attacker: Player,
    /// The root's MID thresholds in its side to move's view; infinite to solve.
    pub threshold: Numbers,
    /// Hashes of the positions played before the root, oldest first: repetitions of them
    /// count, and they take stack depth.
    pub history: &'h [u64],
}

impl Job<'static> {
    /// Solve the position for `attacker` from scratch.
    pub const fn solve(attacker: Player) -> Job<'static> {
        Job {
            attacker,
            threshold: Numbers::new(INFINITE, INFINITE),
            history: &[],
        }
    }
}

/// A df-pn searcher for games of type `G`, working in a caller-supplied stack region.
///
/// The stack holds `max_depth + 1` frames, child slots for the moves of every frame on the
/// current path, and one move buffer of `max_moves`. Ask [`Dfpn::stack_bytes`] how much to give.
pub struct Dfpn<'m, G: Game> {
    pub(crate) frames: &'m mut [Frame],
    pub(crate) children: LazySlots<'m, Child<G::Move>>,
    pub(crate) scratch: &'m mut [G::Move],
    /// The children's hashes and sides to move from [`Game::peek`], for the move buffer.
    peeks: &'m mut [(u64, Player)],
    config: DfpnConfig,
    filter: PathFilter,
    pub(crate) attacker: Player,
    /// The keys' salt for the attacker and table of the current search (`keys::search_salt`).
    salt: u64,
    base: usize,
    top: usize,
    stats: Stats,
    abort: Option<Reason>,
    start_us: Option<u64>,
    /// Evaluate every child on expansion instead of stopping at the first decisive one (the
    /// principal variation wants the shortest of all wins).
    exhaustive: bool,
    /// The index of the root's proving (or best) child after the last search.
    pub(crate) root_best: Option<u32>,
    /// Root children (by index < 64) the next search treats as not winning for the root's
    /// side to move; the root's result is then not stored. Used by the line walker.
    pub(crate) root_excluded: u64,
    /// In the second search of a full value (`solve_value`): the key salt of the first
    /// search, whose proofs (the other player wins) are this search's disproofs.
    pub(crate) opponent_salt: Option<u64>,
}

impl<'m, G: Game> Dfpn<'m, G> {
    /// Bytes of stack memory for lines of up to `max_depth` plies (history included) in
    /// positions of up to `max_moves` moves, alignment slack included.
    pub const fn stack_bytes(max_depth: usize, max_moves: usize) -> usize {
        let frames = max_depth.saturating_add(1);
        bytes_for::<Frame>(frames)
            .saturating_add(bytes_for::<Child<G::Move>>(
                frames.saturating_mul(max_moves),
            ))
            .saturating_add(bytes_for::<G::Move>(max_moves))
            .saturating_add(match Self::peek_slots(max_moves) {
                0 => 0,
                slots => bytes_for::<(u64, Player)>(slots),
            })
    }

    /// Slots of the peek buffer: only games that remember leaves keep their peeks, so the
    /// others (every game of the C ABI) pay no memory for it.
    const fn peek_slots(max_moves: usize) -> usize {
        if G::REMEMBER_LEAVES { max_moves } else { 0 }
    }

    /// Bytes of stack memory per ply for positions of up to `max_moves` moves.
    pub const fn bytes_per_ply(max_moves: usize) -> usize {
        size_of::<Frame>() + max_moves * size_of::<Child<G::Move>>()
    }

    /// Carves a searcher out of `stack`, sized for `max_depth` plies and `max_moves` moves.
    pub fn new(
        stack: &'m mut [u8],
        max_depth: usize,
        max_moves: usize,
        config: DfpnConfig,
    ) -> Result<Dfpn<'m, G>, MemoryError> {
        let slots = (max_depth + 1)
            .checked_mul(max_moves)
            .filter(|&s| s <= u32::MAX as usize);
        let (Some(slots), true) = (slots, max_depth <= MAX_STACK_DEPTH && max_moves > 0) else {
            return Err(MemoryError::Unsupported);
        };
        let mut carver = Carver::new(stack);
        let frames = carver.take_filled(max_depth + 1, Frame::EMPTY);
        let children = carver.take_lazy(slots);
        let scratch = carver.take_filled(max_moves, G::Move::default());
        let peeks = carver.take_filled(Self::peek_slots(max_moves), (0, Player::First));
        carver.finish()?;
        let (Some(frames), Some(children), Some(scratch), Some(peeks)) =
            (frames, children, scratch, peeks)
        else {
            return Err(MemoryError::Unsupported);
        };
        Ok(Dfpn {
            frames,
            children,
            scratch,
            peeks,
            config,
            filter: PathFilter::EMPTY,
            attacker: Player::First,
            salt: 0,
            base: 0,
            top: 0,
            stats: Stats::default(),
            abort: None,
            start_us: None,
            exhaustive: false,
            root_best: None,
            root_excluded: 0,
            opponent_salt: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> DfpnConfig {
        self.config
    }

    /// Whether unsolved numbers go under the position key: under the draw rule only (acyclic
    /// games key everything by position anyway, and under `ByPosition` every lookup is
    /// path-keyed), and with ε > 0 ([`DfpnConfig::share_unsolved`]).
    #[inline]
    fn shares_unsolved(&self) -> bool {
        G::REPETITION_RULE == RepetitionRule::Draw
            && self.config.share_unsolved
            && self.config.epsilon != Epsilon::ZERO
    }

    /// Changes the configuration for later searches.
    pub fn set_config(&mut self, config: DfpnConfig) {
        self.config = config;
    }

    /// The deepest line (history included) the stack can hold.
    pub fn max_depth(&self) -> usize {
        self.frames.len() - 1
    }

    /// The largest number of moves a position may have.
    pub fn max_moves(&self) -> usize {
        self.scratch.len()
    }

    /// Does `attacker` have a forced win from `game`'s position? The position is restored
    /// before returning, whatever the result.
    pub fn solve<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        self.search(game, &Job::solve(attacker), table, limits)
    }

    /// Runs one MID search from `game`'s position as `job` describes. The position is
    /// restored before returning, whatever the result.
    pub fn search<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        job: &Job<'_>,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        let base = job.history.len();
        if base >= self.frames.len() {
            return SearchResult {
                status: Status::Unknown(Reason::DepthLimit),
                best_move: None,
                numbers: Numbers::UNIT,
                distance: 0,
                path_dependent: false,
                stats: Stats::default(),
            };
        }
        for (frame, &hash) in self.frames.iter_mut().zip(job.history) {
            *frame = Frame {
                hash,
                ..Frame::EMPTY
            };
        }
        self.search_from(game, job.attacker, job.threshold, base, 0, table, limits)
    }

    /// Searches `game`'s position as a root at stack depth `base`, below the positions whose
    /// hashes frames `0..base` hold (the path to it), with child slots from `first_child` on.
    /// Proof walkers keep their own path in the lower frames and search on top of it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_from<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        attacker: Player,
        threshold: Numbers,
        base: usize,
        first_child: u32,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> SearchResult<G::Move> {
        let table_before = table.stats();
        self.stats = Stats::default();
        self.abort = None;
        self.set_attacker(attacker, table);
        self.start_us = limits.now_us();
        self.base = base;
        self.top = base;
        // Path keys and the repetition filter of the path above the root.
        self.filter = PathFilter::EMPTY;
        let mut path_key = 0;
        for i in 0..base {
            self.frames[i].path_key = path_key;
            path_key ^= self.contribution(self.frames[i].hash);
            self.filter.add(self.frames[i].hash);
        }

        let finished = self.run_root(game, threshold, path_key, first_child, table, limits);
        let mover = game.side_to_move();
        let status = match finished {
            Ok(f) if f.numbers.is_solved() && f.numbers.is_win() == (mover == attacker) => {
                Status::Proven
            }
            Ok(f) if f.numbers.is_solved() => Status::Disproven,
            Ok(_) => Status::Unknown(self.abort.unwrap_or(Reason::Thresholds)),
            Err(reason) => Status::Unknown(reason),
        };
        let root = self.frames[base];
        self.root_best = finished.ok().and_then(|f| f.best);
        let best_move = finished
            .ok()
            .and_then(|f| f.best)
            .filter(|&b| b < root.n_children)
            .map(|b| self.children[(root.first_child + b) as usize].mv);
        let (numbers, distance, rep) = match finished {
            Ok(f) => (f.numbers, f.distance, f.rep),
            Err(_) => (Numbers::UNIT, 0, NO_REP),
        };
        let mut stats = self.stats;
        stats.table = table.stats().since(&table_before);
        stats.elapsed_us = match (self.start_us, limits.now_us()) {
            (Some(start), Some(now)) => Some(now.saturating_sub(start)),
            _ => None,
        };
        SearchResult {
            status,
            best_move,
            numbers,
            distance,
            path_dependent: rep != NO_REP,
            stats,
        }
    }

    /// The root's children after the last search, as (move, numbers in the child's own view,
    /// whether the child's side to move differs from the root's). Empty when the root was a
    /// leaf. The parallel solver turns these into tree nodes.
    pub fn root_children(&self) -> impl Iterator<Item = (G::Move, Numbers, bool)> + '_ {
        let root = &self.frames[self.base.min(self.frames.len() - 1)];
        let first = root.first_child as usize;
        self.children[first..first + root.n_children as usize]
            .iter()
            .map(|c| {
                let own = if c.flip {
                    c.numbers.swapped()
                } else {
                    c.numbers
                };
                (c.mv, own, c.flip)
            })
    }

    /// Sets up the root frame, then runs the MID loop. `Err` when nothing could be searched.
    fn run_root<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        threshold: Numbers,
        path_key: u64,
        first_child: u32,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> Result<Finished, Reason> {
        let base = self.base;
        self.frames[base] = Frame {
            first_child,
            ..Frame::EMPTY
        };
        let hash = game.hash();
        let mover = game.side_to_move();
        let outcome = game.outcome();
        if game.has_failed() {
            return Err(Reason::GameError);
        }
        // A root that repeats the history, or whose result is known, needs no search.
        if let Some(depth) = base.checked_sub(1).and_then(|top| self.on_path(hash, top)) {
            self.stats.repetitions += 1;
            self.frames[base].n_children = 0;
            return Ok(Finished {
                numbers: self.repetition_numbers(game, mover),
                distance: 0,
                rep: depth as u16,
                best: None,
            });
        }
        if let Some(numbers) = known_numbers(outcome, mover, self.attacker) {
            self.frames[base].n_children = 0;
            return Ok(Finished {
                numbers,
                distance: 0,
                rep: NO_REP,
                best: None,
            });
        }
        self.frames[base] = Frame {
            hash,
            path_key,
            threshold,
            own: Numbers::UNIT,
            work_start: 0,
            first_child,
            n_children: 0,
            best: 0,
            mover,
            ..Frame::EMPTY
        };
        self.filter.add(hash);
        self.stats.mid_calls = 1;
        self.expand(game, table, base)?;
        Ok(self.run(game, table, limits))
    }

    /// The MID loop. Returns when the root frame finishes.
    fn run<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        limits: &mut Limits<'_>,
    ) -> Finished {
        loop {
            let d = self.top;
            let mut frame = self.frames[d];
            let eval = self.evaluate(&frame);
            if eval.make_next_deferred && self.abort.is_none() {
                if let Err(reason) = self.make_next_deferred(game, table, d) {
                    self.abort = Some(reason);
                }
                continue;
            }
            if frame.fresh
                && d > self.base
                && self.config.search_stale_entries
                && !eval.numbers.is_solved()
                && eval.numbers.reaches(frame.threshold)
            {
                // Search at least one child (see `DfpnConfig::search_stale_entries`).
                frame.threshold = raised_past(frame.threshold, eval.numbers);
                self.frames[d].threshold = frame.threshold;
            }
            if eval.numbers.reaches(frame.threshold) || self.abort.is_some() {
                let done = self.finish(game, d, &frame, &eval, table);
                if d == self.base {
                    return done;
                }
                self.pop(game, d, &done);
                continue;
            }
            if let Some(reason) =
                limits.exceeded(self.stats.nodes, self.stats.mid_calls, self.start_us)
            {
                self.abort = Some(reason);
                continue;
            }
            if self.stats.mid_calls % CLOCK_POLL_INTERVAL == 0 {
                let root_frame = self.frames[self.base];
                let root = self.evaluate(&root_frame).numbers;
                let stats = self.stats;
                limits.report(
                    |elapsed_us| Progress {
                        mid_calls: stats.mid_calls,
                        nodes: stats.nodes,
                        max_depth: stats.max_depth,
                        root,
                        elapsed_us,
                    },
                    self.start_us,
                );
            }
            if d + 1 >= self.frames.len() {
                self.abort = Some(Reason::DepthLimit);
                continue;
            }
            self.push(game, table, d, &frame, &eval);
        }
    }

    /// Enters the best child of frame `d` with its thresholds.
    fn push<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        d: usize,
        frame: &Frame,
        eval: &Eval,
    ) {
        let slot = (frame.first_child + eval.best) as usize;
        let child = self.children[slot];
        // Thresholds in the parent's view (the 1+ε trick's formulas), then in the child's.
        let phi_t = number::child_delta_threshold(
            frame.threshold.phi,
            eval.second_phi,
            self.config.epsilon,
        );
        let delta_t = number::child_phi_threshold(
            frame.threshold.delta,
            eval.numbers.delta,
            child.numbers.delta,
        );
        let threshold = if child.flip {
            Numbers::new(delta_t, phi_t)
        } else {
            Numbers::new(phi_t, delta_t)
        };
        self.frames[d].best = eval.best;
        self.frames[d].fresh = false;
        game.play(child.mv);
        let hash = game.hash();
        let path_key = frame.path_key ^ self.contribution(frame.hash);
        self.frames[d + 1] = Frame {
            hash,
            path_key,
            threshold,
            own: Numbers::UNIT,
            work_start: self.stats.mid_calls,
            first_child: frame.first_child + frame.n_children,
            n_children: 0,
            best: 0,
            mover: game.side_to_move(),
            ..Frame::EMPTY
        };
        self.filter.add(hash);
        self.top = d + 1;
        self.stats.mid_calls += 1;
        self.stats.max_depth = self.stats.max_depth.max((d + 1 - self.base) as u32);
        let entered = if child.checked {
            self.expand(game, table, d + 1)
        } else {
            self.expand_unchecked(game, table, d + 1)
        };
        if let Err(reason) = entered {
            // Abandon the half-built frame: nothing is stored, the position is restored.
            self.filter.remove(hash);
            game.undo(child.mv);
            self.top = d;
            self.abort = Some(reason);
        }
    }

    /// Leaves frame `d`, handing its result to the parent's child slot.
    fn pop(&mut self, game: &mut G, d: usize, done: &Finished) {
        self.filter.remove(self.frames[d].hash);
        self.top = d - 1;
        let parent = self.frames[d - 1];
        let child = &mut self.children[(parent.first_child + parent.best) as usize];
        game.undo(child.mv);
        child.numbers = if child.flip {
            done.numbers.swapped()
        } else {
            done.numbers
        };
        child.distance = done.distance;
        child.rep = done.rep;
        child.checked = true;
    }

    /// The node's numbers, its most-proving child and the runner-up's φ.
    #[inline]
    fn evaluate(&self, frame: &Frame) -> Eval {
        if frame.n_children == 0 {
            return Eval {
                numbers: frame.own,
                best: 0,
                second_phi: INFINITE,
                make_next_deferred: false,
            };
        }
        let first = frame.first_child as usize;
        let kids = &self.children[first..first + frame.n_children as usize];
        let mut phi = INFINITE;
        let mut second_phi = INFINITE;
        // δ = Σ δ'(c), summed wide and saturated once (INFINITE if any term is).
        let mut sum = 0u64;
        let mut any_infinite = false;
        let mut best = 0;
        for (i, c) in kids.iter().enumerate() {
            let p = c.numbers.phi;
            if p < phi {
                second_phi = phi;
                phi = p;
                best = i;
            } else if p < second_phi {
                second_phi = p;
            }
            sum += c.numbers.delta as u64;
            any_infinite |= c.numbers.delta == INFINITE;
        }
        if self.config.weak_delta {
            // WPNS: max δ'(c) + (unsolved children − 1); 0 when every child is solved.
            let max = kids.iter().map(|c| c.numbers.delta).max().unwrap_or(0);
            let unsolved = kids.iter().filter(|c| c.numbers.delta != 0).count();
            sum = (max as u64 + unsolved as u64).saturating_sub(1);
        }
        let delta = if any_infinite {
            INFINITE
        } else {
            sum.min(number::MAX_FINITE as u64) as u32
        };
        // Deferred moves (`Game::deferred_moves`) count nothing until they are made (in
        // tsume-shogi, counting one each in δ took 1.5 times the MID calls, two each 2.2), and
        // a node whose other children have all failed is not lost: the next one is made
        // (until then, or if that fails, it counts as unsolved).
        let make_next_deferred = delta == 0 && frame.deferred > 0;
        let numbers = if make_next_deferred {
            Numbers::new(1, frame.deferred)
        } else {
            Numbers::new(phi, delta)
        };
        Eval {
            numbers,
            best: best as u32,
            second_phi,
            make_next_deferred,
        }
    }

    /// Completes frame `d`: distance and repetition dependency of a solved result, and the
    /// table store unless the result holds only on this path.
    fn finish<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        d: usize,
        frame: &Frame,
        eval: &Eval,
        table: &mut T,
    ) -> Finished {
        let numbers = eval.numbers;
        let first = frame.first_child as usize;
        let kids = &self.children[first..first + frame.n_children as usize];
        let (distance, rep, best) = if kids.is_empty() {
            (0, NO_REP, None)
        } else if numbers.is_win() {
            // Prefer a proof that holds on every path (NO_REP is the largest), then one relying
            // on the shallowest repetition least, then the shortest.
            let (i, c) = kids
                .iter()
                .enumerate()
                .filter(|(_, c)| c.numbers.phi == 0)
                .min_by_key(|(_, c)| (core::cmp::Reverse(c.rep), c.distance))
                .expect("a won node has a winning child");
            (c.distance.saturating_add(1), c.rep, Some(i as u32))
        } else if numbers.is_loss() {
            // Every child refutes; the line resisting longest is the principal one.
            let (i, c) = kids
                .iter()
                .enumerate()
                .max_by_key(|(_, c)| c.distance)
                .expect("a lost node has children");
            let rep = kids.iter().map(|c| c.rep).min().unwrap_or(NO_REP);
            (c.distance.saturating_add(1), rep, Some(i as u32))
        } else {
            (0, NO_REP, Some(eval.best))
        };
        let distance = distance.min(MAX_DISTANCE);
        // A repetition of this node itself or of a position below it is part of this subtree's
        // own cycle and holds on any path; only one above makes the result conditional.
        let rep = if rep != NO_REP && rep as usize >= d {
            NO_REP
        } else {
            rep
        };
        let work = self.stats.mid_calls - frame.work_start;
        let best_index = best.map(|b| b.min(u16::MAX as u32) as u16);
        let entry = Entry::new(numbers, best_index, distance, work);
        // A root searched with children excluded is not the position itself: not stored.
        if d != self.base || self.root_excluded == 0 {
            let unconditional = numbers.is_solved() && rep == NO_REP;
            let key = if self.shares_unsolved() && !numbers.is_solved() {
                self.position_key(frame.hash)
            } else {
                self.store_key(frame.hash, frame.path_key, unconditional)
            };
            table.store(key, &entry);
            if unconditional && game.dominance() {
                let needed = if game.reduces_material() {
                    self.needed_material(game, table, frame, numbers.is_win(), best)
                } else {
                    None
                };
                self.remember_dominant(table, game, &entry, needed);
            }
        }
        Finished {
            numbers,
            distance,
            rep,
            best,
        }
    }

    /// What frame `d`'s solved result needs of its material ([`Game::material_needed`]),
    /// from what its winning child or every child needs (their dominance entries, or the
    /// game for a child its outcome settled); `None` when the game does not say or a child's
    /// need is not known, and the position's own material is kept.
    fn needed_material<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        frame: &Frame,
        mover_wins: bool,
        best: Option<u32>,
    ) -> Option<u32> {
        let winner = if mover_wins {
            frame.mover
        } else {
            frame.mover.opponent()
        };
        let (first, n) = (frame.first_child as usize, frame.n_children as usize);
        let decided = if n == 0 {
            Decided::ByOutcome
        } else if mover_wins {
            let child = self.children[first + best? as usize];
            let after = self.child_material(game, table, &child, !child.flip)?;
            Decided::ByMove {
                mv: child.mv,
                after,
            }
        } else {
            let mut joined = None;
            for i in first..first + n {
                let child = self.children[i];
                let after = self.child_material(game, table, &child, child.flip)?;
                let m = game.material_needed(Decided::ThroughLosingMove {
                    mv: child.mv,
                    after,
                })?;
                joined = Some(joined.map_or(m, |j| game.material_join(winner, j, m)));
            }
            Decided::ByEveryMove { joined: joined? }
        };
        let needed = game.material_needed(decided)?;
        // A need no better than the position's own material is all it can be.
        game.material_at_least(winner, game.material(), needed)
            .then_some(needed)
    }

    /// What a solved child needs of its material for its result (`mover_wins`, in its side
    /// to move's view): its dominance entry's, the game's for a leaf its outcome settled, or
    /// else its own material.
    fn child_material<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        child: &Child<G::Move>,
        mover_wins: bool,
    ) -> Option<u32> {
        game.play(child.mv);
        let needed = self
            .dominating_material(table, game, mover_wins)
            .or_else(|| {
                (child.distance == 0 && child.rep == NO_REP)
                    .then(|| game.material_needed(Decided::ByOutcome))
                    .flatten()
            })
            .unwrap_or_else(|| game.material());
        game.undo(child.mv);
        (!game.has_failed()).then_some(needed)
    }

    /// Generates frame `d`'s moves and gives every child its first numbers: repetition,
    /// known outcome, table entry or the game's estimate. Stops early at a child that wins
    /// the node on every path.
    fn expand<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        d: usize,
    ) -> Result<(), Reason> {
        let frame = self.frames[d];
        let n = {
            let mut list = MoveList::new(self.scratch);
            game.generate_moves(&mut list);
            if game.has_failed() {
                return Err(Reason::GameError);
            }
            if list.overflowed() {
                return Err(Reason::TooManyMoves);
            }
            list.len()
        };
        // Not at the base, whose children are reported one by one (`root_children`).
        let deferred = if d > self.base {
            game.deferred_moves().min(n)
        } else {
            0
        };
        if game.has_failed() {
            return Err(Reason::GameError);
        }
        let first = frame.first_child as usize;
        if !self.children.reserve(first + n) {
            return Err(Reason::DepthLimit);
        }
        if n == 0 {
            let value = game.no_moves_value();
            if game.has_failed() {
                return Err(Reason::GameError);
            }
            self.frames[d].own = framed(value, frame.mover, self.attacker);
            self.frames[d].n_children = 0;
            return Ok(());
        }
        let child_path_key = frame.path_key ^ self.contribution(frame.hash);
        let mut kept = 0;
        let excluded = if d == self.base {
            self.root_excluded
        } else {
            0
        };
        // Start loading every child's bucket before the first probe: with a table larger
        // than the caches the probes then wait for memory once, not once per child. Where the
        // table knows most children (`Game::REMEMBER_LEAVES`), those are then never made.
        let made = n - deferred;
        let prefetched = made > 1 && table.prefetch_pays();
        if prefetched {
            self.peek_and_prefetch(game, table, made, child_path_key);
        }
        let peeked = prefetched && G::REMEMBER_LEAVES;
        for i in 0..n {
            let mv = self.scratch[i];
            if i >= made {
                self.children[first + kept] = Child {
                    numbers: Numbers::LOSS,
                    mv,
                    ..Child::default()
                };
                kept += 1;
                continue;
            }
            if i < 64 && excluded & (1 << i) != 0 {
                self.children[first + kept] = Child {
                    numbers: Numbers::LOSS,
                    mv,
                    ..Child::default()
                };
                kept += 1;
                continue;
            }
            let peek = if peeked {
                Some(self.peeks[i])
            } else {
                game.play(mv);
                None
            };
            let child = self.first_numbers(game, table, d, frame.mover, child_path_key, mv, peek);
            if !peeked {
                game.undo(mv);
            }
            self.stats.nodes += 1;
            if game.has_failed() {
                return Err(Reason::GameError);
            }
            self.children[first + kept] = child;
            kept += 1;
            if child.numbers.phi == 0 && child.rep == NO_REP && !self.exhaustive {
                break;
            }
        }
        self.frames[d].n_children = kept as u32;
        // The deferred moves listed (none when a proven child ended the loop before them).
        self.frames[d].deferred = kept.saturating_sub(made) as u32;
        Ok(())
    }

    /// Makes the first of frame `d`'s deferred moves ([`Game::deferred_moves`]), once every
    /// other child has failed for the mover: it gets its first numbers as `expand` gives
    /// them, and the next waits until it has failed too. One at a time, the search proves a
    /// defender's similar replies one after the other, each with the table the one before
    /// left: tsume-shogi took 0.36 of the MID calls it takes without deferral this way,
    /// against 0.94 making them all at once (geometric means over 116 problems).
    fn make_next_deferred<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        d: usize,
    ) -> Result<(), Reason> {
        let frame = self.frames[d];
        let child_path_key = frame.path_key ^ self.contribution(frame.hash);
        let slot = (frame.first_child + frame.n_children - frame.deferred) as usize;
        let mv = self.children[slot].mv;
        game.play(mv);
        let child = self.first_numbers(game, table, d, frame.mover, child_path_key, mv, None);
        game.undo(mv);
        self.stats.nodes += 1;
        if game.has_failed() {
            // The node keeps counting the move as deferred: unsolved, never lost.
            return Err(Reason::GameError);
        }
        self.children[slot] = child;
        self.frames[d].deferred -= 1;
        Ok(())
    }

    /// Expands frame `d` whose numbers came from a table entry: a false match (another
    /// position's entry passing the check) can make a finished game look unsolved, and moves
    /// generated after the game's end would give it a value it does not have. So the game's
    /// own outcome comes first; a position it settles is a leaf (whose result then replaces
    /// the wrong entry).
    fn expand_unchecked<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        d: usize,
    ) -> Result<(), Reason> {
        let outcome = game.outcome();
        if game.has_failed() {
            return Err(Reason::GameError);
        }
        match known_numbers(outcome, self.frames[d].mover, self.attacker) {
            Some(numbers) => {
                self.frames[d].own = numbers;
                self.frames[d].n_children = 0;
                Ok(())
            }
            None => self.expand(game, table, d),
        }
    }

    /// Peeks at the first `n` moves of the move buffer and prefetches their table buckets,
    /// keeping the peeks (in `peeks`) where `expand` uses them ([`Game::REMEMBER_LEAVES`]).
    #[inline]
    fn peek_and_prefetch<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &T,
        n: usize,
        child_path_key: u64,
    ) {
        for i in 0..n {
            let peek = game.peek(self.scratch[i]);
            if G::REMEMBER_LEAVES {
                self.peeks[i] = peek;
            }
            table.prefetch(self.first_key(peek.0, child_path_key));
        }
    }

    /// The first numbers of the child `mv` leads to (the parent is frame `d`). Without `peek`
    /// the game is in the child; with the child's [`Game::peek`] it is still in the parent,
    /// and the child is made only if the game must be asked about it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn first_numbers<T: TranspositionTable>(
        &mut self,
        game: &mut G,
        table: &mut T,
        d: usize,
        parent_mover: Player,
        path_key: u64,
        mv: G::Move,
        peek: Option<(u64, Player)>,
    ) -> Child<G::Move> {
        let (hash, mover) = peek.unwrap_or_else(|| (game.hash(), game.side_to_move()));
        // A position the table knows was searched, so it is not a finished game: its entry
        // makes the game's own (often costly) outcome check unnecessary.
        let (own, distance, rep, checked) = if let Some(depth) = self.on_path(hash, d) {
            self.stats.repetitions += 1;
            (self.repetition_numbers(game, mover), 0, depth as u16, true)
        } else {
            // Sharing unsolved numbers, df-pn skips the path-keyed probe: it only finds
            // disproofs that rely on a repetition above, which a re-search finds again, and a
            // second probe a child costs more than they save (chess mates: the same MID calls
            // in 0.55 of the time).
            match self.lookup(table, hash, path_key, !self.shares_unsolved()) {
                // New to this search, but won by the other player in the first search of a
                // full value: a failure for this attacker, known without playing the move.
                None if let Some(e) = self.opponent_win(table, hash, mover) => {
                    (e.numbers, e.distance, NO_REP, false)
                }
                Some((e, conditional))
                    if e.numbers.is_solved() || peek.is_some() || !game.dominance() =>
                {
                    // A conditional result's repetition lies somewhere above: assume the
                    // shallowest.
                    let rep = if conditional { 0 } else { NO_REP };
                    (e.numbers, e.distance, rep, false)
                }
                // Not in the table, or (dominance games) not solved there: the game decides,
                // after a dominating solution of its class if there is one.
                hit => {
                    if peek.is_some() {
                        game.play(mv);
                    }
                    // A new leaf's own numbers are asked for before the dominance probe, which
                    // they are most often needed after: the probe's cache miss is then hidden
                    // behind the game's work (wasted when the probe finds a result).
                    self.prefetch_dominant(table, game);
                    let fresh = hit.is_none().then(|| {
                        match known_numbers(game.outcome(), mover, self.attacker) {
                            Some(numbers) => numbers,
                            None => {
                                let e = game.estimate();
                                Numbers::unsolved_estimate(e.phi, e.delta)
                            }
                        }
                    });
                    let found = if let Some(e) = self.dominated(table, game) {
                        (e.numbers, e.distance, NO_REP, true)
                    } else if let Some((e, _)) = hit {
                        (e.numbers, e.distance, NO_REP, false)
                    } else {
                        let numbers =
                            fresh.expect("a leaf the table does not know has its own numbers");
                        self.remember_leaf(game, table, hash, numbers);
                        (numbers, 0, NO_REP, true)
                    };
                    if peek.is_some() {
                        game.undo(mv);
                    }
                    found
                }
            }
        };
        let flip = mover != parent_mover;
        Child {
            numbers: if flip { own.swapped() } else { own },
            distance,
            rep,
            flip,
            checked,
            mv,
        }
    }

    /// Stores a new leaf's first numbers (from the game's `outcome` and `estimate`) under its
    /// position key when the game asks for it ([`Game::REMEMBER_LEAVES`]), so that the next
    /// expansion of its parent reads them instead of asking the game again. They depend on
    /// the position alone, whatever the path, so under the draw rule too they are
    /// position-keyed (`Keying::lookup` takes an unsolved position-keyed entry for a leaf's
    /// numbers). With work 0 they are the first entries replaced. Not under
    /// [`RepetitionRule::ByPosition`], where every entry is path-keyed.
    #[inline]
    fn remember_leaf<T: TranspositionTable>(
        &self,
        game: &G,
        table: &mut T,
        hash: u64,
        numbers: Numbers,
    ) {
        if G::REMEMBER_LEAVES
            && G::REPETITION_RULE != RepetitionRule::ByPosition
            && !game.has_failed()
        {
            table.store(self.position_key(hash), &Entry::new(numbers, None, 0, 0));
        }
    }

    /// Keys the searches and walks that follow for `attacker` over `table`.
    pub(crate) fn set_attacker<T: TranspositionTable>(&mut self, attacker: Player, table: &T) {
        self.attacker = attacker;
        self.salt = search_salt(attacker, table.key_salt());
    }

    /// Makes expansions evaluate every child (see the field's docs).
    pub(crate) fn set_exhaustive(&mut self, on: bool) {
        self.exhaustive = on;
    }

    /// The path depth of a position with this hash among frames `0..=top`, if any.
    #[inline]
    fn on_path(&self, hash: u64, top: usize) -> Option<usize> {
        if G::REPETITION_RULE == RepetitionRule::Acyclic || !self.filter.may_contain(hash) {
            return None;
        }
        self.frames[..=top].iter().rposition(|f| f.hash == hash)
    }
}

/// Thresholds no lower than `threshold` and above `numbers` in both coordinates.
#[inline]
fn raised_past(threshold: Numbers, numbers: Numbers) -> Numbers {
    let above = |n: u32| {
        if n >= number::MAX_FINITE {
            INFINITE
        } else {
            n + 1
        }
    };
    Numbers::new(
        threshold.phi.max(above(numbers.phi)),
        threshold.delta.max(above(numbers.delta)),
    )
}

impl<G: Game> Keying<G> for Dfpn<'_, G> {
    #[inline]
    fn attacker(&self) -> Player {
        self.attacker
    }

    #[inline]
    fn salt(&self) -> u64 {
        self.salt
    }

    #[inline]
    fn opponent_salt(&self) -> Option<u64> {
        self.opponent_salt
    }
}
