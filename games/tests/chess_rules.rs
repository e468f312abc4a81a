//! The chess game's rules through the `Game` trait, against published perft figures.
//!
//! Perft counts the leaves of the legal move tree to a fixed depth; the figures below are the
//! standard ones of the chess programming community (the "Perft Results" page of the Chess
//! Programming Wiki: the start position, Kiwipete and positions 3 to 6), found by many
//! independent move generators. The walk goes through `generate_moves`, `play` and `undo` of
//! the trait, so the adapter (move packing, ordering, undo stack, hash restore) must lose and
//! invent no move. Leaves are also classified (captures, en passant, castling, promotions,
//! checks, mates) where the page gives those figures: checks are counted with our bitboard
//! `gives_check` at the parent, mates with the trait's `outcome`.

use cozy_chess::{Board, Piece};
use proofnum::{Game, MoveList, Outcome, Player};
use proofnum_games::chess::mate::MateWithin;
use proofnum_games::chess::{CheckSquares, Chess, Knowledge, MAX_MOVES, Move, gives_check};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_4_MIRRORED: &str =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// Leaf counts of a perft walk, by kind of the last move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    nodes: u64,
    captures: u64,
    en_passant: u64,
    castles: u64,
    promotions: u64,
    checks: u64,
    mates: u64,
}

fn moves_of(game: &Chess) -> Vec<Move> {
    let mut slots = [Move::default(); MAX_MOVES];
    let mut list = MoveList::new(&mut slots);
    game.generate_moves(&mut list);
    assert!(!list.overflowed());
    list.as_slice().to_vec()
}

fn perft(game: &mut Chess, depth: u32, counts: &mut Counts) {
    let moves = moves_of(game);
    let hash = game.hash();
    let before = game.board().clone();
    for mv in moves {
        if depth == 1 {
            classify(game.board(), mv, counts);
        }
        let peeked = game.peek(mv);
        game.play(mv);
        assert_eq!(peeked, (game.hash(), game.side_to_move()), "peek of {mv:?}");
        assert_eq!(
            game.hash(),
            Chess::new(game.board().clone()).hash(),
            "the hash after {mv:?} is the hash of the board"
        );
        if depth == 1 {
            counts.nodes += 1;
            if game.in_check() && game.outcome() == Outcome::Loss {
                counts.mates += 1;
            }
        } else {
            perft(game, depth - 1, counts);
        }
        game.undo(mv);
        assert_eq!(game.hash(), hash, "hash restored after {mv:?}");
    }
    assert_eq!(game.board(), &before, "position restored");
}

fn classify(board: &Board, mv: Move, counts: &mut Counts) {
    let cozy = mv.to_cozy();
    let us = board.side_to_move();
    let moved = board.piece_on(cozy.from).unwrap();
    let castle = moved == Piece::King && board.colors(us).has(cozy.to);
    let en_passant = moved == Piece::Pawn
        && cozy.from.file() != cozy.to.file()
        && !board.occupied().has(cozy.to);
    if castle {
        counts.castles += 1;
    } else if en_passant {
        counts.en_passant += 1;
        counts.captures += 1;
    } else if board.colors(!us).has(cozy.to) {
        counts.captures += 1;
    }
    if cozy.promotion.is_some() {
        counts.promotions += 1;
    }
    if gives_check(board, cozy) {
        counts.checks += 1;
    }
}

fn run(fen: &str, depth: u32, knowledge: Knowledge) -> Counts {
    let mut game = Chess::from_fen(fen).unwrap().with_knowledge(knowledge);
    let mut counts = Counts::default();
    perft(&mut game, depth, &mut counts);
    counts
}

/// Node counts only, with and without move ordering.
fn assert_nodes(fen: &str, expected: &[u64]) {
    for (depth, &nodes) in (1..).zip(expected) {
        for knowledge in [Knowledge::NONE, Knowledge::ALL] {
            assert_eq!(
                run(fen, depth, knowledge).nodes,
                nodes,
                "{fen} depth {depth} {knowledge:?}"
            );
        }
    }
}

