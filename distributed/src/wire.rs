//! The messages between the coordinator and the worker ranks, as arrays of 64-bit words.
//!
//! Every message is one array: a kind word, then the kind's fields in a fixed order, with
//! lists as a length followed by the items. Moves travel as their [`MoveCodec`] codes and
//! numbers as `φ | δ << 32`. A message that is too short, too long, or of an unknown kind
//! decodes to an error, never to a guess. The order of one solve (an *epoch*):
//!
//! ```text
//! coordinator                              worker rank
//!   Start(epoch, root hash, settings) ---->
//!                                     <---- Hello(epoch, root hash, job slots, resumed table)
//!   Job(epoch, slot, ticket, path, ...) -->          (one per idle slot)
//!                                     <---- Done(epoch, slot, ticket, numbers, children, ...)
//!   ...                                                (until the root is solved or halts)
//!   Save(epoch, path) -------------------->          (at a checkpoint: write the table to
//!                                     <---- Saved(epoch, bytes)     path.rankN, atomically)
//!   Cancel(epoch) ------------------------>          (running jobs stop)
//!                                     <---- Idle(epoch, figures)   (after the slots' last Done)
//!   Finish ------------------------------->          (the session ends)
//! ```
//!
//! MPI keeps the order of the messages between two ranks, so once a rank's `Idle` arrives
//! none of its results for that epoch is still on the way.
//!
//! [`MoveCodec`]: proofnum::MoveCodec

use proofnum::Entry;
use proofnum::{DfpnConfig, Epsilon, Numbers, Player, Reason, Stats, Status, TableStats};

/// Changes whenever a message's layout does; `Start` and `Hello` carry it.
pub const PROTOCOL: u64 = 7;

/// Job messages stay under this many bytes for paths of up to 64 moves with codes under 256
/// and nothing forwarded (9 words, 72 bytes, and the moves eight to a word: 136 bytes for 64). It matters because MPI's send
/// may wait until the receiver takes a larger message: Open MPI's shared-memory transport
/// sends up to 256 bytes, its header included, without waiting (`btl_vader_max_inline_send`),
/// and completes a larger send only when the receiver's next MPI call takes it, which for a
/// worker busy with a job is up to a millisecond later. The coordinator sends jobs, so its
/// jobs are kept small; the workers' results may be larger (the coordinator polls often).
pub const JOB_BYTES: usize = 160;

const START: u64 = 1;
const HELLO: u64 = 2;
const JOB: u64 = 3;
const DONE: u64 = 4;
const CANCEL: u64 = 5;
const IDLE: u64 = 6;
const FINISH: u64 = 7;
const SAVE: u64 = 8;
const SAVED: u64 = 9;

/// What a message could not be read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireError(&'static str);

impl core::fmt::Display for WireError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "malformed message: {}", self.0)
    }
}

impl std::error::Error for WireError {}

/// The settings of one solve, from the coordinator.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// Numbers this solve's messages.
    pub epoch: u64,
    /// The search starts from a new root: empty the tables first.
    pub new_root: bool,
    /// The root position's hash, to check that every rank has the same position.
    pub root_hash: u64,
    /// Who tries to force a win.
    pub attacker: Player,
    /// The jobs' df-pn settings.
    pub dfpn: DfpnConfig,
    /// Deepest line (path and job together) a job's stack holds.
    pub max_depth: u64,
    /// Most moves a position may have.
    pub max_moves: u64,
    /// Bytes of each rank's table.
    pub table_bytes: u64,
    /// Job threads per rank; 0: the rank's share of its node's cores.
    pub threads: u64,
    /// Most solved positions a job reports back (and its rank forwards to the others).
    pub solved_per_job: u64,
    /// The least `work_log2` of a solved position a job reports.
    pub shared_min_work_log2: u8,
    /// A checkpoint being resumed: each rank fills its emptied table from the file it saved
    /// there (`PATH.rankN`), and says in its `Hello` whether it could; empty for none.
    pub resume: String,
    /// The [`stamp`](crate::checkpoint::stamp) of the solve being resumed: a rank loads only a
    /// table file that carries it.
    pub resume_stamp: u64,
}

