//! Requests that only Erlang code can answer (`erl_eval`, `code`, `init`,
//! `erlang:memory/0`, `process_info/2` with its stack trace) run in a fresh
//! process of the runtime, one per request, executing a function of the
//! embedded module `beamr_ctl_agent` (`beamr-ctl/erlang/`, its `.beam`
//! committed beside its source as beamr-sched's embedded modules are).
//!
//! 1. The server thread loads the module if it is not loaded.
//! 2. It spawns `beamr_ctl_agent:F(Args)` as a watched process (its exit
//!    reason is kept for [`Runtime::wait_exit_timeout`]), with the `user`
//!    process as its group leader.
//! 3. The process ends with `exit({beamr_ctl_reply, {ok, V} | {error, Text}})`.
//! 4. The server waits at most [`TIMEOUT`]; a process still running then
//!    is killed and the request fails with a timeout.

use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_sched::code::CodeServer;
use beamr_sched::process::Payload;
use beamr_sched::runtime::Runtime;
use beamr_sched::sched::{SpawnOptions, SpawnTarget};

/// The agent module's name.
pub const MODULE: &str = "beamr_ctl_agent";

/// The agent module, compiled.
const BEAM: &[u8] = include_bytes!("../erlang/beamr_ctl_agent.beam");

/// How long a request may run in the runtime.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The `V` of an agent's `{ok, V}`, on the heap of its exit reason.
pub struct AgentValue {
    /// The exit reason, whose heap holds `value`: kept, never read.
    _reason: Payload,
    value: Term,
}

impl AgentValue {
    /// The value (valid while `self` lives).
    pub fn term(&self) -> Term {
        self.value
    }
}

fn atom(name: &str) -> Result<Atom, String> {
    Atom::new(name).map_err(|e| format!("{name}: {e}"))
}

/// The text of a binary term, or `None`.
pub fn text_of(t: Term) -> Option<String> {
    let bytes = t.as_binary()?.to_vec();
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Whether the runtime has finished booting (its `init` and `user`
/// processes exist), so that a process can run code on it.
pub fn runtime_ready(rt: &Runtime) -> bool {
    let (Ok(init), Ok(user)) = (Atom::new("init"), Atom::new("user")) else {
        return false;
    };
    rt.names.whereis(init).is_some() && rt.names.whereis(user).is_some()
}

/// Spawns `beamr_ctl_agent:function(args)`, the arguments built by `args`
/// on a heap of their own; returns the pid.
fn spawn(
    rt: &Runtime,
    function: &str,
    args: impl FnOnce(&mut Heap) -> Vec<Term>,
    watched: bool,
) -> Result<Term, String> {
    if !runtime_ready(rt) {
        return Err("the runtime is still starting; try again".into());
    }
    let module = atom(MODULE)?;
    let code = CodeServer::global();
    if code.current(module).is_none() {
        code.load_binary(BEAM)
            .map_err(|e| format!("cannot load {MODULE}: {e}"))?;
    }
    let mut heap = Heap::new();
    let args = args(&mut heap);
    let options = SpawnOptions {
        watched,
        group_leader: rt.names.whereis(atom("user")?),
        ..SpawnOptions::default()
    };
    let (pid, _) = rt
        .spawn(
            None,
            SpawnTarget::Mfa(module, atom(function)?),
            &args,
            options,
        )
        .map_err(|_| format!("cannot spawn {MODULE}:{function}"))?;
    Ok(pid)
}

/// Runs `beamr_ctl_agent:function(args)` and waits for its reply: the
/// value of `{ok, V}`, or the text of `{error, Text}` as `Err`.
pub fn call(
    rt: &Runtime,
    function: &str,
    args: impl FnOnce(&mut Heap) -> Vec<Term>,
) -> Result<AgentValue, String> {
    let pid = start(rt, function, args)?;
    let Some(reply) = wait(rt, pid, TIMEOUT) else {
        rt.kill_now(pid);
        let _ = rt.wait_exit_timeout(pid, Duration::from_secs(1));
        return Err(format!(
            "no answer within {} s (the request was killed)",
            TIMEOUT.as_secs()
        ));
    };
    reply
}

/// Starts `beamr_ctl_agent:function(args)`, whose reply [`wait`] reads;
/// its pid.
pub fn start(
    rt: &Runtime,
    function: &str,
    args: impl FnOnce(&mut Heap) -> Vec<Term>,
) -> Result<Term, String> {
    spawn(rt, function, args, true)
}

/// The reply of the process `pid` that [`start`] started, once it has
/// ended; `None` while it still runs after `limit`.
pub fn wait(rt: &Runtime, pid: Term, limit: Duration) -> Option<Result<AgentValue, String>> {
    let payload = rt.wait_exit_timeout(pid, limit)?;
    Some(reply_of(payload.term).map(|value| AgentValue {
        value,
        _reason: payload,
    }))
}

/// Starts `beamr_ctl_agent:function(args)` without waiting for it.
pub fn cast(
    rt: &Runtime,
    function: &str,
    args: impl FnOnce(&mut Heap) -> Vec<Term>,
) -> Result<(), String> {
    spawn(rt, function, args, false).map(|_| ())
}

/// `V` from `{beamr_ctl_reply, {ok, V}}`; `Err` for `{error, Text}` or
/// any other exit reason.
fn reply_of(reason: Term) -> Result<Term, String> {
    let unexpected = || {
        let text = beamr_core::format::format_p(reason, &Default::default());
        format!("the request's process exited with {text}")
    };
    let Some(&[tag, reply]) = reason.as_tuple() else {
        return Err(unexpected());
    };
    if tag.as_atom().map(Atom::name) != Some("beamr_ctl_reply") {
        return Err(unexpected());
    }
    match reply.as_tuple() {
        Some(&[status, value]) => match status.as_atom().map(Atom::name) {
            Some("ok") => Ok(value),
            Some("error") => Err(text_of(value).unwrap_or_else(unexpected)),
            _ => Err(unexpected()),
        },
        _ => Err(unexpected()),
    }
}
