//! ETS: tables of tuples shared between processes.
//!
//! - [`table`]: one table, its storage and lock.
//! - [`Tables`]: a runtime's tables by identifier and by name, and what
//!   happens to a table when its owner exits.
//!
//! The `ets` BIFs themselves are in `bif/ets/`; match specifications (which
//! `select` and `match` run) in the top-level `matchspec`.

pub mod table;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

pub use table::{Kind, Protection, Stored, Table};

use crate::process::Payload;

/// Third word of a table identifier's reference: keeps table identifiers
/// apart from `make_ref` references (whose third word is 0).
const TABLE_REF_TAG: u32 = 0x00E7_5000;

#[derive(Default)]
struct Registry {
    by_id: HashMap<[u32; 3], Arc<Table>>,
    by_name: HashMap<Atom, Arc<Table>>,
}

/// A runtime's tables. Their number is bounded by memory only, as on
/// erts since OTP 20: [`Tables::limit`] is what `system_info(ets_limit)`
/// reports, never enforced.
pub struct Tables {
    registry: RwLock<Registry>,
    next_id: AtomicU64,
    limit: AtomicUsize,
}

/// erts's `ets_limit` without `+e`, and the least it reports with one.
pub const DEFAULT_ETS_LIMIT: usize = 8192;

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            registry: RwLock::default(),
            next_id: AtomicU64::new(0),
            limit: AtomicUsize::new(DEFAULT_ETS_LIMIT),
        }
    }
}

impl Tables {
    /// What `system_info(ets_limit)` answers: `+e`'s number, at least
    /// [`DEFAULT_ETS_LIMIT`]. Tables past it are made all the same, as
    /// erts makes them.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Sets the reported limit to `requested` (`+e`), as erts raises a
    /// smaller one to [`DEFAULT_ETS_LIMIT`].
    pub fn set_limit(&self, requested: usize) {
        self.limit
            .store(requested.max(DEFAULT_ETS_LIMIT), Ordering::Relaxed);
    }

    /// Fresh identifier words for a new table.
    pub fn new_id(&self) -> [u32; 3] {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        [n as u32, (n >> 32) as u32, TABLE_REF_TAG]
    }

    /// Adds a table; false if it is named and the name is taken.
    pub fn insert(&self, table: Arc<Table>, name: Atom) -> bool {
        let mut reg = self.registry.write().unwrap_or_else(|e| e.into_inner());
        if table.named {
            if reg.by_name.contains_key(&name) {
                return false;
            }
            reg.by_name.insert(name, table.clone());
        }
        reg.by_id.insert(table.id, table);
        true
    }

    /// The table a table identifier (name or reference) denotes.
    pub fn resolve(&self, tab: Term) -> Option<Arc<Table>> {
        let reg = self.registry.read().unwrap_or_else(|e| e.into_inner());
        if let Some(name) = tab.as_atom() {
            return reg.by_name.get(&name).cloned();
        }
        let r = tab.as_ref()?;
        if r.len != 3 || r.node != Atom::NONODE_NOHOST {
            return None;
        }
        reg.by_id.get(&[r.ids[0], r.ids[1], r.ids[2]]).cloned()
    }

    /// Removes a table from the registry (its data is marked deleted by the caller).
    pub fn remove(&self, table: &Table, name: Atom) {
        let mut reg = self.registry.write().unwrap_or_else(|e| e.into_inner());
        reg.by_id.remove(&table.id);
        if table.named && reg.by_name.get(&name).is_some_and(|t| t.id == table.id) {
            reg.by_name.remove(&name);
        }
    }

    /// Renames a named table; false if `new` is taken.
    pub fn rename(&self, table: &Arc<Table>, old: Atom, new: Atom) -> bool {
        let mut reg = self.registry.write().unwrap_or_else(|e| e.into_inner());
        if !table.named {
            return true;
        }
        if reg.by_name.contains_key(&new) {
            return false;
        }
        reg.by_name.remove(&old);
        reg.by_name.insert(new, table.clone());
        true
    }

    /// Every table.
    pub fn all(&self) -> Vec<Arc<Table>> {
        let reg = self.registry.read().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<Arc<Table>> = reg.by_id.values().cloned().collect();
        v.sort_by_key(|t| std::cmp::Reverse((t.id[1], t.id[0])));
        v
    }

    /// The identifier term of `table`, built on `heap`: its name if named,
    /// else a reference.
    pub fn tid(heap: &mut Heap, table: &Table, name: Atom) -> Term {
        if table.named {
            Term::atom(name)
        } else {
            heap.local_ref(table.id)
        }
    }

    /// A process exited: its tables go to their heirs (`send` gets each
    /// heir and its `{'ETS-TRANSFER', Tab, FromPid, HeirData}` message) or
    /// are deleted. `is_alive` tells whether a heir still runs.
    pub fn owner_exited(
        &self,
        pid: Term,
        is_alive: impl Fn(Term) -> bool,
        mut send: impl FnMut(Term, Payload),
    ) {
        let owned: Vec<Arc<Table>> = {
            let reg = self.registry.read().unwrap_or_else(|e| e.into_inner());
            if reg.by_id.is_empty() {
                return;
            }
            reg.by_id.values().cloned().collect()
        };
        for table in owned {
            let mut data = table.lock();
            if data.owner != pid || data.deleted {
                continue;
            }
            let heir = data
                .heir
                .as_ref()
                .map(|(h, d)| (*h, d.term()))
                .filter(|(h, _)| *h != pid && is_alive(*h));
            match heir {
                Some((heir, gift)) => {
                    data.owner = heir;
                    let mut heap = Heap::new();
                    let tab = Tables::tid(&mut heap, &table, data.name);
                    let gift = heap.copy_term(gift);
                    let msg = heap.tuple(&[
                        Term::atom(Atom::new("ETS-TRANSFER").expect("atom")),
                        tab,
                        pid,
                        gift,
                    ]);
                    drop(data);
                    send(
                        heir,
                        Payload {
                            term: msg,
                            heap: Some(heap),
                        },
                    );
                }
                None => {
                    data.deleted = true;
                    data.clear();
                    let name = data.name;
                    drop(data);
                    self.remove(&table, name);
                }
            }
        }
    }
}
