//! The string table: names (atoms and other strings) written once, referred
//! to from events by a 32-bit key.
//!
//! ```text
//! record:  word 0   | len (16) | reserved (8) | kind (8) | key (32) |
//!                     bits 63..48  47..40         39..32     31..0
//!          words 1.. the name's UTF-8 bytes, little-endian packed, zero-padded
//!                    to a whole word
//! ```
//! `kind` is 1 for an atom (the key is the atom's index in the writing
//! process's atom table) and 2 for a string interned with
//! [`Recorder::intern_str`](crate::Recorder::intern_str). Records are
//! appended under a lock (the slow path, taken once per name); the file
//! header's `strings_used` is stored with release ordering after the record,
//! so a reader that loads it with acquire ordering sees whole records.
//!
//! A writer decides whether an atom is already in the table with one acquire
//! load of a bit in an in-memory bitset. The bit is set (release) after the
//! record is published, so a thread that sees the bit and then publishes an
//! event naming the atom publishes the record with it (happens-before is
//! transitive through the bitset and the ring's tail).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use beamr_core::atom::{capacity, Atom, MAX_ATOMS, RUNTIME_RESERVE};

use crate::layout::{file_header, Geometry};
use crate::region::Region;

/// Record kind of an atom name.
pub const KIND_ATOM: u8 = 1;
/// Record kind of an interned string.
pub const KIND_STRING: u8 = 2;
/// Longest name stored, in bytes (longer names are cut at a char boundary).
pub const MAX_NAME_BYTES: usize = 1024;

/// An atom's key in the table: its index in the writing process's atom
/// table (record kind [`KIND_ATOM`]).
#[inline(always)]
pub(crate) fn atom_key(atom: Atom) -> u32 {
    atom.index()
}

/// The writer's side of the string table.
pub(crate) struct StringWriter {
    atoms_seen: Box<[AtomicU64]>,
    strings: Mutex<HashMap<String, u32>>,
    append_lock: Mutex<()>,
}

impl StringWriter {
    pub(crate) fn new() -> StringWriter {
        StringWriter {
            // One bit per atom there can be, up to the default table's
            // (128 KiB; a `+t` of two billion would make it 256 MiB):
            // atoms past it are recorded by number, without their names.
            atoms_seen: (0..capacity().min(MAX_ATOMS + RUNTIME_RESERVE).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            strings: Mutex::new(HashMap::new()),
            append_lock: Mutex::new(()),
        }
    }

    /// Makes sure `atom`'s name is in the table of the file mapped as
    /// `region`; returns its key. The region's words are reached only when
    /// the name is new (the hot path is one load and a bit test).
    #[inline]
    pub(crate) fn atom(&self, region: &Region, g: &Geometry, atom: Atom) -> u32 {
        let i = atom.index() as usize;
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        match self.atoms_seen.get(w) {
            Some(word) if word.load(Ordering::Acquire) & bit == 0 => {
                self.atom_slow(region, g, atom, word, bit)
            }
            _ => atom_key(atom),
        }
    }

    #[cold]
    fn atom_slow(
        &self,
        region: &Region,
        g: &Geometry,
        atom: Atom,
        word: &AtomicU64,
        bit: u64,
    ) -> u32 {
        let _guard = self.append_lock.lock().unwrap_or_else(|e| e.into_inner());
        if word.load(Ordering::Acquire) & bit == 0 {
            append(region.words(), g, KIND_ATOM, atom_key(atom), atom.name());
            // Set even if the table was full, so a full table costs one
            // lock per atom, not per event.
            word.fetch_or(bit, Ordering::Release);
        }
        atom_key(atom)
    }

    /// Interns `s`, returning its key, or `None` if the table is full.
    pub(crate) fn string(&self, words: &[AtomicU64], g: &Geometry, s: &str) -> Option<u32> {
        let mut strings = self.strings.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&k) = strings.get(s) {
            return Some(k);
        }
        let key = strings.len() as u32;
        let _guard = self.append_lock.lock().unwrap_or_else(|e| e.into_inner());
        if append(words, g, KIND_STRING, key, s) {
            strings.insert(s.to_owned(), key);
            Some(key)
        } else {
            None
        }
    }
}

/// Appends one record; false (and `strings_dropped` counted) if it does not
/// fit. The caller holds the append lock.
fn append(words: &[AtomicU64], g: &Geometry, kind: u8, key: u32, name: &str) -> bool {
    let mut end = name.len().min(MAX_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let bytes = &name.as_bytes()[..end];
    let used_word = &words[file_header::STRINGS_USED];
    let used = used_word.load(Ordering::Relaxed) as usize;
    let need = 8 + bytes.len().div_ceil(8) * 8;
    if used + need > g.strings_capacity {
        words[file_header::STRINGS_DROPPED].fetch_add(1, Ordering::Relaxed);
        return false;
    }
    let base = g.strings_word() + used / 8;
    let head = key as u64 | (kind as u64) << 32 | (bytes.len() as u64) << 48;
    words[base].store(head, Ordering::Relaxed);
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        words[base + 1 + i].store(u64::from_le_bytes(b), Ordering::Relaxed);
    }
    // Publishes the record (pairs with the reader's acquire load).
    used_word.store((used + need) as u64, Ordering::Release);
    true
}

/// The reader's copy of the string table.
#[derive(Default, Debug, Clone)]
pub struct StringTable {
    names: HashMap<(u8, u32), String>,
    /// Bytes of the table already parsed.
    parsed: usize,
}

impl StringTable {
    /// Parses records added since the last call. Stops at a malformed
    /// record (a corrupt table), keeping what was read.
    pub(crate) fn refresh(&mut self, words: &[AtomicU64], g: &Geometry) {
        let used = (words[file_header::STRINGS_USED].load(Ordering::Acquire) as usize)
            .min(g.strings_capacity);
        let base = g.strings_word();
        while self.parsed + 8 <= used {
            let head = words[base + self.parsed / 8].load(Ordering::Relaxed);
            let (key, kind, len) = (head as u32, (head >> 32) as u8, (head >> 48) as usize);
            let need = 8 + len.div_ceil(8) * 8;
            if self.parsed + need > used || len > MAX_NAME_BYTES {
                return;
            }
            let mut bytes = Vec::with_capacity(len.div_ceil(8) * 8);
            for i in 0..len.div_ceil(8) {
                let w = words[base + self.parsed / 8 + 1 + i].load(Ordering::Relaxed);
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            bytes.truncate(len);
            self.names
                .insert((kind, key), String::from_utf8_lossy(&bytes).into_owned());
            self.parsed += need;
        }
    }

    /// The name of the atom with index `key` in the writing process.
    pub fn atom(&self, key: u32) -> Option<&str> {
        self.names.get(&(KIND_ATOM, key)).map(String::as_str)
    }

    /// The interned string with key `key`.
    pub fn string(&self, key: u32) -> Option<&str> {
        self.names.get(&(KIND_STRING, key)).map(String::as_str)
    }

    /// Number of names known.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True if no name is known.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
