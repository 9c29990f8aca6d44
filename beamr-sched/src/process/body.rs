//! [`Process`]: everything one Erlang process owns while it runs.
//!
//! The stack is a `Vec<Term>` growing upward. A frame is the saved
//! continuation pointer followed by its Y slots, so Y register `n` is
//! `stack[len - 1 - n]` and the saved CP sits just below the frame's slots.
//! Saved continuation pointers are code addresses, 8-byte aligned, which
//! read as header-tagged words: the collector leaves them alone. Catch
//! markers are catch immediates.

use crate::trace::{flight_hook, probes};
use beamr_trace::{GcInfo, Payload, TraceTag};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use thin_vec::ThinVec;

use super::exception::Exception;
use super::mailbox::Mailbox;

/// An address in loaded code: an instruction of a module's code array. Opaque
/// here (a process does not know the instruction set); the interpreter and
/// the loader cast it to and from their instruction pointers.
pub type CodeAddr = *const ();

/// One Erlang process.
pub struct Process {
    /// Its pid.
    pub pid: Term,
    /// X registers: while the process runs, its scheduler thread's file
    /// of [`MAX_X_REGS`](super::MAX_X_REGS); empty between slices (see
    /// [`registers`](super::registers)).
    pub x: Box<[Term]>,
    /// Float registers: as `x`, a full file only while the process runs.
    pub fr: Box<[f64]>,
    /// The live X registers kept between slices (the arguments of a call
    /// about to be entered, a receive's timeout), copied back when it next
    /// runs ([`RegisterFile::lend`](super::RegisterFile::lend)).
    pub saved_x: Vec<Term>,
    /// The stack: frames of Y slots, saved CPs, catch markers.
    pub stack: Vec<Term>,
    /// The heap.
    pub heap: Heap,
    /// The next instruction to run (null before the first call).
    pub ip: CodeAddr,
    /// The continuation pointer: where `return` goes (null: the process is done).
    pub cp: CodeAddr,
    /// Reductions done in all.
    pub reductions: u64,
    /// The exception most recently caught, for `build_stacktrace` and `raw_raise`.
    pub last_exception: Option<Box<Exception>>,
    /// Stack trace of `last_exception`, as a list term on the heap.
    pub last_trace: Term,
    /// Received messages.
    pub mailbox: Mailbox,
    /// The process dictionary: keys and values alternating.
    pub dictionary: ThinVec<Term>,
    /// Linked processes (pids).
    pub links: ThinVec<Term>,
    /// Monitors this process holds: reference ids, the monitored pid, and
    /// the registered name it was monitored through.
    pub monitors: ThinVec<([u32; 3], Term, Option<Atom>)>,
    /// Monitors on this process: reference ids, the monitoring pid, and the
    /// registered name the monitor was set through (its `'DOWN'` names it).
    pub monitored_by: ThinVec<([u32; 3], Term, Option<Atom>)>,
    /// `process_flag(trap_exit, true)`.
    pub trap_exit: bool,
    /// The registered name, if any.
    pub registered_name: Option<Atom>,
    /// The group leader.
    pub group_leader: Term,
    /// Set when an exit signal killed the process; the scheduler ends it.
    pub pending_exit: Option<Term>,
    /// The `receive ... after` timer: its generation, and whether it fired.
    pub timer: ReceiveTimer,
    /// Its last slice ended waiting in a `receive`, and it has run no code
    /// since: a wake-up that brings no message (a link, a monitor, a trace
    /// change) needs no slice (see `sched::worker::run_slice`).
    pub waiting: bool,
    /// `{M, F, A}` of the initial call, for `process_info`.
    pub initial_call: (Atom, Atom, u32),
    /// An error to raise instead of running (spawning an undefined function).
    pub startup_error: Option<Box<Exception>>,
    /// Someone waits for this process's exit reason ([`Runtime::wait_exit`]).
    pub watched: bool,
    /// `process_flag(priority, P)`: `low`, `normal`, `high` or `max`
    /// (recorded; the schedulers do not act on it yet).
    pub priority: Atom,
    /// How this process is traced: the flag word every probe tests.
    pub trace: crate::trace::ProcessTrace,
    /// The return-trace frames on the stack, innermost last (see
    /// `interp::return_trace`).
    pub return_traces: ThinVec<crate::trace::ReturnTraceFrame>,
    /// The `seq_trace` token: `[]`, or the token tuple on the heap (see
    /// `signals::seq_trace`).
    pub seq_token: Term,
    /// The `seq_trace` clock (`curr_cnt`).
    pub seq_clock: u64,
    /// The `seq_trace` serial received last (`prev_cnt`).
    pub seq_lastcnt: u64,
    /// Native objects it controls (open files), released when it ends.
    pub owned: super::OwnedResources,
    /// The garbage-collection settings `spawn_opt` and `process_flag` set.
    pub gc: super::GcSettings,
    /// Set by a collection that found the heap past `max_heap_size` with
    /// `error_logger` on; the scheduler logs the report (see
    /// `process::max_heap`).
    pub max_heap_reached: Option<super::MaxHeapReached>,
    /// The process that spawned it, or `undefined` (`process_info`'s `parent`).
    pub parent: Term,
    /// `process_flag(error_handler, Module)`: recorded and reported; an
    /// undefined function still raises `undef` directly.
    pub error_handler: Atom,
    /// `process_flag(async_dist, Bool)` (OTP 26+): recorded and reported.
    pub async_dist: bool,
    /// Messages that entered its mailbox since a scheduler last took the
    /// count (at the end of each of its time slices, for the flight
    /// recorder's counters: `trace::flight_hook::count_slice`). Counted
    /// here, on the process it is exclusive to, so that a message costs
    /// no shared counter.
    pub messages_in: u64,
}

