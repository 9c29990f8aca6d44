//! The thread that reads a port's output and turns it into messages to
//! the port's owner, in order:
//!
//! 1. `{Port, {data, Data}}` for each chunk the framing cuts (Data a
//!    binary with `binary`, else a list of bytes; `{eol, L}`/`{noeol, L}`
//!    in line mode).
//! 2. At end of output: a last partial line as `{noeol, L}`; then, with
//!    `exit_status`, the wait for the program and `{Port, {exit_status, N}}`;
//!    then, with `eof`, `{Port, eof}` (the port stays open), else the port
//!    exits with reason `normal`.
//!
//! A port that has exited meanwhile gets nothing more: the thread stops
//! reading (the program then gets `SIGPIPE` if it writes again) and only
//! reaps the program.

use std::io::Read;
use std::process::Child;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::framing::{Chunk, Decoder};
use super::options::PortOptions;
use crate::process::Payload;
use crate::runtime::{Port, Runtime};

/// Bytes asked for per read.
const READ_SIZE: usize = 64 * 1024;

/// What the reader thread of one port owns.
pub struct Reader {
    /// The port.
    pub port: Arc<Port>,
    /// Where its output comes from (`None` for an output-only port).
    pub source: Option<Box<dyn std::io::Read + Send>>,
    /// Its program, to wait for.
    pub child: Option<Child>,
    /// Its settings.
    pub options: PortOptions,
}

/// Starts the reader thread.
pub fn start(rt: Arc<Runtime>, reader: Reader) {
    std::thread::spawn(move || run(&rt, reader));
}

fn run(rt: &Runtime, mut r: Reader) {
    let mut decoder = Decoder::new(r.options.framing);
    let mut open = true;
    if let Some(mut source) = r.source.take() {
        let mut buf = vec![0u8; READ_SIZE];
        loop {
            let n = match source.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            open = deliver(rt, &r.port, &r.options, decoder.push(&buf[..n]));
            if !open {
                break;
            }
        }
    } else if let Some(child) = r.child.as_mut() {
        // An output-only port reads nothing, so, as with erts, its
        // program's end goes unnoticed: no exit_status, no eof, and the
        // port stays open until it is closed.
        let _ = child.wait();
        return;
    } else {
        // An output-only descriptor port ends only when closed.
        return;
    }
    let last = decoder.finish();
    if open && !last.is_empty() {
        open = deliver(rt, &r.port, &r.options, last);
    }
    if open {
        let mut last = Vec::new();
        if r.options.exit_status {
            if let Some(status) = r.child.as_mut().and_then(|c| c.wait().ok()) {
                let code = super::open::exit_code(status);
                last.push((
                    0,
                    Payload::build(|h| {
                        let tag = Term::atom(Atom::new("exit_status").expect("atom"));
                        let inner = h.tuple(&[tag, Term::small_unchecked(code)]);
                        h.tuple(&[r.port.id, inner])
                    }),
                ));
            }
        }
        if r.options.eof {
            last.push((
                0,
                Payload::build(|h| {
                    let eof = Term::atom(Atom::new("eof").expect("atom"));
                    h.tuple(&[r.port.id, eof])
                }),
            ));
            rt.port_deliver_all(&r.port, last);
        } else {
            rt.port_exit_after(&r.port, last, Term::atom(Atom::NORMAL));
        }
    }
    if let Some(mut child) = r.child.take() {
        let _ = child.wait();
    }
}

/// Sends `chunks` (what one read gave) to the port's owner, as one task
/// of the port; false when the port has exited.
fn deliver(rt: &Runtime, port: &Port, o: &PortOptions, chunks: Vec<Chunk>) -> bool {
    let messages = chunks
        .into_iter()
        .map(|chunk| {
            let (tag, bytes) = match chunk {
                Chunk::Data(b) => (None, b),
                Chunk::Eol(b) => (Some(Atom::EOL), b),
                Chunk::Noeol(b) => (Some(Atom::NOEOL), b),
            };
            let message = Payload::build(|h| {
                let mut data = bytes_term(h, &bytes, o.binary);
                if let Some(tag) = tag {
                    data = h.tuple(&[Term::atom(tag), data]);
                }
                let inner = h.tuple(&[Term::atom(Atom::DATA), data]);
                h.tuple(&[port.id, inner])
            });
            (bytes.len(), message)
        })
        .collect();
    rt.port_deliver_all(port, messages)
}

/// `bytes` as a binary or a list of bytes.
fn bytes_term(h: &mut Heap, bytes: &[u8], binary: bool) -> Term {
    if binary {
        return h.binary(bytes);
    }
    h.byte_list(bytes, Term::NIL)
}
