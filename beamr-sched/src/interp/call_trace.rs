//! The cold path of a call to a function with trace patterns (see
//! `trace::call_patterns` for the gates the dispatch loop tests first).
//!
//! For one call, per trace session with patterns on the function (each
//! reporting to its own tracers, with the process's flags in that
//! session), in this order, each part of the session's [`FunctionTrace`]:
//!
//! 1. `call_count`: one more call.
//! 2. The call pattern (a `global` one only for external calls), if the
//!    process is traced with `call`: its match specification runs on the
//!    arguments; if a clause matches, the `call` message goes to the
//!    process's tracer (unless `message(false)` or `silent`), and
//!    `return_trace`/`exception_trace` push a return-trace frame. A local
//!    pattern on a process traced with `return_to` pushes a `return_to`
//!    frame instead, unless the call is a tail call of such a chain.
//! 3. The meta pattern: as 2 for the meta tracer, whatever the process's
//!    flags.
//! 4. `call_time` and `call_memory`, if the process is traced with `call`
//!    (as on the BEAM): one more call for this process, and a metering
//!    frame for each (not for a tail call inside a traced chain, which
//!    would grow the stack of a tail-recursive loop): a clock, and a count
//!    of the words the process allocates.
//!
//! Frames are pushed only for calls that return to their caller
//! (`frames`): a BIF called through `call_bif` returns at once.

use std::sync::Arc;

use beamr_core::term::{Export, Term};
use beamr_trace::{CallArgs, Mfa, Payload, TraceFlags, TraceTag};

use super::return_trace::{self, is_stub, push_frame};
use super::stacktrace;
use crate::code::CodeServer;
use crate::loader::Instr;
use crate::matchspec::trace::{TraceHost, TraceRun};
use crate::matchspec::MatchSpec;
use crate::process::Process;
use crate::runtime::Runtime;
use crate::trace::call_patterns::{self, FunctionTrace, Patterns, Spec};
use crate::trace::CompiledSpec;
use crate::trace::{pattern, probes, FrameKind, Meter, Session};

/// An external call of `export`, whose word says it has patterns.
#[cold]
#[inline(never)]
pub(super) fn external(rt: &Runtime, p: &mut Process, export: &'static Export, frames: bool) {
    if let Some(all) = call_patterns::of_export(export) {
        let mfa = Mfa {
            module: export.module,
            function: export.function,
            arity: export.arity,
        };
        on_calls(rt, p, mfa, &all, false, frames);
    }
}

/// The first call of a process spawned to run `export` with `args`, its
/// registers not yet lent: traced as the external call it is on the BEAM,
/// where a new process enters its function through the export (so a
/// `return_trace` frame returns from it, at the end of the process).
#[cold]
#[inline(never)]
pub fn first_call(rt: &Runtime, p: &mut Process, export: &'static Export, args: &[Term]) {
    let parked = std::mem::replace(&mut p.x, args.into());
    external(rt, p, export, true);
    p.x = parked;
}

/// A local call (or a local fun's) to the code at `entry`, while some
/// function's pattern fires on local calls.
#[cold]
#[inline(never)]
pub(super) fn local(rt: &Runtime, p: &mut Process, entry: *const Instr) {
    call_patterns::with_local(entry as usize, |e| local_entry(rt, p, e));
}

/// A local call of the function `e`, whose patterns fire on it.
#[inline(always)]
fn local_entry(rt: &Runtime, p: &mut Process, e: &call_patterns::LocalEntry) {
    match &e.plain {
        Some(plain) => plain_local_call(p, plain, &e.mfa),
        None => on_calls(rt, p, e.mfa, &e.all, true, true),
    }
}

/// A local call of a function whose one pattern is a plain local call
/// pattern (`LocalEntry::plain`): what [`on_call`] does for it, with one
/// search of the process's sessions. Inlined into [`local`], as the path
/// every call of a function traced so takes.
#[inline(always)]
fn plain_local_call(p: &mut Process, plain: &call_patterns::PlainCall, mfa: &Mfa) {
    if !p.trace.wants(TraceFlags::CALL) {
        return;
    }
    let pid = p.pid;
    let arity = mfa.arity as usize;
    let session = &plain.session;
    let flags = p.trace.report_call(session, pid, mfa, &p.x[..arity], None);
    // As `plain_call`: a process the session traces with `call` (silent
    // or not) gets the call's frame.
    if flags.contains(TraceFlags::CALL) {
        let return_to = flags.contains(TraceFlags::RETURN_TO);
        push_call_frame(
            p,
            session,
            *mfa,
            (plain.returns, plain.exceptions),
            return_to,
        );
    }
}

/// Every live session's patterns of the called function, in turn.
#[inline(never)]
fn on_calls(rt: &Runtime, p: &mut Process, mfa: Mfa, all: &Patterns, local: bool, frames: bool) {
    for s in all.iter().filter(|s| s.session.is_alive()) {
        on_call(rt, p, &s.session, mfa, &s.trace, local, frames);
    }
}

