//! The index a traced local call finds its callee's patterns in: the few
//! module versions with a function whose patterns fire on local calls,
//! rebuilt whole on every change of patterns (rare) and read on every
//! local call while the local-call gate is open, through a per-thread
//! cache with no lock.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

use beamr_trace::Mfa;

use super::{pattern, Key, LoadedCode, Patterns, Session, TracedModule};

/// A module version with functions whose patterns fire on local calls:
/// per function (in `module.functions`' order), where its [`LocalEntry`]
/// is in [`LocalIndex::entries`] if its patterns fire on local calls. A
/// local call finds its function by address with a binary search, and its
/// patterns by index, with no hashing.
struct LocalModule {
    module: Arc<dyn TracedModule>,
    functions: Vec<Option<usize>>,
}

impl LocalModule {
    /// The indices (in [`TracedModule::functions`]) of its functions that have
    /// local patterns.
    fn traced(&self) -> impl Iterator<Item = usize> + '_ {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_some())
            .map(|(f, _)| f)
    }
}

/// A function whose patterns fire on local calls, as a local call finds it.
pub struct LocalEntry {
    /// The function.
    pub mfa: Mfa,
    /// Every session's patterns of it.
    pub all: Patterns,
    /// The session and its pattern's fixed flags, when one session has a
    /// plain local call pattern on it and nothing else
    /// ([`FunctionTrace::is_plain_local_call`]).
    pub plain: Option<PlainCall>,
}

/// A function's one plain local call pattern ([`LocalEntry::plain`]).
pub struct PlainCall {
    /// The pattern's session.
    pub session: Arc<Session>,
    /// Its returns fire `return_from` (`pattern::RETURN_TRACE`).
    pub returns: bool,
    /// Exceptions leaving it fire `exception_from`
    /// (`pattern::EXCEPTION_TRACE`).
    pub exceptions: bool,
}

/// The module versions with a function whose patterns fire on local
/// calls: what every local call looks in while the local-call gate is
/// open. Rebuilt whole on every change (rare), read on every local call
/// (through each thread's [`LOCAL_CACHE`]).
#[derive(Default)]
struct LocalIndex {
    modules: Vec<LocalModule>,
    /// Every function whose patterns fire on local calls, where its
    /// module's `functions` say.
    entries: Vec<LocalEntry>,
}

impl LocalIndex {
    /// Where in `entries` the function whose code holds `entry` is, if
    /// its patterns fire on local calls.
    fn find(&self, entry: usize) -> Option<usize> {
        let (m, f) = self
            .modules
            .iter()
            .find_map(|m| Some((m, m.module.function_holding(entry)?)))?;
        *m.functions.get(f)?
    }
}

static LOCAL_INDEX: LazyLock<RwLock<Arc<LocalIndex>>> = LazyLock::new(Default::default);

/// Bumped after each new [`LOCAL_INDEX`]: a thread's cached index is
/// current while its generation is this one.
static LOCAL_GENERATION: AtomicU64 = AtomicU64::new(1);

/// A thread's view of [`LOCAL_INDEX`], in one thread-local so that a local
/// call reaches all of it from one thread-local address.
struct LocalCache {
    /// The index and its generation: a local call checks the generation
    /// (one load) and reads the index with no lock and no reference count.
    index: RefCell<(u64, Arc<LocalIndex>)>,
    /// The code address this thread last found in its cached index, and
    /// where its entry is: a recursive function calls the same entry
    /// again and again.
    last: Cell<(usize, usize)>,
}

thread_local! {
    static LOCAL_CACHE: LocalCache = LocalCache {
        index: RefCell::new((0, Arc::default())),
        last: Cell::new((0, 0)),
    };
}

/// Calls `f` with the function whose code holds `entry` and its patterns,
/// if they fire on local calls; `None` (and `f` not called) if not. One
/// call of `f`, so that it is inlined here with the rest.
#[inline(always)]
pub fn with_local<R>(entry: usize, f: impl FnOnce(&LocalEntry) -> R) -> Option<R> {
    LOCAL_CACHE.with(|cache| {
        let generation = LOCAL_GENERATION.load(Ordering::Acquire);
        let cached = cache.index.try_borrow().ok().filter(|c| c.0 == generation);
        let fresh: Arc<LocalIndex>;
        let index = match &cached {
            Some(c) => &c.1,
            None => {
                fresh = refresh_local_cache(cache, generation);
                &fresh
            }
        };
        let (last, place) = cache.last.get();
        let place = if last == entry {
            place
        } else {
            let place = index.find(entry)?;
            cache.last.set((entry, place));
            place
        };
        Some(f(index.entries.get(place)?))
    })
}

