//! `solve_mpi`: the command line's solve over MPI ranks. Rank 0 coordinates (the root tree),
//! every other rank runs df-pn jobs with its own table; rank 0 prints what `proofnum` prints
//! (the position, the answer, the best move, the figures) and then what each rank did.
//!
//! ```sh
//! cargo build --release -p proofnum-mpi            # target/release/solve_mpi
//! mpirun --oversubscribe -np 3 target/release/solve_mpi connect4 12345
//! mpirun --oversubscribe -np 3 target/release/solve_mpi connect4 4453 --checkpoint c4.ck \
//!     --checkpoint-every 1m --checkpoint-trigger c4.ck.now
//! touch c4.ck.now                                  # from another shell: a checkpoint now
//! mpirun --oversubscribe -np 3 target/release/solve_mpi connect4 4453 --checkpoint c4.ck --resume
//! ```
//!
//! (`--oversubscribe`: more ranks than cores; as root, mpirun also needs `--allow-run-as-root`.)
//! The options are `proofnum`'s (`--table-mib` is each rank's table, `--threads` each worker
//! rank's job threads) and the distributed ones below. At the start rank 0 says on standard
//! error its pid and host, its checkpoint file, and the commands that drive it:
//!
//! - a checkpoint now: `kill -USR1 PID`, or creating the `--checkpoint-trigger` file (rank 0
//!   removes it once the checkpoint is written);
//! - stop with a checkpoint: `kill -INT PID`, or creating the `--stop-trigger` file; the report
//!   follows, exit code 1, and the exact command that resumes;
//! - Ctrl-C at `mpirun`: mpirun sends every rank SIGTERM, then SIGKILL after its
//!   `odls_base_sigkill_timeout` (1 s by default; `--mca odls_base_sigkill_timeout 10` gives
//!   more). Rank 0 spends that time on a last checkpoint (the worker ranks keep serving it) and
//!   says how to resume; mpirun itself exits with 1. The same happens when a rank dies (mpirun
//!   then ends the others the same way): the ranks that could still save their tables are
//!   listed in the checkpoint.
//!
//! Exit codes: `proofnum`'s (0 answered, 1 stopped by a limit, a signal or a trigger, 2 bad
//! input, 3 `--verify` refuted), 1 also when the run was ended from outside with a last
//! checkpoint written, and 4 when the run failed (a rank lost, a checkpoint or a rank's table
//! file that cannot be used, the run ended from outside with no checkpoint written). A
//! `--checkpoint` path that cannot be written is bad input, found before anything is searched;
//! a checkpoint that fails later (a full disk) is reported and counted, and the run goes on to
//! its report and exit code. mpirun prints "the job has been aborted" whenever a rank exits
//! with a code other than 0: that banner only repeats the code (`mpirun -q` leaves it out).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Parser};
use mpi::Threading;
use proofnum::{Dfpn, ParallelConfig, ParallelLimits, ParallelProgress, Stats, Status};
use proofnum_cli::answer::{Answer, Found, Question};
use proofnum_cli::games::{Bundled, WithGame, with_game};
use proofnum_cli::progress::{self, ProgressLine};
use proofnum_cli::report::{self, Chooser, count};
use proofnum_cli::solve::{EXIT_BAD_INPUT, Engine, Options, parse_error_text};
use proofnum_mpi::{
    CheckpointPlan, Coordinator, DistributedStats, Error, Link, MpiLink, Settings, Signals,
    checkpoint, serve,
};

/// Exit code of a run that failed (as opposed to one stopped by a limit).
const EXIT_FAILED: u8 = 4;

/// Solve a position of a bundled game by distributed PN-DFPN over MPI ranks.
#[derive(Parser)]
#[command(name = "solve_mpi", arg_required_else_help = true)]
struct Cli {
    /// The game (as for proofnum: connect4, tictactoe, uttt, atarigo)
    game: String,
    /// The position in the game's notation (left out or empty: the start)
    #[arg(default_value = "", hide_default_value = true)]
    position: String,
    #[command(flatten)]
    options: Options,
    #[command(flatten)]
    mpi: MpiOptions,
}

