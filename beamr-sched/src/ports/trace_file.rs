//! `trace_file_drv`: erts's trace file driver, native. `dbg:trace_port(file,
//! ...)` opens it as `open_port({spawn, "trace_file_drv [w Size Cnt Time
//! Tail ]n Filename"}, [eof])`; every trace message the port gets (the
//! term in the external format) is written as erts writes it:
//!
//! ```text
//! +----+-------------+--------------------------------+
//! | Op | Size (be32) | the term (Size bytes)          |
//! +----+-------------+--------------------------------+
//! ```
//!
//! with Op 0 (1, "dropped", is the IP driver's only). Writes go through a
//! buffer as large as erts's (64 KiB); `port_control(Port, $f, [])`
//! (`dbg:flush_trace_port/0`) writes it out and answers `[0]`.
//!
//! With `w`, the log wraps: the files are `Filename` with a counter put in
//! at byte `Tail` (`dbg` puts it between the name and the suffix), counting
//! 0, 1, ... Cnt and round again; when a file reaches `Size` bytes (or,
//! with `Time` > 0, when `Time` milliseconds have passed: checked as
//! messages arrive) the next one is opened, and once `Cnt` files exist the
//! oldest is deleted first, so `Cnt` files are kept, as erts keeps them.

use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::runtime::PortDriver;

/// erts's buffer size (`BUFSIZ * 8`).
const BUFFER: usize = 8 * 8192;

/// The arguments of the driver's command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileArgs {
    /// The file name (for a wrapping log, the name the counter goes into).
    pub name: String,
    /// `Some` for a wrapping log.
    pub wrap: Option<WrapArgs>,
}

/// A wrapping log's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrapArgs {
    /// Bytes per file (with `time` 0).
    pub size: u64,
    /// Files kept.
    pub count: u32,
    /// Milliseconds per file (0: wrap by size).
    pub time: u64,
    /// Where in the name the counter goes.
    pub tail: usize,
}

/// Reads `trace_file_drv [w Size Cnt Time Tail ]n Filename`; `None` when
/// it is not such a line (erts: `badarg`).
pub fn parse(command: &str) -> Option<FileArgs> {
    let rest = command.strip_prefix("trace_file_drv ")?.trim_start();
    let (wrap, rest) = match rest.strip_prefix("w ") {
        Some(rest) => {
            let mut words = rest.trim_start().splitn(5, ' ');
            let mut number = || words.next()?.parse::<u64>().ok();
            let (size, count, time, tail) = (number()?, number()?, number()?, number()?);
            let rest = words.next()?.trim_start();
            let count = u32::try_from(count).ok()?;
            let tail = usize::try_from(tail).ok()?;
            let wrap = WrapArgs {
                size,
                count,
                time,
                tail,
            };
            (Some(wrap), rest)
        }
        None => (None, rest),
    };
    let name = rest.strip_prefix("n ")?.to_string();
    if wrap.as_ref().is_some_and(|w| w.tail >= name.len()) {
        return None;
    }
    Some(FileArgs { name, wrap })
}

/// The open driver.
pub struct TraceFile {
    state: Mutex<FileState>,
    stopped: AtomicBool,
}

struct FileState {
    file: Option<File>,
    buffer: Vec<u8>,
    wrap: Option<Wrap>,
}

/// A wrapping log's position.
struct Wrap {
    prefix: String,
    suffix: String,
    size: u64,
    time: Option<Duration>,
    /// Files the log may still open before it deletes the oldest.
    before_deleting: u32,
    count: u32,
    current: u32,
    oldest: u32,
    written: u64,
    opened: Instant,
}

impl Wrap {
    fn name(&self, n: u32) -> String {
        format!("{}{n}{}", self.prefix, self.suffix)
    }

    /// The counter after `n`: 0 ..= count, then 0 again.
    fn next(&self, n: u32) -> u32 {
        if n >= self.count {
            0
        } else {
            n + 1
        }
    }
}

