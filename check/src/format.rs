//! Reading a certificate file (format versions 1 and 2; `docs/src/certificates.md` in the repository has
//! the format). Written from the format's description, not from the writer's code.

use std::collections::HashMap;
use std::fmt;

use proofnum_game::{Player, RepetitionRule};

/// What a certificate's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// The game's name, as the writer's caller gave it.
    pub game: String,
    /// The repetition rule the proof was found under.
    pub rule: RepetitionRule,
    /// The player whose forced win is the question.
    pub attacker: Player,
    /// True for "the attacker wins" (proven), false for "it does not" (disproven).
    pub attacker_wins: bool,
    /// The root position's exact encoding; empty when the game has none.
    pub root_encoding: Vec<u8>,
}

/// One position of the proof, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// The claimed winner is to move: the index of its winning move, and where it leads.
    Or {
        /// The move's index among the moves the game generates.
        index: u64,
        /// The node it leads to (0: a position the game scores).
        child: u64,
    },
    /// The other side is to move: where each of its moves leads, in the game's order.
    And {
        /// The nodes (0: a position the game scores).
        children: Vec<u64>,
    },
    /// Either side is to move, in a game with dominance (format version 2): the position
    /// holds because node `by`, a position of its class with material no better for the
    /// claimed winner, holds.
    Dominated {
        /// The dominating node (never 0).
        by: u64,
    },
}

/// A certificate read into memory.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The header.
    pub heading: Heading,
    /// The records by node id.
    pub records: HashMap<u64, Record>,
    /// The root's node (0: a root the game scores).
    pub root: u64,
}

/// Why bytes are not a certificate, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a valid certificate: {} (at byte {})",
            self.what, self.offset
        )
    }
}

impl std::error::Error for FormatError {}

/// Reads a whole certificate.
pub fn read(bytes: &[u8]) -> Result<Certificate, FormatError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(6)? != b"PNCERT" {
        return Err(r.error_at(0, "does not start with PNCERT"));
    }
    let version = r.byte()?;
    if !(1..=2).contains(&version) {
        return Err(r.error_at(6, "format version is neither 1 nor 2"));
    }
    r.byte()?;
    let name_len = r.length()?;
    let game = String::from_utf8(r.take(name_len)?.to_vec())
        .map_err(|_| r.error("game name is not UTF-8"))?;
    let rule = match r.byte()? {
        0 => RepetitionRule::Acyclic,
        1 => RepetitionRule::Draw,
        2 => RepetitionRule::ByPosition,
        _ => return Err(r.error("unknown repetition rule")),
    };
    let attacker = match r.byte()? {
        0 => Player::First,
        1 => Player::Second,
        _ => return Err(r.error("attacker is neither 0 nor 1")),
    };
    let attacker_wins = match r.byte()? {
        0 => false,
        1 => true,
        _ => return Err(r.error("claim is neither 0 nor 1")),
    };
    let encoding_len = r.length()?;
    let root_encoding = r.take(encoding_len)?.to_vec();
    let mut records = HashMap::new();
    let root = loop {
        let start = r.at;
        match r.byte()? {
            0 => break resolve(0, r.varint()?).ok_or(r.error("root reference out of range"))?,
            tag @ (1..=3) => {
                if tag == 3 && version < 2 {
                    return Err(r.error_at(start, "a dominance record in a version 1 file"));
                }
                let id = r.varint()?;
                if id == 0 {
                    return Err(r.error_at(start, "a record with node id 0"));
                }
                let record = if tag == 1 {
                    let index = r.varint()?;
                    let child =
                        resolve(id, r.varint()?).ok_or(r.error("reference out of range"))?;
                    Record::Or { index, child }
                } else if tag == 3 {
                    let by = resolve(id, r.varint()?).ok_or(r.error("reference out of range"))?;
                    if by == 0 {
                        return Err(r.error("a dominance record refers to no node"));
                    }
                    Record::Dominated { by }
                } else {
                    let count = r.length()?;
                    let mut children = Vec::with_capacity(count.min(1 << 16));
                    for _ in 0..count {
                        children.push(
                            resolve(id, r.varint()?).ok_or(r.error("reference out of range"))?,
                        );
                    }
                    Record::And { children }
                };
                if records.insert(id, record).is_some() {
                    return Err(r.error_at(start, "two records with the same node id"));
                }
            }
            _ => return Err(r.error_at(start, "unknown record tag")),
        }
    };
    let count = r.varint()?;
    if count != records.len() as u64 {
        return Err(r.error("the trailer's record count differs from the records read"));
    }
    let summed = fnv1a(&bytes[..r.at]);
    let stored = u64::from_le_bytes(r.take(8)?.try_into().expect("eight bytes"));
    if summed != stored {
        return Err(r.error("checksum mismatch: the file is damaged"));
    }
    if r.at != bytes.len() {
        return Err(r.error("bytes after the trailer"));
    }
    Ok(Certificate {
        heading: Heading {
            game,
            rule,
            attacker,
            attacker_wins,
            root_encoding,
        },
        records,
        root,
    })
}

