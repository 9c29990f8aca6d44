//! [`Recorder`]: creates a trace file and hands out one [`RingWriter`] per
//! ring; [`Options`] says where, how big, and whether the file outlives the
//! process.
//!
//! A recorder is the writing process's handle on the file. Writing goes
//! through [`RingWriter`] (one per ring, exclusive) or through
//! [`RingTracer`](crate::RingTracer), which routes each trace event to the
//! ring of the scheduler that produced it.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicU64, Ordering};

use beamr_core::atom::Atom;
use memmap2::MmapMut;

use crate::clock;
use crate::error::Error;
use crate::layout::{
    file_header, Category, Geometry, FLAG_PAUSED, MAGIC, MAX_RINGS, MAX_RING_WORDS, MIN_RING_WORDS,
    VERSION,
};
use crate::region::Region;
use crate::ring::{Ring, RingPlace};
use crate::strings::StringWriter;

/// Environment variable naming the directory for trace files when
/// [`Options::path`] is not given.
pub const ENV_TRACE_DIR: &str = "BEAMR_TRACE_DIR";
/// Environment variable that, set to anything but `""`, `0` or `false`, keeps
/// the trace file when the recorder is dropped.
pub const ENV_PRESERVE: &str = "BEAMR_TRACE_PRESERVE";

/// How to create a trace file.
#[derive(Clone, Debug)]
pub struct Options {
    path: Option<PathBuf>,
    rings: usize,
    ring_words: usize,
    string_bytes: usize,
    preserve: Option<bool>,
}

impl Options {
    /// `rings` rings of 64 Ki words (512 KiB) each, a 1 MiB string table, the
    /// file in `$BEAMR_TRACE_DIR` (or the temporary directory), preserved if
    /// `$BEAMR_TRACE_PRESERVE` says so.
    pub fn new(rings: usize) -> Options {
        Options {
            path: None,
            rings,
            ring_words: 1 << 16,
            string_bytes: 1 << 20,
            preserve: None,
        }
    }

    /// The file to create (replacing any file there).
    pub fn path(mut self, path: impl Into<PathBuf>) -> Options {
        self.path = Some(path.into());
        self
    }

    /// Words per ring: a power of two from 512 to 2^30.
    pub fn ring_words(mut self, words: usize) -> Options {
        self.ring_words = words;
        self
    }

    /// Bytes of the string table.
    pub fn string_bytes(mut self, bytes: usize) -> Options {
        self.string_bytes = bytes;
        self
    }

    /// Whether the file survives the recorder (overrides `$BEAMR_TRACE_PRESERVE`).
    pub fn preserve(mut self, preserve: bool) -> Options {
        self.preserve = Some(preserve);
        self
    }

    fn resolved_path(&self) -> PathBuf {
        if let Some(p) = &self.path {
            return p.clone();
        }
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::var_os(ENV_TRACE_DIR)
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        dir.join(format!("beamr-{}-{n}.trace", std::process::id()))
    }

    fn resolved_preserve(&self) -> bool {
        self.preserve.unwrap_or_else(|| {
            std::env::var(ENV_PRESERVE)
                .map(|v| !matches!(v.as_str(), "" | "0" | "false"))
                .unwrap_or(false)
        })
    }

    fn check(&self) -> Result<(), Error> {
        if self.rings == 0 || self.rings > MAX_RINGS {
            return Err(Error::InvalidOptions(format!(
                "{} rings (1 to {MAX_RINGS})",
                self.rings
            )));
        }
        if !self.ring_words.is_power_of_two()
            || !(MIN_RING_WORDS..=MAX_RING_WORDS).contains(&self.ring_words)
        {
            return Err(Error::InvalidOptions(format!(
                "ring size of {} words (a power of two from {MIN_RING_WORDS} to {MAX_RING_WORDS})",
                self.ring_words
            )));
        }
        Ok(())
    }
}

/// A trace file open for writing.
pub struct Recorder {
    region: Region,
    geometry: Geometry,
    /// Where each ring lies (`geometry.ring_count` of them).
    rings: Box<[RingPlace]>,
    path: PathBuf,
    preserve: bool,
    strings: StringWriter,
}

