//! beamr-sched: the runtime. Code loading, the interpreter, BIFs, processes,
//! mailboxes, signals, links and monitors, timers and schedulers.
//!
//! The top-level modules form layers; a module uses only the modules below
//! it (`tests/layers.rs` reads the sources and holds every `crate::` path,
//! doc links included, to this order; it holds `bif`'s wings, drawn in its
//! module doc, to theirs):
//!
//! ```text
//! loom_models  the scheduling protocols' models (`cargo xtask loom`; cfg(loom) only)
//!  |
//! boot       starting a runtime: native BIFs installed, system processes, run_main
//!  |
//! bif        native BIFs in wings by what they implement (erlang, ets, trace, ...)
//!  |
//! dist       distribution: the node's name, connections, control messages
//!  |
//! sched      scheduler threads, time slices, spawning
//!  |
//! interp     the dispatch loop and its slow paths (exceptions, stack traces, funs)
//!  |
//! matchspec  compiled match specifications (ETS select and match)
//!  |
//! code       the code server and the call resolver (M:F/A -> BIF | code | undef)
//!  |
//! loader     generic instructions to executable ones; the native BIF table type
//!  |
//! ports      OS programs behind ports: starting them, their reader and writer threads
//!  |
//! signals    sending, delivering and acting on every signal; a process's end
//!  |
//! runtime    the shared state: process table, names, aliases, run queues, timers, ETS
//!  |
//! ets        ETS tables and their storage
//!  |
//! process    one process: registers, stack, heap, mailbox, handle, signal data
//!  |
//! trace      trace state and probes: per-process flags, sessions, call patterns,
//!            tracers, one function per probe (the BIFs that change them: `bif::trace`)
//!  |
//! sync       the atomics and locks the scheduling protocols use (std's, or loom's)
//! ```
//!
//! Two knots are cut by passing things in rather than reaching up: a BIF
//! gets the runtime and the process as arguments (`loader::BifFn`), and the
//! loader gets the native table from the code layer's resolver, which
//! `Runtime::new` fills from `bif` before any code loads.

pub mod bif;
pub mod boot;
pub mod code;
pub mod dist;
pub mod ets;
pub mod interp;
pub mod loader;
pub mod matchspec;
pub mod ports;
pub mod process;
pub mod runtime;
pub mod sched;
pub mod signals;
pub mod sync;
pub mod trace;

#[cfg(all(test, loom))]
pub mod loom_models;
