//! The layout of each beamr trace event in a ring (category `Trace`, kind =
//! the `TraceTag` number): encoding a [`TraceEvent`] into words, and decoding
//! words back into a [`TraceRecord`]. Both directions live here and only here.
//!
//! Every event is `[header, timestamp_ns, tracee, ...]`; the payload words
//! after the tracee are, by tag (`S` = a two-word [`TermSummary`](crate::TermSummary),
//! `P` = a process word, `M` = two MFA words):
//!
//! | tags | payload after the tracee | words in all |
//! |---|---|---|
//! | send, send_to_non_existing_process, 'receive' | P peer, S message | 6 |
//! | call | M | 5 |
//! | return_to, in, out, in_exiting, out_exiting, out_exited | M (or none) | 5 |
//! | return_from | M, S value | 7 |
//! | exception_from | M (class in the arity word's high half), S reason | 7 |
//! | spawn, spawned | P other, M | 6 |
//! | exit, closed | S reason | 5 |
//! | link, unlink, getting_linked, getting_unlinked | P peer | 4 |
//! | register, unregister | name (atom key) | 4 |
//! | open | P parent, driver (atom key) | 5 |
//! | gc_minor_start ... gc_major_end | 12 sizes in `GcInfo::KEYS` order | 15 |
//! | seq_trace send, receive, print | S label, previous, current, P from, P to, S info | 11 |
//!
//! Process word: bits 62..64 say what it is: `0` none, `1` local pid and
//! `2` local port (number in bits 0..60), `3` remote pid (node atom key in
//! bits 32..62, pid number in bits 0..32).
//!
//! MFA words: `module key | function key << 32`, then `arity | extra << 32`
//! (`extra` is the class atom key for exception_from, else 0). A missing MFA
//! (`0` in the BEAM's `in`/`out`) is `u64::MAX, 0`.
//!
//! Call arguments, spawn arguments and a tracee's registered name are not
//! recorded; the size and sketch of the message/value/reason are.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{GcInfo, Mfa, Payload, SeqSerial, TraceEvent, TraceTag, Tracee, TraceeId};

use crate::summary::{self, TermSummary};

const PROC_NONE: u64 = 0;
const PROC_PID: u64 = 1;
const PROC_PORT: u64 = 2;
const PROC_REMOTE: u64 = 3;
const LOW60: u64 = (1 << 60) - 1;

/// A process or port as recorded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Proc {
    /// Not known / not applicable.
    None,
    /// A local pid number.
    Pid(u64),
    /// A local port number.
    Port(u64),
    /// A pid of another node.
    Remote {
        /// The node's atom key.
        node: u32,
        /// The pid number.
        id: u32,
    },
}

/// An MFA as recorded: atom keys and arity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MfaRef {
    /// Module atom key.
    pub module: u32,
    /// Function atom key.
    pub function: u32,
    /// Arity.
    pub arity: u32,
}

/// The payload of a decoded trace event.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Body {
    /// send / send_to_non_existing_process / 'receive'.
    Message {
        /// Receiver (send) or sender if known (receive).
        peer: Proc,
        /// The message.
        message: TermSummary,
    },
    /// call.
    Call {
        /// The function.
        mfa: MfaRef,
    },
    /// return_to and the scheduling tags.
    At {
        /// The function, if known.
        mfa: Option<MfaRef>,
    },
    /// return_from.
    Return {
        /// The function.
        mfa: MfaRef,
        /// Its value.
        value: TermSummary,
    },
    /// exception_from.
    Exception {
        /// The function.
        mfa: MfaRef,
        /// Class atom key.
        class: u32,
        /// Reason.
        reason: TermSummary,
    },
    /// spawn / spawned.
    Spawn {
        /// Child (spawn) or parent (spawned).
        other: Proc,
        /// Initial function.
        mfa: MfaRef,
    },
    /// exit / closed.
    Reason {
        /// The reason.
        reason: TermSummary,
    },
    /// link family.
    Link {
        /// The other end.
        peer: Proc,
    },
    /// register / unregister.
    Register {
        /// Name atom key.
        name: u32,
    },
    /// open.
    PortOpen {
        /// Opening process.
        parent: Proc,
        /// Driver atom key.
        driver: u32,
    },
    /// gc_*.
    Gc(GcInfo),
    /// seq_trace.
    SeqTrace {
        /// Label.
        label: TermSummary,
        /// Serial.
        serial: SeqSerial,
        /// Sender or printer.
        from: Proc,
        /// Receiver (none for print).
        to: Proc,
        /// Message or printed term.
        info: TermSummary,
    },
}

