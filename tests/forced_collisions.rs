//! Forced collisions: positions the game's hash does not tell apart, in the "two doors" game
//! (`common/doors.rs`), where such a collision makes an unconfirmed search answer wrong.
//!
//! The table cannot tell apart positions with equal hashes (its keys are made from the hash),
//! so every engine's unconfirmed answer is wrong here, whatever the table size. The confirmed
//! answer is never wrong: the verification walk tells positions apart by their exact encodings
//! and refutes the answer, the search runs again over new keys, meets the same collision, and
//! after `MAX_SEARCHES` searches the answer is unknown. A game that gives no encoding leaves
//! the walk only its hash: the walk is fooled too (the hash contract is the game's), but the
//! certificate checker, which replays the game itself, still rejects the proof.

mod common;

use common::doors::Doors;
use proofnum::confirm::MAX_SEARCHES;
use proofnum::{
    Dfpn, DfpnConfig, Limits, ParallelConfig, ParallelLimits, ParallelSolver, Player, Pns,
    PnsConfig, Reason, Status, Verdict,
};
use proofnum::{SharedTable, Table};
use proofnum_check::{CheckError, Fault, Limits as CheckLimits, check, read};

const SAME: u64 = 0xC0FF_EE00_1234_5678;
const MAX_DEPTH: usize = 8;
const MAX_MOVES: usize = 2;
const TABLE_BYTES: [usize; 2] = [1 << 20, 64 << 20];

fn dfpn_answers(game: &mut Doors, table_bytes: usize) -> (Status, Status, u64) {
    let mut memory = vec![0u8; table_bytes];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Doors>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<Doors>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default()).unwrap();
    let raw = dfpn
        .solve(game, Player::First, &mut table, &mut Limits::default())
        .status;
    table.clear();
    let mut memo = vec![0u64; 64];
    let r = dfpn.solve_confirmed(
        game,
        Player::First,
        &mut table,
        &mut memo,
        &mut Limits::default(),
    );
    (raw, r.status, r.stats.refutations)
}

#[test]
fn equal_hashes_fool_every_unconfirmed_search_and_no_confirmed_one() {
    for bytes in TABLE_BYTES {
        // Told apart, every answer is right: the attacker wins through door B.
        let (raw, confirmed, refutations) = dfpn_answers(&mut Doors::new(1, 2, true), bytes);
        assert_eq!(
            (raw, confirmed, refutations),
            (Status::Proven, Status::Proven, 0)
        );
        // Colliding: the unconfirmed answer is wrong; the confirmed one is unknown.
        let mut game = Doors::new(SAME, SAME, true);
        let (raw, confirmed, refutations) = dfpn_answers(&mut game, bytes);
        assert_eq!(
            raw,
            Status::Disproven,
            "the collision bites ({bytes} bytes)"
        );
        assert_eq!(confirmed, Status::Unknown(Reason::Unconfirmed));
        assert_eq!(refutations, MAX_SEARCHES as u64);

        // PNS and PN², confirmed by a df-pn walk over their table.
        for config in [PnsConfig::PNS, PnsConfig::pn2(16)] {
            let mut memory = vec![0u8; bytes];
            let mut table = Table::new(&mut memory).unwrap();
            let arena = Pns::<Doors>::required_bytes(64, MAX_DEPTH, MAX_MOVES, config);
            let mut arena = vec![0u8; arena];
            let mut pns = Pns::<Doors>::new(&mut arena, MAX_DEPTH, MAX_MOVES, config).unwrap();
            let mut stack = vec![0u8; Dfpn::<Doors>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
            let mut walker =
                Dfpn::<Doors>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default())
                    .unwrap();
            let raw = pns.solve(&mut game, Player::First, &mut table, &mut Limits::default());
            assert_eq!(
                raw.status,
                Status::Disproven,
                "{config:?}: the collision bites"
            );
            let mut memo = vec![0u64; 64];
            let r = pns.solve_confirmed(
                &mut walker,
                &mut game,
                Player::First,
                &mut table,
                &mut memo,
                &mut Limits::default(),
            );
            assert_eq!(r.status, Status::Unknown(Reason::Unconfirmed), "{config:?}");
        }

        // The parallel solver, with one and two threads.
        for threads in [1, 2] {
            let mut memory = vec![0u8; bytes];
            let mut table = SharedTable::new(&mut memory).unwrap();
            let solver = ParallelSolver::new(ParallelConfig {
                threads,
                max_depth: MAX_DEPTH,
                max_moves: MAX_MOVES,
                ..ParallelConfig::default()
            })
            .unwrap();
            let raw = solver.solve(&game, Player::First, &table, &mut ParallelLimits::none());
            assert_eq!(
                raw.status,
                Status::Disproven,
                "{threads} threads: the collision bites"
            );
            let mut memo = vec![0u64; 64];
            let r = solver.solve_confirmed(
                &game,
                Player::First,
                &mut table,
                &mut memo,
                &mut ParallelLimits::none(),
            );
            assert_eq!(
                r.status,
                Status::Unknown(Reason::Unconfirmed),
                "{threads} threads"
            );
        }
    }
}

