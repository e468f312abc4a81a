//! Proof certificates: a solved position's proof (or disproof) written as a file that a small
//! checker, sharing no code with the search, confirms from the game's rules alone.
//!
//! [`Dfpn::certify`](crate::Dfpn::certify) writes one while it confirms an answer: the same
//! walk as [`Dfpn::verify`](crate::Dfpn::verify), which accepts only leaves the game scores,
//! streams every position it accepts through a [`Sink`], so the core needs no heap. The
//! `proofnum-check` crate reads and checks it.
//!
//! # Format, version 2
//! A byte stream; integers are unsigned LEB128 varints unless said otherwise.
//! ```text
//! header   "PNCERT" 0x02 0x00          magic, format version, reserved
//!          varint n, n bytes            the game's name (UTF-8), as the writer's caller gave it
//!          u8 rule                      0 acyclic, 1 a repetition is a draw, 2 by position
//!          u8 attacker                  0 the first player, 1 the second
//!          u8 claim                     1 the attacker wins (proven), 0 it does not (disproven)
//!          varint n, n bytes            the root position's exact encoding (n = 0: none)
//! records  OR:  0x01 varint id  varint move  ref
//!          AND: 0x02 varint id  varint count  ref × count
//!          DOM: 0x03 varint id  ref                        (version 2)
//! trailer  0x00 ref(root, from id 0)  varint records  u64 checksum (little-endian)
//! ```
//! A record is a position that holds the claim: an OR record where the claimed winner is to
//! move, with the index of its winning move among the moves the game generates there; an AND
//! record where the other side is to move, with a reference for every move the game generates,
//! in the game's order; in a game with dominance ([`Game::dominance`](crate::Game::dominance)),
//! a DOM record where the position holds because the referenced one, of its class with
//! material no better for the claimed winner, holds (and was checked before). A reference is 0 for a position the game scores itself (its outcome
//! settles the question, or it has no moves), and otherwise `zigzag(child id − parent id) + 1`:
//! a node written elsewhere in the file. Node ids are positive; a node that several positions
//! lead to (a transposition) is written once and referenced; a reference to a node on the
//! current line is a repetition. Records come children first, except references to nodes on
//! the current line and to nodes written before; records that no reference from the root
//! reaches may appear and mean nothing. The checksum is FNV-1a (64-bit) of every byte before
//! it, so a truncated or damaged file fails to read. Version 1 is version 2 without DOM
//! records; readers take both.
//!
//! What makes a certificate valid (the checker's rules) is written up with the format in the
//! guide's certificate chapter (`docs/src/certificates.md`): in short, every line it prescribes
//! ends at a position the game scores as the claim needs, or, where the repetition rule makes
//! a repetition a non-win for the attacker, at a repetition.

use crate::game::{Player, RepetitionRule};

/// The first bytes of a certificate.
pub const MAGIC: [u8; 6] = *b"PNCERT";
/// The format version this build writes.
pub const FORMAT_VERSION: u8 = 2;
/// Tag of the trailer.
pub(crate) const TAG_END: u8 = 0;
/// Tag of a record where the claimed winner is to move.
pub(crate) const TAG_OR: u8 = 1;
/// Tag of a record where the claimed loser is to move.
pub(crate) const TAG_AND: u8 = 2;
/// Tag of a record that holds by the game's dominance (format version 2).
pub(crate) const TAG_DOMINATED: u8 = 3;

/// Where a certificate's bytes go: a file, a buffer, a C callback.
pub trait Sink {
    /// Takes the next bytes of the certificate, all of them, or fails.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), SinkError>;
}

/// A [`Sink`] could not take the bytes (a full buffer, an I/O error, a callback's refusal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SinkError;

/// A sink over a caller's buffer: the bytes are written from its start, and a certificate
/// longer than the buffer is an error.
pub struct SliceSink<'a> {
    buffer: &'a mut [u8],
    len: usize,
}

impl<'a> SliceSink<'a> {
    /// A sink writing into `buffer`.
    pub fn new(buffer: &'a mut [u8]) -> Self {
        SliceSink { buffer, len: 0 }
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        &self.buffer[..self.len]
    }
}

impl Sink for SliceSink<'_> {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        let end = self.len.checked_add(bytes.len()).ok_or(SinkError)?;
        self.buffer
            .get_mut(self.len..end)
            .ok_or(SinkError)?
            .copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

/// Any [`std::io::Write`] as a sink (wrap a file in a `BufWriter`).
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct IoSink<W: std::io::Write>(pub W);

#[cfg(feature = "std")]
impl<W: std::io::Write> Sink for IoSink<W> {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        self.0.write_all(bytes).map_err(|_| SinkError)
    }
}

/// A growing vector as a sink.
#[cfg(feature = "std")]
impl Sink for std::vec::Vec<u8> {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// What a certificate's header says, besides the format.
#[derive(Clone, Copy, Debug)]
pub struct Heading<'a> {
    /// The game's name, for the checker's caller to match with the rules it checks against.
    pub game: &'a str,
    /// The game's repetition rule.
    pub rule: RepetitionRule,
    /// The player whose forced win is the question.
    pub attacker: Player,
    /// True when the claim is that the attacker wins (proven), false when it does not.
    pub attacker_wins: bool,
    /// The root position's exact encoding ([`crate::Game::encode`]); empty when the game has
    /// none.
    pub root_encoding: &'a [u8],
}

/// FNV-1a's 64-bit offset basis and prime (Fowler, Noll and Vo).
const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

/// The writer of one certificate: encodes records into a sink and keeps the checksum. After
/// the sink fails once, everything else is dropped and [`failed`](Writer::failed) says so.
pub(crate) struct Writer<'s> {
    sink: &'s mut dyn Sink,
    checksum: u64,
    records: u64,
    failed: bool,
}

