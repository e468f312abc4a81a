//! Every reader of the bundled games' text, given 100 KB of bad input: an error whose message
//! quotes at most a short prefix of what it was given (`proofnum_games::input`), never the
//! whole. A bad FEN used to repeat all 100 KB.

use std::fmt::Display;

use proofnum::Player;
use proofnum_games::atarigo::AtariGo6;
use proofnum_games::chess::Chess;
use proofnum_games::chess::notation::parse_fen;
use proofnum_games::connect4::{ConnectFour, suite};
use proofnum_games::input::QUOTED_CHARS;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_games::uttt::{Move, Uttt};

/// Characters of input each message is given: far more than any position.
const INPUT_CHARS: usize = 100_000;

/// The longest message allowed: the quoted prefix, with every character escaped at worst
/// (`\u{10ffff}`), and a sentence around it.
const MESSAGE_BYTES: usize = QUOTED_CHARS * 10 + 200;

/// `error`'s message is short, and when it quotes the input it says how long the input was.
fn short<E: Display>(what: &str, error: E) {
    let message = error.to_string();
    assert!(
        message.len() <= MESSAGE_BYTES,
        "{what}: {} bytes: {}…",
        message.len(),
        message.chars().take(300).collect::<String>()
    );
    if message.contains("xxxxxxxxxx") {
        assert!(message.contains("characters)"), "{what}: {message}");
    }
}

#[test]
fn every_reader_quotes_at_most_a_short_prefix_of_its_input() {
    let junk = "x".repeat(INPUT_CHARS);
    let group = ".........";
    let groups = [group; 8].join("/");
    short("FEN", parse_fen(&junk).unwrap_err());
    short(
        "FEN",
        Chess::from_fen(&format!("{junk} w - -")).unwrap_err(),
    );
    short(
        "FEN with a long seventh field",
        Chess::from_fen(&format!("8/8/8/8/8/8/8/8 w - - 0 1 {junk}")).unwrap_err(),
    );
    short(
        "chess move",
        Chess::startpos().parse_move(&junk).unwrap_err(),
    );
    short("Connect Four", ConnectFour::from_moves(&junk).unwrap_err());
    short(
        "Connect Four suite line",
        suite::parse(&format!("44 {junk}")).unwrap_err(),
    );
    short(
        "Connect Four suite line",
        suite::parse(&format!("44 1 {junk}")).unwrap_err(),
    );
    short("tic-tac-toe", junk.parse::<TicTacToe>().unwrap_err());
    short("UTTT move", junk.parse::<Move>().unwrap_err());
    for position in [
        junk.clone(),
        format!("{junk};.........;{groups}/{group}"),
        format!("X;{junk};{groups}/{group}"),
        format!("X;.........;{junk}/{groups}"),
    ] {
        short("UTTT position", position.parse::<Uttt>().unwrap_err());
    }
    short("Atari Go point", AtariGo6::parse_point(&junk).unwrap_err());
    for position in [
        junk.clone(),
        format!("c4 {junk}"),
        format!("{junk};....../....../....../....../....../......"),
        format!("X;{junk}/....../....../....../....../......"),
    ] {
        short(
            "Atari Go position",
            position.parse::<AtariGo6>().unwrap_err(),
        );
    }
    short(
        "Atari Go diagram",
        AtariGo6::from_diagram(&junk, Player::First).unwrap_err(),
    );
}
