//! [`ProcessTable`]: live processes by pid; [`Registry`]: registered names.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::handle::ProcessHandle;

const SHARDS: usize = 64;

/// Hashes a pid number with one multiplication: pid numbers are sequential
/// and not chosen by programs, so the DoS-resistant default (SipHash, a
/// tenth of a message send's cost in `ring`) buys nothing here.
#[derive(Default)]
struct PidHasher(u64);

impl Hasher for PidHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // Fold the well-mixed high half into the low bits the table indexes
        // with (within a shard, a pid number's low bits are all the same).
        self.0 ^ (self.0 >> 32)
    }
}

type Shard = RwLock<HashMap<u64, Arc<ProcessHandle>, BuildHasherDefault<PidHasher>>>;

/// Live processes, sharded by pid number so lookups rarely contend.
pub struct ProcessTable {
    shards: Vec<Shard>,
    next: AtomicU64,
    live: AtomicU64,
}

impl Default for ProcessTable {
    fn default() -> ProcessTable {
        ProcessTable {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            // Pid numbers start where a fresh erl's user processes start.
            next: AtomicU64::new(80),
            live: AtomicU64::new(0),
        }
    }
}

impl ProcessTable {
    /// A fresh pid number.
    pub fn new_pid(&self) -> Term {
        Term::pid(self.next.fetch_add(1, Ordering::Relaxed))
    }

    #[inline]
    fn shard(&self, n: u64) -> &Shard {
        &self.shards[n as usize % SHARDS]
    }

    /// Adds a process.
    pub fn insert(&self, handle: Arc<ProcessHandle>) {
        let n = handle.pid.as_local_pid().expect("local pid");
        self.shard(n)
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(n, handle);
        self.live.fetch_add(1, Ordering::Relaxed);
    }

    /// The live process with `pid`.
    #[inline]
    pub fn get(&self, pid: Term) -> Option<Arc<ProcessHandle>> {
        let n = pid.as_local_pid()?;
        self.shard(n)
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&n)
            .cloned()
    }

    /// Removes a process.
    pub fn remove(&self, pid: Term) {
        if let Some(n) = pid.as_local_pid() {
            if self
                .shard(n)
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&n)
                .is_some()
            {
                self.live.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// Number of live processes.
    pub fn len(&self) -> usize {
        self.live.load(Ordering::Relaxed) as usize
    }

    /// True when no process is alive.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every live pid, in pid order.
    pub fn pids(&self) -> Vec<Term> {
        let mut all: Vec<u64> = self
            .shards
            .iter()
            .flat_map(|s| {
                s.read()
                    .unwrap_or_else(|e| e.into_inner())
                    .keys()
                    .copied()
                    .collect::<Vec<_>>()
            })
            .collect();
        all.sort_unstable();
        all.into_iter().map(Term::pid).collect()
    }
}

/// Registered names (`register/2`, `whereis/1`).
#[derive(Default)]
pub struct Registry {
    names: RwLock<HashMap<Atom, Term>>,
}

impl Registry {
    /// Registers `name` for `pid`; false if the name is taken.
    pub fn register(&self, name: Atom, pid: Term) -> bool {
        let mut names = self.names.write().unwrap_or_else(|e| e.into_inner());
        if names.contains_key(&name) {
            return false;
        }
        names.insert(name, pid);
        true
    }

    /// Removes `name`; false if it was not registered.
    pub fn unregister(&self, name: Atom) -> bool {
        self.names
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&name)
            .is_some()
    }

    /// The pid registered as `name`.
    pub fn whereis(&self, name: Atom) -> Option<Term> {
        self.names
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&name)
            .copied()
    }

    /// Every registered name, sorted.
    pub fn names(&self) -> Vec<Atom> {
        let mut v: Vec<Atom> = self
            .names
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        v.sort_by_key(|a| a.name());
        v
    }
}
