//! `erlang:process_info/2`: a snapshot of a process, turned into the terms
//! the BEAM returns.

use super::process_info_gc::GcSnapshot;
use crate::bif::common::atoms::atom;
use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::{Exception, Process};

/// What `process_info` reports about one process, read while it is locked.
pub(super) struct Snapshot {
    pid: Term,
    /// How many messages wait in the mailbox.
    message_count: usize,
    /// The messages themselves, only when `messages` is asked for.
    messages: Vec<Term>,
    dictionary: Vec<Term>,
    links: Vec<Term>,
    monitors: Vec<(Term, Option<Atom>)>,
    monitored_by: Vec<Term>,
    trap_exit: bool,
    registered_name: Option<Atom>,
    heap_size: usize,
    total_heap_size: usize,
    /// Bytes allocated for the process ([`Process::memory_bytes`]).
    memory: usize,
    stack_size: usize,
    reductions: u64,
    group_leader: Term,
    initial_call: (Atom, Atom, u32),
    current_function: Option<(Atom, Atom, u32)>,
    /// `status`: `running` (the caller), `waiting` or `runnable`.
    status: &'static str,
    priority: Atom,
    /// The `seq_trace` token (on the process's heap), or `[]`.
    seq_token: Term,
    /// `current_stacktrace`, when the caller built it (empty otherwise).
    pub(super) stacktrace: Term,
    /// The garbage-collection settings and heap sizes.
    gc: GcSnapshot,
    /// Catches and trys active on the stack.
    catchlevel: usize,
    parent: Term,
    error_handler: Atom,
    async_dist: bool,
    /// beamr's own trace flag bits (0 when not traced).
    trace_flags: u32,
    /// The off-heap binaries it refers to: address and size in bytes.
    binaries: Vec<(usize, usize)>,
}

/// Which costly parts of a process the items of one `process_info` call
/// read: what [`Snapshot::of`] copies or walks only when asked. Read
/// from the items once.
#[derive(Default)]
pub(super) struct Wanted {
    messages: bool,
    dictionary: bool,
    links: bool,
    monitors: bool,
    monitored_by: bool,
    catchlevel: bool,
    binaries: bool,
    current_function: bool,
    /// An item built from the stack trace (`current_stacktrace`,
    /// `current_location`, `backtrace`), which the caller builds.
    pub(super) stacktrace: bool,
}

impl Wanted {
    /// The parts `item` (an item or a list of items) asks for.
    pub(super) fn of(item: Term) -> Wanted {
        let mut w = Wanted::default();
        let mut note = |i: Term| {
            if dictionary_key(i).is_some() {
                w.dictionary = true;
            }
            match i.as_atom().map(Atom::name) {
                Some("messages") => w.messages = true,
                Some("dictionary") => w.dictionary = true,
                Some("links") => w.links = true,
                Some("monitors") => w.monitors = true,
                Some("monitored_by") => w.monitored_by = true,
                Some("catchlevel") => w.catchlevel = true,
                Some("binary") => w.binaries = true,
                Some("current_function") => w.current_function = true,
                Some("current_location") => {
                    w.current_function = true;
                    w.stacktrace = true;
                }
                Some("current_stacktrace" | "backtrace") => w.stacktrace = true,
                _ => {}
            }
        };
        match item.list_to_vec() {
            Some(items) => items.into_iter().for_each(note),
            None => note(item),
        }
        w
    }
}

/// `v` when `wanted`, else empty.
fn if_wanted<T>(wanted: bool, v: impl FnOnce() -> Vec<T>) -> Vec<T> {
    if wanted {
        v()
    } else {
        Vec::new()
    }
}

