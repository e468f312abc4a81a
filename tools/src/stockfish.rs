//! A small driver for Stockfish over UCI: the independent chess referee of the suites, the
//! suite runner and the side-by-side benchmark (`chesssuite`).
//!
//! It speaks only the part of UCI a referee needs: `uci`/`isready`, `setoption`,
//! `ucinewgame`, `position fen ...`, `go nodes N`, `go mate N`, `go movetime T`, and reads
//! `info ... score mate M ... pv ...` and `bestmove`. The engine always runs with one thread
//! (`Threads 1`, set at start), so its times compare with one proofnum thread.
//!
//! Every read has a deadline: a search that has not answered by its deadline gets `stop`
//! (which makes a UCI engine answer `bestmove` with what it has), and an engine that does not
//! answer `stop` or `isready` in time is killed and reported as
//! [`StockfishError::Timeout`]. So a stuck engine never hangs a test. Dropping a [`Stockfish`]
//! sends `quit`, waits briefly and kills the process if it is still there.
//!
//! Where the program is found: the `STOCKFISH` environment variable (a path), then `stockfish`
//! on `PATH`, then `/usr/games/stockfish` (where Debian's package installs it, outside root's
//! default `PATH`). When none exists, [`Stockfish::start`] fails with
//! [`StockfishError::NotFound`], whose message says where it looked and how to install it.
//!
//! Moves are UCI strings (`e2e4`, `e1g1` for castling, `e7e8q`); `cozy_chess::util` converts
//! them. The module uses only `std`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Where Debian's `stockfish` package installs the program.
pub const DEBIAN_PATH: &str = "/usr/games/stockfish";

/// How long the engine may take to answer `uci`, `isready` or `stop`, or to exit after `quit`:
/// generous, since loading the NNUE network on a loaded machine takes a moment.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong with the engine.
#[derive(Debug)]
pub enum StockfishError {
    /// No program at `STOCKFISH`, on `PATH` or at [`DEBIAN_PATH`]; the text lists where it
    /// looked.
    NotFound(String),
    /// The program could not be started or written to.
    Io(std::io::Error),
    /// The engine did not answer in time (the text says to what); it has been killed.
    Timeout(String),
    /// The engine exited, or said something this driver cannot read.
    Protocol(String),
}

impl std::fmt::Display for StockfishError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StockfishError::NotFound(looked) => write!(
                f,
                "Stockfish not found ({looked}); install it (Debian: `apt-get install stockfish`, \
                 or `scripts/install-deps`) or set STOCKFISH to the program's path"
            ),
            StockfishError::Io(e) => write!(f, "Stockfish: {e}"),
            StockfishError::Timeout(what) => write!(f, "Stockfish did not answer in time: {what}"),
            StockfishError::Protocol(what) => write!(f, "Stockfish: {what}"),
        }
    }
}

impl std::error::Error for StockfishError {}

impl From<std::io::Error> for StockfishError {
    fn from(e: std::io::Error) -> Self {
        StockfishError::Io(e)
    }
}

/// How long a search may run: the `go` command's limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go nodes N`: stop after about N nodes.
    Nodes(u64),
    /// `go mate N`: search until a mate in at most N moves is found (or the deadline).
    Mate(u32),
    /// `go movetime T`: search for T milliseconds.
    MoveTimeMs(u64),
}

/// A search's score from the side to move's view, as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score mate M`: M > 0, the side to move mates in M moves; M < 0, it is mated in −M.
    /// (`mate 0` is never sent for a position with moves.)
    Mate(i32),
    /// `score cp X`: an evaluation in centipawns, no mate seen.
    Centipawns(i32),
}