/// A solved position from one rank's table, passed on to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolvedEntry {
    /// The table key (position and attacker, and for path-dependent results the path).
    pub key: u64,
    /// What the table holds for it.
    pub entry: Entry,
}

/// A job for one slot of a rank.
#[derive(Clone, Debug, PartialEq)]
pub struct JobOrder {
    /// The solve it belongs to.
    pub epoch: u64,
    /// The slot (job thread) of the receiving rank that runs it.
    pub slot: u64,
    /// The scheduler's ticket: tree node and serial number.
    pub ticket: (u32, u64),
    /// MID thresholds in the job position's side-to-move view.
    pub threshold: Numbers,
    /// MID calls it may spend.
    pub max_work: u64,
    /// Positions it may evaluate.
    pub max_nodes: u64,
    /// Microseconds it may run; `u64::MAX` for no limit.
    pub max_time_us: u64,
    /// The moves from the root to the job's position, as codes.
    pub path: Vec<u64>,
    /// Solved positions other ranks found, for the receiving rank's table.
    pub solved: Vec<SolvedEntry>,
}

/// A finished job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobDone {
    /// The solve it belongs to.
    pub epoch: u64,
    /// The slot that ran it.
    pub slot: u64,
    /// The ticket it was handed out with.
    pub ticket: (u32, u64),
    /// How it ended.
    pub status: Status,
    /// Its root's (φ, δ).
    pub numbers: Numbers,
    /// Its best move's code.
    pub best_move: Option<u64>,
    /// Its counters (`max_depth` from the tree's root).
    pub stats: Stats,
    /// Nanoseconds it ran, replaying its path included.
    pub busy_ns: u64,
    /// Its root frame's children: (code, numbers in the child's view, side to move changes).
    pub children: Vec<(u64, Numbers, bool)>,
    /// The largest solved positions it stored.
    pub solved: Vec<SolvedEntry>,
}

/// What a rank did during one solve, sent with `Idle`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankFigures {
    /// Job slots (threads).
    pub slots: u64,
    /// Jobs run.
    pub jobs: u64,
    /// Nanoseconds the slots spent running jobs, added up.
    pub busy_ns: u64,
    /// Nanoseconds from `Start` to `Idle`.
    pub elapsed_ns: u64,
}

/// What a worker rank did with its table file when a solve resumed a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResumedTable {
    /// No table file was asked for: no resume, or the rank's table was kept.
    NotAsked,
    /// The rank's table is the file's.
    Loaded,
    /// The file is of another solve, or damaged: the rank said why and starts empty.
    Refused,
    /// There is no such file.
    Missing,
    /// The file could not be read (the rank said why).
    Unreadable,
}

impl ResumedTable {
    fn word(self) -> u64 {
        match self {
            ResumedTable::NotAsked => 0,
            ResumedTable::Loaded => 1,
            ResumedTable::Refused => 2,
            ResumedTable::Missing => 3,
            ResumedTable::Unreadable => 4,
        }
    }

    fn from_word(w: u64) -> Result<ResumedTable, WireError> {
        Ok(match w {
            0 => ResumedTable::NotAsked,
            1 => ResumedTable::Loaded,
            2 => ResumedTable::Refused,
            3 => ResumedTable::Missing,
            4 => ResumedTable::Unreadable,
            _ => return Err(WireError("resumed table")),
        })
    }
}