impl Snapshot {
    /// Reads `p`, whose `status` is `running`, `waiting` or `runnable`:
    /// the parts that take copying or a walk (the messages, the
    /// dictionary, links and monitors, the stack's catches, the binaries,
    /// the current function) only when `wanted`, so that
    /// `process_info(P, message_queue_len)` does not copy the mailbox.
    pub(super) fn of(p: &Process, status: &'static str, wanted: &Wanted) -> Snapshot {
        let current_function = if wanted.current_function {
            crate::code::CodeServer::global().function_at(p.ip.cast())
        } else {
            None
        };
        Snapshot {
            pid: p.pid,
            message_count: p.mailbox.len(),
            messages: if_wanted(wanted.messages, || p.mailbox.iter().collect()),
            dictionary: if_wanted(wanted.dictionary, || p.dictionary.to_vec()),
            links: if_wanted(wanted.links, || p.links.to_vec()),
            monitors: if_wanted(wanted.monitors, || {
                p.monitors
                    .iter()
                    .map(|&(_, pid, name)| (pid, name))
                    .collect()
            }),
            monitored_by: if_wanted(wanted.monitored_by, || {
                p.monitored_by.iter().map(|&(_, pid, _)| pid).collect()
            }),
            trap_exit: p.trap_exit,
            registered_name: p.registered_name,
            heap_size: p.heap.young_capacity(),
            total_heap_size: p.heap.young_capacity() + p.heap.old_capacity(),
            stack_size: p.stack.len(),
            memory: p.memory_bytes().0,
            reductions: p.reductions,
            group_leader: p.group_leader,
            initial_call: p.initial_call,
            current_function,
            status,
            priority: p.priority,
            seq_token: p.seq_token,
            stacktrace: Term::NIL,
            gc: GcSnapshot::of(p),
            catchlevel: if wanted.catchlevel {
                p.stack.iter().filter(|t| t.is_catch()).count()
            } else {
                0
            },
            parent: p.parent,
            error_handler: p.error_handler,
            async_dist: p.async_dist,
            trace_flags: p.trace.flags().bits(),
            binaries: if_wanted(wanted.binaries, || {
                p.heap
                    .off_heap_binary_terms()
                    .into_iter()
                    .filter_map(|t| {
                        let address = t.as_off_heap_binary()? as usize;
                        Some((address, t.as_binary()?.byte_size()))
                    })
                    .collect()
            }),
        }
    }
}

/// The value of `item` (an atom or a list of atoms) for the snapshot, built
/// on `p`'s heap; `copy` when the snapshot's terms live on another heap.
pub(super) fn process_info(
    p: &mut Process,
    snap: Snapshot,
    item: Term,
    copy: bool,
) -> Result<Term, Exception> {
    if let Some(items) = item.list_to_vec() {
        let mut out = Vec::with_capacity(items.len());
        for i in items {
            let v = match dictionary_key(i) {
                Some(k) => dictionary_value(p, &snap, k, copy),
                None => {
                    let key = i.as_atom().ok_or_else(Exception::badarg)?;
                    value(p, &snap, key, copy)?
                }
            };
            out.push(p.heap.tuple(&[i, v]));
        }
        return Ok(p.heap.list(&out));
    }
    if let Some(k) = dictionary_key(item) {
        let v = dictionary_value(p, &snap, k, copy);
        return Ok(p.heap.tuple(&[item, v]));
    }
    let key = item.as_atom().ok_or_else(Exception::badarg)?;
    if key.name() == "registered_name" && snap.registered_name.is_none() {
        return Ok(Term::NIL);
    }
    let v = value(p, &snap, key, copy)?;
    Ok(p.heap.tuple(&[item, v]))
}

/// The key of a `{dictionary, Key}` item (OTP 26.2+), if `item` is one.
fn dictionary_key(item: Term) -> Option<Term> {
    match item.as_tuple()? {
        &[tag, key] if tag == atom("dictionary") && crate::code::otp_release() >= 26 => Some(key),
        _ => None,
    }
}

/// The value of `key` in the snapshot's dictionary, or `undefined`.
fn dictionary_value(p: &mut Process, s: &Snapshot, key: Term, copy: bool) -> Term {
    // Keys and values alternate.
    let found = s
        .dictionary
        .chunks_exact(2)
        .find(|kv| beamr_core::order::exact_eq(kv[0], key))
        .map(|kv| kv[1]);
    match found {
        Some(v) if copy => p.heap.copy_term(v),
        Some(v) => v,
        None => Term::atom(Atom::UNDEFINED),
    }
}

