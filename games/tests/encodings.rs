//! Every bundled game's exact encoding (`Game::encode`, what certificates and the verification
//! walk tell positions apart by) agrees with its hash on the positions of random games: equal
//! encodings exactly where the hashes are equal. For Connect Four and tic-tac-toe, whose
//! hashes are exact, that is the whole contract; for the Zobrist hashes of UTTT, Atari Go and
//! chess, it shows the encoding covers what the hash covers (pieces, side, castling, en
//! passant, the fifty-move clock when that rule is on, the checks-only mode) and nothing else.

use std::collections::HashMap;

use proofnum::{ENCODING_CAPACITY, Game, MoveList};
use proofnum_games::atarigo::AtariGo;
use proofnum_games::chess::mate::MateWithin as ChessMateWithin;
use proofnum_games::chess::{Chess, Rules};
use proofnum_games::connect4::ConnectFour;
use proofnum_games::shogi::Tsume;
use proofnum_games::shogi::mate::MateWithin as ShogiMateWithin;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_games::uttt::Uttt;
use proofnum_test_support::Rng;

/// Plays `games` random games of up to `plies` plies from `start` and checks, over every
/// position met, that encodings and hashes pair one to one. Returns the positions seen.
fn one_to_one<G: Game + Clone>(start: G, games: usize, plies: usize, seed: u64) -> usize
where
    G::Move: Copy + Default,
{
    let mut rng = Rng::new(seed);
    let mut by_encoding: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut by_hash: HashMap<u64, Vec<u8>> = HashMap::new();
    let mut moves = vec![G::Move::default(); 512];
    for _ in 0..games {
        let mut g = start.clone();
        for _ in 0..plies {
            let mut out = [0u8; ENCODING_CAPACITY];
            let n = g.encode(&mut out).expect("the game gives an encoding");
            assert!(n <= ENCODING_CAPACITY);
            let encoding = out[..n].to_vec();
            let hash = g.hash();
            let seen = *by_encoding.entry(encoding.clone()).or_insert(hash);
            assert_eq!(seen, hash, "one encoding, two hashes: {encoding:?}");
            let seen = by_hash.entry(hash).or_insert(encoding.clone());
            assert_eq!(*seen, encoding, "one hash, two encodings");
            if g.outcome() != proofnum::Outcome::Unknown
                && g.outcome() != proofnum::Outcome::CannotWin
                && g.outcome() != proofnum::Outcome::CannotLose
            {
                break;
            }
            let mut list = MoveList::new(&mut moves);
            g.generate_moves(&mut list);
            let n = list.len();
            if n == 0 {
                break;
            }
            let mv = list.as_slice()[rng.index(n)];
            g.play(mv);
        }
    }
    by_encoding.len()
}

#[test]
fn connect_four() {
    assert!(one_to_one(ConnectFour::new(), 2000, 42, 1) > 20_000);
}

#[test]
fn tic_tac_toe() {
    assert!(one_to_one(TicTacToe::default(), 2000, 9, 2) > 3_000);
}

#[test]
fn ultimate_tic_tac_toe() {
    assert!(one_to_one(Uttt::new(), 500, 81, 3) > 10_000);
}

#[test]
fn atari_go() {
    let n = one_to_one(AtariGo::<5>::empty(), 1000, 25, 4);
    assert!(n > 3_000, "{n} positions");
}

#[test]
fn chess_with_every_rule() {
    // Castling, en passant and promotions come up in random games from these.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "8/P1k5/8/3pP3/8/8/5Kp1/8 w - d6 0 1",
    ];
    for (i, fen) in fens.into_iter().enumerate() {
        let chess = Chess::from_fen(fen).unwrap();
        assert!(
            one_to_one(chess.clone(), 300, 60, 10 + i as u64) > 5_000,
            "{fen}"
        );
        let fifty = chess.with_rules(Rules {
            fifty_move_rule: true,
            ..Rules::default()
        });
        assert!(one_to_one(fifty, 100, 60, 20 + i as u64) > 2_000, "{fen}");
    }
}

#[test]
fn chess_positions_that_differ_in_one_right_only_encode_apart() {
    fn encoding(chess: &Chess) -> Vec<u8> {
        let mut out = [0u8; ENCODING_CAPACITY];
        let n = chess.encode(&mut out).unwrap();
        out[..n].to_vec()
    }
    // The same pieces; each FEN differs from the first in one thing the value depends on.
    let fens = [
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w Qkq d6 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kkq d6 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQq d6 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQk d6 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R b KQkq - 0 1",
    ];
    let games: Vec<Chess> = fens.iter().map(|f| Chess::from_fen(f).unwrap()).collect();
    for (i, a) in games.iter().enumerate() {
        for (j, b) in games.iter().enumerate().skip(i + 1) {
            assert_ne!(encoding(a), encoding(b), "{} / {}", fens[i], fens[j]);
            assert_ne!(a.hash(), b.hash(), "{} / {}", fens[i], fens[j]);
        }
    }
    // The halfmove clock counts under the fifty-move rule only; so does the checks-only mode.
    let clock = |fen: &str, fifty_move_rule| {
        let rules = Rules {
            fifty_move_rule,
            ..Rules::default()
        };
        encoding(&Chess::from_fen(fen).unwrap().with_rules(rules))
    };
    let (early, late) = (
        "8/8/8/4k3/8/8/8/4K2R w - - 3 40",
        "8/8/8/4k3/8/8/8/4K2R w - - 9 40",
    );
    assert_eq!(clock(early, false), clock(late, false));
    assert_ne!(clock(early, true), clock(late, true));
    let checks_only = Chess::from_fen(early).unwrap().with_rules(Rules {
        checks_only: Some(proofnum::Player::First),
        ..Rules::default()
    });
    assert_ne!(encoding(&checks_only), clock(early, false));
}

