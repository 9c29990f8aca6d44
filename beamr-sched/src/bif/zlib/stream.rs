//! `zlib`'s streaming API natively: the NIFs under OTP's `zlib` module
//! (`open_nif`, `deflateInit_nif`, `deflate_nif`, `inflate_nif`,
//! `enqueue_nif`, the stash, ...), on the system zlib through flate2.
//! OTP's `zlib.erl` keeps its Erlang half: argument checks, the loops over
//! chunks, `safeInflate`, `inflateChunk`.
//!
//! A stream is a resource (see [`crate::bif::common::resource`]) holding:
//!
//! ```text
//! owner    the controlling process; every call from another process
//!          raises not_on_controlling_process
//! state    none | deflate | inflate | closed
//! input    bytes enqueued (enqueue_nif) and not yet consumed
//! stash    a term zlib.erl parks between calls (setStash_nif)
//! ```
//!
//! States and errors follow erts's `zlib_nif.c`: an init when the state is
//! not `none` raises `already_initialized`; a codec call or an end in the
//! wrong state raises `not_initialized`; `deflateEnd` of a stream given
//! data but not finished, and `inflateEnd` before the end of the
//! compressed stream, raise `data_error` (the state is `none` afterwards);
//! corrupt input raises `data_error`. At the end of an inflated stream
//! with input left, the end-of-stream behaviour decides: `cut` drops the
//! rest, `reset` starts a new stream (several gzip members), `error`
//! raises `data_error`.
//!
//! flate2 has no compression strategy nor memory level: a strategy other
//! than `default` or a memory level other than 8 raises `enotsup`, as does
//! `inflateGetDictionary` (erts answers `not_supported`, which `zlib.erl`
//! turns into `enotsup`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use crate::bif::common::atoms::atom;
use crate::bif::common::resource::Resources;
use crate::bif::erlang::binaries::iodata_bytes;
use beamr_core::term::Term;

use crate::ets::Stored;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("zlib", "open_nif", 0, open_nif),
    ("zlib", "close_nif", 1, close_nif),
    ("zlib", "set_controller_nif", 2, set_controller_nif),
    ("zlib", "deflateInit_nif", 6, deflate_init_nif),
    (
        "zlib",
        "deflateSetDictionary_nif",
        2,
        deflate_set_dictionary_nif,
    ),
    ("zlib", "deflateReset_nif", 1, deflate_reset_nif),
    ("zlib", "deflateParams_nif", 3, deflate_params_nif),
    ("zlib", "deflate_nif", 4, deflate_nif),
    ("zlib", "deflateEnd_nif", 1, deflate_end_nif),
    ("zlib", "inflateInit_nif", 3, inflate_init_nif),
    (
        "zlib",
        "inflateSetDictionary_nif",
        2,
        inflate_set_dictionary_nif,
    ),
    (
        "zlib",
        "inflateGetDictionary_nif",
        1,
        inflate_get_dictionary_nif,
    ),
    ("zlib", "inflateReset_nif", 1, inflate_reset_nif),
    ("zlib", "inflate_nif", 4, inflate_nif),
    ("zlib", "inflateEnd_nif", 1, inflate_end_nif),
    ("zlib", "enqueue_nif", 2, enqueue_nif),
    ("zlib", "getStash_nif", 1, get_stash_nif),
    ("zlib", "setStash_nif", 2, set_stash_nif),
    ("zlib", "clearStash_nif", 1, clear_stash_nif),
    ("zlib", "getBufSize_nif", 1, get_buf_size_nif),
    ("zlib", "setBufSize_nif", 2, set_buf_size_nif),
];

/// Third id word of a stream's reference.
const ZLIB_TAG: u32 = 0x002E_1B00;

static STREAMS: Resources<Mutex<Stream>> = Resources::new(ZLIB_TAG);

/// `inflateChunk`'s buffer size before `setBufSize` (erts's default).
const DEFAULT_BUF_SIZE: i64 = 4000;

/// zlib's values for `Flush` (`Z_NO_FLUSH` .. `Z_FINISH`).
const Z_SYNC_FLUSH: i64 = 2;
const Z_FULL_FLUSH: i64 = 3;
const Z_FINISH: i64 = 4;

/// What happens at the end of an inflated stream with input left.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EndOfStream {
    Error,
    Reset,
    Cut,
}

/// The framing a stream's window bits choose.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framing {
    Zlib,
    Raw,
    Gzip,
    /// Inflate only: zlib or gzip, told by the first byte.
    Detect,
}