#[test]
fn perft_start_position() {
    assert_nodes(START, &[20, 400, 8_902]);
    let d4 = run(START, 4, Knowledge::ALL);
    assert_eq!(
        d4,
        Counts {
            nodes: 197_281,
            captures: 1_576,
            checks: 469,
            mates: 8,
            ..Counts::default()
        }
    );
}

#[test]
fn perft_kiwipete_castling_en_passant() {
    assert_nodes(KIWIPETE, &[48, 2_039]);
    let d3 = run(KIWIPETE, 3, Knowledge::ALL);
    assert_eq!(
        d3,
        Counts {
            nodes: 97_862,
            captures: 17_102,
            en_passant: 45,
            castles: 3_162,
            promotions: 0,
            checks: 993,
            mates: 1,
        }
    );
}

#[test]
fn perft_position_3_en_passant_and_pins() {
    assert_nodes(POSITION_3, &[14, 191, 2_812]);
    let d4 = run(POSITION_3, 4, Knowledge::ALL);
    assert_eq!(
        d4,
        Counts {
            nodes: 43_238,
            captures: 3_348,
            en_passant: 123,
            checks: 1_680,
            mates: 17,
            ..Counts::default()
        }
    );
}

#[test]
fn perft_position_4_promotions_both_colours() {
    for fen in [POSITION_4, POSITION_4_MIRRORED] {
        assert_nodes(fen, &[6, 264]);
        let d3 = run(fen, 3, Knowledge::ALL);
        assert_eq!(
            d3,
            Counts {
                nodes: 9_467,
                captures: 1_021,
                en_passant: 4,
                castles: 0,
                promotions: 120,
                checks: 38,
                mates: 22,
            },
            "{fen}"
        );
    }
}

#[test]
fn perft_positions_5_and_6() {
    assert_nodes(POSITION_5, &[44, 1_486, 62_379]);
    assert_nodes(POSITION_6, &[46, 2_079, 89_890]);
}

/// The deeper figures: about a minute in release mode (`cargo test --release -p
/// proofnum-games --test chess_rules -- --ignored`).
#[test]
#[ignore]
fn perft_deep() {
    assert_eq!(run(START, 5, Knowledge::ALL).nodes, 4_865_609);
    assert_eq!(run(KIWIPETE, 4, Knowledge::ALL).nodes, 4_085_603);
    assert_eq!(run(POSITION_3, 5, Knowledge::ALL).nodes, 674_624);
    assert_eq!(run(POSITION_4, 4, Knowledge::ALL).nodes, 422_333);
    assert_eq!(run(POSITION_5, 4, Knowledge::ALL).nodes, 2_103_487);
    assert_eq!(run(POSITION_6, 4, Knowledge::ALL).nodes, 3_894_594);
}

/// `gives_check` and `CheckSquares` (a destination checks when any of its promotions does)
/// against playing the move and asking cozy-chess, for every move of every position of small
/// perft trees (all the special moves occur in them).
#[test]
fn gives_check_agrees_with_playing_the_move() {
    fn walk(board: &Board, depth: u32, tested: &mut u64) {
        let check_squares = CheckSquares::new(board);
        board.generate_moves(|set| {
            let checking = check_squares.checking(board, &set);
            let mut played_checks = cozy_chess::BitBoard::EMPTY;
            for mv in set {
                let mut after = board.clone();
                after.play_unchecked(mv);
                assert_eq!(
                    gives_check(board, mv),
                    !after.checkers().is_empty(),
                    "{board} {mv}"
                );
                if !after.checkers().is_empty() {
                    played_checks |= mv.to.bitboard();
                }
                *tested += 1;
                if depth > 1 {
                    walk(&after, depth - 1, tested);
                }
            }
            assert_eq!(
                checking, played_checks,
                "{board} {:?} from {}",
                set.piece, set.from
            );
            false
        });
    }
    let mut tested = 0;
    for fen in [
        START,
        KIWIPETE,
        POSITION_3,
        POSITION_4,
        POSITION_4_MIRRORED,
        POSITION_5,
        POSITION_6,
    ] {
        walk(
            &Chess::from_fen(fen).unwrap().board().clone(),
            3,
            &mut tested,
        );
    }
    assert!(tested > 100_000, "{tested}");
}