fn value(p: &mut Process, s: &Snapshot, key: Atom, copy: bool) -> Result<Term, Exception> {
    let mut own = |t: Term| if copy { p.heap.copy_term(t) } else { t };
    Ok(match key.name() {
        "message_queue_len" => Term::small_unchecked(s.message_count as i64),
        "messages" => {
            let ms: Vec<Term> = s.messages.iter().map(|&m| own(m)).collect();
            p.heap.list(&ms)
        }
        "dictionary" => {
            let kv: Vec<Term> = s.dictionary.iter().map(|&t| own(t)).collect();
            let pairs: Vec<Term> = kv.chunks(2).map(|c| p.heap.tuple(c)).collect();
            p.heap.list(&pairs)
        }
        "links" => p.heap.list(&s.links),
        "monitors" => {
            let items: Vec<Term> = s
                .monitors
                .iter()
                .map(|&(pid, name)| {
                    // A monitor set through a name shows {Name, Node}.
                    let object = match name {
                        Some(name) => p
                            .heap
                            .tuple(&[Term::atom(name), Term::atom(Atom::NONODE_NOHOST)]),
                        None => pid,
                    };
                    p.heap.tuple(&[Term::atom(Atom::PROCESS), object])
                })
                .collect();
            p.heap.list(&items)
        }
        "monitored_by" => p.heap.list(&s.monitored_by),
        "trap_exit" => Term::bool(s.trap_exit),
        "current_stacktrace" => own(s.stacktrace),
        "registered_name" => s.registered_name.map_or(Term::NIL, Term::atom),
        "heap_size" => Term::small_unchecked(s.heap_size as i64),
        "total_heap_size" => Term::small_unchecked(s.total_heap_size as i64),
        "stack_size" => Term::small_unchecked(s.stack_size as i64),
        "reductions" => p.heap.int(s.reductions as i64),
        "memory" => p.heap.int(s.memory as i64),
        "group_leader" => s.group_leader,
        "status" => atom(s.status),
        "priority" => Term::atom(s.priority),
        "sequential_trace_token" => own(s.seq_token),
        "initial_call" => {
            let (m, f, a) = s.initial_call;
            p.heap.tuple(&[
                Term::atom(m),
                Term::atom(f),
                Term::small_unchecked(a as i64),
            ])
        }
        "current_function" => match s.current_function {
            Some((m, f, a)) => p.heap.tuple(&[
                Term::atom(m),
                Term::atom(f),
                Term::small_unchecked(a as i64),
            ]),
            None => Term::atom(Atom::UNDEFINED),
        },
        "catchlevel" => Term::small_unchecked(s.catchlevel as i64),
        "error_handler" => Term::atom(s.error_handler),
        "parent" => s.parent,
        "last_calls" => Term::FALSE,
        "trace" => Term::small_unchecked(s.trace_flags.into()),
        // beamr has no erlang:suspend_process/1.
        "suspending" => Term::NIL,
        "message_queue_data" => super::gc_flags::message_queue_data_term(s.gc.off_heap()),
        "async_dist" if crate::code::otp_release() >= 26 => Term::bool(s.async_dist),
        "current_location" => {
            let here = own(s.stacktrace);
            match here
                .list_to_vec()
                .and_then(|frames| frames.first().copied())
            {
                Some(frame) => frame,
                None => {
                    let (m, f, a) = s.current_function.unwrap_or(s.initial_call);
                    p.heap.tuple(&[
                        Term::atom(m),
                        Term::atom(f),
                        Term::small_unchecked(a as i64),
                        Term::NIL,
                    ])
                }
            }
        }
        // `{Address, Size, RefCount}`; beamr does not read the shared
        // count and reports this process's one reference.
        "binary" => {
            let items: Vec<Term> = s
                .binaries
                .iter()
                .map(|&(address, size)| {
                    let address = p.heap.int(address as i64);
                    let size = p.heap.int(size as i64);
                    p.heap.tuple(&[address, size, Term::small_unchecked(1)])
                })
                .collect();
            p.heap.list(&items)
        }
        "backtrace" => {
            let frames = own(s.stacktrace);
            let text = super::process_backtrace::text(frames);
            p.heap.binary(text.as_bytes())
        }
        name => match s.gc.value(p, name) {
            Some(v) => v,
            None => {
                let _ = s.pid;
                return Err(Exception::badarg());
            }
        },
    })
}

/// True if `item` (an atom or a list of atoms) names only `process_info`
/// items OTP knows, so that a dead process's `undefined` is not given for a
/// bad item (badarg first, as on the BEAM).
pub(super) fn known_items(item: Term) -> bool {
    const ITEMS: &[&str] = &[
        "backtrace",
        "binary",
        "catchlevel",
        "current_function",
        "current_location",
        "current_stacktrace",
        "dictionary",
        "error_handler",
        "garbage_collection",
        "garbage_collection_info",
        "group_leader",
        "heap_size",
        "initial_call",
        "links",
        "last_calls",
        "memory",
        "message_queue_len",
        "messages",
        "min_heap_size",
        "min_bin_vheap_size",
        "monitored_by",
        "monitors",
        "message_queue_data",
        "parent",
        "priority",
        "reductions",
        "registered_name",
        "sequential_trace_token",
        "stack_size",
        "status",
        "suspending",
        "total_heap_size",
        "trace",
        "trap_exit",
        "max_heap_size",
        "fullsweep_after",
    ];
    let known = |t: Term| {
        dictionary_key(t).is_some()
            || t.as_atom().is_some_and(|a| {
                ITEMS.contains(&a.name())
                    || (a.name() == "async_dist" && crate::code::otp_release() >= 26)
            })
    };
    match item.list_to_vec() {
        Some(items) => items.into_iter().all(known),
        None => known(item),
    }
}
