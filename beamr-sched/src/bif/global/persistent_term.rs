//! `persistent_term`: a global store of terms that are read often and
//! written rarely. Stored terms are copied once onto a heap that is never
//! collected, so `get` returns them without copying, as OTP does.

use std::sync::{LazyLock, Mutex};

use beamr_core::heap::Heap;
use beamr_core::order;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("persistent_term", "get", 1, get1),
    ("persistent_term", "get", 2, get2),
    ("persistent_term", "put", 2, put),
    ("persistent_term", "erase", 1, erase),
    ("persistent_term", "get", 0, get0),
];

struct Store {
    /// Never collected: terms handed out stay valid for the runtime's life.
    heap: Heap,
    entries: Vec<(Term, Term)>,
}

// SAFETY: the heap is only touched under the mutex, and the terms on it are
// immutable once stored.
unsafe impl Send for Store {}

static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| {
    Mutex::new(Store {
        heap: Heap::new(),
        entries: Vec::new(),
    })
});

fn lookup(key: Term) -> Option<Term> {
    let store = STORE.lock().unwrap_or_else(|e| e.into_inner());
    store
        .entries
        .iter()
        .find(|(k, _)| order::exact_eq(*k, key))
        .map(|&(_, v)| v)
}

fn get1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    lookup(a[0]).ok_or_else(Exception::badarg)
}

fn get2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(lookup(a[0]).unwrap_or(a[1]))
}

fn put(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut store = STORE.lock().unwrap_or_else(|e| e.into_inner());
    let key = store.heap.copy_term(a[0]);
    let value = store.heap.copy_term(a[1]);
    store.entries.retain(|(k, _)| !order::exact_eq(*k, key));
    store.entries.push((key, value));
    Ok(Term::OK)
}

fn erase(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut store = STORE.lock().unwrap_or_else(|e| e.into_inner());
    let before = store.entries.len();
    store.entries.retain(|(k, _)| !order::exact_eq(*k, a[0]));
    Ok(Term::bool(store.entries.len() != before))
}

fn get0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let entries = STORE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entries
        .clone();
    let pairs: Vec<Term> = entries
        .iter()
        .map(|&(k, v)| p.heap.tuple(&[k, v]))
        .collect();
    Ok(p.heap.list(&pairs))
}
