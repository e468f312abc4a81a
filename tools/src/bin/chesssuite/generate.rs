//! Making a mate suite with Stockfish alone (proofnum takes no part): positions from games
//! between Stockfish and a weakened Stockfish, kept when Stockfish announces a mate within a
//! fixed node budget (`bm #N`), or when it announces none in a lopsided position.
//!
//! Each game opens with a few random moves; then one side (drawn at random) plays Stockfish's
//! move at `play_nodes`, the other a random legal move with probability one half, so games turn
//! lopsided and mates appear. Once a mate is announced, both sides play Stockfish's moves, so
//! one game gives a ladder of mates of falling length. A position is put to the referee search
//! (`go nodes budget` after `ucinewgame`, one thread) when the play search saw a mate or an
//! evaluation of at least `REFEREE_CP` centipawns; the referee's answer decides the line. The
//! fifty-move clock is reset to 0 in every position, so the rule cannot decide a mate within
//! fifty moves.
//!
//! Lines are taken by buckets: |N| from 1 to 12 (12 for "12 or more") for each sign, and for
//! N ≥ 2 half of a bucket for mates whose Stockfish line has a quiet (non-checking) attacker
//! move, half for lines of checks only; at most `MAX_PER_GAME` lines from one game, at least
//! `GAP_PLIES` plies apart. Single-threaded Stockfish after `ucinewgame` is deterministic for a
//! node budget, so a seed gives the same suite on every machine with the same Stockfish.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use cozy_chess::{Board, Color, GameStatus, Move};
use proofnum_tools::rng::Rng;
use proofnum_tools::stockfish::{Go, Score, Stockfish};

use crate::epd;
use crate::replay;

/// A play-search evaluation from which the referee search is asked for a mate (a crushing
/// position), and from which a position may be a "no mate" line (a lopsided one).
const REFEREE_CP: i32 = 800;
const NO_MATE_CP: i32 = 400;
/// At most this many lines from one game (one of them without a mate), so the suite spreads
/// over many games.
const MAX_PER_GAME: usize = 4;
/// Plies between two lines of one game (consecutive positions of a ladder are near copies).
const GAP_PLIES: usize = 3;
/// Games end here if nothing else ends them.
const MAX_PLIES: usize = 300;
/// Far more than any search needs; only a stuck engine reaches it.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(600);

/// What `generate` makes (its command-line options too).
#[derive(clap::Args)]
pub struct Options {
    /// The random moves' seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The referee search's node budget (`go nodes`).
    #[arg(long = "nodes", default_value_t = 1_000_000)]
    pub budget_nodes: u64,
    /// The playing searches' node budget.
    #[arg(long, default_value_t = 5_000)]
    pub play_nodes: u64,
    /// Lines per bucket of mates by the side to move (|N| 1..=12).
    #[arg(long, default_value_t = 8)]
    pub per_bucket: usize,
    /// Lines per bucket of mates against the side to move (|N| 1..=12).
    #[arg(long, default_value_t = 2)]
    pub per_bucket_mated: usize,
    /// Lines without an announced mate.
    #[arg(long, default_value_t = 20)]
    pub no_mate: usize,
    /// Only mates of at least this many moves (either sign).
    #[arg(long, default_value_t = 1)]
    pub min_mate: u32,
    /// Stop after this many games even if buckets are not full.
    #[arg(long, default_value_t = 1000)]
    pub max_games: usize,
}

fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// Where a line goes: a mate's sign, |N| capped at 12, and whether Stockfish's line has a quiet
/// attacker move (always false for N = 1); or the no-mate bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Bucket {
    Mate { mated: bool, n: u32, quiet: bool },
    NoMate,
}

fn quota(options: &Options, bucket: Bucket) -> usize {
    match bucket {
        Bucket::NoMate => options.no_mate,
        Bucket::Mate { n, .. } if n < options.min_mate => 0,
        Bucket::Mate { mated, n, quiet } => {
            let k = if mated {
                options.per_bucket_mated
            } else {
                options.per_bucket
            };
            match (n, quiet) {
                (1, _) => k,
                (_, true) => k.div_ceil(2),
                (_, false) => k / 2,
            }
        }
    }
}

