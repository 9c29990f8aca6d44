//! [`TraceTag`]: every tag a trace probe can fire with, the atom it is in a
//! trace message, and the flag of `erlang:trace/3` that turns it on.
//!
//! The tags are those of `erlang:trace/3`'s trace messages and of the
//! `erl_tracer` behaviour (`trace_tag_send()`, `trace_tag_receive()`,
//! `trace_tag_call()`, `trace_tag_procs()`, `trace_tag_ports()`,
//! `trace_tag_running_procs()`, `trace_tag_running_ports()`,
//! `trace_tag_gc()`), plus the three kinds of `seq_trace` information
//! (`{seq_trace, Label, {send | 'receive' | print, ...}}`).
//!
//! Each tag has a fixed number (its `u16` discriminant). Binary trace formats
//! (the ring buffer's event `kind`) store that number, so the numbers below
//! are part of those formats: a tag is never renumbered, and new tags take new
//! numbers.

use std::sync::atomic::{AtomicU32, Ordering};

use beamr_core::atom::{Atom, AtomError};

use crate::flags::TraceFlags;

macro_rules! trace_tags {
    ($($(#[$doc:meta])* $variant:ident = $num:literal, $atom:literal, $flag:expr;)*) => {
        /// A trace tag: what happened in the tracee.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum TraceTag {
            $($(#[$doc])* $variant = $num,)*
        }

        impl TraceTag {
            /// Every tag, in numeric order.
            pub const ALL: &'static [TraceTag] = &[$(TraceTag::$variant),*];

            /// The tag with number `n` (its `u16` discriminant), if any.
            pub const fn from_u16(n: u16) -> Option<TraceTag> {
                match n {
                    $($num => Some(TraceTag::$variant),)*
                    _ => None,
                }
            }

            /// The name of the atom this tag is in a trace message
            /// (`send`, `'receive'`, `gc_minor_start`, ...). The `seq_trace`
            /// tags are the atom of their information tuple (`send`,
            /// `'receive'`, `print`).
            pub const fn atom_name(self) -> &'static str {
                match self {
                    $(TraceTag::$variant => $atom,)*
                }
            }

            /// The `erlang:trace/3` flag that makes a process or port emit
            /// this tag (empty for `seq_trace` tags, which travel with a
            /// token instead, and for `return_from`/`exception_from`, which a
            /// match specification turns on for a traced call).
            pub const fn flag(self) -> TraceFlags {
                match self {
                    $(TraceTag::$variant => $flag,)*
                }
            }
        }
    };
}

trace_tags! {
    /// `{trace, Pid, send, Msg, To}`: the tracee sent a message.
    Send = 0, "send", TraceFlags::SEND;
    /// `{trace, Pid, send_to_non_existing_process, Msg, To}`.
    SendToNonExistingProcess = 1, "send_to_non_existing_process", TraceFlags::SEND;
    /// `{trace, Pid, 'receive', Msg}`: a message arrived in the tracee's queue.
    Receive = 2, "receive", TraceFlags::RECEIVE;
    /// `{trace, Pid, call, {M, F, Args}}`: a traced function was called.
    Call = 3, "call", TraceFlags::CALL;
    /// `{trace, Pid, return_to, {M, F, Arity}}`: returned to a function.
    ReturnTo = 4, "return_to", TraceFlags::RETURN_TO;
    /// `{trace, Pid, return_from, {M, F, Arity}, Value}` (`return_trace`).
    ReturnFrom = 5, "return_from", TraceFlags::empty();
    /// `{trace, Pid, exception_from, {M, F, Arity}, {Class, Value}}`
    /// (`exception_trace`).
    ExceptionFrom = 6, "exception_from", TraceFlags::empty();
    /// `{trace, Pid, spawn, Pid2, {M, F, Args}}`: the tracee spawned `Pid2`.
    Spawn = 7, "spawn", TraceFlags::PROCS;
    /// `{trace, Pid, spawned, Pid2, {M, F, Args}}`: the tracee was spawned by `Pid2`.
    Spawned = 8, "spawned", TraceFlags::PROCS;
    /// `{trace, Pid, exit, Reason}`: the tracee exited.
    Exit = 9, "exit", TraceFlags::PROCS;
    /// `{trace, Pid, link, Pid2}`: the tracee linked to `Pid2`.
    Link = 10, "link", TraceFlags::PROCS;
    /// `{trace, Pid, unlink, Pid2}`: the tracee removed a link.
    Unlink = 11, "unlink", TraceFlags::PROCS;
    /// `{trace, Pid, getting_linked, Pid2}`: `Pid2` linked to the tracee.
    GettingLinked = 12, "getting_linked", TraceFlags::PROCS;
    /// `{trace, Pid, getting_unlinked, Pid2}`: `Pid2` removed its link.
    GettingUnlinked = 13, "getting_unlinked", TraceFlags::PROCS;
    /// `{trace, Pid, register, RegName}`.
    Register = 14, "register", TraceFlags::PROCS;
    /// `{trace, Pid, unregister, RegName}`.
    Unregister = 15, "unregister", TraceFlags::PROCS;
    /// `{trace, Port, open, Pid, Driver}`: a port was opened.
    Open = 16, "open", TraceFlags::PORTS;
    /// `{trace, Port, closed, Reason}`: a port was closed.
    Closed = 17, "closed", TraceFlags::PORTS;
    /// `{trace, Pid, in, {M, F, Arity} | 0}`: scheduled in.
    In = 18, "in", TraceFlags::RUNNING;
    /// `{trace, Pid, out, {M, F, Arity} | 0}`: scheduled out.
    Out = 19, "out", TraceFlags::RUNNING;
    /// `{trace, Pid, in_exiting, 0}`: an exiting process scheduled in.
    InExiting = 20, "in_exiting", TraceFlags::EXITING;
    /// `{trace, Pid, out_exiting, 0}`: an exiting process scheduled out.
    OutExiting = 21, "out_exiting", TraceFlags::EXITING;
    /// `{trace, Pid, out_exited, 0}`: scheduled out for the last time.
    OutExited = 22, "out_exited", TraceFlags::EXITING;
    /// `{trace, Pid, gc_minor_start, Info}`: a minor collection starts.
    GcMinorStart = 23, "gc_minor_start", TraceFlags::GARBAGE_COLLECTION;
    /// `{trace, Pid, gc_minor_end, Info}`: a minor collection ended.
    GcMinorEnd = 24, "gc_minor_end", TraceFlags::GARBAGE_COLLECTION;
    /// `{trace, Pid, gc_major_start, Info}`: a major (fullsweep) collection starts.
    GcMajorStart = 25, "gc_major_start", TraceFlags::GARBAGE_COLLECTION;
    /// `{trace, Pid, gc_major_end, Info}`: a major collection ended.
    GcMajorEnd = 26, "gc_major_end", TraceFlags::GARBAGE_COLLECTION;
    /// `{seq_trace, Label, {send, Serial, From, To, Message}}`.
    SeqTraceSend = 27, "send", TraceFlags::empty();
    /// `{seq_trace, Label, {'receive', Serial, From, To, Message}}`.
    SeqTraceReceive = 28, "receive", TraceFlags::empty();
    /// `{seq_trace, Label, {print, Serial, From, _, Info}}` (`seq_trace:print/2`).
    SeqTracePrint = 29, "print", TraceFlags::empty();
}

/// Each tag's atom once made, as its index plus one (0: not made yet):
/// every trace message names its tag, and looking the name up in the atom
/// table (a lock and a hash) cost as much as building the rest of the
/// message.
static ATOMS: [AtomicU32; 32] = [const { AtomicU32::new(0) }; 32];

impl TraceTag {
    /// The atom this tag is in a trace message (see [`TraceTag::atom_name`]).
    /// Fails only when the atom table is full.
    #[inline]
    pub fn atom(self) -> Result<Atom, AtomError> {
        let slot = ATOMS.get(self as usize);
        if let Some(atom) = slot
            .map(|s| s.load(Ordering::Relaxed))
            .and_then(|n| n.checked_sub(1))
            .and_then(Atom::from_index)
        {
            return Ok(atom);
        }
        let atom = Atom::new(self.atom_name())?;
        if let Some(slot) = slot {
            slot.store(atom.index() + 1, Ordering::Relaxed);
        }
        Ok(atom)
    }

    /// True for the three `seq_trace` tags, whose messages are
    /// `{seq_trace, Label, Info}` rather than `{trace, Tracee, Tag, ...}`.
    pub const fn is_seq_trace(self) -> bool {
        matches!(
            self,
            TraceTag::SeqTraceSend | TraceTag::SeqTraceReceive | TraceTag::SeqTracePrint
        )
    }

    /// True for the four garbage-collection tags.
    pub const fn is_gc(self) -> bool {
        matches!(
            self,
            TraceTag::GcMinorStart
                | TraceTag::GcMinorEnd
                | TraceTag::GcMajorStart
                | TraceTag::GcMajorEnd
        )
    }

    /// True for the scheduling tags (`in`, `out` and their exiting forms).
    pub const fn is_running(self) -> bool {
        matches!(
            self,
            TraceTag::In
                | TraceTag::Out
                | TraceTag::InExiting
                | TraceTag::OutExiting
                | TraceTag::OutExited
        )
    }

    /// The tag of a trace message named by `name` (`"send"`, `"receive"`,
    /// ...). Names shared with `seq_trace` resolve to the `erlang:trace/3`
    /// tag; `seq_trace` tags are only reached through [`TraceTag::from_u16`].
    pub fn from_atom_name(name: &str) -> Option<TraceTag> {
        TraceTag::ALL
            .iter()
            .copied()
            .find(|t| !t.is_seq_trace() && t.atom_name() == name)
    }

    /// A short name that tells every tag apart (the atom name, with a
    /// `seq_trace.` prefix for the `seq_trace` tags), for printing.
    pub fn display_name(self) -> &'static str {
        match self {
            TraceTag::SeqTraceSend => "seq_trace.send",
            TraceTag::SeqTraceReceive => "seq_trace.receive",
            TraceTag::SeqTracePrint => "seq_trace.print",
            other => other.atom_name(),
        }
    }
}

impl std::fmt::Display for TraceTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.display_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tag_is_its_atom_every_time() {
        for &tag in TraceTag::ALL {
            for _ in 0..2 {
                assert_eq!(tag.atom().unwrap().name(), tag.atom_name());
            }
        }
    }

    #[test]
    fn numbers_are_dense_and_round_trip() {
        for (i, &tag) in TraceTag::ALL.iter().enumerate() {
            assert_eq!(tag as u16 as usize, i, "{tag:?}");
            assert_eq!(TraceTag::from_u16(tag as u16), Some(tag));
        }
        assert_eq!(TraceTag::from_u16(TraceTag::ALL.len() as u16), None);
    }

    #[test]
    fn atoms_are_the_beams() {
        assert_eq!(TraceTag::Send.atom().unwrap(), Atom::SEND);
        assert_eq!(TraceTag::Receive.atom().unwrap(), Atom::RECEIVE);
        assert_eq!(TraceTag::ReturnFrom.atom().unwrap(), Atom::RETURN_FROM);
        assert_eq!(TraceTag::OutExited.atom().unwrap(), Atom::OUT_EXITED);
        assert_eq!(TraceTag::GcMajorEnd.atom().unwrap(), Atom::GC_MAJOR_END);
        assert_eq!(TraceTag::SeqTraceSend.atom().unwrap(), Atom::SEND);
        assert_eq!(TraceTag::SeqTracePrint.atom_name(), "print");
        assert_eq!(TraceTag::Open.atom_name(), "open");
    }

    #[test]
    fn names_resolve_to_erlang_trace_tags() {
        assert_eq!(TraceTag::from_atom_name("send"), Some(TraceTag::Send));
        assert_eq!(TraceTag::from_atom_name("receive"), Some(TraceTag::Receive));
        assert_eq!(
            TraceTag::from_atom_name("in_exiting"),
            Some(TraceTag::InExiting)
        );
        assert_eq!(TraceTag::from_atom_name("print"), None);
        assert_eq!(TraceTag::from_atom_name("nonsense"), None);
        for &tag in TraceTag::ALL.iter().filter(|t| !t.is_seq_trace()) {
            assert_eq!(TraceTag::from_atom_name(tag.atom_name()), Some(tag));
        }
    }

    #[test]
    fn flags_group_tags_as_erlang_trace_does() {
        assert_eq!(TraceTag::Spawn.flag(), TraceFlags::PROCS);
        assert_eq!(TraceTag::SendToNonExistingProcess.flag(), TraceFlags::SEND);
        assert_eq!(
            TraceTag::GcMinorStart.flag(),
            TraceFlags::GARBAGE_COLLECTION
        );
        assert_eq!(TraceTag::OutExited.flag(), TraceFlags::EXITING);
        assert!(TraceTag::SeqTraceReceive.flag().is_empty());
        let gc = TraceTag::ALL.iter().filter(|t| t.is_gc()).count();
        assert_eq!(gc, 4);
        assert_eq!(TraceTag::SeqTracePrint.display_name(), "seq_trace.print");
    }
}
