//! Chess text: FEN positions, moves in UCI (`e2e4`, `e7e8q`, castling `e1g1`) and SAN
//! (`Nf3`, `exd5`, `O-O`, `Qh4#`), and a board diagram. Parsing and printing of moves is
//! cozy-chess's (`cozy_chess::util`); this module adds the error types and the game's view.

use core::fmt;

use cozy_chess::util::{display_san_move, display_uci_move, parse_san_move, parse_uci_move};
use cozy_chess::{Board, Color, File, Piece, Rank, Square, get_king_moves};

use super::{Chess, Move};
use crate::input::quote;

/// A FEN string that does not describe a legal chess position. Its message quotes the text
/// (cut short when long: [`quote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The text that was given.
    pub fen: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN {}: {}", quote(&self.fen), self.reason)
    }
}

impl std::error::Error for FenError {}

/// A move text that is not a legal move of the position. Its message quotes the text (cut
/// short when long: [`quote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text that was given.
    pub text: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a legal move here (UCI like e2e4, e7e8q, e1g1, or SAN like Nf3, O-O)",
            quote(&self.text)
        )
    }
}

impl std::error::Error for MoveError {}

/// Parses a FEN string into a board. Only the first two fields are needed (the pieces and the
/// side to move, as people write a position by hand); the castling rights and the en-passant
/// square default to none (`-`), the halfmove clock to 0 and the fullmove number to 1. Besides
/// what cozy-chess refuses, the positions [`unplayable`] names are errors.
pub fn parse_fen(fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let error = |reason: &str| FenError {
        fen: fen.to_string(),
        reason: reason.to_string(),
    };
    // The defaults of the fields from the third on: castling, en passant, clocks.
    const DEFAULTS: [&str; 4] = ["-", "-", "0", "1"];
    let full = match fields.len() {
        n @ 2..=6 => {
            let mut full = fields.clone();
            full.extend_from_slice(&DEFAULTS[n - 2..]);
            full.join(" ")
        }
        n => {
            return Err(error(&format!(
                "{n} field{}; expected 2 to 6 (pieces, side to move[, castling, en passant, \
                 halfmove clock, fullmove number])",
                if n == 1 { "" } else { "s" }
            )));
        }
    };
    let board = Board::from_fen(&full, false).map_err(|e| error(&e.to_string()))?;
    match unplayable(&board) {
        Some(reason) => Err(error(&reason)),
        None => Ok(board),
    }
}

/// Why a board cozy-chess accepts is not a standard chess position this game can play, or
/// `None`. cozy-chess's FEN parser refuses the side not to move in check by every piece but
/// the king, so it accepts kings on adjacent squares, where its move generator then panics
/// (the side to move can take the king). Parsing standard FEN, it also accepts castling
/// rights for a king or rook off its starting square, which are Chess960's: there UCI writes
/// castling as a plain king move (`d1c1` for O-O-O and Kc1 alike) and a referee reads the FEN
/// as standard chess.
pub fn unplayable(board: &Board) -> Option<String> {
    let (white, black) = (board.king(Color::White), board.king(Color::Black));
    if get_king_moves(white).has(black) {
        return Some(format!(
            "the kings stand on adjacent squares ({white} and {black}): the side not to move \
             is in check"
        ));
    }
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        let back_rank = Rank::First.relative_to(color);
        let king_home = board.king(color) == Square::new(File::E, back_rank);
        let rooks_home = rights.short.is_none_or(|file| file == File::H)
            && rights.long.is_none_or(|file| file == File::A);
        if (rights.short.is_some() || rights.long.is_some()) && !(king_home && rooks_home) {
            let (king, corners) = match color {
                Color::White => ("e1", "a1 or h1"),
                Color::Black => ("e8", "a8 or h8"),
            };
            return Some(format!(
                "castling rights for {color:?} need its king on {king} and the rook on \
                 {corners} (this is standard chess, not Chess960)"
            ));
        }
    }
    None
}

impl Chess {
    /// The current position as a FEN string.
    pub fn fen(&self) -> String {
        self.board().to_string()
    }

    /// `mv` in UCI notation (`e2e4`, `e7e8q`; castling as the king's two-square move, `e1g1`).
    /// `mv` must be a move of the current position.
    pub fn uci(&self, mv: Move) -> String {
        display_uci_move(self.board(), mv.to_cozy()).to_string()
    }

    /// `mv` in standard algebraic notation (`Nf3`, `exd5`, `O-O`, `Qh4#`). `mv` must be a legal
    /// move of the current position.
    pub fn san(&self, mv: Move) -> String {
        display_san_move(self.board(), mv.to_cozy()).to_string()
    }

    /// A legal move of the current position from UCI (`e2e4`, `e1g1`) or SAN (`Nf3`, `O-O`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let board = self.board();
        let error = || MoveError {
            text: text.to_string(),
        };
        let uci = parse_uci_move(board, text)
            .ok()
            .filter(|&mv| board.is_legal(mv));
        let mv = match uci {
            Some(mv) => mv,
            None => parse_san_move(board, text).map_err(|_| error())?,
        };
        if board.is_legal(mv) {
            Ok(Move::from(mv))
        } else {
            Err(error())
        }
    }

    /// The moves of `line`, played in turn from the current position, in SAN with move
    /// numbers (`1. Qh5+ Kd7 2. Qf7#`; `1... Qh4#` when Black moves first). Every move must be
    /// legal where it is played.
    pub fn san_line(&self, line: &[Move]) -> String {
        let mut board = self.board().clone();
        // Counted beyond cozy-chess's u16 (which stops at 65535), so a line from the last
        // number a FEN holds goes on counting.
        let mut number = u32::from(board.fullmove_number());
        let mut text = String::new();
        for (i, &mv) in line.iter().enumerate() {
            let white = board.side_to_move() == Color::White;
            if !text.is_empty() {
                text.push(' ');
            }
            if white {
                text.push_str(&format!("{number}. "));
            } else if i == 0 {
                text.push_str(&format!("{number}... "));
            }
            text.push_str(&display_san_move(&board, mv.to_cozy()).to_string());
            board.play_unchecked(mv.to_cozy());
            if !white {
                number += 1;
            }
        }
        text
    }

    /// The moves of `line` in UCI notation, space separated, played in turn from the current
    /// position.
    pub fn uci_line(&self, line: &[Move]) -> String {
        let mut board = self.board().clone();
        let mut words = Vec::with_capacity(line.len());
        for &mv in line {
            words.push(display_uci_move(&board, mv.to_cozy()).to_string());
            board.play_unchecked(mv.to_cozy());
        }
        words.join(" ")
    }
}

/// A text diagram of `board`, White at the bottom: uppercase White, lowercase Black, `.` for an
/// empty square, files and ranks labelled.
pub fn diagram(board: &Board) -> String {
    let mut text = String::new();
    for rank in Rank::ALL.iter().rev() {
        text.push_str(&format!("{} ", *rank as usize + 1));
        for file in File::ALL {
            let square = Square::new(file, *rank);
            let symbol = match (board.piece_on(square), board.color_on(square)) {
                (Some(piece), Some(color)) => piece_char(piece, color),
                _ => '.',
            };
            text.push(' ');
            text.push(symbol);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g h\n");
    text
}

/// FEN's letter for a piece: uppercase for White.
fn piece_char(piece: Piece, color: Color) -> char {
    let c = char::from(piece);
    if color == Color::White {
        c.to_ascii_uppercase()
    } else {
        c
    }
}