/// The node a reference from node `from` names: 0 stays 0 (a position the game scores),
/// otherwise the reference is `zigzag(to − from) + 1`. `None` when that leaves the ids.
fn resolve(from: u64, reference: u64) -> Option<u64> {
    if reference == 0 {
        return Some(0);
    }
    let zigzag = reference - 1;
    let delta = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
    let to = from.checked_add_signed(delta)?;
    (to != 0).then_some(to)
}

/// FNV-1a, 64 bits (Fowler, Noll and Vo): offset basis 0xcbf29ce484222325, prime 0x100000001b3.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, what: &'static str) -> FormatError {
        self.error_at(self.at, what)
    }

    fn error_at(&self, offset: usize, what: &'static str) -> FormatError {
        FormatError { offset, what }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or(self.error("the file ends early (truncated)"))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn byte(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, FormatError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7F);
            if shift == 63 && bits > 1 {
                return Err(self.error_at(start, "a number above 2^64"));
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error_at(start, "a number longer than ten bytes"))
    }

    /// A count or length, which must fit the rest of the file.
    fn length(&mut self) -> Result<usize, FormatError> {
        let start = self.at;
        let n = self.varint()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len())
            .ok_or(self.error_at(start, "a length longer than the file"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A certificate from its body (after the header), with the trailer's checksum.
    fn file(header_and_body: &[u8]) -> Vec<u8> {
        let mut bytes = header_and_body.to_vec();
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    const HEADER: &[u8] = &[
        b'P', b'N', b'C', b'E', b'R', b'T', 1, 0, 3, b'n', b'i', b'm', 0, 0, 1, 1, 7,
    ];

    #[test]
    fn reads_what_the_format_describes() {
        // Node 2: an AND record with two leaves; node 1: an OR record, move 300 to node 2.
        let body = [HEADER, &[2, 2, 2, 0, 0, 1, 1, 0xAC, 0x02, 3, 0, 3, 2]].concat();
        let c = read(&file(&body)).unwrap();
        assert_eq!(c.heading.game, "nim");
        assert_eq!(c.heading.rule, RepetitionRule::Acyclic);
        assert_eq!(
            (c.heading.attacker, c.heading.attacker_wins),
            (Player::First, true)
        );
        assert_eq!(c.heading.root_encoding, [7]);
        assert_eq!(c.root, 1);
        assert_eq!(
            c.records[&1],
            Record::Or {
                index: 300,
                child: 2
            }
        );
        assert_eq!(
            c.records[&2],
            Record::And {
                children: vec![0, 0]
            }
        );
    }

    #[test]
    fn damage_is_named() {
        let body = [HEADER, &[2, 2, 2, 0, 0, 1, 1, 0xAC, 0x02, 3, 0, 3, 2]].concat();
        let good = file(&body);
        let what = |bytes: &[u8]| read(bytes).unwrap_err().what;
        assert_eq!(
            what(&good[..good.len() - 3]),
            "the file ends early (truncated)"
        );
        assert_eq!(what(&good[..20]), "the file ends early (truncated)");
        let mut flipped = good.clone();
        flipped[24] ^= 1; // the OR record's move index: still well formed
        assert_eq!(what(&flipped), "checksum mismatch: the file is damaged");
        assert_eq!(what(b"PNCERX"), "does not start with PNCERT");
        let mut v3 = good.clone();
        v3[6] = 3;
        assert_eq!(what(&v3), "format version is neither 1 nor 2");
        // A dominance record (tag 3: node 3 holds by node 1) in version 2, not in version 1.
        let v2_header = [&HEADER[..6], &[2], &HEADER[7..]].concat();
        let records: &[u8] = &[2, 2, 2, 0, 0, 1, 1, 0, 3, 3, 3, 4, 0, 3, 3];
        let c = read(&file(&[&v2_header, records].concat())).unwrap();
        assert_eq!(c.records[&3], Record::Dominated { by: 1 });
        assert_eq!(
            what(&file(&[HEADER, records].concat())),
            "a dominance record in a version 1 file"
        );
        let to_nothing: &[u8] = &[3, 3, 0, 0, 3, 1];
        assert_eq!(
            what(&file(&[&v2_header, to_nothing].concat())),
            "a dominance record refers to no node"
        );
        let twice = [HEADER, &[2, 2, 2, 0, 0, 2, 2, 1, 0, 0, 3, 2]].concat();
        assert_eq!(what(&file(&twice)), "two records with the same node id");
        let miscounted = [HEADER, &[2, 2, 2, 0, 0, 0, 5, 3]].concat();
        assert_eq!(
            what(&file(&miscounted)),
            "the trailer's record count differs from the records read"
        );
        let mut extra = good.clone();
        extra.push(0);
        assert_eq!(what(&extra), "bytes after the trailer");
    }

    #[test]
    fn references_resolve_as_zigzag_deltas() {
        assert_eq!(resolve(5, 0), Some(0));
        assert_eq!(resolve(5, 1), Some(5));
        assert_eq!(resolve(5, 3), Some(6));
        assert_eq!(resolve(5, 2), Some(4));
        assert_eq!(resolve(0, 3), Some(1));
        assert_eq!(resolve(1, 2), None, "node 0 is no node");
        assert_eq!(resolve(0, 2), None, "below zero");
    }
}