/// Plays games until every bucket is full (or `max_games`), printing each line as it is
/// found to stderr and the sorted suite to stdout at the end.
pub fn generate(options: &Options) -> Result<(), String> {
    let mut sf = Stockfish::start(64).map_err(|e| e.to_string())?;
    eprintln!(
        "{}; referee budget {} nodes",
        sf.name(),
        options.budget_nodes
    );
    let mut rng = Rng(options.seed);
    let mut taken: HashMap<Bucket, usize> = HashMap::new();
    let mut seen = HashSet::new();
    let mut found: Vec<(Bucket, String)> = Vec::new();
    let wanted = |bucket: Bucket, taken: &HashMap<Bucket, usize>| {
        taken.get(&bucket).copied().unwrap_or(0) < quota(options, bucket)
    };
    let total_wanted: usize = all_buckets().map(|b| quota(options, b)).sum();
    for game in 0..options.max_games {
        if found.len() >= total_wanted {
            break;
        }
        let mut board = Board::default();
        let opening = 4 + rng.below(10);
        let weak = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (mut lines_here, mut last_taken, mut mate_seen) = (0, None::<usize>, false);
        let mut no_mate_here = false;
        for ply in 0..MAX_PLIES {
            if board.status() != GameStatus::Ongoing {
                break;
            }
            board.set_halfmove_clock(0);
            let moves = legal_moves(&board);
            if ply < opening {
                board.play_unchecked(moves[rng.below(moves.len())]);
                continue;
            }
            let fen = board.to_string();
            sf.new_game().map_err(|e| e.to_string())?;
            let play = sf
                .go(&fen, Go::Nodes(options.play_nodes), ENGINE_TIMEOUT)
                .map_err(|e| e.to_string())?;
            let no_mate_wanted = !no_mate_here && wanted(Bucket::NoMate, &taken);
            let lopsided = match play.score {
                Some(Score::Mate(_)) => true,
                Some(Score::Centipawns(cp)) => {
                    cp.abs() >= REFEREE_CP || (no_mate_wanted && cp.abs() >= NO_MATE_CP)
                }
                None => false,
            };
            let gap_ok = last_taken.is_none_or(|at| ply >= at + GAP_PLIES);
            if lopsided && gap_ok && lines_here < MAX_PER_GAME {
                sf.new_game().map_err(|e| e.to_string())?;
                let referee = sf
                    .go(&fen, Go::Nodes(options.budget_nodes), ENGINE_TIMEOUT)
                    .map_err(|e| e.to_string())?;
                let key = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
                if let Some(line) = classify(
                    &board,
                    &referee,
                    options.budget_nodes,
                    (options.seed, game, ply),
                )? {
                    let (bucket, operations) = line;
                    mate_seen |= bucket != Bucket::NoMate;
                    let is_new = !(bucket == Bucket::NoMate && no_mate_here);
                    if is_new && wanted(bucket, &taken) && seen.insert(key) {
                        no_mate_here |= bucket == Bucket::NoMate;
                        *taken.entry(bucket).or_default() += 1;
                        let text = epd::format_line(&fen, &operations);
                        eprintln!("game {game} ply {ply}: {text}");
                        found.push((bucket, text));
                        lines_here += 1;
                        last_taken = Some(ply);
                    }
                }
            }
            let engine_move = play
                .best_move
                .as_deref()
                .and_then(|m| cozy_chess::util::parse_uci_move(&board, m).ok())
                .filter(|&m| board.is_legal(m));
            let random = board.side_to_move() == weak && !mate_seen && rng.below(2) == 0;
            let mv = match engine_move {
                Some(m) if !random => m,
                _ => moves[rng.below(moves.len())],
            };
            board.play_unchecked(mv);
        }
        eprintln!("game {game} done: {} of {total_wanted} lines", found.len());
    }
    found.sort();
    for (_, line) in &found {
        println!("{line}");
    }
    let short: Vec<String> = all_buckets()
        .filter(|&b| taken.get(&b).copied().unwrap_or(0) < quota(options, b))
        .map(|b| format!("{b:?}"))
        .collect();
    if !short.is_empty() {
        eprintln!("buckets not filled: {}", short.join(", "));
    }
    Ok(())
}

fn all_buckets() -> impl Iterator<Item = Bucket> {
    let mates = [false, true].into_iter().flat_map(|mated| {
        (1..=12).flat_map(move |n| {
            [false, true]
                .into_iter()
                .filter(move |&quiet| n > 1 || !quiet)
                .map(move |quiet| Bucket::Mate { mated, n, quiet })
        })
    });
    mates.chain(std::iter::once(Bucket::NoMate))
}

/// The bucket and EPD operations for the referee's answer on `board`; None when it is neither
/// a checked mate nor a clean "no mate" (Stockfish's line does not replay to checkmate).
fn classify(
    board: &Board,
    referee: &proofnum_tools::stockfish::Analysis,
    budget_nodes: u64,
    (seed, game, ply): (u64, usize, usize),
) -> Result<Option<(Bucket, Vec<String>)>, String> {
    let id = format!("id \"s{seed}g{game}p{ply}\"");
    let acn = format!("acn {budget_nodes}");
    match referee.score {
        Some(Score::Mate(m)) if m != 0 => {
            let attacker = if m > 0 {
                board.side_to_move()
            } else {
                !board.side_to_move()
            };
            // Stockfish's line must replay to a checkmate of the announced length, or the line
            // is not taken (a cut-off line cannot say whether the mate is quiet).
            let Ok(mate) = replay::replay_uci(board, &referee.pv, attacker) else {
                return Ok(None);
            };
            if mate.attacker_moves != m.unsigned_abs() {
                return Ok(None);
            }
            let bucket = Bucket::Mate {
                mated: m < 0,
                n: m.unsigned_abs().min(12),
                quiet: mate.quiet,
            };
            let mut operations = vec![format!("bm #{m}"), acn, id];
            if mate.quiet {
                operations.push("c0 \"quiet\"".into());
            }
            Ok(Some((bucket, operations)))
        }
        Some(Score::Centipawns(cp)) => Ok(Some((
            Bucket::NoMate,
            vec![
                format!("ce {cp}"),
                acn,
                id,
                "c0 \"no mate announced\"".into(),
            ],
        ))),
        _ => Ok(None),
    }
}
