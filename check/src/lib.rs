//! Checks a proofnum proof certificate against a game's rules, sharing no code with the search.
//!
//! A certificate ([`read`]) claims that a player, the attacker, can force a win from a position
//! (proven), or cannot (disproven), and gives the proof: where the claimed winner is to move,
//! the index of its winning move among the moves the game generates; where the other side is
//! to move, an answer to every move the game generates; and lines that end at positions the
//! game scores itself. [`check`] replays it on a [`Game`] from the `proofnum-game` crate (the
//! rules, nothing of the solver) and answers valid, or invalid with the first faulty step.
//!
//! # The rules the checker applies
//! Every position the certificate leads to is judged in this order:
//! 1. **Repetition** (games whose [`RepetitionRule`] is not `Acyclic`): a position equal to one
//!    on the current line, by exact encoding, ends the line as the rule scores it: under
//!    `Draw` a draw (a non-win for the attacker, so it ends a disproof's line and breaks a
//!    proof's); under `ByPosition` the game's [`repetition_value`](Game::repetition_value).
//! 2. **The game's own score**: an exact [`Outcome`] (win, loss, draw), or a bound that answers
//!    the question (the attacker to move cannot win; the defender to move cannot lose), ends
//!    the line with that value; so does a position without moves
//!    ([`no_moves_value`](Game::no_moves_value)).
//! 3. **The certificate's record**: where the claimed winner is to move, its move must be one
//!    the game generates; where the other side is, it must answer exactly the moves the game
//!    generates. A reference to "a position the game scores" at a position that steps 1 and 2
//!    do not end is a fault.
//! 4. **Dominance** (format version 2, games whose [`dominance`](Game::dominance) is on, not
//!    under `ByPosition`): a dominance record names a node checked *before* (so no claim rests
//!    on itself) whose position is of the same class and has material no better for the
//!    claimed winner ([`material_at_least`](Game::material_at_least)); then the position holds
//!    as that one does. Here the checker takes the game's word, as the search does: the game's
//!    dominance order must be true. Classes are compared by the game's exact class encodings
//!    ([`encode_class`](Game::encode_class)) where it gives them, else by their 64-bit
//!    [`class_hash`](Game::class_hash)es (two classes whose hashes collide would then pass for
//!    one).
//!
//! A line ending at a value against the claim is a fault. Games under `Acyclic` must not
//! repeat: a line that comes back to a node of its own is a fault.
//!
//! # Positions told apart exactly
//! With the game's exact encodings ([`Game::encode`]), the root must be the position the
//! certificate names, repetitions are found by comparing encodings, and a node met again (a
//! transposition) is accepted once its position is the one it was checked at: a proof under
//! `Acyclic` or `Draw` is judged the same on every line that reaches a position (a win found
//! without repetitions is a win with infinite play counted as a draw, whatever the line; a
//! disproof's nodes form a set the defender never has to leave). Under `ByPosition`, where a
//! repetition's value depends on the line, every line is followed to its end. Without
//! encodings the checker follows every line to its end as in a tree, which only games under
//! `Acyclic` allow (a repetition cannot be recognised by a hash alone): the [`Report`] says so.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod format;

use std::collections::{HashMap, HashSet};
use std::fmt;

pub use format::{Certificate, FormatError, Heading, Record, read};
pub use proofnum_game::{
    ENCODING_CAPACITY, Game, MoveList, Outcome, Player, RepetitionRule, Value,
};

/// Bounds on a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after judging this many positions ([`CheckError::Incomplete`]).
    pub max_positions: u64,
    /// The most moves a position may have.
    pub max_moves: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_positions: u64::MAX,
            max_moves: 4096,
        }
    }
}

/// What a valid certificate's check did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// Positions judged (a position met on several lines counts once a line where the checker
    /// follows the lines to their ends).
    pub positions: u64,
    /// Distinct records the proof uses.
    pub records: usize,
    /// True when positions were told apart by the game's exact encodings; false when the game
    /// has none and the certificate was followed as a tree.
    pub exact: bool,
    /// The longest line followed, in plies.
    pub depth: usize,
}

