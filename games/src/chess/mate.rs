//! "Mate in N": the attacker's shortest forced mate, exact where affordable, an honest upper
//! bound where not.
//!
//! # The proof
//! [`solve_mate`] first proves (or disproves) the mate with df-pn on [`Chess`], where
//! repetitions are draws. Its principal variation ([`proofnum::Dfpn::principal_variation`]) is
//! a mating line, but its length says little about the distance to mate: the proof may not
//! hold the shortest mate (on KQK `3Q4/5K2/8/8/8/8/8/4k3 b`, distance 7, the line takes 30
//! moves), and a line's defence need not be the longest (a bounded game's line once gave 5
//! there). So the line only proposes a first guess; N comes from proofs and disproofs.
//!
//! # Mate within k
//! [`MateWithin`] is chess where the attacker has at most `k` moves left: the budget is part of
//! the position (and of its hash), and the game is a draw when the attacker is to move with no
//! move left (with one left, only a mate in one wins, which the game answers at once; the
//! defender to move before that last move loses exactly when every reply allows a mate in one,
//! which it also answers at once). Each attacker move spends one, so no position repeats: the
//! game is acyclic. The attacker wins it exactly when it can force mate within `k` moves in
//! chess with repetitions as draws: a shortest mating strategy never repeats a position (its
//! distance to mate falls with every attacker move and never rises with a defender move), and
//! repetitions only end lines the attacker avoids anyway.
//!
//! A proof of `MateWithin(k)` shows the distance is at most `k`, a disproof that it is more.
//! From the guess, [`solve_mate`] raises `k` until a proof (an upper bound), then lowers it
//! until a disproof: the distance N is exact when `MateWithin(N)` is proven and
//! `MateWithin(N − 1)` disproven. A limit reached on the way leaves N an upper bound (or
//! unknown, before the first bounded proof), and the report says so ([`Exactness`]).
//!
//! # The line shown
//! When N is exact, the line is walked move by move with bounded searches: the attacker plays a
//! move that keeps a mate within the moves left, the defender a reply after which no quicker
//! mate exists; so the line has exactly N attacker moves against a longest defence. Otherwise
//! it is the principal variation of the last bounded proof (a mating line, not necessarily the
//! longest defence).
//!
//! Mate distances count the attacker's moves, the mating move included (a mate in one is one
//! move), as chess problems and UCI engines (`score mate N`) do.

use std::time::{Duration, Instant};

use proofnum::certificate::Sink;
use proofnum::{
    Decided, Dfpn, DfpnConfig, Game, Limits, MoveList, Numbers, Outcome, Player, Reason,
    RepetitionRule, Stats, Status, Table, Verdict,
};

use super::{Chess, Knowledge, MAX_MOVES, Move};
pub use crate::mate_length::MateMemory;
use crate::mate_length::{Budget, Ending, bisect, confirmed, join_budgets};

/// Chess with a budget of attacker moves: "can the attacker mate within `k` moves?" See the
/// module docs.
#[derive(Clone, Debug)]
pub struct MateWithin {
    chess: Chess,
    attacker: Player,
    /// Attacker moves left.
    budget: u32,
}

impl MateWithin {
    /// `chess` with `attacker` allowed at most `moves` more moves.
    pub fn new(chess: Chess, attacker: Player, moves: u32) -> MateWithin {
        MateWithin {
            chess,
            attacker,
            budget: moves,
        }
    }

    /// The chess position.
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// The attacker.
    pub fn attacker(&self) -> Player {
        self.attacker
    }

    /// Attacker moves left.
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// A budget as [`material`](Game::material) counts it: as First sees it, more is better
    /// for First when First attacks, worse when Second does.
    fn budget_as_material(&self, budget: u32) -> u32 {
        match self.attacker {
            Player::First => budget,
            Player::Second => u32::MAX - budget,
        }
    }
}