/// One message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// Coordinator to worker: a solve begins.
    Start(Start),
    /// Worker to coordinator: ready, with this many slots.
    Hello {
        /// The solve.
        epoch: u64,
        /// The worker's root hash.
        root_hash: u64,
        /// Its job slots.
        slots: u64,
        /// What it did with its table file of the checkpoint being resumed.
        resumed: ResumedTable,
    },
    /// Coordinator to worker: run this.
    Job(JobOrder),
    /// Worker to coordinator: this job finished.
    Done(JobDone),
    /// Coordinator to worker: the solve is over; stop the running jobs.
    Cancel {
        /// The solve.
        epoch: u64,
    },
    /// Worker to coordinator: every slot is idle; no more results of this solve will come.
    Idle {
        /// The solve.
        epoch: u64,
        /// What the rank did.
        figures: RankFigures,
    },
    /// Coordinator to worker: the session is over.
    Finish,
    /// Coordinator to worker: write your table to `path.rankN` (N: your rank) for a
    /// checkpoint.
    Save {
        /// The solve.
        epoch: u64,
        /// The checkpoint's path.
        path: String,
        /// The solve's [`stamp`](crate::checkpoint::stamp), written at the head of the file.
        stamp: u64,
    },
    /// Worker to coordinator: the table is written (or not).
    Saved {
        /// The solve.
        epoch: u64,
        /// Bytes written; 0 when writing failed.
        bytes: u64,
    },
}

/// `φ | δ << 32`.
pub fn pack_numbers(n: Numbers) -> u64 {
    n.phi as u64 | (n.delta as u64) << 32
}

/// The inverse of [`pack_numbers`].
pub fn unpack_numbers(w: u64) -> Numbers {
    Numbers::new(w as u32, (w >> 32) as u32)
}

const REASONS: [Reason; 11] = [
    Reason::NodeLimit,
    Reason::WorkLimit,
    Reason::TimeLimit,
    Reason::Stopped,
    Reason::Thresholds,
    Reason::DepthLimit,
    Reason::TooManyMoves,
    Reason::GameError,
    Reason::MemoryLimit,
    Reason::Unconfirmed,
    Reason::Output,
];

fn status_word(s: Status) -> u64 {
    match s {
        Status::Proven => 0,
        Status::Disproven => 1,
        Status::Unknown(r) => 2 + REASONS.iter().position(|&x| x == r).unwrap_or(7) as u64,
    }
}

fn word_status(w: u64) -> Result<Status, WireError> {
    Ok(match w {
        0 => Status::Proven,
        1 => Status::Disproven,
        _ => Status::Unknown(
            *REASONS
                .get((w - 2) as usize)
                .ok_or(WireError("unknown status"))?,
        ),
    })
}

/// Packs `entry`'s best child, distance and work: `best + 1 | distance << 16 | work_log2 << 32`.
fn entry_meta(e: &Entry) -> u64 {
    e.best.map_or(0, |b| b as u64 + 1) | (e.distance as u64) << 16 | (e.work_log2 as u64) << 32
}

fn meta_entry(numbers: Numbers, meta: u64) -> Entry {
    let best = (meta & 0xFFFF) as u16;
    Entry {
        numbers,
        best: best.checked_sub(1),
        distance: (meta >> 16) as u16,
        work_log2: ((meta >> 32) as u8).min(63),
    }
}

/// Appends words.
struct Writer(Vec<u64>);

impl Writer {
    fn put(&mut self, w: u64) -> &mut Self {
        self.0.push(w);
        self
    }

    /// A string: its byte length, then its bytes eight to a word (little-endian, zero-padded).
    fn text(&mut self, text: &str) {
        self.put(text.len() as u64);
        for chunk in text.as_bytes().chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.put(u64::from_le_bytes(word));
        }
    }

    fn solved(&mut self, list: &[SolvedEntry]) {
        self.put(list.len() as u64);
        for s in list {
            self.put(s.key)
                .put(pack_numbers(s.entry.numbers))
                .put(entry_meta(&s.entry));
        }
    }
}

/// Reads words, failing at the end.
struct Reader<'w>(&'w [u64]);