/// Why a check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The certificate is not about this game, position or rule.
    Mismatch(String),
    /// The proof is wrong: `fault` at the position that `line` (move indices among the moves
    /// the game generates, from the root) leads to.
    Invalid {
        /// The moves from the root to the faulty position.
        line: Vec<u64>,
        /// What is wrong there.
        fault: Fault,
    },
    /// The game broke its contract (more moves than [`Limits::max_moves`], an encoding longer
    /// than [`ENCODING_CAPACITY`], a failure it reported).
    Game(String),
    /// The game repeats positions, has no exact encoding, and so its repetitions cannot be
    /// judged.
    NeedsEncoding,
    /// [`Limits::max_positions`] positions were judged before the check could finish.
    Incomplete {
        /// Positions judged.
        positions: u64,
    },
}

/// What is wrong at a faulty position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The line ends at a value against the claim (what the game said is given).
    AgainstClaim(&'static str),
    /// The certificate ends the line here, but the game neither scores the position nor ends
    /// the line by a repetition.
    NotALeaf,
    /// The certificate refers to node `node`, which has no record.
    MissingRecord(u64),
    /// Node `node` answers for the wrong side: an OR record where the claimed loser is to move,
    /// or an AND record where the claimed winner is.
    WrongSide(u64),
    /// Node `node`'s winning move is index `index`, but the game lists `moves` moves.
    NoSuchMove {
        /// The node.
        node: u64,
        /// Its move index.
        index: u64,
        /// Moves the game lists.
        moves: usize,
    },
    /// Node `node` answers `answered` moves where the game lists `listed`.
    MissingReplies {
        /// The node.
        node: u64,
        /// Moves the game lists.
        listed: usize,
        /// Moves the record answers.
        answered: usize,
    },
    /// Node `node` is reached at a position other than the one it was checked at.
    OtherPosition(u64),
    /// The line comes back to node `node`, in a game declared acyclic.
    Cycle(u64),
    /// Node `node` claims to hold by dominance of node `by`, which does not settle it.
    NotDominated {
        /// The node with the dominance record.
        node: u64,
        /// The node it names.
        by: u64,
        /// Why not.
        why: &'static str,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::AgainstClaim(what) => write!(f, "the line ends against the claim: {what}"),
            Fault::NotALeaf => f.write_str(
                "the certificate ends the line at a position the game neither scores nor repeats",
            ),
            Fault::MissingRecord(n) => write!(f, "node {n} is referred to but not written"),
            Fault::WrongSide(n) => write!(f, "node {n} answers for the side not to move"),
            Fault::NoSuchMove { node, index, moves } => {
                write!(
                    f,
                    "node {node} plays move {index}, but the game lists {moves} moves"
                )
            }
            Fault::MissingReplies {
                node,
                listed,
                answered,
            } => write!(
                f,
                "node {node} answers {answered} moves, but the game lists {listed}"
            ),
            Fault::OtherPosition(n) => {
                write!(f, "node {n} is reached at a position other than its own")
            }
            Fault::Cycle(n) => write!(f, "the line comes back to node {n} in an acyclic game"),
            Fault::NotDominated { node, by, why } => {
                write!(f, "node {node} claims dominance by node {by}, but {why}")
            }
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Mismatch(what) => write!(f, "certificate mismatch: {what}"),
            CheckError::Invalid { line, fault } => {
                write!(f, "invalid certificate: {fault}, after the moves {line:?}")
            }
            CheckError::Game(what) => write!(f, "the game broke its contract: {what}"),
            CheckError::NeedsEncoding => f.write_str(
                "the game repeats positions but has no exact encoding: repetitions cannot be judged",
            ),
            CheckError::Incomplete { positions } => {
                write!(f, "check incomplete after {positions} positions (limit reached)")
            }
        }
    }
}

