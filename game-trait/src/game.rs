//! The [`Game`] trait a caller implements to have positions solved, and the small types it uses.
//!
//! A game is one mutable position with make/unmake ([`Game::play`] / [`Game::undo`]), as game
//! engines keep it. The solver never clones it (the parallel solver clones one position per
//! worker). Moves are written into a [`MoveList`] of bounded capacity: a position with more moves
//! than the list holds is reported by the solver as an error, never written past the buffer.

use crate::numbers::Numbers;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Player {
    /// The player who moves first from the game's start.
    First = 0,
    /// The other player.
    Second = 1,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for [`Player::First`], 1 for [`Player::Second`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A game-theoretic value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Value {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The same result seen from the other player.
    #[inline]
    pub const fn flipped(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// What [`Game::outcome`] knows about a position without searching it: its exact value, a
/// bound on it, or nothing.
///
/// A bound is one-sided knowledge, such as "this player can no longer complete any line".
/// In a search for attacker A (draws count against A), a bound settles the node when it answers
/// A's question:
///
/// | outcome | A to move | the defender to move |
/// |---|---|---|
/// | [`CannotWin`](Outcome::CannotWin) | disproved | searched |
/// | [`CannotLose`](Outcome::CannotLose) | searched | disproved |
///
/// So a bound settles one of the two searches of a full value (`proofnum::Dfpn::solve_value`). A position with
/// a bound is not over: [`Game::generate_moves`] must still list its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// The game is over (or the result is certain) and the side to move has won.
    Win,
    /// The game is over (or the result is certain) and the side to move has lost.
    Loss,
    /// The game is over (or certain) and drawn.
    Draw,
    /// Not known without search.
    Unknown,
    /// The side to move cannot win: its value is a draw or a loss. The game goes on.
    CannotWin,
    /// The side to move cannot lose: its value is a draw or a win. The game goes on.
    CannotLose,
}

impl Outcome {
    /// The same knowledge seen from the other player (a win becomes a loss, "cannot win"
    /// becomes "cannot lose").
    #[inline]
    pub const fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::CannotWin => Outcome::CannotLose,
            Outcome::CannotLose => Outcome::CannotWin,
            Outcome::Draw | Outcome::Unknown => self,
        }
    }

    /// True when `value` is consistent with this knowledge (always for `Unknown`).
    #[inline]
    pub const fn admits(self, value: Value) -> bool {
        matches!(
            (self, value),
            (Outcome::Unknown, _)
                | (Outcome::Win, Value::Win)
                | (Outcome::Loss, Value::Loss)
                | (Outcome::Draw, Value::Draw)
                | (Outcome::CannotWin, Value::Draw | Value::Loss)
                | (Outcome::CannotLose, Value::Draw | Value::Win)
        )
    }
}

impl From<Value> for Outcome {
    fn from(v: Value) -> Outcome {
        match v {
            Value::Win => Outcome::Win,
            Value::Loss => Outcome::Loss,
            Value::Draw => Outcome::Draw,
        }
    }
}

/// How a search settled a position, for [`Game::material_needed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decided<M> {
    /// The game's own [`outcome`](Game::outcome) settled it (a finished game, or a rule such
    /// as a mate in one).
    ByOutcome,
    /// The side to move wins by `mv`; the position after it keeps its result with material
    /// `after` (or any at least as good for the winner).
    ByMove {
        /// The winning move.
        mv: M,
        /// What the position after `mv` needs.
        after: u32,
    },
    /// The side to move loses to every move it has, and `mv` is one of them, after which
    /// the position keeps its result with material `after`: what this position needs for
    /// the result through `mv` (the searches join that over every move and ask
    /// [`ByEveryMove`](Decided::ByEveryMove)).
    ThroughLosingMove {
        /// One of the losing moves.
        mv: M,
        /// What the position after `mv` needs.
        after: u32,
    },
    /// The side to move loses to every move it has; `joined` is the
    /// [`material_join`](Game::material_join), for the winner, of what this position needs
    /// through each of them ([`ThroughLosingMove`](Decided::ThroughLosingMove)). What it
    /// needs in all adds what the moves it does not have need (a drop of a piece it lacks).
    ByEveryMove {
        /// What the position needs through each move, joined.
        joined: u32,
    },
}

