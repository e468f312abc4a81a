//! Mates with known answers, by hand: mates in one to three (their lines replayed on
//! cozy-chess's board, which must end in checkmate), positions without a mate (stalemate, a
//! perpetual check), checks-only mode (what it proves is a mate by checks; a mate that needs a
//! quiet move is not proven), and a mate already on the board.
//!
//! Where a position's answer is not obvious from the diagram, the comment says how it is known
//! (Stockfish 15.1 `go mate N` agreeing, besides the reasoning given).

use cozy_chess::{Board, GameStatus};
use proofnum::{Player, Status};
use proofnum_games::chess::mate::{
    Exactness, MateConfig, MateMemory, MateReport, solve_mate, solve_mate_in,
};
use proofnum_games::chess::{Chess, Move};

fn config() -> MateConfig {
    MateConfig {
        table_bytes: 4 << 20,
        max_nodes: 5_000_000,
        ..MateConfig::default()
    }
}

fn solve(fen: &str, checks_only: bool) -> (Chess, MateReport) {
    let mut chess = Chess::from_fen(fen).unwrap();
    let attacker = proofnum::Game::side_to_move(&chess);
    if checks_only {
        chess = chess.with_checks_only(attacker);
    }
    let report = solve_mate(&mut chess, attacker, &config());
    assert_eq!(chess.fen(), Chess::from_fen(fen).unwrap().fen(), "restored");
    (chess, report)
}

/// Replays `line` on cozy-chess's own board (illegal moves panic) and returns whether it ends in
/// checkmate, and whether every move of the side that moved first gave check.
fn replay(fen: &str, line: &[Move]) -> (bool, bool) {
    let mut board: Board = Chess::from_fen(fen).unwrap().board().clone();
    let mut all_checks = true;
    for (i, mv) in line.iter().enumerate() {
        board.play(mv.to_cozy());
        if i % 2 == 0 && board.checkers().is_empty() {
            all_checks = false;
        }
    }
    (board.status() == GameStatus::Won, all_checks)
}

fn assert_mate(fen: &str, n: u32, first: &str) {
    let (chess, report) = solve(fen, false);
    assert_eq!(report.status, Status::Proven, "{fen}");
    assert_eq!(report.mate_in, Some(n), "{fen}");
    assert_eq!(report.exactness, Exactness::Exact, "{fen}");
    assert!(report.line_is_optimal);
    assert_eq!(report.line.len() as u32, 2 * n - 1, "{fen}");
    assert_eq!(chess.uci(report.line[0]), first, "{fen}");
    assert!(replay(fen, &report.line).0, "{fen}: the line ends in mate");
}

#[test]
fn mates_in_one() {
    // Fool's mate: 1. f3 e5 2. g4, Black mates with Qh4.
    assert_mate(
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        1,
        "d8h4",
    );
    // The back rank: the king is walled in by its own pawns.
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8");
}

#[test]
fn mate_in_two_with_a_quiet_first_move() {
    // Morphy's problem: 1. Ra6! (not a check) bxa6 2. b7#; any bishop move 2. Rxa7#. No mate in
    // one: White has no check at all (a7 blocks the rook, the pawn attacks only a7 and c7).
    let fen = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
    assert_mate(fen, 2, "a1a6");
    // Checks only: White has no checking move, so no mate by checks: not proven.
    let (_, report) = solve(fen, true);
    assert_eq!(report.status, Status::Disproven);
}

#[test]
fn mates_in_three() {
    // Stockfish `go mate 3` agrees on both; 1... Qxe3+ 2. Kg2 Rg7+ 3. Kh2 Qg3# is all checks.
    assert_mate("1R6/5k2/8/3R1B2/3p2p1/6P1/P2P4/2B1K3 w - - 1 40", 3, "b8b6");
    let by_checks = "1nb1k1n1/7r/1ppp4/R2P3p/2p4P/2q1QK2/8/1Nb2BNR b - - 3 29";
    assert_mate(by_checks, 3, "c3e3");
    let (_, report) = solve(by_checks, true);
    assert_eq!(report.status, Status::Proven);
    assert_eq!(report.mate_in, Some(3));
    let (mated, all_checks) = replay(by_checks, &report.line);
    assert!(mated && all_checks, "a mate by checks");
}

