//! Shogi text: tsume positions in SFEN, moves in USI (`7g7f`, `2b3c+`, `G*5b`) and in the
//! Japanese notation of KIF records (`▲５二金打`, `△同　玉(51)`, `▲３三角成(88)`), board
//! diagrams, and the exact byte encoding of a position ([`encode`]).
//!
//! # SFEN
//! `board side hands [move number]`, with an optional leading `sfen` word (as in USI's
//! `position sfen ...`). The board lists ranks a to i (top to bottom, White's side at the
//! top), each from file 9 to file 1: uppercase letters are Black's pieces (`P L N S G B R K`),
//! lowercase White's, `+` before a letter promotes it, digits count empty squares. The side
//! must be `b`: a tsume problem has Black, the attacker, to move. Hands are `-` or counts and
//! letters (`2GSb3p`). The parser checks everything haitaka would otherwise panic on or
//! reject without saying why, and names what is wrong: the field, the rank, the piece; it
//! quotes at most [`QUOTE_CHARS`] characters of the input.

use core::fmt;

use haitaka::{Board, Color, File, Piece, Rank, Square};

use super::{HAND_PIECES, Move, Tsume};

/// The most characters of an input an error message quotes.
pub const QUOTE_CHARS: usize = 60;
/// The longest SFEN accepted (a full board with both hands needs about 100 characters).
pub const MAX_SFEN_CHARS: usize = 400;
/// How many pieces of each hand kind the game has ([`HAND_PIECES`] order).
pub const PIECE_TOTALS: [u8; 7] = [18, 4, 4, 4, 2, 2, 4];

/// A SFEN string that does not describe a legal tsume position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    /// The start of the text that was given (at most [`QUOTE_CHARS`] characters, `…` when cut).
    pub quoted: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SFEN \"{}\": {}", self.quoted, self.reason)
    }
}

impl std::error::Error for SfenError {}

/// At most [`QUOTE_CHARS`] characters of `text`, with `…` when cut.
pub fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// A move text that is not a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The start of the text that was given.
    pub quoted: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a legal move here (USI like 7g7f, 2b3c+, G*5b)",
            self.quoted
        )
    }
}

impl std::error::Error for MoveError {}

/// The piece and colour of a SFEN letter (`P` Black's pawn, `k` White's king).
fn piece_of_letter(c: char) -> Option<(Piece, Color)> {
    let color = if c.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    };
    let piece = match c.to_ascii_lowercase() {
        'p' => Piece::Pawn,
        'l' => Piece::Lance,
        'n' => Piece::Knight,
        's' => Piece::Silver,
        'g' => Piece::Gold,
        'b' => Piece::Bishop,
        'r' => Piece::Rook,
        'k' => Piece::King,
        _ => return None,
    };
    Some((piece, color))
}

/// The SFEN letters of a piece (`+R` for Black's dragon).
fn piece_letters(piece: Piece, color: Color) -> String {
    let base = match piece.unpromote() {
        Piece::Pawn => 'p',
        Piece::Lance => 'l',
        Piece::Knight => 'n',
        Piece::Silver => 's',
        Piece::Gold => 'g',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        _ => 'k',
    };
    let base = if color == Color::Black {
        base.to_ascii_uppercase()
    } else {
        base
    };
    if piece.is_promoted() {
        format!("+{base}")
    } else {
        base.to_string()
    }
}

/// A square in USI (`7g`: file digit, rank letter).
pub fn square_usi(square: Square) -> String {
    format!(
        "{}{}",
        square.file() as usize + 1,
        (b'a' + square.rank() as u8) as char
    )
}

/// The ranks' names as rank letters and as SFEN positions (rank a is the first).
fn rank_name(rank: usize) -> String {
    format!("rank {} ({})", rank + 1, (b'a' + rank as u8) as char)
}