impl Reader<'_> {
    fn get(&mut self) -> Result<u64, WireError> {
        let (&w, rest) = self.0.split_first().ok_or(WireError("too short"))?;
        self.0 = rest;
        Ok(w)
    }

    /// A list length, checked against the words left (`words_each` per item).
    fn len(&mut self, words_each: usize) -> Result<usize, WireError> {
        let n = self.get()?;
        if n > (self.0.len() / words_each) as u64 {
            return Err(WireError("list longer than the message"));
        }
        Ok(n as usize)
    }

    fn text(&mut self) -> Result<String, WireError> {
        let len = self.get()?;
        if len.div_ceil(8) > self.0.len() as u64 {
            return Err(WireError("text longer than the message"));
        }
        let mut bytes = Vec::with_capacity(len as usize);
        for _ in 0..len.div_ceil(8) {
            bytes.extend_from_slice(&self.get()?.to_le_bytes());
        }
        if bytes[len as usize..].iter().any(|&b| b != 0) {
            return Err(WireError("text padding"));
        }
        bytes.truncate(len as usize);
        String::from_utf8(bytes).map_err(|_| WireError("text is not UTF-8"))
    }

    fn solved(&mut self) -> Result<Vec<SolvedEntry>, WireError> {
        let n = self.len(3)?;
        (0..n)
            .map(|_| {
                let key = self.get()?;
                let numbers = unpack_numbers(self.get()?);
                let entry = meta_entry(numbers, self.get()?);
                Ok(SolvedEntry { key, entry })
            })
            .collect()
    }

    fn stats(&mut self) -> Result<Stats, WireError> {
        Ok(Stats {
            mid_calls: self.get()?,
            nodes: self.get()?,
            max_depth: u32::try_from(self.get()?).map_err(|_| WireError("depth"))?,
            repetitions: self.get()?,
            table: TableStats {
                probes: self.get()?,
                hits: self.get()?,
                stores: self.get()?,
                drops: self.get()?,
            },
            elapsed_us: None,
            ..Stats::default()
        })
    }

    fn end(self) -> Result<(), WireError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(WireError("trailing words"))
        }
    }
}

fn player(w: u64) -> Result<Player, WireError> {
    match w {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(WireError("unknown player")),
    }
}

fn flag(w: u64) -> Result<bool, WireError> {
    match w {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(WireError("flag not 0 or 1")),
    }
}

impl Message {
    /// The message as words.
    pub fn encode(&self) -> Vec<u64> {
        let mut w = Writer(Vec::new());
        match self {
            Message::Start(s) => {
                w.put(START)
                    .put(PROTOCOL)
                    .put(s.epoch)
                    .put(s.new_root as u64)
                    .put(s.root_hash)
                    .put(s.attacker.index() as u64)
                    .put(s.dfpn.epsilon.numerator() as u64)
                    .put(s.dfpn.epsilon.denominator() as u64)
                    .put(s.dfpn.search_stale_entries as u64)
                    .put(s.dfpn.weak_delta as u64)
                    .put(s.dfpn.share_unsolved as u64)
                    .put(s.max_depth)
                    .put(s.max_moves)
                    .put(s.table_bytes)
                    .put(s.threads)
                    .put(s.solved_per_job)
                    .put(s.shared_min_work_log2 as u64);
                w.text(&s.resume);
                w.put(s.resume_stamp);
            }
            Message::Hello {
                epoch,
                root_hash,
                slots,
                resumed,
            } => {
                w.put(HELLO)
                    .put(PROTOCOL)
                    .put(*epoch)
                    .put(*root_hash)
                    .put(*slots)
                    .put(resumed.word());
            }
            Message::Job(j) => {
                // Compact, so that a job stays small (see `JOB_BYTES`): moves of codes under
                // 256 go eight to a word, and slot and node share one.
                let packed = j.path.iter().all(|&c| c < 256);
                w.put(JOB | (j.path.len() as u64) << 8 | (packed as u64) << 24)
                    .put(j.epoch)
                    .put(j.slot | (j.ticket.0 as u64) << 32)
                    .put(j.ticket.1)
                    .put(pack_numbers(j.threshold))
                    .put(j.max_work)
                    .put(j.max_nodes)
                    .put(j.max_time_us);
                if packed {
                    for chunk in j.path.chunks(8) {
                        let mut bytes = [0u8; 8];
                        for (b, &c) in bytes.iter_mut().zip(chunk) {
                            *b = c as u8;
                        }
                        w.put(u64::from_le_bytes(bytes));
                    }
                } else {
                    j.path.iter().for_each(|&c| {
                        w.put(c);
                    });
                }
                w.solved(&j.solved);
            }
            Message::Done(d) => {
                w.put(DONE)
                    .put(d.epoch)
                    .put(d.slot)
                    .put(d.ticket.0 as u64)
                    .put(d.ticket.1)
                    .put(status_word(d.status))
                    .put(pack_numbers(d.numbers))
                    .put(d.best_move.is_some() as u64)
                    .put(d.best_move.unwrap_or(0))
                    .put(d.stats.mid_calls)
                    .put(d.stats.nodes)
                    .put(d.stats.max_depth as u64)
                    .put(d.stats.repetitions)
                    .put(d.stats.table.probes)
                    .put(d.stats.table.hits)
                    .put(d.stats.table.stores)
                    .put(d.stats.table.drops)
                    .put(d.busy_ns)
                    .put(d.children.len() as u64);
                for &(code, numbers, flip) in &d.children {
                    w.put(code).put(pack_numbers(numbers)).put(flip as u64);
                }
                w.solved(&d.solved);
            }
            Message::Cancel { epoch } => {
                w.put(CANCEL).put(*epoch);
            }
            Message::Idle { epoch, figures } => {
                w.put(IDLE)
                    .put(*epoch)
                    .put(figures.slots)
                    .put(figures.jobs)
                    .put(figures.busy_ns)
                    .put(figures.elapsed_ns);
            }
            Message::Finish => {
                w.put(FINISH);
            }
            Message::Save { epoch, path, stamp } => {
                w.put(SAVE).put(*epoch);
                w.text(path);
                w.put(*stamp);
            }
            Message::Saved { epoch, bytes } => {
                w.put(SAVED).put(*epoch).put(*bytes);
            }
        }
        w.0
    }

