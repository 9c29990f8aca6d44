//! [`ReturnTraceFrame`]: what a call traced by a trace pattern left on its
//! process's stack to report when it returns (see `interp::return_trace`,
//! which pushes and pops them).

use std::sync::Arc;

use beamr_trace::{Mfa, Tracer};

use super::{CallTotals, Session};

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
    /// A `call_time` or `call_memory` pattern's meter: `spent` (nanoseconds
    /// or words) counted so far, and it runs from the reading `since`
    /// (`None` while a function it called, metered the same way, runs).
    Metered {
        /// What is measured.
        meter: Meter,
        /// Where the total goes.
        table: Arc<CallTotals>,
        /// Counted in the function so far.
        spent: u64,
        /// The meter's reading when the function last resumed, or `None`
        /// while paused.
        since: Option<u64>,
    },
}

/// What a [`FrameKind::Metered`] frame measures.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Meter {
    /// `call_time`: nanoseconds on the trace clock.
    Time,
    /// `call_memory`: words allocated on the process's heap.
    Memory,
}

impl std::fmt::Debug for ReturnTraceFrame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            FrameKind::Return { .. } => "return",
            FrameKind::ReturnTo(_) => "return_to",
            FrameKind::Metered {
                meter: Meter::Time, ..
            } => "call_time",
            FrameKind::Metered {
                meter: Meter::Memory,
                ..
            } => "call_memory",
        };
        f.debug_struct("ReturnTraceFrame")
            .field("depth", &self.depth)
            .field("mfa", &self.mfa)
            .field("kind", &kind)
            .finish()
    }
}