/// Parses a tsume SFEN (see the module docs) into a haitaka board, hands exactly as written.
pub fn parse_sfen(sfen: &str) -> Result<Board, SfenError> {
    let error = |reason: String| SfenError {
        quoted: quote(sfen.trim()),
        reason,
    };
    let length = sfen.chars().count();
    if length > MAX_SFEN_CHARS {
        return Err(error(format!(
            "{length} characters; a SFEN position has at most {MAX_SFEN_CHARS}"
        )));
    }
    let mut fields: Vec<&str> = sfen.split_whitespace().collect();
    if fields.first() == Some(&"sfen") {
        fields.remove(0);
    }
    if !(3..=4).contains(&fields.len()) {
        return Err(error(format!(
            "{} fields; expected 3 or 4 (board, side to move, hands[, move number])",
            fields.len()
        )));
    }

    // The board.
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 9 {
        return Err(error(format!(
            "the board has {} ranks separated by '/'; expected 9",
            ranks.len()
        )));
    }
    let mut placed: Vec<(Square, Piece, Color)> = Vec::new();
    for (rank, text) in ranks.iter().enumerate() {
        let mut file = 9usize; // files are listed from 9 down to 1
        let mut promote = false;
        for c in text.chars() {
            if let Some(empty) = c.to_digit(10).filter(|&d| (1..=9).contains(&d)) {
                if promote {
                    return Err(error(format!("{}: '+' before a digit", rank_name(rank))));
                }
                if empty as usize > file {
                    return Err(error(format!("{}: more than 9 squares", rank_name(rank))));
                }
                file -= empty as usize;
            } else if c == '+' {
                if promote {
                    return Err(error(format!("{}: '++'", rank_name(rank))));
                }
                promote = true;
            } else if let Some((piece, color)) = piece_of_letter(c) {
                if file == 0 {
                    return Err(error(format!("{}: more than 9 squares", rank_name(rank))));
                }
                if promote && matches!(piece, Piece::Gold | Piece::King) {
                    return Err(error(format!(
                        "{}: '+{c}': a {} cannot promote",
                        rank_name(rank),
                        if piece == Piece::Gold { "gold" } else { "king" }
                    )));
                }
                let piece = if promote { piece.promote() } else { piece };
                let square = Square::new(File::index(file - 1), Rank::index(rank));
                placed.push((square, piece, color));
                file -= 1;
                promote = false;
            } else {
                return Err(error(format!(
                    "{}: '{}' is not a piece letter (P L N S G B R K, lowercase for White) or a digit 1-9",
                    rank_name(rank),
                    c.escape_default()
                )));
            }
        }
        if promote {
            return Err(error(format!("{}: '+' at the end", rank_name(rank))));
        }
        if file != 0 {
            return Err(error(format!(
                "{}: {} squares; expected 9",
                rank_name(rank),
                9 - file
            )));
        }
    }

    // Where pieces may stand.
    for &(square, piece, color) in &placed {
        let rank = square.rank() as usize;
        // Ranks counted from the owner's far side: 0 is the last rank it moves to.
        let far = if color == Color::Black {
            rank
        } else {
            8 - rank
        };
        let stuck = match piece {
            Piece::Pawn | Piece::Lance => far == 0,
            Piece::Knight => far <= 1,
            _ => false,
        };
        if stuck {
            return Err(error(format!(
                "{} {} on {} can never move (an unpromoted pawn or lance on its last rank, a \
                 knight on its last two)",
                color_name(color),
                piece_name(piece),
                square_usi(square)
            )));
        }
    }
    for color in Color::ALL {
        for file in 0..9 {
            let pawns = placed
                .iter()
                .filter(|&&(sq, p, c)| c == color && p == Piece::Pawn && sq.file() as usize == file)
                .count();
            if pawns > 1 {
                return Err(error(format!(
                    "{} has {pawns} unpromoted pawns on file {} (二歩: at most one)",
                    color_name(color),
                    file + 1
                )));
            }
        }
        let kings = placed
            .iter()
            .filter(|&&(_, p, c)| c == color && p == Piece::King)
            .count();
        if kings > 1 {
            return Err(error(format!("{} has {kings} kings", color_name(color))));
        }
        if color == Color::White && kings == 0 {
            return Err(error(
                "White (the defender) has no king: a tsume problem needs one to mate".into(),
            ));
        }
    }

    // Side to move.
    match fields[1] {
        "b" => {}
        "w" => {
            return Err(error(
                "White to move: a tsume problem has Black, the attacker, to move ('b')".into(),
            ));
        }
        other => {
            return Err(error(format!(
                "side to move '{}': expected 'b'",
                quote(other)
            )));
        }
    }

    // Hands.
    let mut hands = [[0u8; 7]; 2]; // [White, Black] as haitaka's colours
    if fields[2] != "-" {
        let mut count: Option<u32> = None;
        for c in fields[2].chars() {
            if let Some(d) = c.to_digit(10) {
                let n = count.unwrap_or(0) * 10 + d;
                if n > 18 {
                    return Err(error(format!(
                        "hands: a count above 18 ('{}')",
                        quote(fields[2])
                    )));
                }
                count = Some(n);
            } else if let Some((piece, color)) = piece_of_letter(c) {
                let Some(kind) = HAND_PIECES.iter().position(|&p| p == piece) else {
                    return Err(error("hands: a king cannot be held in hand".into()));
                };
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(error(format!("hands: a count of 0 before '{c}'")));
                }
                let slot = &mut hands[color as usize][kind];
                if *slot != 0 {
                    return Err(error(format!("hands: '{c}' appears twice")));
                }
                *slot = n as u8;
            } else {
                return Err(error(format!(
                    "hands: '{}' is not a count or a piece letter ('-' for empty hands)",
                    c.escape_default()
                )));
            }
        }
        if count.is_some() {
            return Err(error(
                "hands: a count without a piece letter after it".into(),
            ));
        }
    }

    // Move number.
    if let Some(number) = fields.get(3) {
        if !number.parse::<u32>().is_ok_and(|n| n > 0) {
            return Err(error(format!(
                "move number '{}': expected a positive integer",
                quote(number)
            )));
        }
    }

    // How many pieces of each kind there are.
    for (kind, &piece) in HAND_PIECES.iter().enumerate() {
        let on_board = placed
            .iter()
            .filter(|&&(_, p, _)| p.unpromote() == piece)
            .count();
        let total = on_board + usize::from(hands[0][kind]) + usize::from(hands[1][kind]);
        if total > usize::from(PIECE_TOTALS[kind]) {
            return Err(error(format!(
                "{total} {}s on the board and in hand; the game has {}",
                piece_name(piece),
                PIECE_TOTALS[kind]
            )));
        }
    }

    // The board through haitaka: its tsume parser (the defender's hand refilled, Black's king
    // optional), then the defender's hand set as written.
    let mut board_text = String::new();
    board_text.push_str(fields[0]);
    board_text.push_str(" b ");
    let black_hand: String = HAND_PIECES
        .iter()
        .enumerate()
        .rev()
        .filter(|&(kind, _)| hands[Color::Black as usize][kind] > 0)
        .map(|(kind, &piece)| {
            let n = hands[Color::Black as usize][kind];
            let letters = piece_letters(piece, Color::Black);
            if n == 1 {
                letters
            } else {
                format!("{n}{letters}")
            }
        })
        .collect();
    board_text.push_str(if black_hand.is_empty() {
        "-"
    } else {
        &black_hand
    });
    board_text.push_str(" 1");
    // Before haitaka's own checks, the one it only reports as "invalid board".
    if let Some(&(king, _, _)) = placed
        .iter()
        .find(|&&(_, p, c)| c == Color::White && p == Piece::King)
    {
        let mut probe = Board::default();
        for &(square, piece, color) in &placed {
            probe.unchecked_put(color, piece, square);
        }
        let occupied = probe.occupied();
        if super::knowledge::attacked_by(&probe, Color::Black, king, occupied) {
            return Err(error(format!(
                "White's king on {} is in check with Black to move (an illegal position)",
                square_usi(king)
            )));
        }
    }
    let mut board = Board::tsume(&board_text).map_err(|e| {
        error(format!(
            "not a legal position ({e}: kings next to each other, or Black in check by more \
             than two pieces?)"
        ))
    })?;
    for (kind, &piece) in HAND_PIECES.iter().enumerate() {
        board.unchecked_set_hand(Color::White, piece, hands[Color::White as usize][kind]);
    }
    Ok(board)
}

