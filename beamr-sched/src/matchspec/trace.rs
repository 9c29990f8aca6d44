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
//!
//! A test run (`erlang:match_spec_test/3`, [`TraceRun::test`]) changes
//! less, as erts's `DCOMP_FAKE_DESTRUCTIVE` and
//! `ERTS_PAM_IGNORE_TRACE_SILENT` have it: `set_tcw(N)` returns the word
//! and leaves it, `set_seq_token(C, V)` returns `seq_trace_info(C)`
//! and leaves the token, `silent/1` does nothing. `display/1` still prints,
//! and `enable_trace` and friends still act, with the process's own tracer
//! (none: nothing changes; `enable_trace` gives `true`, `trace` `false`).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};
use beamr_trace::{TraceFlags, Tracer};

use super::{Mode, MsError};
use crate::code::{otp_release, resolve};
use crate::process::{Process, Signal};
use crate::runtime::Runtime;
use crate::signals::seq_trace;
use crate::trace::{control_word, set_control_word, Session, TraceChange};

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
    /// The session whose pattern runs: `enable_trace` and friends and
    /// `silent` change the process's flags in it.
    pub session: Arc<Session>,
    /// The tracer `enable_trace` and `trace` give a process.
    pub tracer: Option<Arc<dyn Tracer>>,
    /// `message/1`'s last argument: `None` (or `true`) sends the call
    /// message as it is, `false` sends none, anything else is added to it.
    pub message: Option<Term>,
    /// `return_trace` was called.
    pub return_trace: bool,
    /// `exception_trace` was called (a return-trace frame that reports
    /// exceptions too).
    pub exception_trace: bool,
    /// A test run (`erlang:match_spec_test/3`): see the module doc.
    pub test: bool,
}

impl TraceRun {
    /// A run with nothing asked yet.
    pub fn new(
        host: &'static dyn TraceHost,
        session: Arc<Session>,
        tracer: Option<Arc<dyn Tracer>>,
    ) -> TraceRun {
        TraceRun {
            host,
            session,
            tracer,
            message: None,
            return_trace: false,
            exception_trace: false,
            test: false,
        }
    }

    /// A test run (`erlang:match_spec_test/3`): no tracer of its own, and
    /// the word, the token and the silent flag left as they are.
    pub fn test(host: &'static dyn TraceHost) -> TraceRun {
        TraceRun {
            test: true,
            ..TraceRun::new(host, Arc::clone(Session::legacy()), None)
        }
    }