/// The distributed solver's own options.
#[derive(Args, Clone, Debug)]
struct MpiOptions {
    /// MID calls a job may spend before it reports back
    #[arg(long, value_name = "N", default_value_t = ParallelConfig::default().job_work)]
    job_work: u64,
    /// MID calls on one leaf after which it joins the root tree
    #[arg(long, value_name = "N", default_value_t = ParallelConfig::default().split_work)]
    split_work: u64,
    /// Job threads on rank 0 itself, over its own table [default: 0 with other ranks, else
    /// --threads or one per core]
    #[arg(long, value_name = "N")]
    coordinator_threads: Option<usize>,
    /// Jobs queued behind each slot's running one, so it never waits for the coordinator
    #[arg(long, value_name = "N", default_value_t = 0)]
    jobs_ahead: usize,
    /// Solved positions each job reports, passed on to other ranks' tables (0: none)
    #[arg(long, value_name = "N", default_value_t = Settings::default().solved_per_job)]
    share_solved: usize,
    /// Write checkpoints of the root tree and rank 0's table to FILE (each worker rank writes
    /// its table beside it, as FILE.rankN)
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Time between checkpoints: seconds, or with a unit (90s, 10m, 2h); 0 for none on a
    /// timer [default: 10m]
    #[arg(long, value_name = "TIME", value_parser = duration, requires = "checkpoint")]
    checkpoint_every: Option<Duration>,
    /// Minutes between checkpoints (the older spelling of --checkpoint-every)
    #[arg(long, value_name = "M", value_parser = positive, hide = true,
          conflicts_with = "checkpoint_every", requires = "checkpoint")]
    checkpoint_minutes: Option<f64>,
    /// A file whose appearance makes rank 0 write a checkpoint at once (it removes the file
    /// once the checkpoint is written): `touch FILE`
    #[arg(long, value_name = "FILE", requires = "checkpoint")]
    checkpoint_trigger: Option<PathBuf>,
    /// A file whose appearance stops the search, as SIGINT to rank 0 does (with a checkpoint
    /// when --checkpoint is given; rank 0 removes the file)
    #[arg(long, value_name = "FILE")]
    stop_trigger: Option<PathBuf>,
    /// Continue the solve saved in the --checkpoint file
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Give up a rank that has jobs but says nothing for S seconds; its jobs go to the others
    #[arg(long, value_name = "S", default_value_t = 120.0, value_parser = positive)]
    rank_timeout: f64,
    /// Walk and print the principal variation on rank 0 (searching again on one core what
    /// its table lacks of the proof)
    #[arg(long)]
    line: bool,
}

/// A finite number above zero.
fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        // (Not quoted: the parser's message quotes the value, cut short by `parse_error_text`.)
        _ => Err("expected a number above zero".into()),
    }
}

/// A duration: seconds (`90`, `1.5`), or a number with a unit `s`, `m` or `h`; 0 allowed.
fn duration(s: &str) -> Result<Duration, String> {
    let (number, unit) = match s.trim().strip_suffix(['s', 'm', 'h']) {
        Some(number) => (number, &s.trim()[number.len()..]),
        None => (s.trim(), "s"),
    };
    let scale = match unit {
        "m" => 60.0,
        "h" => 3600.0,
        _ => 1.0,
    };
    match number.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x * scale < 1e12 => {
            Ok(Duration::from_secs_f64(x * scale))
        }
        _ => Err("expected seconds, or a number with a unit: 90s, 10m, 2h".into()),
    }
}

/// How long mpirun lets a rank run between its SIGTERM and its SIGKILL: Open MPI's
/// `odls_base_sigkill_timeout` (seconds, 1 by default), which mpirun passes on to the ranks as
/// `OMPI_MCA_odls_base_sigkill_timeout` when it is set (`--mca` or the environment).
fn sigkill_timeout() -> Duration {
    std::env::var("OMPI_MCA_odls_base_sigkill_timeout")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(Duration::from_secs(1), Duration::from_secs)
}

