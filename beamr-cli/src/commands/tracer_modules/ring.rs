//! `beamr_ring_tracer`: the ring-buffer flight recorder as a tracer module.
//!
//! `{tracer, beamr_ring_tracer, #{file => Path}}` records the tracee's
//! events into the ring-buffer file `Path` (a string, a binary or an
//! atom), which `beamr trace dump|stats|tail|export|flame` read (during
//! the run too: the file is memory-mapped). Options:
//!
//! - `file` (required): the file.
//! - `ring_words`: words per ring, a power of two from 512 to 2^30
//!   (default 64 Ki words, 512 KiB); the oldest events are overwritten
//!   when a ring is full.
//!
//! The file has one ring per scheduler and one for other threads, as
//! `beamr run --trace-to ring:FILE` makes it. The first use of a path in a
//! run creates the file (replacing what was there); every later use of
//! the same path, from any tracee, session or meta pattern, records into
//! that same file (its `ring_words` then stays the first one's). The files
//! stay open until the run ends, and stay on disk after.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use beamr_core::term::Term;
use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::trace::tracer_module::TracerModule;
use beamr_trace::Tracer;

use super::state::{options, text};

/// The `beamr_ring_tracer` module: one recorder per file.
pub struct RingModule {
    schedulers: usize,
    open: Mutex<HashMap<PathBuf, Arc<RingTracer>>>,
}

impl RingModule {
    /// The module for a run on `schedulers` schedulers.
    pub fn new(schedulers: usize) -> RingModule {
        RingModule {
            schedulers,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// Closes every file (they stay on disk).
    pub fn close_all(&self) {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl TracerModule for RingModule {
    fn open(&self, state: Term) -> Result<Arc<dyn Tracer>, String> {
        let mut file = None;
        let mut ring_words = None;
        for (name, value) in options(state, &["file", "ring_words"])? {
            match name {
                "file" => {
                    let path = text(value).filter(|p| !p.is_empty());
                    file = Some(path.ok_or("file is a file name")?);
                }
                _ => {
                    let words = value.as_small().and_then(|n| usize::try_from(n).ok());
                    ring_words = Some(words.ok_or("ring_words is a number of words")?);
                }
            }
        }
        let path = PathBuf::from(file.ok_or("no file given (#{file => Path})")?);
        // One key per file however it is named ("x", "./x"): two
        // recorders on one file would overwrite each other.
        let path = std::path::absolute(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tracer) = open.get(&path) {
            return Ok(tracer.clone());
        }
        let mut options = Options::new(self.schedulers + 1).path(&path).preserve(true);
        if let Some(words) = ring_words {
            options = options.ring_words(words);
        }
        let recorder = Recorder::create(options).map_err(|e| format!("{}: {e}", path.display()))?;
        let tracer = Arc::new(RingTracer::new(recorder));
        open.insert(path, tracer.clone());
        Ok(tracer)
    }
}
