//! User input in error messages: quoted, and cut short when long.
//!
//! A parser's error names the text it could not read, so that the user sees what was wrong.
//! That text may be anything a user or a program passed (a 100 KB argument, a whole file
//! given as a position), and an error message must stay short whatever it quotes: [`quote`]
//! keeps the first [`QUOTED_CHARS`] characters and says how long the whole was. Every parser
//! of the bundled games, and the command line, quote through it.

use std::borrow::Cow;
use std::fmt;

/// The most characters of a user's text an error message quotes. The positions of the bundled
/// games fit whole: a FEN has at most about 90 characters, a UTTT position 95.
pub const QUOTED_CHARS: usize = 100;

/// `text` as an error message shows it: in double quotes with Rust's escapes (as `{:?}`
/// writes it); when longer than [`QUOTED_CHARS`] characters, only those, followed by `…` and
/// the length of the whole (`"xxx…xx"… (100000 characters)`).
///
/// ```
/// use proofnum_games::input::quote;
///
/// assert_eq!(quote("e2e9").to_string(), r#""e2e9""#);
/// let long = "x".repeat(100_000);
/// assert_eq!(quote(&long).to_string(), format!("\"{}\"… (100000 characters)", "x".repeat(100)));
/// ```
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// `text` itself when it has at most [`QUOTED_CHARS`] characters; otherwise its first
/// [`QUOTED_CHARS`] followed by `… (N characters)`. For messages that quote in their own way
/// (the command line parser's `'…'`).
pub fn shortened(text: &str) -> Cow<'_, str> {
    match cut(text) {
        None => Cow::Borrowed(text),
        Some(prefix) => Cow::Owned(format!("{prefix}… ({} characters)", text.chars().count())),
    }
}

/// The first [`QUOTED_CHARS`] characters of `text`, when it has more.
fn cut(text: &str) -> Option<&str> {
    text.char_indices()
        .nth(QUOTED_CHARS)
        .map(|(end, _)| &text[..end])
}

/// What [`quote`] returns: displays the quoted text.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match cut(self.0) {
            None => write!(f, "{:?}", self.0),
            Some(prefix) => write!(f, "{prefix:?}… ({} characters)", self.0.chars().count()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_by_its_first_characters() {
        assert_eq!(quote("").to_string(), "\"\"");
        assert_eq!(quote("a\"b\n").to_string(), r#""a\"b\n""#);
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(quote(&exact).to_string(), format!("{exact:?}"));
        assert_eq!(shortened(&exact), exact.as_str());
        let longer = format!("{exact}é");
        assert_eq!(
            quote(&longer).to_string(),
            format!("{exact:?}… ({} characters)", QUOTED_CHARS + 1)
        );
        assert_eq!(
            shortened(&longer),
            format!("{exact}… ({} characters)", QUOTED_CHARS + 1)
        );
    }
}
