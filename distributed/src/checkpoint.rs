//! Checkpoint files: the coordinator's root tree and table, so that a long solve can continue
//! in a later run instead of starting over.
//!
//! A file holds what is being solved (a label the caller chooses, the root's hash, the
//! question and the search under way), the scheduler's [`TreeSnapshot`] with moves as
//! [`MoveCodec`] codes, the counters of the searches so far, and the bytes of the coordinator's
//! table ([`Table::as_bytes`](proofnum::Table::as_bytes) layout). All numbers are little-endian
//! 64-bit words, and the file ends with a 64-bit checksum of everything before it, so a
//! truncated or damaged file is refused with a clear error instead of resuming from garbage.
//! The checksum stops accidents, not forgers: like a loaded table, a checkpoint is believed
//! (its solved leaves stay solved), so keep checkpoints where only the solver writes them.
//!
//! A file is written to `PATH.tmp`, flushed to disk, then renamed over `PATH`: a crash while
//! writing leaves the previous checkpoint whole.
//!
//! The tree alone does not carry a search far: most of the work lies below its leaves, in the
//! ranks' tables. So at each checkpoint every worker rank also writes its own table beside the
//! file, as `PATH.rankN` (the same way: temporary file, flush, rename), the checkpoint lists
//! the ranks it asked to ([`Checkpoint::rank_files`]), and a resumed solve fills each rank's
//! table from its file. A listed rank whose file is missing (or cannot be read) stops the
//! resume with an error naming the file; a rank the list does not have (a resume on more
//! ranks) starts with an empty table. A rank's file starts with the
//! [`stamp`] of its solve (label and root position), and a rank loads only a file of the solve
//! being resumed: one left there by another solve, say of another game whose positions hash
//! alike, would make the rank believe that solve's results (`tests/rank_files.rs`: a loss
//! reported proven). A table of the same solve is sound to load whenever it was saved and
//! whichever rank reads it: its entries are facts about this game's positions. Damage is the
//! entries' own checks' to find ([`proofnum::table`]), a cut file the table header's. Measured
//! with one worker rank (`solve_mpi`, 16 MiB tables): Connect Four `444444` stopped after
//! 803,510 of the 1,584,318 MID calls a solve from scratch takes needed 692,186 more with the
//! ranks' tables and 1,359,178 with the tree alone; on a small middle-game position
//! (`tests/local_ranks.rs`: 69,093 from scratch, stopped after 34,546) the tables did not
//! help (34,555 more with them, 26,201 without). The longer the search, the more of it lives
//! in the tables.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::Path;

use proofnum::parallel::{SnapshotNode, TreeSnapshot};
use proofnum::{Game, MoveCodec, Player, Stats, TableStats};

use crate::wire::{pack_numbers, unpack_numbers};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"PNMPICK\0";
/// The layout version; a file of another version is refused, but for version 1, which did not
/// list the ranks' table files ([`Checkpoint::rank_files`] is then `None`).
pub const VERSION: u64 = 2;
/// The first eight bytes of a worker rank's table file (`PATH.rankN`).
pub const RANK_MAGIC: [u8; 8] = *b"PNMPITB\0";
/// The layout version of a rank's table file.
pub const RANK_VERSION: u64 = 1;
/// Bytes before the table in a rank's table file: magic, version, stamp.
pub const RANK_HEADER_BYTES: usize = 24;

/// What a solve is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The value for the side to move (up to two searches).
    Value,
    /// Can this player force a win? (one search)
    CanWin(Player),
}

/// A checkpoint: see the [module docs](self). Moves are codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// What the caller said is being solved (for `solve_mpi`, the game and position); a resume
    /// checks it.
    pub label: String,
    /// The root position's hash.
    pub root_hash: u64,
    /// The question.
    pub question: Question,
    /// The attacker of the search under way (for a value, the opponent once the side to move
    /// was shown not to win).
    pub attacker: Player,
    /// Counters of the searches finished before the one under way (and their jobs).
    pub finished: (Stats, u64),
    /// The root tree of the search under way.
    pub tree: TreeSnapshot<u64>,
    /// The coordinator's table bytes; empty for none.
    pub table: Vec<u8>,
    /// The worker ranks asked to write their tables beside the checkpoint (`PATH.rankN`): a
    /// resume expects each of their files. `None` for a file of layout version 1, which did
    /// not say: a resume then expects a file from every worker rank.
    pub rank_files: Option<Vec<u64>>,
}

