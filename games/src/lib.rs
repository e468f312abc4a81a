//! # proofnum-games
//!
//! Real games for [`proofnum`], written against its public [`proofnum::Game`] trait only, so
//! they double as benchmark workloads and as worked examples of plugging a game in efficiently:
//! one mutable position with make/unmake, bitboards, a hash that is cheap to keep up to date,
//! moves in a good order, and an [`outcome`](proofnum::Game::outcome) that reports what it can
//! see without search (early win/loss detection).
//!
//! - [`connect4`]: Connect Four on any board up to 64 bitboard bits (7×6 is
//!   [`connect4::ConnectFour`]), positions from the usual string of 1-based column digits; an
//!   independent alpha-beta solver ([`connect4::reference`]) for tests and test suites; suite
//!   files ([`connect4::suite`]).
//! - [`uttt`]: Ultimate Tic-Tac-Toe with bitboards, an incremental Zobrist hash, the
//!   notation of the public `ultimattt` solver, and that solver's published game knowledge
//!   (critical boards, wins two plies deep, forced losses, "cannot win" bounds, losing moves
//!   left out), each rule switchable ([`uttt::Knowledge`]).
//! - [`atarigo`]: Atari Go (first capture wins) on boards up to 7×7, with the 6×6 crosscut
//!   start of the 1+ε paper's experiment; points in Go coordinates, positions as moves from
//!   the crosscut or as a setup ([`atarigo::notation`]).
//! - [`chess`]: chess on the `cozy-chess` move generator, the question "can this side force
//!   checkmate?" with repetitions as draws, optional fifty-move rule and checks-only mode,
//!   cheap knowledge (mate in one, material that cannot mate, move order, df-pn+ estimates),
//!   FEN, UCI and SAN text.
//! - [`shogi`]: tsume-shogi (mating problems by continuous checks) on the `haitaka` move
//!   generator: SFEN, USI and KIF-style Japanese notation, mate in one, df-pn+ estimates, and
//!   mate lengths by the composers' conventions ([`shogi::mate`]).
//! - [`tictactoe`]: tic-tac-toe, positions as the string of cells played (`"40"`).
//! - [`input`]: user input in error messages, cut short when long.
//!
//! The crate uses `std` (error messages, `Display`); the games themselves allocate nothing
//! while a search runs.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod atarigo;
pub mod chess;
pub mod connect4;
pub mod input;
mod knowledge_set;
mod mate_length;
pub mod shogi;
pub mod tictactoe;
pub mod uttt;