/// The budget's contribution to the hash: any injective, well-spread function of it will do.
fn budget_key(budget: u32) -> u64 {
    u64::from(budget + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

impl Game for MateWithin {
    type Move = Move;
    /// Every attacker move spends budget, so positions never repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;
    const REMEMBER_LEAVES: bool = true;
    /// A mate within k moves is a mate within any larger budget, and no mate within k is no
    /// mate within a smaller one: the budget is material, so one table serves every budget of
    /// the distance search (a proof at k settles every k' above, a disproof every k' below).
    fn dominance(&self) -> bool {
        true
    }

    /// The chess position alone, the budget left out.
    fn class_hash(&self) -> u64 {
        self.chess.hash()
    }

    /// The chess position's encoding: [`encode`](Game::encode) without the budget.
    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        self.chess.encode(out)
    }

    /// The budget, as First sees it: more is better for First when First attacks, worse when
    /// Second does.
    fn material(&self) -> u32 {
        self.budget_as_material(self.budget)
    }

    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        match player {
            Player::First => a >= b,
            Player::Second => a <= b,
        }
    }

    /// The budget a result found here needs (in [`material`](Game::material)'s terms): a
    /// mate needs the attacker moves its proof spends, however many were left, and a failure
    /// holds with every budget up to the one its refutation needs (any budget, where chess
    /// itself settles the position). Each attacker move spends one.
    fn material_needed(&self, decided: Decided<Move>) -> Option<u32> {
        let attacker_to_move = self.side_to_move() == self.attacker;
        // The mapping is its own inverse: it turns material back into a budget too.
        let budget = |material: u32| self.budget_as_material(material);
        let needed = match decided {
            Decided::ByMove { after, .. } | Decided::ThroughLosingMove { after, .. } => {
                budget(after).saturating_add(u32::from(attacker_to_move))
            }
            Decided::ByEveryMove { joined } => budget(joined),
            // With no move or one left, the budget settled it (a mate in one needs one move,
            // a failure holds with as few): as many as there are.
            Decided::ByOutcome if self.budget <= 1 => self.budget,
            // Otherwise chess did: a mate needs nothing more, a failure holds with any budget.
            Decided::ByOutcome => match (attacker_to_move, self.chess.outcome()) {
                (false, Outcome::Loss) => 0,
                (false, Outcome::Win | Outcome::Draw | Outcome::CannotLose)
                | (true, Outcome::Loss | Outcome::Draw | Outcome::CannotWin) => u32::MAX,
                _ => return None,
            },
        };
        Some(budget(needed))
    }

    fn reduces_material(&self) -> bool {
        true
    }

    /// For First the larger material, for Second the smaller.
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        join_budgets(winner, a, b)
    }

    fn side_to_move(&self) -> Player {
        self.chess.side_to_move()
    }

    fn hash(&self) -> u64 {
        self.chess.hash() ^ budget_key(self.budget)
    }

    /// The chess position's encoding, then the budget.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        let n = self.chess.encode(out)?;
        out[n..n + 4].copy_from_slice(&self.budget.to_le_bytes());
        Some(n + 4)
    }

    fn peek(&mut self, mv: Move) -> (u64, Player) {
        let (hash, side) = self.chess.peek(mv);
        let spent = u32::from(self.side_to_move() == self.attacker);
        (hash ^ budget_key(self.budget - spent), side)
    }

    fn outcome(&self) -> Outcome {
        let outcome = self.chess.outcome();
        if self.side_to_move() != self.attacker {
            // The defender to move: everything chess says holds (the budget only restricts the
            // attacker). Without budget the attacker never moves again: it cannot win.
            // A defender that cannot win (a lone king: `CannotWin`) and cannot lose either is
            // drawn.
            let cannot_lose = match outcome {
                Outcome::CannotWin => Outcome::Draw,
                _ => Outcome::CannotLose,
            };
            return match outcome {
                Outcome::Unknown | Outcome::CannotWin if self.budget == 0 => cannot_lose,
                // One attacker move left: settled here rather than by expanding the node,
                // whose every child the search would give a mate-in-one test; this stops at
                // the first reply that escapes (a disproof of a mate within k spends most of
                // its nodes on this level).
                Outcome::Unknown | Outcome::CannotWin if self.budget == 1 => {
                    if every_reply_mated_in_one(&self.chess) {
                        Outcome::Loss
                    } else {
                        cannot_lose
                    }
                }
                other => other,
            };
        }
        match (outcome, self.budget) {
            (Outcome::Loss | Outcome::Draw | Outcome::CannotWin, _) => outcome,
            (_, 0) => Outcome::Draw,
            (Outcome::Win, _) => Outcome::Win,
            (_, 1) if self.chess.mating_move().is_some() => Outcome::Win,
            (_, 1) => Outcome::Draw,
            _ => outcome,
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, Move>) {
        self.chess.generate_moves(moves);
    }

    fn play(&mut self, mv: Move) {
        if self.side_to_move() == self.attacker {
            self.budget -= 1;
        }
        self.chess.play(mv);
    }

    fn undo(&mut self, mv: Move) {
        self.chess.undo(mv);
        if self.side_to_move() == self.attacker {
            self.budget += 1;
        }
    }

    fn estimate(&self) -> Numbers {
        self.chess.estimate()
    }

    fn no_moves_value(&self) -> proofnum::Value {
        self.chess.no_moves_value()
    }
}

