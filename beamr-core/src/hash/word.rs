//! [`WordHasher`]: a multiply-and-rotate hasher for the runtime's own
//! tables keyed by small integers (atom indices, reference ids, export
//! keys, timer ids).
//!
//! Those keys are numbers the runtime hands out, not strings a program
//! chooses, so the DoS resistance of the standard hasher (SipHash, about
//! 200 instructions for a reference's three words) buys nothing there; on
//! `gen_server:call`'s path (an alias made, looked up and dropped, an
//! `apply` of the callback) it was a tenth of the round trip.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier of Fx (rustc's hasher): odd, with well-spread bits.
const K: u64 = 0x517c_c1b7_2722_0a95;

/// Hashes integer words with one rotate, xor and multiply each.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The table indexes with the low bits, which a multiplication
        // mixes least: fold the high half in.
        self.0 ^ (self.0 >> 32)
    }
}

/// A `HashMap` hashed with [`WordHasher`].
pub type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_ids_spread_over_the_low_bits() {
        let buckets: std::collections::HashSet<u64> = (0u32..1024)
            .map(|n| {
                let mut h = WordHasher::default();
                h.write_u32(n);
                h.write_u32(0);
                h.write_u32(0);
                h.finish() & 1023
            })
            .collect();
        assert!(buckets.len() > 600, "{} buckets of 1024", buckets.len());
    }

    #[test]
    fn a_map_finds_what_it_holds() {
        let mut m: WordMap<[u32; 3], u32> = WordMap::default();
        for n in 0..1000 {
            m.insert([n, n >> 3, 0], n);
        }
        assert!((0..1000).all(|n| m.get(&[n, n >> 3, 0]) == Some(&n)));
        assert_eq!(m.get(&[5000, 0, 0]), None);
    }
}
