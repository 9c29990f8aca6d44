//! `erlang:memory/0,1`: what beamr has allocated, from its own accounting.
//!
//! OTP's `erlang:memory/0,1` are Erlang functions that add up erts's
//! allocator statistics (`system_info({allocator_sizes, _})`); beamr has
//! no such allocators, so the natives here replace them and count what
//! beamr itself holds:
//!
//! ```text
//! processes       per process: its body and handle, heap generations and
//!                 fragments, stack, mailbox queue, dictionary, links and
//!                 monitors, at their allocated sizes
//! processes_used  the same at their used sizes (never above processes)
//! atom            the atom table: names and both indexes, allocated
//! atom_used       the same, counting used entries only
//! binary          off-heap binaries: storage and headers
//! code            every module version loaded, and the current `.beam` files
//! ets             every table's objects and per-table overhead
//! system          atom + binary + code + ets + ports + the process table
//! total           processes + system
//! ```
//!
//! The sums obey the relations erts documents (`total = processes +
//! system`, `processes_used <= processes`, `atom_used <= atom`, `system >=
//! atom + binary + code + ets`). As on the BEAM the parts are not gathered
//! atomically.
//!
//! A process running on another scheduler holds its body's lock for its
//! time slice; the count waits a little for it ([`BUSY_RETRIES`]) and then
//! counts that process's fixed part only, so two processes counting each
//! other at once cannot deadlock. Register files are not counted: a process
//! holds registers only while it runs.

use std::mem::size_of;
use std::sync::TryLockError;

use crate::bif::common::atoms::atom;
use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process, ProcessHandle};
use crate::runtime::{Port, Runtime};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "memory", 0, memory0),
    ("erlang", "memory", 1, memory1),
];

/// Times a busy process's lock is tried again before its variable part is
/// left out of the count.
const BUSY_RETRIES: u32 = 200;

/// The memory types in the order `memory/0` lists them.
const KEYS: [&str; 9] = [
    "total",
    "processes",
    "processes_used",
    "system",
    "atom",
    "atom_used",
    "binary",
    "code",
    "ets",
];

/// One reading of every memory type, in bytes.
struct Memory {
    processes: usize,
    processes_used: usize,
    atom: usize,
    atom_used: usize,
    binary: usize,
    code: usize,
    ets: usize,
    other_system: usize,
}

impl Memory {
    fn read(rt: &Runtime, p: &Process) -> Memory {
        let mut processes = (0, 0);
        for pid in rt.processes.pids() {
            let (allocated, used) = if pid == p.pid {
                process_bytes(p)
            } else {
                match rt.processes.get(pid) {
                    Some(handle) => other_process_bytes(&handle),
                    None => continue,
                }
            };
            processes.0 += allocated + size_of::<ProcessHandle>();
            processes.1 += used + size_of::<ProcessHandle>();
        }
        let atoms = Atom::memory();
        let ets = rt
            .ets
            .all()
            .iter()
            .map(|t| t.lock().memory_words() * size_of::<u64>())
            .sum();
        let ports = rt.ports.ids().len() * size_of::<Port>();
        // The process table's entries: a pid number and a handle pointer.
        let table = rt.processes.len() * 2 * size_of::<u64>();
        Memory {
            processes: processes.0,
            processes_used: processes.1,
            atom: atoms.allocated,
            atom_used: atoms.used,
            binary: beamr_core::term::off_heap_bytes(),
            code: crate::code::CodeServer::global().memory_bytes(),
            ets,
            other_system: ports + table + size_of::<Runtime>(),
        }
    }

    fn system(&self) -> usize {
        self.atom + self.binary + self.code + self.ets + self.other_system
    }

    /// The value of one memory type, if `key` names one.
    fn get(&self, key: &str) -> Option<usize> {
        Some(match key {
            "total" => self.processes + self.system(),
            "processes" => self.processes,
            "processes_used" => self.processes_used,
            "system" => self.system(),
            "atom" => self.atom,
            "atom_used" => self.atom_used,
            "binary" => self.binary,
            "code" => self.code,
            "ets" => self.ets,
            _ => return None,
        })
    }
}

/// Bytes a process takes: (allocated, used).
fn process_bytes(p: &Process) -> (usize, usize) {
    p.memory_bytes()
}

/// [`process_bytes`] of a process other than the caller: its fixed part
/// alone when it stays busy (see the module doc), nothing once it exited.
fn other_process_bytes(handle: &ProcessHandle) -> (usize, usize) {
    for _ in 0..BUSY_RETRIES {
        match handle.body.try_lock() {
            Ok(body) => return body.as_deref().map_or((0, 0), process_bytes),
            Err(TryLockError::Poisoned(e)) => {
                return e.into_inner().as_deref().map_or((0, 0), process_bytes)
            }
            Err(TryLockError::WouldBlock) => std::thread::yield_now(),
        }
    }
    (size_of::<Process>(), size_of::<Process>())
}

/// Every memory type and its value, in erts's order (for
/// `system_info(info)`'s `=memory` section).
pub(super) fn report(rt: &Runtime, p: &Process) -> Vec<(&'static str, usize)> {
    let m = Memory::read(rt, p);
    KEYS.iter().map(|&k| (k, m.get(k).unwrap_or(0))).collect()
}

/// `memory()`: every type, in erts's order.
fn memory0(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let m = Memory::read(rt, p);
    let pairs: Vec<Term> = KEYS
        .iter()
        .map(|&k| {
            let v = p.heap.int(m.get(k).unwrap_or(0) as i64);
            p.heap.tuple(&[atom(k), v])
        })
        .collect();
    Ok(p.heap.list(&pairs))
}

/// `memory(Type)` or `memory([Type])`: badarg for anything else (or
/// `maximum`, which only an instrumented erts reports).
fn memory1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let key = |t: Term| {
        t.as_atom()
            .map(Atom::name)
            .filter(|k| KEYS.contains(k))
            .ok_or_else(Exception::badarg)
    };
    if a[0].is_atom() {
        let k = key(a[0])?;
        let m = Memory::read(rt, p);
        return Ok(p.heap.int(m.get(k).unwrap_or(0) as i64));
    }
    let types = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    let keys = types
        .iter()
        .map(|&t| key(t))
        .collect::<Result<Vec<_>, _>>()?;
    let m = Memory::read(rt, p);
    let pairs: Vec<Term> = types
        .iter()
        .zip(keys)
        .map(|(&t, k)| {
            let v = p.heap.int(m.get(k).unwrap_or(0) as i64);
            p.heap.tuple(&[t, v])
        })
        .collect();
    Ok(p.heap.list(&pairs))
}