#[test]
fn checks_only_proves_only_mates_by_checks() {
    // The first line needs the quiet 1. Rb6 (Stockfish: mate in 3, 1. Rb6 Ke8 2. Rd7 ...):
    // checks-only mode must not prove a mate in 3 there, and whatever it proves is by checks.
    let fen = "1R6/5k2/8/3R1B2/3p2p1/6P1/P2P4/2B1K3 w - - 1 40";
    let (_, report) = solve(fen, true);
    if report.status == Status::Proven {
        let (mated, all_checks) = replay(fen, &report.line);
        assert!(mated && all_checks);
        assert!(report.mate_in.unwrap() > 3, "a mate by checks takes longer");
    } else {
        assert_eq!(report.status, Status::Disproven);
    }
}

#[test]
fn a_mate_on_the_board_is_mate_in_zero() {
    // After fool's mate White is mated: Black "mates in 0", nothing to play.
    let mut chess =
        Chess::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    let report = solve_mate(&mut chess, Player::Second, &config());
    assert_eq!(report.status, Status::Proven);
    assert_eq!(report.mate_in, Some(0));
    assert!(report.line.is_empty());
}

#[test]
fn stalemate_is_no_mate() {
    // Black to move has no legal move and is not in check.
    let mut chess = Chess::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1").unwrap();
    let report = solve_mate(&mut chess, Player::First, &config());
    assert_eq!(report.status, Status::Disproven);
}

/// White can check forever (Qe8+ Kh7 Qh5+ Kg8) but never mate, and must keep checking (Black
/// threatens Rb1+): the only "win" goes around a cycle, and a repetition is a draw. Stockfish
/// 15.1 scores it 0.00 at depth 25 with that perpetual as its line.
#[test]
fn perpetual_check_is_not_a_mate() {
    let fen = "6k1/6p1/8/7Q/8/8/qr4PP/7K w - - 0 1";
    // Checks only: a small cyclic graph of checks and king moves, settled by repetitions.
    let (_, report) = solve(fen, true);
    assert_eq!(report.status, Status::Disproven);
    // All moves: never proven (disproven, or open when the budget runs out).
    let (_, report) = solve(fen, false);
    assert_ne!(report.status, Status::Proven);
}

/// The fifty-move rule: Black to move in KQK is mated in 7 (14 plies, no capture or pawn move
/// possible), which the retrograde analysis of `chess_endgames.rs` and Stockfish agree on. With
/// the halfmove clock at 80 the mate comes before the clock reaches 100; at 90 the clock
/// reaches 100 first and the game is drawn. Without the rule the clock does not matter.
#[test]
fn the_fifty_move_rule_draws_a_mate_that_comes_too_late() {
    let solve_with = |clock: u32, fifty: bool| {
        let fen = format!("3Q4/5K2/8/8/8/8/8/4k3 b - - {clock} 1");
        let mut chess = Chess::from_fen(&fen).unwrap().with_fifty_move_rule(fifty);
        // The disproof at 90 exhausts every line of the last ten moves: 7.3 M positions with
        // the estimates of the attacker's flight squares and the defender's king moves (1.4 M
        // with the plain move counts).
        let config = MateConfig {
            max_nodes: 20_000_000,
            ..config()
        };
        solve_mate(&mut chess, Player::First, &config)
    };
    let early = solve_with(80, true);
    assert_eq!(early.status, Status::Proven);
    assert_eq!(early.mate_in, Some(7));
    assert_eq!(early.exactness, Exactness::Exact);
    assert_eq!(solve_with(90, true).status, Status::Disproven);
    let off = solve_with(90, false);
    assert_eq!(off.status, Status::Proven);
    assert_eq!(off.mate_in, Some(7));
}

