//! proofnum's answer for one suite line: the chess game's `solve_mate` ("mate in N", exact or
//! an upper bound, and a mating line), and, for the benchmark, the time df-pn alone takes to
//! prove that a mate exists.

use std::time::{Duration, Instant};

use cozy_chess::Color;
use proofnum::Table;
use proofnum::{Dfpn, DfpnConfig, Limits, Status};
use proofnum_games::chess::mate::{Exactness, MateConfig, MateMemory, solve_mate_in};
use proofnum_games::chess::{self, Chess, Knowledge, MAX_MOVES};

/// The deepest line df-pn may walk (plies) in the benchmark's proofs.
pub const MAX_DEPTH: usize = 400;

/// What proofnum claims about "can `attacker` force checkmate?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A proven mate.
    Mate {
        /// The N of "mate in N" (None: the mate is proven, its distance was not bounded).
        n: Option<u32>,
        /// Whether N is the exact distance (else a proven upper bound).
        exact: bool,
        /// A mating line from the root, both sides' moves, ending in checkmate.
        line: Vec<cozy_chess::Move>,
        /// Whether the line is a longest defence against a shortest mate (it then has N
        /// attacker moves); else it is only some mating line of the proof.
        line_is_optimal: bool,
    },
    /// Disproven: the attacker cannot force mate (repetitions count as draws; in checks-only
    /// mode: not by checks alone).
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
    /// Wall time of everything (proof, distance, line).
    pub seconds: f64,
    /// The deepest ply any of its searches reached.
    pub max_depth: u32,
    /// Whether N is exact, a bound (and why), or unknown (and why).
    pub exactness: Exactness,
    /// The bounds proven on the way and when (`MateReport::bounds`), seconds.
    pub bounds: Vec<(u32, f64)>,
}

/// One proof alone, for the benchmark.
pub struct Proved {
    /// Proven, disproven or unknown.
    pub status: Status,
    /// Its MID calls.
    pub mid_calls: u64,
    /// Positions it evaluated.
    pub nodes: u64,
    /// Table lookups that found their position.
    pub table_hits: u64,
    /// Its wall time, the table's clearing excluded.
    pub seconds: f64,
    /// The deepest ply it reached.
    pub max_depth: u32,
}

/// Memory for the benchmark's proofs, kept across lines, and the settings of both.
pub struct Solver {
    table_memory: Vec<u8>,
    stack_memory: Vec<u8>,
    /// `solve`'s memory, made (and prefaulted) at its first call, reused by the next ones as
    /// a program asking about many positions would.
    mate_memory: Option<MateMemory>,
    /// Checks-only mode (mates by checks only).
    pub checks_only: bool,
    /// The chess knowledge in use (all by default).
    pub knowledge: Knowledge,
    /// MID calls of a checks-only search tried before the full one (0: none).
    pub checks_first: u64,
    /// Positions `solve` may evaluate in all its searches together (a deterministic cap;
    /// `u64::MAX`: none but the time cap).
    pub max_positions: u64,
}

impl Solver {
    /// A solver with a `table_mib` MiB table.
    pub fn new(table_mib: f64, checks_only: bool) -> Solver {
        Solver {
            table_memory: proofnum_tools::timed_table_memory(
                (table_mib * (1 << 20) as f64) as usize,
            ),
            stack_memory: vec![0u8; Dfpn::<Chess>::stack_bytes(MAX_DEPTH, MAX_MOVES)],
            mate_memory: None,
            checks_only,
            knowledge: Knowledge::ALL,
            checks_first: 0,
            max_positions: u64::MAX,
        }
    }

    /// The position, set up as `solve_mate` sets it: mate-in-one detection for the attacker
    /// only, checks-only mode when asked.
    fn game(&self, fen: &str, attacker: Color) -> Result<Chess, String> {
        let mut game = Chess::from_fen(fen)
            .map_err(|e| e.to_string())?
            .with_knowledge(self.knowledge);
        game.set_attacker(Some(chess::player(attacker)));
        Ok(if self.checks_only {
            game.with_checks_only(chess::player(attacker))
        } else {
            game
        })
    }

