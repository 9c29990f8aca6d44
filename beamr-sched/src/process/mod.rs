//! Processes: registers, stack, heap, mailbox, signals, and the tables
//! that find a process by pid or registered name.

mod exception;
mod handle;
mod mailbox;
mod signal;
mod state;
pub mod state_bits;
mod table;

pub use exception::{Class, Exception};
pub use handle::ProcessHandle;
pub use mailbox::Mailbox;
pub use signal::{Payload, Signal};
pub use state::{CodeAddr, Process, ReceiveTimer, MAX_X_REGS};
pub use table::{ProcessTable, Registry};