/// Flags the signal handlers set (signal-hook: no code runs in the handler itself but the
/// store to the flag, which is async-signal-safe).
struct Flags {
    checkpoint_now: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
}

impl Flags {
    fn register(coordinator: bool) -> Flags {
        let flags = Flags {
            checkpoint_now: Arc::new(AtomicBool::new(false)),
            stop: Arc::new(AtomicBool::new(false)),
            terminate: Arc::new(AtomicBool::new(false)),
        };
        use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};
        use signal_hook::flag::register;
        // mpirun passes SIGUSR1 on to every rank: a worker must not die of it.
        register(SIGUSR1, Arc::clone(&flags.checkpoint_now)).expect("SIGUSR1 handler");
        // On Ctrl-C mpirun sends every rank SIGTERM: a worker lives on to save its table
        // when rank 0 asks, until mpirun's SIGKILL (or, without one, a moment after).
        register(SIGTERM, Arc::clone(&flags.terminate)).expect("SIGTERM handler");
        if coordinator {
            register(SIGINT, Arc::clone(&flags.stop)).expect("SIGINT handler");
        } else {
            let terminate = Arc::clone(&flags.terminate);
            std::thread::spawn(move || {
                while !terminate.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                std::thread::sleep(sigkill_timeout() + Duration::from_secs(2));
                std::process::exit(EXIT_FAILED as i32);
            });
        }
        flags
    }

    /// Sets the stop flag when `file` appears, and removes it (looked for 4 times a second).
    fn stop_on(&self, file: PathBuf) {
        let stop = Arc::clone(&self.stop);
        std::thread::spawn(move || {
            loop {
                if file.exists() {
                    let _ = std::fs::remove_file(&file);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        });
    }
}

/// `word` quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command that resumes this run: mpirun's own command line when rank 0's parent is
/// mpirun (as on one machine), else `mpirun -np N` and rank 0's arguments; with `--resume`
/// added when it is not there.
fn resume_command(ranks: usize) -> String {
    let launcher = std::fs::read(format!(
        "/proc/{}/cmdline",
        std::os::unix::process::parent_id()
    ))
    .ok()
    .map(|bytes| {
        bytes
            .split(|&b| b == 0)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect::<Vec<_>>()
    })
    .filter(|words| {
        words.first().is_some_and(|w| {
            let name = Path::new(w).file_name().unwrap_or_default();
            ["mpirun", "mpiexec", "orterun", "prterun"]
                .iter()
                .any(|&n| name == n)
        })
    });
    let mut words = launcher.unwrap_or_else(|| {
        let mut words = vec!["mpirun".to_string(), "-np".to_string(), ranks.to_string()];
        words.extend(std::env::args());
        words
    });
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".into());
    }
    let command = words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ");
    match std::env::current_dir() {
        Ok(dir) => format!("(cd {} && {command})", shell_word(&dir.to_string_lossy())),
        Err(_) => command,
    }
}

/// One rank's run for game `G`.
struct Run<'a> {
    cli: &'a Cli,
    link: &'a MpiLink,
}

/// Runs `solve_mpi` (every rank runs it; rank 0 coordinates).
pub fn main() -> ExitCode {
    let (universe, _) =
        mpi::initialize_with_threading(Threading::Funneled).expect("MPI initialises once");
    let link = MpiLink::new(&universe);
    let rank = link.rank();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Every rank read the same arguments; one of them says what is wrong.
            if rank == 0 {
                let args: Vec<String> = std::env::args_os()
                    .map(|arg| arg.to_string_lossy().into_owned())
                    .collect();
                match parse_error_text(&e, &args) {
                    Some(text) => eprint!("{text}"),
                    None => {
                        let _ = e.print();
                    }
                }
            }
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            drop(universe);
            return ExitCode::from(code);
        }
    };
    let outcome = match check(&cli) {
        Ok(()) => with_game(
            &cli.game,
            &cli.position,
            Run {
                cli: &cli,
                link: &link,
            },
        ),
        Err(e) => Err(e),
    };
    let code = match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(e)) | Err(e) => {
            if rank == 0 {
                eprintln!("error: {e}");
            }
            ExitCode::from(EXIT_BAD_INPUT)
        }
    };
    drop(universe);
    code
}

