//! One module per request: what the server gathers from the runtime to
//! answer it. Each takes the runtime and the request's fields and gives the
//! reply; none stops a scheduler (a process is read under its own lock,
//! which a scheduler holds only for a time slice, or by a process of the
//! runtime's own, see [`crate::agent`]).

pub mod code;
pub mod eval;
pub mod hello;
pub mod info;
pub mod ps;
pub mod state;
pub mod stats;
pub mod stop;

use crate::protocol::{ErrorKind, ErrorReply, Reply};

/// A [`Reply::Error`] of kind [`ErrorKind::Failed`].
pub fn failed(message: impl Into<String>) -> Reply {
    Reply::Error(ErrorReply {
        kind: ErrorKind::Failed,
        message: message.into(),
    })
}
