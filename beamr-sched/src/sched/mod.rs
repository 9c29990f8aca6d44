//! Schedulers: one thread per core by default, each with a local run queue,
//! stealing from the others and from a global injector when idle; and the
//! timer service behind `receive ... after` and `erlang:send_after`.

mod queue;
mod timer;
mod worker;

pub use queue::RunQueues;
pub use timer::{TimerAction, TimerService};
pub use worker::{deliver_signals, run_slice, spawn_schedulers, SliceEnd};
