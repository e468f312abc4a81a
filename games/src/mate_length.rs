//! The mate-length search the mate games share: the attacker's shortest forced mate found by
//! bounded searches, and the node and time budget that every search of one call shares.
//!
//! A game's bounded search answers "can the attacker mate within `k` of its moves?" (proven: the
//! distance is at most `k`; disproven: it is more). [`bisect`] raises `k` from a first guess
//! until a proof, then lowers it until a disproof: the distance N is exact when "within N" is
//! proven and "within N − 1" disproven. What a move costs, how the answers are confirmed and
//! which line is shown stay the game's: chess ([`crate::chess::mate`]) counts every attacker
//! move, tsume-shogi ([`crate::shogi::mate`]) lets futile interpositions be captured for free.

use std::time::{Duration, Instant};

use proofnum::{Dfpn, Game, Limits, Player, Reason, Stats, Status, Table, Verdict};

/// The confirmation walks' memory, as a share of the table's bytes.
const MEMO_SHARE_OF_TABLE: usize = 4;

/// The memory of a mate-length call (table, confirmation memo, search stack), allocated once
/// and reused by every call given it: chess's [`solve_mate_in`](crate::chess::mate::solve_mate_in)
/// and tsume-shogi's [`solve_tsume_in`](crate::shogi::mate::solve_tsume_in).
///
/// Why: a call that allocates its own memory pays for it every time, whatever the position
/// asks: the table's first clearing reads all of it, and the system makes and zeroes every
/// page (2 MiB huge pages for a table) that the call's stores and its stack first touch. On a
/// mate in one or two that is nearly all of the call (tens of milliseconds for the default
/// 64 MiB table, against microseconds of search). Over reused memory a call's table is the
/// last call's with every entry made unreachable at once ([`Table::rekey`]: the searches
/// mix a new salt into their keys, and the old entries, in an older generation, are replaced
/// first), and its pages are already made.
pub struct MateMemory {
    table: Vec<u8>,
    memo: Vec<u64>,
    stack: Vec<u8>,
    /// The table bytes hold a table made by [`Table::new`] (after the first call).
    holds_table: bool,
}

impl MateMemory {
    /// Memory for a game's proof (`G`) and its bounded length searches (`W`), both with
    /// lines of `max_plies` and positions of `max_moves`: `table_bytes` of table, a
    /// confirmation memo of [`MEMO_SHARE_OF_TABLE`] of it and a stack either search fits in,
    /// lazily zeroed ([`proofnum::memory::table_memory`]: nothing is touched until a search
    /// uses it).
    pub(crate) fn for_searches<G: Game, W: Game>(
        table_bytes: usize,
        max_plies: usize,
        max_moves: usize,
    ) -> Self {
        let stack_bytes = Dfpn::<G>::stack_bytes(max_plies, max_moves)
            .max(Dfpn::<W>::stack_bytes(max_plies, max_moves));
        MateMemory {
            table: proofnum::memory::table_memory(table_bytes),
            memo: vec![0u64; table_bytes / MEMO_SHARE_OF_TABLE / 8],
            stack: vec![0u8; stack_bytes],
            holds_table: false,
        }
    }

    /// Bytes of transposition table.
    pub fn table_bytes(&self) -> usize {
        self.table.len()
    }

    /// Makes every page of the memory now ([`proofnum::memory::prefault`]), for a benchmark
    /// that times the calls alone, as a peer that prepares its table before its clock starts.
    pub fn prefault(&mut self) {
        proofnum::memory::prefault(&mut self.table);
        proofnum::memory::prefault(&mut self.memo);
        proofnum::memory::prefault(&mut self.stack);
    }

    /// The table (emptied on first use, afterwards the last call's made unreachable), the
    /// confirmation memo and the stack; `None` when the table bytes are too few for a table.
    pub(crate) fn parts(&mut self) -> Option<(Table<'_>, &mut [u64], &mut [u8])> {
        let table = if self.holds_table {
            let mut table = Table::attach(&mut self.table).ok()?;
            table.rekey();
            table
        } else {
            let table = Table::new(&mut self.table).ok()?;
            self.holds_table = true;
            table
        };
        Some((table, &mut self.memo, &mut self.stack))
    }
}

impl std::fmt::Debug for MateMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MateMemory")
            .field("table_bytes", &self.table.len())
            .field("memo_bytes", &(self.memo.len() * 8))
            .field("stack_bytes", &self.stack.len())
            .field("holds_table", &self.holds_table)
            .finish()
    }
}

