//! # proofnum
//!
//! Proof-number search for embedding: solve game positions ("can this player force a win?")
//! inside memory the caller provides.
//!
//! The core is `#![no_std]` and allocates nothing. Every component takes caller memory and has a
//! size query:
//! - [`Table`]: a fixed-size lossy transposition table over a byte buffer
//!   ([`Table::required_bytes`]); it can be saved and loaded. [`SharedTable`] is the same bytes
//!   used from many threads at once (lockless, on targets with 64-bit atomics).
//! - [`Dfpn`]: depth-first proof-number search with the 1+ε trick, running as a loop over
//!   frames in a stack region ([`Dfpn::stack_bytes`]), so deep proofs never overflow the
//!   machine stack.
//! - [`Pns`]: best-first proof-number search (and PN²) over a node arena in one buffer
//!   ([`Pns::required_bytes`]); solved subtrees are freed as the arena fills.
//!
//! A game plugs in through the [`Game`] trait (make/unmake on one position; its docs hold a
//! complete example). A search proves or disproves that an attacker can force a win; draws
//! count against the attacker. [`Dfpn::solve_value`] gets win/draw/loss with two searches.
//!
//! ```
//! use proofnum::{Dfpn, Game, Limits, MoveList, Outcome, Player, Table, Value};
//!
//! /// Take 1, 2 or 3 stones; whoever takes the last stone wins.
//! #[derive(Clone)]
//! struct Nim { stones: u32, to_move: Player }
//!
//! impl Game for Nim {
//!     type Move = u32;
//!     fn side_to_move(&self) -> Player { self.to_move }
//!     fn hash(&self) -> u64 { (self.stones as u64) << 1 | self.to_move.index() as u64 }
//!     fn outcome(&self) -> Outcome {
//!         if self.stones == 0 { Outcome::Loss } else { Outcome::Unknown }
//!     }
//!     fn generate_moves(&self, moves: &mut MoveList<'_, u32>) {
//!         (1..=self.stones.min(3)).for_each(|take| moves.push(take));
//!     }
//!     fn play(&mut self, take: u32) { self.stones -= take; self.to_move = self.to_move.opponent(); }
//!     fn undo(&mut self, take: u32) { self.stones += take; self.to_move = self.to_move.opponent(); }
//! }
//!
//! // All memory comes from the caller: here two heap buffers, but static arrays work too.
//! let mut table_memory = vec![0u8; 1 << 20];
//! let mut table = Table::new(&mut table_memory).unwrap();
//! let (max_depth, max_moves) = (128, 3);
//! let mut stack_memory = vec![0u8; Dfpn::<Nim>::stack_bytes(max_depth, max_moves)];
//! let mut dfpn = Dfpn::<Nim>::new(&mut stack_memory, max_depth, max_moves, Default::default()).unwrap();
//!
//! let mut game = Nim { stones: 21, to_move: Player::First };
//! let result = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
//! assert_eq!(result.value, Ok(Value::Win)); // 21 is not a multiple of 4: take 1
//! assert_eq!(result.best_move, Some(1));
//!
//! game.stones = 20;
//! let result = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
//! assert_eq!(result.value, Ok(Value::Loss));
//! ```
//!
//! ## Features
//! - `std` (off by default): the parallel PN-DFPN solver (module `parallel`): several threads
//!   solve one position over a shared table; and `memory::table_memory` /
//!   `memory::advise_huge_pages`, a table's memory on huge pages (the one allocation the
//!   crate offers, for callers that want it).
//!
//! ## Limits
//! Searches stop on node or work budgets, a stop flag another thread may set, or a time limit
//! measured by a caller's clock callback ([`Limits`]). A stopped search reports
//! [`Status::Unknown`] with the [`Reason`]; it never reports a result it did not prove.
#![no_std]
// docs.rs (nightly, `--cfg docsrs`): mark the items that need the std feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(unsafe_op_in_unsafe_fn)]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod certificate;
pub mod confirm;
pub mod dfpn;
pub mod game;
mod keys;
mod limits;
pub mod memory;
mod number;
#[cfg(feature = "std")]
pub mod parallel;
pub mod pns;
pub mod proof;
mod result;
mod search;
mod value;

// The table's layout and bucket protocol (constants, raw entries, the lock-free bucket
// functions) are internals: the public table is what the root re-exports below. The
// `internals` feature opens the module, hidden from the docs and outside any semver promise,
// for this repository's own tests, benchmarks and fuzzers, which check the layout itself.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod table;
#[cfg(not(feature = "internals"))]
mod table;

pub use dfpn::{Dfpn, DfpnConfig, Job};
pub use game::{
    Decided, ENCODING_CAPACITY, Game, MoveCodec, MoveList, Outcome, Player, RepetitionRule, Value,
};
pub use limits::{CLOCK_POLL_INTERVAL, Limits, Progress, Reason};
pub use memory::MemoryError;
pub use number::{Epsilon, INFINITE, MAX_FINITE, Numbers};
#[cfg(feature = "std")]
pub use parallel::{
    ParallelConfig, ParallelLimits, ParallelProgress, ParallelResult, ParallelSolver,
    ParallelStats, ParallelValueResult, Scheduler,
};
pub use pns::{ArenaStats, Pns, PnsConfig, TranspositionNumbers};
pub use proof::{Variation, Verdict, Verification, VerifyStats};
pub use result::{SearchResult, Stats, Status};
pub use search::{Answer, Search, ValueAnswer};
pub use table::{Entry, Table, TableError, TableStats, TranspositionTable, position_key};
#[cfg(target_has_atomic = "64")]
pub use table::{SharedHandle, SharedTable};
pub use value::ValueResult;

/// README.md's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The user guide's chapter "Using it from Rust" (`docs/src/rust.md`): its Rust blocks are
/// doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/src/rust.md")]
pub struct GuideRustDoctests;

/// The user guide's chapter "Parallel and distributed" (`docs/src/parallel.md`): its Rust
/// blocks are doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/src/parallel.md")]
pub struct GuideParallelDoctests;
