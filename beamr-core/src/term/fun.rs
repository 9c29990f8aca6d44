//! Funs: closures and export funs, and the global tables of the entries
//! they point to.
//!
//! Fun entries and exports are interned once and never freed (as the BEAM's
//! export table), so a closure or export object can hold a `&'static`
//! reference to one. The runtime stores the current code address of each in
//! its `code` slot.

use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{LazyLock, Mutex};

use super::header::Subtag;
use super::word::Term;
use crate::atom::Atom;
use crate::hash::word::{WordHasher, WordMap};

/// What the BEAM knows about one `fun` expression of a module (a FunT entry).
#[derive(Debug)]
pub struct FunEntry {
    /// The defining module.
    pub module: Atom,
    /// The local function implementing the fun (`'-main/0-fun-0-'`).
    pub function: Atom,
    /// Arity of the fun as called (without free variables).
    pub arity: u32,
    /// Number of free variables captured.
    pub num_free: u32,
    /// Index of the fun in the module's fun table.
    pub index: u32,
    /// MD5 of the module's code, identifying its version.
    pub uniq: [u8; 16],
    /// Old-style index (the same as `index` in modern code).
    pub old_index: u32,
    /// Old-style hash of the fun's code.
    pub old_uniq: u32,
    /// Address of the code for the runtime (0 while not loaded).
    pub code: AtomicUsize,
}

/// An exported function `M:F/A`: the target of `fun M:F/A` and of
/// external calls.
#[derive(Debug)]
pub struct Export {
    /// Module.
    pub module: Atom,
    /// Function name.
    pub function: Atom,
    /// Arity.
    pub arity: u32,
    /// Address of the code for the runtime (0 while not loaded).
    pub code: AtomicUsize,
    /// The function's trace-pattern flags for the runtime's call tracing
    /// (0 while no pattern traces it): the per-function flag word a call
    /// probe tests.
    pub trace: AtomicU32,
    /// The runtime's answer to "is this a native BIF?", kept once it has
    /// asked: 0 while not asked, [`Export::NOT_NATIVE`], or the BIF's
    /// place in the runtime's table of natives plus
    /// [`Export::FIRST_NATIVE`]. A call of an export fun (`fun
    /// gleam@int:compare/2` handed to a sort) asks on every call.
    pub native: AtomicU32,
}

type FunKey = (Atom, [u8; 16], u32, u32);
type ExportKey = (Atom, Atom, u32);
type Interned<K, V> = LazyLock<Mutex<WordMap<K, &'static V>>>;
static FUN_ENTRIES: Interned<FunKey, FunEntry> = LazyLock::new(|| Mutex::new(WordMap::default()));
static EXPORTS: Interned<ExportKey, Export> = LazyLock::new(|| Mutex::new(WordMap::default()));

/// Slots in each thread's cache of exports (see [`Export::intern`]).
const EXPORT_CACHE_SLOTS: usize = 64;

type ExportCache = [Cell<Option<&'static Export>>; EXPORT_CACHE_SLOTS];

thread_local! {
    static EXPORT_CACHE: ExportCache = const { [const { Cell::new(None) }; EXPORT_CACHE_SLOTS] };
}

/// The cache slot of an export key.
#[inline]
fn export_cache_slot(key: ExportKey) -> usize {
    let mut h = WordHasher::default();
    key.hash(&mut h);
    h.finish() as usize % EXPORT_CACHE_SLOTS
}

impl FunEntry {
    /// The interned entry for this fun, created on first use. Entries are
    /// identified by module, uniq, index and old_uniq.
    pub fn intern(entry: FunEntry) -> &'static FunEntry {
        let key = (entry.module, entry.uniq, entry.index, entry.old_uniq);
        let mut table = FUN_ENTRIES.lock().unwrap_or_else(|e| e.into_inner());
        table
            .entry(key)
            .or_insert_with(|| Box::leak(Box::new(entry)))
    }
}

impl Export {
    /// [`Export::native`] once the runtime found the function is no BIF.
    pub const NOT_NATIVE: u32 = 1;

    /// [`Export::native`] of the BIF at place 0 of the runtime's table.
    pub const FIRST_NATIVE: u32 = 2;

    /// The interned export entry for `M:F/A`, created on first use.
    ///
    /// Looked up first in a small cache of the calling thread's own: an
    /// `apply` (a gen_server's `Mod:handle_call(...)`, every call) interns
    /// its export each time, and the global table's lock, taken by every
    /// scheduler, was a point of contention between them. Entries are
    /// never freed, so a cached one stays right.
    pub fn intern(module: Atom, function: Atom, arity: u32) -> &'static Export {
        let key = (module, function, arity);
        let slot = export_cache_slot(key);
        if let Some(hit) = EXPORT_CACHE.with(|c| c[slot].get()) {
            if (hit.module, hit.function, hit.arity) == key {
                return hit;
            }
        }
        let export = Export::intern_shared(module, function, arity);
        EXPORT_CACHE.with(|c| c[slot].set(Some(export)));
        export
    }

    /// [`Export::intern`] in the global table.
    fn intern_shared(module: Atom, function: Atom, arity: u32) -> &'static Export {
        let mut table = EXPORTS.lock().unwrap_or_else(|e| e.into_inner());
        table.entry((module, function, arity)).or_insert_with(|| {
            Box::leak(Box::new(Export {
                module,
                function,
                arity,
                code: AtomicUsize::new(0),
                trace: AtomicU32::new(0),
                native: AtomicU32::new(0),
            }))
        })
    }

    /// The export entry for `M:F/A`, if one was ever interned.
    pub fn lookup(module: Atom, function: Atom, arity: u32) -> Option<&'static Export> {
        let table = EXPORTS.lock().unwrap_or_else(|e| e.into_inner());
        table.get(&(module, function, arity)).copied()
    }

    /// The current code address (0 while not loaded).
    pub fn code(&self) -> usize {
        self.code.load(Ordering::Acquire)
    }
}

/// A read-only view of a closure.
#[derive(Copy, Clone, Debug)]
pub struct ClosureView<'a> {
    /// The fun's entry.
    pub entry: &'static FunEntry,
    /// The process that created the closure.
    pub creator: Term,
    /// The captured free variables.
    pub free: &'a [Term],
}

impl Term {
    /// A view of a closure, borrowed from this term (see [`Term`]'s
    /// validity rule).
    #[inline]
    pub fn as_closure(&self) -> Option<ClosureView<'_>> {
        self.closure_parts()
    }

    /// [`Term::as_closure`] for this crate's own traversals.
    #[inline]
    pub(crate) fn closure_parts(self) -> Option<ClosureView<'static>> {
        if !self.is_boxed_with(Subtag::Fun) {
            return None;
        }
        let words = self.boxed_words();
        // SAFETY: a closure's first word is a `&'static FunEntry` written by
        // the allocator from an interned entry.
        let entry = unsafe { &*(words[0] as *const FunEntry) };
        // The words after the entry are terms: the creator, then the free
        // variables.
        let terms = self.boxed_terms(1);
        Some(ClosureView {
            entry,
            creator: terms[0],
            free: &terms[1..],
        })
    }

    /// The export entry of an export fun.
    pub fn as_export(self) -> Option<&'static Export> {
        if !self.is_boxed_with(Subtag::Export) {
            return None;
        }
        // SAFETY: an export object's only word is a `&'static Export`.
        Some(unsafe { &*(self.boxed_words()[0] as *const Export) })
    }

    /// True for a closure or export fun.
    #[inline]
    pub fn is_fun(self) -> bool {
        matches!(self.subtag(), Some(Subtag::Fun | Subtag::Export))
    }
}
