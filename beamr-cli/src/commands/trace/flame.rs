//! `beamr trace flame FILE -o OUT.svg`: a flame graph of the time spent in
//! traced functions, drawn by `inferno` from stacks rebuilt out of
//! call/return events.
//!
//! Each process's call stack is replayed from its `call` (push) and
//! `return_from`/`exception_from` (pop down to the frame of that function)
//! events, in timestamp order. The time between two consecutive events of a
//! process goes to the stack it had in between (its "self" time), but only
//! while the process was scheduled in: after its `out` and before its next
//! `in` it is not running (a process with no `in`/`out` events counts as
//! always running). Time outside any traced call is not drawn. Frames are
//! `module:function/arity`; weights are nanoseconds. With `--per-process`
//! every stack starts with the pid, else the stacks of all processes add up.
//! `--collapsed` writes the folded stacks (`a;b;c NANOSECONDS`, the input
//! format of `inferno`/`flamegraph.pl`) instead of the SVG.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use beamr_ringbuf::{Body, MfaRef, Proc, StringTable};
use beamr_trace::TraceTag;

use super::read::{self, Item, Order};
use super::render::{mfa_name, proc_name};

/// `flame`'s options.
#[derive(Clone, Debug)]
pub struct FlameOptions {
    /// Stacks start with the pid.
    pub per_process: bool,
    /// Write folded stacks, not SVG.
    pub collapsed: bool,
    /// The graph's title.
    pub title: String,
}

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

/// Writes the flame graph of `path` to `output` (`-`: standard output).
pub fn run(path: &Path, output: &Path, opts: &FlameOptions) -> Result<(), String> {
    let mut cursor = read::open(path)?;
    let mut folder = Folder::new(opts.per_process);
    let mut last = 0u64;
    let mut strings = StringTable::default();
    let totals = read::read_all(&mut cursor, Order::Time, |item| {
        if let Item::Event(e, s) = item {
            last = last.max(e.timestamp_ns);
            if let Some(Ok(r)) = e.trace() {
                folder.event(r.tag, r.tracee, &r.body, e.timestamp_ns, s);
            }
        }
        Ok(())
    })
    .or_else(|e| e.into_result().map(|()| Default::default()))?;
    totals.check(path)?;
    strings.clone_from(cursor.strings());
    folder.close(last, &strings);
    if folder.folded.is_empty() {
        return Err(format!(
            "{}: no time inside traced calls (no call/return events): nothing to draw",
            path.display()
        ));
    }
    let lines: Vec<String> = folder
        .folded
        .iter()
        .map(|(stack, ns)| format!("{stack} {ns}"))
        .collect();
    let out: Box<dyn Write> = if output == Path::new("-") {
        Box::new(std::io::stdout().lock())
    } else {
        let f = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
        Box::new(f)
    };
    let mut out = BufWriter::new(out);
    let written = if opts.collapsed {
        lines
            .iter()
            .try_for_each(|l| writeln!(out, "{l}"))
            .and_then(|()| out.flush())
    } else {
        let mut o = inferno::flamegraph::Options::default();
        o.title = opts.title.clone();
        o.subtitle = Some(format!("{} (self time in traced calls)", path.display()));
        o.count_name = "ns".to_owned();
        // Colours from the function names: the same graph for the same trace.
        o.hash = true;
        inferno::flamegraph::from_lines(&mut o, lines.iter().map(String::as_str), &mut out)
            .and_then(|()| out.flush())
    };
    written.or_else(read::quiet_pipe)
}