/// Checks-only mode: the attacker's list is exactly its checking moves, the defender's every
/// legal move.
#[test]
fn checks_only_lists_the_attackers_checks_and_every_defence() {
    for fen in [KIWIPETE, POSITION_4, POSITION_5, POSITION_6] {
        let plain = Chess::from_fen(fen).unwrap();
        let attacker = plain.side_to_move();
        let mut game = plain.clone().with_checks_only(attacker);
        let checks: Vec<Move> = plain
            .legal_moves()
            .into_iter()
            .filter(|m| gives_check(plain.board(), m.to_cozy()))
            .collect();
        let mut listed = moves_of(&game);
        listed.sort();
        let mut expected = checks.clone();
        expected.sort();
        assert_eq!(listed, expected, "{fen}");
        // The defender, after any move of the plain game, keeps every legal move.
        for mv in plain.legal_moves() {
            game.play(mv);
            assert_eq!(moves_of(&game).len(), game.legal_moves().len());
            game.undo(mv);
        }
    }
}

#[test]
fn players_are_colours() {
    let game = Chess::startpos();
    assert_eq!(game.side_to_move(), Player::First);
    let black = Chess::from_fen(POSITION_4_MIRRORED).unwrap();
    assert_eq!(black.side_to_move(), Player::Second);
}