#[test]
fn without_an_encoding_the_walk_is_fooled_but_the_checker_is_not() {
    // The game's hash is all the walk has to tell P from Q: it accepts the wrong disproof, and
    // writes it as a certificate (Q's line refers to P's node).
    let mut game = Doors::new(SAME, SAME, false);
    let mut memory = vec![0u8; 1 << 20];
    let mut table = Table::new(&mut memory).unwrap();
    let mut stack = vec![0u8; Dfpn::<Doors>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
    let mut dfpn =
        Dfpn::<Doors>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default()).unwrap();
    let r = dfpn.solve(&mut game, Player::First, &mut table, &mut Limits::default());
    assert_eq!(r.status, Status::Disproven);
    let mut bytes = Vec::new();
    let mut memo = vec![0u64; 64];
    let v = dfpn.certify(
        &mut game,
        Player::First,
        r.status,
        &mut table,
        &mut memo,
        "doors",
        &mut bytes,
        &mut Limits::default(),
    );
    assert_eq!(
        v.verdict,
        Verdict::Verified,
        "the walk is only as exact as the hash"
    );
    // The checker replays the game itself: behind door B the attacker wins.
    let cert = read(&bytes).unwrap();
    let e = check(&mut game, "doors", &cert, &CheckLimits::default()).unwrap_err();
    match e {
        CheckError::Invalid {
            line,
            fault: Fault::AgainstClaim(_),
        } => {
            assert_eq!(line, [1, 0, 0], "door B, to Q, to the attacker's win");
        }
        other => panic!("{other}"),
    }
}

/// The inverse of the splitmix64 finaliser (`table::position_key`'s mixer): undoes each
/// xor-shift and each multiplication (by the constants' inverses modulo 2^64).
fn unmix64(mut x: u64) -> u64 {
    x ^= x >> 31 ^ x >> 62;
    x = x.wrapping_mul(0x3196_42B2_D24D_8EC3);
    x ^= x >> 27 ^ x >> 54;
    x = x.wrapping_mul(0x96DE_1B17_3F11_9089);
    x ^ x >> 30 ^ x >> 60
}

