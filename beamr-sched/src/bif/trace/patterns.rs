//! `erlang:trace_pattern/2,3` for functions: call patterns (`global`,
//! `local`), `meta`, `call_count`, `call_time` and `call_memory` (OTP
//! 26+), with match
//! specifications compiled once here (`MatchSpec::compile_trace`), and the
//! `on_load` pattern. The table they go into, and what a traced call does,
//! are `trace::call_patterns` and `interp::call_trace`.
//!
//! As the BEAM checks them: `MFA` is `{M, F, A}` with `'_'` wildcards (a
//! wildcard only followed by wildcards) or `on_load`; the flags are
//! `global` (alone), or any of `local`, `meta`, `{meta, Pid}`,
//! `call_count`, `call_time`, `call_memory`; `pause` and `restart` are
//! for the counters.
//! `send` and `'receive'` take a message pattern (`true`, `false` or a
//! match specification over `[Receiver, Msg]` or `[Node, Sender, Msg]`),
//! kept by the session (`trace::Session::set_event_pattern`) and run by
//! the message probes (`signals::message_trace`). Every pattern belongs to
//! a trace session: `erlang:trace_pattern/3` sets the legacy session's,
//! `trace:function/4` (`erts_internal:trace_pattern/4`) a session's own,
//! whose `meta` tracer is the session's tracer. `{meta, Module, State}`
//! names a tracer module (`named_tracers`).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::message::TimestampKind;

use super::flags::message_tracer;
use super::named_tracers::{bad_option, module_tracer, not_a_tracer, NamedTracer};
use crate::code::{otp_release, CodeServer};
use crate::loader::BifRow;
use crate::matchspec::MatchSpec;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::call_patterns::{self, CallPattern, Change, CounterOp, MetaPattern, Spec};
use crate::trace::{EventPattern, MessageEvent, Session, SessionTracer};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "trace_pattern", 2, trace_pattern2),
    ("erlang", "trace_pattern", 3, trace_pattern3),
];

fn atom(name: &str) -> Atom {
    Atom::new(name).expect("a short atom name")
}

fn trace_pattern2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_pattern3(rt, p, &[a[0], a[1], Term::NIL])
}

/// What the second argument asks.
enum Setting {
    /// `true`, `[]` or a match specification.
    On(Spec),
    /// `false`.
    Off,
    /// `pause`.
    Pause,
    /// `restart`.
    Restart,
}

/// The flags of the third argument.
#[derive(Default)]
struct Flags {
    global: bool,
    local: bool,
    meta: Option<NamedTracer>,
    count: bool,
    time: bool,
    memory: bool,
}

/// `erlang:trace_pattern(MFA, MatchSpec, FlagList)`: how many functions
/// `MFA` matched (in the legacy session).
fn trace_pattern3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_pattern_in(rt, p, Session::legacy(), a[0], a[1], a[2])
}

/// `erlang:trace_pattern/3` in `session` (`trace:function/4`,
/// `trace:send/3`, `trace:recv/3`).
pub(super) fn trace_pattern_in(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    mfa: Term,
    ms: Term,
    flag_list: Term,
) -> Result<Term, Exception> {
    let a = [mfa, ms, flag_list];
    let any = Term::atom(atom("_"));
    let target = match a[0].as_tuple() {
        Some(&[m, f, arity]) => {
            let pattern_ok = (m == any || m.is_atom())
                && (f == any || f.is_atom())
                && (arity == any || arity.as_small().is_some());
            // A wildcard may only be followed by wildcards.
            let order_ok = !((m == any && f != any) || (f == any && arity != any));
            if !pattern_ok || !order_ok {
                // As erts reports it (erl_erts_errors: cause none).
                return Err(Exception::badarg_cause(Term::atom(atom("none"))));
            }
            let name = |t: Term| if t == any { None } else { t.as_atom() };
            match arity.as_small() {
                // No function has a negative arity: it matches none.
                Some(n) if n < 0 => return Ok(Term::small_unchecked(0)),
                n => Some((name(m), name(f), n.map(|n| n as u32))),
            }
        }
        _ => match a[0].as_atom().map(Atom::name) {
            Some("on_load") => None,
            Some(event @ ("send" | "receive")) => {
                let event = if event == "send" {
                    MessageEvent::Send
                } else {
                    MessageEvent::Receive
                };
                return event_pattern(session, event, a[1], a[2]);
            }
            _ => return Err(Exception::badarg_cause(Term::atom(atom("none")))),
        },
    };
    let setting = setting(a[1])?;
    let flags = flags(rt, p, session, a[2])?;
    // A match specification needs a call or meta pattern to run for: the
    // counters alone take none (erts's cause: call_count).
    let counters_only = !flags.global
        && !flags.local
        && flags.meta.is_none()
        && (flags.count || flags.time || flags.memory);
    if counters_only && matches!(&setting, Setting::On(Spec { ms: Some(_), .. })) {
        return Err(Exception::badarg_cause(Term::atom(atom("call_count"))));
    }
    let changes = changes(rt, p, session, setting, &flags)?;
    match target {
        Some((m, f, arity)) => {
            let matched =
                call_patterns::apply(CodeServer::global(), session, m, f, arity, &changes);
            Ok(Term::small_unchecked(matched as i64))
        }
        None => {
            call_patterns::set_on_load(session, &changes);
            Ok(Term::small_unchecked(0))
        }
    }
}

