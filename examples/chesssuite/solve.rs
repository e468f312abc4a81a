//! proofnum's answer for one suite line: df-pn on `proofnum_games::chess` for the attacker,
//! then the mate distance and the mating line.

use std::time::Instant;

use cozy_chess::Color;
use proofnum::table::Table;
use proofnum::{Dfpn, Game, Limits, Status};
use proofnum_games::chess::{self, Chess, MAX_MOVES};

/// The deepest line df-pn may walk (plies).
pub const MAX_DEPTH: usize = 400;

/// What proofnum claims about "can `attacker` force checkmate?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A mate, with its distance in attacker moves and the line to replay.
    Mate {
        /// The N of "mate in N".
        n: u32,
        /// Whether N is the exact distance (else a proven upper bound).
        exact: bool,
        /// The mating line from the root, both sides' moves.
        line: Vec<cozy_chess::Move>,
    },
    /// Disproven: the attacker cannot force mate (repetitions count as draws).
    NoMate,
    /// Stopped by a limit (the text says which).
    Unknown(String),
}

/// One solve: the claim, MID calls and seconds.
pub struct Solved {
    /// The answer.
    pub claim: Claim,
    /// MID calls of every search the answer needed.
    pub mid_calls: u64,
    /// Wall time, table clearing excluded.
    pub seconds: f64,
    /// Wall time until the mate was proven or disproven (the distance and line not included).
    pub prove_seconds: f64,
}

/// Memory for the solver, kept across lines.
pub struct Solver {
    table_memory: Vec<u8>,
    stack_memory: Vec<u8>,
    /// Checks-only mode (mates by checks only).
    pub checks_only: bool,
}

impl Solver {
    /// A solver with a `table_mib` MiB table.
    pub fn new(table_mib: f64, checks_only: bool) -> Solver {
        Solver {
            table_memory: vec![0u8; (table_mib * (1 << 20) as f64) as usize],
            stack_memory: vec![0u8; Dfpn::<Chess>::stack_bytes(MAX_DEPTH, MAX_MOVES)],
            checks_only,
        }
    }

    /// Solves "can `attacker` mate?" from `fen` within `cap_s` seconds (searches for the
    /// distance included), on a cleared table.
    pub fn solve(&mut self, fen: &str, attacker: Color, cap_s: f64) -> Result<Solved, String> {
        let mut game = Chess::from_fen(fen).map_err(|e| e.to_string())?;
        let attacker_player = chess::player(attacker);
        if self.checks_only {
            game = game.with_checks_only(attacker_player);
        }
        let mut table = Table::new(&mut self.table_memory).map_err(|e| format!("{e:?}"))?;
        let mut dfpn = Dfpn::<Chess>::new(
            &mut self.stack_memory,
            MAX_DEPTH,
            MAX_MOVES,
            Default::default(),
        )
        .map_err(|e| format!("{e:?}"))?;
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: (cap_s * 1e6) as u64,
            ..Limits::none()
        };
        let result = dfpn.solve(&mut game, attacker_player, &mut table, &mut limits);
        let mid_calls = result.stats.mid_calls;
        let prove_seconds = start.elapsed().as_secs_f64();
        let claim = match result.status {
            Status::Disproven => Claim::NoMate,
            Status::Unknown(reason) => Claim::Unknown(format!("{reason:?}")),
            Status::Proven => {
                let mut line = vec![chess::Move(0); 2 * MAX_DEPTH];
                let variation = dfpn.principal_variation(
                    &mut game,
                    attacker_player,
                    &mut table,
                    &mut line,
                    &mut limits,
                );
                line.truncate(variation.len);
                // A mate in one that the game's knowledge saw ends the line one move early:
                // the game names the mating move.
                for &mv in &line {
                    game.play(mv);
                }
                if game.color_to_move() == attacker
                    && let Some(mate) = game.mating_move()
                {
                    line.push(mate);
                }
                for &mv in line.iter().rev() {
                    game.undo(mv);
                }
                let line: Vec<cozy_chess::Move> = line.iter().map(|m| m.to_cozy()).collect();
                let n = line
                    .iter()
                    .enumerate()
                    .filter(|&(ply, _)| (ply % 2 == 0) == (game.color_to_move() == attacker))
                    .count() as u32;
                Claim::Mate {
                    n,
                    exact: false,
                    line,
                }
            }
        };
        Ok(Solved {
            claim,
            mid_calls,
            seconds: start.elapsed().as_secs_f64(),
            prove_seconds,
        })
    }
}
