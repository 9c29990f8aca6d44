//! [`Atom`] and the table behind it.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{LazyLock, RwLock};

use foldhash::fast::RandomState;

use super::erl_order;
use super::known::KNOWN_ATOMS;
use super::seen;

/// The BEAM's default limit on the number of atoms (`+t`'s default).
pub const MAX_ATOMS: usize = 1_048_576;

/// The atoms the runtime may make for its own names once programs have
/// filled the table to its limit: a program's `list_to_atom` at the limit
/// gets `system_limit` (where erl's whole node dies), and the runtime,
/// whose own names are a fixed set, can still name what it reports.
pub const RUNTIME_RESERVE: usize = 65_536;

/// The limit programs' atoms are held to ([`Atom::new_within_limit`]):
/// [`MAX_ATOMS`] unless [`set_limit`] changed it (`+t`).
static LIMIT: AtomicUsize = AtomicUsize::new(MAX_ATOMS);

/// Sets the atom limit (erl's `+t`, which takes 8,192 to 2,147,483,647);
/// call before the runtime starts.
pub fn set_limit(limit: usize) {
    LIMIT.store(limit, Ordering::Relaxed);
}

/// The atom limit `erlang:system_info(atom_limit)` answers.
pub fn limit() -> usize {
    LIMIT.load(Ordering::Relaxed)
}

/// The most atoms there can ever be: the limit and the runtime's reserve.
pub fn capacity() -> usize {
    limit().saturating_add(RUNTIME_RESERVE)
}

/// The longest atom name Erlang accepts, in characters.
pub const MAX_ATOM_CHARS: usize = 255;

/// An interned atom: an index into the global atom table.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom(u32);

/// Why an atom could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AtomError {
    /// The table already holds as many atoms as the limit allows
    /// (Erlang's `system_limit`).
    #[error("system_limit: the atom table is full ({} atoms)", limit())]
    SystemLimit,
    /// The name is longer than [`MAX_ATOM_CHARS`] characters.
    #[error("system_limit: atom name of {0} characters exceeds {MAX_ATOM_CHARS}")]
    TooLong(usize),
}

struct Table {
    /// Index to entry; appended under `by_name`'s write lock, read without locks.
    names: boxcar::Vec<Entry>,
    /// Name to index, hashed with a seed chosen at start (names come from
    /// programs and the network).
    by_name: RwLock<HashMap<&'static str, Atom, RandomState>>,
    /// Bytes of all names (the known atoms' and the leaked ones), grown
    /// under `by_name`'s write lock.
    name_bytes: AtomicUsize,
}

/// One atom's name and its place among flat-map keys.
struct Entry {
    name: &'static str,
    /// The atom's rank in a flat map's key order on OTP 26 and later
    /// ([`Atom::map_key_rank`]); rewritten once, when erl's boot order is
    /// installed ([`install_erl_boot_order`]).
    rank: AtomicU32,
}

impl Entry {
    fn new(name: &'static str, index: usize) -> Entry {
        let rank = erl_order::rank_of(name, index);
        Entry {
            name,
            rank: AtomicU32::new(rank),
        }
    }
}

/// What the atom table takes in memory, in bytes (`erlang:memory(atom)`
/// and `atom_used`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AtomMemory {
    /// Bytes allocated: the names, and both indexes at their capacity.
    pub allocated: usize,
    /// Bytes in use: the names, and one entry in each index per atom.
    pub used: usize,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let table = Table {
        names: boxcar::Vec::with_capacity(4096),
        by_name: RwLock::new(HashMap::with_capacity_and_hasher(
            4096,
            RandomState::default(),
        )),
        name_bytes: AtomicUsize::new(KNOWN_ATOMS.iter().map(|n| n.len()).sum()),
    };
    {
        let mut by_name = table.by_name.write().unwrap_or_else(|e| e.into_inner());
        for (i, name) in KNOWN_ATOMS.iter().enumerate() {
            let index = table.names.push(Entry::new(name, i));
            debug_assert_eq!(index, i, "known atoms are interned first, in order");
            by_name.insert(name, Atom(i as u32));
        }
    }
    table
});

impl Atom {
    /// Interns one of the runtime's own names, returning its atom: it may
    /// go past the atom limit into [`RUNTIME_RESERVE`], so that the runtime
    /// can name what it answers when programs have filled the table. Fails
    /// only past the reserve, or for a name longer than
    /// [`MAX_ATOM_CHARS`] characters. A name from a program or a file
    /// goes through [`Atom::new_within_limit`] instead.
    pub fn new(name: &str) -> Result<Atom, AtomError> {
        Atom::intern(name, capacity())
    }

    /// Interns a name that came from a program or a file
    /// (`list_to_atom`, `binary_to_term`, a module's atom table): fails
    /// with [`AtomError::SystemLimit`] once the table holds [`limit`]
    /// atoms, as the BEAM's table refuses past `+t`.
    pub fn new_within_limit(name: &str) -> Result<Atom, AtomError> {
        Atom::intern(name, limit())
    }

