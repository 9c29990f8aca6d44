//! One ETS table: its fixed settings and, behind a lock, its objects.
//!
//! # Storage
//!
//! Every object is copied onto a heap of its own ([`Stored`]) when it is
//! inserted, so it survives its writer's collections and exit, and is
//! copied out onto the reader's heap on lookup. Objects are grouped by key
//! in a `BTreeMap`:
//!
//! - `ordered_set`: keys ordered by Erlang's term order (`1 == 1.0`: one key).
//! - `set`, `bag`, `duplicate_bag`: keys ordered by their internal hash,
//!   then by the exact term order (`1 =/= 1.0`: two keys). The order is
//!   stable, so `first`/`next` walk every key once, and `next` finds the
//!   successor even of a key deleted meanwhile.
//!
//! A key's group holds one object in a set, and the objects in insertion
//! order in a bag. The map's key term points into the first object's heap;
//! whenever the first object changes, the entry is re-inserted with a key
//! taken from the new first object.
//!
//! # Locking
//!
//! One mutex per table: any scheduler thread may read or write any table;
//! operations on one table are serialised.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Mutex;

use beamr_core::atom::Atom;
use beamr_core::heap::{size_of_term, Heap};
use beamr_core::map::hash::internal_hash;
use beamr_core::order;
use beamr_core::term::Term;

/// The table type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One object per key (`=:=`), in hash order.
    Set,
    /// One object per key (`==`), in term order.
    OrderedSet,
    /// Several objects per key, each at most once.
    Bag,
    /// Several objects per key, duplicates allowed.
    DuplicateBag,
}

impl Kind {
    /// The type as `ets:info/2` names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Set => "set",
            Kind::OrderedSet => "ordered_set",
            Kind::Bag => "bag",
            Kind::DuplicateBag => "duplicate_bag",
        }
    }

    /// True for `set` and `ordered_set`.
    pub fn is_set(self) -> bool {
        matches!(self, Kind::Set | Kind::OrderedSet)
    }
}

/// Who may read and write a table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protection {
    /// Only the owner reads and writes.
    Private,
    /// Everyone reads, the owner writes.
    Protected,
    /// Everyone reads and writes.
    Public,
}

impl Protection {
    /// The protection as `ets:info/2` names it.
    pub fn name(self) -> &'static str {
        match self {
            Protection::Private => "private",
            Protection::Protected => "protected",
            Protection::Public => "public",
        }
    }
}

/// A term copied onto a heap of its own.
pub struct Stored {
    term: Term,
    heap: Option<Heap>,
}

// SAFETY: the heap is owned by this value and only read after the copy;
// off-heap binaries are reference counted atomically.
unsafe impl Send for Stored {}

impl Stored {
    /// Copies `term` (from any heap) into fresh storage.
    pub fn new(term: Term) -> Stored {
        if term.is_immediate() {
            return Stored { term, heap: None };
        }
        let mut heap = Heap::with_capacity(size_of_term(term).max(1));
        let term = heap.copy_term(term);
        Stored {
            term,
            heap: Some(heap),
        }
    }

    /// The stored term (valid while `self` lives).
    #[inline]
    pub fn term(&self) -> Term {
        self.term
    }

    /// Words of storage used.
    pub fn words(&self) -> usize {
        self.heap.as_ref().map_or(0, Heap::used_words)
    }
}

/// A key in a table's map, pointing into its group's first object (or, for
/// a probe, anywhere).
#[derive(Copy, Clone)]
struct Key {
    hash: u32,
    term: Term,
    exact: bool,
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        self.hash.cmp(&other.hash).then_with(|| {
            if self.term == other.term {
                Ordering::Equal
            } else if self.exact {
                order::compare_exact(self.term, other.term)
            } else {
                order::compare(self.term, other.term)
            }
        })
    }
}

/// A table's mutable part.
pub struct TableData {
    /// The table's name (also for unnamed tables: the name given to `new`).
    pub name: Atom,
    /// The owning process.
    pub owner: Term,
    /// The heir and the data it is sent, if any.
    pub heir: Option<(Term, Stored)>,
    /// Set once the table is deleted: handles still held see no table.
    pub deleted: bool,
    /// `safe_fixtable` count.
    pub fixed: u32,
    kind: Kind,
    keypos: usize,
    objects: BTreeMap<Key, Vec<Stored>>,
    size: usize,
}

/// Words `ets:info(T, memory)` counts for an empty table: its header,
/// lock and index (a fresh table on the BEAM reports about as many).
pub const TABLE_OVERHEAD_WORDS: usize = 300;

/// An ETS table: its settings, and its data behind a lock.
pub struct Table {
    /// The table identifier's reference words.
    pub id: [u32; 3],
    /// The type.
    pub kind: Kind,
    /// The 1-based key position.
    pub keypos: usize,
    /// Created with `named_table`.
    pub named: bool,
    /// Access rights.
    pub protection: Protection,
    /// `read_concurrency` as given.
    pub read_concurrency: bool,
    /// `write_concurrency` as given.
    pub write_concurrency: bool,
    /// The objects and owner, behind the table's lock.
    pub data: Mutex<TableData>,
}

