//! Mate length by the composers' conventions: the shortest mate against the longest defence,
//! futile interpositions (無駄合) not counted; exact where affordable, an honest bound where
//! not.
//!
//! # The rule implemented
//! A tsume-shogi problem's length counts plies (`N手詰`, N odd): Black's moves and White's
//! replies, up to and including the mating move. The conventions (the composers' rules as
//! problem collections and magazines apply them):
//! 1. Black mates as quickly as it can, White resists as long as it can: the length is the
//!    minimax distance to mate, Black moving first.
//! 2. **Futile interpositions (無駄合) do not lengthen it.** An interposition is a drop between
//!    the king and a distant checking slider. It is futile when Black can take the dropped
//!    piece and still mate in the moves it had without that piece. There is no agreed
//!    formal definition (the debate in the problem community is long); the rule implemented
//!    here is the usual "definition 1" made exact and extended to any capturing piece: *a
//!    drop of White's is futile when some Black check capturing the dropped piece on its
//!    square leads, with the captured piece thrown away instead of taken in hand, to a
//!    position Black mates within the moves it had before the drop.* The capture is then
//!    free: it spends none of Black's moves.
//! 3. Only drops: an interposition by a board move (移動合) always counts, as composers count
//!    it.
//! 4. The "no pieces left in Black's hand at the end" convention (駒余り) decides between
//!    lines, not lengths: a main line ends with Black's hand empty, and among White's equally
//!    long defences the one that leaves Black nothing is the main line. The length is the same
//!    either way. Not implemented: the variant rule that a defence two plies longer but ending
//!    with a piece left over (2手長駒余り) does not count; such a defence counts here, so a
//!    length can exceed a record by 2 where that rule was applied.
//!
//! # Mate within k
//! [`MateWithin`] is the tsume game where Black has at most `k` counted moves left: the budget
//! is part of the position (and of its hash), every Black move spends one except the free,
//! discarding capture of rule 2, which Black may play right after a White drop, capturing the
//! dropped piece on its square (a [`Move`] marked [`Move::is_discarding`]: the captured piece
//! leaves the game). Black without budget can only play such captures; with none available it
//! has failed (a draw for the search). No position repeats: each Black move spends budget or,
//! for a free capture, a piece of White's hand, which never comes back; the game is acyclic.
//! So `MateWithin(k)` is proven exactly when Black mates within `2k − 1` plies by rules 1–3,
//! and the length is `2N − 1` for the least such N.
//!
//! [`solve_tsume`] first proves (or disproves) the mate with df-pn on [`Tsume`] (the rules of
//! the game, every interposition allowed: a proof is a tsume, a disproof says there is none).
//! Then `MateWithin(k)` searches, all in one table (entries of different budgets have
//! different hashes): first k = 1, 2, … while that is cheap (as many positions as the proof
//! took, at least 200,000; the first proof is exact at once, and each search finds the
//! smaller budgets of the one before in the table); then from the proof's principal
//! variation as a guess of N, raising `k` until a proof and lowering it until a disproof.
//! Deepening settles short mates that a search at the guess cannot (musou-047: the proof's
//! line is 53 plies, the mate 15, and `MateWithin(27)` was still open after 30 s; deepening
//! makes it exact in 9 s); the guess settles long ones. N is exact when `MateWithin(N)` is
//! proven and `MateWithin(N − 1)` disproven; a limit on the way leaves an upper bound or
//! nothing, and the report says which ([`Exactness`]).
//!
//! # The line shown
//! When N is exact the line is walked move by move with bounded searches: Black plays a move
//! that keeps a mate within its moves left, White a reply after which no quicker mate exists,
//! a board move where one does so, a drop otherwise. Where the longest defences are futile
//! interpositions, the line shows them and Black's captures (as ordinary captures: in the
//! game the piece goes to Black's hand, so such a line ends with pieces left over), and it
//! always ends in a real checkmate, so an independent referee can replay it.

use std::time::{Duration, Instant};

