//! The interpreter: one dispatch loop over executable instructions, with a
//! reduction budget, and the slow paths it calls out to (exceptions, stack
//! traces, fun calls).
//!
//! - [`run`](fn@run) (`slice`): one slice of a process, its registers
//!   lent for the slice and the live ones kept after.
//! - `run`: the dispatch loop, and `cold`: the instructions it runs out of
//!   line.
//! - `unwind`: raising an exception and finding its handler.
//! - `fun_call`: what a fun or an `apply` runs.
//! - `call_trace` and `return_trace`: calls of functions with trace
//!   patterns, and their returns; `native_outs`: the same for native
//!   code, which calls back into them.
//! - [`stacktrace`]: stack traces as Erlang terms.
//! - [`ops`]: instruction groups with their own files (binaries, maps, receive).

mod call_trace;
mod cold;
mod fun_call;
mod native_outs;
pub mod ops;
mod return_trace;
mod run;
mod slice;
pub(crate) mod stacktrace;
mod unwind;

pub use call_trace::{first_call, run_message_spec, TestHost, TEST_HOST};
pub use run::Outcome;
pub use slice::run;
pub use stacktrace::{build_stacktrace, suspended_at};
