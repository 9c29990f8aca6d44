//! Why an analysis failed: the one error type of this crate. Its messages
//! are one line each, naming the file.

use std::io;
use std::path::PathBuf;

/// Why reading, analysing or writing a trace failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be opened as a trace file (the message names the
    /// file and what is wrong with it).
    #[error(transparent)]
    Open(#[from] beamr_ringbuf::Error),
    /// One or more rings of the file are corrupt or hold damaged events;
    /// everything else has been delivered (damaged events counted lost).
    #[error(
        "{}: {first}{}",
        path.display(),
        if *more == 0 { String::new() } else { format!(" (and {more} more corruptions)") }
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with the first corrupt ring or damaged stretch.
        first: String,
        /// How many more corrupt rings and damaged stretches there are.
        more: usize,
    },
    /// Writing the output failed. A closed pipe (`beamr trace dump F | head`)
    /// shows up here too, as [`io::ErrorKind::BrokenPipe`]: see
    /// [`Error::is_broken_pipe`].
    #[error("writing the output: {0}")]
    Output(#[source] io::Error),
    /// `flame`: the file has no time inside traced calls.
    #[error(
        "{}: no time inside traced calls (no call/return events): nothing to draw",
        path.display()
    )]
    NothingToDraw {
        /// The file.
        path: PathBuf,
    },
    /// `seq`: the file has no `seq_trace` events with this label.
    #[error("{}: no seq_trace events with label {label}", path.display())]
    NoSeqTraceEvents {
        /// The file.
        path: PathBuf,
        /// The label asked for.
        label: String,
    },
}

impl Error {
    /// True when the output was a pipe whose reader has gone, which a
    /// command-line tool usually treats as success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_counts_the_other_rings() {
        let e = |more| Error::Corrupt {
            path: "t.ring".into(),
            first: "ring 1 is corrupt at word 7: bad length".into(),
            more,
        };
        assert_eq!(
            e(0).to_string(),
            "t.ring: ring 1 is corrupt at word 7: bad length"
        );
        assert_eq!(
            e(2).to_string(),
            "t.ring: ring 1 is corrupt at word 7: bad length (and 2 more corruptions)"
        );
        let pipe = Error::Output(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(pipe.is_broken_pipe());
        assert!(!e(0).is_broken_pipe());
    }
}
