//! `erlang` BIFs that spawn processes: `spawn`, `spawn_link`,
//! `spawn_monitor`, `spawn_opt` and their options.

use super::gc_flags;
use super::process::priority_level;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::gc_settings::MIN_HEAP_SIZE;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::sched::{SpawnOptions, SpawnTarget};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "spawn", 1, spawn1),
    ("erlang", "spawn", 3, spawn3),
    ("erlang", "spawn_link", 1, spawn_link1),
    ("erlang", "spawn_link", 3, spawn_link3),
    ("erlang", "spawn_monitor", 1, spawn_monitor1),
    ("erlang", "spawn_monitor", 3, spawn_monitor3),
    ("erlang", "spawn_opt", 2, spawn_opt2),
    ("erlang", "spawn_opt", 4, spawn_opt4),
    // A process erts keeps out of `init:restart/0`'s reach
    // (`prim_socket:on_load/1` starts the socket registry with it);
    // beamr has no restart, so a plain spawn.
    ("erts_internal", "spawn_system_process", 3, spawn3),
];

fn spawn_with(
    rt: &Runtime,
    p: &mut Process,
    target: SpawnTarget,
    args: Term,
    options: SpawnOptions,
) -> Result<Term, Exception> {
    let args = args.list_to_vec().ok_or_else(Exception::badarg)?;
    let (pid, monitor) = rt.spawn(Some(p), target, &args, options)?;
    Ok(match monitor {
        Some(ids) => {
            let r = p.heap.local_ref(ids);
            p.heap.tuple(&[pid, r])
        }
        None => pid,
    })
}

pub(super) fn mfa_target(m: Term, f: Term) -> Result<SpawnTarget, Exception> {
    match (m.as_atom(), f.as_atom()) {
        (Some(m), Some(f)) => Ok(SpawnTarget::Mfa(m, f)),
        _ => Err(Exception::badarg()),
    }
}

pub(super) fn fun_target(f: Term) -> Result<SpawnTarget, Exception> {
    if f.is_fun() {
        Ok(SpawnTarget::Fun(f))
    } else {
        Err(Exception::badarg())
    }
}

fn spawn1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, fun_target(a[0])?, Term::NIL, SpawnOptions::default())
}

fn spawn3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions::default(),
    )
}

fn spawn_link1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        fun_target(a[0])?,
        Term::NIL,
        SpawnOptions {
            link: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_link3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions {
            link: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_monitor1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        fun_target(a[0])?,
        Term::NIL,
        SpawnOptions {
            monitor: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_monitor3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions {
            monitor: true,
            ..SpawnOptions::default()
        },
    )
}

/// `spawn_opt`'s options. A `max_heap_size` is checked against the final
/// `min_heap_size`. As on the BEAM, `min_bin_vheap_size` is checked but
/// leaves the child's reported value at its default.
fn spawn_options(opts: Term) -> Result<SpawnOptions, Exception> {
    let mut parsed = ParsedOptions::default();
    for opt in opts.list_to_vec().ok_or_else(Exception::badarg)? {
        if !parsed.take(opt)? {
            return Err(Exception::badarg());
        }
    }
    parsed.finish()
}

/// Spawn options as they are read, one at a time (`spawn_opt`'s, and the
/// ones `spawn_request` shares with it).
#[derive(Default, Clone)]
pub(super) struct ParsedOptions {
    options: SpawnOptions,
    max_heap: Option<Term>,
}

impl ParsedOptions {
    /// Takes one option: `Ok(false)` when it is not a spawn option at all,
    /// an error when it is one with a bad value.
    pub(super) fn take(&mut self, opt: Term) -> Result<bool, Exception> {
        let o = &mut self.options;
        match opt.as_atom().map(Atom::name) {
            Some("link") => o.link = true,
            Some("monitor") => o.monitor = true,
            Some(_) => return Ok(false),
            None => {
                let Some(&[k, v]) = opt.as_tuple() else {
                    return Ok(false);
                };
                match k.as_atom().map(Atom::name) {
                    Some("priority") => o.priority = Some(priority_level(v)?),
                    Some("min_heap_size") => o.min_heap_size = Some(gc_flags::min_heap_size(v)?),
                    Some("min_bin_vheap_size") => {
                        gc_flags::min_bin_vheap_size(v)?;
                    }
                    Some("fullsweep_after") => {
                        o.fullsweep_after = Some(gc_flags::fullsweep_after(v)?)
                    }
                    Some("max_heap_size") => self.max_heap = Some(v),
                    Some("message_queue_data") => {
                        o.gc.off_heap_messages = gc_flags::message_queue_data(v)?
                    }
                    Some("async_dist") if crate::code::otp_release() >= 26 => {
                        o.async_dist = super::arith::boolean(v)?;
                    }
                    _ => return Ok(false),
                }
            }
        }
        Ok(true)
    }

    /// The options, once every one is read.
    pub(super) fn finish(self) -> Result<SpawnOptions, Exception> {
        let mut o = self.options;
        if let Some(v) = self.max_heap {
            let min = o.min_heap_size.unwrap_or(MIN_HEAP_SIZE);
            o.max_heap_size = Some(gc_flags::max_heap_size(v, min, false)?);
        }
        Ok(o)
    }
}

fn spawn_opt2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, fun_target(a[0])?, Term::NIL, spawn_options(a[1])?)
}

fn spawn_opt4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, mfa_target(a[0], a[1])?, a[2], spawn_options(a[3])?)
}
