//! How the searches key their results in the table, and what they know of the current path.
//!
//! df-pn, PNS and the proof walkers share these rules (so a table one of them filled serves the
//! others): keys of the two attackers' searches are disjoint; results that hold on every path
//! go under the position key and the others under a key of the position and the set of its
//! ancestors (`src/dfpn.rs` has the argument for which is which under each repetition rule);
//! a repetition on the current path is scored by the game's rule.

use crate::game::{Game, Outcome, Player, RepetitionRule, Value};
use crate::number::Numbers;
use crate::table::entry::mix64;
use crate::table::{Entry, TranspositionTable};

/// "Relies on no repetition."
pub(crate) const NO_REP: u16 = u16::MAX;

/// Salts that make the keys of the two attackers' searches disjoint, so `solve_value`'s two
/// searches can share one table (arbitrary odd constants).
const ATTACKER_SALT: [u64; 2] = [0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7345];

/// The salt of every key of `attacker`'s search over a table whose
/// [`key_salt`](TranspositionTable::key_salt) is `table_salt`.
#[inline]
pub(crate) fn search_salt(attacker: Player, table_salt: u64) -> u64 {
    ATTACKER_SALT[attacker.index()] ^ table_salt
}
/// Salt for a position's contribution to a path key.
const PATH_SALT: u64 = 0xA409_3822_299F_31D0;
/// Salt that keeps path keys apart from position keys.
const PATH_NAMESPACE: u64 = 0x082E_FA98_EC4E_6C89;
/// Salt that keeps class keys (dominance entries) apart from position keys.
const CLASS_NAMESPACE: u64 = 0x4528_21E6_38D0_1377;

/// Whether a position with `material` takes the result of a position of its class with
/// `stored` ([`Game::dominance`]): a win for `player` (`player_wins`) found with material no
/// better for `player`, or a failure found with material no worse.
#[inline]
pub(crate) fn settled_by_class<G: Game>(
    game: &G,
    player: Player,
    player_wins: bool,
    material: u32,
    stored: u32,
) -> bool {
    if player_wins {
        game.material_at_least(player, material, stored)
    } else {
        game.material_at_least(player, stored, material)
    }
}

/// The (φ, δ) of a known value for a node whose side to move is `mover`, when `attacker` is
/// the player trying to win: a draw counts as a win for the defender.
#[inline]
pub(crate) fn framed(value: Value, mover: Player, attacker: Player) -> Numbers {
    match value {
        Value::Win => Numbers::WIN,
        Value::Loss => Numbers::LOSS,
        Value::Draw if mover == attacker => Numbers::LOSS,
        Value::Draw => Numbers::WIN,
    }
}

/// The (φ, δ) that a game's `outcome` settles for a node whose side to move is `mover` in
/// `attacker`'s search, if it settles them: an exact value always, a bound when it answers the
/// attacker's question (the attacker to move cannot win, or the defender to move cannot lose:
/// both mean the attacker has no forced win).
#[inline]
pub(crate) fn known_numbers(outcome: Outcome, mover: Player, attacker: Player) -> Option<Numbers> {
    match outcome {
        Outcome::Win => Some(framed(Value::Win, mover, attacker)),
        Outcome::Loss => Some(framed(Value::Loss, mover, attacker)),
        Outcome::Draw => Some(framed(Value::Draw, mover, attacker)),
        // In the mover's view: the attacker to move loses the question, the defender wins it.
        Outcome::CannotWin if mover == attacker => Some(Numbers::LOSS),
        Outcome::CannotLose if mover != attacker => Some(Numbers::WIN),
        Outcome::CannotWin | Outcome::CannotLose | Outcome::Unknown => None,
    }
}

/// The table keys and repetition scoring of one attacker's search in games of type `G`.
/// df-pn and PNS implement [`attacker`](Keying::attacker) and
/// [`salt`](Keying::salt); the rest is shared.
pub(crate) trait Keying<G: Game> {
    /// The player the current search tries to prove a win for.
    fn attacker(&self) -> Player;

    /// The current search's [`search_salt`]: its attacker's, and its table's.
    fn salt(&self) -> u64;

    /// In the second search of a full value (`solve_after_opponent`): the salt of the first
    /// search's keys, whose proofs (the other player wins) are this search's disproofs.
    fn opponent_salt(&self) -> Option<u64>;

    /// The first search's entry for a position new to the second search of a full value, if
    /// it says the first search's attacker (this one's opponent) wins there: then this
    /// attacker cannot, and the entry's numbers say so as they are (in the mover's view, a
    /// game won by the mover is a win for either attacker's question, a game lost a loss).
    /// Only position-keyed solved entries are read: they hold on every path.
    #[inline]
    fn opponent_win<T: TranspositionTable>(
        &self,
        table: &mut T,
        hash: u64,
        mover: Player,
    ) -> Option<Entry> {
        let salt = self.opponent_salt()?;
        if G::REPETITION_RULE == RepetitionRule::ByPosition {
            return None;
        }
        let e = table.probe(mix64(hash ^ salt))?;
        let opponent = self.attacker().opponent();
        (e.numbers.is_solved() && e.numbers.is_win() == (mover == opponent)).then_some(e)
    }

