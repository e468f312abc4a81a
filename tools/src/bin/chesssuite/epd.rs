//! EPD lines of mate suites: a position and its expected mate.
//!
//! A line is the four EPD position fields (placement, side to move, castling, en passant),
//! optionally the two FEN clocks, then `;`-terminated operations. The mate is `bm #N` (N > 0:
//! the side to move mates in N moves; N < 0: it is mated in −N; the convention of the issue
//! and of public mate suites) or the standard direct-mate opcode `dm N` (the side to move
//! mates in N). Lines with neither are "no mate known" lines. `hmvc`/`fmvn` set the clocks,
//! `id` names the line, `acn` is the node budget of the search that made the line, `ce` an
//! evaluation in centipawns and `c0` a comment; other
//! operations are kept but ignored. Empty lines and lines starting with `#` are skipped.

use cozy_chess::Board;
use proofnum_games::chess::notation;
use proofnum_games::input::quote;

/// One suite line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The position as a FEN with clocks, ready for cozy-chess and UCI.
    pub fen: String,
    /// The expected mate in the `bm #N` convention; None when the line states none.
    pub mate: Option<i32>,
    /// `id`, or `line K` (1-based) when the line has none.
    pub id: String,
    /// `c0`, when present.
    pub comment: Option<String>,
    /// `acn`: the node budget of the search that found the expected mate, when stated.
    pub nodes: Option<u64>,
}

impl Line {
    /// The position.
    pub fn board(&self) -> Board {
        Board::from_fen(&self.fen, false).expect("checked when parsed")
    }
}

/// Parses a suite; an error names the line (1-based) and what is wrong with it.
pub fn parse(text: &str) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        lines.push(parse_line(raw, index + 1).map_err(|e| format!("line {}: {e}", index + 1))?);
    }
    Ok(lines)
}

fn parse_line(raw: &str, number: usize) -> Result<Line, String> {
    let mut fields = raw.splitn(5, ' ');
    let position: Vec<&str> = fields.by_ref().take(4).collect();
    if position.len() < 4 {
        return Err("fewer than the four EPD position fields".into());
    }
    let mut rest = fields.next().unwrap_or("").trim();
    // Optional FEN clocks before the operations.
    let mut clocks = (0u32, 1u32);
    let mut words = rest.splitn(3, ' ');
    if let (Some(a), Some(b)) = (words.next(), words.next()) {
        if let (Ok(h), Ok(f)) = (a.parse(), b.trim_end_matches(';').parse()) {
            clocks = (h, f);
            rest = words.next().unwrap_or("").trim();
        }
    }
    let (mut mate, mut id, mut comment, mut nodes) = (None, None, None, None);
    for operation in split_operations(rest)? {
        let (opcode, operand) = operation
            .split_once(' ')
            .unwrap_or((operation.as_str(), ""));
        let operand = operand.trim();
        match opcode {
            "bm" if operand.starts_with('#') => {
                let n: i32 = operand[1..]
                    .parse()
                    .map_err(|_| format!("bad mate {}", quote(operand)))?;
                if n == 0 {
                    return Err("bm #0: a mate in 0 is not a question".into());
                }
                mate = Some(n);
            }
            "dm" => {
                let n: i32 = operand
                    .parse()
                    .map_err(|_| format!("bad dm {}", quote(operand)))?;
                if n <= 0 {
                    return Err(format!("dm {n}: direct mates are in at least one move"));
                }
                mate = Some(n);
            }
            "hmvc" => {
                clocks.0 = operand
                    .parse()
                    .map_err(|_| format!("bad hmvc {}", quote(operand)))?
            }
            "fmvn" => {
                clocks.1 = operand
                    .parse()
                    .map_err(|_| format!("bad fmvn {}", quote(operand)))?
            }
            "id" => id = Some(unquote(operand)),
            "c0" => comment = Some(unquote(operand)),
            "acn" => {
                nodes = Some(
                    operand
                        .parse()
                        .map_err(|_| format!("bad acn {}", quote(operand)))?,
                )
            }
            _ => {}
        }
    }
    let fen = format!("{} {} {}", position.join(" "), clocks.0, clocks.1);
    // The game's parser: cozy-chess's, and the positions it accepts that the game cannot play.
    notation::parse_fen(&fen).map_err(|e| e.to_string())?;
    Ok(Line {
        fen,
        mate,
        id: id.unwrap_or_else(|| format!("line {number}")),
        comment,
        nodes,
    })
}

/// The operations of `text`, each `opcode operands` without its `;` (quoted operands may
/// hold `;`).
fn split_operations(text: &str) -> Result<Vec<String>, String> {
    let (mut operations, mut current, mut quoted) = (Vec::new(), String::new(), false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => {
                operations.push(current.trim().to_string());
                current.clear();
            }
            _ => current.push(c),
        }
    }
    if quoted {
        return Err("unterminated quote".into());
    }
    if !current.trim().is_empty() {
        return Err(format!(
            "operation {} without its ';'",
            quote(current.trim())
        ));
    }
    Ok(operations.into_iter().filter(|o| !o.is_empty()).collect())
}

fn unquote(operand: &str) -> String {
    operand.trim_matches('"').to_string()
}

/// The EPD line for `fen` (a full FEN) with the operations `operations` (each without `;`).
pub fn format_line(fen: &str, operations: &[String]) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut line = fields[..4].join(" ");
    if fields.len() >= 6 {
        line.push_str(&format!(" hmvc {}; fmvn {};", fields[4], fields[5]));
    }
    for operation in operations {
        line.push(' ');
        line.push_str(operation);
        line.push(';');
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse() {
        let text = "# a comment\n\
            6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm #1; id \"back rank\";\n\
            7k/8/6K1/8/8/8/8/R7 b - - 3 40 bm #-1;\n\
            7k/8/6K1/8/8/8/8/R7 w - - hmvc 2; dm 1; c0 \"a; b\";\n\
            8/8/8/8/8/8/k7/7K w - - ce 0; acn 1000;\n";
        let lines = parse(text).unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].mate, Some(1));
        assert_eq!(lines[0].id, "back rank");
        assert_eq!(lines[1].fen, "7k/8/6K1/8/8/8/8/R7 b - - 3 40");
        assert_eq!((lines[1].mate, lines[1].id.as_str()), (Some(-1), "line 3"));
        assert_eq!(lines[2].fen, "7k/8/6K1/8/8/8/8/R7 w - - 2 1");
        assert_eq!(lines[2].comment.as_deref(), Some("a; b"));
        assert_eq!((lines[3].mate, lines[3].nodes), (None, Some(1000)));
        let again = format_line(&lines[1].fen, &["bm #-1".into()]);
        assert_eq!(
            parse(&again).unwrap()[0],
            Line {
                id: "line 1".into(),
                ..lines[1].clone()
            }
        );
    }

    #[test]
    fn bad_lines_are_errors() {
        for bad in [
            "8/8 w - - bm #1;",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm #x;",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm #0;",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - dm -2;",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm #1",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - c0 \"open;",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 x - - bm #1;",
            "8/8/8/3kK3/8/8/8/R7 w - - bm #3;", // kings on adjacent squares
        ] {
            assert!(parse(bad).unwrap_err().starts_with("line 1: "), "{bad}");
        }
    }
}