/// State of a process's `receive ... after` timer.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReceiveTimer {
    /// Incremented for every timer started; stale expiries are ignored.
    pub generation: u64,
    /// A timer is running.
    pub active: bool,
    /// The running timer expired.
    pub fired: bool,
}

// SAFETY: the raw instruction pointers point into loaded code, which is
// never freed while any process exists; everything else is owned.
unsafe impl Send for Process {}

impl Process {
    /// A process with empty registers and stack.
    pub fn new(pid: Term) -> Process {
        Process::with_heap(pid, Heap::new())
    }

    /// A process with empty registers and stack, and `heap` (one sized
    /// for `spawn_opt`'s `min_heap_size`).
    pub fn with_heap(pid: Term, heap: Heap) -> Process {
        Process {
            pid,
            x: Box::default(),
            fr: Box::default(),
            saved_x: Vec::new(),
            // Grown by the first `allocate`: a process that waits without
            // a frame (most idle servers' loops) holds no stack at all.
            stack: Vec::new(),
            heap,
            ip: std::ptr::null(),
            cp: std::ptr::null(),
            reductions: 0,
            last_exception: None,
            last_trace: Term::NIL,
            mailbox: Mailbox::default(),
            dictionary: ThinVec::new(),
            links: ThinVec::new(),
            monitors: ThinVec::new(),
            monitored_by: ThinVec::new(),
            trap_exit: false,
            registered_name: None,
            group_leader: Term::NIL,
            pending_exit: None,
            timer: ReceiveTimer::default(),
            waiting: false,
            initial_call: (Atom::UNDEFINED, Atom::UNDEFINED, 0),
            startup_error: None,
            watched: false,
            priority: Atom::NORMAL,
            trace: crate::trace::ProcessTrace::off(),
            return_traces: ThinVec::new(),
            seq_token: Term::NIL,
            seq_clock: 0,
            seq_lastcnt: 0,
            owned: super::OwnedResources::default(),
            gc: super::GcSettings::default(),
            max_heap_reached: None,
            parent: Term::atom(Atom::UNDEFINED),
            error_handler: Atom::ERROR_HANDLER,
            async_dist: false,
            messages_in: 0,
        }
    }

    /// Collects garbage with X registers `0..live`, the stack and the
    /// process's other terms as roots, leaving room for `need` words.
    ///
    /// Probes: `gc_minor_start`/`gc_minor_end` or `gc_major_start`/
    /// `gc_major_end` around the collection, with the heap's sizes.
    ///
    /// Then `max_heap_size` is checked (see `process::max_heap`).
    pub fn collect(&mut self, need: usize, live: usize) {
        if !probes::wants_gc(&self.trace) && !flight_hook::installed() {
            self.collect_roots(need, live);
            return self.check_max_heap();
        }
        let (start, end) = if self.heap.next_collection_is_major() {
            (TraceTag::GcMajorStart, TraceTag::GcMajorEnd)
        } else {
            (TraceTag::GcMinorStart, TraceTag::GcMinorEnd)
        };
        let (pid, before) = (self.pid, self.heap.used_words());
        let info = self.gc_info(need);
        probes::gc(&mut self.trace, start, pid, info);
        flight_hook::event(start, pid, Payload::Gc(info));
        self.collect_roots(need, live);
        let info = self.gc_info(before.saturating_sub(self.heap.used_words()));
        probes::gc(&mut self.trace, end, pid, info);
        flight_hook::event(end, pid, Payload::Gc(info));
        self.check_max_heap();
    }