use haitaka::Color;
use proofnum::certificate::Sink;
use proofnum::{
    Decided, Dfpn, DfpnConfig, Game, Limits, MoveList, Numbers, Outcome, Player, Reason,
    RepetitionRule, Stats, Status, Table, Verdict,
};

use super::{Knowledge, MAX_MOVES, Move, Tsume};
pub use crate::mate_length::MateMemory;
use crate::mate_length::{
    Budget, DEEPEN_MIN_NODES, Ending, bisect, confirmed, deepen, join_budgets,
};

/// The tsume game with a budget of Black moves and free captures of futile interpositions.
/// See the module docs.
#[derive(Clone, Debug)]
pub struct MateWithin {
    tsume: Tsume,
    /// Counted Black moves left.
    budget: u32,
    /// For each move played: whether it spent budget, and the square a White drop left (the
    /// square Black may capture on for free next).
    history: Vec<(bool, Option<haitaka::Square>)>,
}

/// The budget's contribution to the hash: any injective, well-spread function of it will do.
fn budget_key(budget: u32) -> u64 {
    u64::from(budget + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// The free-capture square's contribution to the hash (none: 0).
fn drop_square_key(square: Option<haitaka::Square>) -> u64 {
    square.map_or(0, |sq| (sq as u64 + 1).wrapping_mul(0x9FB2_1C65_1E98_DF25))
}

impl MateWithin {
    /// `tsume` with Black allowed at most `moves` more counted moves.
    pub fn new(tsume: Tsume, moves: u32) -> MateWithin {
        MateWithin {
            tsume,
            budget: moves,
            history: Vec::new(),
        }
    }

    /// The tsume position.
    pub fn tsume(&self) -> &Tsume {
        &self.tsume
    }

    /// Counted Black moves left.
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// Sets the counted Black moves left.
    pub fn set_budget(&mut self, moves: u32) {
        self.budget = moves;
    }

    /// The square of White's last move when it was a drop, where Black may capture for free.
    fn drop_square(&self) -> Option<haitaka::Square> {
        self.history.last().and_then(|&(_, square)| square)
    }

    fn black_to_move(&self) -> bool {
        self.tsume.color_to_move() == Color::Black
    }

    /// With Black to move, one counted move left and no mate in one: whether some check
    /// leaves White only drops. Otherwise every check spends the last move and White escapes
    /// by a board move, so the position is settled without expanding its checks (the search
    /// would make each and see White escape: half the MID calls of musou-025's length).
    fn last_check_holds(&self) -> bool {
        let board = self.tsume.board();
        super::check::for_each_check(board, |mv| {
            let mut after = board.clone();
            after.play_unchecked(mv.to_haitaka());
            let mut only_drops = true;
            super::check::generate_legal(&after, |set| {
                only_drops = !matches!(set, haitaka::PieceMoves::BoardMoves { .. });
                !only_drops
            });
            only_drops
        })
    }
}

impl Game for MateWithin {
    type Move = Move;
    /// Every Black move spends budget or a White hand piece for good: no position repeats.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;
    const REMEMBER_LEAVES: bool = true;

    fn side_to_move(&self) -> Player {
        self.tsume.side_to_move()
    }

    fn hash(&self) -> u64 {
        self.tsume.hash() ^ budget_key(self.budget) ^ drop_square_key(self.drop_square())
    }

    /// A mate within k Black moves is a mate within more, and no mate within k none within
    /// fewer: the budget is the material, so one table serves every budget of the length
    /// search. (Hands are compared only in [`Tsume`]: here a futile interposition's capture
    /// takes its piece out of the game, so White's hand no longer follows from Black's.)
    fn dominance(&self) -> bool {
        true
    }

    fn class_hash(&self) -> u64 {
        self.tsume.hash() ^ drop_square_key(self.drop_square())
    }

    /// The tsume position's encoding and the free-capture square: [`encode`](Game::encode)
    /// without the budget.
    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        let n = self.tsume.encode_into(out)?;
        *out.get_mut(n)? = self.drop_square().map_or(0xFF, |s| s as u8);
        Some(n + 1)
    }

    fn material(&self) -> u32 {
        self.budget
    }

    /// More budget is better for Black (the attacker), worse for White.
    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        match player {
            Player::First => a >= b,
            Player::Second => a <= b,
        }
    }

    /// The budget a result found here needs: a mate needs the counted moves its proof
    /// spends, however many were left, and a failure holds with every budget up to the one
    /// its refutation needs (any budget, when Black has no check at all). Black's counted
    /// moves spend one each, the free captures and White's moves none; Black at budget 0
    /// has only its free captures, and with one more it would have every check.
    fn material_needed(&self, decided: Decided<Move>) -> Option<u32> {
        let black = self.black_to_move();
        Some(match decided {
            Decided::ByMove { mv, after } | Decided::ThroughLosingMove { mv, after } => {
                after.saturating_add(u32::from(black && !mv.is_discarding()))
            }
            Decided::ByEveryMove { .. } if black && self.budget == 0 => 0,
            Decided::ByEveryMove { joined } => joined,
            Decided::ByOutcome => match self.outcome() {
                // Mated now, or (White to move at budget 0) a board move escapes.
                Outcome::Loss | Outcome::CannotLose if !black => 0,
                Outcome::Win if black => 1,
                // No check at all: no budget helps.
                Outcome::Loss if black => u32::MAX,
                // Out of budget, or a last move that cannot hold.
                Outcome::Draw if black => self.budget,
                _ => return None,
            },
        })
    }

    fn reduces_material(&self) -> bool {
        true
    }

    /// A mate needs the larger budget, a failure holds up to the smaller.
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        join_budgets(winner, a, b)
    }

    /// The class's encoding ([`encode_class`](Game::encode_class)) and the budget.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        let n = self.encode_class(out)?;
        out.get_mut(n..n + 4)?
            .copy_from_slice(&self.budget.to_le_bytes());
        Some(n + 4)
    }

    fn peek(&mut self, mv: Move) -> (u64, Player) {
        let (hash, side) = self.tsume.peek(mv);
        let black = self.black_to_move();
        let spent = u32::from(black && !mv.is_discarding());
        let square = (!black && mv.is_drop()).then(|| mv.to());
        (
            hash ^ budget_key(self.budget - spent) ^ drop_square_key(square),
            side,
        )
    }

    fn outcome(&self) -> Outcome {
        let outcome = self.tsume.outcome();
        if !self.black_to_move() {
            if outcome == Outcome::Unknown && self.budget == 0 {
                // Black can only capture a drop for free now: any other reply escapes.
                let board = self.tsume.board();
                let mut only_drops = true;
                super::check::generate_legal(board, |set| {
                    if matches!(set, haitaka::PieceMoves::BoardMoves { .. }) {
                        only_drops = false;
                        return true;
                    }
                    false
                });
                if !only_drops {
                    return Outcome::CannotLose;
                }
            }
            return outcome;
        }
        match outcome {
            Outcome::Loss => Outcome::Loss, // no check at all
            Outcome::Win if self.budget >= 1 => Outcome::Win,
            _ if self.budget == 0 && self.drop_square().is_none() => Outcome::Draw,
            _ if self.budget == 1 && self.drop_square().is_none() && !self.last_check_holds() => {
                Outcome::Draw
            }
            _ => Outcome::Unknown,
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        if !self.black_to_move() {
            if self.budget == 0 {
                // Only drops are left (outcome settled the rest).
                let mut all = [Move::default(); MAX_MOVES];
                let mut list = MoveList::new(&mut all);
                self.tsume.generate_moves(&mut list);
                for &mv in list.as_slice() {
                    if mv.is_drop() {
                        moves.push(mv);
                    }
                }
                if list.overflowed() {
                    moves.push(Move::default()); // let the overflow reach the solver
                }
                return;
            }
            self.tsume.generate_moves(moves);
            return;
        }
        let mut all = [Move::default(); MAX_MOVES];
        let mut list = MoveList::new(&mut all);
        self.tsume.generate_moves(&mut list);
        if let Some(square) = self.drop_square() {
            for &mv in list.as_slice() {
                if mv.to() == square && !mv.is_drop() {
                    moves.push(mv.discarding());
                }
            }
        }
        if self.budget > 0 {
            for &mv in list.as_slice() {
                moves.push(mv);
            }
        }
        if list.overflowed() {
            moves.push(Move::default());
        }
    }

    /// The tsume position's (rule 4): White's later drops on a square come last in its list
    /// and stay last when only the drops are kept.
    fn deferred_moves(&self) -> usize {
        self.tsume.deferred_moves()
    }

    fn play(&mut self, mv: Move) {
        let black = self.black_to_move();
        let spent = black && !mv.is_discarding();
        if spent {
            self.budget -= 1;
        }
        let square = (!black && mv.is_drop()).then(|| mv.to());
        self.history.push((spent, square));
        self.tsume.play(mv);
    }

    fn undo(&mut self, mv: Move) {
        self.tsume.undo(mv);
        if let Some((spent, _)) = self.history.pop() {
            if spent {
                self.budget += 1;
            }
        }
    }

    fn estimate(&self) -> Numbers {
        self.tsume.estimate()
    }

    fn no_moves_value(&self) -> proofnum::Value {
        self.tsume.no_moves_value()
    }
}

