//! The writer of an fd port on the runtime's standard output or standard
//! error (`open_port({fd, In, 1}, ...)`): each `port_command` is written
//! before it returns, as erts's fd driver writes, so that what the port
//! writes and what `io` writes to the same stream (beamr's group leader
//! writes from the calling process too) come out in the order they were
//! written. A port on any other descriptor writes on a thread of its own
//! (`open.rs`).
//!
//! A write that fails ends the port with the error's name (`epipe` once
//! a pipe's reader is gone), as the fd driver does; the port's end is
//! signalled from a thread of its own, since a command runs with the
//! port's lock held.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::errno::errno_name;
use crate::runtime::{PortDriver, Runtime};

/// Which of the runtime's streams a port writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Descriptor 1.
    Stdout,
    /// Descriptor 2.
    Stderr,
}

impl Stream {
    /// The stream of descriptor `fd`, if it is one of the two.
    pub fn of(fd: u32) -> Option<Stream> {
        match fd {
            1 => Some(Stream::Stdout),
            2 => Some(Stream::Stderr),
            _ => None,
        }
    }

    fn write(self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes).and_then(|()| out.flush())
            }
            Stream::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(bytes).and_then(|()| err.flush())
            }
        }
    }
}

/// An fd port's output to standard output or standard error.
pub struct StdWriter {
    id: Term,
    rt: Weak<Runtime>,
    stream: Stream,
    stopped: AtomicBool,
    failed: AtomicBool,
}

impl StdWriter {
    /// The writer of port `id` of `rt` to `stream`.
    pub fn new(id: Term, rt: Weak<Runtime>, stream: Stream) -> Arc<StdWriter> {
        Arc::new(StdWriter {
            id,
            rt,
            stream,
            stopped: AtomicBool::new(false),
            failed: AtomicBool::new(false),
        })
    }
}

impl PortDriver for StdWriter {
    fn output(&self, bytes: &[u8]) {
        if self.failed.load(Ordering::Acquire) {
            return;
        }
        let Err(e) = self.stream.write(bytes) else {
            return;
        };
        if self.failed.swap(true, Ordering::AcqRel) {
            return;
        }
        let reason = errno_name(e.raw_os_error().unwrap_or(0));
        let (rt, id) = (self.rt.clone(), self.id);
        std::thread::spawn(move || {
            if let (Some(rt), Ok(reason)) = (rt.upgrade(), Atom::new(reason)) {
                rt.port_exit(id, Term::atom(reason), None);
            }
        });
    }

    fn control(&self, _command: u32, _data: &[u8]) -> Option<(Vec<u8>, bool)> {
        // The fd driver answers no `port_control`: badarg.
        None
    }

    fn stop(&self, _reason: Term) {
        self.stopped.store(true, Ordering::Release);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}