#[test]
fn keys_that_differ_only_where_an_unsolved_entry_does_not_look_cost_no_answer() {
    use proofnum::Numbers;
    use proofnum::{Entry, TranspositionTable, position_key};
    let attacker = Player::First;
    let salt = unmix64(position_key(0, attacker, 0));
    assert_eq!(
        position_key(unmix64(12345) ^ salt, attacker, 0),
        12345,
        "unmix64 inverts"
    );
    // Q's key is P's with bit 0 flipped: the same check bits and (in these tables) the same
    // bucket. Before solved entries carried their whole key, Q read P's "lost" through it.
    let hash_p = 0x0123_4567_89AB_CDEF;
    let key_p = position_key(hash_p, attacker, 0);
    let hash_q = unmix64(key_p ^ 1) ^ salt;
    assert_eq!(position_key(hash_q, attacker, 0), key_p ^ 1);
    for bytes in TABLE_BYTES {
        let mut memory = vec![0u8; bytes];
        let mut table = Table::new(&mut memory).unwrap();
        let mut stack = vec![0u8; Dfpn::<Doors>::stack_bytes(MAX_DEPTH, MAX_MOVES)];
        let mut dfpn =
            Dfpn::<Doors>::new(&mut stack, MAX_DEPTH, MAX_MOVES, DfpnConfig::default()).unwrap();
        let mut game = Doors::new(hash_p, hash_q, true);
        let r = dfpn.solve(&mut game, attacker, &mut table, &mut Limits::default());
        assert_eq!(r.status, Status::Proven, "{bytes} bytes");
        // The search stored P's result where this key says, and Q's key misses it.
        assert!(table.probe(key_p).is_some_and(|e| e.numbers.is_solved()));
        // An unsolved entry of P's would have matched Q's key: only solved ones compare all bits.
        let mut one = vec![0u8; Table::MIN_BYTES];
        let mut t = Table::new(&mut one).unwrap();
        t.store(key_p, &Entry::new(Numbers::new(3, 4), None, 0, 1));
        assert!(t.probe(key_p ^ 1).is_some());
        t.store(key_p, &Entry::new(Numbers::LOSS, None, 0, 1));
        assert!(t.probe(key_p ^ 1).is_none());
    }
}

/// A finished game whose moves, asked for anyway, lead on forever: the root (First to move)
/// has one move, to a position where First has won; a search that expanded that position
/// would walk an endless line (each position one move) instead.
#[derive(Clone, Debug)]
struct PastTheEnd {
    /// 0 the root, 1 the finished position, then the endless line.
    at: u64,
}

impl proofnum::Game for PastTheEnd {
    type Move = u8;
    const REPETITION_RULE: proofnum::RepetitionRule = proofnum::RepetitionRule::Acyclic;
    fn side_to_move(&self) -> Player {
        if self.at % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn hash(&self) -> u64 {
        self.at.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xABCD
    }
    fn outcome(&self) -> proofnum::Outcome {
        match self.at {
            1 => proofnum::Outcome::Loss, // First has won: Second, to move, has lost
            _ => proofnum::Outcome::Unknown,
        }
    }
    fn generate_moves(&self, moves: &mut proofnum::MoveList<'_, u8>) {
        moves.push(0); // even past the end: the game never checks
    }
    fn play(&mut self, _: u8) {
        self.at += 1;
    }
    fn undo(&mut self, _: u8) {
        self.at -= 1;
    }
}

#[test]
fn a_finished_game_the_table_calls_unsolved_is_not_searched_past_its_end() {
    use proofnum::Numbers;
    use proofnum::{Entry, TranspositionTable, position_key};
    // The table says the finished position is unsolved (a false match, or a forged table):
    // the search must ask the game's outcome before expanding it. Searching past the end ran
    // to the node or depth limit instead (and in games whose line past the end is finite,
    // could reach a wrong answer).
    for bytes in TABLE_BYTES {
        let mut memory = vec![0u8; bytes];
        let mut table = Table::new(&mut memory).unwrap();
        let finished = PastTheEnd { at: 1 };
        let key = position_key(proofnum::Game::hash(&finished), Player::First, 0);
        table.store(key, &Entry::new(Numbers::new(1, 1), None, 0, 1));
        let mut stack = vec![0u8; Dfpn::<PastTheEnd>::stack_bytes(64, 1)];
        let mut dfpn = Dfpn::<PastTheEnd>::new(&mut stack, 64, 1, DfpnConfig::default()).unwrap();
        let r = dfpn.solve(
            &mut PastTheEnd { at: 0 },
            Player::First,
            &mut table,
            &mut Limits::nodes(100_000),
        );
        assert_eq!(r.status, Status::Proven, "{bytes} bytes");
        assert!(r.stats.mid_calls <= 3, "{} MID calls", r.stats.mid_calls);
    }
}
