//! [`TraceEvent`]: one fired probe, with its [`Payload`], borrowed from the
//! tracee for the duration of a [`Tracer::trace`](crate::Tracer::trace) call.
//!
//! Terms in an event point into the tracee's heap (or a message's heap
//! fragment, or a literal area). They are valid while the call lasts; a
//! backend that keeps anything copies it.
//!
//! Which payload goes with which tag ([`Payload::fits`]). The last column is
//! the trace message the BEAM sends for it, which [`message`](crate::message)
//! builds:
//!
//! | tag | payload | BEAM trace message |
//! |---|---|---|
//! | `send`, `send_to_non_existing_process` | `Message { peer: Some(To) }` | `{trace, Pid, send, Msg, To[, Extra]}` |
//! | `'receive'` | `Message { peer: sender if known }` | `{trace, Pid, 'receive', Msg[, Extra]}` |
//! | `call` | `Call` | `{trace, Pid, call, {M, F, Args}}` |
//! | `return_to` | `ReturnTo` | `{trace, Pid, return_to, {M, F, A}}` |
//! | `return_from` | `Return` | `{trace, Pid, return_from, {M, F, A}, Value}` |
//! | `exception_from` | `Exception` | `{trace, Pid, exception_from, {M, F, A}, {Class, Reason}}` |
//! | `spawn`, `spawned` | `Spawn` | `{trace, Pid, spawn, Pid2, {M, F, Args}}` |
//! | `exit` | `Exit` | `{trace, Pid, exit, Reason}` |
//! | `link`, `unlink`, `getting_(un)linked` | `Link` | `{trace, Pid, link, Pid2}` |
//! | `register`, `unregister` | `Register` | `{trace, Pid, register, Name}` |
//! | `open` | `PortOpen` | `{trace, Port, open, Pid, Driver}` |
//! | `closed` | `PortClosed` | `{trace, Port, closed, Reason}` |
//! | `in`, `out`, `*_exiting`, `out_exited` | `Running` | `{trace, Pid, in, {M, F, A} \| 0}` |
//! | `in`, `out` of a port (`running_ports`) | `PortTask` | `{trace, Port, in, Task \| 0}` |
//! | `gc_*` | `Gc` | `{trace, Pid, gc_minor_start, Info}` |
//! | `seq_trace` tags | `SeqTrace` | `{seq_trace, Label, {send, Serial, From, To, Msg}}` |

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::tag::TraceTag;
use crate::tracee::Tracee;

/// A function: module, name and arity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mfa {
    /// The module.
    pub module: Atom,
    /// The function's name.
    pub function: Atom,
    /// The number of arguments.
    pub arity: u32,
}

/// The arguments of a traced call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CallArgs<'a> {
    /// The argument terms (`{M, F, Args}`).
    Args(&'a [Term]),
    /// Only the arity (the `arity` flag is set: `{M, F, Arity}`).
    Arity(u32),
}

/// The serial of a `seq_trace` token: `{Previous, Current}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SeqSerial {
    /// The serial of the event this one follows from.
    pub previous: u64,
    /// This event's serial.
    pub current: u64,
}

/// The sizes a garbage-collection trace event reports, all in words, as the
/// BEAM's `Info` list (`[{heap_size, N}, ...]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct GcInfo {
    /// `heap_size`: words used in the young heap.
    pub heap_size: u64,
    /// `heap_block_size`: words allocated for the young heap.
    pub heap_block_size: u64,
    /// `old_heap_size`: words used in the old heap.
    pub old_heap_size: u64,
    /// `old_heap_block_size`: words allocated for the old heap.
    pub old_heap_block_size: u64,
    /// `stack_size`: words of stack.
    pub stack_size: u64,
    /// `recent_size`: words that survived the previous collection.
    pub recent_size: u64,
    /// `mbuf_size`: words in message buffers (heap fragments).
    pub mbuf_size: u64,
    /// `bin_vheap_size`: virtual-heap words of off-heap binaries.
    pub bin_vheap_size: u64,
    /// `bin_vheap_block_size`: virtual-heap limit before a collection.
    pub bin_vheap_block_size: u64,
    /// `bin_old_vheap_size`: virtual old-heap words of off-heap binaries.
    pub bin_old_vheap_size: u64,
    /// `bin_old_vheap_block_size`: virtual old-heap limit.
    pub bin_old_vheap_block_size: u64,
    /// `wordsize`: at a start, the need that triggered the collection; at an
    /// end, the words reclaimed.
    pub wordsize: u64,
}

