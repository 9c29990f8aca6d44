//! beamr-ringbuf: a memory-mapped ring-buffer flight recorder for trace events,
//! readable in or out of process.
//!
//! Not yet implemented: this crate is the subject of a later issue.