impl TraceFile {
    /// Opens (truncating) the first file.
    pub fn open(args: &FileArgs) -> std::io::Result<TraceFile> {
        let wrap = args.wrap.as_ref().map(|w| Wrap {
            prefix: args.name[..w.tail].to_string(),
            suffix: args.name[w.tail..].to_string(),
            size: w.size,
            time: (w.time > 0).then(|| Duration::from_millis(w.time)),
            before_deleting: w.count,
            count: w.count,
            current: 0,
            oldest: 0,
            written: 0,
            opened: Instant::now(),
        });
        let first = wrap.as_ref().map_or(args.name.clone(), |w| w.name(0));
        let file = File::create(first)?;
        Ok(TraceFile {
            state: Mutex::new(FileState {
                file: Some(file),
                buffer: Vec::with_capacity(BUFFER),
                wrap,
            }),
            stopped: AtomicBool::new(false),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, FileState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl FileState {
    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(file) = self.file.as_mut() {
            file.write_all(&self.buffer)?;
        }
        self.buffer.clear();
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let mut header = [0u8; 5];
        header[1..].copy_from_slice(&(bytes.len() as u32).to_be_bytes());
        if self.buffer.len() + 5 + bytes.len() > BUFFER {
            self.flush()?;
        }
        if 5 + bytes.len() > BUFFER {
            if let Some(file) = self.file.as_mut() {
                file.write_all(&header)?;
                file.write_all(bytes)?;
            }
        } else {
            self.buffer.extend_from_slice(&header);
            self.buffer.extend_from_slice(bytes);
        }
        let due = match self.wrap.as_mut() {
            Some(w) => {
                w.written += 5 + bytes.len() as u64;
                match w.time {
                    None => w.written >= w.size,
                    Some(time) => w.opened.elapsed() >= time,
                }
            }
            None => false,
        };
        if due {
            self.next_file()?;
        }
        Ok(())
    }

    /// Closes the current file and opens the next, deleting the oldest
    /// once the log holds its count of files.
    fn next_file(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.file = None;
        let Some(w) = self.wrap.as_mut() else {
            return Ok(());
        };
        w.written = 0;
        w.opened = Instant::now();
        w.before_deleting = w.before_deleting.saturating_sub(1);
        if w.before_deleting == 0 {
            let _ = std::fs::remove_file(w.name(w.oldest));
            w.oldest = w.next(w.oldest);
        }
        w.current = w.next(w.current);
        self.file = Some(File::create(w.name(w.current))?);
        Ok(())
    }
}

impl PortDriver for TraceFile {
    fn output(&self, bytes: &[u8]) {
        if self.stopped() {
            return;
        }
        // A write that fails ends the log (erts fails the port): what
        // follows is dropped.
        let mut state = self.state();
        if state.write(bytes).is_err() {
            state.file = None;
        }
    }

    fn control(&self, command: u32, _data: &[u8]) -> Option<(Vec<u8>, bool)> {
        if command != u32::from(b'f') {
            return None;
        }
        let mut state = self.state();
        let _ = state.flush();
        if let Some(file) = state.file.as_mut() {
            let _ = file.flush();
        }
        Some((vec![0], false))
    }

    fn stop(&self, _reason: beamr_core::term::Term) {
        self.stopped.store(true, Ordering::Release);
        let mut state = self.state();
        let _ = state.flush();
        state.file = None;
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_dbgs_command_lines() {
        let plain = parse("trace_file_drv n /tmp/x").unwrap();
        assert_eq!(plain.name, "/tmp/x");
        assert_eq!(plain.wrap, None);
        let wrap = parse("trace_file_drv w 128 8 0 6 n /tmp/x.log").unwrap();
        assert_eq!(wrap.name, "/tmp/x.log");
        let w = wrap.wrap.unwrap();
        assert_eq!((w.size, w.count, w.time, w.tail), (128, 8, 0, 6));
        assert_eq!(parse("trace_file_drv w 1 2 0 99 n /tmp/x"), None);
        assert_eq!(parse("trace_file_drv /tmp/x"), None);
    }

    #[test]
    fn wraps_keeping_count_files() {
        let dir = std::env::temp_dir().join(format!("beamr_wrap_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let name = format!("{}/t.log", dir.display());
        let tail = name.len() - 4;
        let args = parse(&format!("trace_file_drv w 10 3 0 {tail} n {name}")).unwrap();
        let f = TraceFile::open(&args).unwrap();
        for _ in 0..6 {
            f.output(&[1, 2, 3, 4, 5]);
        }
        f.stop(beamr_core::term::Term::atom(beamr_core::atom::Atom::NORMAL));
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        // Six messages of 10 bytes, one per file, the counter going
        // 0 1 2 3 0 1 and on to 2: three files kept, the last one opened
        // empty.
        assert_eq!(files, ["t0.log", "t1.log", "t2.log"]);
        assert_eq!(std::fs::read(dir.join("t0.log")).unwrap().len(), 10);
        assert_eq!(std::fs::read(dir.join("t2.log")).unwrap().len(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
