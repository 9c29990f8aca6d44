//! A connected socket as a distribution channel: once `erlang:setnode/3`
//! hands it to the distribution (erts's distribution port), every packet
//! it reads goes to a [`DistSink`] instead of to its owner, and the
//! distribution writes its frames through [`InetPort::send_dist`].
//!
//! 1. `attach_dist` stores the sink under the state's lock;
//! 2. the reader cuts packets as for any active socket (`{packet, 4}`) and
//!    queues them in the outbox; `flush`, which keeps the order of the
//!    packets under the `delivery` lock, hands each to the sink;
//! 3. when the peer closes, or the port stops, the sink hears of it once
//!    ([`DistSink::closed`]), and the port's links get an exit signal with
//!    reason `connection_closed` (erts's distribution port exits so, which
//!    `net_kernel`, linked to it, takes for the node going down).

use std::sync::Arc;

use super::socket::InetPort;
use crate::runtime::Runtime;

/// The reason a distribution port exits with when its connection ends.
pub(super) fn closed_reason() -> beamr_core::term::Term {
    match beamr_core::atom::Atom::new("connection_closed") {
        Ok(a) => beamr_core::term::Term::atom(a),
        Err(_) => beamr_core::term::Term::atom(beamr_core::atom::Atom::NORMAL),
    }
}

/// Where a distribution port's packets go.
pub trait DistSink: Send + Sync {
    /// One packet the peer sent (a frame without its length header).
    fn packet(&self, rt: &Runtime, bytes: &[u8]);
    /// The connection is gone; `reason` says why (`connection_closed`,
    /// or the exit reason the port was given, such as `disconnect`).
    fn closed(&self, rt: &Runtime, reason: &str);
}

impl InetPort {
    /// Makes the socket a distribution channel whose packets go to `sink`.
    pub fn attach_dist(&self, sink: Arc<dyn DistSink>) {
        self.lock().dist = Some(sink);
    }

    /// True once the socket is a distribution channel.
    pub fn is_dist(&self) -> bool {
        self.lock().dist.is_some()
    }

    /// Writes one distribution frame, framed by the socket's `packet`
    /// option; an error names why it could not (`closed`, `enotconn`).
    pub fn send_dist(&self, frame: &[u8]) -> Result<(), &'static str> {
        let mut st = self.lock();
        self.write(&mut st, frame)
    }

    /// Tells the sink, once, that the connection is gone, and why.
    pub(super) fn dist_closed(&self, rt: &Runtime, reason: &str) {
        let sink = self.lock().dist.take();
        if let Some(sink) = sink {
            sink.closed(rt, reason);
        }
    }
}

impl InetPort {
    /// The socket as a shared handle (while its port lives).
    pub fn arc(&self) -> Option<Arc<InetPort>> {
        self.this.upgrade()
    }
}
