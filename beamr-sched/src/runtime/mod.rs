//! The state one runtime shares between its processes and threads.
//!
//! - [`shared_state`]: [`Runtime`], the tables (processes, names, aliases,
//!   run queues, timers, ETS).
//! - [`port_table`]: [`PortTable`], the live ports and their state.
//! - [`pending_output`]: what ports' writer threads have yet to write,
//!   which the runtime waits for before it exits.
//! - [`run_queue`]: where runnable processes wait for a scheduler.
//! - [`timer_service`]: the thread that fires timers.
//! - [`stats`]: [`RuntimeStats`], a snapshot of the runtime for metrics.
//! - [`at_halt`]: work an embedder runs when the runtime halts.

pub mod at_halt;
pub mod pending_output;
mod port_table;
mod run_queue;
mod shared_state;
mod stats;
mod timer_service;
mod wake_other;

pub use port_table::{Port, PortData, PortDriver, PortSink, PortState, PortTable, Sent};
pub use run_queue::{RunQueues, SLICE_REDUCTIONS};
pub use shared_state::{AliasMode, Runtime};
pub use stats::RuntimeStats;
pub use timer_service::{TimerAction, TimerService};
