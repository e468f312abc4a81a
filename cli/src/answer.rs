//! The command line's vocabulary, shared by its runs, its report and other binaries (the
//! distributed solver): the [`Question`] asked, the [`Answer`] a search settled, and what a
//! search [`Found`], whichever engine ran it.

use proofnum::{Player, Reason, Stats, Status, Value};

use crate::games::Bundled;

/// What the command line asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Question {
    /// Win, draw or loss for the side to move.
    Value,
    /// Can this player force a win?
    CanWin(Player),
}

impl Question {
    /// The question about `G` of the command line's `--attacker` (a player's name), else
    /// the value.
    pub fn asked<G: Bundled>(attacker: Option<&str>) -> Result<Self, String> {
        Ok(match attacker {
            Some(name) => Question::CanWin(G::player_named(name)?),
            None => Question::Value,
        })
    }
}

/// What a search found, whichever engine ran it.
pub struct Found<M> {
    /// The answer, or why the search stopped without one.
    pub answer: Result<Answer, Reason>,
    /// The engine's own best move (what it is depends on the answer; see `report`).
    pub best_move: Option<M>,
    /// Counters of every search run.
    pub stats: Stats,
}

/// A settled answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// The value for the side to move.
    Value(Value),
    /// The attacker of `--attacker` can force a win (`Proven`) or cannot (`Disproven`).
    Status(Status),
}

impl<M> Found<M> {
    /// The result of one attacker search.
    pub fn from_search(r: proofnum::SearchResult<M>) -> Self {
        Found {
            answer: match r.status {
                Status::Unknown(reason) => Err(reason),
                settled => Ok(Answer::Status(settled)),
            },
            best_move: r.best_move,
            stats: r.stats,
        }
    }

    /// The result of a win-draw-loss search.
    pub fn from_value(r: proofnum::ValueResult<M>) -> Self {
        Found {
            answer: r.value.map(Answer::Value),
            best_move: r.best_move,
            stats: r.stats,
        }
    }
}