/// How [`solve_tsume`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateConfig {
    /// Bytes of transposition table (allocated once, reused by every search).
    pub table_bytes: usize,
    /// The deepest line, in plies, a search may follow.
    pub max_plies: usize,
    /// Stop after this many positions in all searches together.
    pub max_nodes: u64,
    /// Stop after this much time in all searches together.
    pub max_time: Option<Duration>,
    /// Of `max_time`, at most this much for the proof itself.
    pub max_proof_time: Option<Duration>,
    /// At most this much for the length and the line after the proof (within `max_time`).
    pub max_length_time: Option<Duration>,
    /// Lower the length until it is shown exact; off: stop after the proof (the proof's line
    /// gives an upper bound only when a bounded search confirms it).
    pub exact: bool,
    /// Confirm the answers the report rests on (`proofnum::confirm`): the proof, every bounded
    /// proof (so any bound reported), and the disproof an exact length rests on. On by
    /// default; off is faster, and the answers then rest on the table.
    pub confirm: bool,
    /// df-pn settings.
    pub dfpn: DfpnConfig,
}

impl Default for MateConfig {
    fn default() -> Self {
        MateConfig {
            table_bytes: 64 << 20,
            max_plies: 4000,
            max_nodes: u64::MAX,
            max_time: None,
            max_proof_time: None,
            max_length_time: None,
            exact: true,
            confirm: true,
            // Shared unsolved numbers: far fewer MID calls on transposing mates; the search
            // runs under limits (`DfpnConfig::share_unsolved`).
            dfpn: DfpnConfig {
                share_unsolved: true,
                ..DfpnConfig::default()
            },
        }
    }
}