    /// A position's contribution to the path keys below it (none in acyclic games, which
    /// never use path keys).
    #[inline]
    fn contribution(&self, hash: u64) -> u64 {
        match G::REPETITION_RULE {
            RepetitionRule::Acyclic => 0,
            RepetitionRule::Draw | RepetitionRule::ByPosition => mix64(hash ^ PATH_SALT),
        }
    }

    /// The key of a position's results that hold whatever the path.
    #[inline]
    fn position_key(&self, hash: u64) -> u64 {
        mix64(hash ^ self.salt())
    }

    /// The key of a position's results that hold for one set of ancestors (whose path
    /// contributions make `path_key`). A salt keeps it apart from the position key even for a
    /// root without history.
    #[inline]
    fn path_key(&self, hash: u64, path_key: u64) -> u64 {
        mix64(hash ^ self.salt() ^ path_key ^ PATH_NAMESPACE)
    }

    /// The key [`lookup`](Keying::lookup) probes first, to prefetch.
    #[inline]
    fn first_key(&self, hash: u64, path_key: u64) -> u64 {
        match G::REPETITION_RULE {
            RepetitionRule::Acyclic | RepetitionRule::Draw => self.position_key(hash),
            RepetitionRule::ByPosition => self.path_key(hash, path_key),
        }
    }

    /// Where a result is stored. Only values that cannot depend on the path go under the
    /// position key: everything for acyclic games, unconditional solved results under the draw
    /// rule. Under the draw rule unsolved numbers are path-keyed too: a position's numbers
    /// then depend only on numbers stored for strictly larger sets of ancestors, so they can
    /// never feed on themselves around a cycle (which makes df-pn loop forever with ε = 0).
    /// (df-pn with ε > 0 may store them under the position key instead:
    /// `DfpnConfig::share_unsolved`.)
    #[inline]
    fn store_key(&self, hash: u64, path_key: u64, unconditional_solution: bool) -> u64 {
        match G::REPETITION_RULE {
            RepetitionRule::Acyclic => self.position_key(hash),
            RepetitionRule::Draw if unconditional_solution => self.position_key(hash),
            RepetitionRule::Draw | RepetitionRule::ByPosition => self.path_key(hash, path_key),
        }
    }

    /// What the table knows of a position on this path: its entry, and whether a solved one
    /// holds only for this set of ancestors. Under the draw rule, `probe_path` false skips the
    /// path-keyed probe that follows a position-keyed miss or unsolved entry (a search that
    /// knows nothing path-keyed can be there, or df-pn sharing unsolved numbers, which then
    /// does without disproofs that rely on a repetition above).
    #[inline]
    fn lookup<T: TranspositionTable>(
        &self,
        table: &mut T,
        hash: u64,
        path_key: u64,
        probe_path: bool,
    ) -> Option<(Entry, bool)> {
        match G::REPETITION_RULE {
            RepetitionRule::Acyclic => table.probe(self.position_key(hash)).map(|e| (e, false)),
            RepetitionRule::ByPosition => table
                .probe(self.path_key(hash, path_key))
                .map(|e| (e, false)),
            RepetitionRule::Draw => match table.probe(self.position_key(hash)) {
                Some(e) if e.numbers.is_solved() => Some((e, false)),
                // Unsolved position-keyed entries are leaves' first numbers, or numbers shared
                // by every path (df-pn's `share_unsolved`): a search on this path, if there
                // was one, knows better.
                leaf if !probe_path => leaf.map(|e| (e, false)),
                leaf => table
                    .probe(self.path_key(hash, path_key))
                    .map(|e| (e, e.numbers.is_solved()))
                    .or(leaf.map(|e| (e, false))),
            },
        }
    }

    /// Starts loading the bucket of the dominance entries of `game`'s class, for a
    /// [`dominated`](Keying::dominated) probe after some other work (a cache miss the work
    /// hides). Nothing for games without dominance or tables too small to pay.
    #[inline]
    fn prefetch_dominant<T: TranspositionTable>(&self, table: &T, game: &G) {
        if game.dominance()
            && G::REPETITION_RULE != RepetitionRule::ByPosition
            && table.prefetch_pays()
        {
            table.prefetch(mix64(game.class_hash() ^ self.salt() ^ CLASS_NAMESPACE));
        }
    }

