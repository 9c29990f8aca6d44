//! The writer of an fd port (`open_port({fd, In, Out}, ...)`): each
//! `port_command` is written to descriptor `Out` before it returns, as
//! erts's fd driver writes, so that what the port writes and what `io`
//! writes to the same stream (beamr's group leader writes from the
//! calling process too), or what two ports write to one descriptor, come
//! out in the order it was written.
//!
//! Standard output and error are the runtime's own; any other descriptor
//! is the file [`super::fd`] reopened, one for all the ports on it. A
//! descriptor that could not be reopened ends the port with that reason
//! at its first write, and a write that fails ends the port with the
//! error's name (`epipe` once a pipe's reader is gone), as the fd driver
//! does; the port's end is signalled from a thread of its own, since a
//! command runs with the port's lock held.

use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::errno::errno_name;
use crate::runtime::{PortDriver, Runtime};

/// Where a port's output goes.
#[derive(Debug)]
pub enum Target {
    /// Descriptor 1.
    Stdout,
    /// Descriptor 2.
    Stderr,
    /// Any other descriptor, reopened (shared by the ports on it).
    File(Arc<File>),
    /// A descriptor that could not be reopened: why (an errno's name).
    Unusable(String),
}

impl Target {
    /// The target of descriptor `fd`.
    pub fn of(fd: u32) -> Target {
        match fd {
            1 => Target::Stdout,
            2 => Target::Stderr,
            _ => match super::fd::shared_writer(fd) {
                Ok(file) => Target::File(file),
                Err(reason) => Target::Unusable(reason),
            },
        }
    }

    /// Writes `bytes`; the errno's name when that fails.
    fn write(&self, bytes: &[u8]) -> Result<(), String> {
        let name = |e: std::io::Error| errno_name(e.raw_os_error().unwrap_or(0)).to_string();
        match self {
            Target::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(name)
            }
            Target::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(bytes)
                    .and_then(|()| err.flush())
                    .map_err(name)
            }
            Target::File(file) => {
                let mut file: &File = file;
                file.write_all(bytes)
                    .and_then(|()| file.flush())
                    .map_err(name)
            }
            Target::Unusable(reason) => Err(reason.clone()),
        }
    }
}

/// An fd port's output.
pub struct FdWriter {
    id: Term,
    rt: Weak<Runtime>,
    target: Target,
    stopped: AtomicBool,
    failed: AtomicBool,
}

impl FdWriter {
    /// The writer of port `id` of `rt` to `target`.
    pub fn new(id: Term, rt: Weak<Runtime>, target: Target) -> Arc<FdWriter> {
        Arc::new(FdWriter {
            id,
            rt,
            target,
            stopped: AtomicBool::new(false),
            failed: AtomicBool::new(false),
        })
    }
}

impl PortDriver for FdWriter {
    fn output(&self, bytes: &[u8]) {
        if self.failed.load(Ordering::Acquire) {
            return;
        }
        let Err(reason) = self.target.write(bytes) else {
            return;
        };
        if self.failed.swap(true, Ordering::AcqRel) {
            return;
        }
        let (rt, id) = (self.rt.clone(), self.id);
        std::thread::spawn(move || {
            if let (Some(rt), Ok(reason)) = (rt.upgrade(), Atom::new(&reason)) {
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