/// A decoded trace event (without its timestamp and ring, which
/// [`Event`](crate::Event) carries).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TraceRecord {
    /// The tag.
    pub tag: TraceTag,
    /// The tracee.
    pub tracee: Proc,
    /// The rest.
    pub body: Body,
}

/// Why a trace event's words could not be decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The kind is not a trace tag.
    #[error("unknown trace tag number {0}")]
    UnknownTag(u16),
    /// Too few payload words for the tag.
    #[error("{tag}: {found} payload words, the layout needs {needed}")]
    Short {
        /// The tag.
        tag: TraceTag,
        /// Words present.
        found: usize,
        /// Words needed.
        needed: usize,
    },
}

fn proc_word(t: Term, atom_key: &mut impl FnMut(Atom) -> u32) -> u64 {
    if let Some(n) = t.as_local_pid() {
        PROC_PID << 62 | (n & LOW60)
    } else if let Some(n) = t.as_local_port() {
        PROC_PORT << 62 | (n & LOW60)
    } else if let Some(p) = t.as_external_pid() {
        PROC_REMOTE << 62 | ((atom_key(p.node) as u64) & 0x3fff_ffff) << 32 | p.id as u64
    } else {
        PROC_NONE
    }
}

fn tracee_word(t: Tracee) -> u64 {
    match t.id {
        TraceeId::Pid(n) => PROC_PID << 62 | (n & LOW60),
        TraceeId::Port(n) => PROC_PORT << 62 | (n & LOW60),
    }
}

fn decode_proc(w: u64) -> Proc {
    match w >> 62 {
        PROC_PID => Proc::Pid(w & LOW60),
        PROC_PORT => Proc::Port(w & LOW60),
        PROC_REMOTE => Proc::Remote {
            node: ((w >> 32) & 0x3fff_ffff) as u32,
            id: w as u32,
        },
        _ => Proc::None,
    }
}

fn mfa_words(m: Option<Mfa>, extra: u32, atom_key: &mut impl FnMut(Atom) -> u32) -> [u64; 2] {
    match m {
        Some(m) => [
            atom_key(m.module) as u64 | (atom_key(m.function) as u64) << 32,
            m.arity as u64 | (extra as u64) << 32,
        ],
        None => [u64::MAX, 0],
    }
}

fn decode_mfa(w: &[u64]) -> Option<MfaRef> {
    (w[0] != u64::MAX).then(|| MfaRef {
        module: w[0] as u32,
        function: (w[0] >> 32) as u32,
        arity: w[1] as u32,
    })
}

