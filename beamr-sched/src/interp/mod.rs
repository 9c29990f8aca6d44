//! The interpreter: one dispatch loop over executable instructions, with a
//! reduction budget, and the slow paths it calls out to (exceptions, stack
//! traces, calls that must load code).

mod exceptions;
pub mod ops;
mod run;
pub(crate) mod stacktrace;

pub use run::{run, Outcome};
pub use stacktrace::build_stacktrace;