/// This thread's cached index is out of date (the first local call after
/// a change of patterns): caches the current one, and returns it. A call
/// inside [`with_local`]'s `f` (not expected) finds the cache borrowed and
/// leaves it, with its old generation, to the next call; the place it
/// then caches is never read with the old index, since the generations
/// differ.
#[cold]
#[inline(never)]
fn refresh_local_cache(cache: &LocalCache, generation: u64) -> Arc<LocalIndex> {
    let index = Arc::clone(&LOCAL_INDEX.read().unwrap_or_else(|e| e.into_inner()));
    cache.last.set((0, 0));
    if let Ok(mut c) = cache.index.try_borrow_mut() {
        *c = (generation, Arc::clone(&index));
    }
    index
}

/// Moves the traced bytes of native code (which its call sites test)
/// from the functions `old` traces on local calls to those `new` does:
/// the new ones set first, then the old ones `new` does not trace
/// cleared, so that a function traced in both never reads as untraced in
/// between (a native call of it then would miss its probe).
fn move_native_traces(old: &[LocalModule], new: &[LocalModule]) {
    for m in new {
        m.traced()
            .for_each(|f| m.module.set_native_local_trace(f, true));
    }
    for m in old {
        let still = new.iter().find(|n| Arc::ptr_eq(&n.module, &m.module));
        for f in m.traced() {
            if !still.is_some_and(|n| n.functions.get(f).is_some_and(Option::is_some)) {
                m.module.set_native_local_trace(f, false);
            }
        }
    }
}

/// Recomputes the modules local calls look in, the local-call gate, and
/// the traced bytes of native code, from the table's `functions`.
pub(super) fn rebuild_local_modules(code: &dyn LoadedCode, functions: &HashMap<Key, Patterns>) {
    let mut names: Vec<_> = functions
        .iter()
        .filter(|(_, all)| all.iter().any(|s| s.trace.fires_locally()))
        .map(|(k, _)| k.0)
        .collect();
    names.sort_unstable_by_key(|a| a.index());
    names.dedup();
    let mut entries = Vec::new();
    let modules: Vec<LocalModule> = names
        .into_iter()
        .filter_map(|m| code.current_module(m))
        .map(|module| {
            let name = module.name();
            let traced = module
                .functions()
                .into_iter()
                .map(|(f, a)| {
                    let key = (name, f, a);
                    let all = functions.get(&key)?;
                    if !all.iter().any(|s| s.trace.fires_locally()) {
                        return None;
                    }
                    let mfa = Mfa {
                        module: key.0,
                        function: key.1,
                        arity: key.2,
                    };
                    let plain = match all.as_slice() {
                        [one] if one.trace.is_plain_local_call() => {
                            let flags = one.trace.call.as_ref().map_or(0, |c| c.spec.flags);
                            Some(PlainCall {
                                session: Arc::clone(&one.session),
                                returns: flags & pattern::RETURN_TRACE != 0,
                                exceptions: flags & pattern::EXCEPTION_TRACE != 0,
                            })
                        }
                        _ => None,
                    };
                    entries.push(LocalEntry {
                        mfa,
                        all: Arc::clone(all),
                        plain,
                    });
                    Some(entries.len() - 1)
                })
                .collect();
            LocalModule {
                module,
                functions: traced,
            }
        })
        .collect();
    let any = !modules.is_empty();
    let mut index = LOCAL_INDEX.write().unwrap_or_else(|e| e.into_inner());
    move_native_traces(&index.modules, &modules);
    *index = Arc::new(LocalIndex { modules, entries });
    drop(index);
    LOCAL_GENERATION.fetch_add(1, Ordering::AcqRel);
    pattern::set_local_calls(any);
}