/// How [`solve_mate`] searches.
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
    /// Lower the mate distance until it is shown exact; off: stop at the first upper bound.
    pub exact: bool,
    /// Confirm the answers the report rests on (`proofnum::confirm`): the proof, every bounded
    /// proof as it is found (so any bound reported), and the disproof an exact distance rests
    /// on. On by default; off is faster, and the answers then rest on the table.
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

/// Whether a reported mate distance is the shortest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// No shorter mate exists: `MateWithin(N − 1)` was disproven (or N is 1).
    Exact,
    /// A mate within N is proven, a shorter one may exist: the search for one was not asked for
    /// ([`MateConfig::exact`] off).
    UpperBoundNotChecked,
    /// A mate within N is proven, a shorter one may exist: the search for one stopped for this
    /// reason (`Unconfirmed`: the walk of the disproof below N refuted it).
    UpperBound(Reason),
    /// The mate is proven but no bound on its distance was: the bounded search stopped for this
    /// reason (`mate_in` is `None`).
    Unknown(Reason),
}

impl std::fmt::Display for Exactness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exactness::Exact => f.write_str("exact"),
            Exactness::UpperBoundNotChecked => {
                f.write_str("upper bound (shorter mates not searched)")
            }
            Exactness::UpperBound(reason) => {
                write!(
                    f,
                    "upper bound (the search for a shorter mate stopped: {reason})"
                )
            }
            Exactness::Unknown(reason) => write!(f, "distance unknown ({reason})"),
        }
    }
}

/// What [`solve_mate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateReport {
    /// Proven: the attacker mates; disproven: it cannot force mate (in checks-only mode: not by
    /// checks alone); unknown: a limit stopped the proof.
    pub status: Status,
    /// When proven: the attacker mates within this many moves (shown by a proof of
    /// [`MateWithin`]); the shortest when `exactness` is [`Exactness::Exact`].
    pub mate_in: Option<u32>,
    /// Whether `mate_in` is the shortest.
    pub exactness: Exactness,
    /// When proven: a mating line, attacker first when it is to move, ending in checkmate (see
    /// the module docs for which line). Empty when the root is already decided (the defender to
    /// move is mated) or no line could be read.
    pub line: Vec<Move>,
    /// True when `line` is a longest defence against a shortest mate (it has `mate_in` attacker
    /// moves); false when it is only some mating line of a proof.
    pub line_is_optimal: bool,
    /// Counters of every search together (proof, bounds, line).
    pub stats: Stats,
    /// Counters of the first proof alone.
    pub proof_stats: Stats,
    /// Records of the certificate written of the proof (see [`solve_mate_with`]), when one
    /// was asked for and written.
    pub certificate_records: Option<u64>,
    /// Every bound proven on the way, in the order the bounded searches proved them (each
    /// confirmed as it was found when [`MateConfig::confirm`] is on): a mate within `k` moves,
    /// and the wall time from the call's start when it was shown; `(0, t)` for a defender
    /// mated already. What a program that announces the shortest mate it has found, without
    /// showing that none is shorter, would have answered by then; for an exact `mate_in` the
    /// rest of [`elapsed`](MateReport::elapsed) went on the disproof of a shorter mate and the
    /// line. After a refuted answer the search runs again, and its bounds follow the first
    /// run's.
    pub bounds: Vec<(u32, Duration)>,
    /// Wall time of everything.
    pub elapsed: Duration,
}