/// `erlang:trace_pattern(send | 'receive', MatchSpec, [])`: `true`,
/// `false` or a match specification; no flags. Always 1.
fn event_pattern(
    session: &Session,
    event: MessageEvent,
    ms: Term,
    flag_list: Term,
) -> Result<Term, Exception> {
    // erts takes no flags here, and names no cause for any.
    if flag_list != Term::NIL {
        return Err(Exception::badarg_cause(Term::atom(atom("none"))));
    }
    let pattern = match setting(ms)? {
        Setting::On(Spec { ms: Some(ms), .. }) => EventPattern::Spec(ms),
        Setting::On(_) => EventPattern::All,
        Setting::Off => EventPattern::Off,
        Setting::Pause | Setting::Restart => {
            return Err(Exception::badarg_cause(Term::atom(atom("none"))));
        }
    };
    session.set_event_pattern(event, pattern);
    Ok(Term::small_unchecked(1))
}

/// Reads the second argument; a match specification is compiled here,
/// once.
fn setting(t: Term) -> Result<Setting, Exception> {
    Ok(match t {
        Term::TRUE | Term::NIL => Setting::On(Spec::default()),
        Term::FALSE => Setting::Off,
        t if t.as_atom().is_some_and(|a| a.name() == "pause") => Setting::Pause,
        t if t.as_atom().is_some_and(|a| a.name() == "restart") => Setting::Restart,
        ms => match MatchSpec::compile_trace(ms) {
            Ok(ms) => Setting::On(Spec {
                flags: 0,
                ms: Some(Arc::new(ms)),
            }),
            Err(_) => return Err(Exception::badarg_cause(Term::atom(atom("match_spec")))),
        },
    })
}

/// Reads the flag list; `global` may not be given with any other flag.
/// `meta` names the session's tracer (the caller in the legacy session,
/// which alone takes `{meta, Pid}` and `{meta, Module, State}`). Anything
/// else is erts's `badopt`.
fn flags(rt: &Runtime, p: &mut Process, session: &Session, t: Term) -> Result<Flags, Exception> {
    let items = t.list_to_vec().ok_or_else(bad_option)?;
    let mut flags = Flags::default();
    for item in items {
        if let Some(name) = item.as_atom().map(Atom::name) {
            match name {
                "global" => flags.global = true,
                "local" => flags.local = true,
                "meta" => {
                    flags.meta = Some(match session.tracer() {
                        Some(SessionTracer::Process(t)) => NamedTracer::Process(*t),
                        Some(SessionTracer::Module(m)) => NamedTracer::Module(m.clone()),
                        None => NamedTracer::Process(p.pid),
                    })
                }
                "call_count" => flags.count = true,
                "call_time" => flags.time = true,
                "call_memory" if otp_release() >= 26 => flags.memory = true,
                _ => return Err(bad_option()),
            }
            continue;
        }
        match item.as_tuple() {
            _ if !session.is_legacy() => {
                return Err(Exception::badarg_cause(Term::atom(atom("badopt"))));
            }
            Some(&[tag, pid]) if tag == Term::atom(atom("meta")) && pid.is_local_pid() => {
                flags.meta = Some(NamedTracer::Process(pid));
            }
            Some(&[tag, module, state]) if tag == Term::atom(atom("meta")) => {
                let module = module.as_atom().ok_or_else(bad_option)?;
                match module_tracer(rt, module, state)? {
                    Some(t) => flags.meta = Some(t),
                    None => return Err(not_a_tracer(p, module, state)),
                }
            }
            _ => return Err(bad_option()),
        }
    }
    let others = flags.local || flags.meta.is_some() || flags.count || flags.time || flags.memory;
    if flags.global && others {
        return Err(bad_option());
    }
    if !others {
        flags.global = true;
    }
    Ok(flags)
}

/// The changes `setting` makes for `flags`.
fn changes(
    rt: &Runtime,
    p: &mut Process,
    _session: &Session,
    setting: Setting,
    flags: &Flags,
) -> Result<Vec<Change>, Exception> {
    let mut changes = Vec::new();
    let counter = match setting {
        Setting::On(_) => CounterOp::Start,
        Setting::Off => CounterOp::Stop,
        Setting::Pause => CounterOp::Pause,
        Setting::Restart => CounterOp::Restart,
    };
    if flags.global || flags.local {
        match &setting {
            Setting::On(spec) => changes.push(Change::Call(Some(CallPattern {
                local: flags.local,
                spec: spec.clone(),
            }))),
            Setting::Off => changes.push(Change::CallOff { local: flags.local }),
            Setting::Pause | Setting::Restart => {}
        }
    }
    if let Some(named) = &flags.meta {
        match &setting {
            Setting::On(spec) => {
                let tracer = match named {
                    NamedTracer::Process(pid) => message_tracer(rt, p, *pid, TimestampKind::Now)?,
                    NamedTracer::Module(t) => t.clone(),
                };
                changes.push(Change::Meta(Some(MetaPattern {
                    tracer,
                    spec: spec.clone(),
                })));
            }
            Setting::Off => changes.push(Change::Meta(None)),
            Setting::Pause | Setting::Restart => {}
        }
    }
    if flags.count {
        changes.push(Change::Count(counter));
    }
    if flags.time {
        changes.push(Change::Time(counter));
    }
    if flags.memory {
        changes.push(Change::Memory(counter));
    }
    Ok(changes)
}
