//! beamr-ringbuf: a memory-mapped ring-buffer flight recorder for trace events,
//! readable in or out of process.
//!
//! `beamr run --trace FLAGS --trace-to ring:FILE` feeds it from the
//! runtime's probes, one ring per scheduler; tests, benchmarks and the
//! [`synthetic`] generator write files too.
//!
//! One file holds a header, one ring per writer thread, and a string table
//! (the format is specified in `docs/format.md` and encoded in [`layout`]).
//! Writers never block, allocate or make a system call; when a ring is full
//! the oldest events are overwritten. Readers ([`Cursor`]) never slow the
//! writers, detect events overwritten while they copied them, verify every
//! event's checksum and the headers' values against each other, and report
//! every event they could not deliver as lost (and those damaged as such).
//!
//! ```no_run
//! use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, StringTable};
//! let rec = Recorder::create(Options::new(2).path("/tmp/demo.trace").preserve(true))?;
//! let mut w = rec.writer(1).unwrap();
//! w.write_now(7, &[1, 2]);
//! struct Print;
//! impl Callbacks for Print {
//!     fn event(&mut self, e: &Event<'_>, _: &StringTable) { println!("{e:?}"); }
//!     fn lost(&mut self, ring: usize, n: u64) { println!("ring {ring}: {n} lost"); }
//! }
//! Cursor::open("/tmp/demo.trace")?.poll(&mut Print);
//! # Ok::<(), beamr_ringbuf::Error>(())
//! ```
//!
//! - [`layout`]: offsets, sizes, the event header word.
//! - [`ring`] (private): the writer protocol and its memory orderings.
//! - [`Recorder`], [`RingWriter`], [`Options`]: creating and writing a file.
//! - [`RingTracer`]: beamr-trace's `Tracer`, one ring per scheduler.
//! - [`codec`]: the layout of each trace event; [`summary`]: term sketches;
//!   [`counters`]: the layout of counts over an interval.
//! - [`Cursor`]: reading, merging, loss accounting.
//! - [`synthetic`]: a generator of BEAM-like trace files for demos and tests.

pub mod clock;
pub mod codec;
pub mod counters;
mod cursor;
mod error;
mod file;
pub mod layout;
mod reader;
mod recorder;
mod region;
mod ring;
mod strings;
pub mod summary;
pub mod synthetic;
mod tracer;

pub use codec::{Body, DecodeError, MfaRef, Proc, TraceRecord};
pub use cursor::{Callbacks, Cursor, Event, FileInfo};
pub use error::Error;
pub use layout::Category;
pub use reader::RingState;
pub use recorder::{Options, Recorder, RingWriter, ENV_PRESERVE, ENV_TRACE_DIR};
pub use strings::StringTable;
pub use summary::{SummaryKind, TermSummary};
pub use tracer::RingTracer;
