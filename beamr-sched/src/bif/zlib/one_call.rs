//! `zlib`'s one-call functions natively: `compress/1`, `uncompress/1`
//! (zlib format), `zip/1`, `unzip/1` (raw deflate) and `gzip/1`,
//! `gunzip/1` (gzip format, several members in a row for `gunzip`).
//!
//! They run the system zlib through flate2, with OTP's parameters (level
//! 6, window bits 15, memory level 8), so the compressed bytes are the
//! ones erl writes. Data that does not inflate raises `data_error`, as
//! OTP's `zlib` does; `uncompress/1` ignores bytes after the stream's end,
//! as it does. The streaming API (`zlib:open/0`, `deflateInit/1,2,6`,
//! `inflate/2`, ...) is in `stream`.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::erlang::binaries::iodata_bytes;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("zlib", "compress", 1, compress),
    ("zlib", "uncompress", 1, uncompress),
    ("zlib", "zip", 1, zip),
    ("zlib", "unzip", 1, unzip),
    ("zlib", "gzip", 1, gzip),
    ("zlib", "gunzip", 1, gunzip),
];

/// zlib's default level, which OTP's `zlib` asks for.
const LEVEL: u32 = 6;
/// The window, 2^15 bytes.
const WINDOW_BITS: u8 = 15;

fn data_error() -> Exception {
    Exception::error(Term::atom(Atom::new("data_error").expect("atom")))
}

/// All of `input` through `c`, to the stream's end.
fn deflate(mut c: Compress, input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() / 2 + 64);
    loop {
        let consumed = c.total_in() as usize;
        let status = c
            .compress_vec(&input[consumed..], &mut out, FlushCompress::Finish)
            .expect("deflate never fails on memory it owns");
        if status == Status::StreamEnd {
            return out;
        }
        out.reserve(out.capacity().max(64));
    }
}

/// Inflates one stream from the start of `input` with `d`: the bytes and
/// how much of `input` the stream took; `None` when it is not a whole,
/// valid stream.
fn inflate(mut d: Decompress, input: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(input.len() * 3 + 64);
    loop {
        let consumed = d.total_in() as usize;
        let produced = d.total_out();
        let status = d
            .decompress_vec(&input[consumed..], &mut out, FlushDecompress::None)
            .ok()?;
        match status {
            Status::StreamEnd => return Some((out, d.total_in() as usize)),
            // No progress with room to spare: the input ended early.
            _ if d.total_in() as usize == consumed
                && d.total_out() == produced
                && out.len() < out.capacity() =>
            {
                return None
            }
            _ => {
                if out.len() == out.capacity() {
                    out.reserve(out.capacity().max(64));
                }
            }
        }
    }
}

fn compress(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    deflated(p, a[0], true)
}

fn uncompress(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    inflated(p, a[0], true)
}

fn zip(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    deflated(p, a[0], false)
}

fn unzip(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    inflated(p, a[0], false)
}

/// `data` deflated as one binary, with a zlib header and trailer
/// (`compress/1`) or raw (`zip/1`).
fn deflated(p: &mut Process, data: Term, zlib_header: bool) -> Result<Term, Exception> {
    let input = iodata_bytes(data)?;
    let c = Compress::new_with_window_bits(Compression::new(LEVEL), zlib_header, WINDOW_BITS);
    Ok(p.heap.binary(&deflate(c, &input)))
}

/// `data` inflated as one binary: the inverse of [`deflated`].
fn inflated(p: &mut Process, data: Term, zlib_header: bool) -> Result<Term, Exception> {
    let input = iodata_bytes(data)?;
    let (out, _) = inflate(
        Decompress::new_with_window_bits(zlib_header, WINDOW_BITS),
        &input,
    )
    .ok_or_else(data_error)?;
    Ok(p.heap.binary(&out))
}

fn gzip(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let input = iodata_bytes(a[0])?;
    let c = Compress::new_gzip(Compression::new(LEVEL), WINDOW_BITS);
    Ok(p.heap.binary(&deflate(c, &input)))
}

/// `gunzip(Data)`: every gzip member in `Data`, one after another.
fn gunzip(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let input = iodata_bytes(a[0])?;
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        let (bytes, used) =
            inflate(Decompress::new_gzip(WINDOW_BITS), &input[at..]).ok_or_else(data_error)?;
        out.extend_from_slice(&bytes);
        at += used;
        if at >= input.len() {
            return Ok(p.heap.binary(&out));
        }
    }
}
