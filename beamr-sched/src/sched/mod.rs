//! Schedulers: one thread per core by default, each taking runnable
//! processes from the run queues and running them for a time slice; and
//! spawning, which makes new processes runnable.

mod exiting;
mod internal_error;
mod max_heap_report;
mod spawn;
mod worker;

pub use spawn::{SpawnOptions, SpawnTarget};
pub use worker::{run_slice, spawn_schedulers, SliceEnd, SLICE_REDUCTIONS};