/// A colour's name.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A piece's English name.
pub fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Lance => "lance",
        Piece::Knight => "knight",
        Piece::Silver => "silver",
        Piece::Gold => "gold",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::King => "king",
        Piece::Tokin => "tokin",
        Piece::PLance => "promoted lance",
        Piece::PKnight => "promoted knight",
        Piece::PSilver => "promoted silver",
        Piece::PBishop => "horse",
        Piece::PRook => "dragon",
    }
}

/// A piece's kanji as KIF writes it in moves (`歩`, `成香`, `馬`, `龍`).
pub fn piece_kanji(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "歩",
        Piece::Lance => "香",
        Piece::Knight => "桂",
        Piece::Silver => "銀",
        Piece::Gold => "金",
        Piece::Bishop => "角",
        Piece::Rook => "飛",
        Piece::King => "玉",
        Piece::Tokin => "と",
        Piece::PLance => "成香",
        Piece::PKnight => "成桂",
        Piece::PSilver => "成銀",
        Piece::PBishop => "馬",
        Piece::PRook => "龍",
    }
}

/// A piece's single kanji for diagrams (`杏`, `圭`, `全` for the promoted lance, knight and
/// silver, as KIF board diagrams write them).
fn piece_glyph(piece: Piece) -> &'static str {
    match piece {
        Piece::PLance => "杏",
        Piece::PKnight => "圭",
        Piece::PSilver => "全",
        other => piece_kanji(other),
    }
}