/// Can `attacker` force checkmate from `chess`'s position, and in how many moves? See the
/// module docs. `chess`'s rules apply (checks-only, fifty-move rule); the position is restored
/// before returning.
pub fn solve_mate(chess: &mut Chess, attacker: Player, config: &MateConfig) -> MateReport {
    solve_mate_with(chess, attacker, config, None)
}

/// [`solve_mate`], writing the proof that the attacker mates (or the disproof) into
/// `certificate` as a proof certificate (`proofnum::certificate`, game name `chess`) when the
/// first search answers. A certificate that could not be written leaves
/// [`MateReport::certificate_records`] `None`.
pub fn solve_mate_with(
    chess: &mut Chess,
    attacker: Player,
    config: &MateConfig,
    certificate: Option<&mut dyn Sink>,
) -> MateReport {
    let mut memory = MateMemory::chess(config);
    solve_mate_in_with(&mut memory, chess, attacker, config, certificate)
}

/// [`solve_mate`] in `memory`, reused from call to call (see [`MateMemory`]): for a program
/// that asks about many positions, most of them quick. The memory's sizes stand in for
/// `config.table_bytes`; a stack too small for `config.max_plies` is reported as
/// [`Reason::MemoryLimit`].
pub fn solve_mate_in(
    memory: &mut MateMemory,
    chess: &mut Chess,
    attacker: Player,
    config: &MateConfig,
) -> MateReport {
    solve_mate_in_with(memory, chess, attacker, config, None)
}

/// [`solve_mate_with`] in `memory` (see [`solve_mate_in`]).
pub fn solve_mate_in_with(
    memory: &mut MateMemory,
    chess: &mut Chess,
    attacker: Player,
    config: &MateConfig,
    certificate: Option<&mut dyn Sink>,
) -> MateReport {
    // The attacker's knowledge for the attacker only: the defender's mates in one are rare (the
    // search finds them a ply later; 10 to 24% less time on chess-mates-random.epd), and the
    // flight-square estimate measures the attacker's task (the guide's chess chapter).
    let previous_attacker = chess.attacker();
    chess.set_attacker(Some(attacker));
    let report = solve_mate_inner(memory, chess, attacker, config, certificate);
    chess.set_attacker(previous_attacker);
    report
}

impl MateMemory {
    /// Memory for [`solve_mate_in`] with `config`: its table, the confirmation memo, a stack
    /// for `config.max_plies`.
    pub fn chess(config: &MateConfig) -> MateMemory {
        MateMemory::for_searches::<Chess, MateWithin>(
            config.table_bytes,
            config.max_plies,
            MAX_MOVES,
        )
    }
}