impl Framing {
    /// The framing and the base-2 window size of zlib's `windowBits`
    /// (already range-checked by `zlib.erl`).
    fn of(bits: i64) -> (Framing, u8) {
        let framing = match bits {
            ..=-1 => Framing::Raw,
            8..=15 => Framing::Zlib,
            24..=31 => Framing::Gzip,
            _ => Framing::Detect,
        };
        // flate2 takes 9..=15; zlib itself turns a window of 8 into 9.
        (framing, ((bits.unsigned_abs() & 15) as u8).max(9))
    }
}

enum State {
    None,
    Deflate {
        c: Compress,
        /// Some input or flush since init or reset (deflateEnd's check).
        busy: bool,
        finished: bool,
    },
    Inflate {
        /// `None` until the first byte tells the framing (`Detect`).
        d: Option<Decompress>,
        framing: Framing,
        window: u8,
        eos: EndOfStream,
        eos_seen: bool,
    },
    Closed,
}

/// One zlib stream.
struct Stream {
    owner: Term,
    state: State,
    input: Vec<u8>,
    stash: Option<Stored>,
    buf_size: i64,
}

fn error(name: &str) -> Exception {
    Exception::error(atom(name))
}

fn small(t: Term) -> Result<i64, Exception> {
    t.as_small().ok_or_else(Exception::badarg)
}

/// The stream `a[0]` denotes, locked, when the caller controls it.
fn stream<'a>(
    p: &Process,
    held: &'a std::sync::Arc<Mutex<Stream>>,
) -> Result<MutexGuard<'a, Stream>, Exception> {
    let s = held.lock().unwrap_or_else(PoisonError::into_inner);
    if s.owner != p.pid {
        return Err(error("not_on_controlling_process"));
    }
    Ok(s)
}

/// Runs `f` on the stream `z` (badarg for anything else).
fn with_stream(
    p: &mut Process,
    z: Term,
    f: impl FnOnce(&mut Process, &mut Stream) -> Result<Term, Exception>,
) -> Result<Term, Exception> {
    let held = STREAMS.get(z).ok_or_else(Exception::badarg)?;
    let mut s = stream(p, &held)?;
    f(p, &mut s)
}

fn open_nif(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let s = Stream {
        owner: p.pid,
        state: State::None,
        input: Vec::new(),
        stash: None,
        buf_size: DEFAULT_BUF_SIZE,
    };
    Ok(STREAMS.insert(p, Mutex::new(s)))
}

fn close_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| {
        if matches!(s.state, State::Closed) {
            return Err(error("not_initialized"));
        }
        s.state = State::Closed;
        s.input.clear();
        s.stash = None;
        Ok(atom("ok"))
    })
}

fn set_controller_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[1].is_local_pid() {
        return Err(Exception::badarg());
    }
    with_stream(p, a[0], |_, s| {
        s.owner = a[1];
        Ok(atom("ok"))
    })
}

// ---- deflate ----

/// `deflateInit_nif(Z, Level, Method, WindowBits, MemLevel, Strategy)`,
/// with the arguments as `zlib.erl` converted them.
fn deflate_init_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (level, bits, mem, strategy) = (small(a[1])?, small(a[3])?, small(a[4])?, small(a[5])?);
    with_stream(p, a[0], |_, s| {
        if !matches!(s.state, State::None) {
            return Err(error("already_initialized"));
        }
        if mem != 8 || strategy != 0 {
            return Err(error("enotsup"));
        }
        // Z_DEFAULT_COMPRESSION (-1) is level 6.
        let level = Compression::new(if level < 0 { 6 } else { level as u32 });
        let (framing, window) = Framing::of(bits);
        let c = match framing {
            Framing::Gzip => Compress::new_gzip(level, window),
            Framing::Raw => Compress::new_with_window_bits(level, false, window),
            Framing::Zlib | Framing::Detect => Compress::new_with_window_bits(level, true, window),
        };
        s.state = State::Deflate {
            c,
            busy: false,
            finished: false,
        };
        Ok(atom("ok"))
    })
}

fn deflate_set_dictionary_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let dict = iodata_bytes(a[1])?;
    with_stream(p, a[0], |p, s| match &mut s.state {
        State::Deflate { c, .. } => {
            let adler = c.set_dictionary(&dict).map_err(|_| error("stream_error"))?;
            Ok(p.heap.int(i64::from(adler)))
        }
        _ => Err(error("not_initialized")),
    })
}

fn deflate_reset_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| match &mut s.state {
        State::Deflate {
            c, busy, finished, ..
        } => {
            c.reset();
            (*busy, *finished) = (false, false);
            s.input.clear();
            Ok(atom("ok"))
        }
        _ => Err(error("not_initialized")),
    })
}