/// The checks across options that the parser cannot make (the same on every rank).
fn check(cli: &Cli) -> Result<(), String> {
    cli.options.check()?;
    if cli.options.engine != Engine::Dfpn {
        return Err("solve_mpi runs distributed PN-DFPN: --engine must be dfpn".into());
    }
    cli.options
        .table_mib
        .checked_mul(1 << 20)
        .ok_or("--table-mib is too large")?;
    Ok(())
}

impl WithGame for Run<'_> {
    /// `Err` is bad input, found alike on every rank.
    type Output = Result<ExitCode, String>;

    fn run<G: Bundled>(self, position: &str) -> Self::Output {
        let game = G::parse(position).map_err(|e| format!("{} position: {e}", G::title()))?;
        let question = Question::asked::<G>(self.cli.options.attacker.as_deref())?;
        let coordinator_threads = self.coordinator_threads();
        let flags = Flags::register(self.link.rank() == 0);
        if self.link.rank() != 0 {
            // This node's cores, shared by its worker ranks (and by the coordinator when it
            // runs jobs too).
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let idle_coordinator = self.link.coordinator_on_node() && coordinator_threads == 0;
            let workers_here = (self.link.ranks_on_node() - idle_coordinator as usize).max(1);
            let threads = (cores / workers_here).max(1);
            return Ok(match serve(self.link, &game, threads) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("rank {}: {e}", self.link.rank());
                    self.link.abort(EXIT_FAILED as i32);
                }
            });
        }
        Ok(self.coordinate(game, question, coordinator_threads, &flags))
    }
}

