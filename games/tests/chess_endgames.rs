//! Endgames with known answers, checked against a retrograde analysis written here from the
//! rules alone (no cozy-chess, no proofnum): king and queen or king and rook against a lone king
//! are won for the stronger side to move in every legal position, with longest mates of 10 and
//! 16 moves (the published figures, which the analysis reproduces first); king and bishop or
//! king and knight against a lone king never mate at all (no legal position is checkmate).
//!
//! proofnum's mate distances on random positions must equal the analysis' distance to mate where
//! they are reported exact, and never be below it where they are reported as upper bounds.

use proofnum::Player;
use proofnum::Status;
use proofnum_games::chess::mate::{Exactness, MateConfig, solve_mate};
use proofnum_games::chess::{Chess, Knowledge};

/// The stronger side's one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Piece {
    fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
        }
    }
}

/// Squares 0..64, a1 = 0, b1 = 1, ..., h8 = 63.
fn file(s: usize) -> i32 {
    (s % 8) as i32
}
fn rank(s: usize) -> i32 {
    (s / 8) as i32
}
fn square(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn adjacent(a: usize, b: usize) -> bool {
    a != b && (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];
const STRAIGHT: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const DIAGONAL: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

fn directions(piece: Piece) -> &'static [(i32, i32)] {
    match piece {
        Piece::Queen => &KING_STEPS, // all eight directions, sliding
        Piece::Rook => &STRAIGHT,
        Piece::Bishop => &DIAGONAL,
        Piece::Knight => &KNIGHT_STEPS,
    }
}

/// The squares `piece` on `from` reaches, sliding pieces stopping at (and including) `blocker`.
fn reach(piece: Piece, from: usize, blocker: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for &(df, dr) in directions(piece) {
        let (mut f, mut r) = (file(from), rank(from));
        while let Some(s) = square(f + df, r + dr) {
            out.push(s);
            if piece == Piece::Knight || s == blocker {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// One position: white king, black king, the white piece, White to move or not.
#[derive(Clone, Copy, Debug)]
struct Position {
    wk: usize,
    bk: usize,
    x: usize,
}

impl Position {
    fn index(self) -> usize {
        self.wk * 4096 + self.bk * 64 + self.x
    }

    fn from_index(i: usize) -> Position {
        Position {
            wk: i / 4096,
            bk: i / 64 % 64,
            x: i % 64,
        }
    }

    fn distinct(self) -> bool {
        self.wk != self.bk && self.wk != self.x && self.bk != self.x && !adjacent(self.wk, self.bk)
    }

    /// The white piece attacks `target` (the black king is not in the way: it is the target
    /// or has left).
    fn piece_attacks(self, piece: Piece, target: usize) -> bool {
        reach(piece, self.x, self.wk).contains(&target) && target != self.wk
    }

    fn black_in_check(self, piece: Piece) -> bool {
        self.piece_attacks(piece, self.bk)
    }

    /// Black's moves: the king's destinations; `None` for a capture of the piece (a draw).
    fn black_moves(self, piece: Piece) -> Vec<Option<Position>> {
        let mut out = Vec::new();
        for &(df, dr) in &KING_STEPS {
            let Some(to) = square(file(self.bk) + df, rank(self.bk) + dr) else {
                continue;
            };
            if to == self.wk || adjacent(to, self.wk) {
                continue;
            }
            if to == self.x {
                out.push(None); // takes the piece, not protected (the king is not adjacent)
                continue;
            }
            let after = Position { bk: to, ..self };
            if !after.piece_attacks(piece, to) {
                out.push(Some(after));
            }
        }
        out
    }

    /// White's moves (to legal Black-to-move positions).
    fn white_moves(self, piece: Piece) -> Vec<Position> {
        let mut out = Vec::new();
        for &(df, dr) in &KING_STEPS {
            if let Some(to) = square(file(self.wk) + df, rank(self.wk) + dr)
                && to != self.x
                && to != self.bk
                && !adjacent(to, self.bk)
            {
                out.push(Position { wk: to, ..self });
            }
        }
        for &(df, dr) in directions(piece) {
            let (mut f, mut r) = (file(self.x), rank(self.x));
            while let Some(to) = square(f + df, r + dr) {
                if to == self.wk || to == self.bk {
                    break;
                }
                out.push(Position { x: to, ..self });
                if piece == Piece::Knight {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    fn fen(self, piece: Piece, white_to_move: bool) -> String {
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..8 {
                let s = (r * 8 + f) as usize;
                let c = if s == self.wk {
                    Some('K')
                } else if s == self.bk {
                    Some('k')
                } else if s == self.x {
                    Some(piece.letter())
                } else {
                    None
                };
                match c {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if white_to_move { 'w' } else { 'b' };
        format!("{} {side} - - 0 1", rows.join("/"))
    }
}

const UNKNOWN: u8 = u8::MAX;

/// Distances to mate in White moves: `white[i]` with White to move, `black[i]` with Black to
/// move (0: Black is mated); `UNKNOWN` where White does not win (or the position is illegal).
struct Retrograde {
    white: Vec<u8>,
    black: Vec<u8>,
    white_legal: Vec<bool>,
    black_legal: Vec<bool>,
}

fn retrograde(piece: Piece) -> Retrograde {
    const N: usize = 64 * 64 * 64;
    let positions: Vec<Position> = (0..N).map(Position::from_index).collect();
    let black_legal: Vec<bool> = positions.iter().map(|p| p.distinct()).collect();
    let white_legal: Vec<bool> = positions
        .iter()
        .map(|p| p.distinct() && !p.black_in_check(piece))
        .collect();
    let white_moves: Vec<Vec<usize>> = positions
        .iter()
        .zip(&white_legal)
        .map(|(p, &legal)| {
            if legal {
                p.white_moves(piece).iter().map(|c| c.index()).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    let black_moves: Vec<Vec<Option<usize>>> = positions
        .iter()
        .zip(&black_legal)
        .map(|(p, &legal)| {
            if legal {
                p.black_moves(piece)
                    .iter()
                    .map(|c| c.map(Position::index))
                    .collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut white = vec![UNKNOWN; N];
    let mut black = vec![UNKNOWN; N];
    for i in 0..N {
        if black_legal[i] && black_moves[i].is_empty() && positions[i].black_in_check(piece) {
            black[i] = 0; // checkmate (no moves without check: stalemate, a draw)
        }
    }
    for n in 1u8.. {
        let mut changed = false;
        for i in 0..N {
            if white_legal[i] && white[i] == UNKNOWN && white_moves[i].iter().any(|&c| black[c] < n)
            {
                white[i] = n;
                changed = true;
            }
        }
        for i in 0..N {
            if black_legal[i] && black[i] == UNKNOWN && !black_moves[i].is_empty() {
                let worst = black_moves[i]
                    .iter()
                    .map(|c| c.map_or(UNKNOWN, |c| white[c]))
                    .max()
                    .unwrap();
                if worst != UNKNOWN {
                    black[i] = worst;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Retrograde {
        white,
        black,
        white_legal,
        black_legal,
    }
}

/// A few random legal positions (a fixed xorshift sequence), with the side to move, whose
/// distance to mate (or none) is at most `max_distance`.
fn sample_within(
    retro: &Retrograde,
    count: usize,
    seed: u64,
    max_distance: u8,
) -> Vec<(Position, bool)> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < count {
        let i = (next() % (64 * 64 * 64)) as usize;
        let white_to_move = next() % 2 == 0;
        let legal = if white_to_move {
            retro.white_legal[i]
        } else {
            retro.black_legal[i]
        };
        let distance = if white_to_move {
            retro.white[i]
        } else {
            retro.black[i]
        };
        if legal && (distance == UNKNOWN || distance <= max_distance) {
            out.push((Position::from_index(i), white_to_move));
        }
    }
    out
}

/// Random legal positions, any distance.
fn sample(retro: &Retrograde, count: usize, seed: u64) -> Vec<(Position, bool)> {
    sample_within(retro, count, seed, UNKNOWN)
}

/// proofnum's mate distances on `count` random positions against the analysis, each search
/// capped at `max_nodes` positions (a deterministic budget): an answer is never wrong, and at
/// least `min_exact` distances are exact.
fn check_distances(
    piece: Piece,
    retro: &Retrograde,
    count: usize,
    seed: u64,
    max_distance: u8,
    max_nodes: u64,
    min_exact: usize,
) {
    let config = MateConfig {
        table_bytes: 16 << 20,
        max_nodes,
        ..MateConfig::default()
    };
    let (mut exact, mut bounds, mut unknown) = (0, 0, 0);
    for (p, white_to_move) in sample_within(retro, count, seed, max_distance) {
        let fen = p.fen(piece, white_to_move);
        let truth = if white_to_move {
            retro.white[p.index()]
        } else {
            retro.black[p.index()]
        };
        let mut chess = Chess::from_fen(&fen).unwrap();
        let report = solve_mate(&mut chess, Player::First, &config);
        assert_eq!(chess.fen(), fen, "position restored");
        match report.status {
            Status::Proven => assert_ne!(truth, UNKNOWN, "{fen}: proven, but no win"),
            Status::Disproven => assert_eq!(truth, UNKNOWN, "{fen}: disproven, but won"),
            Status::Unknown(_) => {
                unknown += 1;
                continue;
            }
        }
        let Some(found) = report.mate_in else {
            unknown += 1;
            continue;
        };
        if truth == UNKNOWN {
            continue;
        }
        let found = found as u8;
        match report.exactness {
            Exactness::Exact => {
                assert_eq!(found, truth, "{fen}: exact mate in {found}, true {truth}");
                if report.line_is_optimal && truth > 0 {
                    assert_eq!(
                        report.line.len(),
                        2 * usize::from(truth) - usize::from(white_to_move)
                    );
                }
                exact += 1;
            }
            _ => {
                assert!(
                    found >= truth,
                    "{fen}: bound {found} below the true {truth}"
                );
                bounds += 1;
            }
        }
    }
    println!(
        "{piece:?}: {count} positions, {exact} exact, {bounds} upper bounds, {unknown} unknown"
    );
    assert!(
        exact >= min_exact,
        "{exact} exact, {bounds} bounds, {unknown} unknown"
    );
}

fn check_facts(piece: Piece, longest: u8) {
    let retro = retrograde(piece);
    let mut max = 0;
    for i in 0..retro.white.len() {
        if retro.white_legal[i] {
            assert_ne!(
                retro.white[i],
                UNKNOWN,
                "{:?} not won",
                Position::from_index(i)
            );
            max = max.max(retro.white[i]);
        }
    }
    assert_eq!(max, longest, "{piece:?}: longest mate");
}

#[test]
fn king_and_queen_mate_from_every_position_within_ten_moves() {
    check_facts(Piece::Queen, 10);
}

#[test]
fn king_and_rook_mate_from_every_position_within_sixteen_moves() {
    check_facts(Piece::Rook, 16);
}

#[test]
fn king_and_minor_piece_never_mate_a_lone_king() {
    for piece in [Piece::Bishop, Piece::Knight] {
        let retro = retrograde(piece);
        assert!(retro.black.iter().all(|&d| d == UNKNOWN), "{piece:?} mates");
        assert!(retro.white.iter().all(|&d| d == UNKNOWN), "{piece:?} mates");
        // proofnum never claims a win there, with its material rule or without it.
        for (p, white_to_move) in sample(&retro, 200, 0x9E37_79B9) {
            let fen = p.fen(piece, white_to_move);
            let with = Chess::from_fen(&fen).unwrap();
            let mut with = with;
            let config = MateConfig {
                table_bytes: 1 << 16,
                ..MateConfig::default()
            };
            let report = solve_mate(&mut with, Player::First, &config);
            assert_eq!(report.status, Status::Disproven, "{fen}");
        }
    }
}

#[test]
fn king_and_minor_piece_without_the_material_rule_is_never_proven() {
    // The search must work the draw out (repetitions, captures, stalemates) or stop: never prove.
    let retro = retrograde(Piece::Knight);
    for (p, white_to_move) in sample(&retro, 10, 7) {
        let fen = p.fen(Piece::Knight, white_to_move);
        let mut chess = Chess::from_fen(&fen)
            .unwrap()
            .with_knowledge(Knowledge::ALL.without(Knowledge::CANNOT_WIN));
        let config = MateConfig {
            table_bytes: 4 << 20,
            max_nodes: 200_000,
            ..MateConfig::default()
        };
        let report = solve_mate(&mut chess, Player::First, &config);
        assert_ne!(report.status, Status::Proven, "{fen}");
    }
}

/// Ten positions each within a million positions searched per position; the KRK positions
/// among those with mates of at most eight moves (longer KRK mates mostly need more than that
/// budget: they count as unknown, never as wrong).
#[test]
fn queen_and_rook_mate_distances_match_the_retrograde_analysis() {
    check_distances(
        Piece::Queen,
        &retrograde(Piece::Queen),
        10,
        1,
        UNKNOWN,
        1_000_000,
        3,
    );
    check_distances(
        Piece::Rook,
        &retrograde(Piece::Rook),
        10,
        2,
        8,
        1_000_000,
        3,
    );
}

/// More positions, any distance, with larger budgets (a few minutes): `cargo test --release -p
/// proofnum-games --test chess_endgames -- --ignored`.
#[test]
#[ignore]
fn queen_and_rook_mate_distances_many_positions() {
    check_distances(
        Piece::Queen,
        &retrograde(Piece::Queen),
        40,
        11,
        UNKNOWN,
        3_000_000,
        20,
    );
    check_distances(
        Piece::Rook,
        &retrograde(Piece::Rook),
        40,
        12,
        UNKNOWN,
        3_000_000,
        5,
    );
}
