//! Game knowledge: what the stones of a position say about its value before any search.
//!
//! The ideas are the ones Nelson Elhage published with his UTTT solver `ultimattt`
//! (<https://github.com/nelhage/ultimattt>, the endgame analysis its df-pn search runs at every
//! node). This code is our own, written against the rules alone, and every rule below is stated
//! in the exact form it is used, corner cases included: a bound or a left-out move that is wrong
//! even once makes the solver prove something false.
//!
//! # Terms
//! A board is *closed* once it is won or full; a move that sends the opponent to a closed board
//! gives it a *free choice* of every open board. A player's *critical* board is an open board
//! that lies on a line of boards whose other two boards the player has won, and where one free
//! cell completes three in a row for the player: playing that cell wins the game.
//!
//! # Rules (for the side to move, "me", against "them")
//! 1. **Immediate win** ([`Knowledge::IMMEDIATE_WIN`]): I may play in one of my critical boards.
//! 2. **No line left** ([`Knowledge::CANNOT_WIN`]): a player can still win only boards that are
//!    open and hold a line without the other player's stones. A player for whom no line of
//!    boards consists of such boards and boards already won cannot win the game:
//!    [`Outcome::CannotWin`] when that is me, [`Outcome::CannotLose`] when it is them,
//!    [`Outcome::Draw`] when it is both.
//! 3. **Win two plies deep** ([`Knowledge::FORCED_WIN`]): I have a critical board but must play
//!    in another board `t`, and some cell `c` of `t` sends them to board `c` (which may be `t`
//!    itself) that is open after my move and not critical for them, such that after every reply
//!    `d` in board `c` I may play in a board critical for me *after both moves*: board `d` when
//!    it is open, any of them when board `d` is closed (a free choice). "After both moves"
//!    covers what they change: my move may win `t` (new lines of won boards), make `t` critical
//!    or close it; the reply may block or close board `c` (in particular the last critical
//!    board, or the last open board: a draw).
//! 4. **Losing moves** ([`Knowledge::PRUNE_LOSING`]): a move that does not itself win the game,
//!    and after which they may play in one of their critical boards (sent to a board closed
//!    after the move, with some critical board of theirs left; or sent to a board still
//!    critical for them after the move), loses at once. [`generate_moves`](proofnum::Game::generate_moves) leaves such
//!    moves out while another move remains.
//! 5. **Forced loss** ([`Knowledge::FORCED_LOSS`]): every move I have loses by rule 4.
//!
//! Rules 3 to 5 look at the cells of one board only, so they cost a few table lookups per cell
//! and allocate nothing. Moves that survive rule 4 are listed best first
//! ([`Knowledge::ORDER`], see `moves.rs`).

use proofnum::Outcome;

use super::Uttt;
use super::tables::{COMPLETES, FULL, THREE};

/// Which pieces of game knowledge a position uses. The value of a position never depends on
/// it, only how fast the solver finds it; a knowledge-off position is the plain game the rules
/// describe, to check the knowledge against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knowledge(u8);

impl Knowledge {
    /// Nothing beyond finished games: [`outcome`](proofnum::Game::outcome) reports only won and fully decided
    /// grids, [`generate_moves`](proofnum::Game::generate_moves) lists every legal move board by board.
    pub const NONE: Knowledge = Knowledge(0);
    /// Rule 1 of the module docs: a win when I may play in one of my critical boards.
    pub const IMMEDIATE_WIN: Knowledge = Knowledge(1);
    /// Rule 2: `CannotWin` / `CannotLose` / `Draw` when a player has no line of boards left.
    pub const CANNOT_WIN: Knowledge = Knowledge(1 << 1);
    /// Rule 3: a win two plies deep.
    pub const FORCED_WIN: Knowledge = Knowledge(1 << 2);
    /// Rule 4: moves that let the opponent win at once are left out while another remains.
    pub const PRUNE_LOSING: Knowledge = Knowledge(1 << 3);
    /// Rule 5: a loss when every move lets the opponent win at once.
    pub const FORCED_LOSS: Knowledge = Knowledge(1 << 4);
    /// Moves listed best first (see `moves.rs`) instead of board by board.
    pub const ORDER: Knowledge = Knowledge(1 << 5);
    /// Every rule: the default of every position.
    pub const ALL: Knowledge = Knowledge((1 << 6) - 1);
    /// The rules one by one, with their names (for benchmarks that switch each off in turn).
    pub const EACH: [(&'static str, Knowledge); 6] = [
        ("immediate-win", Knowledge::IMMEDIATE_WIN),
        ("cannot-win", Knowledge::CANNOT_WIN),
        ("forced-win", Knowledge::FORCED_WIN),
        ("prune-losing", Knowledge::PRUNE_LOSING),
        ("forced-loss", Knowledge::FORCED_LOSS),
        ("order", Knowledge::ORDER),
    ];
}

crate::knowledge_set::knowledge_set!(Knowledge);

/// Which rule decided [`Uttt::verdict`] (for tests and for explaining a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Nothing is known: the outcome is [`Outcome::Unknown`].
    None,
    /// The game is over (three won boards in a row, or every board closed).
    Finished,
    /// Rule 1: I may play in one of my critical boards.
    ImmediateWin,
    /// Rule 2 for one or both players.
    NoLineLeft,
    /// Rule 3: a win two plies deep.
    ForcedWin,
    /// Rule 5: every move lets them win at once.
    ForcedLoss,
}