/// How positions that repeat one on the current path are scored.
///
/// The choice decides how the solver keys its transposition table, because the value of a
/// position in a cyclic game can depend on the path that reached it (the graph-history
/// interaction problem; Kishimoto and Müller 2004).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// Positions never repeat along a line (stones only accumulate, moves only fill cells): the
    /// game graph is acyclic. The solver skips repetition checks and shares every result
    /// between transpositions, the fastest setting. A game that does repeat under this rule can
    /// make a search run away (it ends on a limit or `DepthLimit`), never give a wrong answer.
    Acyclic,
    /// A repeated position is a draw (the default, and the rule of most games with cycles).
    ///
    /// Draws never favour the attacker, so a proof never contains a repetition and a disproof
    /// that does not rely on a repetition of a position above the node is valid whatever path
    /// reaches it. Such results are shared between transpositions; results that rely on a
    /// repetition above the node, and unsolved numbers, are kept per set of positions on the
    /// path (see `proofnum::dfpn`).
    Draw,
    /// A repeated position is scored by [`Game::repetition_value`], which may favour either side.
    ///
    /// A value can then depend on every position on the path, so the solver keys each table
    /// entry by the position and the set of positions on its path: exact, at the price of
    /// sharing results between transpositions only when their paths hold the same positions.
    ByPosition,
}

/// A game the solver can search: one mutable position with make and unmake.
///
/// The solver asks whether a chosen player, the *attacker*, can force a win; draws count against
/// the attacker. The full value (win, draw or loss) is two such searches, which
/// `proofnum::Dfpn::solve_value` runs for you.
///
/// # Contract
/// - [`hash`](Game::hash) must be equal for equal positions (including the side to move) and
///   should differ for different ones; Zobrist hashing updated in `play`/`undo` is the usual way.
///   The solver mixes the bits, so any well-distributed 64-bit value works.
/// - [`undo`](Game::undo) with the move just played restores the position exactly.
/// - [`outcome`](Game::outcome) reports finished games. It may also report results it can see
///   cheaply (an immediate win, say): that is early win/loss detection and saves search.
/// - [`generate_moves`](Game::generate_moves) lists the legal moves of a position whose outcome
///   is [`Outcome::Unknown`] or a bound. When it lists none, the position is scored by
///   [`no_moves_value`](Game::no_moves_value).
///
/// # Passing game knowledge to the search
/// A single-game solver is fast because its game analysis knows things; these are the ways to
/// hand that knowledge to proofnum. Everything reported must be *true*: the solver trusts it
/// (a wrong claim is the game's bug, and the answers built on it are wrong). "True" means true
/// for the position's value with repetitions scored by the game's [`RepetitionRule`]; under
/// [`RepetitionRule::Draw`], for its value with infinite play counted as a draw (a position
/// that is no win for a player that way is no win on any path).
/// - **Exact values early**: `outcome` may return `Win`, `Loss` or `Draw` for a position that is
///   not over, when the value is certain (an immediate win, an unstoppable double threat).
/// - **Bounds**: [`Outcome::CannotWin`] ("the side to move can at best draw", e.g. it can no
///   longer complete any line) and [`Outcome::CannotLose`] settle one of the two attacker
///   searches at once and leave the other to search the position (see [`Outcome`]). Both at
///   once is a draw: return `Draw`.
/// - **Leaving moves out**: a move known to lose for the mover (a loss on every path, whatever
///   follows) may be left out of `generate_moves` as long as at least one other move is
///   listed: the mover's value is the best of its moves, and a loss never raises it. Leaving
///   every move out is wrong (an empty list means [`no_moves_value`](Game::no_moves_value)).
///   The principal variation and the verification walk (`proofnum::Dfpn::verify`) then never
///   look at the left-out moves, and a certificate's checker never asks for them either.
/// - **Move order**: on equal numbers the search takes the first listed child, so list
///   promising moves first (threats, captures, the centre).
/// - **Estimates**: [`estimate`](Game::estimate) gives unsolved positions df-pn+ initial
///   numbers (Nagai 2002), e.g. the number of the defender's sensible replies as δ. Keep it
///   cheap: it runs for every new child.
///
/// `outcome`, `generate_moves` and `estimate` run for every child the search creates, so their
/// cost is most of a MID call's: bit tricks and small tables pay, allocation does not.
/// `proofnum-games` shows all of this on Connect Four and Ultimate Tic-Tac-Toe.
///
/// # Example
/// A complete game: a pile of stones, each move takes one or two, and whoever takes the last
/// stone wins. Piles that are a multiple of three are lost for the side to move.
///
/// ```
/// use proofnum::{Game, MoveList, Outcome, Player};
///
/// #[derive(Clone)]
/// struct Pile {
///     stones: u32,
///     to_move: Player,
/// }
///
/// impl Game for Pile {
///     type Move = u32; // how many stones to take
///
///     fn side_to_move(&self) -> Player {
///         self.to_move
///     }
///
///     fn hash(&self) -> u64 {
///         (self.stones as u64) << 1 | self.to_move.index() as u64
///     }
///
///     fn outcome(&self) -> Outcome {
///         // The previous player took the last stone: the side to move has lost.
///         if self.stones == 0 { Outcome::Loss } else { Outcome::Unknown }
///     }
///
///     fn generate_moves(&self, moves: &mut MoveList<'_, u32>) {
///         for take in 1..=self.stones.min(2) {
///             moves.push(take);
///         }
///     }
///
///     fn play(&mut self, take: u32) {
///         self.stones -= take;
///         self.to_move = self.to_move.opponent();
///     }
///
///     fn undo(&mut self, take: u32) {
///         self.stones += take;
///         self.to_move = self.to_move.opponent();
///     }
/// }
///
/// let mut table_bytes = vec![0u8; 1 << 16];
/// let mut table = proofnum::Table::new(&mut table_bytes).unwrap();
/// let mut stack_bytes = vec![0u8; proofnum::Dfpn::<Pile>::stack_bytes(64, 2)];
/// let mut dfpn = proofnum::Dfpn::<Pile>::new(&mut stack_bytes, 64, 2, Default::default()).unwrap();
///
/// let mut pile = Pile { stones: 20, to_move: Player::First };
/// let result = dfpn.solve(&mut pile, Player::First, &mut table, &mut Default::default());
/// assert!(result.is_proven()); // 20 is not a multiple of 3: take 2, leave 18
/// assert_eq!(result.best_move, Some(2));
/// assert_eq!(pile.stones, 20); // the position is restored
/// ```
pub trait Game {
    /// A move. Copied freely; keep it small (an index or a packed integer). `Default` gives
    /// the solver a value to fill unused move slots with.
    type Move: Copy + Default;