/// How [`bisect`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The smallest proven budget is the distance: the one below it was disproven (or it is 1).
    Exact,
    /// Stopped at the first proof, as asked (`exact` off): the distance is at most that budget.
    FirstProof,
    /// A search stopped for this reason, or no budget up to the largest was proven
    /// ([`Reason::DepthLimit`]); a budget proven before stands as an upper bound.
    Stopped(Reason),
}

/// The least the tsume length search spends deepening from below ([`deepen`]) before it turns
/// to the proof's guess: as many positions as the proof took, and at least this many.
pub(crate) const DEEPEN_MIN_NODES: u64 = 200_000;

/// [`Game::material_join`] of the mate-length games, whose material is a budget that is
/// better the larger for First: the larger of two for First, the smaller for Second.
pub(crate) fn join_budgets(winner: Player, a: u32, b: u32) -> u32 {
    match winner {
        Player::First => a.max(b),
        Player::Second => a.min(b),
    }
}

/// Iterative deepening from below: `within(k)` for k = 1, 2, … up to `max_budget` while each
/// is disproven. Cheap where the distance is short: each search finds the deeper budgets of
/// the one before in the table (a budget is part of the position), and the first proof is
/// exact at once, its budget less one being disproven. Returns the largest k disproven (0:
/// none), and the first k proven or the reason a search stopped.
pub(crate) fn deepen(
    max_budget: u32,
    mut within: impl FnMut(u32) -> Status,
) -> (u32, Result<u32, Reason>) {
    let mut lower = 0;
    while lower < max_budget {
        match within(lower + 1) {
            Status::Disproven => lower += 1,
            Status::Proven => return (lower, Ok(lower + 1)),
            Status::Unknown(reason) => return (lower, Err(reason)),
        }
    }
    (lower, Err(Reason::DepthLimit))
}

/// The mate distance by bounded searches (`within(k)`: "a mate within k moves?", with an
/// optional hint of a smaller k to try next after a proof: the proof's own line length): up
/// from `guess` to a proof, then down to a disproof; with `exact` off, stops at the first
/// proof. `lower`: no mate within that many moves is known already (0: nothing known).
/// Returns the smallest k proven (`None` before any proof) and how the search ended.
pub(crate) fn bisect(
    guess: u32,
    max_budget: u32,
    exact: bool,
    lower: u32,
    mut within: impl FnMut(u32) -> (Status, Option<u32>),
) -> (Option<u32>, Ending) {
    let mut lower = lower; // no mate within `lower` moves is known
    let mut disproven_here = false;
    let (mut upper, mut k) = (None, guess.max(lower + 1).min(max_budget));
    let ending = loop {
        let (status, hint) = within(k);
        match status {
            Status::Proven => {
                upper = Some(k);
                if k == lower + 1 {
                    break Ending::Exact;
                }
                if !exact {
                    break Ending::FirstProof;
                }
                // Down to the hint or one step while every step proves (the guess is usually
                // close, and a disproof far below it costs more than proofs near it), bisect
                // once a disproof here is known.
                k = if disproven_here {
                    (lower + k) / 2
                } else {
                    hint.map_or(k - 1, |hint| hint.clamp(lower + 1, k - 1))
                };
            }
            Status::Disproven => {
                lower = k;
                disproven_here = true;
                k = match upper {
                    Some(u) if u == k + 1 => break Ending::Exact,
                    Some(u) => (k + u) / 2,
                    None if k >= max_budget => break Ending::Stopped(Reason::DepthLimit),
                    None => (k * 2).min(max_budget),
                };
            }
            Status::Unknown(reason) => break Ending::Stopped(reason),
        }
    };
    (upper, ending)
}

/// The limits shared by every search of one mate-length call: each search gets what is left of
/// the nodes and the time.
pub(crate) struct Budget {
    /// When the call began.
    pub start: Instant,
    /// The time allowed from `start`.
    pub max_time: Option<Duration>,
    /// Positions left for the searches to come.
    pub nodes_left: u64,
}