impl Run<'_> {
    /// The time between checkpoints (`None`: none on a timer).
    fn checkpoint_every(&self) -> Option<Duration> {
        let m = &self.cli.mpi;
        let every = match (m.checkpoint_every, m.checkpoint_minutes) {
            (Some(every), _) => every,
            (None, Some(minutes)) => Duration::from_secs_f64(minutes * 60.0),
            (None, None) => Duration::from_secs(600),
        };
        (!every.is_zero()).then_some(every)
    }

    /// Rank 0's first words on standard error: where it runs, where its checkpoints go and
    /// the commands that drive it.
    fn announce(&self) {
        let m = &self.cli.mpi;
        let pid = std::process::id();
        let host = mpi::environment::processor_name().unwrap_or_else(|_| "this host".into());
        let ranks = self.link.size();
        eprintln!(
            "solve_mpi: rank 0 is pid {pid} on {host}, {ranks} rank{} in all",
            if ranks == 1 { "" } else { "s" }
        );
        let grace = sigkill_timeout().as_secs();
        match &m.checkpoint {
            Some(path) => {
                let shown = std::path::absolute(path).unwrap_or_else(|_| path.clone());
                eprintln!(
                    "  checkpoints: {}{} and when the search stops unsolved",
                    shown.display(),
                    match self.checkpoint_every() {
                        Some(every) => format!(", every {}", count_time(every)),
                        None => String::new(),
                    }
                );
                eprintln!(
                    "  checkpoint now: kill -USR1 {pid}{}",
                    match &m.checkpoint_trigger {
                        Some(t) => format!(
                            "   or: touch {}",
                            shell_word(
                                &std::path::absolute(t)
                                    .unwrap_or_else(|_| t.clone())
                                    .to_string_lossy()
                            )
                        ),
                        None => String::new(),
                    }
                );
                eprintln!(
                    "  stop with a checkpoint: kill -INT {pid}{}",
                    self.stop_trigger_text()
                );
                eprintln!(
                    "  Ctrl-C at mpirun: a last checkpoint if it can be written in the {grace} s \
                     mpirun waits before SIGKILL (mpirun --mca odls_base_sigkill_timeout 10 for more)"
                );
            }
            None => eprintln!(
                "  stop: kill -INT {pid}{} (no --checkpoint: the work is not saved)",
                self.stop_trigger_text()
            ),
        }
    }

    fn stop_trigger_text(&self) -> String {
        match &self.cli.mpi.stop_trigger {
            Some(t) => format!(
                "   or: touch {}",
                shell_word(
                    &std::path::absolute(t)
                        .unwrap_or_else(|_| t.clone())
                        .to_string_lossy()
                )
            ),
            None => String::new(),
        }
    }

    fn coordinator_threads(&self) -> usize {
        match self.cli.mpi.coordinator_threads {
            Some(n) => n,
            None if self.link.size() > 1 => 0,
            None => match self.cli.options.threads {
                Some(n) if n > 0 => n,
                _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
            },
        }
    }

    /// Rank 0: solve, report, end the session.
    fn coordinate<G: Bundled>(
        &self,
        mut game: G,
        question: Question,
        coordinator_threads: usize,
        flags: &Flags,
    ) -> ExitCode {
        let (o, m) = (&self.cli.options, &self.cli.mpi);
        if let Some(path) = &m.checkpoint
            && let Err(e) = checkpoint::check_writable(path)
        {
            // Found now, not at the first checkpoint minutes in (or at a stop, which lost the
            // report).
            eprintln!("error: --checkpoint: {e}");
            self.link.abort(EXIT_BAD_INPUT as i32);
        }
        if let Some(file) = &m.stop_trigger {
            flags.stop_on(file.clone());
        }
        self.announce();
        report::position(&game);
        let settings = Settings {
            parallel: ParallelConfig {
                threads: o.threads.unwrap_or(0),
                job_work: m.job_work,
                split_work: m.split_work,
                dfpn: o.dfpn_config(),
                job_thresholds: true,
                max_depth: G::MAX_DEPTH,
                max_moves: G::MAX_MOVES,
            },
            table_bytes: o.table_mib << 20,
            coordinator_threads,
            solved_per_job: m.share_solved,
            rank_timeout: Duration::from_secs_f64(m.rank_timeout),
            jobs_ahead: m.jobs_ahead,
            ..Settings::default()
        };
        let label = format!("{} {}", self.cli.game, self.cli.position);
        let fail = |e: &dyn std::fmt::Display| -> ! {
            eprintln!("error: {e}");
            self.link.abort(EXIT_FAILED as i32)
        };
        let resume = match (&m.checkpoint, m.resume) {
            (Some(path), true) => Some(
                checkpoint::Checkpoint::read(path)
                    .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display()))),
            ),
            _ => None,
        };
        let mut coordinator = Coordinator::new(self.link, settings)
            .unwrap_or_else(|e| fail(&e))
            .with_signals(Signals {
                checkpoint_now: Some(&flags.checkpoint_now),
                terminate: Some(&flags.terminate),
                grace: sigkill_timeout(),
            });
        if let Some(path) = &m.checkpoint {
            coordinator = coordinator.with_checkpoints(CheckpointPlan {
                path: path.clone(),
                every: self.checkpoint_every(),
                label: label.trim().to_string(),
                announce: true,
                trigger: m.checkpoint_trigger.clone(),
            });
        }
        proofnum_cli::outln!(
            "distributed: {} ranks ({} job threads on rank 0), table {} MiB per rank, jobs of {} MID calls{}",
            self.link.size(),
            coordinator_threads,
            o.table_mib,
            count(m.job_work),
            match &resume {
                Some(c) => format!(
                    ", resuming {} ({} MID calls done)",
                    m.checkpoint
                        .as_ref()
                        .expect("resume needs the file")
                        .display(),
                    count(c.tree.stats.mid_calls + c.finished.0.mid_calls)
                ),
                None => String::new(),
            }
        );
        let start = Instant::now();
        let mut line = ProgressLine::new(o.quiet);
        let mut show = |p: &ParallelProgress| {
            line.show(p.elapsed.as_secs_f64(), || progress::parallel(p));
        };
        let mut limits = ParallelLimits {
            max_nodes: o.max_nodes.unwrap_or(u64::MAX),
            stop: Some(&flags.stop),
            max_time: o.max_seconds.map(Duration::from_secs_f64),
            progress: Some(&mut show),
            ..ParallelLimits::none()
        };
        let solved = match question {
            Question::Value => coordinator
                .solve_value(&game, &mut limits, resume.as_ref())
                .map(|r| (r.value.map(Answer::Value), r.best_move, r.stats)),
            Question::CanWin(attacker) => coordinator
                .solve(&game, attacker, &mut limits, resume.as_ref())
                .map(|r| {
                    let answer = match r.status {
                        Status::Unknown(reason) => Err(reason),
                        settled => Ok(Answer::Status(settled)),
                    };
                    (answer, r.best_move, r.stats)
                }),
        };
        line.finish();
        let (answer, best_move, stats) = match solved {
            Ok(s) => s,
            Err(Error::Terminated { checkpointed }) => {
                // The MPI runtime is ending the run (Ctrl-C at mpirun, or a rank that died):
                // say so and what survives, and leave at once (the runtime kills what remains).
                eprintln!(
                    "stopped: the run was ended from outside (SIGTERM: mpirun sends it to every \
                     rank on Ctrl-C, and when a rank exits or is killed){}",
                    match &m.checkpoint {
                        Some(p) if p.exists() => format!(
                            "; the last checkpoint is {} ({}); resume with:\n  {}",
                            p.display(),
                            if checkpointed {
                                "written just now"
                            } else {
                                "written earlier: a newer one could not be written"
                            },
                            resume_command(self.link.size())
                        ),
                        Some(_) => "; no checkpoint was written, so the work is lost".to_string(),
                        None => "; no --checkpoint was given, so the work is lost".to_string(),
                    }
                );
                let code = if checkpointed {
                    report::EXIT_UNKNOWN
                } else {
                    EXIT_FAILED
                };
                std::process::exit(code as i32);
            }
            Err(e) => fail(&e),
        };
        let elapsed = start.elapsed().as_secs_f64();
        let found = Found {
            answer,
            best_move,
            stats: serial_stats(&stats),
        };
        let mut stack = vec![0u8; Dfpn::<G>::stack_bytes(G::MAX_DEPTH, G::MAX_MOVES)];
        let mut dfpn = Dfpn::<G>::new(&mut stack, G::MAX_DEPTH, G::MAX_MOVES, o.dfpn_config())
            .expect("the game's stack shape");
        let code = report::answer_with_line(
            &mut dfpn,
            &mut game,
            &mut coordinator.table(),
            question,
            &found,
            Chooser::Work,
            o.verify,
            m.line,
        );
        if !m.line && found.best_move.is_some() {
            proofnum_cli::outln!(
                "principal variation: not walked (--line walks it on rank 0, searching again what \
                 its table lacks)"
            );
        }
        figures(&stats, elapsed, self.link.size(), o.table_mib);
        if let (Some(path), Err(reason)) = (&m.checkpoint, &found.answer)
            && stats.checkpoints.0 > 0
        {
            let _ = std::io::Write::flush(&mut std::io::stdout());
            let why = match reason {
                proofnum::Reason::Stopped => "SIGINT or the stop trigger".to_string(),
                other => other.to_string(),
            };
            eprintln!(
                "stopped ({why}); the checkpoint is {}; resume with:\n  {}",
                path.display(),
                resume_command(self.link.size())
            );
        }
        let lost = coordinator.lost_ranks();
        coordinator.finish();
        if !lost.is_empty() {
            // A rank given up may still be alive (stalled, or stopped): it gets no `Finish`,
            // and MPI_Finalize would wait for it forever. MPI_Abort ends it; mpirun then exits
            // with the answer's code.
            eprintln!(
                "note: rank{} {} given up; ending the run with MPI_Abort so that it does not wait for {}",
                if lost.len() > 1 { "s" } else { "" },
                lost.iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if lost.len() > 1 { "them" } else { "it" },
            );
            let _ = std::io::Write::flush(&mut std::io::stdout());
            let number = [0, report::EXIT_UNKNOWN, report::EXIT_REFUTED]
                .into_iter()
                .find(|&c| ExitCode::from(c) == code)
                .unwrap_or(EXIT_FAILED);
            self.link.abort(number as i32);
        }
        code
    }
}

