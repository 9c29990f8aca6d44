//! The functions and actions only tracing match specifications have
//! (`erlang:trace_pattern/3`), and [`TraceRun`], what one run of such a
//! specification decided.
//!
//! Where each may appear, as erts's compiler allows it:
//!
//! ```text
//! function                    guard  body  value
//! get_tcw()                   yes    yes   the trace control word
//! is_seq_trace()              yes    yes   true when the process has a seq_trace token
//! set_tcw(N)                         yes   the old word
//! return_trace()                     yes   true; the call returns through a return-trace frame
//! exception_trace()                  yes   true; as return_trace, exceptions too
//! message(T)                         yes   true; T is the call message's extra element
//!                                          (true: none, false: no message)
//! caller()                           yes   {M, F, A} of the caller, or undefined
//! caller_line()                      yes   {M, F, A, {File, Line}}, or undefined
//! current_stacktrace([Depth]) (26+)  yes   the caller's stack, as process_info has it
//! display(T)                         yes   true; prints T as erlang:display/1
//! process_dump()                     yes   a binary describing the process
//! enable_trace([P,] Flag)            yes   true; erlang:trace(P, true, [Flag])
//! disable_trace([P,] Flag)           yes   true; erlang:trace(P, false, [Flag])
//! trace([P,] Disable, Enable)        yes   true; both lists of flags at once
//! silent(Bool)                       yes   true; the process's silent flag
//! set_seq_token(C, V)               yes   true; seq_trace:set_token(C, V)
//! get_seq_token()                    yes   the token, or []
//! ```
//!
//! The process that runs the specification is the caller of the traced
//! function; `enable_trace` and friends give a process the tracer of the
//! run ([`TraceRun::tracer`]: the process's own, or the meta tracer).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};
use beamr_trace::{TraceFlags, Tracer};

use super::MsError;
use crate::code::{otp_release, resolve};
use crate::process::{Process, Signal};
use crate::runtime::Runtime;
use crate::signals::seq_trace;
use crate::trace::{control_word, set_control_word, TraceChange};

/// A function or action of tracing specifications.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TraceFn {
    /// `get_tcw/0`.
    GetTcw,
    /// `set_tcw/1`.
    SetTcw,
    /// `return_trace/0`.
    ReturnTrace,
    /// `exception_trace/0`.
    ExceptionTrace,
    /// `message/1`.
    Message,
    /// `caller/0`.
    Caller,
    /// `caller_line/0`.
    CallerLine,
    /// `current_stacktrace/0,1`.
    CurrentStacktrace,
    /// `display/1`.
    Display,
    /// `process_dump/0`.
    ProcessDump,
    /// `enable_trace/1,2`.
    EnableTrace,
    /// `disable_trace/1,2`.
    DisableTrace,
    /// `trace/2,3`.
    Trace,
    /// `silent/1`.
    Silent,
    /// `is_seq_trace/0`.
    IsSeqTrace,
    /// `set_seq_token/2`.
    SetSeqToken,
    /// `get_seq_token/0`.
    GetSeqToken,
}

/// What the runtime's interpreter answers for a specification (the
/// stack is its business).
pub trait TraceHost: Sync {
    /// The calling function of the traced call, `{M, F, A}` (with
    /// `with_line`, `{M, F, A, {File, Line}}`), or `undefined`.
    fn caller(&self, p: &mut Process, with_line: bool) -> Term;
    /// The caller's stack trace, at most `depth` frames (the BEAM's
    /// `backtrace_depth` when `None`).
    fn current_stacktrace(&self, p: &mut Process, depth: Option<usize>) -> Term;
    /// A binary describing `p`, as `process_dump` has it.
    fn process_dump(&self, p: &mut Process) -> Term;
}

/// One run of a tracing specification: what its body asked for.
pub struct TraceRun {
    /// The interpreter's answers.
    pub host: &'static dyn TraceHost,
    /// The tracer `enable_trace` and `trace` give a process.
    pub tracer: Option<Arc<dyn Tracer>>,
    /// `message/1`'s last argument: `None` (or `true`) sends the call
    /// message as it is, `false` sends none, anything else is added to it.
    pub message: Option<Term>,
    /// `return_trace` (or `exception_trace`) was called.
    pub return_trace: bool,
    /// `exception_trace` was called.
    pub exception_trace: bool,
}

impl TraceRun {
    /// A run with nothing asked yet.
    pub fn new(host: &'static dyn TraceHost, tracer: Option<Arc<dyn Tracer>>) -> TraceRun {
        TraceRun {
            host,
            tracer,
            message: None,
            return_trace: false,
            exception_trace: false,
        }
    }

    /// The call message's extra element: `Some(None)` for the plain
    /// message, `Some(Some(T))` for one with `T` added, `None` for no
    /// message.
    pub fn extra(&self) -> Option<Option<Term>> {
        match self.message {
            None | Some(Term::TRUE) => Some(None),
            Some(Term::FALSE) => None,
            Some(t) => Some(Some(t)),
        }
    }
}