impl std::error::Error for CheckError {}

/// Checks `cert` against `game`'s position (restored before returning) and rules: the header
/// must name `game_name`, the game's repetition rule, and (where the game has an exact
/// encoding) this position.
pub fn check<G: Game>(
    game: &mut G,
    game_name: &str,
    cert: &Certificate,
    limits: &Limits,
) -> Result<Report, CheckError> {
    let h = &cert.heading;
    if h.game != game_name {
        return Err(CheckError::Mismatch(format!(
            "it is for the game {:?}, not {game_name:?}",
            h.game
        )));
    }
    if h.rule != G::REPETITION_RULE {
        return Err(CheckError::Mismatch(format!(
            "it was written under the repetition rule {:?}, the game has {:?}",
            h.rule,
            G::REPETITION_RULE
        )));
    }
    let root = encoding(game)?;
    match &root {
        Some(e) if *e != h.root_encoding => {
            return Err(CheckError::Mismatch("it is for another position".into()));
        }
        None if !h.root_encoding.is_empty() => {
            return Err(CheckError::Mismatch(
                "it names a position by an encoding this game does not give".into(),
            ));
        }
        None if G::REPETITION_RULE != RepetitionRule::Acyclic => {
            return Err(CheckError::NeedsEncoding);
        }
        _ => {}
    }
    let winner = if h.attacker_wins {
        h.attacker
    } else {
        h.attacker.opponent()
    };
    let mut checker = Checker {
        cert,
        limits,
        winner,
        exact: root.is_some(),
        done: HashMap::new(),
        classes: HashMap::new(),
        dominance: cert
            .records
            .values()
            .any(|r| matches!(r, Record::Dominated { .. })),
        on_line: HashSet::new(),
        positions_on_line: HashMap::new(),
        line: Vec::new(),
        judged: 0,
        depth: 0,
    };
    let result = checker.run(game, root);
    // Take back whatever the line still holds (after a fault or an error).
    while let Some(frame) = checker.line.pop() {
        if let Some(mv) = frame.played {
            game.undo(mv);
        }
    }
    result?;
    Ok(Report {
        positions: checker.judged,
        records: checker.done.len().max(usize::from(cert.root != 0)),
        exact: checker.exact,
        depth: checker.depth,
    })
}

/// The position's exact encoding, if the game gives one.
fn encoding<G: Game>(game: &G) -> Result<Option<Vec<u8>>, CheckError> {
    bytes_of(|buf| game.encode(buf), "an encoding")
}

/// The exact encoding of the position's class, if the game gives one.
fn class_encoding<G: Game>(game: &G) -> Result<Option<Vec<u8>>, CheckError> {
    bytes_of(|buf| game.encode_class(buf), "a class encoding")
}

/// The bytes `encode` writes, if any; an error when it claims more than fit.
fn bytes_of(
    encode: impl FnOnce(&mut [u8]) -> Option<usize>,
    what: &str,
) -> Result<Option<Vec<u8>>, CheckError> {
    let mut buf = [0u8; ENCODING_CAPACITY];
    match encode(&mut buf) {
        None => Ok(None),
        Some(n) if n <= ENCODING_CAPACITY => Ok(Some(buf[..n].to_vec())),
        Some(n) => Err(CheckError::Game(format!(
            "{what} of {n} bytes, more than {ENCODING_CAPACITY}"
        ))),
    }
}

/// A checked position's class and material, where a dominance record may name it: the class
/// by the game's exact class encoding where it gives one, else by its class hash.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassOf {
    hash: u64,
    encoding: Option<Vec<u8>>,
    material: u32,
}

impl ClassOf {
    fn of<G: Game>(game: &G) -> Result<ClassOf, CheckError> {
        Ok(ClassOf {
            hash: game.class_hash(),
            encoding: class_encoding(game)?,
            material: game.material(),
        })
    }