const FULL_WIDTH_DIGITS: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KANJI_DIGITS: [&str; 18] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

/// The exact bytes of a position: byte 0 the side to move (0 Black, 1 White); bytes 1–7
/// Black's hand and 8–14 White's, counts in [`HAND_PIECES`] order; then one pair of bytes per
/// occupied square in square order (haitaka's file-major index, `1a` = 0 … `9i` = 80): the
/// square's index, then the piece (its haitaka index 0–13, plus 128 for White). Equal
/// positions give equal bytes and different ones different bytes; the move number and the line
/// played are not part of a position.
pub fn encode(board: &Board, out: &mut Vec<u8>) {
    push_side(board, out);
    for color in [Color::Black, Color::White] {
        out.extend_from_slice(&board.hand(color)[..HAND_PIECES.len()]);
    }
    push_squares(board, out);
}

/// The exact bytes of a position's board and side to move, the hands left out: [`encode`]'s
/// layout without its bytes 1–14. Equal for positions that differ only in their hands
/// (one class of hand dominance), different otherwise.
pub fn encode_class(board: &Board, out: &mut Vec<u8>) {
    push_side(board, out);
    push_squares(board, out);
}

/// [`encode`]'s byte 0: the side to move.
fn push_side(board: &Board, out: &mut Vec<u8>) {
    out.push(match board.side_to_move() {
        Color::Black => 0,
        Color::White => 1,
    });
}

/// [`encode`]'s square and piece pairs.
fn push_squares(board: &Board, out: &mut Vec<u8>) {
    for square in board.occupied() {
        if let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) {
            out.push(square as u8);
            out.push(piece as u8 | if color == Color::White { 128 } else { 0 });
        }
    }
}

/// The pieces of each kind neither on the board nor in a hand.
pub fn missing_pieces(board: &Board) -> [u8; 7] {
    core::array::from_fn(|kind| {
        let piece = HAND_PIECES[kind];
        let on_board = (board.pieces(piece) | board.pieces(piece.promote())).len() as u8;
        let held = board.hand(Color::Black)[kind] + board.hand(Color::White)[kind];
        PIECE_TOTALS[kind].saturating_sub(on_board + held)
    })
}

