//! Decoding: `binary_to_term`. The public entry points, their options, and
//! the handling of the version byte and of compressed terms; the two passes
//! themselves are [`scan`](super::scan) and [`build`](super::build).

use super::build::build;
use super::error::{EtfError, EtfErrorKind};
use super::reader::Reader;
use super::scan::scan;
use super::tag;
use super::zlib::inflate;
use crate::heap::Heap;
use crate::term::Term;

/// The default bound on nesting depth (see [`DecodeOptions::max_depth`]).
pub const DEFAULT_MAX_DEPTH: usize = 1 << 20;

/// The default bound on a compressed term's uncompressed size, in bytes.
pub const DEFAULT_MAX_INFLATED: usize = 1 << 30;

/// Limits and modes of decoding.
#[derive(Clone, Debug)]
pub struct DecodeOptions {
    /// Refuse to create atoms (`binary_to_term(B, [safe])`): an atom that
    /// does not exist yet is an error.
    pub safe: bool,
    /// The deepest nesting of compound terms accepted (a tuple in a list in
    /// a map is 3 deep). Decoding uses no native recursion whatever this is;
    /// it bounds the decoder's explicit stacks.
    pub max_depth: usize,
    /// The largest uncompressed size a compressed term may declare.
    pub max_inflated: usize,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            safe: false,
            max_depth: DEFAULT_MAX_DEPTH,
            max_inflated: DEFAULT_MAX_INFLATED,
        }
    }
}

/// Decodes the term encoded in `bytes` (`binary_to_term/1`), building it on
/// `heap`. Bytes after the term are ignored, as OTP does; see
/// [`decode_used`] to learn where the term ended.
pub fn decode(bytes: &[u8], heap: &mut Heap) -> Result<Term, EtfError> {
    decode_with(bytes, heap, &DecodeOptions::default()).map(|(term, _)| term)
}

/// Decodes the term at the start of `bytes` and returns it with the number
/// of bytes it took (`binary_to_term(B, [used])`), for a term embedded in a
/// larger buffer.
pub fn decode_used(bytes: &[u8], heap: &mut Heap) -> Result<(Term, usize), EtfError> {
    decode_with(bytes, heap, &DecodeOptions::default())
}

/// Decodes the term at the start of `bytes` under `options`, returning it
/// and the number of bytes it took.
///
/// The input is checked whole before anything is built, so an error leaves
/// no atom created and nothing allocated on `heap` (except when the atom
/// table fills up or a map has duplicate keys, found while building).
pub fn decode_with(
    bytes: &[u8],
    heap: &mut Heap,
    options: &DecodeOptions,
) -> Result<(Term, usize), EtfError> {
    let mut r = Reader::new(bytes, false);
    let version = r.u8()?;
    if version != tag::VERSION {
        return Err(EtfError::new(EtfErrorKind::BadVersion(version), 0));
    }
    if bytes.get(1) == Some(&tag::COMPRESSED) {
        r.u8()?;
        let declared = r.u32()?;
        let start = r.pos();
        let (inflated, used) = inflate(&bytes[start..], declared, options.max_inflated)
            .map_err(|kind| EtfError::new(kind, start))?;
        let mut inner = Reader::new(&inflated, true);
        // Bytes after the term inside the payload are ignored, as OTP does.
        let term = decode_term(&mut inner, heap, options)?;
        return Ok((term, start + used));
    }
    let term = decode_term(&mut r, heap, options)?;
    Ok((term, r.pos()))
}

/// Checks, then builds, the term at the reader's cursor.
fn decode_term(
    r: &mut Reader<'_>,
    heap: &mut Heap,
    options: &DecodeOptions,
) -> Result<Term, EtfError> {
    let start = r.pos();
    scan(r, options.max_depth)?;
    let end = r.pos();
    r.seek(start);
    let term = build(r, heap, options)?;
    debug_assert_eq!(r.pos(), end, "both passes read the same bytes");
    Ok(term)
}
