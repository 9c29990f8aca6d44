//! Processes: registers, stack, heap, mailbox, signals, and the tables
//! that find a process by pid or registered name.

mod body;
mod directory;
mod exception;
mod exiting;
pub mod gc_settings;
mod handle;
pub(crate) mod inbox;
mod mailbox;
mod max_heap;
mod owned;
pub mod registers;
pub mod run_state;
mod signal;

pub use crate::trace::ReturnTraceFrame;
pub use body::{CodeAddr, Process, ReceiveTimer};
pub use directory::{ProcessTable, Registry};
pub use exception::{Class, Exception};
pub use exiting::ExitWork;
pub use gc_settings::{GcSettings, MaxHeapSize};
pub use handle::ProcessHandle;
pub use mailbox::Mailbox;
pub use max_heap::MaxHeapReached;
pub use owned::{OwnedResource, OwnedResources};
pub use registers::{RegisterFile, MAX_FLOAT_REGS, MAX_X_REGS};
pub use signal::{Payload, Signal};