/// Bit `b` set.
#[inline]
const fn bit(b: usize) -> u16 {
    1 << b
}

impl Uttt {
    /// The outcome [`outcome`](proofnum::Game::outcome) reports and the rule that decided it.
    pub fn verdict(&self) -> (Outcome, Rule) {
        let me = self.to_move.index();
        let them = 1 - me;
        if THREE[self.won[them] as usize] {
            return (Outcome::Loss, Rule::Finished);
        }
        if self.closed == FULL {
            return (Outcome::Draw, Rule::Finished);
        }
        let k = self.knowledge;
        let open = FULL & !self.closed;
        let mine = if k.contains(Knowledge::IMMEDIATE_WIN) || k.contains(Knowledge::FORCED_WIN) {
            self.critical_boards(me, self.won[me], open)
        } else {
            0
        };
        if mine & self.playable() != 0 && k.contains(Knowledge::IMMEDIATE_WIN) {
            return (Outcome::Win, Rule::ImmediateWin);
        }
        let (i_can, they_can) = if k.contains(Knowledge::CANNOT_WIN) {
            (self.can_still_win(me), self.can_still_win(them))
        } else {
            (true, true)
        };
        if !i_can && !they_can {
            return (Outcome::Draw, Rule::NoLineLeft);
        }
        if k.contains(Knowledge::FORCED_WIN) && self.wins_in_two_plies(me, mine) {
            return (Outcome::Win, Rule::ForcedWin);
        }
        if k.contains(Knowledge::FORCED_LOSS) {
            let theirs = self.critical_boards(them, self.won[them], open);
            if theirs != 0 && self.every_move_loses(me, theirs) {
                return (Outcome::Loss, Rule::ForcedLoss);
            }
        }
        if !i_can {
            (Outcome::CannotWin, Rule::NoLineLeft)
        } else if !they_can {
            (Outcome::CannotLose, Rule::NoLineLeft)
        } else {
            (Outcome::Unknown, Rule::None)
        }
    }

