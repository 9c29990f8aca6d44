//! A trace as Chrome trace-event JSON (the "JSON Object Format" that
//! Perfetto and `chrome://tracing` open), as `beamr trace export FILE
//! --format chrome -o OUT.json` writes it.
//!
//! Two groups of tracks:
//!
//! - **`beamr schedulers`** (`"pid": 1`), one track per ring (`"tid"` =
//!   [`SCHEDULER_TID_BASE`] + scheduler number, named `scheduler N`; ring 0,
//!   named `other threads`, takes threads that are not schedulers). A process's
//!   time slices are complete events (`"ph": "X"`, category `process`) from
//!   each `in` (or `in_exiting`) to the next `out`/`out_exiting`/`out_exited`
//!   on that ring; collections are `X` slices (category `gc`) from
//!   `gc_*_start` to `gc_*_end`. Spawns, exits, links, registrations, port
//!   events, sends and receives are instant events (`"ph": "i"`, thread
//!   scope). Each `send` is joined to the `'receive'` it caused by a flow
//!   arrow: `"ph": "s"` at the send and `"ph": "f"` (`"bp": "e"`) at the
//!   receive, with one `"id"` per message (category `message`). A receive is
//!   matched to the oldest unmatched send from its sender to its receiver
//!   (Erlang keeps messages between two processes in order); a receive
//!   whose sender was not recorded gets no arrow.
//! - **`beamr processes`** (`"pid": 2`), one track per process (`"tid"` =
//!   pid number + 1, named by the pid and its initial function): its calls as nested `X` slices (category `call`, named
//!   `module:function/arity`) from each `call` to the `return_from` or
//!   `exception_from` of the same function. A return that skips frames
//!   (their returns were not traced, or lost) ends those frames too.
//!
//! Thread ids are unique across both groups and never 0: Perfetto keys
//! threads by tid alone and has mishandled tid 0.
//!
//! Times are microseconds (`"ts"`, `"dur"`, with nanosecond decimals) since
//! the file was created. What is still open when the trace ends (a process
//! running, a call without its return) ends at the last event, marked
//! `"unfinished": true`. `"otherData"` counts what was written.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Write;
use std::path::Path;

use beamr_ringbuf::{Body, Cursor, Event, MfaRef, Proc, StringTable, TraceRecord};
use beamr_trace::TraceTag;
use serde_json::{json, Value};

use crate::error::Error;
use crate::read::{self, Item, Order};
use crate::render::{self, mfa_name, proc_name};

/// The `pid` of the scheduler tracks.
pub const SCHEDULERS: u64 = 1;
/// The `pid` of the process tracks.
pub const PROCESSES: u64 = 2;
/// Scheduler ring `r`'s track is `"tid": SCHEDULER_TID_BASE + r`.
pub const SCHEDULER_TID_BASE: u64 = 2_000_000_000;

/// Writes the events of `cursor` (opened on `path`, which `"otherData"`
/// names) to `out` as Chrome trace JSON and flushes it; then fails with
/// [`Error::Corrupt`] if a ring was corrupt.
pub fn write(cursor: &mut Cursor, path: &Path, out: &mut impl Write) -> Result<(), Error> {
    let info = cursor.info();
    let mut chrome = Chrome::new(out, info.created_monotonic_ns);
    let header = format!(
        "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{}",
        json!({"ph": "M", "name": "process_name", "pid": SCHEDULERS,
               "args": {"name": format!("beamr schedulers (writer pid {})", info.writer_pid)}})
    );
    chrome
        .out
        .write_all(header.as_bytes())
        .and_then(|()| {
            chrome.put(json!({"ph": "M", "name": "process_name", "pid": PROCESSES,
                              "args": {"name": "beamr processes"}}))
        })
        .map_err(Error::Output)?;
    let totals = read::read_all(cursor, Order::Time, |item| chrome.item(&item))?;
    chrome.finish(path).map_err(Error::Output)?;
    totals.check(path)
}

/// A process slice open on a scheduler track.
struct Running {
    pid: Proc,
    start: u64,
    mfa: Option<String>,
}

/// What has been written, for `"otherData"`.
#[derive(Default)]
struct Counts {
    events: u64,
    lost: u64,
    process_slices: u64,
    call_slices: u64,
    gc_slices: u64,
    instants: u64,
    flows: u64,
    unmatched_outs: u64,
    unmatched_returns: u64,
    unmatched_receives: u64,
    unfinished: u64,
}