/// One `MateMemory` answers position after position as fresh memory does: each call's table is
/// the last call's with its entries made unreachable, and nothing of a position solved before
/// may leak into the next answer, not even the same position's under other rules (Morphy's
/// problem is a mate in 2, but no mate by checks alone). The positions of the tests above,
/// with their known answers, in two orders, twice over.
#[test]
fn one_memory_answers_position_after_position() {
    // (FEN, attacker, checks only, the mate's N or none)
    let positions: [(&str, Player, bool, Option<u32>); 8] = [
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            Player::Second,
            false,
            Some(1),
        ),
        (
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            Player::First,
            false,
            Some(1),
        ),
        (
            "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
            Player::First,
            false,
            Some(2),
        ),
        (
            "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
            Player::First,
            true,
            None,
        ),
        (
            "1R6/5k2/8/3R1B2/3p2p1/6P1/P2P4/2B1K3 w - - 1 40",
            Player::First,
            false,
            Some(3),
        ),
        (
            "1nb1k1n1/7r/1ppp4/R2P3p/2p4P/2q1QK2/8/1Nb2BNR b - - 3 29",
            Player::Second,
            false,
            Some(3),
        ),
        ("k7/8/1Q6/8/8/8/8/7K b - - 0 1", Player::First, false, None),
        (
            "6k1/6p1/8/7Q/8/8/qr4PP/7K w - - 0 1",
            Player::First,
            false,
            None,
        ),
    ];
    let mut memory = MateMemory::chess(&config());
    let forward = positions.iter();
    let backward = positions.iter().rev();
    for &(fen, attacker, checks_only, n) in forward.clone().chain(backward).chain(forward) {
        let mut chess = Chess::from_fen(fen).unwrap();
        if checks_only {
            chess = chess.with_checks_only(attacker);
        }
        let report = solve_mate_in(&mut memory, &mut chess, attacker, &config());
        let context = format!("{fen}, checks only: {checks_only}");
        match n {
            Some(n) => {
                assert_eq!(report.status, Status::Proven, "{context}");
                assert_eq!(report.mate_in, Some(n), "{context}");
                assert_eq!(report.exactness, Exactness::Exact, "{context}");
                assert_eq!(report.line.len() as u32, 2 * n - 1, "{context}");
                assert!(
                    replay(fen, &report.line).0,
                    "{context}: the line ends in mate"
                );
            }
            None => assert_ne!(report.status, Status::Proven, "{context}"),
        }
    }
}

/// A limit that stops the disproof of a shorter mate leaves the bounds already proven, each
/// confirmed as it was found: the report keeps the least of them as an upper bound (with the
/// line of its proof) instead of dropping it for want of budget to confirm it afterwards.
/// `s5g5p48` of the broad sample is a mate in 5 (Stockfish 15.1 `go mate 5`); its proof
/// takes a few dozen MID calls and "no mate within 4" tens of thousands.
#[test]
fn a_limit_during_the_disproof_keeps_the_confirmed_bound() {
    let fen = "Q4bk1/1p1b1p2/6pp/R2P4/3p4/3B4/1B3PPP/3QR1K1 w - - 0 25";
    let mut chess = Chess::from_fen(fen).unwrap();
    let exact = solve_mate(&mut chess, Player::First, &config());
    assert_eq!(
        (exact.mate_in, exact.exactness),
        (Some(5), Exactness::Exact)
    );
    for max_nodes in [100_000, 400_000] {
        let limited = MateConfig {
            max_nodes,
            ..config()
        };
        let report = solve_mate(&mut chess, Player::First, &limited);
        assert_eq!(report.status, Status::Proven);
        assert_eq!(
            report.exactness,
            Exactness::UpperBound(proofnum::Reason::NodeLimit),
            "{max_nodes} positions"
        );
        let n = report.mate_in.expect("the proven bound is kept");
        assert!(n >= 5, "a bound of {n} below the distance");
        let &(last, bound_time) = report.bounds.last().expect("the bounds shown");
        assert!(report.bounds.iter().all(|&(k, _)| k >= n) && last == n);
        assert!(bound_time <= report.elapsed);
        let (mated, _) = replay(fen, &report.line);
        assert!(mated, "the bound's line ends in mate");
        assert!(
            (report.line.len() as u32) < 2 * n,
            "the line mates within {n}"
        );
        assert!(report.stats.confirm_nodes > 0, "the bound was walked");
    }
}

