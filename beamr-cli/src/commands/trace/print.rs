//! The `beamr trace` subcommands' glue: open the file and the output, call
//! [`beamr_trace_analysis`], and print what it returns. Errors become the
//! command's one line; a closed pipe (`beamr trace dump F | head`) is not
//! an error.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use beamr_ringbuf::Cursor;
use beamr_trace_analysis::render::LineFormat;
use beamr_trace_analysis::tail::{Stop, TailOptions};
use beamr_trace_analysis::{dump, export_chrome, flame, read, seq, stats, tail, Error};

/// The command's result: `Ok` for a closed pipe, else the error's line.
fn outcome(result: Result<(), Error>) -> Result<(), String> {
    match result {
        Err(e) if e.is_broken_pipe() => Ok(()),
        result => result.map_err(|e| e.to_string()),
    }
}

/// Opens `path` as a trace file.
fn open(path: &Path) -> Result<Cursor, String> {
    read::open(path).map_err(|e| e.to_string())
}

/// Buffered standard output.
fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// `output`, created (`-`: standard output).
fn create(output: &Path) -> Result<Box<dyn Write>, String> {
    if output == Path::new("-") {
        return Ok(Box::new(io::stdout().lock()));
    }
    let f = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    Ok(Box::new(f))
}

/// `beamr trace dump`: prints `path`'s events.
pub fn dump(path: &Path, format: LineFormat) -> Result<(), String> {
    let mut cursor = open(path)?;
    outcome(dump::write(&mut cursor, path, format, &mut stdout()))
}

/// `beamr trace stats`: prints `path`'s statistics.
pub fn stats(path: &Path, format: LineFormat) -> Result<(), String> {
    let mut cursor = open(path)?;
    outcome(stats::write(
        &mut cursor,
        path,
        format,
        &mut io::stdout().lock(),
    ))
}

/// `beamr trace export --format chrome`: writes `path` as Chrome trace JSON
/// to `output`.
pub fn export_chrome(path: &Path, output: &Path) -> Result<(), String> {
    let mut cursor = open(path)?;
    let mut out = BufWriter::with_capacity(1 << 16, create(output)?);
    outcome(export_chrome::write(&mut cursor, path, &mut out))
}

/// `beamr trace flame`: writes the flame graph (or, `collapsed`, the folded
/// stacks) of `path` to `output`.
pub fn flame(
    path: &Path,
    output: &Path,
    per_process: bool,
    collapsed: bool,
    title: &str,
) -> Result<(), String> {
    let mut cursor = open(path)?;
    let folded = flame::fold(&mut cursor, path, per_process).map_err(|e| e.to_string())?;
    let mut out = BufWriter::new(create(output)?);
    outcome(if collapsed {
        folded.write_collapsed(&mut out)
    } else {
        folded.write_svg(title, &mut out)
    })
}

/// `beamr trace seq`: writes the diagram of `label` in `files` (each a
/// recording, or `NODE=FILE`) to `output`.
pub fn seq(files: &[String], label: &str, output: &Path) -> Result<(), String> {
    // `NODE=FILE`: a node's name has an `@`; anything else is a file.
    let named: Vec<(Option<&str>, &Path)> = files
        .iter()
        .map(|f| match f.split_once('=') {
            Some((node, file)) if node.contains('@') => (Some(node), Path::new(file)),
            _ => (None, Path::new(f.as_str())),
        })
        .collect();
    let mut cursors = Vec::with_capacity(named.len());
    for (_, path) in &named {
        cursors.push(open(path)?);
    }
    let mut recordings: Vec<seq::Recording<'_>> = cursors
        .iter_mut()
        .zip(&named)
        .map(|(cursor, (node, path))| seq::Recording {
            cursor,
            path,
            node: *node,
        })
        .collect();
    let text = seq::mermaid_of(&mut recordings, label).map_err(|e| e.to_string())?;
    if output == Path::new("-") {
        let mut out = io::stdout().lock();
        let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        outcome(written.map_err(Error::Output))
    } else {
        std::fs::write(output, text).map_err(|e| format!("{}: {e}", output.display()))
    }
}

/// `beamr trace tail`'s arguments.
#[derive(Clone, Debug)]
pub struct TailArgs {
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

/// `beamr trace tail`: follows `path` until Ctrl-C, the writer's exit or a
/// limit, then prints a summary line to standard error.
pub fn tail(path: &Path, args: &TailArgs) -> Result<(), String> {
    let deadline = match args.timeout {
        Some(s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--timeout {s}: not a number of seconds")),
        None => None,
    };
    let mut cursor = open(path)?;
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        // If a handler cannot be installed, Ctrl-C keeps its default effect
        // (ending the process), which is still "until interrupted".
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let opts = TailOptions {
        format: args.format,
        new: args.new,
        max_events: args.max_events,
        deadline,
        interval: Duration::from_millis(args.interval_ms),
    };
    let summary =
        tail::follow(&mut cursor, &opts, &interrupted, &mut stdout()).map_err(|e| e.to_string())?;
    let why = match summary.stop {
        Stop::Interrupted => "interrupted".to_owned(),
        Stop::WriterExited { pid } => format!("the writer (pid {pid}) has exited"),
        Stop::MaxEvents => "--max-events reached".to_owned(),
        Stop::Timeout => "--timeout reached".to_owned(),
        Stop::OutputClosed => "the output was closed".to_owned(),
    };
    eprintln!("# {} events, {} lost: {why}", summary.printed, summary.lost);
    // Damage does not stop following; it fails the command at the end, as
    // it fails `dump`.
    summary.check(path).map_err(|e| e.to_string())
}