    /// The boards of `among` (open boards) critical for `who` when `who` has won the boards
    /// `won`: winning the board completes a line of won boards, and one free cell wins it.
    #[inline]
    pub(super) fn critical_boards(&self, who: usize, won: u16, among: u16) -> u16 {
        let mut boards = among & COMPLETES[won as usize];
        let mut found = 0;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            if COMPLETES[self.cells[who][b] as usize] & self.empty(b) != 0 {
                found |= bit(b);
            }
        }
        found
    }

    /// Rule 2: some line of boards holds only boards `who` has won or can still win (open,
    /// with a line of cells free of the other player's stones).
    #[inline]
    fn can_still_win(&self, who: usize) -> bool {
        THREE[(self.won[who] | self.alive[who]) as usize]
    }

    /// Rule 3 for the side to move `me`, whose critical boards are `mine`.
    fn wins_in_two_plies(&self, me: usize, mine: u16) -> bool {
        if mine == 0 {
            return false;
        }
        if mine & self.playable() != 0 {
            // Rule 1's case, left to it (a free choice always includes the critical boards).
            return false;
        }
        let t = self.target as usize;
        let mut cells = self.empty(t);
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            if self.move_wins_in_two_plies(me, t, c, mine) {
                return true;
            }
        }
        false
    }

    /// Rule 3 for my move to cell `c` of the forced board `t` (not critical for me); `mine`
    /// are my critical boards before the move.
    fn move_wins_in_two_plies(&self, me: usize, t: usize, c: usize, mine: u16) -> bool {
        let them = 1 - me;
        // Board t after my move. Winning t does not win the game: t is not critical for me.
        let my_t = self.cells[me][t] | bit(c);
        let free_t = self.empty(t) & !bit(c);
        let wins_t = THREE[my_t as usize];
        let t_closed = wins_t || free_t == 0;
        let my_won = self.won[me] | if wins_t { bit(t) } else { 0 };
        let closed = self.closed | if t_closed { bit(t) } else { 0 };
        // They must play in board s = c: a closed board would give them a free choice.
        let s = c;
        if closed & bit(s) != 0 {
            return false;
        }
        let (my_s, their_s, free_s) = if s == t {
            (my_t, self.cells[them][t], free_t)
        } else {
            (self.cells[me][s], self.cells[them][s], self.empty(s))
        };
        // Board s must not be critical for them (then a reply wins the game; no other reply
        // can, since winning s is the only way their move can complete a line of boards).
        if COMPLETES[self.won[them] as usize] & bit(s) != 0
            && COMPLETES[their_s as usize] & free_s != 0
        {
            return false;
        }
        // My critical boards that neither move touches, counting a board t I just won.
        let untouched = FULL & !closed & !bit(s) & !bit(t);
        let mut fixed = if wins_t {
            self.critical_boards(me, my_won, untouched)
        } else {
            mine & untouched
        };
        // Board t, when my move left it open (and s is another board, so the reply leaves t
        // alone), may have become critical for me.
        if s != t
            && !t_closed
            && COMPLETES[my_won as usize] & bit(t) != 0
            && COMPLETES[my_t as usize] & free_t != 0
        {
            fixed |= bit(t);
        }
        let s_on_my_line = COMPLETES[my_won as usize] & bit(s) != 0;
        let mut replies = free_s;
        while replies != 0 {
            let d = replies.trailing_zeros() as usize;
            replies &= replies - 1;
            let free_s_after = free_s & !bit(d);
            let s_closed = THREE[(their_s | bit(d)) as usize] || free_s_after == 0;
            let s_critical =
                !s_closed && s_on_my_line && COMPLETES[my_s as usize] & free_s_after != 0;
            let critical = fixed | if s_critical { bit(s) } else { 0 };
            let sent_to_closed = if d == s {
                s_closed
            } else {
                closed & bit(d) != 0
            };
            let i_win = if sent_to_closed {
                critical != 0
            } else {
                critical & bit(d) != 0
            };
            if !i_win {
                return false;
            }
        }
        true
    }

    /// The free cells of board `b` where a move by `me` loses at once by rule 4, given their
    /// critical boards `theirs` (non-empty).
    pub(super) fn losing_cells(&self, me: usize, b: usize, theirs: u16) -> u16 {
        let free = self.empty(b);
        let others = theirs & !bit(b);
        // A cell c other than b leaves every critical board of theirs other than b as it was:
        // with one left, sending them to a closed board or to such a board loses.
        let mut losing = if others != 0 {
            (others | self.closed) & free & !bit(b)
        } else {
            0
        };
        // The rest (cell b, or every cell when b is their only critical board) depends on
        // what the move does to board b: decide them one by one.
        let mut rest = free & !losing & if others != 0 { bit(b) } else { FULL };
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.move_loses(me, b, c, theirs) {
                losing |= bit(c);
            }
        }
        // A move that wins the game never loses.
        if COMPLETES[self.won[me] as usize] & bit(b) != 0 {
            losing &= !COMPLETES[self.cells[me][b] as usize];
        }
        losing
    }

    /// Rule 4 for one move: `me` plays cell `c` of board `b`; `theirs` are their critical
    /// boards before the move.
    fn move_loses(&self, me: usize, b: usize, c: usize, theirs: u16) -> bool {
        let them = 1 - me;
        let my_b = self.cells[me][b] | bit(c);
        let free_b = self.empty(b) & !bit(c);
        let wins_b = THREE[my_b as usize];
        if wins_b && COMPLETES[self.won[me] as usize] & bit(b) != 0 {
            return false; // the move wins the game
        }
        let b_closed = wins_b || free_b == 0;
        // My move may have blocked or closed board b; their other critical boards stay.
        let b_still_critical = !b_closed
            && theirs & bit(b) != 0
            && COMPLETES[self.cells[them][b] as usize] & free_b != 0;
        let theirs_after = theirs & !bit(b) | if b_still_critical { bit(b) } else { 0 };
        if theirs_after == 0 {
            return false;
        }
        let sent_to_closed = if c == b {
            b_closed
        } else {
            self.closed & bit(c) != 0
        };
        sent_to_closed || theirs_after & bit(c) != 0
    }

    /// Rule 5: every move of `me` loses by rule 4 (`theirs`, their critical boards, non-empty).
    fn every_move_loses(&self, me: usize, theirs: u16) -> bool {
        let mut boards = self.playable();
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            if self.losing_cells(me, b, theirs) != self.empty(b) {
                return false;
            }
        }
        true
    }
}