    /// Interns `name` if fewer than `most` atoms exist.
    fn intern(name: &str, most: usize) -> Result<Atom, AtomError> {
        if let Some(atom) = Atom::existing(name) {
            return Ok(atom);
        }
        let chars = name.chars().count();
        if chars > MAX_ATOM_CHARS {
            return Err(AtomError::TooLong(chars));
        }
        let table = &*TABLE;
        let mut by_name = table.by_name.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&atom) = by_name.get(name) {
            return Ok(atom);
        }
        if table.names.count() >= most {
            return Err(AtomError::SystemLimit);
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let index = table.names.push(Entry::new(leaked, table.names.count()));
        table.name_bytes.fetch_add(leaked.len(), Ordering::Relaxed);
        let atom = Atom(index as u32);
        by_name.insert(leaked, atom);
        Ok(atom)
    }

    /// The atom named `name`, if it already exists (`list_to_existing_atom`).
    /// Takes the table's read lock only the first time this thread asks for
    /// the name.
    #[inline]
    pub fn existing(name: &str) -> Option<Atom> {
        if let Some(atom) = seen::recall(name) {
            return Some(atom);
        }
        let atom = {
            let by_name = TABLE.by_name.read().unwrap_or_else(|e| e.into_inner());
            by_name.get(name).copied()
        }?;
        seen::remember(atom);
        Some(atom)
    }

    /// The atom's name. Lock-free.
    #[inline]
    pub fn name(self) -> &'static str {
        // Atoms are only created by `new` (after the push) or from the known
        // list, so the index is always present.
        TABLE.names[self.0 as usize].name
    }

    /// The atom's rank among a flat map's keys on OTP 26 and later, where
    /// erl orders two atom keys by atom index: erl's index for the atoms
    /// erl has when it boots (the installed order, [`install_erl_boot_order`]),
    /// after them beamr's own creation order. Lock-free.
    #[inline]
    pub fn map_key_rank(self) -> u32 {
        TABLE.names[self.0 as usize].rank.load(Ordering::Relaxed)
    }

    /// The atom's index in the table.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0
    }

    /// The atom at `index`, if one exists there.
    pub fn from_index(index: u32) -> Option<Atom> {
        TABLE.names.get(index as usize).map(|_| Atom(index))
    }

    /// Builds an atom from an index without checking it; only for indices
    /// read back from a term that was built from a valid atom.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Atom {
        Atom(index)
    }

    /// Number of atoms in the table.
    pub fn count() -> usize {
        TABLE.names.count()
    }

    /// The table's memory: names and indexes, allocated and in use.
    ///
    /// The index from number to name grows in buckets of doubling size
    /// from 4096 entries; the map from name to number holds a key, a value
    /// and a control byte per slot.
    pub fn memory() -> AtomMemory {
        let table = &*TABLE;
        let by_name = table.by_name.read().unwrap_or_else(|e| e.into_inner());
        let count = table.names.count();
        let names = table.name_bytes.load(Ordering::Relaxed);
        let slot = std::mem::size_of::<Entry>();
        let entry = std::mem::size_of::<(&str, Atom)>() + 1;
        AtomMemory {
            allocated: names
                + count.max(4096).next_power_of_two() * slot
                + by_name.capacity() * entry,
            used: names + count * (slot + entry),
        }
    }

    /// `true` or `false` as an atom.
    #[inline]
    pub const fn from_bool(b: bool) -> Atom {
        if b {
            Atom::TRUE
        } else {
            Atom::FALSE
        }
    }
}

/// Installs erl's boot atom order for `release` (OTP 26 and later order a
/// flat map's atom keys by it; see [`crate::atom::erl_order`]) and ranks
/// every atom that exists already by it. Call once, before any map with two
/// atom keys is built; later atoms are ranked as they are created.
pub fn install_erl_boot_order(release: u32) {
    let table = &*TABLE;
    // The write lock keeps atoms from being created while ranks change.
    let _by_name = table.by_name.write().unwrap_or_else(|e| e.into_inner());
    erl_order::install(release);
    for (index, entry) in table.names.iter() {
        entry
            .rank
            .store(erl_order::rank_of(entry.name, index), Ordering::Relaxed);
    }
}

impl fmt::Debug for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Atom({:?})", self.name())
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_idempotent_and_names_round_trip() {
        let a = Atom::new("beamr_test_atom").unwrap();
        let b = Atom::new("beamr_test_atom").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.name(), "beamr_test_atom");
        assert_eq!(Atom::existing("beamr_test_atom"), Some(a));
        assert_eq!(Atom::from_index(a.index()), Some(a));
    }

    #[test]
    fn known_atoms_have_fixed_indices() {
        assert_eq!(Atom::OK.name(), "ok");
        assert_eq!(Atom::ERROR.name(), "error");
        assert_eq!(Atom::TRUE.name(), "true");
        assert_eq!(Atom::new("undefined").unwrap(), Atom::UNDEFINED);
    }

    #[test]
    fn names_longer_than_255_characters_are_refused() {
        let long = "é".repeat(256);
        assert_eq!(Atom::new(&long), Err(AtomError::TooLong(256)));
        assert!(Atom::new(&"é".repeat(255)).is_ok());
    }

    #[test]
    fn concurrent_interning_agrees() {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    (0..500)
                        .map(|i| Atom::new(&format!("conc_{i}")).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        for r in &results[1..] {
            assert_eq!(r, &results[0]);
        }
    }
}
