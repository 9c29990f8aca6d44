//! A distribution frame from a connected node, as `dist::incoming`
//! handles each packet after the handshake: decoded (`dist::wire`: the
//! pass-through byte, the control tuple and the message in the external
//! format), checked against the protocol and turned into the signal it
//! stands for. Whatever the bytes, the runtime must not panic or abort: a
//! frame is refused with a `BadFrame` (the connection would close), or its
//! signal goes to a process (none exists here, so it is dropped or
//! answered with `noproc`, as erts does). The peer's entry in the node
//! table is dropped after each input, as when its connection closes, so
//! that inputs do not see each other's links and monitors.

#![no_main]

use std::sync::LazyLock;

use beamr_core::atom::Atom;
use beamr_sched::code::CodePath;
use beamr_sched::dist::{connection, incoming};
use beamr_sched::runtime::Runtime;
use libfuzzer_sys::fuzz_target;

static RUNTIME: LazyLock<Runtime> = LazyLock::new(|| Runtime::new(CodePath::new()));

/// The peer the frames come from; the seeds' pids are of this node.
static PEER: LazyLock<Atom> = LazyLock::new(|| Atom::new("peer@fuzz").unwrap_or(Atom::TRUE));

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        // An empty packet is a tick, which never reaches `handle`.
        return;
    }
    let rt = &*RUNTIME;
    let _ = incoming::handle(rt, *PEER, data);
    connection::gone(rt, *PEER, None);
});