/// The converter's state: what is open, what awaits its match.
struct Chrome<W: Write> {
    out: W,
    /// Times are written relative to this.
    base: u64,
    last_ts: u64,
    /// Per ring: the process running there.
    running: HashMap<usize, Running>,
    /// Per ring: the collection in progress (start, name, pid).
    gc: HashMap<usize, (u64, &'static str, Proc)>,
    /// Per process: its call stack (function, name, start).
    stacks: HashMap<u64, Vec<(MfaRef, String, u64)>>,
    /// Per (sender, receiver): sends not yet received (time, ring).
    sends: HashMap<(Proc, Proc), VecDeque<(u64, usize)>>,
    next_flow: u64,
    /// Track names: scheduler rings seen; processes seen, with their
    /// initial function if known.
    rings: BTreeMap<usize, ()>,
    processes: BTreeMap<u64, String>,
    counts: Counts,
}

/// The `tid` of a local process's track, if it has one (pid numbers that
/// would reach the scheduler tids have none).
fn process_tid(p: Proc) -> Option<u64> {
    match p {
        Proc::Pid(n) if n + 1 < SCHEDULER_TID_BASE => Some(n + 1),
        _ => None,
    }
}

/// The `tid` of ring `ring`'s track.
fn ring_tid(ring: usize) -> u64 {
    SCHEDULER_TID_BASE + ring as u64
}

impl<W: Write> Chrome<W> {
    fn new(out: W, created: u64) -> Chrome<W> {
        Chrome {
            out,
            base: created,
            last_ts: 0,
            running: HashMap::new(),
            gc: HashMap::new(),
            stacks: HashMap::new(),
            sends: HashMap::new(),
            next_flow: 1,
            rings: BTreeMap::new(),
            processes: BTreeMap::new(),
            counts: Counts::default(),
        }
    }

    /// Microseconds since the base, as a JSON number with nanosecond digits.
    fn us(&self, ts: u64) -> Value {
        json!((ts as i128 - self.base as i128) as f64 / 1000.0)
    }

    fn dur(&self, start: u64, end: u64) -> Value {
        json!(end.saturating_sub(start) as f64 / 1000.0)
    }

    fn put(&mut self, v: Value) -> std::io::Result<()> {
        self.out.write_all(b",\n")?;
        serde_json::to_writer(&mut self.out, &v)?;
        Ok(())
    }

    fn item(&mut self, item: &Item<'_, '_>) -> std::io::Result<()> {
        match item {
            Item::Lost { count, .. } => {
                self.counts.lost += count;
                Ok(())
            }
            Item::Event(e, strings) => {
                self.counts.events += 1;
                if self.counts.events == 1 {
                    // A file whose clock starts before its creation stamp
                    // (user timestamps) still gets non-negative times.
                    self.base = self.base.min(e.timestamp_ns);
                }
                self.last_ts = self.last_ts.max(e.timestamp_ns);
                match e.trace() {
                    Some(Ok(r)) => self.trace(e, &r, strings),
                    _ => Ok(()),
                }
            }
        }
    }

