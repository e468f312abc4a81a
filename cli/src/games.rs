//! The games the command line knows (the registry): their names and notations, and for each
//! how to read a position, how to write the board, a move and a player, and how big the
//! solver's buffers must be.

use proofnum::{Game, MoveCodec, Player};
use proofnum_games::atarigo::{self, AtariGo, Point, notation::setup_size};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::connect4::knowledge::{Restricted, rules};
use proofnum_games::input::quote;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_games::uttt::{self, Uttt};

/// A game the command line knows: its name on the command line and its position notation.
pub struct GameInfo {
    /// The name to type (`connect4`).
    pub name: &'static str,
    /// How its positions are written, for `--help`.
    pub notation: &'static str,
}

/// Every bundled game, in `--help`'s order. [`with_game`] knows the same names (chess, whose
/// report is its own, through [`crate::chess::run`]).
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "connect4",
        notation: "1-based columns played so far, e.g. 4453 (empty: the start)",
    },
    GameInfo {
        name: "tictactoe",
        notation: "cells 0..8 (row-major) played so far, e.g. 40 (empty: the start)",
    },
    GameInfo {
        name: "uttt",
        notation: "a position in the notation of the ultimattt solver, P;BBBBBBBBB;c../../.. \
            (side to move; the nine boards X, O, # drawn, . open, @ the forced one; the 81 cells \
            board by board); moves are two letters a-i, board then cell (empty: the start)",
    },
    GameInfo {
        name: "atarigo",
        notation: "moves in Go coordinates (c4: column c, row 4 from the bottom) from the 6x6 \
            crosscut, e.g. \"c2 e4\" (empty: the crosscut); or a setup S;ROWS[;MOVES]: side to \
            move X (Black) or O (White), N rows from the top separated by /, X O or . each, \
            e.g. \"X;..../.XO./.OX./....\" (the 4x4 crosscut; 2x2 to 7x7)",
    },
    GameInfo {
        name: "chess",
        notation: "a FEN, e.g. \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\" (only the pieces and \
            the side are needed: \"3Q4/5K2/8/8/8/8/8/4k3 b\"; empty: the start); the \
            question is whether the side to move (--attacker: white or black) can force \
            checkmate, answered as mate in N",
    },
    GameInfo {
        name: "shogi",
        notation: "a tsume-shogi problem as SFEN, Black (the attacker) to move, e.g. \
            \"4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\"; the question is whether Black mates \
            giving check at every move, answered as mate in N plies (N手詰)",
    },
];

/// What to do with a position once its game's type is known: the command line's solve, or
/// another binary's (see [`with_game`]).
pub trait WithGame {
    /// What the run returns.
    type Output;
    /// Runs on `position`, in game `G`'s notation (not read yet).
    fn run<G: Bundled>(self, position: &str) -> Self::Output;
}

/// Runs `action` with the game named `name` (one of [`GAMES`]) on `position`; an unknown name,
/// or an Atari Go setup of an unsupported size, is an `Err`.
pub fn with_game<W: WithGame>(name: &str, position: &str, action: W) -> Result<W::Output, String> {
    Ok(match name {
        "connect4" => action.run::<ConnectFour>(position),
        "tictactoe" => action.run::<TicTacToe>(position),
        "uttt" => action.run::<Uttt>(position),
        "atarigo" => match atarigo_size(position) {
            2 => action.run::<AtariGo<2>>(position),
            3 => action.run::<AtariGo<3>>(position),
            4 => action.run::<AtariGo<4>>(position),
            5 => action.run::<AtariGo<5>>(position),
            6 => action.run::<AtariGo<6>>(position),
            7 => action.run::<AtariGo<7>>(position),
            n => {
                return Err(format!(
                    "an Atari Go setup of {n} rows: boards are 2x2 to 7x7"
                ));
            }
        },
        "chess" => {
            return Err(
                "chess has its own report: `proofnum chess` (proofnum_cli::chess::run)".into(),
            );
        }
        "shogi" => {
            return Err(
                "shogi has its own report: `proofnum shogi` (proofnum_cli::shogi::run)".into(),
            );
        }
        other => {
            let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
            return Err(format!(
                "unknown game {}: expected one of {}",
                quote(other),
                names.join(", ")
            ));
        }
    })
}