impl GcInfo {
    /// The keys of the BEAM's `Info` list, in the order of [`GcInfo::values`].
    pub const KEYS: [&'static str; 12] = [
        "heap_size",
        "heap_block_size",
        "old_heap_size",
        "old_heap_block_size",
        "stack_size",
        "recent_size",
        "mbuf_size",
        "bin_vheap_size",
        "bin_vheap_block_size",
        "bin_old_vheap_size",
        "bin_old_vheap_block_size",
        "wordsize",
    ];

    /// The sizes, in the order of [`GcInfo::KEYS`].
    pub const fn values(&self) -> [u64; 12] {
        [
            self.heap_size,
            self.heap_block_size,
            self.old_heap_size,
            self.old_heap_block_size,
            self.stack_size,
            self.recent_size,
            self.mbuf_size,
            self.bin_vheap_size,
            self.bin_vheap_block_size,
            self.bin_old_vheap_size,
            self.bin_old_vheap_block_size,
            self.wordsize,
        ]
    }

    /// The sizes from values in the order of [`GcInfo::KEYS`].
    pub const fn from_values(v: [u64; 12]) -> GcInfo {
        GcInfo {
            heap_size: v[0],
            heap_block_size: v[1],
            old_heap_size: v[2],
            old_heap_block_size: v[3],
            stack_size: v[4],
            recent_size: v[5],
            mbuf_size: v[6],
            bin_vheap_size: v[7],
            bin_vheap_block_size: v[8],
            bin_old_vheap_size: v[9],
            bin_old_vheap_block_size: v[10],
            wordsize: v[11],
        }
    }
}

/// What a trace event carries beyond its tag and tracee (see the module's
/// table for which goes with which tag).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Payload<'a> {
    /// A message sent or received.
    Message {
        /// The message.
        message: Term,
        /// The receiver of a send; the sender of a receive when known.
        peer: Option<Term>,
        /// The term a message pattern's `message/1` action gave (`trace:send/3`,
        /// `erlang:trace_pattern(send | 'receive', MS, [])`), if any: the
        /// message backend adds it to the trace message.
        match_spec_result: Option<Term>,
    },
    /// A traced call.
    Call {
        /// The function called.
        mfa: Mfa,
        /// Its arguments, or only the arity.
        args: CallArgs<'a>,
        /// The term a match specification's `message/1` action gave, if
        /// any: the message backend adds it to the call message.
        match_spec_result: Option<Term>,
    },
    /// Returned to a function (`return_to`); `None` when not known.
    ReturnTo {
        /// The function returned to.
        mfa: Option<Mfa>,
    },
    /// Returned from a traced function (`return_from`).
    Return {
        /// The function returned from.
        mfa: Mfa,
        /// The value it returned.
        value: Term,
    },
    /// A traced function raised (`exception_from`).
    Exception {
        /// The function.
        mfa: Mfa,
        /// `error`, `exit` or `throw`.
        class: Atom,
        /// The reason.
        reason: Term,
    },
    /// `spawn` (the tracee spawned `other`) or `spawned` (`other` spawned
    /// the tracee).
    Spawn {
        /// The child (for `spawn`) or the parent (for `spawned`).
        other: Term,
        /// The function the new process starts in.
        mfa: Mfa,
        /// Its arguments.
        args: &'a [Term],
    },
    /// The tracee exited.
    Exit {
        /// The exit reason.
        reason: Term,
    },
    /// A link or unlink with `peer`.
    Link {
        /// The other end.
        peer: Term,
    },
    /// `register` or `unregister`.
    Register {
        /// The name.
        name: Atom,
    },
    /// A port was opened.
    PortOpen {
        /// The process that opened it.
        parent: Term,
        /// The driver's name.
        driver: Atom,
    },
    /// A port was closed.
    PortClosed {
        /// Why.
        reason: Term,
    },
    /// Scheduled in or out; `None` where the BEAM reports `0`.
    Running {
        /// The function the tracee is in.
        mfa: Option<Mfa>,
    },
    /// A port was scheduled in or out (`running_ports`) to run `task`:
    /// the atom erts names its work by (`open`, `command`, `close`,
    /// `link`, `unlink`, `connect`), `None` (erts's `0`) for input from
    /// its OS side.
    PortTask {
        /// What the port was scheduled for.
        task: Option<Atom>,
    },
    /// A garbage collection.
    Gc(GcInfo),
    /// A `seq_trace` event.
    SeqTrace {
        /// The token's label.
        label: Term,
        /// The token's serial.
        serial: SeqSerial,
        /// The sender (for send/receive) or the printing process.
        from: Term,
        /// The receiver (send/receive); `None` for print.
        to: Option<Term>,
        /// The message (send/receive) or the printed term (print).
        info: Term,
    },
}

