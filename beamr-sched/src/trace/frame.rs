//! [`ReturnTraceFrame`]: what a call traced by a trace pattern left on its
//! process's stack to report when it returns (see `interp::return_trace`,
//! which pushes and pops them).

use std::sync::Arc;

use beamr_trace::{Mfa, Tracer};

use super::{CallTime, Session};

/// A return-trace frame on a process's stack: what its return or its
/// exception reports.
#[derive(Clone)]
pub struct ReturnTraceFrame {
    /// The stack's length just after the frame was pushed; unwinding below
    /// it discards the frame.
    pub depth: usize,
    /// The traced function.
    pub mfa: Mfa,
    /// What the return reports.
    pub kind: FrameKind,
}

/// What a [`ReturnTraceFrame`] reports.
#[derive(Clone)]
pub enum FrameKind {
    /// `return_from` (`{return_trace}`), and `exception_from` for an
    /// exception through it when `exceptions` (`{exception_trace}`): to the
    /// meta tracer `meta`, else to the process's tracer. With `return_to`
    /// (a local pattern, the process traced with `return_to`), the return
    /// also reports `return_to`.
    Return {
        /// Exceptions report `exception_from`.
        exceptions: bool,
        /// The meta tracer, for a meta pattern's `{return_trace}`.
        meta: Option<Arc<dyn Tracer>>,
        /// The return reports `return_to` too.
        return_to: bool,
        /// The session whose pattern pushed the frame.
        session: Arc<Session>,
    },
    /// `return_to` alone: the end of a chain of tail calls of locally
    /// traced functions reports the function it returns to.
    ReturnTo(Arc<Session>),
    /// A `call_time` pattern's clock: `spent` nanoseconds counted so far,
    /// and the clock runs from `since` (0 while a call_time function it
    /// called runs).
    CallTime {
        /// Where the time goes.
        table: Arc<CallTime>,
        /// Nanoseconds spent in the function so far.
        spent: u64,
        /// When the function last resumed (trace clock), or 0 while paused.
        since: u64,
    },
}

impl std::fmt::Debug for ReturnTraceFrame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            FrameKind::Return { .. } => "return",
            FrameKind::ReturnTo(_) => "return_to",
            FrameKind::CallTime { .. } => "call_time",
        };
        f.debug_struct("ReturnTraceFrame")
            .field("depth", &self.depth)
            .field("mfa", &self.mfa)
            .field("kind", &kind)
            .finish()
    }
}
