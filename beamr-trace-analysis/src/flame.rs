//! A flame graph of the time spent in traced functions, drawn by `inferno`
//! from stacks rebuilt out of call/return events (`beamr trace flame FILE
//! -o OUT.svg`).
//!
//! Each process's call stack is replayed from its `call` (push) and
//! `return_from`/`exception_from` (pop down to the frame of that function)
//! events, in timestamp order. The time between two consecutive events of a
//! process goes to the stack it had in between (its "self" time), but only
//! while the process was scheduled in: after its `out` and before its next
//! `in` it is not running (a process with no `in`/`out` events counts as
//! always running). Time outside any traced call is not drawn. Frames are
//! `module:function/arity`; weights are nanoseconds. Folded per process
//! ([`fold`]'s `per_process`, `--per-process`), every stack starts with the
//! pid, else the stacks of all processes add up. [`Folded::write_collapsed`]
//! writes the folded stacks (`a;b;c NANOSECONDS`, the input format of
//! `inferno`/`flamegraph.pl`), [`Folded::write_svg`] the graph.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

use beamr_ringbuf::{Body, Cursor, MfaRef, Proc, StringTable};
use beamr_trace::TraceTag;

use crate::error::Error;
use crate::read::{self, Item, Order};
use crate::render::{mfa_name, proc_name};

/// A process's replayed state.
struct Process {
    stack: Vec<MfaRef>,
    running: bool,
    /// When time was last attributed.
    since: u64,
}

/// Folds call/return events into weighted stacks.
struct Folder {
    per_process: bool,
    processes: HashMap<Proc, Process>,
    folded: BTreeMap<String, u64>,
    names: HashMap<MfaRef, String>,
}

impl Folder {
    fn new(per_process: bool) -> Folder {
        Folder {
            per_process,
            processes: HashMap::new(),
            folded: BTreeMap::new(),
            names: HashMap::new(),
        }
    }

    /// Gives the time from `p.since` to `ts` to `p`'s current stack.
    fn account(&mut self, pid: Proc, ts: u64, strings: &StringTable) {
        let Some(p) = self.processes.get_mut(&pid) else {
            return;
        };
        let dt = ts.saturating_sub(p.since);
        p.since = ts;
        if !p.running || p.stack.is_empty() || dt == 0 {
            return;
        }
        let mut key = String::new();
        if self.per_process {
            key.push_str(&proc_name(pid, strings));
        }
        for m in &p.stack {
            let name = self
                .names
                .entry(*m)
                // `;` separates frames and ` ` the weight in folded stacks.
                .or_insert_with(|| mfa_name(*m, strings).replace([';', ' '], "_"));
            if !key.is_empty() {
                key.push(';');
            }
            key.push_str(name);
        }
        *self.folded.entry(key).or_insert(0) += dt;
    }

    fn event(&mut self, tag: TraceTag, pid: Proc, body: &Body, ts: u64, strings: &StringTable) {
        use TraceTag as T;
        let relevant = matches!(
            tag,
            T::Call
                | T::ReturnFrom
                | T::ExceptionFrom
                | T::In
                | T::InExiting
                | T::Out
                | T::OutExiting
                | T::OutExited
        );
        if !relevant {
            return;
        }
        self.account(pid, ts, strings);
        let p = self.processes.entry(pid).or_insert(Process {
            stack: Vec::new(),
            running: true,
            since: ts,
        });
        match (tag, body) {
            (T::Call, Body::Call { mfa }) => p.stack.push(*mfa),
            (T::ReturnFrom, Body::Return { mfa, .. })
            | (T::ExceptionFrom, Body::Exception { mfa, .. }) => {
                if let Some(depth) = p.stack.iter().rposition(|m| m == mfa) {
                    p.stack.truncate(depth);
                }
            }
            (T::In | T::InExiting, _) => p.running = true,
            (T::Out | T::OutExiting | T::OutExited, _) => p.running = false,
            _ => {}
        }
    }

    /// Attributes the time up to `end` to what is still on the stacks.
    fn close(&mut self, end: u64, strings: &StringTable) {
        let pids: Vec<Proc> = self.processes.keys().copied().collect();
        for pid in pids {
            self.account(pid, end, strings);
        }
    }
}

/// The folded stacks of a file: what a flame graph draws.
#[derive(Clone, Debug)]
pub struct Folded {
    /// The file they come from (the graph's subtitle names it).
    pub path: PathBuf,
    /// `frame;frame;frame` (`module:function/arity` names, the pid first
    /// when folded per process) to nanoseconds of self time, in key order.
    pub stacks: BTreeMap<String, u64>,
}

/// Replays the call stacks of `cursor` (opened on `path`) and folds them,
/// starting every stack with the pid when `per_process`. Fails with
/// [`Error::Corrupt`] if a ring was corrupt, and with
/// [`Error::NothingToDraw`] if no time was spent inside traced calls.
pub fn fold(cursor: &mut Cursor, path: &Path, per_process: bool) -> Result<Folded, Error> {
    let mut folder = Folder::new(per_process);
    let mut last = 0u64;
    let mut strings = StringTable::default();
    let totals = read::read_all(cursor, Order::Time, |item| {
        if let Item::Event(e, s) = item {
            last = last.max(e.timestamp_ns);
            if let Some(Ok(r)) = e.trace() {
                folder.event(r.tag, r.tracee, &r.body, e.timestamp_ns, s);
            }
        }
        Ok(())
    })
    // The consumer above never fails.
    .unwrap_or_default();
    totals.check(path)?;
    strings.clone_from(cursor.strings());
    folder.close(last, &strings);
    if folder.folded.is_empty() {
        return Err(Error::NothingToDraw {
            path: path.to_path_buf(),
        });
    }
    Ok(Folded {
        path: path.to_path_buf(),
        stacks: folder.folded,
    })
}

impl Folded {
    /// The `stack NANOSECONDS` lines, in key order.
    pub fn lines(&self) -> Vec<String> {
        self.stacks
            .iter()
            .map(|(stack, ns)| format!("{stack} {ns}"))
            .collect()
    }

    /// Writes the collapsed stacks to `out`, a line each, and flushes it.
    pub fn write_collapsed(&self, out: &mut impl Write) -> Result<(), Error> {
        self.lines()
            .iter()
            .try_for_each(|l| writeln!(out, "{l}"))
            .and_then(|()| out.flush())
            .map_err(Error::Output)
    }

    /// Writes the flame graph SVG, titled `title`, to `out` and flushes it.
    pub fn write_svg(&self, title: &str, out: &mut impl Write) -> Result<(), Error> {
        let lines = self.lines();
        let mut o = inferno::flamegraph::Options::default();
        o.title = title.to_owned();
        o.subtitle = Some(format!(
            "{} (self time in traced calls)",
            self.path.display()
        ));
        o.count_name = "ns".to_owned();
        // Colours from the function names: the same graph for the same trace.
        o.hash = true;
        inferno::flamegraph::from_lines(&mut o, lines.iter().map(String::as_str), &mut *out)
            .and_then(|()| out.flush())
            .map_err(Error::Output)
    }
}