    fn trace(&mut self, e: &Event<'_>, r: &TraceRecord, s: &StringTable) -> std::io::Result<()> {
        use TraceTag as T;
        let (ring, ts) = (e.ring, e.timestamp_ns);
        self.rings.insert(ring, ());
        if let Some(tid) = process_tid(r.tracee) {
            self.processes
                .entry(tid)
                .or_insert_with(|| proc_name(r.tracee, s));
        }
        match (r.tag, &r.body) {
            (T::In | T::InExiting, Body::At { mfa }) => {
                if self.running.contains_key(&ring) {
                    // The out was not recorded: end the slice here.
                    self.close_running(ring, ts, None, true)?;
                }
                let mfa = mfa.map(|m| mfa_name(m, s));
                let run = Running {
                    pid: r.tracee,
                    start: ts,
                    mfa,
                };
                self.running.insert(ring, run);
            }
            (T::Out | T::OutExiting | T::OutExited, _) => match self.running.get(&ring) {
                Some(run) if run.pid == r.tracee => {
                    self.close_running(ring, ts, Some(r.tag), false)?
                }
                _ => self.counts.unmatched_outs += 1,
            },
            (T::GcMinorStart | T::GcMajorStart, _) => {
                let name = if r.tag == T::GcMinorStart {
                    "gc_minor"
                } else {
                    "gc_major"
                };
                self.gc.insert(ring, (ts, name, r.tracee));
            }
            (T::GcMinorEnd | T::GcMajorEnd, Body::Gc(after)) => {
                if let Some((start, name, pid)) = self.gc.remove(&ring) {
                    self.counts.gc_slices += 1;
                    let v = json!({"ph": "X", "cat": "gc", "name": name,
                        "pid": SCHEDULERS, "tid": ring_tid(ring), "ts": self.us(start),
                        "dur": self.dur(start, ts),
                        "args": {"pid": proc_name(pid, s), "heap_size_after": after.heap_size,
                                 "old_heap_size_after": after.old_heap_size}});
                    self.put(v)?;
                }
            }
            (T::Call, Body::Call { mfa }) => {
                if let Some(tid) = process_tid(r.tracee) {
                    let name = mfa_name(*mfa, s);
                    self.stacks.entry(tid).or_default().push((*mfa, name, ts));
                }
            }
            (T::ReturnFrom, Body::Return { mfa, value }) => {
                let args = json!({"value": value.render(s)});
                self.ret(r.tracee, *mfa, ts, args)?;
            }
            (T::ExceptionFrom, Body::Exception { mfa, class, reason }) => {
                let args = json!({"exception": format!("{}:{}",
                    render::atom(*class, s), reason.render(s))});
                self.ret(r.tracee, *mfa, ts, args)?;
            }
            (T::ReturnTo, _) => {}
            (T::Send, Body::Message { peer, message }) => {
                self.sends
                    .entry((r.tracee, *peer))
                    .or_default()
                    .push_back((ts, ring));
                let args = json!({"pid": proc_name(r.tracee, s), "to": proc_name(*peer, s),
                                  "message": message.render(s)});
                self.instant("send", ring, ts, args)?;
            }
            (T::Receive, Body::Message { peer, message }) => {
                let args = json!({"pid": proc_name(r.tracee, s), "from": proc_name(*peer, s),
                                  "message": message.render(s)});
                self.instant("receive", ring, ts, args)?;
                let send = self
                    .sends
                    .get_mut(&(*peer, r.tracee))
                    .and_then(VecDeque::pop_front);
                match send {
                    Some((sent, from_ring)) => self.flow(sent, from_ring, ts, ring)?,
                    None => self.counts.unmatched_receives += 1,
                }
            }
            (tag, body) => {
                if let Body::Spawn { mfa, .. } = body {
                    if let (T::Spawned, Some(tid)) = (tag, process_tid(r.tracee)) {
                        let name = format!("{} {}", proc_name(r.tracee, s), mfa_name(*mfa, s));
                        self.processes.insert(tid, name);
                    }
                }
                if !tag.is_seq_trace() && !tag.is_gc() {
                    let mut args = serde_json::Map::new();
                    args.insert("pid".into(), json!(proc_name(r.tracee, s)));
                    args.insert("detail".into(), json!(render::body_text(tag, body, s)));
                    self.instant(tag.display_name(), ring, ts, Value::Object(args))?;
                }
            }
        }
        Ok(())
    }

    fn instant(&mut self, name: &str, ring: usize, ts: u64, args: Value) -> std::io::Result<()> {
        self.counts.instants += 1;
        let v = json!({"ph": "i", "s": "t", "cat": "event", "name": name,
                       "pid": SCHEDULERS, "tid": ring_tid(ring), "ts": self.us(ts), "args": args});
        self.put(v)
    }

    fn flow(&mut self, sent: u64, from: usize, received: u64, to: usize) -> std::io::Result<()> {
        let id = self.next_flow;
        self.next_flow += 1;
        self.counts.flows += 1;
        let s = json!({"ph": "s", "cat": "message", "name": "message", "id": id,
                       "pid": SCHEDULERS, "tid": ring_tid(from), "ts": self.us(sent)});
        let f = json!({"ph": "f", "bp": "e", "cat": "message", "name": "message", "id": id,
                       "pid": SCHEDULERS, "tid": ring_tid(to), "ts": self.us(received)});
        self.put(s)?;
        self.put(f)
    }

