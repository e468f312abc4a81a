//! After a search: the principal variation, an independent check of the proof, and its
//! certificate.
//!
//! All walk the game from the root with the searcher's own stack: the walk keeps its path in
//! the lower frames, and whenever the table no longer knows what the walk needs, it runs a
//! df-pn search on top of that path (so repetitions against the path still count).
//!
//! [`Dfpn::principal_variation`](crate::Dfpn::principal_variation) follows the solved line: the winner's shortest win, the loser's
//! longest resistance, as far as the proof that was found tells (it is the shortest line *in
//! that proof*, not necessarily the shortest win in the game).
//!
//! [`Dfpn::verify`](crate::Dfpn::verify) re-walks the whole proof (or disproof) tree: at the claimed winner's nodes it
//! needs one child that verifies, at the other side's nodes every child, and it accepts only
//! leaves the game itself scores (`outcome`, no moves, repetitions). The table only suggests
//! which move to try; a wrong entry (a hash collision in the table's 32-bit check) makes that
//! child fail to verify, and the walk tries the next or re-searches. Verified nodes are
//! remembered in a caller-supplied set of full 64-bit keys so transpositions are walked once;
//! only a collision of the game's own 64-bit hash can fool the walk. In a game with dominance
//! ([`Game::dominance`](crate::Game::dominance)) the walk also accepts a position when it has
//! accepted one of the same class with material no better for the claimed winner: a proof that
//! leans on dominance reaches positions the search never visited, whose subtrees the table
//! does not know (in tsume-shogi the walk of `musou-030`'s proof went from over 200 s to 0.3 s).
//! That trusts the game's order, as the search does; a certificate writes it as a dominance
//! record, which its checker accepts on the same trust.
//!
//! [`Dfpn::certify`](crate::Dfpn::certify) is the same walk writing every position it accepts into a
//! [certificate](crate::certificate), which a checker that shares no code with the search can
//! confirm from the game's rules alone, telling positions apart by their exact encodings
//! instead of hashes.

mod line;
mod memo;
mod walk;

use crate::limits::Reason;

/// The verdict of [`Dfpn::verify`](crate::Dfpn::verify).
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

/// The outcome of [`Dfpn::verify`](crate::Dfpn::verify).
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
    /// Positions those searches evaluated (their `Stats::nodes`).
    pub search_nodes: u64,
    /// Walks that reused a position already verified (transpositions).
    pub memo_hits: u64,
    /// Records written into the certificate ([`Dfpn::certify`](crate::Dfpn::certify)): the
    /// positions of the proof that the game does not score itself, each once.
    pub records: u64,
}