impl Recorder {
    /// Creates the file and maps it.
    pub fn create(options: Options) -> Result<Recorder, Error> {
        options.check()?;
        let path = options.resolved_path();
        let io = |source| Error::Io {
            path: path.clone(),
            source,
        };
        let g = Geometry::new(options.rings, options.ring_words, options.string_bytes);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(io)?;
        file.set_len(g.file_size as u64).map_err(io)?;
        // SAFETY: memmap2's contract. The file was just created and sized
        // by us; other processes may map it too, which is why every access
        // goes through atomics (see `region`).
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(io)?;
        let region = Region::read_write(map);
        let w = region.words();
        let set = |i: usize, v: u64| w[i].store(v, Ordering::Relaxed);
        set(file_header::VERSION, VERSION);
        set(file_header::RING_COUNT, g.ring_count as u64);
        set(file_header::RING_WORDS, g.ring_words as u64);
        set(
            file_header::RING_HEADERS_OFFSET,
            g.ring_headers_offset as u64,
        );
        set(file_header::RINGS_OFFSET, g.rings_offset as u64);
        set(file_header::STRINGS_OFFSET, g.strings_offset as u64);
        set(file_header::STRINGS_CAPACITY, g.strings_capacity as u64);
        set(file_header::WRITER_PID, std::process::id() as u64);
        let unix_ns = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        set(file_header::CREATED_UNIX_NS, unix_ns);
        set(file_header::CREATED_MONOTONIC_NS, clock::now_ns());
        set(file_header::FILE_SIZE, g.file_size as u64);
        // The magic goes last: a reader that sees it sees the whole header.
        w[file_header::MAGIC].store(MAGIC, Ordering::Release);
        let rings: Box<[RingPlace]> = (0..g.ring_count).map(|i| RingPlace::new(&g, i)).collect();
        // What `Recorder::ring_at` relies on: every ring lies in the file.
        for place in &rings {
            assert!(place.header_words().end <= w.len() && place.data_words().end <= w.len());
        }
        Ok(Recorder {
            region,
            rings,
            geometry: g,
            path,
            preserve: options.resolved_preserve(),
            strings: StringWriter::new(),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of rings.
    pub fn ring_count(&self) -> usize {
        self.geometry.ring_count
    }

    /// Words per ring.
    pub fn ring_words(&self) -> usize {
        self.geometry.ring_words
    }

    /// Whether the file is kept when the recorder is dropped.
    pub fn preserves_file(&self) -> bool {
        self.preserve
    }

    /// Keeps (or not) the file when the recorder is dropped.
    pub fn set_preserve(&mut self, preserve: bool) {
        self.preserve = preserve;
    }

    pub(crate) fn words(&self) -> &[AtomicU64] {
        self.region.words()
    }

    #[inline(always)]
    pub(crate) fn ring(&self, i: usize) -> Ring<'_> {
        self.ring_at(&self.rings[i])
    }

    /// Ring `i` if it is a scheduler's own (`1..ring_count`), else `None`
    /// (ring 0, shared by the other threads, or past the last ring): one
    /// bounds check, and none of the ring's words checked again.
    #[inline(always)]
    pub(crate) fn own_ring(&self, i: usize) -> Option<Ring<'_>> {
        // `1 <= i < len` in one comparison (0 wraps past every length).
        if i.wrapping_sub(1) >= self.rings.len().wrapping_sub(1) {
            return None;
        }
        // SAFETY: `i < self.rings.len()`, just checked.
        let place = unsafe { self.rings.get_unchecked(i) };
        Some(self.ring_at(place))
    }

    /// The ring at `place`, one of `self.rings`.
    #[inline(always)]
    fn ring_at(&self, place: &RingPlace) -> Ring<'_> {
        let words = self.region.words();
        // SAFETY: `place` is one of `self.rings`, which `Recorder::create`
        // asserted lie within the region's words; the region's length
        // never changes while the recorder lives.
        let (header, data) = unsafe {
            (
                words.get_unchecked(place.header_words()),
                words.get_unchecked(place.data_words()),
            )
        };
        Ring::from_parts(header, data)
    }