/// Encodes `event`'s payload (everything after the timestamp, exactly
/// [`payload_words`] of its tag) into `out`, interning atoms with
/// `atom_key`. No allocation.
#[inline]
pub(crate) fn encode_to(
    event: &TraceEvent<'_>,
    out: &mut crate::ring::SlotsOut<'_>,
    mut atom_key: impl FnMut(Atom) -> u32,
) {
    let k = &mut atom_key;
    out.put(&[tracee_word(event.tracee)]);
    let mut put = |words: &[u64]| out.put(words);
    match event.payload {
        Payload::Message { message, peer, .. } => {
            put(&[peer.map_or(PROC_NONE, |p| proc_word(p, k))]);
            put(&summary::encode(message, &mut *k));
        }
        Payload::Call { mfa, .. } => put(&mfa_words(Some(mfa), 0, k)),
        Payload::ReturnTo { mfa } | Payload::Running { mfa } => put(&mfa_words(mfa, 0, k)),
        // A port's task is not a function: recorded as in/out at none.
        Payload::PortTask { .. } => put(&mfa_words(None, 0, k)),
        Payload::Return { mfa, value } => {
            put(&mfa_words(Some(mfa), 0, k));
            put(&summary::encode(value, &mut *k));
        }
        Payload::Exception { mfa, class, reason } => {
            let class = k(class);
            put(&mfa_words(Some(mfa), class, k));
            put(&summary::encode(reason, &mut *k));
        }
        Payload::Spawn { other, mfa, .. } => {
            put(&[proc_word(other, k)]);
            put(&mfa_words(Some(mfa), 0, k));
        }
        Payload::Exit { reason } | Payload::PortClosed { reason } => {
            put(&summary::encode(reason, &mut *k))
        }
        Payload::Link { peer } => put(&[proc_word(peer, k)]),
        Payload::Register { name } => put(&[k(name) as u64]),
        Payload::PortOpen { parent, driver } => put(&[proc_word(parent, k), k(driver) as u64]),
        Payload::Gc(info) => put(&info.values()),
        Payload::SeqTrace {
            label,
            serial,
            from,
            to,
            info,
        } => {
            put(&summary::encode(label, &mut *k));
            put(&[serial.previous, serial.current, proc_word(from, k)]);
            put(&[to.map_or(PROC_NONE, |t| proc_word(t, k))]);
            put(&summary::encode(info, &mut *k));
        }
    }
}

/// The payload of a `call` event of `tracee` calling `mfa`: what
/// [`encode_to`] stores for `Payload::Call`, for the writer of calls that
/// has no event to encode (`Tracer::fire_call`).
#[inline(always)]
pub(crate) fn call_words(
    tracee: Tracee,
    mfa: Mfa,
    mut atom_key: impl FnMut(Atom) -> u32,
) -> [u64; CALL_WORDS] {
    let [m, a] = mfa_words(Some(mfa), 0, &mut atom_key);
    [tracee_word(tracee), m, a]
}

/// Payload words of a `call` event (`payload_words(TraceTag::Call)`).
pub(crate) const CALL_WORDS: usize = payload_words(TraceTag::Call);

/// The payload words of a `return_from` event of `tracee` returning
/// `value` from `mfa`, as [`encode_to`] writes them: the function's names
/// keyed by `mfa_key` (which need not intern them), atoms in `value` by
/// `atom_key`.
#[inline]
pub(crate) fn return_words(
    tracee: Tracee,
    mfa: Mfa,
    value: Term,
    mut mfa_key: impl FnMut(Atom) -> u32,
    atom_key: impl FnMut(Atom) -> u32,
) -> [u64; RETURN_WORDS] {
    let [m, a] = mfa_words(Some(mfa), 0, &mut mfa_key);
    let [v0, v1] = summary::encode(value, atom_key);
    [tracee_word(tracee), m, a, v0, v1]
}

/// Payload words of a `return_from` event.
pub(crate) const RETURN_WORDS: usize = payload_words(TraceTag::ReturnFrom);

/// The payload words of a `spawned` event of `tracee`, child of `parent`,
/// entering `mfa`, as [`encode_to`] writes them (the call's arguments are
/// not recorded): the function's names keyed by `mfa_key` (which need not
/// intern them), a remote parent's node by `atom_key`. The MFA word is
/// third.
#[inline(always)]
pub(crate) fn spawned_words(
    tracee: Tracee,
    parent: Term,
    mfa: Mfa,
    mut mfa_key: impl FnMut(Atom) -> u32,
    mut atom_key: impl FnMut(Atom) -> u32,
) -> [u64; SPAWNED_WORDS] {
    let [m, a] = mfa_words(Some(mfa), 0, &mut mfa_key);
    [tracee_word(tracee), proc_word(parent, &mut atom_key), m, a]
}

/// Payload words of a `spawned` event.
pub(crate) const SPAWNED_WORDS: usize = payload_words(TraceTag::Spawned);

