//! Native objects that Erlang code holds by reference, as NIF resources are
//! held on the BEAM: an open file of `prim_file`, a buffer of
//! `prim_buffer`.
//!
//! A resource is a local reference whose id words are
//!
//! ```text
//! word 0   serial, low 32 bits      (1, 2, ... per kind)
//! word 1   serial, high 32 bits
//! word 2   the kind's tag           (never 0: make_ref's third word is 0,
//!                                    ETS tables use 0x00E75000)
//! ```
//!
//! and a process-wide table per kind maps the serial to the object. The
//! BEAM frees a resource when no term refers to it any more; beamr's heaps
//! do not tell the table that, so an object lives until the runtime ends.
//! The objects are small (a closed file keeps an empty slot, a buffer its
//! unread bytes).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::Process;

type Table<T> = Mutex<HashMap<u64, Arc<T>>>;

fn new_table<T>() -> Table<T> {
    Mutex::new(HashMap::new())
}

/// The objects of one kind, by serial.
pub(crate) struct Resources<T> {
    tag: u32,
    next: AtomicU64,
    table: LazyLock<Table<T>>,
}

impl<T> Resources<T> {
    /// An empty table for resources tagged `tag` (not 0).
    pub(crate) const fn new(tag: u32) -> Resources<T> {
        Resources {
            tag,
            next: AtomicU64::new(1),
            table: LazyLock::new(new_table::<T>),
        }
    }

    fn table(&self) -> MutexGuard<'_, HashMap<u64, Arc<T>>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `value`; returns the reference that denotes it, built on `p`'s heap.
    pub(crate) fn insert(&self, p: &mut Process, value: T) -> Term {
        self.insert_shared(p, value).0
    }

    /// Adds `value`; returns the reference that denotes it, built on `p`'s
    /// heap, and the object itself.
    pub(crate) fn insert_shared(&self, p: &mut Process, value: T) -> (Term, Arc<T>) {
        let value = Arc::new(value);
        (self.insert_arc(p, Arc::clone(&value)), value)
    }

    /// Adds the object `value` (made elsewhere, for a weak reference to
    /// itself); returns the reference that denotes it, built on `p`'s heap.
    pub(crate) fn insert_arc(&self, p: &mut Process, value: Arc<T>) -> Term {
        let serial = self.next.fetch_add(1, Ordering::Relaxed);
        self.table().insert(serial, value);
        p.heap
            .local_ref([serial as u32, (serial >> 32) as u32, self.tag])
    }

    /// [`Resources::remove`] by the reference's id words.
    pub(crate) fn remove_ids(&self, ids: [u32; 3]) -> bool {
        if ids[2] != self.tag {
            return false;
        }
        let serial = u64::from(ids[0]) | (u64::from(ids[1]) << 32);
        self.table().remove(&serial).is_some()
    }

    /// The objects of this kind for which `keep` holds.
    pub(crate) fn count(&self, keep: impl Fn(&T) -> bool) -> usize {
        self.table().values().filter(|v| keep(v)).count()
    }

    /// The serial of reference `t`, if it is one of this kind's.
    fn serial(&self, t: Term) -> Option<u64> {
        let r = t.as_ref()?;
        (r.len == 3 && r.node == Atom::NONODE_NOHOST && r.ids[2] == self.tag)
            .then(|| u64::from(r.ids[0]) | (u64::from(r.ids[1]) << 32))
    }

    /// Drops the table's hold on the object `t` denotes (a closed
    /// socket's, whose reference then denotes nothing); true if it held one.
    pub(crate) fn remove(&self, t: Term) -> bool {
        match self.serial(t) {
            Some(serial) => self.table().remove(&serial).is_some(),
            None => false,
        }
    }

    /// Whether `t` is a reference of this kind's, held or not.
    pub(crate) fn is_kind(&self, t: Term) -> bool {
        self.serial(t).is_some()
    }

    /// The object reference `t` denotes, if any.
    pub(crate) fn get(&self, t: Term) -> Option<Arc<T>> {
        let serial = self.serial(t)?;
        self.table().get(&serial).cloned()
    }
}
