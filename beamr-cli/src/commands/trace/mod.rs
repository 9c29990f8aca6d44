//! `beamr trace ...`: read the ring-buffer trace files that
//! [`beamr_ringbuf`] writes (format in `beamr-ringbuf/docs/format.md`).
//!
//! `beamr run --trace FLAGS --trace-to ring:FILE` writes them; so do
//! beamr-ringbuf's tests and its synthetic generator.
//!
//! The analysis is the [`beamr_trace_analysis`] library; this module holds
//! the subcommands' arguments, and [`print`] calls the library and prints
//! what it returns:
//!
//! - `dump`: every event, one per line, in timestamp order
//!   ([`beamr_trace_analysis::dump`]);
//! - `stats`: counts per kind and per ring, time span, losses
//!   ([`beamr_trace_analysis::stats`]);
//! - `tail`: follow a file while it is written
//!   ([`beamr_trace_analysis::tail`]);
//! - `export --format chrome`: Chrome trace-event JSON for Perfetto
//!   ([`beamr_trace_analysis::export_chrome`]);
//! - `flame`: a flame graph of call/return events
//!   ([`beamr_trace_analysis::flame`]);
//! - `seq --label L`: a Mermaid sequence diagram of one `seq_trace` label
//!   ([`beamr_trace_analysis::seq`]).

mod print;

use std::path::PathBuf;

use beamr_trace_analysis::render;
use clap::{Subcommand, ValueEnum};

/// How `dump`, `stats` and `tail` print.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LineFormat {
    /// Aligned text for people.
    Text,
    /// One JSON object per line.
    Json,
}

impl From<LineFormat> for render::LineFormat {
    fn from(format: LineFormat) -> render::LineFormat {
        match format {
            LineFormat::Text => render::LineFormat::Text,
            LineFormat::Json => render::LineFormat::Json,
        }
    }
}

/// What `export` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Chrome trace-event JSON (opens in Perfetto and chrome://tracing).
    Chrome,
}

/// The `beamr trace` subcommands.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Print every event, one per line, in timestamp order.
    Dump {
        /// The trace file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = LineFormat::Text)]
        format: LineFormat,
    },
    /// Count events per kind and per ring; show the time span and the losses.
    Stats {
        /// The trace file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = LineFormat::Text)]
        format: LineFormat,
    },
    /// Follow a file while it is written, until interrupted (Ctrl-C), the
    /// writing process exits, or a limit below is reached.
    Tail {
        /// The trace file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = LineFormat::Text)]
        format: LineFormat,
        /// Skip the events already in the file; print only new ones.
        #[arg(long)]
        new: bool,
        /// Stop after printing this many events.
        #[arg(long, value_name = "N")]
        max_events: Option<u64>,
        /// Stop after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Milliseconds to sleep when there is nothing new.
        #[arg(long, value_name = "MS", default_value_t = 20)]
        interval: u64,
    },
    /// Convert a trace for another tool.
    Export {
        /// The trace file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Chrome)]
        format: ExportFormat,
        /// Output file (`-` for standard output).
        #[arg(short = 'o', long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Draw one seq_trace label's events as a Mermaid sequence diagram, from
    /// one recording or several nodes' merged (NODE=FILE each, NODE the
    /// node that recorded it, as name@host).
    Seq {
        /// The trace file, or NODE=FILE for each node's recording.
        #[arg(required = true, value_name = "FILE|NODE=FILE")]
        files: Vec<String>,
        /// The label: an integer, or an atom's name.
        #[arg(long, value_name = "L")]
        label: String,
        /// Output file (`-`, the default, for standard output).
        #[arg(short = 'o', long, value_name = "OUT", default_value = "-")]
        output: PathBuf,
    },
    /// Draw a flame graph (SVG) of the time spent in traced functions, from
    /// call/return events.
    Flame {
        /// The trace file.
        file: PathBuf,
        /// Output file (`-` for standard output).
        #[arg(short = 'o', long, value_name = "OUT")]
        output: PathBuf,
        /// One tower per process (stacks start with the pid) instead of
        /// adding up all processes.
        #[arg(long)]
        per_process: bool,
        /// Write the collapsed stacks (`a;b;c NANOSECONDS` lines) instead of
        /// the SVG.
        #[arg(long)]
        collapsed: bool,
        /// The graph's title.
        #[arg(long, default_value = "beamr trace")]
        title: String,
    },
}

/// Runs one `beamr trace` subcommand. The error is one line.
pub fn run(command: TraceCommand) -> Result<(), String> {
    match command {
        TraceCommand::Dump { file, format } => print::dump(&file, format.into()),
        TraceCommand::Stats { file, format } => print::stats(&file, format.into()),
        TraceCommand::Tail {
            file,
            format,
            new,
            max_events,
            timeout,
            interval,
        } => print::tail(
            &file,
            &print::TailArgs {
                format: format.into(),
                new,
                max_events,
                timeout,
                interval_ms: interval,
            },
        ),
        TraceCommand::Export {
            file,
            format: ExportFormat::Chrome,
            output,
        } => print::export_chrome(&file, &output),
        TraceCommand::Seq {
            files,
            label,
            output,
        } => print::seq(&files, &label, &output),
        TraceCommand::Flame {
            file,
            output,
            per_process,
            collapsed,
            title,
        } => print::flame(&file, &output, per_process, collapsed, &title),
    }
}
