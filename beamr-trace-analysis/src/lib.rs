//! beamr-trace-analysis: reading and analysing the ring-buffer trace files
//! that [`beamr_ringbuf`] writes (format in `beamr-ringbuf/docs/format.md`),
//! as a library, so that `beamr trace`, an embedder, or anything else that
//! holds a flight recording shares one implementation.
//!
//! Every function returns data or writes to the [`std::io::Write`] it is
//! given, and fails with an [`Error`]; nothing here prints on its own or
//! exits. Writers are written in many small pieces: hand them buffered.
//!
//! - [`error`]: [`Error`], why an analysis failed;
//! - [`read`]: opening a file, delivering its events and losses with their
//!   names, and keeping the per-ring books (delivered, lost, corrupt);
//! - [`render`]: pids, functions, terms and times as text, and one text or
//!   JSON line per event or loss;
//! - [`dump`]: every event of a file, one line each, in timestamp order;
//! - [`stats`]: counts per kind and per ring, the time span, the losses;
//! - [`export_chrome`]: Chrome trace-event JSON, for Perfetto and
//!   `chrome://tracing`;
//! - [`flame`]: call/return events folded into weighted stacks, written as
//!   collapsed stacks or as a flame graph SVG (drawn by `inferno`);
//! - [`seq`]: one `seq_trace` label as a Mermaid sequence diagram;
//! - [`tail`]: following a file while it is written.
//!
//! The modules have one order: each uses only those below it (held by
//! `tests/layering.rs`).
//!
//! ```text
//! tail
//! dump  stats  export_chrome  flame  seq
//! render
//! read
//! error
//! ```
#![forbid(unsafe_code)]

pub mod dump;
pub mod error;
pub mod export_chrome;
pub mod flame;
pub mod read;
pub mod render;
pub mod seq;
pub mod stats;
pub mod tail;

pub use error::Error;
