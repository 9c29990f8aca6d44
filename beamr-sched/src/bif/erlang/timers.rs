//! `erlang` timer BIFs: `send_after`, `start_timer`, `cancel_timer`,
//! `read_timer`.

use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Payload, Process};
use crate::runtime::{Runtime, TimerAction};
use crate::signals;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "send_after", 3, send_after),
    ("erlang", "start_timer", 3, start_timer),
    ("erlang", "send_after", 4, send_after4),
    ("erlang", "start_timer", 4, start_timer4),
    ("erlang", "cancel_timer", 1, cancel_timer),
    ("erlang", "cancel_timer", 2, cancel_timer2),
    ("erlang", "read_timer", 1, read_timer),
];

const TIMER_REF_TAG: u32 = 0x7100_0000;

pub(super) fn timer(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
    wrap: bool,
) -> Result<Term, Exception> {
    let ms = a[0]
        .as_small()
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(Exception::badarg)?;
    let to = a[1];
    if !(to.is_local_pid() || to.is_atom()) {
        return Err(Exception::badarg());
    }
    let msg = a[2];
    let id = rt.timers.start(Duration::from_millis(ms), |id| {
        let mut heap = beamr_core::heap::Heap::new();
        let mut term = heap.copy_term(msg);
        if wrap {
            let r = heap.local_ref(timer_ref_ids(id));
            term = heap.tuple(&[Term::atom(Atom::TIMEOUT), r, term]);
        }
        TimerAction::Send {
            to,
            message: Payload {
                term,
                heap: Some(heap),
            },
        }
    });
    Ok(p.heap.local_ref(timer_ref_ids(id)))
}

/// `send_after/4` and `start_timer/4`: the options are `{abs, Bool}`; an
/// absolute time is in monotonic milliseconds.
fn timer_with_options(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
    wrap: bool,
) -> Result<Term, Exception> {
    let mut abs = false;
    for opt in a[3].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_tuple() {
            Some(&[k, v])
                if k.as_atom().is_some_and(|k| k.name() == "abs")
                    && (v == Term::TRUE || v == Term::FALSE) =>
            {
                abs = v == Term::TRUE;
            }
            _ => return Err(Exception::badarg()),
        }
    }
    if !abs {
        return timer(rt, p, &a[..3], wrap);
    }
    let at = a[0].as_small().ok_or_else(Exception::badarg)?;
    let now = crate::bif::common::clocks::monotonic_nanos() / 1_000_000;
    let relative = Term::small_unchecked(at.saturating_sub(now).max(0));
    timer(rt, p, &[relative, a[1], a[2]], wrap)
}

fn send_after4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer_with_options(rt, p, a, false)
}

fn start_timer4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer_with_options(rt, p, a, true)
}

fn timer_ref_ids(id: u64) -> [u32; 3] {
    [id as u32, (id >> 32) as u32, TIMER_REF_TAG]
}

fn send_after(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer(rt, p, a, false)
}

fn start_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer(rt, p, a, true)
}

fn timer_id(t: Term) -> Result<u64, Exception> {
    let r = t.as_ref().ok_or_else(Exception::badarg)?;
    if r.ids[2] != TIMER_REF_TAG {
        return Ok(0);
    }
    Ok(r.ids[0] as u64 | (r.ids[1] as u64) << 32)
}

fn cancel_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let id = timer_id(a[0])?;
    Ok(match rt.timers.cancel(id) {
        Some(left) => p.heap.int(left.as_millis() as i64),
        None => Term::FALSE,
    })
}

/// `cancel_timer(TRef, [{async, A}, {info, I}])`: with `async`, the result
/// comes as a `{cancel_timer, TRef, Result}` message (when `info`, the
/// default) and the call returns `ok`; without `info`, the call returns `ok`.
fn cancel_timer2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (mut asynchronous, mut info) = (false, true);
    for opt in a[1].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_tuple() {
            Some(&[k, v]) if v == Term::TRUE || v == Term::FALSE => {
                match k.as_atom().map(Atom::name) {
                    Some("async") => asynchronous = v == Term::TRUE,
                    Some("info") => info = v == Term::TRUE,
                    _ => return Err(Exception::badarg()),
                }
            }
            _ => return Err(Exception::badarg()),
        }
    }
    let result = cancel_timer(rt, p, &a[..1])?;
    if asynchronous {
        if info {
            let msg = p.heap.tuple(&[
                Term::atom(Atom::new("cancel_timer").expect("atom")),
                a[0],
                result,
            ]);
            signals::deliver_to_self(rt, p, msg);
        }
        return Ok(Term::OK);
    }
    Ok(if info { result } else { Term::OK })
}

fn read_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let id = timer_id(a[0])?;
    Ok(match rt.timers.remaining(id) {
        Some(left) => p.heap.int(left.as_millis() as i64),
        None => Term::FALSE,
    })
}