fn solve_mate_inner(
    memory: &mut MateMemory,
    chess: &mut Chess,
    attacker: Player,
    config: &MateConfig,
    certificate: Option<&mut dyn Sink>,
) -> MateReport {
    let start = Instant::now();
    let mut budget = Budget {
        start,
        max_time: config.max_time,
        nodes_left: config.max_nodes,
    };
    let mut report = MateReport {
        status: Status::Unknown(Reason::MemoryLimit),
        mate_in: None,
        exactness: Exactness::Unknown(Reason::MemoryLimit),
        line: Vec::new(),
        line_is_optimal: false,
        stats: Stats::default(),
        proof_stats: Stats::default(),
        certificate_records: None,
        bounds: Vec::new(),
        elapsed: Duration::ZERO,
    };
    let Some((mut table, memo, stack)) = memory.parts() else {
        return report;
    };

    // The proof in chess, and its line's length as the first guess.
    let guess = {
        let Ok(mut dfpn) = Dfpn::<Chess>::new(stack, config.max_plies, MAX_MOVES, config.dfpn)
        else {
            return report;
        };
        let result = budget.with_limits(|limits| {
            if config.confirm {
                dfpn.solve_confirmed(chess, attacker, &mut table, memo, limits)
            } else {
                dfpn.solve(chess, attacker, &mut table, limits)
            }
        });
        budget.charge(&mut report.stats, &result.stats);
        report.proof_stats = result.stats;
        report.status = result.status;
        if let Status::Unknown(reason) = result.status {
            report.exactness = Exactness::Unknown(reason);
        }
        if let (Some(sink), Status::Proven | Status::Disproven) = (certificate, result.status) {
            // Walked in chess with its rules alone (the table's entries only as hints), so the
            // certificate's leaves are mates and draws, and its check needs no knowledge.
            let mut rules_only = chess.clone().with_knowledge(Knowledge::NONE);
            let v = budget.with_limits(|limits| {
                dfpn.certify(
                    &mut rules_only,
                    attacker,
                    result.status,
                    &mut table,
                    memo,
                    "chess",
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
        if chess.side_to_move() != attacker && chess.in_check() && chess.legal_moves().is_empty() {
            // The defender is mated already: no move to make.
            report.mate_in = Some(0);
            report.exactness = Exactness::Exact;
            report.line_is_optimal = true;
            report.elapsed = start.elapsed();
            report.bounds.push((0, report.elapsed));
            return report;
        }
        let mut line = vec![Move::default(); config.max_plies];
        let variation = budget.with_limits(|limits| {
            dfpn.principal_variation(chess, attacker, &mut table, &mut line, limits)
        });
        line.truncate(variation.len);
        let line = complete_line(chess, attacker, line);
        let guess = mate_length(chess, attacker, &line);
        report.line = line;
        guess
            .unwrap_or(u32::from(result.distance).div_ceil(2))
            .max(1)
    };

    // Mate within k: up from the guess to a proof, then down to a disproof, on the proof's
    // table with its entries made unreachable at once (the bounded game's positions are not
    // the proof's; clearing read all of the table: most of a short mate's time).
    table.rekey();
    let Ok(mut dfpn) = Dfpn::<MateWithin>::new(stack, config.max_plies, MAX_MOVES, config.dfpn)
    else {
        report.exactness = Exactness::Unknown(Reason::MemoryLimit);
        return report;
    };
    let mut within = MateWithin::new(chess.clone(), attacker, 0);
    let max_budget = (config.max_plies / 2) as u32;
    // Every bound reported is confirmed: each bounded proof is walked as it is found
    // (`confirmed`: a proof's walk is small beside the disproofs). The disproofs run
    // unconfirmed, and only the one an exact N rests on (none within N − 1) is walked, after
    // the bisection: a wrong disproof on the way could only have misled the bisection, and
    // that walk catches what it led to. When a walk refutes an answer, the bisection runs
    // again with every answer confirmed by its search.
    let mut confirm_each = false;
    let mut first_guess = guess;
    let (upper, exactness) = loop {
        let mut refuted = false;
        let mut search = |k: u32, report: &mut MateReport, budget: &mut Budget| {
            within.budget = k;
            let result = budget.with_limits(|limits| {
                if confirm_each {
                    dfpn.solve_confirmed(&mut within, attacker, &mut table, memo, limits)
                } else {
                    dfpn.solve(&mut within, attacker, &mut table, limits)
                }
            });
            budget.charge(&mut report.stats, &result.stats);
            let mut status = result.status;
            if config.confirm && !confirm_each {
                status = confirmed(
                    status,
                    budget,
                    &mut dfpn,
                    &mut within,
                    attacker,
                    &mut table,
                    memo,
                    &mut report.stats,
                );
                refuted |= status == Status::Unknown(Reason::Unconfirmed);
            }
            if status == Status::Proven {
                report.bounds.push((k, start.elapsed()));
            }
            status
        };
        // No deepening from below here, unlike tsume-shogi (`crate::shogi::mate`): on the
        // broad chess bench it found no exact N more and cost 2.7% more MID calls.
        let (upper, ending) = bisect(
            first_guess.min(max_budget),
            max_budget,
            config.exact,
            0,
            |k| (search(k, &mut report, &mut budget), None),
        );
        let exactness = match (ending, upper) {
            (Ending::Exact, _) => Exactness::Exact,
            (Ending::FirstProof, _) => Exactness::UpperBoundNotChecked,
            (Ending::Stopped(reason), Some(_)) => Exactness::UpperBound(reason),
            (Ending::Stopped(reason), None) => Exactness::Unknown(reason),
        };
        if !refuted {
            if !config.confirm || confirm_each || exactness != Exactness::Exact {
                break (upper, exactness);
            }
            // The disproof an exact N rests on: none within N − 1 (none within 0 needs no
            // search).
            let Some(k) = upper.map(|n| n - 1).filter(|&k| k > 0) else {
                break (upper, exactness);
            };
            within.budget = k;
            let verdict = budget.verify(
                &mut dfpn,
                &mut within,
                attacker,
                Status::Disproven,
                &mut table,
                memo,
                &mut report.stats,
            );
            match verdict {
                Verdict::Verified => break (upper, exactness),
                // N stays a confirmed bound; that none is shorter is not shown.
                Verdict::Unknown(reason) => break (upper, Exactness::UpperBound(reason)),
                Verdict::Refuted => {}
            }
        }
        table.rekey();
        confirm_each = true;
        // Again from the least bound confirmed so far (each was walked as it was found).
        if let Some(least) = report.bounds.iter().map(|&(k, _)| k).min() {
            first_guess = least;
        }
    };
    // A bound confirmed in the first run stands when the second stopped above it.
    let least = report.bounds.iter().map(|&(k, _)| k).min();
    let (upper, exactness) = match (exactness, least) {
        (Exactness::UpperBound(reason) | Exactness::Unknown(reason), Some(least))
            if upper.is_none_or(|n| n > least) =>
        {
            (Some(least), Exactness::UpperBound(reason))
        }
        _ => (upper, exactness),
    };
    report.exactness = exactness;
    report.mate_in = upper;
    // The line: a longest defence against a shortest mate when N is exact.
    if let Some(n) = upper {
        within.budget = n;
        let walked = if report.exactness == Exactness::Exact {
            budget.with_limits(|limits| {
                optimal_line(
                    &mut dfpn,
                    &mut within,
                    &mut table,
                    limits,
                    &mut report.stats,
                )
            })
        } else {
            None
        };
        match walked {
            Some(line) => {
                report.line = line;
                report.line_is_optimal = true;
            }
            None => {
                within.budget = n;
                let mut line = vec![Move::default(); config.max_plies];
                let variation = budget.with_limits(|limits| {
                    dfpn.principal_variation(&mut within, attacker, &mut table, &mut line, limits)
                });
                line.truncate(variation.len);
                let line = complete_line(chess, attacker, line);
                if mate_length(chess, attacker, &line).is_some() {
                    report.line = line;
                }
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}

/// Walks a longest defence against a shortest mate from `within`'s position, whose distance to
/// mate is exactly its budget: the attacker plays the proving move of a bounded search, the
/// defender the first reply after which no quicker mate exists. `None` when a search stops on a
/// limit. The position is restored.
fn optimal_line(
    dfpn: &mut Dfpn<'_, MateWithin>,
    within: &mut MateWithin,
    table: &mut Table<'_>,
    limits: &mut Limits<'_>,
    stats: &mut Stats,
) -> Option<Vec<Move>> {
    let attacker = within.attacker;
    let mut line = Vec::new();
    let mut played = 0;
    let mut solve = |within: &mut MateWithin, table: &mut Table<'_>, limits: &mut Limits<'_>| {
        let result = dfpn.solve(within, attacker, table, limits);
        stats.accumulate(&result.stats);
        result
    };
    let found = loop {
        if within.side_to_move() == attacker {
            if within.budget == 1 {
                if let Some(mate) = within.chess.mating_move() {
                    line.push(mate);
                }
                break true;
            }
            let result = solve(within, table, limits);
            match (result.status, result.best_move) {
                (Status::Proven, Some(mv)) => {
                    line.push(mv);
                    within.play(mv);
                    played += 1;
                }
                _ => break false,
            }
        } else {
            // Every reply allows a mate within the budget; keep one that allows none quicker.
            let replies = within.chess.legal_moves();
            if replies.is_empty() {
                break true; // mated
            }
            let mut longest = None;
            for &reply in &replies {
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
                        undo_line(within, &line, played);
                        return None;
                    }
                }
            }
            let Some(reply) = longest else {
                break false; // cannot happen when the budget is the exact distance
            };
            line.push(reply);
            within.play(reply);
            played += 1;
        }
    };
    undo_line(within, &line, played);
    found.then_some(line)
}

/// Takes back the first `played` moves of `line`.
fn undo_line(within: &mut MateWithin, line: &[Move], played: usize) {
    for &mv in line[..played].iter().rev() {
        within.undo(mv);
    }
}

/// True when the side to move (the defender) has a legal move and every move it has (those
/// [`Chess`] generates) lets the attacker mate at once: [`MateWithin`]'s value of the position
/// with one attacker move left. Each reply's value is what `MateWithin::outcome` gives the
/// attacker with one move left: a mate in one, unless the fifty-move rule has drawn first.
fn every_reply_mated_in_one(chess: &Chess) -> bool {
    let board = chess.board();
    let checks_only = chess.checks_only_for(chess.side_to_move());
    let fifty = chess.rules.fifty_move_rule;
    let mut any = false;
    // Unordered, stopping at the first escape: most replies escape, so usually one is tried.
    let escaped = board.generate_moves(|set| {
        for mv in set {
            if checks_only && !super::check::gives_check(board, mv) {
                continue;
            }
            any = true;
            let mut after = board.clone();
            after.play_unchecked(mv);
            if (fifty && after.halfmove_clock() >= 100)
                || super::knowledge::mating_move(&after).is_none()
            {
                return true;
            }
        }
        false
    });
    any && !escaped
}

/// Adds the mating move to a line that ends where the attacker mates in one (the mate-in-one
/// rule decides that position without naming a move), or a reply and the mating move to one
/// that ends where every reply allows a mate in one (a bounded game decides that too).
fn complete_line(chess: &mut Chess, attacker: Player, mut line: Vec<Move>) -> Vec<Move> {
    let played = play_legal_prefix(chess, &line);
    if played == line.len() && chess.side_to_move() != attacker && every_reply_mated_in_one(chess) {
        let mut all = [Move::default(); MAX_MOVES];
        let mut replies = MoveList::new(&mut all);
        chess.generate_moves(&mut replies);
        let reply = replies.as_slice()[0];
        chess.play(reply);
        if let Some(mate) = chess.mating_move() {
            line.push(reply);
            line.push(mate);
        }
        chess.undo(reply);
    } else if played == line.len() && chess.side_to_move() == attacker {
        if let Some(mate) = chess.mating_move() {
            line.push(mate);
        }
    }
    for &mv in line[..played].iter().rev() {
        chess.undo(mv);
    }
    line
}

/// Plays the moves of `line` while they are legal; returns how many were played.
fn play_legal_prefix(chess: &mut Chess, line: &[Move]) -> usize {
    for (i, &mv) in line.iter().enumerate() {
        if !chess.is_legal(mv) {
            return i;
        }
        chess.play(mv);
    }
    line.len()
}

/// The number of attacker moves of `line`, played from `chess`'s position, when it ends in
/// checkmate of the defender.
fn mate_length(chess: &mut Chess, attacker: Player, line: &[Move]) -> Option<u32> {
    let attacker_first = chess.side_to_move() == attacker;
    let played = play_legal_prefix(chess, line);
    let mated = played == line.len()
        && chess.side_to_move() != attacker
        && chess.in_check()
        && chess.legal_moves().is_empty();
    for &mv in line[..played].iter().rev() {
        chess.undo(mv);
    }
    let attacker_moves = (line.len() as u32 + u32::from(attacker_first)) / 2;
    mated.then_some(attacker_moves)
}
