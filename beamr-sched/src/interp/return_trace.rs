//! Return-trace frames: how a traced call reports its return (`return_trace`,
//! `exception_trace`, meta patterns), the end of a chain of local calls
//! (`return_to`), and the time a `call_time` function ran.
//!
//! At the call, [`push_frame`] pushes the real return address on the stack
//! (a code-pointer word, which the collector and the stack walkers already
//! know; null at the end of a process), records the frame in the process's
//! `return_traces` (its stack depth, the function, what it reports), and
//! points CP at [`stub`], one `return_trace` instruction that belongs to no
//! module. When the function returns there, [`returned`] takes both back,
//! reports by the frame's kind, and gives the real address to return on
//! to. An exception that unwinds below a frame's depth drops it
//! ([`unwound`]): `exception_trace` frames fire `exception_from`,
//! `call_time` clocks and `call_memory` counts stop, and if a `return_to`
//! frame went and the exception is caught, `return_to` names the function
//! that caught it.
//!
//! A metering frame counts what its function spends itself: calling a
//! function metered the same way pauses it ([`pause_meter`]) until that
//! one returns. Time is read on the trace clock; memory as the words the
//! process has allocated since it started (the heap's words in use plus
//! every word its collections reclaimed), so a collection in between
//! changes nothing.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{Mfa, Payload, TraceTag};

use crate::code::CodeServer;
use crate::loader::{Instr, RETURN_TRACE_STUB};
use crate::process::{Exception, Process};
use crate::trace::{now_ns, probes, FrameKind, Meter, ReturnTraceFrame};

/// The address of the return-trace instruction.
pub fn stub() -> *const Instr {
    &RETURN_TRACE_STUB
}

/// True if `cp` is the return-trace instruction: the call it belongs to
/// is a tail call of a function that pushed a frame.
pub fn is_stub(cp: *const Instr) -> bool {
    std::ptr::eq(cp, stub())
}

/// Pushes a frame of `kind` for a call of `mfa` that returns to `p.cp`,
/// and makes the call return to [`stub`] instead.
pub fn push_frame(p: &mut Process, mfa: Mfa, kind: FrameKind) {
    p.stack.push(Term::code_pointer(p.cp));
    p.cp = stub().cast();
    let depth = p.stack.len();
    p.return_traces.push(ReturnTraceFrame { depth, mfa, kind });
}

/// What `meter` reads now in `p`: the trace clock, or the words `p` has
/// allocated since it started.
pub fn reading(p: &Process, meter: Meter) -> u64 {
    match meter {
        Meter::Time => now_ns(),
        Meter::Memory => p.heap.used_words() as u64 + p.heap.stats().words_reclaimed,
    }
}

/// The innermost frame metering with `meter`: what it has counted and
/// its reading when it last resumed (`None` while paused).
fn innermost(p: &mut Process, meter: Meter) -> Option<(&mut u64, &mut Option<u64>)> {
    p.return_traces
        .iter_mut()
        .rev()
        .find_map(|f| match &mut f.kind {
            FrameKind::Metered {
                meter: m,
                spent,
                since,
                ..
            } if *m == meter => Some((spent, since)),
            _ => None,
        })
}

/// Pauses the innermost frame metering with `meter` (a function metered
/// the same way is called from inside it), at the reading `now`.
pub fn pause_meter(p: &mut Process, meter: Meter, now: u64) {
    if let Some((spent, since)) = innermost(p, meter) {
        if let Some(start) = since.take() {
            *spent += now.saturating_sub(start);
        }
    }
}

/// Resumes the innermost frame metering with `meter` at the reading `now`
/// (the function it called returned).
fn resume_meter(p: &mut Process, meter: Meter, now: u64) {
    if let Some((_, since)) = innermost(p, meter) {
        *since = Some(now);
    }
}

/// Books what a metering frame that is gone (returned or unwound) counted.
fn close_meter(p: &mut Process, kind: &FrameKind) {
    if let FrameKind::Metered {
        meter,
        table,
        spent,
        since,
    } = kind
    {
        let now = reading(p, *meter);
        let spent = spent + since.map_or(0, |start| now.saturating_sub(start));
        table.add(p.pid, 0, spent);
        resume_meter(p, *meter, now);
    }
}