    /// How repetitions on the current path are scored; see [`RepetitionRule`].
    const REPETITION_RULE: RepetitionRule = RepetitionRule::Draw;
    /// Whether df-pn keeps the first numbers of the positions it creates (from
    /// [`outcome`](Game::outcome) and [`estimate`](Game::estimate)) in the table. df-pn
    /// expands a position anew every time it enters it, so without this it asks the game
    /// again about every child that was not searched yet; with it, each such child costs a
    /// table probe instead, and each new one a table slot (the first ones replaced). With a
    /// table larger than the caches, the children the table knows are then not even made
    /// (see [`peek`](Game::peek)).
    ///
    /// Worth it where `outcome` and `estimate` cost far more than a probe: chess, where they
    /// generate moves and look for mates in one (a third fewer instructions per MID call on
    /// a mate in 7, the same MID calls). Not where they are a few bit operations and the
    /// children crowd the searched positions out of a table small for the search: Connect
    /// Four's bench suite needs 7% more MID calls with it. Default `false`.
    const REMEMBER_LEAVES: bool = false;

    /// Whether positions that differ only in *material* dominate one another: a position is
    /// at least as good for a player as any position of its class (the same
    /// [`class_hash`](Game::class_hash)) whose material is no better for that player
    /// ([`material_at_least`](Game::material_at_least)). Tsume-shogi is the classic case (a
    /// position proven with some pieces in the attacker's hand is proven with more;
    /// disproven with some, disproven with fewer), and so is any game where material in hand
    /// only adds options for its owner.
    ///
    /// With it, the searches store solved results under the class with their material, and
    /// a position the table does not know exactly is solved by a dominating entry: a win
    /// for the side to move found with material no better for it, or a failure found with
    /// material no worse. It must be *true*: a claimed dominance that does not hold is the
    /// game's bug and gives wrong answers. Only games under [`RepetitionRule::Acyclic`] or
    /// [`RepetitionRule::Draw`] use it (by position, results are kept per line). Default
    /// `false`. (A method rather than a constant so that a game behind a C vtable can say
    /// it at run time.)
    fn dominance(&self) -> bool {
        false
    }

