//! The walks' memory of the positions they accepted.

/// The first word of a memo a walk has used: this tag in the high half, the walk's epoch in
/// the low half (arbitrary: "PNMM").
const TAG: u64 = 0x504E_4D4D;

/// A map from 64-bit keys to node ids in caller memory: after a header word, two words a slot
/// (the key, then the walk's epoch in the high half of the second word and the id in its low
/// half), open addressing with linear probing. A full map simply stops remembering: the walk
/// then visits again what it would have found here.
///
/// Memory is not cleared for every walk, which would cost a walk of a small proof as much as
/// the memory is large: each walk takes the next epoch (kept in the header word), and slots of
/// other epochs count as empty. So slots left by an earlier walk, or any other bytes, count
/// only where they hold the walk's own 32-bit epoch beside the very 64-bit key looked up.
/// Memory whose header word is not a walk's is cleared first, and so is memory whose epochs
/// have all been used.
pub(super) struct KeyMap<'a> {
    slots: &'a mut [u64],
    epoch: u32,
    used: usize,
}

impl<'a> KeyMap<'a> {
    /// An empty map over `memory` (`(memory.len() - 1) / 2` slots).
    pub(super) fn new(memory: &'a mut [u64]) -> Self {
        let Some((header, rest)) = memory.split_first_mut() else {
            return KeyMap {
                slots: &mut [],
                epoch: 1,
                used: 0,
            };
        };
        let len = rest.len() / 2 * 2;
        let slots = &mut rest[..len];
        let epoch = match (*header >> 32 == TAG).then_some(*header as u32) {
            Some(last) if last < u32::MAX => last + 1,
            _ => {
                crate::memory::clear_lazily(slots, 0);
                1
            }
        };
        *header = TAG << 32 | epoch as u64;
        KeyMap {
            slots,
            epoch,
            used: 0,
        }
    }

    fn capacity(&self) -> usize {
        self.slots.len() / 2
    }

    fn home(&self, key: u64) -> usize {
        (((key >> 32) * self.capacity() as u64) >> 32) as usize
    }

    /// True when slot `i` was written by this walk.
    fn taken(&self, i: usize) -> bool {
        (self.slots[2 * i + 1] >> 32) as u32 == self.epoch
    }

    /// The id remembered for `key`.
    pub(super) fn get(&self, key: u64) -> Option<u64> {
        let mut found = None;
        self.any(key, |id| {
            found = Some(id);
            true
        });
        found
    }

    /// Whether some value remembered for `key` satisfies `f` (a key keeps one id with
    /// [`insert`](KeyMap::insert), several values with [`insert_value`](KeyMap::insert_value)).
    pub(super) fn any(&self, key: u64, mut f: impl FnMut(u64) -> bool) -> bool {
        if self.capacity() == 0 {
            return false;
        }
        let mut i = self.home(key);
        while self.taken(i) {
            if self.slots[2 * i] == key && f(self.slots[2 * i + 1] & u32::MAX as u64) {
                return true;
            }
            i = (i + 1) % self.capacity();
        }
        false
    }

    /// Remembers `id` (below 2^32) for `key` (the first id stays).
    pub(super) fn insert(&mut self, key: u64, id: u64) {
        self.insert_unless(key, id, |_| true);
    }

    /// Remembers `value` (below 2^32) for `key` beside the values it has (once each): a key
    /// with several values, as [`any`](KeyMap::any) reads them. The walk keeps a game's
    /// classes this way, each with the materials that held (keys apart from positions').
    pub(super) fn insert_value(&mut self, key: u64, value: u64) {
        self.insert_unless(key, value, |held| held == value);
    }

    /// Remembers `value` for `key` unless a value already remembered for it is `same`.
    fn insert_unless(&mut self, key: u64, value: u64, same: impl Fn(u64) -> bool) {
        // Keep a quarter free so probe sequences stay short and always end. Values that do
        // not fit are not remembered (four billion positions in one walk).
        if (self.used + 1) * 4 > self.capacity() * 3 || value > u32::MAX as u64 {
            return;
        }
        let mut i = self.home(key);
        while self.taken(i) {
            if self.slots[2 * i] == key && same(self.slots[2 * i + 1] & u32::MAX as u64) {
                return;
            }
            i = (i + 1) % self.capacity();
        }
        self.slots[2 * i] = key;
        self.slots[2 * i + 1] = (self.epoch as u64) << 32 | value;
        self.used += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_until_three_quarters_full() {
        let mut memory = [7u64; 10]; // a header, four slots, the odd word unused
        let mut map = KeyMap::new(&mut memory);
        assert_eq!(map.get(42), None, "bytes that were no walk's are cleared");
        map.insert(42, 1);
        map.insert(0, 2);
        map.insert(1 << 40, 3);
        map.insert(5 << 40, 4); // a fourth would leave no quarter free: forgotten
        assert_eq!(map.get(42), Some(1));
        assert_eq!(map.get(0), Some(2));
        assert_eq!(map.get(1 << 40), Some(3));
        assert_eq!(map.get(5 << 40), None);
        map.insert(42, 9);
        assert_eq!(map.get(42), Some(1), "the first id stays");
        let mut none: [u64; 1] = [0];
        let mut empty = KeyMap::new(&mut none);
        empty.insert(3, 3);
        assert_eq!(empty.get(3), None);
    }

    #[test]
    fn a_key_keeps_several_values_once_each() {
        let mut memory = [0u64; 33];
        let mut map = KeyMap::new(&mut memory);
        map.insert_value(7, 3);
        map.insert_value(7, 5);
        map.insert_value(7, 3);
        map.insert(9, 1);
        let mut seen = std::vec::Vec::new();
        assert!(!map.any(7, |v| {
            seen.push(v);
            false
        }));
        assert_eq!(seen, [3, 5], "each value once, in insertion order");
        assert!(map.any(7, |v| v == 5));
        assert!(!map.any(8, |_| true), "another key has none");
        assert_eq!(map.get(9), Some(1), "single-valued keys beside them");
    }

    #[test]
    fn a_new_walk_forgets_the_last_without_clearing() {
        let mut memory = [0u64; 17];
        let mut map = KeyMap::new(&mut memory);
        map.insert(42, 7);
        assert_eq!(map.get(42), Some(7));
        let map = KeyMap::new(&mut memory);
        assert_eq!(map.get(42), None, "the next walk's epoch");
        assert_eq!(memory[0], TAG << 32 | 2);
        // A slot with the walk's epoch counts only beside its own key.
        memory[0] = TAG << 32 | 5;
        let mut map = KeyMap::new(&mut memory);
        map.insert(1 << 40, 3);
        assert_eq!(map.get(2 << 40), None);
        // The last epoch used up: cleared, and counting again from 1.
        memory[0] = TAG << 32 | u32::MAX as u64;
        memory[1..].fill(u64::MAX);
        let map = KeyMap::new(&mut memory);
        assert_eq!(map.get(u64::MAX), None);
        assert!(memory[1..].iter().all(|&w| w == 0));
    }
}
