//! What a search returns: status, best move, numbers and statistics.

use core::fmt;

use crate::limits::Reason;
use crate::number::Numbers;
use crate::table::TableStats;

/// The answer to "can the attacker force a win?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The attacker can force a win.
    Proven,
    /// The attacker cannot force a win (the defender wins or draws).
    Disproven,
    /// Not solved; the reason says why the search ended.
    Unknown(Reason),
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Proven => f.write_str("proven"),
            Status::Disproven => f.write_str("disproven"),
            Status::Unknown(r) => write!(f, "unknown ({r})"),
        }
    }
}

/// Counters of one search call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// The search's work: MID calls (interior node visits) in df-pn, node expansions in PNS.
    pub mid_calls: u64,
    /// Positions evaluated (children made, looked up and taken back).
    pub nodes: u64,
    /// Deepest ply reached below the search root.
    pub max_depth: u32,
    /// Positions found repeating one on the current path.
    pub repetitions: u64,
    /// Table traffic during the search.
    pub table: TableStats,
    /// Microseconds spent, when the limits carried a clock.
    pub elapsed_us: Option<u64>,
    /// Positions the confirmation walks visited and their searches evaluated
    /// ([`crate::confirm`]), on top of `nodes`.
    pub confirm_nodes: u64,
    /// Answers their confirmation refuted, each searched again over new table keys.
    pub refutations: u64,
}

impl Stats {
    /// Adds another search's counters to these (for multi-search operations).
    pub fn accumulate(&mut self, other: &Stats) {
        self.mid_calls += other.mid_calls;
        self.nodes += other.nodes;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.repetitions += other.repetitions;
        self.table.accumulate(&other.table);
        self.confirm_nodes += other.confirm_nodes;
        self.refutations += other.refutations;
        self.elapsed_us = match (self.elapsed_us, other.elapsed_us) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }
}

/// The result of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// Proven, disproven or unknown.
    pub status: Status,
    /// The root move that proves the result (the winning move, or the defence with the longest
    /// resistance), or the move that was being searched when the search stopped. `None` at a
    /// terminal root or one without moves.
    ///
    /// In games with cycles whose table also holds results of searches from *other* positions,
    /// a proven winning move can be one that wins only with infinite play counted as a draw:
    /// its line may lead back to this position, which the repetition rule scores as a draw.
    /// The value itself is exact. [`crate::Dfpn::verify`] walks the proof on this path and
    /// returns a move checked down to the game's own leaves.
    pub best_move: Option<M>,
    /// The root's (φ, δ) for its side to move when the search ended.
    pub numbers: Numbers,
    /// For a solved root: plies to the end of the solved line found (shortest win, longest
    /// loss), saturated at 1023.
    pub distance: u16,
    /// True when the result relies on a repetition of a position in the history passed to
    /// the search (it holds for this path only).
    pub path_dependent: bool,
    /// Counters.
    pub stats: Stats,
}

impl<M> SearchResult<M> {
    /// True when the attacker was shown to win.
    pub fn is_proven(&self) -> bool {
        self.status == Status::Proven
    }

    /// True when the attacker was shown not to win.
    pub fn is_disproven(&self) -> bool {
        self.status == Status::Disproven
    }

    /// True when the search ended without an answer.
    pub fn is_unknown(&self) -> bool {
        matches!(self.status, Status::Unknown(_))
    }
}