/// A duration as a person writes it: `90 s`, `10 min`, `2 h`.
fn count_time(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 3600.0 && s % 3600.0 == 0.0 {
        format!("{} h", s / 3600.0)
    } else if s >= 60.0 && s % 60.0 == 0.0 {
        format!("{} min", s / 60.0)
    } else {
        format!("{s} s")
    }
}

/// The counters `proofnum`'s report takes.
fn serial_stats(s: &DistributedStats) -> Stats {
    Stats {
        mid_calls: s.search.mid_calls,
        nodes: s.search.nodes,
        max_depth: s.search.max_depth,
        repetitions: s.search.repetitions,
        table: s.search.table,
        elapsed_us: Some(s.search.elapsed.as_micros() as u64),
        ..Stats::default()
    }
}

/// The search's figures as `proofnum` prints them, then the ranks'.
fn figures(s: &DistributedStats, elapsed_s: f64, ranks: usize, table_mib: usize) {
    let p = &s.search;
    proofnum_cli::outln!(
        "MID calls: {}   positions: {}   time: {:.3} s   positions/s: {}",
        count(p.mid_calls),
        count(p.nodes),
        elapsed_s,
        count((p.nodes as f64 / elapsed_s.max(1e-9)) as u64)
    );
    if s.resumed_mid_calls > 0 {
        proofnum_cli::outln!(
            "  (this run; the runs it resumed made {} MID calls before)",
            count(s.resumed_mid_calls)
        );
    }
    let t = p.table;
    proofnum_cli::outln!(
        "tables: {table_mib} MiB on each rank; all jobs: {} probes, {:.1}% hits, {} stores, {} replaced",
        count(t.probes),
        100.0 * t.hits as f64 / t.probes.max(1) as f64,
        count(t.stores),
        count(t.drops)
    );
    let ops_per_s = s.coordinator_ops as f64 / s.coordinator_busy.as_secs_f64().max(1e-9);
    proofnum_cli::outln!(
        "distributed: {} job slots, {} jobs, root tree peak {} nodes, slots idle {:.1}%, \
         coordinator busy {:.2}% ({} operations, {} per second busy), {} stale results, {} solved positions passed on",
        p.threads,
        count(p.jobs),
        count(p.tree_nodes_peak as u64),
        100.0 * p.worker_idle_share,
        100.0 * p.coordinator_busy_share,
        count(s.coordinator_ops),
        count(ops_per_s as u64),
        count(s.stale_results),
        count(s.solved_forwarded)
    );
    for (rank, r) in s.ranks.iter().enumerate().take(ranks) {
        if rank == 0 && r.slots == 0 {
            continue;
        }
        proofnum_cli::outln!(
            "  rank {rank}{}: {} slots, {} jobs, idle {:.1}%, messages {} out / {} in, bytes {} out / {} in{}",
            if rank == 0 { " (coordinator)" } else { "" },
            r.slots,
            count(r.jobs),
            100.0 * r.idle_share(),
            count(r.messages_to),
            count(r.messages_from),
            count(r.bytes_to),
            count(r.bytes_from),
            if r.lost { ", given up" } else { "" }
        );
    }
    if s.checkpoints.0 > 0 || s.checkpoint_failures > 0 {
        proofnum_cli::outln!(
            "checkpoints: {} written, {} bytes in all{}",
            s.checkpoints.0,
            count(s.checkpoints.1),
            match s.checkpoint_failures {
                0 => String::new(),
                n => format!(", {n} could not be written"),
            }
        );
    }
}