/// Whether the side to move in `board` mates within `k` moves, by cozy-chess alone.
fn mates_within(board: &Board, k: u32) -> bool {
    if k == 0 {
        return false;
    }
    let mut found = false;
    board.generate_moves(|set| {
        for mv in set {
            let mut after = board.clone();
            after.play_unchecked(mv);
            if defender_mated_within(&after, k - 1) {
                found = true;
                return true;
            }
        }
        false
    });
    found
}

/// Whether the side to move in `board` is mated, or every reply of its is mated within `k`
/// more attacker moves, by cozy-chess alone.
fn defender_mated_within(board: &Board, k: u32) -> bool {
    match board.status() {
        GameStatus::Won => true,
        GameStatus::Drawn => false,
        GameStatus::Ongoing if k == 0 => false,
        GameStatus::Ongoing => {
            let mut escapes = false;
            board.generate_moves(|set| {
                for mv in set {
                    let mut after = board.clone();
                    after.play_unchecked(mv);
                    if !mates_within(&after, k) {
                        escapes = true;
                        return true;
                    }
                }
                false
            });
            !escapes
        }
    }
}

/// `MateWithin(k)` keeps each result with the budget it needs (`Game::material_needed`: a
/// mate found with 3 moves left may need 1, a failure found with 1 may hold with 3), and
/// within one table those results answer other budgets: on the positions above and the
/// positions along their mating lines, for budgets 1, 2 and 3 searched in one table falling
/// and in another rising, every answer is the brute force's (cozy-chess alone).
#[test]
fn mate_within_over_shared_budgets_agrees_with_brute_force() {
    use proofnum::{Dfpn, Table};
    use proofnum_games::chess::MAX_MOVES;
    use proofnum_games::chess::mate::MateWithin;

    let mut table_bytes = vec![0u8; 4 << 20];
    let mut stack = vec![0u8; Dfpn::<MateWithin>::stack_bytes(64, MAX_MOVES)];
    let mut dfpn = Dfpn::<MateWithin>::new(&mut stack, 64, MAX_MOVES, Default::default()).unwrap();
    let mut table = Table::new(&mut table_bytes).unwrap();
    let (mut checked, mut mates) = (0, 0);
    for fen in [
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "1R6/5k2/8/3R1B2/3p2p1/6P1/P2P4/2B1K3 w - - 1 40",
        "1nb1k1n1/7r/1ppp4/R2P3p/2p4P/2q1QK2/8/1Nb2BNR b - - 3 29",
    ] {
        let (_, report) = solve(fen, false);
        let mut board: Board = Chess::from_fen(fen).unwrap().board().clone();
        let mut positions = vec![board.clone()];
        for (i, mv) in report.line.iter().enumerate() {
            board.play(mv.to_cozy());
            if i % 2 == 1 {
                positions.push(board.clone()); // the attacker to move again
            }
        }
        for position in positions {
            let fen = format!("{position}");
            let expected = [1, 2, 3].map(|k| mates_within(&position, k));
            for (budget, fresh) in [
                (3, true),
                (2, false),
                (1, false),
                (1, true),
                (2, false),
                (3, false),
            ] {
                if fresh {
                    table.rekey();
                }
                let chess = Chess::from_fen(&fen).unwrap();
                let attacker = proofnum::Game::side_to_move(&chess);
                let mut within = MateWithin::new(chess, attacker, budget);
                let result = dfpn.solve(&mut within, attacker, &mut table, &mut Default::default());
                let found = match result.status {
                    Status::Proven => true,
                    Status::Disproven => false,
                    Status::Unknown(reason) => panic!("{fen}, budget {budget}: {reason}"),
                };
                assert_eq!(
                    found,
                    expected[budget as usize - 1],
                    "{fen}, budget {budget}"
                );
                checked += 1;
                mates += usize::from(found);
            }
        }
    }
    assert!(
        checked >= 60 && mates >= 20 && checked - mates >= 10,
        "{checked} {mates}"
    );
}
