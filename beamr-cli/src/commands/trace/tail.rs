//! `beamr trace tail FILE`: follows a trace file while it is written,
//! printing new events (merged into timestamp order per poll) and losses as
//! `dump` does, until one of:
//!
//! - SIGINT (Ctrl-C), after which it prints what it has and exits with 0;
//! - the writing process has exited (its pid, from the file header, is no
//!   longer a live process; checked through `/proc` where there is one),
//!   after which the rest of the file is read and the books closed;
//! - `--max-events N` events printed, or `--timeout SECONDS` elapsed.
//!
//! It polls: when a poll finds nothing new it sleeps `--interval`
//! milliseconds. A summary line (`# N events, M lost: why it stopped`) goes
//! to standard error, so standard output holds only events.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use beamr_ringbuf::Cursor;

use super::dump::write_item;
use super::read::{self, Item, Sink};
use super::LineFormat;

/// `tail`'s options.
#[derive(Clone, Debug)]
pub struct TailOptions {
    /// Output format.
    pub format: LineFormat,
    /// Skip the events already in the file.
    pub new: bool,
    /// Stop after this many events.
    pub max_events: Option<u64>,
    /// Stop after this many seconds.
    pub timeout: Option<f64>,
    /// Sleep between empty polls, in milliseconds.
    pub interval_ms: u64,
}

/// Why following stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stop {
    Interrupted,
    WriterExited,
    MaxEvents,
    Timeout,
    OutputClosed,
}

/// Follows `path`, printing to standard output.
pub fn run(path: &Path, opts: &TailOptions) -> Result<(), String> {
    let deadline = match opts.timeout {
        Some(s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--timeout {s}: not a number of seconds")),
        None => None,
    };
    let mut cursor = read::open(path)?;
    let info = cursor.info();
    let (t0, writer) = (info.created_monotonic_ns, info.writer_pid);
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        // If a handler cannot be installed, Ctrl-C keeps its default effect
        // (ending the process), which is still "until interrupted".
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    if opts.new {
        let mut skip = Sink::new(cursor.ring_count(), |_| Ok(()));
        cursor.poll(&mut skip);
    }
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut printed = 0u64;
    let mut lost = 0u64;
    let stop = loop {
        if interrupted.load(Ordering::Relaxed) {
            break Stop::Interrupted;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break Stop::Timeout;
        }
        // Checked before polling: if the writer was gone then, this poll
        // reads everything it wrote.
        let gone = writer_gone(writer);
        let mut step = Step {
            path,
            cursor: &mut cursor,
            out: &mut out,
            opts,
            t0,
            printed: &mut printed,
            lost: &mut lost,
        };
        let Some(n) = step.poll(gone)? else {
            break Stop::OutputClosed;
        };
        if opts.max_events.is_some_and(|m| printed >= m) {
            break Stop::MaxEvents;
        }
        if gone {
            break Stop::WriterExited;
        }
        if n == 0 {
            std::thread::sleep(Duration::from_millis(opts.interval_ms));
        }
    };
    let why = match stop {
        Stop::Interrupted => "interrupted".to_owned(),
        Stop::WriterExited => format!("the writer (pid {writer}) has exited"),
        Stop::MaxEvents => "--max-events reached".to_owned(),
        Stop::Timeout => "--timeout reached".to_owned(),
        Stop::OutputClosed => "the output was closed".to_owned(),
    };
    eprintln!("# {printed} events, {lost} lost: {why}");
    Ok(())
}

/// One poll's worth of work.
struct Step<'a, W: Write> {
    path: &'a Path,
    cursor: &'a mut Cursor,
    out: &'a mut W,
    opts: &'a TailOptions,
    t0: u64,
    printed: &'a mut u64,
    lost: &'a mut u64,
}

impl<W: Write> Step<'_, W> {
    /// Prints what is new (and, when `last`, closes the books); returns the
    /// number of events read, or `None` when standard output was closed. A
    /// corrupt ring or an output error ends `tail`.
    fn poll(&mut self, last: bool) -> Result<Option<usize>, String> {
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
            read::quiet_pipe(e)?;
            return Ok(None);
        }
        totals.check(self.path)?;
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