    /// The hash of the position without its material (the side to move included): positions
    /// of one class differ in material only. Used with [`dominance`](Game::dominance).
    fn class_hash(&self) -> u64 {
        self.hash()
    }

    /// Optional: writes an exact encoding of the position's *class* (the position without its
    /// material, side to move included) into `out` and returns its length, or `None`, the
    /// default. Exact as for [`encode`](Game::encode): equal bytes for positions of one class,
    /// different bytes for positions of different classes, where
    /// [`class_hash`](Game::class_hash) only makes that likely. The searches never call it.
    /// The verification walk keys its classes by it (so two classes the class hash confuses
    /// cannot make it accept a dominance that does not hold, a confusion the table's class
    /// entries share), and a certificate checker compares the classes of a dominance record's
    /// two positions by it instead of by their hashes. Used with
    /// [`dominance`](Game::dominance); at most [`ENCODING_CAPACITY`] bytes.
    fn encode_class(&self, out: &mut [u8]) -> Option<usize> {
        let _ = out;
        None
    }

    /// The position's material, packed into 32 bits as the game likes (for shogi: the
    /// attacker's hand, a few bits a piece type). Used with [`dominance`](Game::dominance).
    fn material(&self) -> u32 {
        0
    }

    /// True when, in positions of one class, material `a` is at least as good for `player` as
    /// material `b` (for shogi's attacker: at least as many pieces of every type in hand).
    /// Must be a partial order (reflexive and transitive). Used with
    /// [`dominance`](Game::dominance).
    fn material_at_least(&self, player: Player, a: u32, b: u32) -> bool {
        let _ = player;
        a == b
    }

    /// Optional, with [`dominance`](Game::dominance): the least material with which a
    /// solved result of this position still holds (tsume-shogi's proof pieces, 証明駒), so
    /// that the table's dominance entry covers every position of the class with material at
    /// least as good for the winner, not only those with the material this one has. `decided`
    /// says how the search settled it; the winner is the side to move when it won and the
    /// other player when it lost. `None`, the default, keeps this position's own material.
    ///
    /// Must be *true*: `Some(m)` claims that every position of this class whose material is at
    /// least as good for the winner as `m` has the same result, given (for
    /// [`Decided::ByMove`] and [`Decided::ByEveryMove`]) the same of the positions after its
    /// moves and the material they were found to need. The searches keep the position's own
    /// material where `m` is not at most as good for the winner as it.
    fn material_needed(&self, decided: Decided<Self::Move>) -> Option<u32> {
        let _ = decided;
        None
    }

    /// Whether [`material_needed`](Game::material_needed) says anything here: the searches
    /// ask it (at the cost of playing the moves of every solved position again to look up
    /// what the positions after them need) only when this is true. Default `false`.
    fn reduces_material(&self) -> bool {
        false
    }

    /// With [`material_needed`](Game::material_needed): the least material at least as good
    /// for `winner` as both `a` and `b` (for shogi's attacker: the larger count of every
    /// piece type). The default, used only when `material_needed` gives `Some`, is `a` when it
    /// is at least as good as `b`, else `b`.
    fn material_join(&self, winner: Player, a: u32, b: u32) -> u32 {
        if self.material_at_least(winner, a, b) {
            a
        } else {
            b
        }
    }

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// A 64-bit hash of the position, including the side to move.
    fn hash(&self) -> u64;

    /// What is known of the position's value for the side to move without search: an exact
    /// value, a bound ([`Outcome::CannotWin`], [`Outcome::CannotLose`]) or nothing.
    fn outcome(&self) -> Outcome;

