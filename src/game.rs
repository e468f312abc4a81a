//! The [`Game`] trait a caller implements to have positions solved, and the small types it
//! uses, from the `proofnum-game` crate (re-exported here and at the crate root): a game is one
//! mutable position with make and unmake, as game engines keep it. The solver never clones it
//! (the parallel solver clones one position per worker). Moves are written into a [`MoveList`]
//! of bounded capacity: a position with more moves than the list holds is reported by the
//! solver as an error, never written past the buffer.
//!
//! The trait has its own crate so that a proof certificate's checker can replay a proof
//! against the same rules without depending on the search.

pub use proofnum_game::{
    Decided, ENCODING_CAPACITY, Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule, Value,
};