/// Whether a reported length is the shortest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// No shorter mate exists: `MateWithin(N − 1)` was disproven (or N is 1).
    Exact,
    /// A mate within N is proven, a shorter one may exist: the search for one was not asked
    /// for ([`MateConfig::exact`] off).
    UpperBoundNotChecked,
    /// A mate within N is proven, a shorter one may exist: the search for one stopped for
    /// this reason (`Unconfirmed`: the walk of the disproof below N refuted it).
    UpperBound(Reason),
    /// The mate is proven but no bound on its length was: the bounded search stopped for this
    /// reason (or was not asked for).
    Unknown(Option<Reason>),
}

impl std::fmt::Display for Exactness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exactness::Exact => f.write_str("exact"),
            Exactness::UpperBoundNotChecked => {
                f.write_str("upper bound (shorter mates not searched)")
            }
            Exactness::UpperBound(reason) => write!(
                f,
                "upper bound (the search for a shorter mate stopped: {reason})"
            ),
            Exactness::Unknown(Some(reason)) => write!(f, "length unknown ({reason})"),
            Exactness::Unknown(None) => f.write_str("length not searched"),
        }
    }
}

/// What [`solve_tsume`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TsumeReport {
    /// Proven: Black mates by continuous checks; disproven: it cannot (不詰); unknown: a limit
    /// stopped the proof.
    pub status: Status,
    /// When proven and bounded: Black mates within this many counted moves (a proof of
    /// [`MateWithin`]); the shortest when `exactness` is [`Exactness::Exact`].
    pub mate_moves: Option<u32>,
    /// Whether `mate_moves` is the shortest.
    pub exactness: Exactness,
    /// When proven: a mating line from the root, ending in checkmate (see the module docs for
    /// which line). Discarding captures are shown as the ordinary captures they are in shogi.
    pub line: Vec<Move>,
    /// True when `line` is a longest defence against a shortest mate.
    pub line_is_optimal: bool,
    /// Counters of every search together (proof, bounds, line).
    pub stats: Stats,
    /// Counters of the proof alone.
    pub proof_stats: Stats,
    /// Wall time of the proof alone.
    pub proof_elapsed: Duration,
    /// Records of the proof's certificate (see [`solve_tsume_with`]), when one was asked for
    /// and written.
    pub certificate_records: Option<u64>,
    /// Wall time of everything.
    pub elapsed: Duration,
}