/// Why a checkpoint could not be read or used.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// The file is not a checkpoint of this version, or is damaged.
    Invalid(&'static str),
    /// A move code in the tree is not one of the game's.
    BadMove(u64),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Invalid(why) => write!(f, "not a usable checkpoint: {why}"),
            CheckpointError::BadMove(code) => {
                write!(
                    f,
                    "the checkpoint's tree has move code {code}, no move of this game"
                )
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<std::io::Error> for CheckpointError {
    fn from(e: std::io::Error) -> Self {
        CheckpointError::Io(e)
    }
}

/// Writes `parts` one after the other to `path` + `.tmp`, flushes it to disk and renames it
/// over `path`, so that `path` is always either its old or its new contents. On an error (a
/// full disk, a path that cannot be written) the temporary file is removed, so a failed write
/// takes no space, and the error names the file.
pub fn write_atomically(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let written = fs::File::create(&tmp)
        .and_then(|mut file| {
            for part in parts {
                file.write_all(part)?;
            }
            file.sync_all()
        })
        .and_then(|()| fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
    })
}

/// Checks, before a solve, that checkpoints can be written to `path`: that it is not a
/// directory, and that its temporary file (`path` + `.tmp`, [`write_atomically`]) can be
/// created in its directory; the temporary file is removed again. The error names the file.
/// (Whether the disk holds a whole checkpoint is known only when one is written.)
pub fn check_writable(path: &Path) -> Result<(), CheckpointError> {
    let cannot = |why: &dyn fmt::Display| {
        CheckpointError::Io(std::io::Error::other(format!(
            "cannot write {}: {why}",
            path.display()
        )))
    };
    if path.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    fs::File::create(&tmp).map_err(|e| cannot(&e))?;
    let _ = fs::remove_file(&tmp);
    Ok(())
}

/// The identity of a solve in its files: a hash of its checkpoint's label and root position.
/// Worker ranks write it at the head of their table files and load only files that carry the
/// stamp of the solve being resumed.
pub fn stamp(label: &str, root_hash: u64) -> u64 {
    let mut bytes = label.as_bytes().to_vec();
    bytes.extend_from_slice(&root_hash.to_le_bytes());
    checksum(&bytes)
}

/// The header of a rank's table file for the solve with `stamp`; the table's bytes follow.
pub fn rank_file_header(stamp: u64) -> [u8; RANK_HEADER_BYTES] {
    let mut header = [0u8; RANK_HEADER_BYTES];
    header[..8].copy_from_slice(&RANK_MAGIC);
    header[8..16].copy_from_slice(&RANK_VERSION.to_le_bytes());
    header[16..].copy_from_slice(&stamp.to_le_bytes());
    header
}

/// The table bytes of a rank's file, or why they are not for the solve with `stamp`.
pub fn rank_file_table(file: &[u8], stamp: u64) -> Result<&[u8], CheckpointError> {
    let Some((header, table)) = file.split_at_checked(RANK_HEADER_BYTES) else {
        return Err(CheckpointError::Invalid("no rank table header"));
    };
    if header[..8] != RANK_MAGIC {
        return Err(CheckpointError::Invalid("no rank table header"));
    }
    if header[8..16] != RANK_VERSION.to_le_bytes() {
        return Err(CheckpointError::Invalid("another layout version"));
    }
    if header[16..] != stamp.to_le_bytes() {
        return Err(CheckpointError::Invalid(
            "the table is of another solve (label or position)",
        ));
    }
    Ok(table)
}

/// FNV-1a over 64-bit words: cheap, and enough to notice damage.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The snapshot with moves as codes.
pub fn encode_tree<G: MoveCodec>(tree: &TreeSnapshot<G::Move>) -> TreeSnapshot<u64> {
    TreeSnapshot {
        nodes: tree
            .nodes
            .iter()
            .map(|n| SnapshotNode {
                parent: n.parent,
                mv: G::encode_move(n.mv),
                numbers: n.numbers,
                flip: n.flip,
                work: n.work,
                job_best: n.job_best.map(G::encode_move),
            })
            .collect(),
        stats: tree.stats,
        jobs: tree.jobs,
    }
}

/// The snapshot with codes as moves; an error for a code the game does not know. (The root's
/// move is a placeholder and is not decoded.)
pub fn decode_tree<G: Game + MoveCodec>(
    tree: &TreeSnapshot<u64>,
) -> Result<TreeSnapshot<G::Move>, CheckpointError> {
    let decode = |code| G::decode_move(code).ok_or(CheckpointError::BadMove(code));
    let nodes = tree
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Ok(SnapshotNode {
                parent: n.parent,
                mv: if i == 0 {
                    G::Move::default()
                } else {
                    decode(n.mv)?
                },
                numbers: n.numbers,
                flip: n.flip,
                work: n.work,
                job_best: n.job_best.map(decode).transpose()?,
            })
        })
        .collect::<Result<_, CheckpointError>>()?;
    Ok(TreeSnapshot {
        nodes,
        stats: tree.stats,
        jobs: tree.jobs,
    })
}