#[test]
fn fen_input_errors_and_round_trip() {
    // Four fields (EPD) default the clocks.
    let game = Chess::from_fen("8/8/8/8/8/8/6k1/4K2R w K -").unwrap();
    assert_eq!(game.fen(), "8/8/8/8/8/8/6k1/4K2R w K - 0 1");
    assert_eq!(Chess::from_fen(KIWIPETE).unwrap().fen(), KIWIPETE);
    // Two or three fields (a position written by hand): no castling, no en passant.
    for (short, full) in [
        ("3Q4/5K2/8/8/8/8/8/4k3 b", "3Q4/5K2/8/8/8/8/8/4k3 b - - 0 1"),
        ("4k3/8/8/8/8/8/8/4K2R w K", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        ("4k3/8/8/8/8/8/8/4K2R  w ", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),
    ] {
        assert_eq!(Chess::from_fen(short).unwrap().fen(), full, "{short:?}");
    }
    let one = Chess::from_fen("4k3/8/8/8/8/8/8/4K2R").unwrap_err();
    assert!(
        one.reason
            .contains("1 field; expected 2 to 6 (pieces, side to move"),
        "{}",
        one.reason
    );
    for bad in [
        "",
        "8/8/8/8/8/8/8/8 w - - 0 1", // no kings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", // side
        "4k3/8/8/8/8/8/8/4K2R w Q - 0 1", // castling without the rook
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 1 extra",
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1", // the side not to move in check
        "8/8/8/8",
    ] {
        let err = Chess::from_fen(bad).unwrap_err();
        assert_eq!(err.fen, bad);
        assert!(!err.to_string().is_empty());
    }
}

/// Positions cozy-chess's FEN parser accepts that standard chess cannot reach, refused when
/// parsed with a reason that names the fault:
/// - kings on adjacent squares (in a rank, a file or a diagonal), whichever side is to move:
///   the side not to move is in check from the king, a check cozy-chess does not look for; its
///   move generator then panicked (`proofnum chess "8/8/8/3kK3/8/8/8/R7 w - - 0 1"`);
/// - castling rights for a king or rook off its starting square (Chess960's, which standard
///   FEN cannot say and UCI writes as a plain king move: `d1c1` for both O-O-O and Kc1).
///
/// One square between the kings, and the standard castling rights, are fine.
#[test]
fn impossible_positions_cozy_chess_accepts_are_refused_when_parsed() {
    for (fen, reason) in [
        (
            "8/8/8/3kK3/8/8/8/R7 w - - 0 1",
            "kings stand on adjacent squares (e5 and d5)",
        ),
        (
            "8/8/8/3kK3/8/8/8/R7 b - - 0 1",
            "kings stand on adjacent squares",
        ),
        (
            "8/8/8/8/8/8/1k6/K7 w - - 0 1",
            "kings stand on adjacent squares (a1 and b2)",
        ),
        ("8/8/8/8/8/8/k7/K7 b - -", "kings stand on adjacent squares"),
        (
            "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
            "castling rights for White need its king on e1",
        ),
        ("4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1", "the rook on a1 or h1"),
        (
            "r4k2/8/8/8/8/8/8/4K3 b q - 0 1",
            "castling rights for Black need its king on e8",
        ),
    ] {
        let err = Chess::from_fen(fen).unwrap_err();
        assert!(err.reason.contains(reason), "{fen}: {}", err.reason);
    }
    for fen in [
        "8/8/8/2k1K3/8/8/8/R7 w - - 0 1",
        "8/8/8/8/8/k7/8/K7 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ] {
        assert!(Chess::from_fen(fen).is_ok(), "{fen}");
    }
}

/// Move numbers go on past 65535, the largest fullmove number FEN gives cozy-chess (its
/// counter stops there; ours overflowed, a panic in debug builds).
#[test]
fn a_line_from_the_last_move_number_goes_on_counting() {
    let mut chess = Chess::from_fen("3r2k1/8/8/8/8/8/5PPP/7K b - - 0 65535").unwrap();
    let king = chess.parse_move("Kf8").unwrap();
    chess.play(king);
    let pawn = chess.parse_move("h3").unwrap();
    chess.undo(king);
    assert_eq!(chess.san_line(&[king, pawn]), "65535... Kf8 65536. h3");
}

#[test]
fn move_text_uci_and_san() {
    let game = Chess::from_fen(KIWIPETE).unwrap();
    let castle = game.parse_move("e1g1").unwrap();
    assert_eq!(game.parse_move("O-O").unwrap(), castle);
    assert_eq!(game.uci(castle), "e1g1");
    assert_eq!(game.san(castle), "O-O");
    let capture = game.parse_move("Nxf7").unwrap();
    assert_eq!(game.uci(capture), "e5f7");
    assert!(game.parse_move("e1e2").is_err()); // occupied by the bishop
    assert!(game.parse_move("zz").is_err());
    let promo = Chess::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let mv = promo.parse_move("b7b8q").unwrap();
    assert_eq!(promo.san(mv), "b8=Q+");
    assert_eq!(
        promo.parse_move("b8=N").unwrap().promotion(),
        Some(Piece::Knight)
    );
    let fools =
        Chess::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").unwrap();
    let mate = fools.parse_move("d8h4").unwrap();
    assert_eq!(fools.san_line(&[mate]), "2... Qh4#");
}

/// `peek` must tell what `play` then `hash` and `side_to_move` say, in every game built on
/// the board: here with the fifty-move rule's clock in the hash (captures, pawn moves and
/// castling reset it or not) and in `MateWithin`, whose hash holds the attacker's budget.
#[test]
fn peek_agrees_with_play_with_the_clock_and_the_budget() {
    fn walk<G: Game<Move = Move>>(game: &mut G, depth: u32) -> u64 {
        let mut slots = [Move::default(); MAX_MOVES];
        let mut list = MoveList::new(&mut slots);
        game.generate_moves(&mut list);
        let moves = list.as_slice().to_vec();
        let mut leaves = 0;
        for mv in moves {
            let peeked = game.peek(mv);
            game.play(mv);
            assert_eq!(peeked, (game.hash(), game.side_to_move()), "peek of {mv:?}");
            leaves += if depth > 1 { walk(game, depth - 1) } else { 1 };
            game.undo(mv);
        }
        leaves
    }
    for fen in [
        KIWIPETE,
        POSITION_4,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 98 80",
    ] {
        let mut chess = Chess::from_fen(fen).unwrap().with_fifty_move_rule(true);
        assert!(walk(&mut chess, 3) > 1000);
        let mut within = MateWithin::new(Chess::from_fen(fen).unwrap(), Player::First, 2);
        assert!(walk(&mut within, 3) > 1000);
    }
}

/// True when the side to move is checkmated (cozy-chess alone).
fn checkmated(board: &Board) -> bool {
    !board.generate_moves(|_| true) && !board.checkers().is_empty()
}

/// Every legal move of `board`, by cozy-chess alone.
fn cozy_moves(board: &Board) -> Vec<cozy_chess::Move> {
    let mut moves = Vec::new();
    board.generate_moves(|set| {
        moves.extend(set);
        false
    });
    moves
}

/// `MateWithin` settles the defender's move before the attacker's last one in `outcome`
/// (the attacker wins when every reply allows a mate in one) instead of leaving it to the
/// search: checked against a brute force over cozy-chess's moves (every reply, every attacker
/// answer, checkmate tested on the board), with the fifty-move rule on and off. The positions
/// are every attacker first move in the sample's mates in two (the key moves give wins, the
/// rest mostly not) and in two against a lone king (whose `outcome` is `CannotWin`, not
/// `Unknown`: rook and queen, mates in two and one) and, with the clock near 100, the same
/// ones where the rule draws first.
#[test]
fn mate_within_settles_the_last_reply_as_brute_force_does() {
    let suite = include_str!("../suites/chess-mates-broad.epd");
    let lone_kings = ["k7/8/1K6/8/8/8/8/7R w - -", "7k/8/6K1/8/8/8/8/1Q6 w - -"];
    let positions = suite
        .lines()
        .filter(|l| l.contains("bm #2;"))
        .chain(lone_kings);
    let (mut wins, mut escapes, mut lone_wins) = (0, 0, 0);
    for line in positions {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let lone = lone_kings.contains(&line);
        for clock in [0, 98] {
            let fen = format!("{} {clock} 40", fields.join(" "));
            let fifty = clock > 0;
            let start = Chess::from_fen(&fen).unwrap().with_fifty_move_rule(fifty);
            let attacker = start.side_to_move();
            for first in moves_of(&start) {
                let mut chess = start.clone();
                chess.play(first);
                let board = chess.board().clone();
                let replies = cozy_moves(&board);
                if replies.is_empty() {
                    continue; // mate or stalemate: chess's own outcome, not the settlement
                }
                let brute = replies.iter().all(|&reply| {
                    let mut after = board.clone();
                    after.play_unchecked(reply);
                    !(fifty && after.halfmove_clock() >= 100)
                        && cozy_moves(&after).into_iter().any(|mate| {
                            let mut end = after.clone();
                            end.play_unchecked(mate);
                            checkmated(&end)
                        })
                });
                let within = MateWithin::new(chess, attacker, 1);
                let outcome = within.outcome();
                assert_eq!(
                    outcome == Outcome::Loss,
                    brute,
                    "{fen} after {first:?}: MateWithin says {outcome:?}"
                );
                if brute {
                    wins += 1;
                    lone_wins += u32::from(lone);
                } else {
                    escapes += 1;
                }
            }
        }
    }
    // Both answers, the lone kings' mates included (the counts are what the positions hold).
    assert!(
        wins >= 5 && escapes > 100 && lone_wins >= 2,
        "{wins} wins ({lone_wins} against a lone king), {escapes} escapes"
    );
}
