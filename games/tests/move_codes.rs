//! Every bundled game's move codes (`MoveCodec`, what the distributed solver sends between
//! processes): along random games, every legal move's code decodes to the same move (the same
//! code again), different moves of a position have different codes, and playing the decoded
//! move reaches the same position as playing the move.

use proofnum::{Game, MoveCodec, MoveList, Outcome};
use proofnum_games::atarigo::AtariGo;
use proofnum_games::chess::Chess;
use proofnum_games::connect4::ConnectFour;
use proofnum_games::tictactoe::TicTacToe;
use proofnum_games::uttt::Uttt;

/// Plays `games` random games of at most `plies` plies from `start`, checking every position's
/// moves.
fn check<G: Game + MoveCodec + Clone>(start: G, max_moves: usize, games: u64, plies: usize) {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut slots = vec![G::Move::default(); max_moves];
    for _ in 0..games {
        let mut game = start.clone();
        for _ in 0..plies {
            if !matches!(
                game.outcome(),
                Outcome::Unknown | Outcome::CannotWin | Outcome::CannotLose
            ) {
                break;
            }
            let mut list = MoveList::new(&mut slots);
            game.generate_moves(&mut list);
            assert!(!list.overflowed());
            let moves = list.as_slice().to_vec();
            if moves.is_empty() {
                break;
            }
            let mut codes: Vec<u64> = moves.iter().map(|&m| G::encode_move(m)).collect();
            for (&mv, &code) in moves.iter().zip(&codes) {
                let back = G::decode_move(code).expect("a legal move's code decodes");
                assert_eq!(G::encode_move(back), code);
                let (mut a, mut b) = (game.clone(), game.clone());
                a.play(mv);
                b.play(back);
                assert_eq!(a.hash(), b.hash(), "the decoded move is the move");
            }
            codes.sort_unstable();
            codes.dedup();
            assert_eq!(codes.len(), moves.len(), "distinct moves, distinct codes");
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            game.play(moves[(seed >> 33) as usize % moves.len()]);
        }
    }
}

#[test]
fn every_bundled_games_moves_survive_their_codes() {
    check(ConnectFour::default(), 7, 50, 42);
    check(TicTacToe::default(), 9, 50, 9);
    check(Uttt::new(), 81, 30, 81);
    check(AtariGo::<6>::crosscut(), 36, 30, 36);
    check(Chess::startpos(), 256, 20, 60);
}

#[test]
fn codes_of_no_move_do_not_decode() {
    assert_eq!(ConnectFour::decode_move(7), None);
    assert_eq!(TicTacToe::decode_move(9), None);
    assert_eq!(Uttt::decode_move(81), None);
    assert_eq!(AtariGo::<6>::decode_move(42), None);
    assert_eq!(Chess::decode_move(1 << 16), None);
}
