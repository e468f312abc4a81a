//! The [`Game`] trait of proofnum and the small types it uses: a two-player game's rules as a
//! proof-number solver sees them.
//!
//! A game is one mutable position with make and unmake ([`Game::play`], [`Game::undo`]), a hash,
//! the side to move, what it knows of its value without search ([`Outcome`]), its moves written
//! into a bounded [`MoveList`], and optional knowledge for the search (estimates, a repetition
//! rule, an exact encoding for certificates). The trait's docs hold a complete example.
//!
//! This crate is separate from the solver (`proofnum`, which re-exports every item here) so
//! that a proof certificate's checker can replay a proof against the same rules while sharing
//! no code with the search: it depends on this crate alone. `#![no_std]`, no allocation, no
//! `unsafe`.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod game;
mod numbers;

pub use game::{
    Decided, ENCODING_CAPACITY, Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule, Value,
};
pub use numbers::{INFINITE, MAX_FINITE, Numbers};
