//! The tsume-shogi suite (`games/suites/tsume-open.jsonl`) as the tests read it.

/// One problem of the suite.
pub struct Problem {
    /// The problem's id (`musou-001`, ...).
    pub id: String,
    /// The position, as SFEN.
    pub sfen: String,
    /// The recorded main line, moves in USI.
    pub line: Vec<String>,
}

/// Every problem of the suite, in its order.
pub fn problems() -> Vec<Problem> {
    let text = include_str!("../../suites/tsume-open.jsonl");
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let field = |name: &str| {
                let key = format!("\"{name}\": \"");
                let start = line.find(&key).unwrap() + key.len();
                let end = start + line[start..].find('"').unwrap();
                line[start..end].to_string()
            };
            Problem {
                id: field("id"),
                sfen: field("sfen"),
                line: field("solution_usi")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            }
        })
        .collect()
}
