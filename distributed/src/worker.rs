//! A worker rank: its own table and job slots, serving the coordinator's solves until it says
//! the session is over.
//!
//! Each solve begins with `Start` (settings, and whether the root is new, which empties the
//! table), answered with `Hello` (this rank's root hash and slot count); then `Job`s come in
//! and `Done`s go back, until `Cancel`, after which the rank stops its running jobs, sends
//! their results and `Idle`, and waits for the next `Start` or `Finish`. The main thread does
//! all the messaging (MPI's "funneled" threading); the slots are threads of a [`Pool`].

use std::time::{Duration, Instant};

use proofnum::{Game, MoveCodec};
use proofnum::{SharedTable, Table};

use crate::checkpoint::{rank_file_header, rank_file_table, write_atomically};
use crate::link::Link;
use crate::pool::{Pool, PoolSettings, stop_flags};
use crate::wire::{Message, RankFigures, ResumedTable, Start};
use crate::{COORDINATOR, Error};

/// The longest the main thread waits for a job to finish before it looks for messages.
const SLOT_POLL: Duration = Duration::from_millis(1);
/// How long a rank waits for the coordinator between solves before looking again.
const IDLE_POLL: Duration = Duration::from_millis(50);

/// What a worker rank did over a whole session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Solves (searches) it took part in.
    pub solves: u64,
    /// Jobs it ran.
    pub jobs: u64,
}

/// Serves the coordinator (rank 0) on a worker rank: runs the jobs of every solve on `game`'s
/// position until the coordinator ends the session. `default_threads` is the number of job
/// threads when a solve leaves the choice to the rank. An error for a message that does not
/// decode or a position that does not match the coordinator's is also reported to the
/// coordinator, whose solve then fails with it.
pub fn serve<G, L>(link: &L, game: &G, default_threads: usize) -> Result<WorkerSummary, Error>
where
    G: Game + MoveCodec + Clone + Send + Sync,
    L: Link,
{
    let mut memory: Vec<u8> = Vec::new();
    let mut summary = WorkerSummary::default();
    loop {
        let Some((from, words)) = link.receive(IDLE_POLL) else {
            continue;
        };
        if from != COORDINATOR {
            continue;
        }
        let message = Message::decode(&words).map_err(|e| Error::Wire {
            rank: from,
            error: e,
        })?;
        match message {
            Message::Start(start) => {
                summary.solves += 1;
                summary.jobs += solve(link, game, &start, &mut memory, default_threads)?;
            }
            Message::Finish => return Ok(summary),
            // A checkpoint after a search stopped: the table is at rest.
            Message::Save { epoch, path, stamp } => {
                let bytes = match Table::attach(&mut memory) {
                    Ok(table) => save_table(table.as_bytes(), &path, link.rank(), stamp),
                    Err(_) => 0,
                };
                link.send(COORDINATOR, &Message::Saved { epoch, bytes }.encode());
            }
            // A late Cancel of a solve already over.
            _ => {}
        }
    }
}

