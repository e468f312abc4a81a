//! Connect Four test suites in the common text format: one position per line, `<moves> <score>`,
//! the moves as 1-based column digits and the score in Pascal Pons' convention (see
//! [`super::reference`]: positive when the side to move wins, 0 for a draw, negative when it
//! loses, larger the sooner the win). Blank lines and lines starting with `#` are comments.

use core::fmt;

use proofnum::{Dfpn, Game, Limits, Reason, Status, TranspositionTable, Value};

use super::{ConnectFour, ParseError};
use crate::input::quote;

/// One position of a suite and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves that lead to the position, as 1-based column digits.
    pub moves: String,
    /// The score for the side to move.
    pub score: i32,
}

impl Line {
    /// Win, draw or loss for the side to move: the sign of the score.
    pub fn value(&self) -> Value {
        value_of_score(self.score)
    }

    /// The position on the standard 7×6 board.
    pub fn position(&self) -> Result<ConnectFour, ParseError> {
        ConnectFour::from_moves(&self.moves)
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.moves, self.score)
    }
}

/// Win, draw or loss from the sign of a score.
pub fn value_of_score(score: i32) -> Value {
    match score.signum() {
        1 => Value::Win,
        -1 => Value::Loss,
        _ => Value::Draw,
    }
}

/// A suite line that does not have the `<moves> <score>` form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite; every line must be a legal 7×6 position that is not over, with a score.
pub fn parse(text: &str) -> Result<Vec<Line>, SuiteError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let error = |message: String| SuiteError {
            line: i + 1,
            message,
        };
        let mut fields = trimmed.split_whitespace();
        let (Some(moves), Some(score), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(error(format!(
                "expected `<moves> <score>`, found {}",
                quote(trimmed)
            )));
        };
        let score: i32 = score
            .parse()
            .map_err(|_| error(format!("score {} is not an integer", quote(score))))?;
        let line = Line {
            moves: moves.to_string(),
            score,
        };
        let position = line.position().map_err(|e| error(e.to_string()))?;
        if position.is_over() {
            return Err(error(format!("the game {moves} is already over")));
        }
        lines.push(line);
    }
    Ok(lines)
}

/// What proofnum says about one suite line.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// "Does the side to move win?": proven, disproven or unknown.
    pub wins: Status,
    /// Win, draw or loss for the side to move, or why it is unknown.
    pub value: Result<Value, Reason>,
    /// MID calls of both questions together.
    pub mid_calls: u64,
}

impl Verdict {
    /// True when both answers are known and agree with the sign of the line's score.
    pub fn agrees_with(&self, line: &Line) -> bool {
        let want_win = line.score > 0;
        let wins_ok = match self.wins {
            Status::Proven => want_win,
            Status::Disproven => !want_win,
            Status::Unknown(_) => false,
        };
        wins_ok && self.value == Ok(line.value())
    }
}

/// Asks df-pn both questions about `line`'s position: does the side to move win, and what is
/// its value. `limits` applies to each of the two solves. `G` is [`ConnectFour`] or a
/// [`super::Restricted`] 7×6 board.
pub fn solve_line<G: Game + From<ConnectFour>, T: TranspositionTable>(
    line: &Line,
    dfpn: &mut Dfpn<'_, G>,
    table: &mut T,
    limits: &mut Limits<'_>,
) -> Result<Verdict, ParseError> {
    let mut position = G::from(line.position()?);
    let me = position.side_to_move();
    let wins = dfpn.solve(&mut position, me, table, limits);
    let value = dfpn.solve_value(&mut position, table, limits);
    Ok(Verdict {
        wins: wins.status,
        value: value.value,
        mid_calls: wins.stats.mid_calls + value.stats.mid_calls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_comments() {
        let suite =
            parse("# a comment\n\n4453 -2\n  2252576253462244111563365343671351441 -1 \n").unwrap();
        assert_eq!(suite.len(), 2);
        assert_eq!(suite[0].moves, "4453");
        assert_eq!(suite[0].score, -2);
        assert_eq!(suite[0].value(), Value::Loss);
        assert_eq!(
            suite[1].to_string(),
            "2252576253462244111563365343671351441 -1"
        );
    }

    #[test]
    fn rejects_malformed_lines() {
        let e = parse("4453\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("expected `<moves> <score>`"), "{e}");
        let e = parse("4453 1\n4453 x\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: score \"x\" is not an integer");
        let e = parse("4458 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: move 4 ('8'): not a column; use digits 1 to 7"
        );
        let e = parse("1212121 3").unwrap_err();
        assert_eq!(e.to_string(), "line 1: the game 1212121 is already over");
        let e = parse("1 2 3").unwrap_err();
        assert!(e.message.contains("expected"), "{e}");
    }
}