    /// Whether `self` and `other` are positions of one class.
    fn same_class(&self, other: &ClassOf) -> bool {
        match (&self.encoding, &other.encoding) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.hash == other.hash,
            _ => false, // a game gives class encodings for all its positions or none
        }
    }
}

/// A node being checked on the current line.
struct Frame<M> {
    node: u64,
    encoding: Option<Vec<u8>>,
    /// The move that led here from the frame below (none at the root).
    played: Option<M>,
    /// Its index among that position's moves.
    index: u64,
    /// The moves to follow from here with the nodes they lead to, and the next to follow.
    todo: Vec<(u64, M, u64)>,
    next: usize,
}

/// How a position is judged before its record is read.
enum Judged<M> {
    /// The line ends here as the claim needs.
    Holds,
    /// Follow the record of this node, whose position has these moves.
    Node(u64, Vec<M>),
}

struct Checker<'c, M> {
    cert: &'c Certificate,
    limits: &'c Limits,
    /// The player the claim says wins (the attacker if proven, the defender if not).
    winner: Player,
    exact: bool,
    /// Nodes checked, with their positions' encodings (not under `ByPosition`, where a node's
    /// check depends on the line).
    done: HashMap<u64, Option<Vec<u8>>>,
    /// The classes and materials of the nodes checked, where a dominance record may name
    /// them.
    classes: HashMap<u64, ClassOf>,
    /// True when the certificate has dominance records.
    dominance: bool,
    /// Nodes on the current line.
    on_line: HashSet<u64>,
    /// The encodings of the positions on the current line, with counts.
    positions_on_line: HashMap<Vec<u8>, usize>,
    line: Vec<Frame<M>>,
    judged: u64,
    depth: usize,
}

