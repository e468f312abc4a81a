//! The `proofnum` command line as a library, so that other binaries (the distributed solver)
//! read the same games and print the same report:
//!
//! - [`answer`]: the vocabulary: the [`answer::Question`] asked, the [`answer::Answer`]
//!   settled, what a search [`answer::Found`];
//! - [`games`]: the registry of bundled games ([`games::GAMES`], [`games::with_game`]) and
//!   what the command line needs of each ([`games::Bundled`]);
//! - [`solve`]: the search options ([`solve::Options`], a clap argument group other binaries
//!   can flatten into theirs) and one run of the command line ([`solve::Solve`]);
//! - [`report`]: the position, the answer, the best move, the principal variation, the proof
//!   check and the search's figures, as the command line prints them;
//! - [`progress`]: the progress line of a long search;
//! - [`check`]: `proofnum check GAME POSITION FILE`, a certificate checked by
//!   `proofnum-check`;
//! - [`chess`]: `proofnum chess "<FEN>"`, the mate question with its own report (mate in N,
//!   exact or an upper bound, the mating line);
//! - [`shogi`]: `proofnum shogi "<SFEN>"`, a tsume-shogi problem with its own report (mate or
//!   not, the length in plies by the composers' conventions, the line in USI and Japanese);
//! - [`output`]: standard output for the report ([`outln!`], [`out!`]), which ends the
//!   process quietly when its reader has gone (`proofnum ... | head`), as Unix tools do.
//!
//! The binary, `proofnum` (`cargo install --path cli`), is `src/main.rs`: it parses the
//! arguments and hands them to [`solve::Solve`].

#![deny(missing_docs)]

pub mod answer;
pub mod check;
pub mod chess;
pub mod games;
pub mod output;
mod parallel;
pub mod progress;
pub mod report;
pub mod shogi;
pub mod solve;