/// The bytes `encode` writes.
fn bytes(encode: impl FnOnce(&mut [u8]) -> Option<usize>) -> Vec<u8> {
    let mut out = [0u8; ENCODING_CAPACITY];
    let n = encode(&mut out).expect("the game gives it");
    out[..n].to_vec()
}

/// Plays `games` random games of up to `plies` plies from `start` and checks, over every
/// position met, that class encodings (`Game::encode_class`, what certificates and the
/// verification walk tell dominance classes apart by) and class hashes pair one to one, and
/// that `encode` is the class encoding with the material added as `with_material` says.
/// Returns the classes seen.
fn classes_one_to_one<G: Game + Clone>(
    start: G,
    games: usize,
    plies: usize,
    seed: u64,
    with_material: impl Fn(&G, &[u8], &[u8]) -> bool,
) -> usize
where
    G::Move: Copy + Default,
{
    let mut rng = Rng::new(seed);
    let mut by_encoding: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut by_hash: HashMap<u64, Vec<u8>> = HashMap::new();
    let mut moves = vec![G::Move::default(); 1024];
    for _ in 0..games {
        let mut g = start.clone();
        for _ in 0..plies {
            assert!(g.dominance());
            let class = bytes(|out| g.encode_class(out));
            let position = bytes(|out| g.encode(out));
            assert!(
                with_material(&g, &class, &position),
                "{class:?} / {position:?}"
            );
            let hash = g.class_hash();
            let seen = *by_encoding.entry(class.clone()).or_insert(hash);
            assert_eq!(
                seen, hash,
                "one class encoding, two class hashes: {class:?}"
            );
            let seen = by_hash.entry(hash).or_insert(class.clone());
            assert_eq!(*seen, class, "one class hash, two class encodings");
            let mut list = MoveList::new(&mut moves);
            g.generate_moves(&mut list);
            let n = list.len();
            if n == 0 || g.outcome() != proofnum::Outcome::Unknown {
                break;
            }
            let mv = list.as_slice()[rng.index(n)];
            g.play(mv);
        }
    }
    by_encoding.len()
}

/// The suite's first `n` problems' positions.
fn tsume_problems(n: usize) -> Vec<Tsume> {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/suites/tsume-open.jsonl");
    let text = std::fs::read_to_string(suite).unwrap();
    text.lines()
        .take(n)
        .map(|line| {
            let start = line.find("\"sfen\": \"").unwrap() + 9;
            let end = start + line[start..].find('"').unwrap();
            Tsume::from_sfen(&line[start..end]).unwrap()
        })
        .collect()
}

#[test]
fn shogi_classes_are_boards_and_hands_the_material() {
    // The class encoding is the encoding without its 14 hand bytes (1 to 14).
    let hands_out = |_: &Tsume, class: &[u8], position: &[u8]| {
        class[0] == position[0] && class[1..] == position[15..]
    };
    let mut classes = 0;
    for (i, tsume) in tsume_problems(40).into_iter().enumerate() {
        classes += classes_one_to_one(tsume, 40, 40, 30 + i as u64, hands_out);
    }
    assert!(classes > 5_000, "{classes} classes");
    // One board with two hands: one class, two positions; another board: another class.
    let board = "8k/9/9/9/9/9/9/9/K8 b";
    let (a, b, c) = (
        Tsume::from_sfen(&format!("{board} G 1")).unwrap(),
        Tsume::from_sfen(&format!("{board} 2G 1")).unwrap(),
        Tsume::from_sfen("7k1/9/9/9/9/9/9/9/K8 b G 1").unwrap(),
    );
    let class = |t: &Tsume| bytes(|out| t.encode_class(out));
    let position = |t: &Tsume| bytes(|out| Game::encode(t, out));
    assert_eq!(class(&a), class(&b));
    assert_ne!(position(&a), position(&b));
    assert_ne!(class(&a), class(&c));
}

#[test]
fn mate_within_classes_leave_the_budget_out() {
    // The class encoding is the encoding without its last four bytes, the budget.
    fn budget_last<G>(_: &G, class: &[u8], position: &[u8]) -> bool {
        position.len() == class.len() + 4 && position.starts_with(class)
    }
    let mut classes = 0;
    for (i, tsume) in tsume_problems(20).into_iter().enumerate() {
        let game = ShogiMateWithin::new(tsume, 7);
        classes += classes_one_to_one(game, 30, 14, 80 + i as u64, budget_last);
    }
    assert!(classes > 1_000, "shogi: {classes} classes");
    let chess = Chess::from_fen("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1");
    let game = ChessMateWithin::new(chess.unwrap(), proofnum::Player::First, 6);
    let classes = classes_one_to_one(game, 100, 12, 99, budget_last);
    assert!(classes > 500, "chess: {classes} classes");
}