impl TsumeReport {
    /// The length in plies (`2N − 1` for N counted Black moves), when bounded.
    pub fn plies(&self) -> Option<u32> {
        self.mate_moves.map(|n| 2 * n - 1)
    }
}

/// Does Black mate `tsume`'s position by continuous checks, and in how many plies by the
/// composers' conventions? See the module docs. The position is restored before returning.
pub fn solve_tsume(tsume: &mut Tsume, config: &MateConfig) -> TsumeReport {
    solve_tsume_with(tsume, config, None)
}

/// [`solve_tsume`], writing the proof (or the disproof) into `certificate` as a proof
/// certificate (`proofnum::certificate`, game name `shogi`), walked in tsume-shogi with its
/// rules and hand dominance alone ([`Knowledge::CERTIFICATE`]: no mate in one, every check in
/// haitaka's order) so that its check needs none of the game's other knowledge: a position
/// settled by one of its board with a hand no better for the winner is a dominance record.
/// [`TsumeReport::certificate_records`] says whether it was written.
pub fn solve_tsume_with(
    tsume: &mut Tsume,
    config: &MateConfig,
    certificate: Option<&mut dyn Sink>,
) -> TsumeReport {
    let mut memory = MateMemory::tsume(config);
    solve_tsume_in_with(&mut memory, tsume, config, certificate)
}

/// [`solve_tsume`] in `memory`, reused from call to call (see [`MateMemory`]): for a program
/// that asks about many problems, most of them quick. The memory's sizes stand in for
/// `config.table_bytes`; a stack too small for `config.max_plies` is reported as
/// [`Reason::MemoryLimit`].
pub fn solve_tsume_in(
    memory: &mut MateMemory,
    tsume: &mut Tsume,
    config: &MateConfig,
) -> TsumeReport {
    solve_tsume_in_with(memory, tsume, config, None)
}

impl MateMemory {
    /// Memory for [`solve_tsume_in`] with `config`: its table, the confirmation memo, a stack
    /// for `config.max_plies`.
    pub fn tsume(config: &MateConfig) -> MateMemory {
        MateMemory::for_searches::<Tsume, MateWithin>(
            config.table_bytes,
            config.max_plies,
            MAX_MOVES,
        )
    }
}

