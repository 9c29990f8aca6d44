//! Processes: registers, stack, heap, and the exception being handled.

mod exception;
mod state;

pub use exception::{Class, Exception};
pub use state::{Process, MAX_X_REGS};