/// A bundled game as the command line uses it.
///
/// Its moves have integer codes ([`MoveCodec`]) so that the distributed solver can send jobs
/// between processes, and a position can be shared between threads (`Sync`).
pub trait Bundled: Game<Move: Send> + MoveCodec + Clone + Send + Sync + Sized {
    /// The game's name on the command line (one of [`GAMES`]), also written into certificates.
    const NAME: &'static str;
    /// The game with its rules alone, none of its knowledge (no early values, no moves left
    /// out): certificates are written and checked against it, so that a check rests on the
    /// rules only. Its positions, hashes and encodings are the game's.
    type RulesOnly: Game<Move = Self::Move> + Clone;
    /// This position in [`RulesOnly`](Bundled::RulesOnly).
    fn rules_only(&self) -> Self::RulesOnly;
    /// Longest line, in plies, the stack must hold.
    const MAX_DEPTH: usize;
    /// Most moves in a position.
    const MAX_MOVES: usize;
    /// The game's name in messages.
    fn title() -> String;
    /// Reads a position in the game's notation (see [`GAMES`]).
    fn parse(position: &str) -> Result<Self, String>;
    /// The board as text.
    fn diagram(&self) -> String;
    /// The position in the game's notation, when it is not simply the moves typed.
    fn notation(&self) -> Option<String> {
        None
    }
    /// A move in the game's notation.
    fn show_move(mv: Self::Move) -> String;
    /// The player's name: `First`/`Second`, or the game's own (`Black`/`White`).
    fn name(player: Player) -> &'static str {
        match player {
            Player::First => "First",
            Player::Second => "Second",
        }
    }
    /// "First player", "Black": the side to move in the title line.
    fn side_label(player: Player) -> String {
        format!("{} player", Self::name(player))
    }
    /// Reads a player for `--attacker`: `first`, `second`, `X`, `O` or the game's own names.
    fn player_named(name: &str) -> Result<Player, String> {
        let lower = name.to_ascii_lowercase();
        for player in [Player::First, Player::Second] {
            let letter = if player == Player::First { "x" } else { "o" };
            let generic = if player == Player::First {
                "first"
            } else {
                "second"
            };
            if lower == letter || lower == generic || lower == Self::name(player).to_lowercase() {
                return Ok(player);
            }
        }
        Err(format!(
            "--attacker {}: expected first, second, X, O{}",
            quote(name),
            if Self::name(Player::First) == "First" {
                String::new()
            } else {
                format!(
                    ", {} or {}",
                    Self::name(Player::First).to_lowercase(),
                    Self::name(Player::Second).to_lowercase()
                )
            }
        ))
    }
}

impl Bundled for ConnectFour {
    const NAME: &'static str = "connect4";
    type RulesOnly = Restricted<7, 6, { rules::NONE }>;
    fn rules_only(&self) -> Self::RulesOnly {
        Restricted(*self)
    }
    const MAX_DEPTH: usize = 42;
    const MAX_MOVES: usize = 7;
    fn title() -> String {
        "Connect Four".into()
    }
    fn parse(position: &str) -> Result<Self, String> {
        ConnectFour::from_moves(position).map_err(|e| e.to_string())
    }
    fn diagram(&self) -> String {
        self.to_string()
    }
    fn show_move(mv: Self::Move) -> String {
        mv.to_string()
    }
}

impl Bundled for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type RulesOnly = TicTacToe;
    fn rules_only(&self) -> Self::RulesOnly {
        self.clone()
    }
    const MAX_DEPTH: usize = 9;
    const MAX_MOVES: usize = 9;
    fn title() -> String {
        "Tic-tac-toe".into()
    }
    fn parse(position: &str) -> Result<Self, String> {
        position
            .parse()
            .map_err(|e: proofnum_games::tictactoe::ParseError| e.to_string())
    }
    fn diagram(&self) -> String {
        self.to_string().trim_end().to_string()
    }
    fn show_move(mv: u8) -> String {
        mv.to_string()
    }
}

impl Bundled for Uttt {
    const NAME: &'static str = "uttt";
    type RulesOnly = Uttt;
    fn rules_only(&self) -> Self::RulesOnly {
        self.clone().with_knowledge(uttt::Knowledge::NONE)
    }
    const MAX_DEPTH: usize = 81;
    const MAX_MOVES: usize = 81;
    fn title() -> String {
        "Ultimate Tic-Tac-Toe".into()
    }
    fn parse(position: &str) -> Result<Self, String> {
        if position.trim().is_empty() {
            return Ok(Uttt::new());
        }
        position
            .parse()
            .map_err(|e: proofnum_games::uttt::ParseError| e.to_string())
    }
    fn diagram(&self) -> String {
        let mut s = self.diagram();
        if self.forced_board().is_some() {
            s.push_str("(* marks the cells of the board the next move must be played in)");
        } else {
            s.push_str("(* marks the free cells of the open boards: a free choice)");
        }
        s
    }
    fn notation(&self) -> Option<String> {
        Some(self.to_string())
    }
    fn show_move(mv: Self::Move) -> String {
        mv.to_string()
    }
}

impl<const N: usize> Bundled for AtariGo<N> {
    const NAME: &'static str = "atarigo";
    type RulesOnly = atarigo::RulesOnly<N>;
    fn rules_only(&self) -> Self::RulesOnly {
        atarigo::RulesOnly(self.clone())
    }
    const MAX_DEPTH: usize = N * N;
    const MAX_MOVES: usize = N * N;
    fn title() -> String {
        format!("Atari Go {N}×{N}")
    }
    fn parse(position: &str) -> Result<Self, String> {
        position
            .parse()
            .map_err(|e: proofnum_games::atarigo::ParseError| e.to_string())
    }
    fn diagram(&self) -> String {
        self.diagram()
    }
    fn notation(&self) -> Option<String> {
        Some(self.notation())
    }
    fn show_move(mv: Point) -> String {
        Self::point_name(mv)
    }
    fn name(player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
    fn side_label(player: Player) -> String {
        format!("{} ({})", Self::name(player), ["X", "O"][player.index()])
    }
}

/// The Atari Go board size a position asks for: a setup's row count, else the 6×6 crosscut.
fn atarigo_size(position: &str) -> usize {
    setup_size(position).unwrap_or(6)
}