impl<'s> Writer<'s> {
    /// Starts a certificate with its header.
    pub(crate) fn new(sink: &'s mut dyn Sink, heading: &Heading<'_>) -> Writer<'s> {
        let mut w = Writer {
            sink,
            checksum: FNV_OFFSET,
            records: 0,
            failed: false,
        };
        w.bytes(&MAGIC);
        w.bytes(&[FORMAT_VERSION, 0]);
        w.varint(heading.game.len() as u64);
        w.bytes(heading.game.as_bytes());
        let rule = match heading.rule {
            RepetitionRule::Acyclic => 0,
            RepetitionRule::Draw => 1,
            RepetitionRule::ByPosition => 2,
        };
        w.bytes(&[
            rule,
            heading.attacker.index() as u8,
            heading.attacker_wins as u8,
        ]);
        w.varint(heading.root_encoding.len() as u64);
        w.bytes(heading.root_encoding);
        w
    }

    /// True once the sink refused bytes.
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// An OR record: node `id` is won by its `index`-th move, leading to `child`.
    pub(crate) fn or_node(&mut self, id: u64, index: u64, child: u64) {
        self.bytes(&[TAG_OR]);
        self.varint(id);
        self.varint(index);
        self.varint(reference(id, child));
        self.records += 1;
    }

    /// An AND record: node `id`'s moves lead to `children`, in the game's order.
    pub(crate) fn and_node(&mut self, id: u64, children: impl ExactSizeIterator<Item = u64>) {
        self.bytes(&[TAG_AND]);
        self.varint(id);
        self.varint(children.len() as u64);
        for child in children {
            self.varint(reference(id, child));
        }
        self.records += 1;
    }

    /// A dominance record: node `id` holds because node `by`, a position of its class with
    /// material no better for the claimed winner, holds.
    pub(crate) fn dominated_node(&mut self, id: u64, by: u64) {
        self.bytes(&[TAG_DOMINATED]);
        self.varint(id);
        self.varint(reference(id, by));
        self.records += 1;
    }

    /// Ends the certificate with the root's node (0 for a root the game scores).
    pub(crate) fn finish(mut self, root: u64) -> Result<u64, SinkError> {
        self.bytes(&[TAG_END]);
        self.varint(reference(0, root));
        self.varint(self.records);
        let checksum = self.checksum;
        self.bytes(&checksum.to_le_bytes());
        if self.failed {
            Err(SinkError)
        } else {
            Ok(self.records)
        }
    }

    fn varint(&mut self, mut x: u64) {
        let mut buf = [0u8; 10];
        let mut n = 0;
        loop {
            let low = (x & 0x7F) as u8;
            x >>= 7;
            if x == 0 {
                buf[n] = low;
                n += 1;
                break;
            }
            buf[n] = low | 0x80;
            n += 1;
        }
        self.bytes(&buf[..n]);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        if self.failed {
            return;
        }
        for &b in bytes {
            self.checksum = (self.checksum ^ b as u64).wrapping_mul(FNV_PRIME);
        }
        if self.sink.write_bytes(bytes).is_err() {
            self.failed = true;
        }
    }
}

/// The reference from node `from` to node `to` (0: a position the game scores).
fn reference(from: u64, to: u64) -> u64 {
    if to == 0 {
        return 0;
    }
    let delta = to.wrapping_sub(from) as i64;
    ((delta << 1) ^ (delta >> 63)) as u64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_zigzag_deltas_plus_one() {
        assert_eq!(reference(5, 0), 0, "a leaf");
        assert_eq!(reference(5, 5), 1, "the node itself");
        assert_eq!(reference(5, 6), 3);
        assert_eq!(reference(5, 4), 2);
        assert_eq!(reference(0, 1), 3, "the root from the trailer");
    }

    #[test]
    fn a_certificate_is_header_records_and_a_checksummed_trailer() {
        let mut buffer = [0u8; 64];
        let mut sink = SliceSink::new(&mut buffer);
        let heading = Heading {
            game: "nim",
            rule: RepetitionRule::Acyclic,
            attacker: Player::First,
            attacker_wins: true,
            root_encoding: &[7],
        };
        let mut w = Writer::new(&mut sink, &heading);
        w.and_node(2, [0u64, 0].into_iter());
        w.or_node(1, 300, 2);
        assert_eq!(w.finish(1), Ok(2));
        let bytes = sink.written();
        let body = [
            b'P',
            b'N',
            b'C',
            b'E',
            b'R',
            b'T',
            FORMAT_VERSION,
            0,
            3,
            b'n',
            b'i',
            b'm',
            0,
            0,
            1,
            1,
            7, // header
            TAG_AND,
            2,
            2,
            0,
            0, // node 2: two leaves
            TAG_OR,
            1,
            0xAC,
            0x02,
            3, // node 1: move 300 to node 2
            TAG_END,
            3,
            2, // root node 1, two records
        ];
        assert_eq!(&bytes[..body.len()], &body);
        let mut fnv = FNV_OFFSET;
        for &b in &body {
            fnv = (fnv ^ b as u64).wrapping_mul(FNV_PRIME);
        }
        assert_eq!(&bytes[body.len()..], &fnv.to_le_bytes());
    }

    #[test]
    fn a_full_sink_fails_the_certificate() {
        let mut buffer = [0u8; 10];
        let mut sink = SliceSink::new(&mut buffer);
        let heading = Heading {
            game: "a game with a long name",
            rule: RepetitionRule::Draw,
            attacker: Player::Second,
            attacker_wins: false,
            root_encoding: &[],
        };
        let w = Writer::new(&mut sink, &heading);
        assert!(w.failed());
        assert_eq!(w.finish(0), Err(SinkError));
    }
}
