//! `erlang:spawn_request/1..5` and `spawn_request_abandon/1`: the
//! asynchronous spawn that `erpc`, `rpc` and `peer` use.
//!
//! A request returns its id, a reference, at once; the caller is then told
//! how it went by a message, `{ReplyTag, ReqId, ok, Pid}` or
//! `{ReplyTag, ReqId, error, Reason}` (`ReplyTag` is `spawn_reply` unless
//! `{reply_tag, T}` says otherwise; `{reply, yes | no | error_only |
//! success_only}` says which of the two are sent). With `monitor`, the
//! monitor's reference is the request id.
//!
//! As on the BEAM, arguments of the wrong shape raise `badarg` (an options
//! list that is not a proper list, with `cause => badopt`), while an option
//! list that holds an unknown or bad option makes a request that fails with
//! `badopt`. A request for another node goes through its connection
//! (`dist::spawn`); one that cannot be made fails with `noconnection`. A
//! local spawn completes before the call returns, so there is nothing left
//! to abandon.

use super::misc::fun_arity;
use super::spawn::{fun_target, mfa_target, ParsedOptions};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::{AliasMode, Runtime};
use crate::sched::SpawnTarget;
use crate::signals;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "spawn_request", 1, spawn_request1),
    ("erlang", "spawn_request", 2, spawn_request2),
    ("erlang", "spawn_request", 3, spawn_request3),
    ("erlang", "spawn_request", 4, spawn_request4),
    ("erlang", "spawn_request", 5, spawn_request5),
    ("erlang", "spawn_request_abandon", 1, spawn_request_abandon),
];

/// What a request's arguments name: where, what to run, with which
/// arguments and options.
struct Request {
    node: Term,
    target: SpawnTarget,
    args: Term,
    options: Term,
}

fn spawn_request1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    request(rt, p, fun_request(node(), a[0], Term::NIL)?)
}

/// `(Fun, Options)` or `(Node, Fun)`.
fn spawn_request2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let r = if a[0].is_fun() {
        fun_request(node(), a[0], a[1])?
    } else {
        fun_request(a[0], a[1], Term::NIL)?
    };
    request(rt, p, r)
}

/// `(Node, Fun, Options)` or `(Module, Function, Args)`; anything else is
/// read, as OTP's erlang.erl reads it, as `(Node, Module, Function)`.
fn spawn_request3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mfa = a[0].as_atom().is_some() && a[1].as_atom().is_some() && a[2].list_to_vec().is_some();
    let r = if a[1].is_fun() {
        fun_request(a[0], a[1], a[2])?
    } else if mfa {
        mfa_request(node(), a[0], a[1], a[2], Term::NIL)?
    } else {
        // As erlang.erl reads it then: (Node, Module, Function), no arguments.
        mfa_request(a[0], a[1], a[2], Term::NIL, Term::NIL)?
    };
    request(rt, p, r)
}

/// `(Node, Module, Function, Args)` or `(Module, Function, Args, Options)`.
fn spawn_request4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let r = if a[2].as_atom().is_some() {
        mfa_request(a[0], a[1], a[2], a[3], Term::NIL)?
    } else {
        mfa_request(node(), a[0], a[1], a[2], a[3])?
    };
    request(rt, p, r)
}

fn spawn_request5(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    request(rt, p, mfa_request(a[0], a[1], a[2], a[3], a[4])?)
}

/// A local request has completed when `spawn_request` returned, and no
/// other kind exists: `false` for any reference.
fn spawn_request_abandon(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0].as_ref().is_none() {
        return Err(Exception::badarg());
    }
    Ok(Term::FALSE)
}

/// This node's name.
fn node() -> Term {
    Term::atom(crate::dist::node::name())
}

/// A fun of arity 0 to run on `node`.
fn fun_request(node: Term, fun: Term, options: Term) -> Result<Request, Exception> {
    let target = fun_target(fun)?;
    if fun_arity(fun) != Some(0) {
        return Err(Exception::badarg());
    }
    checked(Request {
        node,
        target,
        args: Term::NIL,
        options,
    })
}

/// `module:function(Args...)` to run on `node`.
fn mfa_request(
    node: Term,
    m: Term,
    f: Term,
    args: Term,
    options: Term,
) -> Result<Request, Exception> {
    let target = mfa_target(m, f)?;
    if args.list_to_vec().is_none() {
        return Err(Exception::badarg());
    }
    checked(Request {
        node,
        target,
        args,
        options,
    })
}

/// The checks every request passes before it is made: a node name and a
/// proper list of options.
fn checked(r: Request) -> Result<Request, Exception> {
    if r.node.as_atom().is_none() {
        return Err(Exception::badarg());
    }
    if r.options.list_to_vec().is_none() {
        // Only a local request names the options as the cause.
        return Err(match r.node == node() {
            true => Exception::badarg_cause(atom("badopt")),
            false => Exception::badarg(),
        });
    }
    Ok(r)
}

/// Which replies the caller gets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reply {
    Yes,
    No,
    ErrorOnly,
    SuccessOnly,
}

impl Reply {
    fn on_success(self) -> bool {
        matches!(self, Reply::Yes | Reply::SuccessOnly)
    }

    fn on_error(self) -> bool {
        matches!(self, Reply::Yes | Reply::ErrorOnly)
    }
}

/// The options as read: the reply's tag and kind, any alias of the monitor,
/// the spawn options, and whether every option was good.
struct Options {
    tag: Term,
    reply: Reply,
    alias: Option<AliasMode>,
    spawn: ParsedOptions,
    bad: bool,
}