/// One solve on this rank; returns the jobs run.
fn solve<G, L>(
    link: &L,
    game: &G,
    start: &Start,
    memory: &mut Vec<u8>,
    default_threads: usize,
) -> Result<u64, Error>
where
    G: Game + MoveCodec + Clone + Send + Sync,
    L: Link,
{
    let began = Instant::now();
    let depth = usize::try_from(start.max_depth).unwrap_or(usize::MAX);
    let moves = usize::try_from(start.max_moves).unwrap_or(usize::MAX);
    let threads = usize::try_from(start.threads).unwrap_or(usize::MAX);
    crate::check_slots(threads, depth, moves)
        .map_err(|_| Error::Protocol("a solve whose job slots cannot be built"))?;
    let fresh = start.new_root || memory.len() as u64 != start.table_bytes;
    if memory.len() as u64 != start.table_bytes {
        *memory = Vec::new();
        let bytes = usize::try_from(start.table_bytes).map_err(|_| Error::Memory)?;
        memory.try_reserve_exact(bytes).map_err(|_| Error::Memory)?;
        memory.resize(bytes, 0);
    }
    let file_name = rank_file(&start.resume, link.rank());
    let (saved, mut resumed) = if fresh && !start.resume.is_empty() {
        match std::fs::read(&file_name) {
            Ok(file) => (Some(file), ResumedTable::Loaded),
            // Whether that stops the resume is the coordinator's call (it knows which ranks
            // wrote a file); it names the file.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, ResumedTable::Missing),
            Err(e) => {
                eprintln!("rank {}: cannot read {file_name}: {e}", link.rank());
                (None, ResumedTable::Unreadable)
            }
        }
    } else {
        (None, ResumedTable::NotAsked)
    };
    let table = match saved {
        // A table this rank saved for the solve being resumed (its stamp says so): its
        // entries are facts about this game's positions whenever they were stored, so any
        // such table is sound to use. A file another solve left there is not.
        Some(file) => {
            let loaded = rank_file_table(&file, start.resume_stamp)
                .map_err(|e| e.to_string())
                .and_then(|bytes| Table::load(memory, bytes).map_err(|e| e.to_string()));
            match loaded {
                Ok(table) => Ok(table),
                Err(e) => {
                    eprintln!(
                        "rank {}: {file_name} is not used ({e}); starting empty",
                        link.rank(),
                    );
                    resumed = ResumedTable::Refused;
                    Table::new(memory)
                }
            }
        }
        None if fresh => Table::new(memory),
        None => Table::attach(memory),
    }
    .map(SharedTable::from_table)
    .map_err(Error::Table)?;
    let slots = match start.threads {
        0 => default_threads.max(1),
        n => n as usize,
    };
    let settings = PoolSettings {
        attacker: start.attacker,
        dfpn: start.dfpn,
        max_depth: start.max_depth as usize,
        max_moves: start.max_moves as usize,
        solved_per_job: start.solved_per_job as usize,
        shared_min_work_log2: start.shared_min_work_log2,
    };
    let stops = stop_flags(slots);
    let epoch = start.epoch;
    link.send(
        COORDINATOR,
        &Message::Hello {
            epoch,
            root_hash: game.hash(),
            slots: slots as u64,
            resumed,
        }
        .encode(),
    );
    std::thread::scope(|scope| {
        let mut pool = Pool::spawn(scope, game, &table, settings, &stops);
        let mut cancelled = false;
        loop {
            while let Some(done) = pool.finished(Duration::ZERO) {
                link.send(COORDINATOR, &Message::Done(done).encode());
            }
            if cancelled && pool.running() == 0 {
                let figures = RankFigures {
                    slots: slots as u64,
                    jobs: pool.jobs,
                    busy_ns: pool.busy_ns,
                    elapsed_ns: began.elapsed().as_nanos() as u64,
                };
                link.send(COORDINATOR, &Message::Idle { epoch, figures }.encode());
                return Ok(pool.jobs);
            }
            let wait = if pool.running() > 0 {
                Duration::ZERO
            } else {
                SLOT_POLL
            };
            if let Some((from, words)) = link.receive(wait) {
                if from != COORDINATOR {
                    continue;
                }
                match Message::decode(&words).map_err(|e| Error::Wire {
                    rank: from,
                    error: e,
                })? {
                    Message::Job(order) if order.epoch == epoch => {
                        if order.slot as usize >= slots {
                            return Err(Error::Protocol("a job for a slot this rank lacks"));
                        }
                        pool.start(order);
                    }
                    Message::Cancel { epoch: e } if e == epoch => {
                        pool.cancel();
                        cancelled = true;
                    }
                    Message::Finish => {
                        pool.cancel();
                        return Err(Error::Protocol("the session ended during a solve"));
                    }
                    Message::Save {
                        epoch: e,
                        path,
                        stamp,
                    } if e == epoch => {
                        // The slots go on storing while the bytes are copied: an entry torn
                        // by the copy fails its check when loaded, a miss.
                        let mut bytes = vec![0u8; table.byte_len()];
                        table.copy_bytes(&mut bytes);
                        let bytes = save_table(&bytes, &path, link.rank(), stamp);
                        link.send(COORDINATOR, &Message::Saved { epoch, bytes }.encode());
                    }
                    _ => {}
                }
            } else if pool.running() > 0 {
                // Nothing from the coordinator: wait for a slot instead.
                if let Some(done) = pool.finished(SLOT_POLL) {
                    link.send(COORDINATOR, &Message::Done(done).encode());
                }
            }
        }
    })
}

/// The file rank `rank` keeps its table in for the checkpoint at `path`.
pub fn rank_file(path: &str, rank: usize) -> String {
    format!("{path}.rank{rank}")
}

/// Writes `bytes`, a table, to [`rank_file`] atomically ([`write_atomically`]) after the header
/// with the solve's `stamp`; returns the bytes written, or 0 (with a message; the previous
/// file is kept) when that failed.
fn save_table(bytes: &[u8], path: &str, rank: usize, stamp: u64) -> u64 {
    let header = rank_file_header(stamp);
    match write_atomically(rank_file(path, rank).as_ref(), &[&header, bytes]) {
        Ok(()) => (header.len() + bytes.len()) as u64,
        Err(e) => {
            eprintln!("rank {rank}: {e}; its previous table file is kept");
            0
        }
    }
}