/// [`solve_tsume_with`] in `memory` (see [`solve_tsume_in`]).
pub fn solve_tsume_in_with(
    memory: &mut MateMemory,
    tsume: &mut Tsume,
    config: &MateConfig,
    certificate: Option<&mut dyn Sink>,
) -> TsumeReport {
    let start = Instant::now();
    let mut budget = Budget {
        start,
        max_time: config.max_time,
        nodes_left: config.max_nodes,
    };
    let mut report = TsumeReport {
        status: Status::Unknown(Reason::MemoryLimit),
        mate_moves: None,
        exactness: Exactness::Unknown(Some(Reason::MemoryLimit)),
        line: Vec::new(),
        line_is_optimal: false,
        stats: Stats::default(),
        proof_stats: Stats::default(),
        proof_elapsed: Duration::ZERO,
        certificate_records: None,
        elapsed: Duration::ZERO,
    };
    let Some((mut table, memo, stack)) = memory.parts() else {
        return report;
    };
    let black = Player::First;

    // The proof, and its line's length as the first guess.
    let guess = {
        let Ok(mut dfpn) = Dfpn::<Tsume>::new(stack, config.max_plies, MAX_MOVES, config.dfpn)
        else {
            return report;
        };
        let proof_budget = Budget {
            start,
            max_time: match (config.max_time, config.max_proof_time) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            nodes_left: budget.nodes_left,
        };
        let result = proof_budget.with_limits(|limits| {
            if config.confirm {
                dfpn.solve_confirmed(tsume, black, &mut table, memo, limits)
            } else {
                dfpn.solve(tsume, black, &mut table, limits)
            }
        });
        budget.charge(&mut report.stats, &result.stats);
        report.proof_stats = result.stats;
        report.proof_elapsed = start.elapsed();
        report.status = result.status;
        if let Status::Unknown(reason) = result.status {
            report.exactness = Exactness::Unknown(Some(reason));
        }
        if let (Some(sink), Status::Proven | Status::Disproven) = (certificate, result.status) {
            let mut rules_only = tsume.clone().with_knowledge(Knowledge::CERTIFICATE);
            let v = budget.with_limits(|limits| {
                dfpn.certify(
                    &mut rules_only,
                    black,
                    result.status,
                    &mut table,
                    memo,
                    "shogi",
                    sink,
                    limits,
                )
            });
            if v.verdict == Verdict::Verified {
                report.certificate_records = Some(v.stats.records);
            }
        }
        if result.status != Status::Proven {
            report.elapsed = start.elapsed();
            return report;
        }
        let mut line = vec![Move::default(); config.max_plies];
        let variation = budget.with_limits(|limits| {
            dfpn.principal_variation(tsume, black, &mut table, &mut line, limits)
        });
        line.truncate(variation.len);
        let line = complete_line(tsume, line);
        let guess = mate_moves(tsume, &line);
        report.line = line;
        guess
            .unwrap_or(u32::from(result.distance).div_ceil(2))
            .max(1)
    };
    if let Some(length_time) = config.max_length_time {
        let until = start.elapsed() + length_time;
        budget.max_time = Some(budget.max_time.map_or(until, |max| max.min(until)));
    }
    if !config.exact {
        report.exactness = Exactness::Unknown(None);
        report.elapsed = start.elapsed();
        return report;
    }

    // Mate within k: up from the guess to a proof, then down to a disproof.
    let Ok(mut dfpn) = Dfpn::<MateWithin>::new(stack, config.max_plies, MAX_MOVES, config.dfpn)
    else {
        report.exactness = Exactness::Unknown(Some(Reason::MemoryLimit));
        return report;
    };
    let mut within = MateWithin::new(tsume.clone(), 0);
    let max_budget = (config.max_plies / 2) as u32;
    // One bounded search within `cap` positions, charged to the budget. Every bound reported
    // is confirmed: a proof is walked as it is found (small beside the disproofs); the
    // disproofs run unconfirmed, and the one an exact length rests on is walked after.
    let mut bounded = |k: u32, cap: u64| {
        within.budget = k;
        let capped = Budget {
            nodes_left: budget.nodes_left.min(cap),
            ..budget
        };
        let result =
            capped.with_limits(|limits| dfpn.solve(&mut within, black, &mut table, limits));
        budget.charge(&mut report.stats, &result.stats);
        let mut status = result.status;
        if config.confirm {
            status = confirmed(
                status,
                &mut budget,
                &mut dfpn,
                &mut within,
                black,
                &mut table,
                memo,
                &mut report.stats,
            );
        }
        // The proof's own line is a guess at a shorter bound (its defence need not be the
        // longest: the guess is then disproven and the bisection goes on).
        let hint = u32::from(result.distance).div_ceil(2);
        (status, result.stats.nodes, hint)
    };
    // From below first, while that is cheap (as many positions as the proof took, at least
    // DEEPEN_MIN_NODES): a short mate is then exact without a search at a loose budget, where
    // df-pn can wander as long as the proof's own roundabout line (musou-047: a 53-ply line
    // for a 15-ply mate). Then from the proof's guess, knowing the budgets disproven.
    let mut deepen_nodes = report.proof_stats.nodes.max(DEEPEN_MIN_NODES);
    let (lower, deepened) = deepen(max_budget, |k| {
        let (status, nodes, _) = bounded(k, deepen_nodes);
        deepen_nodes = deepen_nodes.saturating_sub(nodes);
        status
    });
    let (upper, ending) = match deepened {
        Ok(n) => (Some(n), Ending::Exact),
        Err(_) if lower >= max_budget => (None, Ending::Stopped(Reason::DepthLimit)),
        // A proof the walk refuted: the table misled the search; no bound is shown (unlike
        // chess, no second search with every answer confirmed: a rare case left unknown).
        Err(Reason::Unconfirmed) => (None, Ending::Stopped(Reason::Unconfirmed)),
        Err(_) => bisect(guess.min(max_budget), max_budget, true, lower, |k| {
            let (status, _, hint) = bounded(k, u64::MAX);
            (status, Some(hint))
        }),
    };
    report.exactness = match (ending, upper) {
        (Ending::Exact, _) => Exactness::Exact,
        (Ending::FirstProof, _) => Exactness::UpperBoundNotChecked, // not asked for: exact is on
        (Ending::Stopped(reason), Some(_)) => Exactness::UpperBound(reason),
        (Ending::Stopped(reason), None) => Exactness::Unknown(Some(reason)),
    };
    report.mate_moves = upper;
    if let (true, Exactness::Exact, Some(n)) = (config.confirm, report.exactness, upper)
        && n > 1
    {
        // The disproof an exact length rests on: none within N − 1 (none within 0 needs no
        // search). The bisection's other disproofs could only have misled it.
        within.budget = n - 1;
        let verdict = budget.verify(
            &mut dfpn,
            &mut within,
            black,
            Status::Disproven,
            &mut table,
            memo,
            &mut report.stats,
        );
        match verdict {
            Verdict::Verified => {}
            // N stays a confirmed bound; that none is shorter is not shown.
            Verdict::Refuted => report.exactness = Exactness::UpperBound(Reason::Unconfirmed),
            Verdict::Unknown(reason) => report.exactness = Exactness::UpperBound(reason),
        }
    }

    // The line: a longest defence against a shortest mate when N is exact.
    if let (Some(n), Exactness::Exact) = (upper, report.exactness) {
        within.budget = n;
        let walked = budget.with_limits(|limits| {
            optimal_line(
                &mut dfpn,
                &mut within,
                &mut table,
                limits,
                &mut report.stats,
            )
        });
        if let Some(line) = walked {
            report.line = line.into_iter().map(Move::plain).collect();
            report.line_is_optimal = true;
        }
    }
    report.elapsed = start.elapsed();
    report
}