/// Reads every option (a later `reply_tag` or `reply` wins); a bad one
/// only marks the request bad, so that the error reply still goes with
/// the tag and kind the others ask for.
fn read_options(options: Term) -> Options {
    let mut o = Options {
        tag: atom("spawn_reply"),
        reply: Reply::Yes,
        alias: None,
        spawn: ParsedOptions::default(),
        bad: false,
    };
    for opt in options.list_to_vec().unwrap_or_default() {
        let pair = opt.as_tuple().filter(|t| t.len() == 2);
        let key = pair.and_then(|t| t[0].as_atom()).map(Atom::name);
        match (key, pair) {
            (Some("reply_tag"), Some(t)) => o.tag = t[1],
            (Some("reply"), Some(t)) => match t[1].as_atom().map(Atom::name) {
                Some("yes") => o.reply = Reply::Yes,
                Some("no") => o.reply = Reply::No,
                Some("error_only") => o.reply = Reply::ErrorOnly,
                Some("success_only") => o.reply = Reply::SuccessOnly,
                _ => o.bad = true,
            },
            (Some("monitor"), Some(t)) => match monitor_alias(t[1]) {
                Some(alias) => {
                    o.alias = alias.or(o.alias);
                    o.bad |= !matches!(o.spawn.take(atom("monitor")), Ok(true));
                }
                None => o.bad = true,
            },
            _ => o.bad |= !matches!(o.spawn.take(opt), Ok(true)),
        }
    }
    o
}

/// A `{monitor, MonitorOptions}` option's alias: `Some(None)` for none,
/// `None` when the options are not ones beamr takes. (`{tag, T}` is not
/// taken: beamr's monitors have no custom tag yet.)
fn monitor_alias(options: Term) -> Option<Option<AliasMode>> {
    let mut alias = None;
    for opt in options.list_to_vec()? {
        let pair = opt.as_tuple().filter(|t| t.len() == 2)?;
        if pair[0].as_atom().map(Atom::name) != Some("alias") {
            return None;
        }
        alias = Some(match pair[1].as_atom().map(Atom::name)? {
            "explicit_unalias" => AliasMode::Explicit,
            "demonitor" => AliasMode::Demonitor,
            "reply_demonitor" => AliasMode::ReplyDemonitor,
            _ => return None,
        });
    }
    Some(alias)
}

/// Makes the request: a spawn here, or a failure for another node.
fn request(rt: &Runtime, p: &mut Process, r: Request) -> Result<Term, Exception> {
    let o = read_options(r.options);
    if r.node != node() {
        // A node that is not alive checks nothing more (erts).
        if !crate::dist::node::is_alive() {
            return Ok(failed(rt, p, &o, atom("noconnection")));
        }
        if o.bad {
            return Ok(failed(rt, p, &o, atom("badopt")));
        }
        return Ok(remote(rt, p, &o, r));
    }
    if o.bad {
        return Ok(failed(rt, p, &o, atom("badopt")));
    }
    let mut options = o.spawn.finish()?;
    options.request = true;
    options.spawn_reply = o.reply.on_success().then_some(o.tag);
    let args = r.args.list_to_vec().ok_or_else(Exception::badarg)?;
    let (_, ids) = rt.spawn(Some(p), r.target, &args, options)?;
    let ids = ids.ok_or_else(Exception::badarg)?;
    if let (Some(mode), true) = (o.alias, options.monitor) {
        rt.aliases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(ids, (p.pid, mode));
    }
    Ok(p.heap.local_ref(ids))
}

/// A request for another node: sent through its connection (a fun to run
/// goes as `erlang:apply(Fun, [])`), or failed with `noconnection`.
fn remote(rt: &Runtime, p: &mut Process, o: &Options, r: Request) -> Term {
    let (Some(node), Ok(spawn)) = (r.node.as_atom(), o.spawn.clone().finish()) else {
        return failed(rt, p, o, atom("badarg"));
    };
    let (m, f, args) = match r.target {
        SpawnTarget::Mfa(m, f) => (m, f, r.args),
        SpawnTarget::Fun(fun) => {
            let args = p.heap.list(&[fun, Term::NIL]);
            (
                Atom::ERLANG,
                Atom::new("apply").unwrap_or(Atom::ERLANG),
                args,
            )
        }
    };
    let request = crate::dist::spawn::Request {
        m,
        f,
        args,
        link: spawn.link,
        monitor: spawn.monitor,
        tag: o.tag,
        on_success: o.reply.on_success(),
        on_error: o.reply.on_error(),
    };
    match crate::dist::spawn::request(rt, p, node, request) {
        Some(id) => {
            if let (Some(mode), true) = (o.alias, spawn.monitor) {
                if let Some(ids) = id.as_ref().map(|r| [r.ids[0], r.ids[1], r.ids[2]]) {
                    rt.aliases
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(ids, (p.pid, mode));
                }
            }
            id
        }
        None => failed(rt, p, o, atom("noconnection")),
    }
}

/// A request that failed with `reason`: its id, and the error reply when
/// the options ask for one.
fn failed(rt: &Runtime, p: &mut Process, o: &Options, reason: Term) -> Term {
    let request = p.heap.local_ref(rt.new_ref_ids());
    if o.reply.on_error() {
        let reply = p
            .heap
            .tuple(&[o.tag, request, Term::atom(Atom::ERROR), reason]);
        signals::deliver_to_self(rt, p, reply);
    }
    request
}
