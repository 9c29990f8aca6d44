//! The clock of events that do not come with their own timestamp: the
//! trace clock of beamr-trace, the one the runtime stamps events with, so
//! the file header's creation time and the events compare.

pub use beamr_trace::clock::now_ns;
