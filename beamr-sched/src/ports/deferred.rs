//! Messages a built-in driver sends its owner in answer to a command.
//!
//! A driver's [`PortDriver::command`](crate::runtime::PortDriver::command)
//! runs with the port's lock held, and sending to the owner takes that
//! lock ([`Runtime::port_deliver`]); so an answer is queued here and sent
//! by one thread once the lock is released. One queue for all ports keeps
//! each port's answers in the order its commands came.

use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, OnceLock, Weak};

use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::Payload;
use crate::runtime::Runtime;

/// One answer waiting to be sent.
struct Answer {
    rt: Weak<Runtime>,
    port: Term,
    bytes: usize,
    message: Payload,
}

static QUEUE: OnceLock<Mutex<Sender<Answer>>> = OnceLock::new();

/// The queue, starting its thread the first time.
fn queue() -> &'static Mutex<Sender<Answer>> {
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Answer>();
        std::thread::Builder::new()
            .name("beamr-port-answers".into())
            .spawn(move || {
                for answer in rx {
                    let Some(rt) = answer.rt.upgrade() else {
                        continue;
                    };
                    // A port that exited meanwhile drops its answer.
                    if let Some(port) = rt.ports.get(answer.port) {
                        rt.port_deliver_all(&port, vec![(answer.bytes, answer.message)]);
                    }
                }
            })
            .expect("spawn the port answer thread");
        Mutex::new(tx)
    })
}

/// Sends the message `build` makes from `port` to its owner (counting
/// `bytes` as the port's input) once the caller has released the port.
pub fn send(rt: Weak<Runtime>, port: Term, bytes: usize, build: impl FnOnce(&mut Heap) -> Term) {
    let answer = Answer {
        rt,
        port,
        bytes,
        message: Payload::build(build),
    };
    let tx = queue().lock().unwrap_or_else(|e| e.into_inner());
    // The thread runs as long as the OS process: the send cannot fail.
    let _ = tx.send(answer);
}