    /// The exclusive writer of ring `i`, or `None` if `i` is out of range or
    /// another writer holds it.
    pub fn writer(&self, i: usize) -> Option<RingWriter<'_>> {
        if i >= self.geometry.ring_count {
            return None;
        }
        let ring = self.ring(i);
        ring.claimed
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .ok()?;
        Some(RingWriter {
            recorder: self,
            ring,
            _not_sync: std::marker::PhantomData,
        })
    }

    /// Stops recording: writes are dropped (not counted as written or lost)
    /// until [`Recorder::resume`].
    pub fn pause(&self) {
        self.words()[file_header::FLAGS].fetch_or(FLAG_PAUSED, Ordering::Relaxed);
    }

    /// Resumes recording after [`Recorder::pause`].
    pub fn resume(&self) {
        self.words()[file_header::FLAGS].fetch_and(!FLAG_PAUSED, Ordering::Relaxed);
    }

    /// True while paused.
    #[inline]
    pub fn is_paused(&self) -> bool {
        self.words()[file_header::FLAGS].load(Ordering::Relaxed) & FLAG_PAUSED != 0
    }

    /// Puts `atom`'s name in the string table (once) and returns its key.
    /// Lock-free after the first call for an atom.
    #[inline]
    pub fn intern_atom(&self, atom: Atom) -> u32 {
        self.strings.atom(&self.region, &self.geometry, atom)
    }

    /// Puts `s` in the string table (once) and returns its key, or `None` if
    /// the table is full. Takes a lock: intern names up front, not per event.
    pub fn intern_str(&self, s: &str) -> Option<u32> {
        self.strings.string(self.region.words(), &self.geometry, s)
    }

    /// Adds `n` to the file's count of events dropped unwritten (by a
    /// tracer's limits), which readers report.
    pub fn count_dropped(&self, n: u64) {
        self.words()[file_header::EVENTS_DROPPED].fetch_add(n, Ordering::Relaxed);
    }

    /// Events written to ring `i` so far.
    pub fn written(&self, i: usize) -> u64 {
        if i < self.geometry.ring_count {
            self.ring(i).written()
        } else {
            0
        }
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if !self.preserve {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The one writer of one ring. Not `Sync`: a ring has a single writer.
pub struct RingWriter<'r> {
    recorder: &'r Recorder,
    ring: Ring<'r>,
    _not_sync: std::marker::PhantomData<std::cell::Cell<()>>,
}

impl RingWriter<'_> {
    /// Writes a user event of `kind` with the given timestamp and payload
    /// words. Returns false if paused or if the payload is longer than
    /// [`MAX_PAYLOAD_WORDS`](crate::layout::MAX_PAYLOAD_WORDS). No
    /// allocation, lock or system call.
    #[inline]
    pub fn write(&mut self, kind: u16, timestamp_ns: u64, payload: &[u64]) -> bool {
        self.write_category(Category::User, kind, timestamp_ns, payload)
    }

    /// Writes an event of any category but padding.
    #[inline]
    pub fn write_category(
        &mut self,
        category: Category,
        kind: u16,
        timestamp_ns: u64,
        payload: &[u64],
    ) -> bool {
        if category == Category::Padding || self.recorder.is_paused() {
            return false;
        }
        self.ring.write(category, kind, timestamp_ns, payload)
    }

    /// Writes a user event stamped with [`clock::now_ns`].
    #[inline]
    pub fn write_now(&mut self, kind: u16, payload: &[u64]) -> bool {
        self.write(kind, clock::now_ns(), payload)
    }

    /// Events written to this ring so far.
    pub fn written(&self) -> u64 {
        self.ring.written()
    }
}

impl Drop for RingWriter<'_> {
    fn drop(&mut self) {
        self.ring.claimed.store(0, Ordering::Release);
    }
}