    fn close_running(
        &mut self,
        ring: usize,
        end: u64,
        how: Option<TraceTag>,
        unfinished: bool,
    ) -> std::io::Result<()> {
        let Some(run) = self.running.remove(&ring) else {
            return Ok(());
        };
        self.counts.process_slices += 1;
        let mut args = serde_json::Map::new();
        args.insert("mfa".into(), json!(run.mfa));
        if let Some(how) = how {
            args.insert("end".into(), json!(how.display_name()));
        }
        if unfinished {
            self.counts.unfinished += 1;
            args.insert("unfinished".into(), json!(true));
        }
        let name = match run.pid {
            Proc::Pid(n) => format!("<0.{n}.0>"),
            other => proc_name(other, &StringTable::default()),
        };
        let v = json!({"ph": "X", "cat": "process", "name": name, "pid": SCHEDULERS,
                       "tid": ring_tid(ring), "ts": self.us(run.start), "dur": self.dur(run.start, end),
                       "args": args});
        self.put(v)
    }

    /// Ends the innermost frame of `mfa` on `pid`'s stack (and the frames
    /// above it) at `ts`.
    fn ret(&mut self, pid: Proc, mfa: MfaRef, ts: u64, args: Value) -> std::io::Result<()> {
        let Some(tid) = process_tid(pid) else {
            return Ok(());
        };
        let stack = self.stacks.entry(tid).or_default();
        let Some(depth) = stack.iter().rposition(|(m, ..)| *m == mfa) else {
            self.counts.unmatched_returns += 1;
            return Ok(());
        };
        let frames: Vec<_> = stack.drain(depth..).collect();
        for (i, (_, name, start)) in frames.into_iter().enumerate().rev() {
            let args = if i == 0 {
                args.clone()
            } else {
                self.counts.unfinished += 1;
                json!({"unfinished": true})
            };
            self.call_slice(tid, name, start, ts, args)?;
        }
        Ok(())
    }

    fn call_slice(
        &mut self,
        tid: u64,
        name: String,
        start: u64,
        end: u64,
        args: Value,
    ) -> std::io::Result<()> {
        self.counts.call_slices += 1;
        let v = json!({"ph": "X", "cat": "call", "name": name, "pid": PROCESSES, "tid": tid,
                       "ts": self.us(start), "dur": self.dur(start, end), "args": args});
        self.put(v)
    }

    /// Ends what is still open at the last event, names the tracks, and
    /// closes the JSON.
    fn finish(&mut self, path: &Path) -> std::io::Result<()> {
        let end = self.last_ts;
        let rings: Vec<usize> = self.running.keys().copied().collect();
        for ring in rings {
            self.close_running(ring, end, None, true)?;
        }
        let stacks: Vec<_> = self.stacks.drain().collect();
        for (tid, frames) in stacks {
            for (_, name, start) in frames.into_iter().rev() {
                self.counts.unfinished += 1;
                self.call_slice(tid, name, start, end, json!({"unfinished": true}))?;
            }
        }
        let rings: Vec<usize> = self.rings.keys().copied().collect();
        for ring in rings {
            let name = match ring {
                0 => "other threads".to_owned(),
                s => format!("scheduler {s}"),
            };
            self.put(
                json!({"ph": "M", "name": "thread_name", "pid": SCHEDULERS, "tid": ring_tid(ring),
                            "args": {"name": name}}),
            )?;
            self.put(
                json!({"ph": "M", "name": "thread_sort_index", "pid": SCHEDULERS,
                            "tid": ring_tid(ring), "args": {"sort_index": ring}}),
            )?;
        }
        let processes = std::mem::take(&mut self.processes);
        for (tid, name) in processes {
            self.put(
                json!({"ph": "M", "name": "thread_name", "pid": PROCESSES, "tid": tid,
                            "args": {"name": name}}),
            )?;
        }
        let c = &self.counts;
        let other = json!({
            "source": path.display().to_string(),
            "events": c.events, "lost": c.lost,
            "process_slices": c.process_slices, "call_slices": c.call_slices,
            "gc_slices": c.gc_slices, "instants": c.instants, "flows": c.flows,
            "unmatched_outs": c.unmatched_outs, "unmatched_returns": c.unmatched_returns,
            "unmatched_receives": c.unmatched_receives, "unfinished": c.unfinished,
        });
        write!(self.out, "\n],\"otherData\":{other}}}\n")?;
        self.out.flush()
    }
}