/// Walks a longest defence against a shortest mate from `within`'s position, whose counted
/// distance to mate is exactly its budget (see the module docs). `None` when a search stops
/// on a limit. The position is restored.
fn optimal_line(
    dfpn: &mut Dfpn<'_, MateWithin>,
    within: &mut MateWithin,
    table: &mut Table<'_>,
    limits: &mut Limits<'_>,
    stats: &mut Stats,
) -> Option<Vec<Move>> {
    let black = Player::First;
    let mut line = Vec::new();
    let mut solve = |within: &mut MateWithin, table: &mut Table<'_>, limits: &mut Limits<'_>| {
        let result = dfpn.solve(within, black, table, limits);
        stats.accumulate(&result.stats);
        result
    };
    let found = loop {
        if line.len() > 4000 {
            break false;
        }
        if within.black_to_move() {
            let mv = if within.budget >= 1 && within.drop_square().is_none() {
                within.tsume.mating_move()
            } else {
                None
            };
            let mv = match mv {
                Some(mate) => Some(mate),
                None => {
                    let result = solve(within, table, limits);
                    match (result.status, result.best_move) {
                        (Status::Proven, Some(mv)) => Some(mv),
                        _ => None,
                    }
                }
            };
            let Some(mv) = mv else { break false };
            line.push(mv);
            within.play(mv);
        } else {
            let mut replies = within.tsume.legal_moves();
            if replies.is_empty() {
                break true; // mated
            }
            // Board moves before drops: a drop is kept only where no board move lasts as long.
            replies.sort_by_key(|mv| mv.is_drop());
            let mut longest = None;
            let mut any_drop = None;
            for &reply in &replies {
                if within.budget == 0 && !reply.is_drop() {
                    continue;
                }
                any_drop = any_drop.or(reply.is_drop().then_some(reply));
                if within.budget == 0 {
                    break;
                }
                within.play(reply);
                within.budget -= 1;
                let result = solve(within, table, limits);
                within.budget += 1;
                within.undo(reply);
                match result.status {
                    Status::Disproven => {
                        longest = Some(reply);
                        break;
                    }
                    Status::Proven => {}
                    Status::Unknown(_) => {
                        undo_line(within, &line);
                        return None;
                    }
                }
            }
            // No reply needs the whole budget: the remaining ones are futile interpositions,
            // shown until the real mate.
            let Some(reply) = longest.or(any_drop) else {
                break false;
            };
            line.push(reply);
            within.play(reply);
        }
    };
    undo_line(within, &line);
    found.then_some(line)
}

