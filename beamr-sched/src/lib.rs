//! beamr-sched: the runtime. Code loading, the interpreter, BIFs, processes,
//! mailboxes, signals, links and monitors, timers and schedulers.
//!
//! Not yet implemented: this crate is the subject of a later issue.