    /// True when the call returns through a return-trace frame
    /// (`return_trace` or `exception_trace` was called).
    pub fn returns(&self) -> bool {
        self.return_trace || self.exception_trace
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

/// The functions of tracing specifications: name, function, arities,
/// whether a guard may call it, and whether erts calls it a special form
/// (its errors say so) rather than a function.
const FUNCTIONS: &[(&str, TraceFn, &[usize], bool, bool)] = {
    use TraceFn as T;
    &[
        ("get_tcw", T::GetTcw, &[0], true, false),
        ("set_tcw", T::SetTcw, &[1], false, false),
        ("is_seq_trace", T::IsSeqTrace, &[0], true, true),
        ("set_seq_token", T::SetSeqToken, &[2], false, true),
        ("get_seq_token", T::GetSeqToken, &[0], false, true),
        ("return_trace", T::ReturnTrace, &[0], false, true),
        ("exception_trace", T::ExceptionTrace, &[0], false, true),
        ("message", T::Message, &[1], false, true),
        ("caller", T::Caller, &[0], false, true),
        ("caller_line", T::CallerLine, &[0], false, true),
        (
            "current_stacktrace",
            T::CurrentStacktrace,
            &[0, 1],
            false,
            true,
        ),
        ("display", T::Display, &[1], false, true),
        ("process_dump", T::ProcessDump, &[0], false, true),
        ("enable_trace", T::EnableTrace, &[1, 2], false, true),
        ("disable_trace", T::DisableTrace, &[1, 2], false, true),
        ("trace", T::Trace, &[2, 3], false, true),
        ("silent", T::Silent, &[1], false, true),
    ]
};

/// The tracing function that `call` (`{Name, A1, ..., An}`) names, where
/// `mode` compiles: `Ok(None)` if it names none (an ordinary guard
/// function, or unknown); an error, in erts's words, if it may not appear
/// there or has the wrong number of arguments.
pub(super) fn function(call: Term, mode: Mode) -> Result<Option<TraceFn>, MsError> {
    let Some((&name, args)) = call.as_tuple().and_then(<[Term]>::split_first) else {
        return Ok(None);
    };
    let Some(name) = name.as_atom().map(Atom::name) else {
        return Ok(None);
    };
    let arity = args.len();
    let Some(&(_, f, arities, guard_too, special)) = FUNCTIONS.iter().find(|e| e.0 == name) else {
        return Ok(None);
    };
    if f == TraceFn::CurrentStacktrace && otp_release() < 26 {
        return Ok(None);
    }
    if !special {
        if !arities.contains(&arity) {
            return Ok(None);
        }
        if mode == Mode::Table || (mode == Mode::TraceGuard && !guard_too) {
            return Err(MsError(format!(
                "Function {name}/{arity} cannot be called in this context."
            )));
        }
        return Ok(Some(f));
    }
    if mode == Mode::Table {
        return Err(MsError(format!(
            "Special form '{name}' used in wrong dialect."
        )));
    }
    if mode == Mode::TraceGuard && !guard_too {
        // erts names set_seq_token so here.
        let shown = if f == TraceFn::SetSeqToken {
            "set_seq_trace"
        } else {
            name
        };
        return Err(MsError(format!(
            "Special form '{shown}' called in guard context."
        )));
    }
    if !arities.contains(&arity) {
        let what = if arities == [0] {
            "with arguments"
        } else {
            "with wrong number of arguments"
        };
        return Err(MsError(format!(
            "Special form '{name}' called {what} in {}.",
            super::shown(call)
        )));
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
    let test = run.as_deref().is_some_and(|r| r.test);
    match f {
        T::GetTcw => Some(int(p, control_word())),
        T::IsSeqTrace => Some(Term::bool(seq_trace::token(p) != Term::NIL)),
        T::GetSeqToken => Some(seq_trace::token(p)),
        // As erts's seq_trace_fake: what seq_trace_info/1 gives for the
        // component, `{C, Value}` or `[]` (erts means to unwrap the pair,
        // but its test for one never holds).
        T::SetSeqToken if test => seq_trace::info(p, args[0]),
        T::SetSeqToken => seq_trace::set_token(p, args[0], args[1]).map(|_| Term::TRUE),
        T::SetTcw => {
            let word = u32::try_from(args[0].as_small()?).ok()?;
            let old = if test {
                control_word()
            } else {
                set_control_word(word)
            };
            Some(int(p, old))
        }
        T::Display => {
            let display = resolve::native(Export::intern(Atom::ERLANG, atom("display"), 1))?;
            display(rt, p, args).ok()
        }
        _ => {
            let run = run?;
            match f {
                T::ReturnTrace => run.return_trace = true,
                T::ExceptionTrace => run.exception_trace = true,
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
                T::Silent if run.test => {}
                T::Silent => match args[0] {
                    Term::TRUE => p.trace.set_silent(&run.session, true),
                    Term::FALSE => p.trace.set_silent(&run.session, false),
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
                    let cleared = change(rt, p, run, target, false, off)?;
                    let set = change(rt, p, run, target, true, on)?;
                    return Some(Term::bool(cleared && set));
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
/// registered name), reporting to the run's tracer (or the process's own):
/// `Some(true)` then, `Some(false)` if there is no tracer (nothing
/// changes), `None` if there is no such process.
fn change(
    rt: &Runtime,
    p: &mut Process,
    run: &TraceRun,
    target: Term,
    set: bool,
    flags: TraceFlags,
) -> Option<bool> {
    let pid = match target.as_atom() {
        Some(name) => rt.names.whereis(name)?,
        None if target.is_local_pid() => target,
        None => return None,
    };
    let own = || p.trace.tracer_in(&run.session);
    let Some(tracer) = run.tracer.clone().or_else(own) else {
        return Some(false);
    };
    if flags.is_empty() {
        return Some(true);
    }
    let change = TraceChange {
        session: Arc::clone(&run.session),
        set,
        flags,
        tracer,
    };
    if pid == p.pid {
        p.trace.apply(&change);
        Some(true)
    } else {
        rt.send_signal(pid, Signal::Trace(change)).then_some(true)
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