    /// Writes the legal moves into `moves`. Pushing beyond its capacity is recorded, not
    /// written, and the solver then stops with an error that names the problem.
    fn generate_moves(&self, moves: &mut MoveList<'_, Self::Move>);

    /// How many of the moves the last [`generate_moves`](Game::generate_moves) listed here,
    /// counted from the end of the list, df-pn may leave unmade until the moves before them
    /// have failed for the side to move; it then makes them one at a time, in list order,
    /// each once the one before has failed too (delayed expansion). Tsume solvers use it for
    /// the defender's drops between a distant checker and its king: the first drop on a
    /// square stands for the others there, which are usually answered alike, and each is
    /// proven with the table the one before left. Meant for the side that must refute every
    /// move (the defender): until it is made, a deferred move counts nothing in the
    /// children's numbers.
    ///
    /// It never changes a value: a position is declared lost for its side to move only after
    /// its deferred moves have been made and have failed too. Asked right after
    /// `generate_moves`, in the same position; answers above the number of moves count as
    /// all of them. Default 0 (every move made at once).
    fn deferred_moves(&self) -> usize {
        0
    }

    /// Plays a move generated in this position.
    fn play(&mut self, mv: Self::Move);

    /// Takes back the move just played.
    fn undo(&mut self, mv: Self::Move);
    /// The [`hash`](Game::hash) and [`side_to_move`](Game::side_to_move) of the position `mv`
    /// (a move [`generate_moves`](Game::generate_moves) listed here) leads to, with this
    /// position left as it is.
    ///
    /// With a table larger than the caches (`proofnum::table::PREFETCH_MIN_BYTES`), df-pn asks
    /// it for every child of a position it expands, to start loading the children's table
    /// entries before it reads any; with [`REMEMBER_LEAVES`](Game::REMEMBER_LEAVES) it then
    /// makes only the children the table does not know (their `outcome` and `estimate` need
    /// the position). The default plays the move, reads both and takes it back. A game that
    /// can tell them without playing (a Zobrist hash updated from the move alone) saves a
    /// `play` and an `undo` per child: it must return exactly what `hash` and `side_to_move`
    /// would say after `play(mv)`.
    fn peek(&mut self, mv: Self::Move) -> (u64, Player) {
        self.play(mv);
        let child = (self.hash(), self.side_to_move());
        self.undo(mv);
        child
    }

    /// An optional heuristic estimate (φ, δ) of an unsolved position for the side to move:
    /// how hard it looks to win, and how hard to show no win (df-pn+, Nagai 2002). The solver
    /// clamps it to 1 ..= [`MAX_FINITE`](crate::MAX_FINITE). The default is (1, 1), classic PNS.
    fn estimate(&self) -> Numbers {
        Numbers::UNIT
    }

    /// The value for the side to move of a position that repeats one on the current path.
    /// Consulted only under [`RepetitionRule::ByPosition`].
    fn repetition_value(&self) -> Value {
        Value::Draw
    }

    /// Writes an exact encoding of the position into `out` (which holds
    /// [`ENCODING_CAPACITY`] bytes) and returns its length, or `None`, the default, for a
    /// game without one.
    ///
    /// Exact means equal bytes for equal positions (side to move included, and anything else
    /// the value depends on, as for [`hash`](Game::hash)) and different bytes for different
    /// ones: a hash only makes that likely. A proof certificate names its root position by
    /// this encoding, and its checker tells positions apart by it (transpositions, and
    /// repetitions in games with cycles); without one, a checker expands every shared
    /// position again (games declared [`RepetitionRule::Acyclic`]) or refuses to judge
    /// repetitions (the others). The searches never call it; the verification walk that
    /// confirms their answers does (once a position it walks), to tell apart positions the
    /// game's hash confuses.
    fn encode(&self, out: &mut [u8]) -> Option<usize> {
        let _ = out;
        None
    }

    /// True once the game has broken its contract (a foreign callback returned an invalid
    /// side, outcome or error code, say). The solver checks it after every move generation
    /// and child evaluation and stops with an error (`proofnum::Reason::GameError`); results found after
    /// a failure are never reported. Rust games normally keep the default, `false`.
    fn has_failed(&self) -> bool {
        false
    }

    /// The value for the side to move of an unfinished position ([`Outcome::Unknown`]) in
    /// which [`generate_moves`](Game::generate_moves) found no move. The default, a loss, is
    /// the normal-play convention; stalemate-as-draw games return [`Value::Draw`].
    fn no_moves_value(&self) -> Value {
        Value::Loss
    }
}

/// The bytes [`Game::encode`] may write: enough for a 19×19 Go board at two bits a point,
/// or a shogi position with both hands, several times over.
pub const ENCODING_CAPACITY: usize = 256;

/// A list of moves written into caller memory with a fixed capacity.
///
/// Pushing past the capacity does not write: it marks the list as overflowed, and the solver
/// turns that into an error (`proofnum::Reason::TooManyMoves`) instead of searching an
/// incomplete list.
pub struct MoveList<'a, M> {
    slots: &'a mut [M],
    len: usize,
    overflowed: bool,
}

