//! Tic-tac-toe with proofnum: implement `Game`, give the solver memory, solve, read the line,
//! check the proof.
//!
//! ```sh
//! cargo run --release --example tictactoe            # the empty board: a draw
//! cargo run --release --example tictactoe -- 4 0 1   # after centre, corner, edge (cells 0..8)
//! ```

use proofnum::Table;
use proofnum::{
    Dfpn, DfpnConfig, Game, Limits, MoveList, Outcome, Player, RepetitionRule, Status, Value,
};

/// The eight lines of three, as bit masks over cells 0..8 (row-major).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// One board: a bit mask of cells per player.
#[derive(Clone, Default)]
struct TicTacToe {
    marks: [u16; 2],
    to_move: usize,
}

impl TicTacToe {
    fn mover(&self) -> Player {
        if self.to_move == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Game for TicTacToe {
    /// A cell index, 0..9.
    type Move = u8;

    /// Marks only accumulate: no position can repeat.
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Acyclic;

    fn side_to_move(&self) -> Player {
        self.mover()
    }

    fn hash(&self) -> u64 {
        // Exact and unique: 18 bits of marks and the side to move.
        (self.marks[0] as u64) | (self.marks[1] as u64) << 9 | (self.to_move as u64) << 18
    }

    fn outcome(&self) -> Outcome {
        let opponent = self.marks[1 - self.to_move];
        if LINES.iter().copied().any(|line| (opponent & line) == line) {
            Outcome::Loss // the player who just moved made a line
        } else if self.marks[0] | self.marks[1] == 0b111_111_111 {
            Outcome::Draw
        } else {
            Outcome::Unknown
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {
        let taken = self.marks[0] | self.marks[1];
        // Centre, corners, then edges: the strongest moves first help the search.
        for cell in [4, 0, 2, 6, 8, 1, 3, 5, 7] {
            if taken & (1 << cell) == 0 {
                moves.push(cell);
            }
        }
    }

    fn play(&mut self, cell: u8) {
        self.marks[self.to_move] |= 1 << cell;
        self.to_move ^= 1;
    }

    fn undo(&mut self, cell: u8) {
        self.to_move ^= 1;
        self.marks[self.to_move] &= !(1 << cell);
    }
}

fn show(game: &TicTacToe) -> String {
    let mut s = String::new();
    for row in 0..3 {
        for col in 0..3 {
            let bit = 1 << (row * 3 + col);
            s.push(if game.marks[0] & bit != 0 {
                'X'
            } else if game.marks[1] & bit != 0 {
                'O'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}

fn main() {
    let mut game = TicTacToe::default();
    for arg in std::env::args().skip(1) {
        let cell: u8 = match arg.parse() {
            Ok(c) if c < 9 => c,
            _ => {
                eprintln!("error: moves are cell numbers 0..8, got {arg:?}");
                std::process::exit(2);
            }
        };
        if (game.marks[0] | game.marks[1]) & (1 << cell) != 0 || game.outcome() != Outcome::Unknown
        {
            eprintln!("error: cell {cell} cannot be played here");
            std::process::exit(2);
        }
        game.play(cell);
    }
    print!("{}", show(&game));

    // All memory comes from the caller. 1024 buckets (64 KiB) hold all of tic-tac-toe.
    let mut table_memory = vec![0u8; Table::required_bytes(1024)];
    let mut table = Table::new(&mut table_memory).expect("table memory");
    let (max_depth, max_moves) = (9, 9);
    let mut stack_memory = vec![0u8; Dfpn::<TicTacToe>::stack_bytes(max_depth, max_moves)];
    let mut dfpn = Dfpn::<TicTacToe>::new(
        &mut stack_memory,
        max_depth,
        max_moves,
        DfpnConfig::default(),
    )
    .expect("stack memory");

    let result = dfpn.solve_value(&mut game, &mut table, &mut Limits::default());
    let value = match result.value {
        Ok(v) => v,
        Err(reason) => {
            eprintln!("not solved: {reason}");
            std::process::exit(1);
        }
    };
    let mover = game.side_to_move();
    println!(
        "{mover:?} to move: {value:?} (MID calls {}, positions {})",
        result.stats.mid_calls, result.stats.nodes
    );

    // The principal line and an independent check of the proof, for the player who wins (or
    // for the side to move when it is a draw: the proof that it cannot win).
    let (attacker, claim) = match value {
        Value::Win => (mover, Status::Proven),
        Value::Loss => (mover.opponent(), Status::Proven),
        Value::Draw => (mover, Status::Disproven),
    };
    let mut line = [0u8; 9];
    let pv = dfpn.principal_variation(
        &mut game,
        attacker,
        &mut table,
        &mut line,
        &mut Limits::default(),
    );
    println!("principal variation (cells): {:?}", &line[..pv.len]);
    let mut memo = vec![0u64; 4096];
    let check = dfpn.verify(
        &mut game,
        attacker,
        claim,
        &mut table,
        &mut memo,
        &mut Limits::default(),
    );
    println!(
        "proof check: {:?} ({} positions walked, {} re-searched)",
        check.verdict, check.stats.nodes, check.stats.searches
    );
}