fn on_call(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    mfa: Mfa,
    trace: &FunctionTrace,
    local: bool,
    frames: bool,
) {
    let pid = p.pid;
    let flags = p.trace.flags_in(session);
    // A tail call out of a function that pushed a frame: its frames would
    // pile up in a tail-recursive loop. (Read before this call pushes any:
    // then CP is the stub whatever the caller.)
    let in_chain = is_stub(p.cp.cast());
    // The arguments, copied out of the registers (the specification runs
    // on the process) only for a pattern that may build a message.
    let mut copied: Option<Vec<Term>> = None;
    let arity = mfa.arity as usize;
    if let Some(count) = &trace.count {
        count.hit();
    }
    if let Some(call) = trace.call.as_ref().filter(|c| c.local || !local) {
        if flags.contains(TraceFlags::CALL) && call.spec.ms.is_none() {
            plain_call(p, session, mfa, call, frames, flags);
        } else if flags.contains(TraceFlags::CALL) {
            let args = &*copied.get_or_insert_with(|| p.x[..arity].to_vec());
            // The message goes as the process was traced when called, even
            // if the body changed its flags (but `silent/1` counts).
            let mut before = p.trace.clone();
            let tracer = before.tracer_in(session);
            if let Some(run) = run_spec(rt, p, session, &call.spec, args, tracer) {
                if let Some(extra) = run.extra() {
                    let silent = p.trace.flags_in(session).contains(TraceFlags::SILENT);
                    before.set_silent(session, silent);
                    probes::call(&mut before, session, pid, mfa, args, extra);
                }
                let return_to =
                    call.local && p.trace.flags_in(session).contains(TraceFlags::RETURN_TO);
                if frames {
                    let returns = run.returns() || call.spec.flags & pattern::RETURN_TRACE != 0;
                    let exceptions =
                        run.exception_trace || call.spec.flags & pattern::EXCEPTION_TRACE != 0;
                    push_call_frame(p, session, mfa, (returns, exceptions), return_to);
                }
            }
        }
    }
    if let Some(meta) = &trace.meta {
        let args = &*copied.get_or_insert_with(|| p.x[..arity].to_vec());
        let tracer = Some(meta.tracer.clone());
        if let Some(run) = run_spec(rt, p, session, &meta.spec, args, tracer) {
            if let Some(extra) = run.extra() {
                let payload = Payload::Call {
                    mfa,
                    args: CallArgs::Args(args),
                    match_spec_result: extra,
                };
                probes::meta(&*meta.tracer, TraceTag::Call, pid, payload);
            }
            if frames && (run.returns() || meta.spec.flags & pattern::RETURN_TRACE != 0) {
                let kind = FrameKind::Return {
                    exceptions: run.exception_trace
                        || meta.spec.flags & pattern::EXCEPTION_TRACE != 0,
                    meta: Some(meta.tracer.clone()),
                    return_to: false,
                    session: Arc::clone(session),
                };
                push_frame(p, mfa, kind);
            }
        }
    }
    // As on the BEAM, call_time and call_memory count only processes
    // traced with `call`.
    if !flags.contains(TraceFlags::CALL) {
        return;
    }
    for (meter, totals) in [(Meter::Time, &trace.time), (Meter::Memory, &trace.memory)] {
        let Some(table) = totals.as_ref().filter(|t| t.running()) else {
            continue;
        };
        table.add(pid, 1, 0);
        if frames && !in_chain {
            let now = return_trace::reading(p, meter);
            return_trace::pause_meter(p, meter, now);
            let kind = FrameKind::Metered {
                meter,
                table: Arc::clone(table),
                spent: 0,
                since: Some(now),
            };
            push_frame(p, mfa, kind);
        }
    }
}

/// A call pattern with no match specification (`dbg:tp(M, F, A, [])`,
/// `beamr run --trace-call`): every call is traced as it is, and nothing
/// runs that could change the process's flags, so the `call` message goes
/// straight from the registers, with no copy of the arguments or of the
/// process's trace state. `flags` are the process's in `session`.
fn plain_call(
    p: &mut Process,
    session: &Arc<Session>,
    mfa: Mfa,
    call: &call_patterns::CallPattern,
    frames: bool,
    flags: TraceFlags,
) {
    let pid = p.pid;
    let arity = mfa.arity as usize;
    probes::call(&mut p.trace, session, pid, mfa, &p.x[..arity], None);
    let return_to = call.local && flags.contains(TraceFlags::RETURN_TO);
    if frames {
        let returns = call.spec.flags & pattern::RETURN_TRACE != 0;
        let exceptions = call.spec.flags & pattern::EXCEPTION_TRACE != 0;
        push_call_frame(p, session, mfa, (returns, exceptions), return_to);
    }
}