    /// "Can `attacker` mate from `fen`, and in how many moves?" within `cap_s` seconds for
    /// everything (`solve_mate_in` on a table of the same size, its memory made before the
    /// first line's clock starts and reused by the next lines; exact N where the cap allows).
    pub fn solve(&mut self, fen: &str, attacker: Color, cap_s: f64) -> Result<Solved, String> {
        let mut game = self.game(fen, attacker)?;
        let config = MateConfig {
            table_bytes: self.table_memory.len(),
            max_time: Some(Duration::from_secs_f64(cap_s)),
            max_nodes: self.max_positions,
            ..MateConfig::default()
        };
        let memory = self.mate_memory.get_or_insert_with(|| {
            let mut memory = MateMemory::chess(&config);
            memory.prefault();
            memory
        });
        let report = solve_mate_in(memory, &mut game, chess::player(attacker), &config);
        let claim = match report.status {
            Status::Disproven => Claim::NoMate,
            Status::Unknown(reason) => Claim::Unknown(reason.to_string()),
            Status::Proven => Claim::Mate {
                n: report.mate_in,
                exact: report.exactness == Exactness::Exact,
                line: report.line.iter().map(|m| m.to_cozy()).collect(),
                line_is_optimal: report.line_is_optimal,
            },
        };
        Ok(Solved {
            claim,
            mid_calls: report.stats.mid_calls,
            seconds: report.elapsed.as_secs_f64(),
            max_depth: report.stats.max_depth,
            exactness: report.exactness,
            bounds: report
                .bounds
                .iter()
                .map(|&(k, t)| (k, t.as_secs_f64()))
                .collect(),
        })
    }

    /// df-pn alone on "can `attacker` mate from `fen`?", within `cap_s` seconds, on this
    /// solver's table (cleared before the clock starts).
    pub fn prove(&mut self, fen: &str, attacker: Color, cap_s: f64) -> Result<Proved, String> {
        self.prove_within(fen, attacker, cap_s, u64::MAX, DfpnConfig::default())
    }

    /// [`prove`](Solver::prove) with a MID-call budget too (a deterministic cap) and df-pn's
    /// settings.
    pub fn prove_within(
        &mut self,
        fen: &str,
        attacker: Color,
        cap_s: f64,
        max_mid_calls: u64,
        config: DfpnConfig,
    ) -> Result<Proved, String> {
        let mut game = self.game(fen, attacker)?;
        let mut table = Table::new(&mut self.table_memory).map_err(|e| format!("{e:?}"))?;
        let mut dfpn = Dfpn::<Chess>::new(&mut self.stack_memory, MAX_DEPTH, MAX_MOVES, config)
            .map_err(|e| format!("{e:?}"))?;
        let start = Instant::now();
        let mut clock = || start.elapsed().as_micros() as u64;
        let mut limits = Limits {
            clock: Some(&mut clock),
            max_time_us: (cap_s * 1e6) as u64,
            max_work: max_mid_calls,
            ..Limits::none()
        };
        let mut checks_mid_calls = 0;
        if self.checks_first > 0 && !self.checks_only {
            let mut checks = game.clone().with_checks_only(chess::player(attacker));
            let mut first = Limits {
                max_work: self.checks_first,
                ..Limits::none()
            };
            let r = dfpn.solve(&mut checks, chess::player(attacker), &mut table, &mut first);
            checks_mid_calls = r.stats.mid_calls;
            if r.status == Status::Proven {
                return Ok(Proved {
                    status: r.status,
                    mid_calls: r.stats.mid_calls,
                    nodes: r.stats.nodes,
                    table_hits: r.stats.table.hits,
                    seconds: start.elapsed().as_secs_f64(),
                    max_depth: r.stats.max_depth,
                });
            }
        }
        let mut result = dfpn.solve(&mut game, chess::player(attacker), &mut table, &mut limits);
        result.stats.mid_calls += checks_mid_calls;
        Ok(Proved {
            status: result.status,
            mid_calls: result.stats.mid_calls,
            nodes: result.stats.nodes,
            table_hits: result.stats.table.hits,
            seconds: start.elapsed().as_secs_f64(),
            max_depth: result.stats.max_depth,
        })
    }
}