/// What one search reported: the last `info` line with a score, and `bestmove`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The score of the last complete `info` line (None when the engine sent none, e.g. a
    /// position without legal moves).
    pub score: Option<Score>,
    /// Its principal variation, UCI moves.
    pub pv: Vec<String>,
    /// Its depth.
    pub depth: u32,
    /// The nodes the engine reported last.
    pub nodes: u64,
    /// The engine's own time when it reported the score, milliseconds.
    pub engine_time_ms: u64,
    /// `bestmove`'s move (None for `bestmove (none)`).
    pub best_move: Option<String>,
    /// Wall time from sending `go` to reading `bestmove`, as measured here.
    pub elapsed: Duration,
    /// True when the deadline passed and the search was stopped with `stop`.
    pub stopped: bool,
}

impl Analysis {
    /// The mate the engine announced, in its sign convention (None: no mate score).
    pub fn mate(&self) -> Option<i32> {
        match self.score {
            Some(Score::Mate(m)) => Some(m),
            _ => None,
        }
    }
}

/// A running Stockfish process, ready for `go` commands.
pub struct Stockfish {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id name`.
    name: String,
}

impl Stockfish {
    /// Where the program is: `STOCKFISH`, then `stockfish` on `PATH`, then [`DEBIAN_PATH`].
    pub fn locate() -> Result<PathBuf, StockfishError> {
        let mut looked = Vec::new();
        if let Some(path) = std::env::var_os("STOCKFISH") {
            let path = PathBuf::from(path);
            if path.is_file() {
                return Ok(path);
            }
            // An explicit setting that is wrong is an error, not a reason to look elsewhere.
            return Err(StockfishError::NotFound(format!(
                "STOCKFISH={} is not a file",
                path.display()
            )));
        }
        looked.push("STOCKFISH unset".to_string());
        if let Some(paths) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&paths) {
                let candidate = dir.join("stockfish");
                if candidate.is_file() {
                    return Ok(candidate);
                }
            }
        }
        looked.push("no stockfish on PATH".to_string());
        if Path::new(DEBIAN_PATH).is_file() {
            return Ok(PathBuf::from(DEBIAN_PATH));
        }
        looked.push(format!("no {DEBIAN_PATH}"));
        Err(StockfishError::NotFound(looked.join(", ")))
    }

    /// Finds the program ([`Stockfish::locate`]) and starts it with one thread and a
    /// `hash_mib` MiB hash table.
    pub fn start(hash_mib: u32) -> Result<Self, StockfishError> {
        Self::start_at(&Self::locate()?, hash_mib)
    }

    /// Starts the program at `path` with one thread and a `hash_mib` MiB hash table.
    pub fn start_at(path: &Path, hash_mib: u32) -> Result<Self, StockfishError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                StockfishError::Io(std::io::Error::new(
                    e.kind(),
                    format!("{}: {e}", path.display()),
                ))
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // A reader thread turns the engine's output into lines on a channel, so every read
        // can have a deadline (`recv_timeout`); it ends when the engine closes its output.
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Stockfish {
            child,
            stdin,
            lines,
            name: String::new(),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = engine.read_line(deadline, "uci")?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.to_string();
            }
            if line == "uciok" {
                break;
            }
        }
        engine.set_option("Threads", "1")?;
        engine.set_option("Hash", &hash_mib.to_string())?;
        engine.sync()?;
        Ok(engine)
    }

    /// The engine's name and version, from `id name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), StockfishError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `ucinewgame` and `isready`: forget everything learnt (the hash table), so the next
    /// search starts cold, like a proofnum search on a cleared table.
    pub fn new_game(&mut self) -> Result<(), StockfishError> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// Searches the position `fen` with `limit`. A search still running after `timeout` gets
    /// `stop` and answers with what it has (`Analysis::stopped`).
    pub fn go(
        &mut self,
        fen: &str,
        limit: Go,
        timeout: Duration,
    ) -> Result<Analysis, StockfishError> {
        if fen.contains(['\n', '\r']) {
            return Err(StockfishError::Protocol(format!(
                "a FEN with a line break: {fen:?}"
            )));
        }
        self.send(&format!("position fen {fen}"))?;
        self.sync()?;
        let command = match limit {
            Go::Nodes(n) => format!("go nodes {n}"),
            Go::Mate(n) => format!("go mate {n}"),
            Go::MoveTimeMs(t) => format!("go movetime {t}"),
        };
        let start = Instant::now();
        self.send(&command)?;
        let mut analysis = Analysis::default();
        let mut deadline = start + timeout;
        loop {
            let line = match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) if !analysis.stopped => {
                    self.send("stop")?;
                    analysis.stopped = true;
                    deadline = Instant::now() + HANDSHAKE_TIMEOUT;
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(StockfishError::Timeout(format!(
                        "{command} on {fen}, then stop"
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(StockfishError::Protocol(format!(
                        "exited during {command} on {fen}"
                    )));
                }
            };
            if let Some(rest) = line.strip_prefix("bestmove") {
                analysis.elapsed = start.elapsed();
                let best = rest.split_whitespace().next().unwrap_or("(none)");
                analysis.best_move = (best != "(none)").then(|| best.to_string());
                return Ok(analysis);
            }
            if line.starts_with("info ") {
                read_info(&line, &mut analysis);
            }
        }
    }

    /// `isready` until `readyok`.
    fn sync(&mut self) -> Result<(), StockfishError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.read_line(deadline, "isready")? != "readyok" {}
        Ok(())
    }

    fn send(&mut self, command: &str) -> Result<(), StockfishError> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        Ok(())
    }

    /// The next line, or the engine killed and an error at `deadline`.
    fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, StockfishError> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(StockfishError::Timeout(waiting_for.to_string()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(StockfishError::Protocol(format!(
                "exited while waiting for {waiting_for}"
            ))),
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Stockfish {
    /// `quit`, then a kill if the engine has not exited within a second.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// Reads an `info` line into `analysis` when it carries a score (`info string`, `currmove`
/// and bound lines without a full score are skipped). A `lowerbound`/`upperbound` score is
/// not a search result, so it is skipped too.
fn read_info(line: &str, analysis: &mut Analysis) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"string")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return;
    }
    let number = |key: &str| -> Option<i64> {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1)?.parse().ok()
    };
    let score_at = words.iter().position(|w| *w == "score");
    let score = score_at.and_then(|at| {
        let value: i32 = words.get(at + 2)?.parse().ok()?;
        match *words.get(at + 1)? {
            "mate" => Some(Score::Mate(value)),
            "cp" => Some(Score::Centipawns(value)),
            _ => None,
        }
    });
    if let Some(nodes) = number("nodes") {
        analysis.nodes = nodes as u64;
    }
    let Some(score) = score else { return };
    analysis.score = Some(score);
    analysis.depth = number("depth").unwrap_or(0) as u32;
    analysis.engine_time_ms = number("time").unwrap_or(0) as u64;
    analysis.pv = match words.iter().position(|w| *w == "pv") {
        Some(at) => words[at + 1..].iter().map(|w| w.to_string()).collect(),
        None => Vec::new(),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read() {
        let mut a = Analysis::default();
        read_info(
            "info depth 3 seldepth 4 multipv 1 score mate -2 nodes 120 nps 1000 time 7 pv e1e2 a1a2 e2e3",
            &mut a,
        );
        assert_eq!(a.mate(), Some(-2));
        assert_eq!((a.depth, a.nodes, a.engine_time_ms), (3, 120, 7));
        assert_eq!(a.pv, ["e1e2", "a1a2", "e2e3"]);
        // A bound and a string line change nothing.
        read_info(
            "info depth 4 score cp 30 lowerbound nodes 200 pv e1d1",
            &mut a,
        );
        read_info("info string NNUE evaluation enabled", &mut a);
        assert_eq!(a.mate(), Some(-2));
        read_info("info depth 5 score cp 31 nodes 300 time 9 pv e1d1", &mut a);
        assert_eq!(a.score, Some(Score::Centipawns(31)));
        assert_eq!(a.pv, ["e1d1"]);
    }
}