impl<'a, M: Copy> MoveList<'a, M> {
    /// An empty list writing into `slots`.
    #[inline]
    pub fn new(slots: &'a mut [M]) -> Self {
        MoveList {
            slots,
            len: 0,
            overflowed: false,
        }
    }

    /// Appends a move, or records an overflow when the list is full.
    #[inline]
    pub fn push(&mut self, mv: M) {
        match self.slots.get_mut(self.len) {
            Some(slot) => {
                *slot = mv;
                self.len += 1;
            }
            None => self.overflowed = true,
        }
    }

    /// The number of moves written.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no move has been written.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many moves the list can hold.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// True when a push found the list full.
    #[inline]
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The moves written so far.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.slots[..self.len]
    }
}

/// Moves as integers, for searches whose positions travel between processes or into files:
/// the `proofnum-mpi` crate sends each job as the moves from the root, and its checkpoints
/// store the root tree's moves. Only games that go that far implement it; no search in this
/// crate needs it, so it costs the others nothing.
///
/// ```
/// use proofnum_game::{Game, MoveCodec};
/// # use proofnum_game::{MoveList, Outcome, Player};
/// # struct Pile { stones: u32, to_move: Player }
/// # impl Game for Pile {
/// #     type Move = u8;
/// #     fn side_to_move(&self) -> Player { self.to_move }
/// #     fn hash(&self) -> u64 { self.stones as u64 }
/// #     fn outcome(&self) -> Outcome { Outcome::Unknown }
/// #     fn generate_moves(&self, moves: &mut MoveList<'_, u8>) {}
/// #     fn play(&mut self, take: u8) {}
/// #     fn undo(&mut self, take: u8) {}
/// # }
/// impl MoveCodec for Pile {
///     fn encode_move(take: u8) -> u64 {
///         take as u64
///     }
///     fn decode_move(code: u64) -> Option<u8> {
///         u8::try_from(code).ok()
///     }
/// }
/// assert_eq!(Pile::decode_move(Pile::encode_move(2)), Some(2));
/// assert_eq!(Pile::decode_move(300), None);
/// ```
pub trait MoveCodec: Game {
    /// The move's code. Different moves of one position must have different codes.
    fn encode_move(mv: Self::Move) -> u64;

    /// The move whose code this is, or `None` for a code [`encode_move`](MoveCodec::encode_move)
    /// never gives. A code read from outside may still name a move that is not legal in the
    /// position at hand: users check it against [`Game::generate_moves`] before playing it.
    fn decode_move(code: u64) -> Option<Self::Move>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_list_records_overflow_without_writing_past_capacity() {
        let mut slots = [0u32; 2];
        let mut list = MoveList::new(&mut slots);
        list.push(7);
        list.push(8);
        assert!(!list.overflowed());
        list.push(9);
        assert!(list.overflowed());
        assert_eq!(list.as_slice(), &[7, 8]);
        assert_eq!(list.capacity(), 2);
    }

    #[test]
    fn players_and_values_flip() {
        assert_eq!(Player::First.opponent(), Player::Second);
        assert_eq!(Value::Win.flipped(), Value::Loss);
        assert_eq!(Value::Draw.flipped(), Value::Draw);
    }
}