fn deflate_params_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (level, strategy) = (small(a[1])?, small(a[2])?);
    with_stream(p, a[0], |_, s| match &mut s.state {
        State::Deflate { c, .. } => {
            if strategy != 0 {
                return Err(error("enotsup"));
            }
            let level = Compression::new(if level < 0 { 6 } else { level as u32 });
            c.set_level(level).map_err(|_| error("stream_error"))?;
            Ok(atom("ok"))
        }
        _ => Err(error("not_initialized")),
    })
}

/// `deflate_nif(Z, InChunk, OutChunk, Flush)`: compresses all enqueued
/// input with `Flush` and answers `{finished, Output}` (zlib.erl loops on
/// `continue`; deflate's bytes do not depend on how they are chunked).
fn deflate_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let flush = match small(a[3])? {
        Z_SYNC_FLUSH => FlushCompress::Sync,
        Z_FULL_FLUSH => FlushCompress::Full,
        Z_FINISH => FlushCompress::Finish,
        _ => FlushCompress::None,
    };
    with_stream(p, a[0], |p, s| {
        let State::Deflate {
            c, busy, finished, ..
        } = &mut s.state
        else {
            return Err(error("not_initialized"));
        };
        let input = std::mem::take(&mut s.input);
        let mut out = Vec::with_capacity(input.len() / 2 + 64);
        let start = c.total_in();
        loop {
            let consumed = (c.total_in() - start) as usize;
            out.reserve(64.max(out.capacity() - out.len()));
            let before = (c.total_in(), c.total_out());
            let status = c
                .compress_vec(&input[consumed..], &mut out, flush)
                .map_err(|_| error("stream_error"))?;
            let all_in = (c.total_in() - start) as usize == input.len();
            let room_left = out.len() < out.capacity();
            match status {
                Status::StreamEnd => {
                    *finished = true;
                    break;
                }
                _ if flush == FlushCompress::Finish => {}
                _ if all_in && room_left => break,
                Status::BufError if before == (c.total_in(), c.total_out()) && room_left => break,
                _ => {}
            }
        }
        *busy = true;
        let bin = p.heap.binary(&out);
        let output = p.heap.list(&[bin]);
        Ok(p.heap.tuple(&[atom("finished"), output]))
    })
}

fn deflate_end_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| {
        let State::Deflate { busy, finished, .. } = s.state else {
            return Err(error("not_initialized"));
        };
        s.state = State::None;
        s.input.clear();
        if busy && !finished {
            return Err(error("data_error"));
        }
        Ok(atom("ok"))
    })
}

// ---- inflate ----

fn inflate_init_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bits = small(a[1])?;
    // zlib.erl's EOS_BEHAVIOR_ERROR, _RESET, _CUT.
    let eos = match small(a[2])? {
        0 => EndOfStream::Error,
        1 => EndOfStream::Reset,
        _ => EndOfStream::Cut,
    };
    with_stream(p, a[0], |_, s| {
        if !matches!(s.state, State::None) {
            return Err(error("already_initialized"));
        }
        let (framing, window) = Framing::of(bits);
        s.state = State::Inflate {
            d: decompressor(framing, window),
            framing,
            window,
            eos,
            eos_seen: false,
        };
        Ok(atom("ok"))
    })
}

/// A decompressor for `framing`; `None` for `Detect` (made at the first byte).
fn decompressor(framing: Framing, window: u8) -> Option<Decompress> {
    match framing {
        Framing::Zlib => Some(Decompress::new_with_window_bits(true, window)),
        Framing::Raw => Some(Decompress::new_with_window_bits(false, window)),
        Framing::Gzip => Some(Decompress::new_gzip(window)),
        Framing::Detect => None,
    }
}

fn inflate_set_dictionary_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let dict = iodata_bytes(a[1])?;
    with_stream(p, a[0], |_, s| match &mut s.state {
        State::Inflate { d: Some(d), .. } => {
            d.set_dictionary(&dict).map_err(|_| error("data_error"))?;
            Ok(atom("ok"))
        }
        State::Inflate { .. } => Err(error("stream_error")),
        _ => Err(error("not_initialized")),
    })
}

/// flate2 cannot read zlib's dictionary back: `not_supported`, which
/// `zlib:inflateGetDictionary/1` raises as `enotsup`.
fn inflate_get_dictionary_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| match s.state {
        State::Inflate { .. } => Ok(atom("not_supported")),
        _ => Err(error("not_initialized")),
    })
}

fn inflate_reset_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| match &mut s.state {
        State::Inflate {
            d,
            framing,
            window,
            eos_seen,
            ..
        } => {
            *d = decompressor(*framing, *window);
            *eos_seen = false;
            s.input.clear();
            Ok(atom("ok"))
        }
        _ => Err(error("not_initialized")),
    })
}