/// The rank list's length word for [`Checkpoint::rank_files`] `None`.
const UNLISTED: u64 = u64::MAX;

struct Out(Vec<u8>);

impl Out {
    fn word(&mut self, w: u64) {
        self.0.extend_from_slice(&w.to_le_bytes());
    }

    fn bytes(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn stats(&mut self, s: &Stats, jobs: u64) {
        for w in [
            s.mid_calls,
            s.nodes,
            s.max_depth as u64,
            s.repetitions,
            s.table.probes,
            s.table.hits,
            s.table.stores,
            s.table.drops,
            jobs,
        ] {
            self.word(w);
        }
    }
}

struct In<'b>(&'b [u8]);

impl<'b> In<'b> {
    fn word(&mut self) -> Result<u64, CheckpointError> {
        if self.0.len() < 8 {
            return Err(CheckpointError::Invalid("truncated"));
        }
        let (w, rest) = self.0.split_at(8);
        self.0 = rest;
        Ok(u64::from_le_bytes(w.try_into().expect("8 bytes")))
    }

    fn bytes(&mut self) -> Result<&'b [u8], CheckpointError> {
        let n = self.word()?;
        if n > self.0.len() as u64 {
            return Err(CheckpointError::Invalid("truncated"));
        }
        let (b, rest) = self.0.split_at(n as usize);
        self.0 = rest;
        Ok(b)
    }

    fn stats(&mut self) -> Result<(Stats, u64), CheckpointError> {
        let mut w = [0u64; 9];
        for x in &mut w {
            *x = self.word()?;
        }
        let stats = Stats {
            mid_calls: w[0],
            nodes: w[1],
            max_depth: u32::try_from(w[2]).map_err(|_| CheckpointError::Invalid("depth"))?,
            repetitions: w[3],
            table: TableStats {
                probes: w[4],
                hits: w[5],
                stores: w[6],
                drops: w[7],
            },
            elapsed_us: None,
            ..Stats::default()
        };
        Ok((stats, w[8]))
    }
}

fn player_word(p: Player) -> u64 {
    p.index() as u64
}