    /// The sizes a garbage-collection trace event reports; `wordsize` as
    /// the BEAM's (the need at a start, what was reclaimed at an end).
    fn gc_info(&self, wordsize: usize) -> GcInfo {
        let words = |n: usize| n as u64;
        GcInfo {
            wordsize: words(wordsize),
            heap_size: words(self.heap.young_used()),
            heap_block_size: words(self.heap.young_capacity()),
            old_heap_size: words(self.heap.old_used()),
            old_heap_block_size: words(self.heap.old_capacity()),
            stack_size: words(self.stack.len()),
            mbuf_size: words(self.heap.fragment_words()),
            ..GcInfo::default()
        }
    }

    /// [`Process::collect`] without its probes.
    fn collect_roots(&mut self, need: usize, live: usize) {
        let mut extra = [
            self.last_trace,
            self.last_exception.as_ref().map_or(Term::NIL, |e| e.reason),
            self.last_exception.as_ref().map_or(Term::NIL, |e| e.args),
            self.last_exception.as_ref().map_or(Term::NIL, |e| e.trace),
        ];
        let mut misc = [self.group_leader, self.seq_token];
        let (x, stack) = (&mut self.x[..live], &mut self.stack[..]);
        let (messages, tokens) = self.mailbox.roots_mut();
        let dictionary = &mut self.dictionary[..];
        self.heap.collect(
            need,
            &mut [
                x, stack, &mut extra, messages, tokens, dictionary, &mut misc,
            ],
        );
        self.group_leader = misc[0];
        self.seq_token = misc[1];
        self.last_trace = extra[0];
        if let Some(e) = self.last_exception.as_mut() {
            e.reason = extra[1];
            e.args = extra[2];
            e.trace = extra[3];
        }
    }
}

impl Process {
    /// Bytes the process takes, `(allocated, used)`: its body, heap
    /// generations and fragments, stack, saved X registers, mailbox queue,
    /// dictionary, links and monitors (`erlang:memory(processes)` and
    /// `process_info(P, memory)` count it).
    pub fn memory_bytes(&self) -> (usize, usize) {
        use std::mem::size_of;
        let word = size_of::<u64>();
        let heap = &self.heap;
        let fixed = size_of::<Process>() + self.mailbox.len() * word;
        let lists = [
            thin_vec_bytes(&self.dictionary),
            thin_vec_bytes(&self.links),
            thin_vec_bytes(&self.monitors),
            thin_vec_bytes(&self.monitored_by),
        ];
        let allocated = fixed
            + (heap.young_capacity() + heap.old_capacity() + heap.fragment_words()) * word
            + (self.stack.capacity() + self.saved_x.capacity()) * word
            + lists.iter().map(|&(allocated, _)| allocated).sum::<usize>();
        let used = fixed
            + heap.used_words() * word
            + (self.stack.len() + self.saved_x.len()) * word
            + lists.iter().map(|&(_, used)| used).sum::<usize>();
        (allocated, used)
    }
}

/// Bytes a [`ThinVec`]'s allocation takes, `(allocated, used)`: nothing
/// while it has never held an element, else its elements and the length and
/// capacity words it keeps in front of them.
fn thin_vec_bytes<T>(list: &ThinVec<T>) -> (usize, usize) {
    if list.capacity() == 0 {
        return (0, 0);
    }
    let header = 2 * std::mem::size_of::<usize>();
    let element = std::mem::size_of::<T>();
    (
        header + list.capacity() * element,
        header + list.len() * element,
    )
}

impl Process {
    /// Prepares the process to call the code at `entry` with `args`; the
    /// call's return ends the process's run (the interpreter's
    /// `Outcome::Returned`).
    pub fn prepare_call<T>(&mut self, entry: *const T, args: &[Term]) {
        self.saved_x.clear();
        self.saved_x.extend_from_slice(args);
        self.ip = entry.cast();
        self.cp = std::ptr::null();
    }

    /// The value the process's initial call returned, once a run has ended
    /// with the interpreter's `Outcome::Returned` (x0, kept when the
    /// registers were parked).
    pub fn returned_value(&self) -> Term {
        self.saved_x.first().copied().unwrap_or(Term::NIL)
    }
}