impl Payload<'_> {
    /// True if this payload is the one that goes with `tag`.
    pub fn fits(&self, tag: TraceTag) -> bool {
        use TraceTag as T;
        match self {
            Payload::Message { peer, .. } => match tag {
                T::Send | T::SendToNonExistingProcess => peer.is_some(),
                T::Receive => true,
                _ => false,
            },
            Payload::Call { .. } => tag == T::Call,
            Payload::ReturnTo { .. } => tag == T::ReturnTo,
            Payload::Return { .. } => tag == T::ReturnFrom,
            Payload::Exception { .. } => tag == T::ExceptionFrom,
            Payload::Spawn { .. } => matches!(tag, T::Spawn | T::Spawned),
            Payload::Exit { .. } => tag == T::Exit,
            Payload::Link { .. } => {
                matches!(
                    tag,
                    T::Link | T::Unlink | T::GettingLinked | T::GettingUnlinked
                )
            }
            Payload::Register { .. } => matches!(tag, T::Register | T::Unregister),
            Payload::PortOpen { .. } => tag == T::Open,
            Payload::PortClosed { .. } => tag == T::Closed,
            Payload::Running { .. } => tag.is_running(),
            Payload::PortTask { .. } => matches!(tag, T::In | T::Out),
            Payload::Gc(_) => tag.is_gc(),
            Payload::SeqTrace { to, .. } => match tag {
                T::SeqTraceSend | T::SeqTraceReceive => to.is_some(),
                T::SeqTracePrint => to.is_none(),
                _ => false,
            },
        }
    }
}

/// One fired probe.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TraceEvent<'a> {
    /// What happened.
    pub tag: TraceTag,
    /// Where it happened.
    pub tracee: Tracee,
    /// When: monotonic time in nanoseconds (the runtime's clock; comparable
    /// between events of one runtime, not an epoch time).
    pub timestamp_ns: u64,
    /// The scheduler thread that fired it, numbered from 1 as in the BEAM;
    /// 0 for a thread that is not a scheduler.
    pub scheduler_id: u32,
    /// What it carries.
    pub payload: Payload<'a>,
}

impl<'a> TraceEvent<'a> {
    /// An event; in debug builds, checks that `payload` fits `tag`.
    pub fn new(
        tag: TraceTag,
        tracee: Tracee,
        timestamp_ns: u64,
        scheduler_id: u32,
        payload: Payload<'a>,
    ) -> TraceEvent<'a> {
        debug_assert!(
            payload.fits(tag),
            "payload {payload:?} does not fit {tag:?}"
        );
        TraceEvent {
            tag,
            tracee,
            timestamp_ns,
            scheduler_id,
            payload,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gc_info_values_round_trip_in_key_order() {
        let v: [u64; 12] = std::array::from_fn(|i| i as u64 * 10 + 1);
        let info = GcInfo::from_values(v);
        assert_eq!(info.values(), v);
        assert_eq!(info.heap_size, 1);
        assert_eq!(info.wordsize, 111);
        assert_eq!(GcInfo::KEYS[11], "wordsize");
    }

    #[test]
    fn payloads_fit_only_their_tags() {
        let msg = Payload::Message {
            message: Term::NIL,
            peer: Some(Term::pid(2)),
            match_spec_result: None,
        };
        assert!(msg.fits(TraceTag::Send));
        assert!(msg.fits(TraceTag::Receive));
        assert!(!msg.fits(TraceTag::Exit));
        let no_peer = Payload::Message {
            message: Term::NIL,
            peer: None,
            match_spec_result: None,
        };
        assert!(!no_peer.fits(TraceTag::Send));
        assert!(Payload::Gc(GcInfo::default()).fits(TraceTag::GcMajorEnd));
        assert!(!Payload::Gc(GcInfo::default()).fits(TraceTag::In));
        assert!(Payload::Running { mfa: None }.fits(TraceTag::OutExited));
        assert!(Payload::PortTask { task: None }.fits(TraceTag::In));
        assert!(!Payload::PortTask { task: None }.fits(TraceTag::OutExited));
        let print = Payload::SeqTrace {
            label: Term::small_unchecked(1),
            serial: SeqSerial::default(),
            from: Term::pid(1),
            to: None,
            info: Term::NIL,
        };
        assert!(print.fits(TraceTag::SeqTracePrint));
        assert!(!print.fits(TraceTag::SeqTraceSend));
    }
}