    /// A solved result for the position `game` is in from a dominance entry of its class
    /// ([`Game::dominance`]): a win for the side to move found with material no better for
    /// it, or a failure found with material no worse. Under the acyclic and draw rules only
    /// (dominance entries hold on every path, as position-keyed solved results do).
    #[inline]
    fn dominated<T: TranspositionTable>(&self, table: &mut T, game: &G) -> Option<Entry> {
        self.probe_class(table, game, |_, _| true)
    }

    /// The material of a dominance entry of `game`'s class that settles the position `game`
    /// is in with the result `mover_wins` (see [`dominated`](Keying::dominated)): what the
    /// entry's result was found to need ([`Game::material_needed`]).
    fn dominating_material<T: TranspositionTable>(
        &self,
        table: &mut T,
        game: &G,
        mover_wins: bool,
    ) -> Option<u32> {
        let mut found = None;
        self.probe_class(table, game, |stored, wins| {
            let wanted = wins == mover_wins;
            if wanted {
                found = Some(stored);
            }
            wanted
        })?;
        found
    }

    /// The first dominance entry of `game`'s class that settles the position `game` is in
    /// and that `accept` (given its material and whether the mover wins there) takes; none
    /// for games without dominance, under the by-position rule, or after a failed callback.
    #[inline]
    fn probe_class<T: TranspositionTable>(
        &self,
        table: &mut T,
        game: &G,
        mut accept: impl FnMut(u32, bool) -> bool,
    ) -> Option<Entry> {
        if !game.dominance() || G::REPETITION_RULE == RepetitionRule::ByPosition {
            return None;
        }
        let (mover, material, class_hash) =
            (game.side_to_move(), game.material(), game.class_hash());
        if game.has_failed() {
            return None; // a placeholder class or material: the search stops on the failure
        }
        let class_key = mix64(class_hash ^ self.salt() ^ CLASS_NAMESPACE);
        table.probe_dominant(class_key, &mut |stored, mover_wins| {
            settled_by_class(game, mover, mover_wins, material, stored)
                && accept(stored, mover_wins)
        })
    }

    /// Stores `entry`, a solved result of the position `game` is in that holds on every path,
    /// as a dominance entry of its class ([`Game::dominance`]), with the material it needs:
    /// `needed`, or the position's own.
    #[inline]
    fn remember_dominant<T: TranspositionTable>(
        &self,
        table: &mut T,
        game: &G,
        entry: &Entry,
        needed: Option<u32>,
    ) {
        if !game.dominance() || G::REPETITION_RULE == RepetitionRule::ByPosition {
            return;
        }
        let (class_hash, material) = (game.class_hash(), needed.unwrap_or(game.material()));
        if game.has_failed() {
            // A callback failed: its placeholders must not become an entry the table keeps.
            return;
        }
        let class_key = mix64(class_hash ^ self.salt() ^ CLASS_NAMESPACE);
        table.store_dominant(class_key, material, entry.numbers.is_win(), entry);
    }

    /// Numbers of a position repeating one on the path, by the game's rule.
    #[inline]
    fn repetition_numbers(&self, game: &G, mover: Player) -> Numbers {
        let value = match G::REPETITION_RULE {
            RepetitionRule::Acyclic | RepetitionRule::Draw => Value::Draw,
            RepetitionRule::ByPosition => game.repetition_value(),
        };
        framed(value, mover, self.attacker())
    }
}

/// Slots of the counting filter over the hashes on the current path.
const PATH_FILTER_SLOTS: usize = 256;

/// A counting filter over the hashes on the current path: most positions miss it, so the
/// linear scan of the path for a repetition runs only for true repetitions and rare
/// collisions.
#[derive(Clone, Copy)]
pub(crate) struct PathFilter {
    slots: [u16; PATH_FILTER_SLOTS],
}

impl PathFilter {
    /// An empty filter.
    pub(crate) const EMPTY: PathFilter = PathFilter {
        slots: [0; PATH_FILTER_SLOTS],
    };

    #[inline]
    fn slot(hash: u64) -> usize {
        ((hash ^ (hash >> 17) ^ (hash >> 41)) as usize) & (PATH_FILTER_SLOTS - 1)
    }

    /// False when no position with this hash is on the path.
    #[inline]
    pub(crate) fn may_contain(&self, hash: u64) -> bool {
        self.slots[Self::slot(hash)] != 0
    }

    /// A position with this hash joins the path.
    #[inline]
    pub(crate) fn add(&mut self, hash: u64) {
        let s = &mut self.slots[Self::slot(hash)];
        *s = s.saturating_add(1);
    }

    /// A position with this hash leaves the path.
    #[inline]
    pub(crate) fn remove(&mut self, hash: u64) {
        let s = &mut self.slots[Self::slot(hash)];
        *s = s.saturating_sub(1);
    }
}
