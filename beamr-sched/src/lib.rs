//! beamr-sched: the runtime. Code loading, the interpreter, BIFs, processes,
//! mailboxes, signals, links and monitors, timers and schedulers.
//!
//! - [`loader`]: generic instructions to executable code.
//! - [`code`]: the code server (loaded modules, the code path).
//! - [`interp`]: the dispatch loop and its slow paths.
//! - [`bif`]: native BIFs.
//! - [`process`]: a process's registers, stack and heap.
//! - [`sched`]: scheduler threads, run queues and timers.
//! - [`runtime`]: state shared by every process, and the operations across processes.

pub mod bif;
pub mod code;
pub mod ets;
pub mod interp;
pub mod loader;
pub mod process;
pub mod runtime;
pub mod sched;
