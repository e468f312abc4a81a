//! The progress line of a long search, the same for every engine.
//!
//! On a terminal the line is redrawn in place by indicatif (cut to the terminal's width, so a
//! narrow window never leaves wrapped remains behind) and cleared before the report; when
//! standard error is not a terminal (a log, CI) it becomes one line a second, so the file keeps
//! a readable history. Progress only ever goes to standard error: standard output holds the
//! report alone, for whoever parses it.

use std::io::{self, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use proofnum::{ParallelProgress, Progress};

use crate::report::{Work, count};

/// Seconds before the first progress line, and between lines in a log: short runs show none.
pub const LOG_EVERY_S: f64 = 1.0;
/// Seconds between updates of the line on a terminal (indicatif limits its own redraws).
const TERMINAL_EVERY_S: f64 = 0.25;

/// Where progress goes.
enum Sink {
    /// `--quiet`: nowhere.
    Quiet,
    /// Standard error is a terminal: a spinner line, made at the first update.
    Terminal(Option<ProgressBar>),
    /// Standard error is a file or a pipe: a line each [`LOG_EVERY_S`].
    Log,
}

/// A search's progress display.
pub struct ProgressLine {
    sink: Sink,
    /// When the last update was shown, in seconds since the search began.
    last_shown_s: f64,
}

impl ProgressLine {
    /// A display on standard error (nothing when `quiet`).
    pub fn new(quiet: bool) -> Self {
        let sink = if quiet {
            Sink::Quiet
        } else if std::io::stderr().is_terminal() {
            Sink::Terminal(None)
        } else {
            Sink::Log
        };
        ProgressLine {
            sink,
            last_shown_s: 0.0,
        }
    }

    /// Shows the line `text` makes, `seconds` into the search, unless one was shown too
    /// recently (`text` is then not called).
    pub fn show(&mut self, seconds: f64, text: impl FnOnce() -> String) {
        let every_s = match self.sink {
            Sink::Quiet => return,
            Sink::Terminal(_) => TERMINAL_EVERY_S,
            Sink::Log => LOG_EVERY_S,
        };
        if seconds < LOG_EVERY_S || seconds - self.last_shown_s < every_s {
            return;
        }
        self.last_shown_s = seconds;
        match &mut self.sink {
            Sink::Quiet => {}
            Sink::Terminal(bar) => bar
                .get_or_insert_with(spinner)
                .set_message(text().trim_start().to_string()),
            // A closed standard error (`2>&1 | head`) must not end the search: the report's
            // next line ends the process quietly (crate::output).
            Sink::Log => {
                let _ = writeln!(io::stderr(), "{}", text());
            }
        }
    }

    /// Clears the line from the terminal, before the report is printed.
    pub fn finish(self) {
        if let Sink::Terminal(Some(bar)) = self.sink {
            bar.finish_and_clear();
        }
    }
}

/// The terminal's progress line: a spinner that turns while the search runs, then the text.
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    bar
}

/// A serial search's progress: work, positions per second, the root's numbers, the depth.
pub fn serial(p: &Progress, work: Work, seconds: f64) -> String {
    format!(
        "  {:.1} s  {} {}  {}/s  root (φ, δ) = ({}, {})  depth {}",
        seconds,
        count(p.mid_calls),
        work.name(),
        count((p.nodes as f64 / seconds) as u64),
        p.root.phi,
        p.root.delta,
        p.max_depth
    )
}

/// The parallel solver's progress: its finished jobs' work, its root tree, the root's numbers.
pub fn parallel(p: &ParallelProgress) -> String {
    let seconds = p.elapsed.as_secs_f64();
    format!(
        "  {:.1} s  {} MID calls  {}/s  {} jobs  tree {}  root (φ, δ) = ({}, {})",
        seconds,
        count(p.mid_calls),
        count((p.nodes as f64 / seconds) as u64),
        count(p.jobs),
        count(p.tree_nodes as u64),
        p.root.phi,
        p.root.delta
    )
}