/// Takes back the moves of `line`, played on `within`.
fn undo_line(within: &mut MateWithin, line: &[Move]) {
    for &mv in line.iter().rev() {
        within.undo(mv);
    }
}

/// Adds the mating move to a line that ends where Black mates in one (the mate-in-one rule
/// decides that position without naming a move).
fn complete_line(tsume: &mut Tsume, mut line: Vec<Move>) -> Vec<Move> {
    let played = play_legal_prefix(tsume, &line);
    if played == line.len() && tsume.color_to_move() == Color::Black {
        if let Some(mate) = tsume.mating_move() {
            line.push(mate);
        }
    }
    for &mv in line[..played].iter().rev() {
        tsume.undo(mv);
    }
    line
}

/// Plays the moves of `line` while they are legal (and checks where Black moves); returns
/// how many were played.
fn play_legal_prefix(tsume: &mut Tsume, line: &[Move]) -> usize {
    for (i, &mv) in line.iter().enumerate() {
        let black = tsume.color_to_move() == Color::Black;
        if !tsume.is_legal(mv) {
            return i;
        }
        tsume.play(mv);
        if black && !tsume.in_check() {
            tsume.undo(mv);
            return i;
        }
    }
    line.len()
}

/// The number of Black moves of `line`, played from `tsume`'s position, when every Black move
/// checks and it ends in checkmate.
pub fn mate_moves(tsume: &mut Tsume, line: &[Move]) -> Option<u32> {
    let played = play_legal_prefix(tsume, line);
    let mated = played == line.len() && tsume.is_checkmate();
    for &mv in line[..played].iter().rev() {
        tsume.undo(mv);
    }
    mated.then_some(line.len().div_ceil(2) as u32)
}