impl Table {
    /// An empty table.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: [u32; 3],
        name: Atom,
        kind: Kind,
        keypos: usize,
        named: bool,
        protection: Protection,
        owner: Term,
        heir: Option<(Term, Stored)>,
        concurrency: (bool, bool),
    ) -> Table {
        Table {
            id,
            kind,
            keypos,
            named,
            protection,
            read_concurrency: concurrency.0,
            write_concurrency: concurrency.1,
            data: Mutex::new(TableData {
                name,
                owner,
                heir,
                deleted: false,
                fixed: 0,
                kind,
                keypos,
                objects: BTreeMap::new(),
                size: 0,
            }),
        }
    }

    /// Locks the table's data.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, TableData> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TableData {
    fn key(&self, term: Term) -> Key {
        match self.kind {
            Kind::OrderedSet => Key {
                hash: 0,
                term,
                exact: false,
            },
            _ => Key {
                hash: internal_hash(term, 0),
                term,
                exact: true,
            },
        }
    }

    /// The key of `object`, if it is a tuple long enough for the key position.
    pub fn key_of(&self, object: Term) -> Option<Term> {
        object.as_tuple()?.get(self.keypos - 1).copied()
    }

    /// Number of objects.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Words the table takes in all (`ets:info(T, memory)`): its objects
    /// and [`TABLE_OVERHEAD_WORDS`].
    pub fn memory_words(&self) -> usize {
        self.words() + TABLE_OVERHEAD_WORDS
    }

    /// Words of storage the objects take.
    pub fn words(&self) -> usize {
        self.objects
            .values()
            .flatten()
            .map(|s| s.words() + 2)
            .sum::<usize>()
    }

    fn put_group(&mut self, group: Vec<Stored>) {
        let term = self
            .key_of(group[0].term())
            .expect("stored objects have keys");
        let key = self.key(term);
        self.objects.insert(key, group);
    }

    /// Inserts `object` (a tuple with a key, checked by the caller).
    pub fn insert(&mut self, object: Term) {
        let key_term = self.key_of(object).expect("checked by the caller");
        let key = self.key(key_term);
        match self.kind {
            Kind::Set | Kind::OrderedSet => {
                // Copy first: `object` may share parts of the object it replaces.
                let stored = Stored::new(object);
                if self.objects.remove(&key).is_none() {
                    self.size += 1;
                }
                self.put_group(vec![stored]);
            }
            Kind::Bag | Kind::DuplicateBag => {
                if let Some(group) = self.objects.get_mut(&key) {
                    if self.kind == Kind::Bag && group.iter().any(|s| exact(s.term(), object)) {
                        return;
                    }
                    group.push(Stored::new(object));
                    self.size += 1;
                } else {
                    self.put_group(vec![Stored::new(object)]);
                    self.size += 1;
                }
            }
        }
    }

    /// The objects with `key`, oldest first.
    pub fn lookup(&self, key: Term) -> &[Stored] {
        self.objects
            .get(&self.key(key))
            .map_or(&[], |g| g.as_slice())
    }

    /// True if some object has `key`.
    pub fn contains(&self, key: Term) -> bool {
        self.objects.contains_key(&self.key(key))
    }

    /// Removes every object with `key`; returns them.
    pub fn remove_key(&mut self, key: Term) -> Vec<Stored> {
        let group = self.objects.remove(&self.key(key)).unwrap_or_default();
        self.size -= group.len();
        group
    }

    /// Removes the objects exactly equal to `object`.
    pub fn remove_object(&mut self, object: Term) {
        let Some(key_term) = self.key_of(object) else {
            return;
        };
        let Some(mut group) = self.objects.remove(&self.key(key_term)) else {
            return;
        };
        let before = group.len();
        group.retain(|s| !exact(s.term(), object));
        self.size -= before - group.len();
        if !group.is_empty() {
            self.put_group(group);
        }
    }

    /// Replaces the one object with the key of `object` (a set table's);
    /// `object` may share parts of the object it replaces.
    pub fn replace(&mut self, object: Term) {
        self.insert(object);
    }

    /// Removes every object.
    pub fn clear(&mut self) {
        self.objects.clear();
        self.size = 0;
    }

    /// Every object, in table order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Stored> + '_ {
        self.objects.values().flatten()
    }

    /// Keeps only the objects for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(Term) -> bool) -> usize {
        let mut removed = 0;
        let keys: Vec<Key> = self.objects.keys().copied().collect();
        for k in keys {
            let group = self.objects.get(&k).expect("present");
            if group.iter().all(|s| keep(s.term())) {
                continue;
            }
            let mut group = self.objects.remove(&k).expect("present");
            let before = group.len();
            group.retain(|s| keep(s.term()));
            removed += before - group.len();
            if !group.is_empty() {
                self.put_group(group);
            }
        }
        self.size -= removed;
        removed
    }

    /// The first key in table order.
    pub fn first(&self) -> Option<Term> {
        self.objects.keys().next().map(|k| k.term)
    }

    /// The last key in table order.
    pub fn last(&self) -> Option<Term> {
        self.objects.keys().next_back().map(|k| k.term)
    }

    /// The key after `key` (which need not be in the table).
    pub fn next(&self, key: Term) -> Option<Term> {
        use std::ops::Bound::{Excluded, Unbounded};
        self.objects
            .range((Excluded(self.key(key)), Unbounded))
            .next()
            .map(|(k, _)| k.term)
    }

    /// The key before `key` (which need not be in the table).
    pub fn prev(&self, key: Term) -> Option<Term> {
        use std::ops::Bound::{Excluded, Unbounded};
        self.objects
            .range((Unbounded, Excluded(self.key(key))))
            .next_back()
            .map(|(k, _)| k.term)
    }
}

#[inline]
fn exact(a: Term, b: Term) -> bool {
    a == b || (!a.is_immediate() && order::exact_eq(a, b))
}