    /// Reads a message.
    pub fn decode(words: &[u64]) -> Result<Message, WireError> {
        let mut r = Reader(words);
        let message = match r.get()? {
            START => {
                if r.get()? != PROTOCOL {
                    return Err(WireError("another protocol version"));
                }
                let epoch = r.get()?;
                let new_root = flag(r.get()?)?;
                let root_hash = r.get()?;
                let attacker = player(r.get()?)?;
                let (num, den) = (r.get()?, r.get()?);
                let epsilon = u32::try_from(num)
                    .ok()
                    .zip(u32::try_from(den).ok())
                    .and_then(|(n, d)| Epsilon::new(n, d))
                    .ok_or(WireError("epsilon"))?;
                let dfpn = DfpnConfig {
                    epsilon,
                    search_stale_entries: flag(r.get()?)?,
                    weak_delta: flag(r.get()?)?,
                    share_unsolved: flag(r.get()?)?,
                };
                Message::Start(Start {
                    epoch,
                    new_root,
                    root_hash,
                    attacker,
                    dfpn,
                    max_depth: r.get()?,
                    max_moves: r.get()?,
                    table_bytes: r.get()?,
                    threads: r.get()?,
                    solved_per_job: r.get()?,
                    shared_min_work_log2: u8::try_from(r.get()?)
                        .map_err(|_| WireError("shared work"))?,
                    resume: r.text()?,
                    resume_stamp: r.get()?,
                })
            }
            HELLO => {
                if r.get()? != PROTOCOL {
                    return Err(WireError("another protocol version"));
                }
                Message::Hello {
                    epoch: r.get()?,
                    root_hash: r.get()?,
                    slots: r.get()?,
                    resumed: ResumedTable::from_word(r.get()?)?,
                }
            }
            kind if kind & 0xFF == JOB && kind >> 25 == 0 => {
                let (len, packed) = ((kind >> 8 & 0xFFFF) as usize, kind >> 24 & 1 == 1);
                let epoch = r.get()?;
                let slot_node = r.get()?;
                let (slot, node) = (slot_node & 0xFFFF_FFFF, (slot_node >> 32) as u32);
                let serial = r.get()?;
                let threshold = unpack_numbers(r.get()?);
                let (max_work, max_nodes, max_time_us) = (r.get()?, r.get()?, r.get()?);
                let words = if packed { len.div_ceil(8) } else { len };
                if words > r.0.len() {
                    return Err(WireError("path longer than the message"));
                }
                let mut path = Vec::with_capacity(len);
                for _ in 0..words {
                    let w = r.get()?;
                    if packed {
                        let bytes = w.to_le_bytes();
                        let take = (len - path.len()).min(8);
                        if bytes[take..].iter().any(|&b| b != 0) {
                            return Err(WireError("path padding"));
                        }
                        path.extend(bytes[..take].iter().map(|&b| b as u64));
                    } else {
                        path.push(w);
                    }
                }
                Message::Job(JobOrder {
                    epoch,
                    slot,
                    ticket: (node, serial),
                    threshold,
                    max_work,
                    max_nodes,
                    max_time_us,
                    path,
                    solved: r.solved()?,
                })
            }
            DONE => {
                let epoch = r.get()?;
                let slot = r.get()?;
                let node = u32::try_from(r.get()?).map_err(|_| WireError("node"))?;
                let serial = r.get()?;
                let status = word_status(r.get()?)?;
                let numbers = unpack_numbers(r.get()?);
                let has_best = flag(r.get()?)?;
                let best = r.get()?;
                let stats = r.stats()?;
                let busy_ns = r.get()?;
                let n = r.len(3)?;
                let children = (0..n)
                    .map(|_| Ok((r.get()?, unpack_numbers(r.get()?), flag(r.get()?)?)))
                    .collect::<Result<_, WireError>>()?;
                Message::Done(JobDone {
                    epoch,
                    slot,
                    ticket: (node, serial),
                    status,
                    numbers,
                    best_move: has_best.then_some(best),
                    stats,
                    busy_ns,
                    children,
                    solved: r.solved()?,
                })
            }
            CANCEL => Message::Cancel { epoch: r.get()? },
            IDLE => Message::Idle {
                epoch: r.get()?,
                figures: RankFigures {
                    slots: r.get()?,
                    jobs: r.get()?,
                    busy_ns: r.get()?,
                    elapsed_ns: r.get()?,
                },
            },
            FINISH => Message::Finish,
            SAVE => Message::Save {
                epoch: r.get()?,
                path: r.text()?,
                stamp: r.get()?,
            },
            SAVED => Message::Saved {
                epoch: r.get()?,
                bytes: r.get()?,
            },
            _ => return Err(WireError("unknown kind")),
        };
        r.end()?;
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Message> {
        let entry = SolvedEntry {
            key: 0xDEAD_BEEF_0123_4567,
            entry: Entry {
                numbers: Numbers::WIN,
                best: Some(3),
                distance: 17,
                work_log2: 12,
            },
        };
        vec![
            Message::Start(Start {
                epoch: 3,
                new_root: true,
                root_hash: 99,
                attacker: Player::Second,
                dfpn: DfpnConfig {
                    epsilon: Epsilon::new(1, 3).unwrap(),
                    search_stale_entries: true,
                    weak_delta: false,
                    share_unsolved: true,
                },
                max_depth: 256,
                max_moves: 81,
                table_bytes: 1 << 26,
                threads: 0,
                solved_per_job: 8,
                shared_min_work_log2: 6,
                resume: "/tmp/a checkpoint ✓.ck".into(),
                resume_stamp: 0x5EED,
            }),
            Message::Hello {
                epoch: 3,
                root_hash: 99,
                slots: 2,
                resumed: ResumedTable::Missing,
            },
            Message::Job(JobOrder {
                epoch: 3,
                slot: 1,
                ticket: (7, 12),
                threshold: Numbers::new(5, u32::MAX),
                max_work: 20_000,
                max_nodes: u64::MAX,
                max_time_us: u64::MAX,
                path: vec![3, 2, 6],
                solved: vec![entry],
            }),
            Message::Done(JobDone {
                epoch: 3,
                slot: 1,
                ticket: (7, 12),
                status: Status::Unknown(Reason::Thresholds),
                numbers: Numbers::new(4, 9),
                best_move: Some(5),
                stats: Stats {
                    mid_calls: 123,
                    nodes: 456,
                    max_depth: 30,
                    repetitions: 2,
                    table: TableStats {
                        probes: 1,
                        hits: 2,
                        stores: 3,
                        drops: 4,
                    },
                    elapsed_us: None,
                    ..Stats::default()
                },
                busy_ns: 777,
                children: vec![(0, Numbers::UNIT, true), (6, Numbers::LOSS, false)],
                solved: vec![entry, entry],
            }),
            Message::Done(JobDone {
                epoch: 1,
                slot: 0,
                ticket: (0, 1),
                status: Status::Proven,
                numbers: Numbers::WIN,
                best_move: None,
                stats: Stats::default(),
                busy_ns: 0,
                children: vec![],
                solved: vec![],
            }),
            Message::Cancel { epoch: 3 },
            Message::Idle {
                epoch: 3,
                figures: RankFigures {
                    slots: 2,
                    jobs: 40,
                    busy_ns: 5,
                    elapsed_ns: 6,
                },
            },
            Message::Finish,
            Message::Save {
                epoch: 3,
                path: "c4.ck".into(),
                stamp: u64::MAX,
            },
            Message::Saved {
                epoch: 3,
                bytes: 1 << 26,
            },
        ]
    }

    #[test]
    fn every_message_reads_back_as_written() {
        for m in samples() {
            assert_eq!(Message::decode(&m.encode()), Ok(m.clone()), "{m:?}");
        }
    }

    #[test]
    fn jobs_are_small_and_large_codes_travel_whole() {
        let job = |path: Vec<u64>| {
            Message::Job(JobOrder {
                epoch: 1,
                slot: 3,
                ticket: (u32::MAX, u64::MAX),
                threshold: Numbers::new(1, 2),
                max_work: 20_000,
                max_nodes: u64::MAX,
                max_time_us: u64::MAX,
                path,
                solved: vec![],
            })
        };
        let long = job((0..64).map(|i| i % 81).collect());
        assert!(8 * long.encode().len() <= JOB_BYTES);
        assert_eq!(Message::decode(&long.encode()), Ok(long));
        let wide = job(vec![3, 1 << 40, 255, 256, u64::MAX]);
        assert_eq!(Message::decode(&wide.encode()), Ok(wide));
        for len in 0..20 {
            let m = job((0..len).collect());
            assert_eq!(Message::decode(&m.encode()), Ok(m));
        }
    }

    #[test]
    fn every_status_reads_back_as_written() {
        let statuses = [Status::Proven, Status::Disproven]
            .into_iter()
            .chain(REASONS.iter().map(|&r| Status::Unknown(r)));
        for s in statuses {
            assert_eq!(word_status(status_word(s)), Ok(s));
        }
        assert!(word_status(2 + REASONS.len() as u64).is_err());
    }

    #[test]
    fn cut_padded_or_garbled_messages_are_errors() {
        for m in samples() {
            let words = m.encode();
            for cut in 0..words.len() {
                assert!(
                    Message::decode(&words[..cut]).is_err(),
                    "{m:?} cut at {cut}"
                );
            }
            let mut longer = words.clone();
            longer.push(0);
            assert!(Message::decode(&longer).is_err(), "{m:?} padded");
        }
        assert!(Message::decode(&[42]).is_err());
        // A list length far beyond the message is refused before anything is allocated.
        let mut job = samples()[2].encode();
        job[0] |= 0xFFFF << 8;
        assert!(Message::decode(&job).is_err());
        let mut job = samples()[2].encode();
        let last = job.len() - 4;
        job[last] = u64::MAX;
        assert!(Message::decode(&job).is_err());
        // Another protocol version.
        let mut hello = samples()[1].encode();
        hello[1] = PROTOCOL + 1;
        assert!(Message::decode(&hello).is_err());
    }
}