/// The function containing the return address `ra`, if it is in a
/// module (not the end of the process, not another frame's stub).
fn function_at(ra: *const Instr) -> Option<Mfa> {
    if ra.is_null() || is_stub(ra) {
        return None;
    }
    let module = CodeServer::global().module_at(ra)?;
    let f = module.function_at(module.index_of(ra))?;
    Some(Mfa {
        module: module.name,
        function: f.name,
        arity: f.arity,
    })
}

/// An exception of `class` with `reason` unwound the stack to `len` words,
/// to the handler at `caught` (`None`: nothing caught it, the process
/// ends): the frames above are gone, reporting innermost first.
pub fn unwound(
    p: &mut Process,
    len: usize,
    caught: Option<*const Instr>,
    class: Atom,
    reason: Term,
) {
    let mut return_to = None;
    while let Some(frame) = p.return_traces.last() {
        if frame.depth <= len {
            break;
        }
        let frame = p.return_traces.pop().expect("the last frame");
        let pid = p.pid;
        match &frame.kind {
            FrameKind::Return {
                exceptions,
                meta,
                return_to: to,
                session,
            } => {
                if *to {
                    return_to = Some(session.clone());
                }
                if *exceptions {
                    match meta {
                        Some(tracer) => {
                            let payload = Payload::Exception {
                                mfa: frame.mfa,
                                class,
                                reason,
                            };
                            probes::meta(&**tracer, TraceTag::ExceptionFrom, pid, payload);
                        }
                        None => probes::exception_from(
                            &mut p.trace,
                            session,
                            pid,
                            frame.mfa,
                            class,
                            reason,
                        ),
                    }
                }
            }
            FrameKind::ReturnTo(session) => return_to = Some(session.clone()),
            FrameKind::Metered { .. } => close_meter(p, &frame.kind),
        }
    }
    if let (Some(session), Some(handler)) = (return_to, caught) {
        let pid = p.pid;
        probes::return_to(&mut p.trace, &session, pid, function_at(handler));
    }
}

/// The function at the top frame returned (with its value in x0): pops the
/// frame [`push_frame`] pushed, reports it, and gives the real return
/// address (null when the process ends). `None`, changing nothing, if the
/// stack does not end with a frame (a bug: the interpreter raises, native
/// code hands the return to the interpreter).
pub fn returned(p: &mut Process) -> Option<*const Instr> {
    if p.return_traces.last()?.depth != p.stack.len() {
        return None;
    }
    let back = p
        .stack
        .pop()?
        .as_code_pointer()
        .map_or(std::ptr::null(), <*const ()>::cast);
    let frame = p.return_traces.pop()?;
    let (pid, value) = (p.pid, p.x[0]);
    let mfa = frame.mfa;
    match &frame.kind {
        FrameKind::Return {
            meta,
            return_to,
            session,
            ..
        } => {
            match meta {
                Some(tracer) => {
                    let payload = Payload::Return { mfa, value };
                    probes::meta(&**tracer, TraceTag::ReturnFrom, pid, payload);
                }
                None => probes::return_from(&mut p.trace, session, pid, mfa, value),
            }
            if *return_to && !is_stub(back) {
                probes::return_to(&mut p.trace, session, pid, function_at(back));
            }
        }
        FrameKind::ReturnTo(session) => {
            probes::return_to(&mut p.trace, session, pid, function_at(back))
        }
        FrameKind::Metered { .. } => close_meter(p, &frame.kind),
    }
    Some(back)
}

/// The real return address of the running function: `p.cp`, or, when that
/// is the stub, the address its frames saved (the caller of a traced
/// call, as `caller/0` sees it).
pub fn real_cp(p: &Process) -> *const Instr {
    let mut cp: *const Instr = p.cp.cast();
    let mut frames = p.return_traces.iter().rev();
    while is_stub(cp) {
        let Some(frame) = frames.next() else {
            return std::ptr::null();
        };
        cp = p
            .stack
            .get(frame.depth.wrapping_sub(1))
            .and_then(|w| w.as_code_pointer())
            .map_or(std::ptr::null(), <*const ()>::cast);
    }
    cp
}

/// The error raised if the stub ever ran without its frame on the stack
/// (a bug): `{beamr_internal, return_trace_frame}`.
pub fn broken_frame(p: &mut Process) -> Exception {
    let tag = Term::atom(Atom::new("beamr_internal").expect("atom"));
    let what = Term::atom(Atom::new("return_trace_frame").expect("atom"));
    Exception::error(p.heap.tuple(&[tag, what]))
}
