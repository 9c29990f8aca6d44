//! `Ps`: a row per process, read from the process table under each
//! process's own lock. A process on a scheduler holds that lock for its
//! time slice (about a millisecond, longer when the OS preempts the
//! scheduler); it is tried until the scan's [`BUSY_WAIT`] is spent and
//! then shown as `running` with its other fields empty, so a scan never
//! waits longer than that in all, however many processes are busy. (Tried for only a few microseconds, a process busy most
//! of the time was shown empty in most scans, and `top` lost it.)

use std::sync::TryLockError;
use std::time::{Duration, Instant};

use beamr_core::atom::Atom;
use beamr_core::format::format_p;
use beamr_core::term::Term;
use beamr_sched::code::CodeServer;
use beamr_sched::runtime::Runtime;

use crate::protocol::{ProcessRow, Reply};

/// How long one scan may wait, in all, for busy processes' locks.
const BUSY_WAIT: Duration = Duration::from_millis(50);

/// The pause between two tries of a busy process's lock.
const BUSY_PAUSE: Duration = Duration::from_micros(100);

/// `M:F/A`, the atoms written as Erlang writes them.
pub fn mfa_text((m, f, a): (Atom, Atom, u32)) -> String {
    let opts = Default::default();
    format!(
        "{}:{}/{a}",
        format_p(Term::atom(m), &opts),
        format_p(Term::atom(f), &opts)
    )
}

/// Every process.
pub fn ps(rt: &Runtime) -> Reply {
    let waits_until = Instant::now() + BUSY_WAIT;
    let rows = rt
        .processes
        .pids()
        .into_iter()
        .filter_map(|pid| row(rt, pid, waits_until))
        .collect();
    Reply::Ps(rows)
}

fn row(rt: &Runtime, pid: Term, waits_until: Instant) -> Option<ProcessRow> {
    let handle = rt.processes.get(pid)?;
    let running = ProcessRow {
        pid: format_p(pid, &Default::default()),
        registered_name: None,
        status: "running".into(),
        current_function: None,
        initial_call: None,
        reductions: None,
        memory: None,
        message_queue_len: None,
    };
    loop {
        let body = match handle.body.try_lock() {
            Ok(body) => body,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) if Instant::now() < waits_until => {
                std::thread::sleep(BUSY_PAUSE);
                continue;
            }
            Err(TryLockError::WouldBlock) => return Some(running),
        };
        // Taken out of its body: it is exiting.
        let p = body.as_ref()?;
        return Some(ProcessRow {
            registered_name: p.registered_name.map(|n| n.name().to_string()),
            status: if handle.state.is_waiting() {
                "waiting"
            } else {
                "runnable"
            }
            .into(),
            current_function: CodeServer::global().function_at(p.ip.cast()).map(mfa_text),
            initial_call: Some(mfa_text(p.initial_call)),
            reductions: Some(p.reductions),
            memory: Some(p.memory_bytes().0 as u64),
            message_queue_len: Some(p.mailbox.len() as u64),
            ..running
        });
    }
}