/// The frame a traced call of `mfa` pushes in `session`: a return-trace
/// frame when the pattern traces returns (`returns`, and exceptions with
/// `exceptions`), else a `return_to` frame when the process is traced with
/// `return_to` (`return_to`) and the call is not a tail call of such a
/// chain, else none.
fn push_call_frame(
    p: &mut Process,
    session: &Arc<Session>,
    mfa: Mfa,
    (returns, exceptions): (bool, bool),
    return_to: bool,
) {
    if returns {
        let kind = FrameKind::Return {
            exceptions,
            meta: None,
            return_to,
            session: Arc::clone(session),
        };
        push_frame(p, mfa, kind);
    } else if return_to && !is_stub(p.cp.cast()) {
        push_frame(p, mfa, FrameKind::ReturnTo(Arc::clone(session)));
    }
}

/// Runs `spec` on a call with `args`: `None` if its match specification
/// matches no clause (the call is not traced), else what its body asked.
fn run_spec(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    spec: &Spec,
    args: &[Term],
    tracer: Option<Arc<dyn beamr_trace::Tracer>>,
) -> Option<TraceRun> {
    let mut run = TraceRun::new(&HOST, Arc::clone(session), tracer);
    match spec
        .ms
        .as_ref()
        .and_then(|ms| ms.downcast_ref::<MatchSpec>())
    {
        Some(ms) => ms.run_trace(rt, p, args, &mut run).map(|()| run),
        None => Some(run),
    }
}

/// Runs a message pattern's specification (`erlang:trace_pattern(send |
/// 'receive', MS, [])`) of `session` on `args` in `p`: the
/// `signals::message_trace::SpecRunner` the runtime installs. `None` if no
/// clause matches or the body says `message(false)`.
pub fn run_message_spec(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    tracer: Arc<dyn beamr_trace::Tracer>,
    spec: &CompiledSpec,
    args: &[Term],
) -> Option<Option<Term>> {
    let spec = Spec {
        flags: 0,
        ms: Some(Arc::clone(spec)),
    };
    run_spec(rt, p, session, &spec, args, Some(tracer))?.extra()
}

/// The interpreter's answers to a tracing match specification.
struct Host;

static HOST: Host = Host;

/// The answers for a test run (`erlang:match_spec_test/3`, run from a BIF,
/// not at a traced call): no caller (`undefined`, as erts has it: it hides
/// the BIF's return address for the run); the stack and the dump are the
/// process's own.
pub struct TestHost;

/// The one [`TestHost`].
pub static TEST_HOST: TestHost = TestHost;

impl TraceHost for TestHost {
    fn caller(&self, _p: &mut Process, _with_line: bool) -> Term {
        Term::atom(beamr_core::atom::Atom::UNDEFINED)
    }

    fn current_stacktrace(&self, p: &mut Process, depth: Option<usize>) -> Term {
        HOST.current_stacktrace(p, depth)
    }

    fn process_dump(&self, p: &mut Process) -> Term {
        HOST.process_dump(p)
    }
}

impl TraceHost for Host {
    fn caller(&self, p: &mut Process, with_line: bool) -> Term {
        let undefined = Term::atom(beamr_core::atom::Atom::UNDEFINED);
        let cp = return_trace::real_cp(p);
        if cp.is_null() {
            return undefined;
        }
        let Some(module) = CodeServer::global().module_at(cp) else {
            return undefined;
        };
        let index = module.index_of(cp);
        let Some(f) = module.function_at(index) else {
            return undefined;
        };
        let (m, name, arity) = (
            Term::atom(module.name),
            Term::atom(f.name),
            Term::small_unchecked(i64::from(f.arity)),
        );
        if !with_line {
            return p.heap.tuple(&[m, name, arity]);
        }
        // The line of the call: the instruction before the return address.
        let location = match module.line_at(index.saturating_sub(1)) {
            Some((file, line)) => {
                let file = p.heap.string(file);
                let line = Term::small_unchecked(i64::from(line));
                p.heap.tuple(&[file, line])
            }
            None => undefined,
        };
        p.heap.tuple(&[m, name, arity, location])
    }

    fn current_stacktrace(&self, p: &mut Process, depth: Option<usize>) -> Term {
        stacktrace::return_frames(p, depth)
    }

    fn process_dump(&self, p: &mut Process) -> Term {
        let stack = stack_dump(p);
        let text = format!(
            "=proc:{}\nState: Running\nMessage queue length: {}\nReductions: {}\nStack+heap: {}\nStack dump:\n{}\n",
            beamr_core::format::format_p(p.pid, &Default::default()),
            p.mailbox.len(),
            p.reductions,
            p.heap.used_words() + p.stack.len(),
            stack,
        );
        p.heap.binary(text.as_bytes())
    }
}

/// The return addresses on `p`'s stack, one line each, as
/// `Return addr (M:F/A)`.
fn stack_dump(p: &mut Process) -> String {
    let frames = stacktrace::return_frames(p, Some(usize::MAX));
    let mut out = String::new();
    for frame in frames.list_to_vec().unwrap_or_default() {
        if let Some(&[m, f, a, _]) = frame.as_tuple() {
            let show = |t: Term| beamr_core::format::format_p(t, &Default::default());
            out.push_str(&format!(
                "Return addr ({}:{}/{})\n",
                show(m),
                show(f),
                show(a)
            ));
        }
    }
    out
}