impl Budget {
    /// Runs `search` with the nodes and time left.
    pub fn with_limits<R>(&self, search: impl FnOnce(&mut Limits<'_>) -> R) -> R {
        let start = self.start;
        let mut clock = move || start.elapsed().as_micros() as u64;
        let mut limits = Limits::nodes(self.nodes_left);
        if let Some(max) = self.max_time {
            limits.clock = Some(&mut clock);
            limits.max_time_us = max.saturating_sub(start.elapsed()).as_micros() as u64;
        }
        search(&mut limits)
    }

    /// Charges a search's counters to the budget and to `total`.
    pub fn charge(&mut self, total: &mut Stats, stats: &Stats) {
        self.nodes_left = self.nodes_left.saturating_sub(stats.nodes);
        total.accumulate(stats);
    }

    /// Walks `claim` about `game` (`Dfpn::verify`, the table's entries only as hints) with what
    /// is left of the budget, charging the walk's positions to it and to `total` (as
    /// `confirm_nodes`; a refutation counted in `refutations`).
    #[allow(clippy::too_many_arguments)] // the walk's own arguments, and the budget's account
    pub fn verify<G: Game>(
        &mut self,
        dfpn: &mut Dfpn<'_, G>,
        game: &mut G,
        attacker: Player,
        claim: Status,
        table: &mut Table<'_>,
        memo: &mut [u64],
        total: &mut Stats,
    ) -> Verdict {
        let v = self.with_limits(|limits| dfpn.verify(game, attacker, claim, table, memo, limits));
        let walked = Stats {
            confirm_nodes: v.stats.nodes + v.stats.search_nodes,
            refutations: u64::from(v.verdict == Verdict::Refuted),
            ..Stats::default()
        };
        self.charge(total, &walked);
        self.nodes_left = self.nodes_left.saturating_sub(walked.confirm_nodes);
        v.verdict
    }
}

/// A bounded search's proof as the length search may build on it: confirmed at once
/// ([`Budget::verify`]), so that every bound a call reports is confirmed even when a later
/// search stops at a limit (a proof's walk is small beside the disproofs). `Proven` when
/// the walk verifies it, `Unknown(Unconfirmed)` when it refutes it, `Unknown` with the walk's
/// reason when a limit stops it; any other status is returned as it is.
#[allow(clippy::too_many_arguments)] // Budget::verify's, and the status to confirm
pub(crate) fn confirmed<G: Game>(
    status: Status,
    budget: &mut Budget,
    dfpn: &mut Dfpn<'_, G>,
    game: &mut G,
    attacker: Player,
    table: &mut Table<'_>,
    memo: &mut [u64],
    total: &mut Stats,
) -> Status {
    if status != Status::Proven {
        return status;
    }
    match budget.verify(dfpn, game, attacker, status, table, memo, total) {
        Verdict::Verified => Status::Proven,
        Verdict::Refuted => Status::Unknown(Reason::Unconfirmed),
        Verdict::Unknown(reason) => Status::Unknown(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bisect` against a made-up distance: every `within(k)` answers `k >= distance`.
    fn run(distance: u32, guess: u32, exact: bool, hint: Option<u32>) -> (Option<u32>, Ending) {
        bisect(guess, 64, exact, 0, |k| {
            let status = if k >= distance {
                Status::Proven
            } else {
                Status::Disproven
            };
            (status, hint)
        })
    }

    #[test]
    fn finds_the_distance_from_any_guess() {
        for distance in 1..=20 {
            for guess in 1..=30 {
                assert_eq!(
                    run(distance, guess, true, None),
                    (Some(distance), Ending::Exact)
                );
                assert_eq!(
                    run(distance, guess, true, Some(1)),
                    (Some(distance), Ending::Exact)
                );
            }
        }
    }

    #[test]
    fn stops_at_the_first_proof_when_not_exact() {
        assert_eq!(run(3, 7, false, None), (Some(7), Ending::FirstProof));
        assert_eq!(run(3, 1, false, None), (Some(4), Ending::FirstProof));
    }

    #[test]
    fn finds_the_distance_from_a_known_lower_bound() {
        for distance in 2..=20 {
            for lower in 1..distance {
                for guess in 1..=30 {
                    let ended = bisect(guess, 64, true, lower, |k| {
                        assert!(k > lower, "searched {k}, known disproven up to {lower}");
                        let proven = k >= distance;
                        let status = if proven {
                            Status::Proven
                        } else {
                            Status::Disproven
                        };
                        (status, None)
                    });
                    assert_eq!(ended, (Some(distance), Ending::Exact));
                }
            }
        }
    }

    #[test]
    fn deepening_stops_at_the_first_proof_or_limit() {
        let status = |distance: u32, limit: u32| {
            move |k: u32| match k {
                k if k > limit => Status::Unknown(Reason::NodeLimit),
                k if k >= distance => Status::Proven,
                _ => Status::Disproven,
            }
        };
        assert_eq!(deepen(64, status(5, 64)), (4, Ok(5)));
        assert_eq!(deepen(64, status(1, 64)), (0, Ok(1)));
        assert_eq!(deepen(64, status(9, 3)), (3, Err(Reason::NodeLimit)));
        assert_eq!(deepen(6, status(9, 64)), (6, Err(Reason::DepthLimit)));
    }

    #[test]
    fn no_mate_within_the_largest_budget_is_a_depth_limit() {
        assert_eq!(
            run(100, 5, true, None),
            (None, Ending::Stopped(Reason::DepthLimit))
        );
    }
}