impl<M: Copy + Default> Checker<'_, M> {
    fn run<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        root_encoding: Option<Vec<u8>>,
    ) -> Result<(), CheckError> {
        let root = self.cert.root;
        if let Judged::Node(node, moves) = self.judge(game, root, &root_encoding)? {
            self.push(game, node, moves, root_encoding, None, 0)
                .map_err(|fault| self.fault(fault))?;
        }
        while let Some(frame) = self.line.last_mut() {
            if frame.next == frame.todo.len() {
                // Every line from this node holds.
                let frame = self.line.pop().expect("a frame");
                self.leave(&frame);
                let mut class = Ok(None);
                if G::REPETITION_RULE != RepetitionRule::ByPosition {
                    if self.dominance && game.dominance() {
                        class = ClassOf::of(game).and_then(|c| self.failed(game).map(|()| Some(c)));
                    }
                    self.done.insert(frame.node, frame.encoding);
                }
                if let Some(mv) = frame.played {
                    game.undo(mv); // before any error returns: the frame is off the line
                }
                if let Some(class) = class? {
                    self.classes.insert(frame.node, class);
                }
                continue;
            }
            let (index, mv, child) = frame.todo[frame.next];
            frame.next += 1;
            game.play(mv);
            self.depth = self.depth.max(self.line.len());
            let enc = match encoding(game) {
                Ok(e) => e,
                Err(e) => {
                    game.undo(mv);
                    return Err(e);
                }
            };
            let judged = self
                .judge(game, child, &enc)
                .and_then(|judged| match judged {
                    Judged::Holds => {
                        game.undo(mv);
                        Ok(())
                    }
                    Judged::Node(node, moves) => self
                        .push(game, node, moves, enc, Some(mv), index)
                        .map_err(|fault| self.fault(fault)),
                });
            if let Err(e) = judged {
                // The faulty position is the child, not on the line: name its move.
                game.undo(mv);
                return Err(self.with_move(e, index));
            }
        }
        Ok(())
    }

    /// Judges the position `game` is in, which the certificate answers with `reference`:
    /// steps 1 and 2 of the crate docs, then the memory of nodes already checked.
    fn judge<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        reference: u64,
        enc: &Option<Vec<u8>>,
    ) -> Result<Judged<M>, CheckError> {
        self.judged += 1;
        if self.judged > self.limits.max_positions {
            return Err(CheckError::Incomplete {
                positions: self.judged - 1,
            });
        }
        let attacker = self.cert.heading.attacker;
        let mover = game.side_to_move();
        if let Some(e) = enc
            && G::REPETITION_RULE != RepetitionRule::Acyclic
            && self.positions_on_line.contains_key(e)
        {
            let value = match G::REPETITION_RULE {
                RepetitionRule::ByPosition => game.repetition_value(),
                _ => Value::Draw,
            };
            self.failed(game)?;
            return self.ends(
                wins(value, mover, attacker),
                "a repetition scored by the rule",
            );
        }
        let outcome = game.outcome();
        self.failed(game)?;
        if let Some(attacker_wins) = settled(outcome, mover, attacker) {
            return self.ends(attacker_wins, "a position the game scores");
        }
        let mut buf = vec![M::default(); self.limits.max_moves];
        let mut list = MoveList::new(&mut buf);
        game.generate_moves(&mut list);
        self.failed(game)?;
        if list.overflowed() {
            return Err(CheckError::Game(format!(
                "more than {} moves in a position",
                self.limits.max_moves
            )));
        }
        if list.is_empty() {
            let value = game.no_moves_value();
            self.failed(game)?;
            return self.ends(wins(value, mover, attacker), "a position without moves");
        }
        if reference == 0 {
            return Err(self.fault(Fault::NotALeaf));
        }
        if self.on_line.contains(&reference) {
            // Not a repetition by encoding (step 1 came first), so another position, or a
            // cycle in a game that declares none.
            return Err(self.fault(match G::REPETITION_RULE {
                RepetitionRule::Acyclic => Fault::Cycle(reference),
                _ => Fault::OtherPosition(reference),
            }));
        }
        if self.exact
            && let Some(seen) = self.done.get(&reference)
        {
            return if seen == enc {
                Ok(Judged::Holds)
            } else {
                Err(self.fault(Fault::OtherPosition(reference)))
            };
        }
        if let Some(&Record::Dominated { by }) = self.cert.records.get(&reference) {
            self.dominated(game, reference, by)?;
            if G::REPETITION_RULE != RepetitionRule::ByPosition {
                self.done.insert(reference, enc.clone());
            }
            return Ok(Judged::Holds);
        }
        Ok(Judged::Node(reference, list.as_slice().to_vec()))
    }

    /// Step 4 of the crate docs: whether node `node`'s dominance record, naming node `by`,
    /// settles the position `game` is in.
    fn dominated<G: Game<Move = M>>(&self, game: &G, node: u64, by: u64) -> Result<(), CheckError> {
        let not = |why| Err(self.fault(Fault::NotDominated { node, by, why }));
        if G::REPETITION_RULE == RepetitionRule::ByPosition {
            return not("the repetition rule is by position");
        }
        if !game.dominance() {
            return not("the game has no dominance");
        }
        let Some(there) = self.classes.get(&by) else {
            return not("that node was not checked before");
        };
        let here = ClassOf::of(game)?;
        self.failed(game)?;
        if !here.same_class(there) {
            return not("its position is of another class");
        }
        let (material, held) = (here.material, there.material);
        let attacker = self.cert.heading.attacker;
        let settles = if self.cert.heading.attacker_wins {
            game.material_at_least(attacker, material, held)
        } else {
            game.material_at_least(attacker, held, material)
        };
        self.failed(game)?;
        if !settles {
            return not(
                "the material here is not at least as good for the claimed winner as there",
            );
        }
        Ok(())
    }

    /// Puts node `node` on the line at the position `game` is in, whose moves are `moves`
    /// (reached by `played`, the `index`-th move of the position below), with the moves its
    /// record prescribes; or the fault of the record.
    fn push<G: Game<Move = M>>(
        &mut self,
        game: &G,
        node: u64,
        moves: Vec<M>,
        encoding: Option<Vec<u8>>,
        played: Option<M>,
        index: u64,
    ) -> Result<(), Fault> {
        let record = self
            .cert
            .records
            .get(&node)
            .ok_or(Fault::MissingRecord(node))?;
        let winner_to_move = game.side_to_move() == self.winner;
        let todo = match record {
            Record::Or { index, child } if winner_to_move => {
                let mv = usize::try_from(*index).ok().and_then(|i| moves.get(i));
                let &mv = mv.ok_or(Fault::NoSuchMove {
                    node,
                    index: *index,
                    moves: moves.len(),
                })?;
                vec![(*index, mv, *child)]
            }
            Record::And { children } if !winner_to_move => {
                if children.len() != moves.len() {
                    return Err(Fault::MissingReplies {
                        node,
                        listed: moves.len(),
                        answered: children.len(),
                    });
                }
                (0u64..)
                    .zip(moves)
                    .zip(children)
                    .map(|((i, mv), &c)| (i, mv, c))
                    .collect()
            }
            _ => return Err(Fault::WrongSide(node)),
        };
        self.on_line.insert(node);
        if let Some(e) = &encoding {
            *self.positions_on_line.entry(e.clone()).or_insert(0) += 1;
        }
        self.line.push(Frame {
            node,
            encoding,
            played,
            index,
            todo,
            next: 0,
        });
        Ok(())
    }

    /// Takes a finished frame's node and position off the line's sets.
    fn leave(&mut self, frame: &Frame<M>) {
        self.on_line.remove(&frame.node);
        if let Some(e) = &frame.encoding
            && let Some(n) = self.positions_on_line.get_mut(e)
        {
            *n -= 1;
            if *n == 0 {
                self.positions_on_line.remove(e);
            }
        }
    }

    /// The line ends with the attacker winning or not: as the claim needs, or a fault.
    fn ends(&self, attacker_wins: bool, what: &'static str) -> Result<Judged<M>, CheckError> {
        if attacker_wins == self.cert.heading.attacker_wins {
            Ok(Judged::Holds)
        } else {
            Err(self.fault(Fault::AgainstClaim(what)))
        }
    }

    /// `fault` at the position the line's frames lead to.
    fn fault(&self, fault: Fault) -> CheckError {
        CheckError::Invalid {
            line: self.line.iter().skip(1).map(|f| f.index).collect(),
            fault,
        }
    }

    /// `e` one move further down the line (a fault at a child not on the line).
    fn with_move(&self, e: CheckError, index: u64) -> CheckError {
        match e {
            CheckError::Invalid { mut line, fault } => {
                line.push(index);
                CheckError::Invalid { line, fault }
            }
            other => other,
        }
    }

    fn failed<G: Game>(&self, game: &G) -> Result<(), CheckError> {
        if game.has_failed() {
            Err(CheckError::Game("it reported a failure".into()))
        } else {
            Ok(())
        }
    }
}

/// Whether the attacker wins, given a value for the side to move.
fn wins(value: Value, mover: Player, attacker: Player) -> bool {
    match value {
        Value::Win => mover == attacker,
        Value::Loss => mover != attacker,
        Value::Draw => false,
    }
}

/// Whether the attacker wins, when the game's outcome settles that: an exact value, or a bound
/// that answers the question (the attacker to move cannot win, the defender to move cannot
/// lose: both mean the attacker does not win).
fn settled(outcome: Outcome, mover: Player, attacker: Player) -> Option<bool> {
    match outcome {
        Outcome::Win => Some(wins(Value::Win, mover, attacker)),
        Outcome::Loss => Some(wins(Value::Loss, mover, attacker)),
        Outcome::Draw => Some(false),
        Outcome::CannotWin if mover == attacker => Some(false),
        Outcome::CannotLose if mover != attacker => Some(false),
        Outcome::CannotWin | Outcome::CannotLose | Outcome::Unknown => None,
    }
}