/// What one `inflate_nif` call ended with.
enum Inflated {
    Continue,
    Finished,
    NeedDictionary(u32),
}

/// `inflate_nif(Z, InChunk, OutChunk, Flush)`: inflates enqueued input
/// until `OutChunk` bytes are out (`continue`), the input runs out
/// (`finished`) or a dictionary is needed.
fn inflate_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let out_chunk = small(a[2])?.max(1) as usize;
    with_stream(p, a[0], |p, s| {
        let mut out = Vec::with_capacity(out_chunk);
        let result = inflate_into(s, &mut out)?;
        let bin = p.heap.binary(&out);
        let output = if out.is_empty() {
            Term::NIL
        } else {
            p.heap.list(&[bin])
        };
        Ok(match result {
            Inflated::Continue => p.heap.tuple(&[atom("continue"), output]),
            Inflated::Finished => p.heap.tuple(&[atom("finished"), output]),
            Inflated::NeedDictionary(adler) => {
                let adler = p.heap.int(i64::from(adler));
                p.heap.tuple(&[atom("need_dictionary"), adler, output])
            }
        })
    })
}

/// Inflates `s`'s input into `out`, up to its capacity.
fn inflate_into(s: &mut Stream, out: &mut Vec<u8>) -> Result<Inflated, Exception> {
    let State::Inflate {
        d,
        framing,
        window,
        eos,
        eos_seen,
    } = &mut s.state
    else {
        return Err(error("not_initialized"));
    };
    loop {
        if *eos_seen {
            match (*eos, s.input.is_empty()) {
                (_, true) => return Ok(Inflated::Finished),
                (EndOfStream::Cut, false) => {
                    s.input.clear();
                    return Ok(Inflated::Finished);
                }
                (EndOfStream::Error, false) => return Err(error("data_error")),
                (EndOfStream::Reset, false) => {
                    *d = decompressor(*framing, *window);
                    *eos_seen = false;
                }
            }
        }
        if s.input.is_empty() {
            return Ok(Inflated::Finished);
        }
        let dec = d.get_or_insert_with(|| {
            let gzip = s.input.first() == Some(&0x1f);
            if gzip {
                Decompress::new_gzip(*window)
            } else {
                Decompress::new_with_window_bits(true, *window)
            }
        });
        let (before_in, before_out) = (dec.total_in(), dec.total_out());
        let status = match dec.decompress_vec(&s.input, out, FlushDecompress::None) {
            Ok(status) => status,
            Err(e) => {
                let used = (dec.total_in() - before_in) as usize;
                s.input.drain(..used);
                return match e.needs_dictionary() {
                    Some(adler) => Ok(Inflated::NeedDictionary(adler)),
                    None => Err(error("data_error")),
                };
            }
        };
        let used = (dec.total_in() - before_in) as usize;
        s.input.drain(..used);
        if status == Status::StreamEnd {
            *eos_seen = true;
            continue;
        }
        if out.len() == out.capacity() {
            return Ok(Inflated::Continue);
        }
        if used == 0 && dec.total_out() == before_out {
            // The input ended inside the stream: more must be enqueued.
            return Ok(Inflated::Finished);
        }
    }
}

fn inflate_end_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| {
        let State::Inflate { eos_seen, .. } = s.state else {
            return Err(error("not_initialized"));
        };
        s.state = State::None;
        s.input.clear();
        if !eos_seen {
            return Err(error("data_error"));
        }
        Ok(atom("ok"))
    })
}

// ---- input, stash, buffer size ----

/// `enqueue_nif(Z, IOVec)`: all of it queued (`ok`).
fn enqueue_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[1])?;
    with_stream(p, a[0], |_, s| match s.state {
        State::Deflate { .. } | State::Inflate { .. } => {
            s.input.extend_from_slice(&bytes);
            Ok(atom("ok"))
        }
        _ => Err(error("not_initialized")),
    })
}

fn get_stash_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |p, s| match &s.stash {
        Some(stored) => {
            let t = p.heap.copy_term(stored.term());
            Ok(p.heap.tuple(&[atom("ok"), t]))
        }
        None => Ok(atom("empty")),
    })
}

fn set_stash_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| {
        s.stash = Some(Stored::new(a[1]));
        Ok(atom("ok"))
    })
}

fn clear_stash_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |_, s| {
        s.stash = None;
        Ok(atom("ok"))
    })
}

fn get_buf_size_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_stream(p, a[0], |p, s| Ok(p.heap.int(s.buf_size)))
}

fn set_buf_size_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = small(a[1])?;
    with_stream(p, a[0], |_, s| {
        s.buf_size = size;
        Ok(atom("ok"))
    })
}
