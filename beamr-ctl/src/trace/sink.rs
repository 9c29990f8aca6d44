//! [`LineSink`]: where a text trace's lines go on their way to the client:
//! a bounded channel the tracer never waits on. A line that finds the
//! channel full (the client reads slower than the program makes events)
//! is dropped and counted, so that a traced process never waits for a
//! client.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

/// Lines held for the client at most.
pub const CAPACITY: usize = 16 * 1024;

/// The writing end: each `write` is one whole line (beamr-trace's
/// `TextTracer` writes each line with one `write_all`).
pub struct LineSink {
    tx: SyncSender<String>,
    dropped: Arc<AtomicU64>,
}

/// A sink, the receiving end, and the count of the lines dropped.
pub fn channel() -> (LineSink, Receiver<String>, Arc<AtomicU64>) {
    let (tx, rx) = sync_channel(CAPACITY);
    let dropped = Arc::new(AtomicU64::new(0));
    let sink = LineSink {
        tx,
        dropped: dropped.clone(),
    };
    (sink, rx, dropped)
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let line = String::from_utf8_lossy(buf).into_owned();
        if self.tx.try_send(line).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_channel_drops_and_counts() {
        let (mut sink, rx, dropped) = channel();
        for _ in 0..CAPACITY + 3 {
            sink.write_all(b"line\n").unwrap();
        }
        assert_eq!(dropped.load(Ordering::Relaxed), 3);
        assert_eq!(rx.try_iter().count(), CAPACITY);
    }
}
