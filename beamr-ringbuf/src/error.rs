//! [`Error`]: everything that can go wrong creating, opening or reading a
//! trace file.

use std::path::PathBuf;

/// An error of this crate. Bad input is always one of these, never a panic.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be created, opened or mapped.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file does not start with the magic number.
    #[error("{0}: not a beamr trace file (bad magic number)")]
    NotATrace(PathBuf),
    /// The file is a trace of another format version.
    #[error("{path}: trace format version {found}, this reader understands version {expected}")]
    WrongVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u64,
        /// Ours.
        expected: u64,
    },
    /// The file is shorter than its header says.
    #[error("{path}: truncated: {actual} bytes, the header says {expected}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes present.
        actual: u64,
        /// Bytes the header describes.
        expected: u64,
    },
    /// A header field is out of range or inconsistent.
    #[error("{path}: corrupt header: {what}")]
    CorruptHeader {
        /// The file.
        path: PathBuf,
        /// Which field and why.
        what: String,
    },
    /// Options that cannot make a file.
    #[error("invalid recorder options: {0}")]
    InvalidOptions(String),
}