/// The tracing function `name/arity`, in a guard or (`in_body`) a body:
/// `Ok(None)` if it is none (an ordinary guard function, or unknown);
/// an error if it may not appear there, or is not supported.
pub(super) fn function(
    name: &str,
    arity: usize,
    in_body: bool,
) -> Result<Option<TraceFn>, MsError> {
    use TraceFn as T;
    let (f, guard_too) = match (name, arity) {
        ("get_tcw", 0) => (T::GetTcw, true),
        ("is_seq_trace", 0) => (T::IsSeqTrace, true),
        ("set_seq_token", 2) => (T::SetSeqToken, false),
        ("get_seq_token", 0) => (T::GetSeqToken, false),
        ("set_tcw", 1) => (T::SetTcw, false),
        ("return_trace", 0) => (T::ReturnTrace, false),
        ("exception_trace", 0) => (T::ExceptionTrace, false),
        ("message", 1) => (T::Message, false),
        ("caller", 0) => (T::Caller, false),
        ("caller_line", 0) => (T::CallerLine, false),
        ("current_stacktrace", 0 | 1) if otp_release() >= 26 => (T::CurrentStacktrace, false),
        ("display", 1) => (T::Display, false),
        ("process_dump", 0) => (T::ProcessDump, false),
        ("enable_trace", 1 | 2) => (T::EnableTrace, false),
        ("disable_trace", 1 | 2) => (T::DisableTrace, false),
        ("trace", 2 | 3) => (T::Trace, false),
        ("silent", 1) => (T::Silent, false),
        _ => return Ok(None),
    };
    if !in_body && !guard_too {
        return Err(MsError(format!("{name}/{arity} only in a body")));
    }
    Ok(Some(f))
}

/// Runs `f` with `args` for `p`: its value, `None` if it raises (bad
/// arguments) or needs a run it does not have (in a guard).
pub(super) fn eval(
    f: TraceFn,
    rt: &Runtime,
    p: &mut Process,
    args: &[Term],
    run: Option<&mut TraceRun>,
) -> Option<Term> {
    use TraceFn as T;
    let int = |p: &mut Process, n: u32| p.heap.int(i64::from(n));
    match f {
        T::GetTcw => Some(int(p, control_word())),
        T::IsSeqTrace => Some(Term::bool(seq_trace::token(p) != Term::NIL)),
        T::GetSeqToken => Some(seq_trace::token(p)),
        T::SetSeqToken => seq_trace::set_token(p, args[0], args[1]).map(|_| Term::TRUE),
        T::SetTcw => {
            let word = u32::try_from(args[0].as_small()?).ok()?;
            Some(int(p, set_control_word(word)))
        }
        T::Display => {
            let display = resolve::native(Export::intern(Atom::ERLANG, atom("display"), 1))?;
            display(rt, p, args).ok()
        }
        _ => {
            let run = run?;
            match f {
                T::ReturnTrace => run.return_trace = true,
                T::ExceptionTrace => {
                    run.return_trace = true;
                    run.exception_trace = true;
                }
                T::Message => run.message = Some(args[0]),
                T::Caller => return Some(run.host.caller(p, false)),
                T::CallerLine => return Some(run.host.caller(p, true)),
                T::CurrentStacktrace => {
                    let depth = match args.first() {
                        Some(d) => Some(usize::try_from(d.as_small()?).ok()?),
                        None => None,
                    };
                    return Some(run.host.current_stacktrace(p, depth));
                }
                T::ProcessDump => return Some(run.host.process_dump(p)),
                T::Silent => match args[0] {
                    Term::TRUE => p.trace.set_silent(true),
                    Term::FALSE => p.trace.set_silent(false),
                    _ => return None,
                },
                T::EnableTrace | T::DisableTrace => {
                    let (target, flag) = match *args {
                        [flag] => (p.pid, flag),
                        [target, flag] => (target, flag),
                        _ => return None,
                    };
                    let flags = one_flag(flag)?;
                    let set = f == T::EnableTrace;
                    change(rt, p, run, target, set, flags)?;
                }
                T::Trace => {
                    let (target, off, on) = match *args {
                        [off, on] => (p.pid, off, on),
                        [target, off, on] => (target, off, on),
                        _ => return None,
                    };
                    let (off, on) = (flag_list(off)?, flag_list(on)?);
                    change(rt, p, run, target, false, off)?;
                    change(rt, p, run, target, true, on)?;
                }
                T::GetTcw
                | T::SetTcw
                | T::Display
                | T::IsSeqTrace
                | T::SetSeqToken
                | T::GetSeqToken => unreachable!("handled above"),
            }
            Some(Term::TRUE)
        }
    }
}

/// Sets (`set`) or clears `flags` on the process `target` (a pid or a
/// registered name), reporting to the run's tracer; `None` if there is no
/// such process, or no tracer to set flags for.
fn change(
    rt: &Runtime,
    p: &mut Process,
    run: &TraceRun,
    target: Term,
    set: bool,
    flags: TraceFlags,
) -> Option<()> {
    if flags.is_empty() {
        return Some(());
    }
    let pid = match target.as_atom() {
        Some(name) => rt.names.whereis(name)?,
        None if target.is_local_pid() => target,
        None => return None,
    };
    let tracer = run.tracer.clone().or_else(|| p.trace.tracer())?;
    let change = TraceChange { set, flags, tracer };
    if pid == p.pid {
        p.trace.apply(&change);
        Some(())
    } else {
        rt.send_signal(pid, Signal::Trace(change)).then_some(())
    }
}

/// The flag named by `t` (not `cpu_timestamp`, and no `{tracer, _}`).
fn one_flag(t: Term) -> Option<TraceFlags> {
    let name = t.as_atom()?.name();
    if name == "cpu_timestamp" {
        return None;
    }
    TraceFlags::from_atom_name(name)
}

/// The flags of a list of flag names.
fn flag_list(t: Term) -> Option<TraceFlags> {
    t.list_to_vec()?
        .into_iter()
        .try_fold(TraceFlags::empty(), |acc, f| Some(acc | one_flag(f)?))
}

fn atom(name: &str) -> Atom {
    Atom::new(name).expect("a short atom name")
}
