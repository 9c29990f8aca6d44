//! Following a trace file while it is written (`beamr trace tail FILE`):
//! new events (merged into timestamp order per poll) and losses are written
//! as [`dump`](crate::dump) writes them, until one of:
//!
//! - the caller's `interrupted` flag is set (`beamr trace tail` sets it on
//!   SIGINT, Ctrl-C);
//! - the writing process has exited (its pid, from the file header, is no
//!   longer a live process; checked through `/proc` where there is one),
//!   after which the rest of the file is read and the books closed;
//! - [`TailOptions::max_events`] events written, or
//!   [`TailOptions::deadline`] passed;
//! - the output is a pipe whose reader has gone.
//!
//! A damaged event (a bad checksum, an impossible header) or a corrupt ring
//! does not end it: the loss is written where it was found, as a `lost`
//! line, the other rings and the events past a damaged one are still
//! followed, and [`Summary::corrupt`] says what was found
//! ([`Summary::check`] turns it into the error `dump` gives).
//!
//! It polls: when a poll finds nothing new it sleeps
//! [`TailOptions::interval`]. [`follow`] returns a [`Summary`] of what it
//! wrote and why it stopped (`beamr trace tail` prints it to standard
//! error, so standard output holds only events).

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use beamr_ringbuf::Cursor;

use crate::dump::write_item;
use crate::error::Error;
use crate::read::{check_corrupt, Item, Sink};
use crate::render::LineFormat;

/// [`follow`]'s options.
#[derive(Clone, Debug)]
pub struct TailOptions {
    /// Output format.
    pub format: LineFormat,
    /// Skip the events already in the file.
    pub new: bool,
    /// Stop after this many events.
    pub max_events: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Sleep between empty polls.
    pub interval: Duration,
}

/// Why following stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The `interrupted` flag was set.
    Interrupted,
    /// The writing process has exited; the whole file has been read.
    WriterExited {
        /// Its pid, from the file header.
        pid: u64,
    },
    /// [`TailOptions::max_events`] events were written.
    MaxEvents,
    /// [`TailOptions::deadline`] passed.
    Timeout,
    /// The output was a pipe whose reader has gone.
    OutputClosed,
}

/// What [`follow`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Events written.
    pub printed: u64,
    /// Events reported lost (damaged ones included).
    pub lost: u64,
    /// One line per corrupt ring and per damaged stretch of a ring found,
    /// in the order found.
    pub corrupt: Vec<String>,
    /// Why it stopped.
    pub stop: Stop,
}

impl Summary {
    /// [`Error::Corrupt`] for `path` when anything corrupt was found, as
    /// `dump` fails on the same file.
    pub fn check(&self, path: &Path) -> Result<(), Error> {
        check_corrupt(path, &self.corrupt)
    }
}

/// Follows `cursor`, writing to `out` (flushed after every poll) until a
/// reason to [`Stop`]. An output error other than a closed pipe ends it
/// with an error; corruption does not (see the module's doc).
pub fn follow(
    cursor: &mut Cursor,
    opts: &TailOptions,
    interrupted: &AtomicBool,
    out: &mut impl Write,
) -> Result<Summary, Error> {
    let info = cursor.info();
    let (t0, writer) = (info.created_monotonic_ns, info.writer_pid);
    if opts.new {
        let mut skip = Sink::new(cursor.ring_count(), |_| Ok(()));
        cursor.poll(&mut skip);
    }
    let mut printed = 0u64;
    let mut lost = 0u64;
    let mut corrupt = Vec::new();
    let stop = loop {
        if interrupted.load(Ordering::Relaxed) {
            break Stop::Interrupted;
        }
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            break Stop::Timeout;
        }
        // Checked before polling: if the writer was gone then, this poll
        // reads everything it wrote.
        let gone = writer_gone(writer);
        let mut step = Step {
            cursor: &mut *cursor,
            out: &mut *out,
            opts,
            t0,
            printed: &mut printed,
            lost: &mut lost,
            corrupt: &mut corrupt,
        };
        let Some(n) = step.poll(gone)? else {
            break Stop::OutputClosed;
        };
        if opts.max_events.is_some_and(|m| printed >= m) {
            break Stop::MaxEvents;
        }
        if gone {
            break Stop::WriterExited { pid: writer };
        }
        if n == 0 {
            std::thread::sleep(opts.interval);
        }
    };
    Ok(Summary {
        printed,
        lost,
        corrupt,
        stop,
    })
}

/// One poll's worth of work.
struct Step<'a, W: Write> {
    cursor: &'a mut Cursor,
    out: &'a mut W,
    opts: &'a TailOptions,
    t0: u64,
    printed: &'a mut u64,
    lost: &'a mut u64,
    corrupt: &'a mut Vec<String>,
}

impl<W: Write> Step<'_, W> {
    /// Writes what is new (and, when `last`, closes the books); returns the
    /// number of events read, or `None` when the output was closed. An
    /// output error ends `tail`; corruption found is added to `corrupt`.
    fn poll(&mut self, last: bool) -> Result<Option<usize>, Error> {
        let (opts, t0) = (self.opts, self.t0);
        let (printed, lost, out) = (&mut *self.printed, &mut *self.lost, &mut *self.out);
        let mut sink = Sink::new(self.cursor.ring_count(), |item: Item<'_, '_>| {
            match item {
                Item::Event(..) if opts.max_events.is_some_and(|m| *printed >= m) => return Ok(()),
                Item::Event(..) => *printed += 1,
                Item::Lost { count, .. } => *lost += count,
            }
            write_item(out, &item, opts.format, t0)
        });
        let mut n = self.cursor.poll_merged(&mut sink);
        if last {
            n += self.cursor.finish(&mut sink);
        }
        let (error, totals) = (sink.error, sink.totals);
        if let Some(e) = error.map(Err).unwrap_or_else(|| self.out.flush()).err() {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(None);
            }
            return Err(Error::Output(e));
        }
        self.corrupt.extend(totals.corrupt);
        Ok(Some(n))
    }
}

/// True when process `pid` is known to have exited (or is a zombie); false
/// when it runs or when this system cannot tell.
fn writer_gone(pid: u64) -> bool {
    if pid == 0 || !Path::new("/proc/self").exists() {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state is the first field after the command name's `)`.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| matches!(state, "Z" | "X")),
        Err(_) => true,
    }
}