impl Tsume {
    /// The current position as a SFEN string (both hands, move number 1).
    pub fn sfen(&self) -> String {
        let board = self.board();
        let mut text = String::new();
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                let square = Square::new(File::index(file), Rank::index(rank));
                match (board.piece_on(square), board.color_on(square)) {
                    (Some(piece), Some(color)) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(&piece_letters(piece, color));
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if rank < 8 {
                text.push('/');
            }
        }
        text.push_str(match board.side_to_move() {
            Color::Black => " b ",
            Color::White => " w ",
        });
        // USI's order: rook, bishop, gold, silver, knight, lance, pawn; Black first.
        let order = [5, 4, 6, 3, 2, 1, 0];
        let mut hands = String::new();
        for color in [Color::Black, Color::White] {
            for kind in order {
                let n = board.hand(color)[kind];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    hands.push_str(&piece_letters(HAND_PIECES[kind], color));
                }
            }
        }
        text.push_str(if hands.is_empty() { "-" } else { &hands });
        text.push_str(" 1");
        text
    }

    /// `mv` in USI (`7g7f`, `2b3c+`, `G*5b`).
    pub fn usi(&self, mv: Move) -> String {
        usi(mv)
    }

    /// A legal move of the current position from USI (`7g7f`, `2b3c+`, `G*5b`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = || MoveError {
            quoted: quote(text),
        };
        let mv: haitaka::Move = text.trim().parse().map_err(|_| error())?;
        let mv = Move::from(mv);
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(error())
        }
    }

    /// The moves of `line` in USI, space separated.
    pub fn usi_line(&self, line: &[Move]) -> String {
        line.iter().map(|&mv| usi(mv)).collect::<Vec<_>>().join(" ")
    }

    /// The moves of `line`, played in turn from the current position, in the Japanese
    /// notation of KIF records: `▲５二金打 △同　玉(51) ▲３三角成(88)`: the mover's mark,
    /// the destination (`同　` when it is the previous move's), the piece, `打` for a drop,
    /// `成` or `不成` where the move could promote, and the origin square in brackets. Every
    /// move must be legal where it is played.
    pub fn japanese_line(&self, line: &[Move]) -> String {
        let mut board = self.board().clone();
        let mut previous: Option<Square> = None;
        let mut words = Vec::with_capacity(line.len());
        for &mv in line {
            words.push(japanese(&board, mv, previous));
            previous = Some(mv.to());
            board.play_unchecked(mv.plain().to_haitaka());
        }
        words.join(" ")
    }

    /// A text diagram of the position as KIF's board diagrams draw it: White's hand above,
    /// files 9 to 1 across, ranks 一 to 九 down, White's pieces marked `v`, Black's hand below.
    pub fn diagram(&self) -> String {
        let board = self.board();
        let mut text = String::new();
        text.push_str(&format!("後手の持駒：{}\n", hand_text(board, Color::White)));
        text.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
        text.push_str("+---------------------------+\n");
        for (rank, rank_name) in KANJI_DIGITS.iter().take(9).enumerate() {
            text.push('|');
            for file in (0..9).rev() {
                let square = Square::new(File::index(file), Rank::index(rank));
                match (board.piece_on(square), board.color_on(square)) {
                    (Some(piece), Some(color)) => {
                        text.push(if color == Color::White { 'v' } else { ' ' });
                        text.push_str(piece_glyph(piece));
                    }
                    _ => text.push_str(" ・"),
                }
            }
            text.push_str(&format!("|{rank_name}\n"));
        }
        text.push_str("+---------------------------+\n");
        text.push_str(&format!("先手の持駒：{}\n", hand_text(board, Color::Black)));
        text
    }
}

/// A hand in KIF's words (`飛二　角　金`), `なし` when empty.
pub fn hand_text(board: &Board, color: Color) -> String {
    let order = [5, 4, 6, 3, 2, 1, 0];
    let words: Vec<String> = order
        .iter()
        .filter(|&&kind| board.hand(color)[kind] > 0)
        .map(|&kind| {
            let n = usize::from(board.hand(color)[kind]);
            let name = piece_kanji(HAND_PIECES[kind]);
            if n == 1 {
                name.to_string()
            } else {
                format!("{name}{}", KANJI_DIGITS[n - 1])
            }
        })
        .collect();
    if words.is_empty() {
        "なし".into()
    } else {
        words.join("　")
    }
}

/// `mv` in USI.
pub fn usi(mv: Move) -> String {
    match (mv.origin(), mv.dropped()) {
        (Some(from), _) => format!(
            "{}{}{}",
            square_usi(from),
            square_usi(mv.to()),
            if mv.is_promotion() { "+" } else { "" }
        ),
        (None, Some(piece)) => format!(
            "{}*{}",
            piece_letters(piece, Color::Black),
            square_usi(mv.to())
        ),
        (None, None) => "0000".into(),
    }
}

/// `mv` of `board` in KIF's Japanese notation; `previous` is the last move's destination.
fn japanese(board: &Board, mv: Move, previous: Option<Square>) -> String {
    let mark = match board.side_to_move() {
        Color::Black => "▲",
        Color::White => "△",
    };
    let to = mv.to();
    let destination = if previous == Some(to) {
        "同　".to_string()
    } else {
        format!(
            "{}{}",
            FULL_WIDTH_DIGITS[to.file() as usize],
            KANJI_DIGITS[to.rank() as usize]
        )
    };
    match (mv.origin(), mv.dropped()) {
        (None, Some(piece)) => format!("{mark}{destination}{}打", piece_kanji(piece)),
        (Some(from), _) => {
            let piece = board.piece_on(from).unwrap_or(Piece::King);
            let color = board.side_to_move();
            let could_promote = piece.is_promotable()
                && (piece.can_promote(color, to) || piece.can_promote(color, from));
            let promotion = if mv.is_promotion() {
                "成"
            } else if could_promote {
                "不成"
            } else {
                ""
            };
            format!(
                "{mark}{destination}{}{promotion}({}{})",
                piece_kanji(piece),
                from.file() as usize + 1,
                from.rank() as usize + 1
            )
        }
        (None, None) => format!("{mark}?"),
    }
}
