//! The walks' memory of the positions they accepted.

/// Marks an empty slot.
const EMPTY_KEY: u64 = 0;

/// A map from 64-bit keys to node ids in caller memory: two words a slot (key, id), open
/// addressing with linear probing. A full map simply stops remembering: the walk then visits
/// again what it would have found here.
pub(super) struct KeyMap<'a> {
    slots: &'a mut [u64],
    used: usize,
}

impl<'a> KeyMap<'a> {
    /// An empty map over `memory` (`memory.len() / 2` slots).
    pub(super) fn new(memory: &'a mut [u64]) -> Self {
        let len = memory.len() / 2 * 2;
        let slots = &mut memory[..len];
        slots.fill(EMPTY_KEY);
        KeyMap { slots, used: 0 }
    }

    fn capacity(&self) -> usize {
        self.slots.len() / 2
    }

    fn home(&self, key: u64) -> usize {
        (((key >> 32) * self.capacity() as u64) >> 32) as usize
    }

    /// The id remembered for `key`.
    pub(super) fn get(&self, key: u64) -> Option<u64> {
        let key = key.max(1);
        if self.capacity() == 0 {
            return None;
        }
        let mut i = self.home(key);
        loop {
            match self.slots[2 * i] {
                EMPTY_KEY => return None,
                k if k == key => return Some(self.slots[2 * i + 1]),
                _ => i = (i + 1) % self.capacity(),
            }
        }
    }

    /// Remembers `id` for `key` (the first id stays).
    pub(super) fn insert(&mut self, key: u64, id: u64) {
        let key = key.max(1);
        // Keep a quarter free so probe sequences stay short and always end.
        if (self.used + 1) * 4 > self.capacity() * 3 {
            return;
        }
        let mut i = self.home(key);
        loop {
            match self.slots[2 * i] {
                EMPTY_KEY => {
                    self.slots[2 * i] = key;
                    self.slots[2 * i + 1] = id;
                    self.used += 1;
                    return;
                }
                k if k == key => return,
                _ => i = (i + 1) % self.capacity(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_until_three_quarters_full() {
        let mut memory = [7u64; 9]; // four slots, the odd word unused
        let mut map = KeyMap::new(&mut memory);
        assert_eq!(map.get(42), None);
        map.insert(42, 1);
        map.insert(0, 2); // key 0 is stored as 1
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
}