/// The payload words of an `exit` event of `tracee` with `reason`, as
/// [`encode_to`] writes them, atoms keyed by `atom_key`.
#[inline(always)]
pub(crate) fn exit_words(
    tracee: Tracee,
    reason: Term,
    atom_key: impl FnMut(Atom) -> u32,
) -> [u64; EXIT_WORDS] {
    let [r0, r1] = summary::encode(reason, atom_key);
    [tracee_word(tracee), r0, r1]
}

/// Payload words of an `exit` event.
pub(crate) const EXIT_WORDS: usize = payload_words(TraceTag::Exit);

/// Payload words (after the timestamp) the layout of `tag` takes.
pub const fn payload_words(tag: TraceTag) -> usize {
    use TraceTag as T;
    match tag {
        T::Send | T::SendToNonExistingProcess | T::Receive => 4,
        T::Call | T::ReturnTo => 3,
        T::ReturnFrom | T::ExceptionFrom => 5,
        T::Spawn | T::Spawned => 4,
        T::Exit | T::Closed => 3,
        T::Link | T::Unlink | T::GettingLinked | T::GettingUnlinked => 2,
        T::Register | T::Unregister => 2,
        T::Open => 3,
        T::In | T::Out | T::InExiting | T::OutExiting | T::OutExited => 3,
        T::GcMinorStart | T::GcMinorEnd | T::GcMajorStart | T::GcMajorEnd => 13,
        T::SeqTraceSend | T::SeqTraceReceive | T::SeqTracePrint => 9,
    }
}

/// Decodes the payload words of a trace event of `kind`.
pub fn decode(kind: u16, p: &[u64]) -> Result<TraceRecord, DecodeError> {
    use TraceTag as T;
    let tag = TraceTag::from_u16(kind).ok_or(DecodeError::UnknownTag(kind))?;
    let needed = payload_words(tag);
    if p.len() < needed {
        return Err(DecodeError::Short {
            tag,
            found: p.len(),
            needed,
        });
    }
    let s = |i: usize| summary::decode([p[i], p[i + 1]]);
    let mfa = |i: usize| {
        decode_mfa(&p[i..i + 2]).unwrap_or(MfaRef {
            module: u32::MAX,
            function: u32::MAX,
            arity: 0,
        })
    };
    let body = match tag {
        T::Send | T::SendToNonExistingProcess | T::Receive => Body::Message {
            peer: decode_proc(p[1]),
            message: s(2),
        },
        T::Call => Body::Call { mfa: mfa(1) },
        T::ReturnTo | T::In | T::Out | T::InExiting | T::OutExiting | T::OutExited => Body::At {
            mfa: decode_mfa(&p[1..3]),
        },
        T::ReturnFrom => Body::Return {
            mfa: mfa(1),
            value: s(3),
        },
        T::ExceptionFrom => Body::Exception {
            mfa: mfa(1),
            class: (p[2] >> 32) as u32,
            reason: s(3),
        },
        T::Spawn | T::Spawned => Body::Spawn {
            other: decode_proc(p[1]),
            mfa: mfa(2),
        },
        T::Exit | T::Closed => Body::Reason { reason: s(1) },
        T::Link | T::Unlink | T::GettingLinked | T::GettingUnlinked => Body::Link {
            peer: decode_proc(p[1]),
        },
        T::Register | T::Unregister => Body::Register { name: p[1] as u32 },
        T::Open => Body::PortOpen {
            parent: decode_proc(p[1]),
            driver: p[2] as u32,
        },
        T::GcMinorStart | T::GcMinorEnd | T::GcMajorStart | T::GcMajorEnd => {
            Body::Gc(GcInfo::from_values(std::array::from_fn(|i| p[1 + i])))
        }
        T::SeqTraceSend | T::SeqTraceReceive | T::SeqTracePrint => Body::SeqTrace {
            label: s(1),
            serial: SeqSerial {
                previous: p[3],
                current: p[4],
            },
            from: decode_proc(p[5]),
            to: decode_proc(p[6]),
            info: s(7),
        },
    };
    Ok(TraceRecord {
        tag,
        tracee: decode_proc(p[0]),
        body,
    })
}