fn word_player(w: u64) -> Result<Player, CheckpointError> {
    match w {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(CheckpointError::Invalid("player")),
    }
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Out(Vec::with_capacity(
            self.table.len() + 64 * self.tree.nodes.len(),
        ));
        out.0.extend_from_slice(&MAGIC);
        out.word(VERSION);
        out.bytes(self.label.as_bytes());
        out.word(self.root_hash);
        out.word(match self.question {
            Question::Value => 2,
            Question::CanWin(p) => player_word(p),
        });
        out.word(player_word(self.attacker));
        out.stats(&self.finished.0, self.finished.1);
        out.stats(&self.tree.stats, self.tree.jobs);
        out.word(self.tree.nodes.len() as u64);
        for n in &self.tree.nodes {
            out.word(n.parent as u64 | (n.flip as u64) << 32 | (n.job_best.is_some() as u64) << 33);
            out.word(n.mv);
            out.word(pack_numbers(n.numbers));
            out.word(n.work);
            out.word(n.job_best.unwrap_or(0));
        }
        out.bytes(&self.table);
        match &self.rank_files {
            Some(ranks) => {
                out.word(ranks.len() as u64);
                ranks.iter().for_each(|&r| out.word(r));
            }
            None => out.word(UNLISTED),
        }
        let sum = checksum(&out.0);
        out.word(sum);
        out.0
    }

    /// Reads a checkpoint from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < MAGIC.len() + 16 || bytes[..MAGIC.len()] != MAGIC {
            return Err(CheckpointError::Invalid("no checkpoint header"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(CheckpointError::Invalid(
                "checksum mismatch (damaged or truncated)",
            ));
        }
        let mut r = In(&body[MAGIC.len()..]);
        let version = r.word()?;
        if version != VERSION && version != 1 {
            return Err(CheckpointError::Invalid("another layout version"));
        }
        let label = String::from_utf8(r.bytes()?.to_vec())
            .map_err(|_| CheckpointError::Invalid("label"))?;
        let root_hash = r.word()?;
        let question = match r.word()? {
            2 => Question::Value,
            w => Question::CanWin(word_player(w)?),
        };
        let attacker = word_player(r.word()?)?;
        let finished = r.stats()?;
        let (stats, jobs) = r.stats()?;
        let count = r.word()?;
        if count > (r.0.len() / 40) as u64 {
            return Err(CheckpointError::Invalid("truncated tree"));
        }
        let mut nodes = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let head = r.word()?;
            let mv = r.word()?;
            let numbers = unpack_numbers(r.word()?);
            let work = r.word()?;
            let best = r.word()?;
            nodes.push(SnapshotNode {
                parent: head as u32,
                mv,
                numbers,
                flip: head >> 32 & 1 == 1,
                work,
                job_best: (head >> 33 & 1 == 1).then_some(best),
            });
        }
        let table = r.bytes()?.to_vec();
        let rank_files = match version {
            1 => None,
            _ => match r.word()? {
                UNLISTED => None,
                n if n > (r.0.len() / 8) as u64 => {
                    return Err(CheckpointError::Invalid("truncated rank list"));
                }
                n => Some((0..n).map(|_| r.word()).collect::<Result<_, _>>()?),
            },
        };
        if !r.0.is_empty() {
            return Err(CheckpointError::Invalid("trailing bytes"));
        }
        Ok(Checkpoint {
            label,
            root_hash,
            question,
            attacker,
            finished,
            tree: TreeSnapshot { nodes, stats, jobs },
            table,
            rank_files,
        })
    }

    /// Writes the checkpoint to `path` atomically: to `path` + `.tmp`, flushed, then renamed.
    /// Returns the bytes written. On an error (which names the file) `path` is as it was and
    /// the temporary file is removed.
    pub fn write(&self, path: &Path) -> Result<u64, CheckpointError> {
        let bytes = self.to_bytes();
        write_atomically(path, &[&bytes])?;
        Ok(bytes.len() as u64)
    }

    /// Reads the checkpoint at `path`.
    pub fn read(path: &Path) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::from_bytes(&fs::read(path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proofnum::Numbers;

    fn sample() -> Checkpoint {
        let node = |parent, mv, numbers, best| SnapshotNode {
            parent,
            mv,
            numbers,
            flip: true,
            work: 1234,
            job_best: best,
        };
        Checkpoint {
            label: "connect4 4453".into(),
            root_hash: 0xABCD,
            question: Question::Value,
            attacker: Player::Second,
            finished: (
                Stats {
                    mid_calls: 5,
                    ..Stats::default()
                },
                2,
            ),
            tree: TreeSnapshot {
                nodes: vec![
                    node(
                        SnapshotNode::<u64>::ROOT_PARENT,
                        0,
                        Numbers::new(3, 4),
                        Some(2),
                    ),
                    node(0, 3, Numbers::WIN, None),
                    node(0, 5, Numbers::new(1, 9), Some(6)),
                ],
                stats: Stats {
                    mid_calls: 77,
                    nodes: 99,
                    max_depth: 12,
                    ..Stats::default()
                },
                jobs: 9,
            },
            table: vec![1, 2, 3, 4, 5],
            rank_files: Some(vec![1, 3]),
        }
    }

    /// `c` in layout version 1 (no rank list), as the previous release wrote it.
    fn version_1(c: &Checkpoint) -> Vec<u8> {
        let bytes = Checkpoint {
            rank_files: None,
            ..c.clone()
        }
        .to_bytes();
        // The body without its checksum and the rank list's one word, at version 1.
        let mut body = bytes[..bytes.len() - 16].to_vec();
        body[8..16].copy_from_slice(&1u64.to_le_bytes());
        let sum = checksum(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        body
    }

    #[test]
    fn a_version_1_checkpoint_reads_without_its_rank_list() {
        let c = sample();
        let read = Checkpoint::from_bytes(&version_1(&c)).unwrap();
        assert_eq!(read.rank_files, None);
        assert_eq!(
            read,
            Checkpoint {
                rank_files: None,
                ..c.clone()
            }
        );
        let unlisted = Checkpoint {
            rank_files: None,
            ..c
        };
        assert_eq!(
            Checkpoint::from_bytes(&unlisted.to_bytes()).unwrap(),
            unlisted
        );
    }

    #[test]
    fn a_path_checkpoints_cannot_be_written_to_is_found_before_a_solve() {
        let dir = std::env::temp_dir().join(format!("pnmpi-ck-writable-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ck");
        check_writable(&path).unwrap();
        assert!(
            !path.exists() && !dir.join("a.ck.tmp").exists(),
            "nothing left behind"
        );
        for (bad, why) in [
            (
                dir.join("no such directory").join("a.ck"),
                "No such file or directory",
            ),
            (dir.clone(), "it is a directory"),
        ] {
            let e = check_writable(&bad).unwrap_err().to_string();
            assert!(
                e.contains(&format!("cannot write {}: {why}", bad.display())),
                "{e}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let c = sample();
        assert_eq!(Checkpoint::from_bytes(&c.to_bytes()).unwrap(), c);
        let dir = std::env::temp_dir().join(format!("pnmpi-ck-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ck");
        c.write(&path).unwrap();
        assert_eq!(Checkpoint::read(&path).unwrap(), c);
        assert!(!dir.join("a.ck.tmp").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rank_file_is_read_only_for_its_own_solve() {
        let stamp = stamp("connect4 4453", 0xABCD);
        let mut file = rank_file_header(stamp).to_vec();
        file.extend_from_slice(&[7, 8, 9]);
        assert_eq!(rank_file_table(&file, stamp).unwrap(), &[7, 8, 9]);
        // Another label or another root is another solve.
        for other in [
            super::stamp("connect4 4454", 0xABCD),
            super::stamp("connect4 4453", 0xABCE),
        ] {
            assert_ne!(other, stamp);
            assert!(rank_file_table(&file, other).is_err());
        }
        // A bare table (as written before the header) or a cut header.
        assert!(rank_file_table(&file[RANK_HEADER_BYTES..], stamp).is_err());
        assert!(rank_file_table(&file[..RANK_HEADER_BYTES - 1], stamp).is_err());
    }

    #[test]
    fn damaged_or_cut_files_are_refused() {
        let bytes = sample().to_bytes();
        for cut in [0, 8, 20, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                Checkpoint::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        for i in (0..bytes.len()).step_by(7) {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x10;
            assert!(
                Checkpoint::from_bytes(&damaged).is_err(),
                "byte {i} flipped"
            );
        }
    }
}
