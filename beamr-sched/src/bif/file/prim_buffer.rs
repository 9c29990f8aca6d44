//! `prim_buffer`: the byte queue `prim_file` keeps per open file for its
//! read-ahead and line reading, a resource (see [`crate::bif::common::resource`]).
//!
//! Bytes are written at the back and read from the front; reading more
//! than the buffer holds raises badarg, as erts's NIF does.

use crate::bif::common::atoms::atom;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::resource::Resources;
use crate::bif::erlang::binaries::binary_bytes;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("prim_buffer", "new", 0, new),
    ("prim_buffer", "size", 1, size),
    ("prim_buffer", "read", 2, read),
    ("prim_buffer", "copying_read", 2, read),
    ("prim_buffer", "read_iovec", 2, read_iovec),
    ("prim_buffer", "write", 2, write),
    ("prim_buffer", "skip", 2, skip),
    ("prim_buffer", "wipe", 1, wipe),
    ("prim_buffer", "find_byte_index", 2, find_byte_index),
    ("prim_buffer", "peek_head", 1, peek_head),
    ("prim_buffer", "try_lock", 1, try_lock),
    ("prim_buffer", "unlock", 1, unlock),
];

/// One buffer.
#[derive(Default)]
struct Buffer {
    bytes: Mutex<VecDeque<u8>>,
    /// `try_lock/1`'s flag (advisory, for the Erlang code that shares a buffer).
    locked: AtomicBool,
}

impl Buffer {
    fn bytes(&self) -> MutexGuard<'_, VecDeque<u8>> {
        self.bytes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Third id word of a buffer's reference.
const BUFFER_TAG: u32 = 0x00B0_FF00;

static BUFFERS: Resources<Buffer> = Resources::new(BUFFER_TAG);

fn buffer(t: Term) -> Result<std::sync::Arc<Buffer>, Exception> {
    BUFFERS.get(t).ok_or_else(Exception::badarg)
}

fn count(t: Term) -> Result<usize, Exception> {
    t.as_small()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)
}

fn new(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(BUFFERS.insert(p, Buffer::default()))
}

fn size(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = buffer(a[0])?.bytes().len();
    Ok(p.heap.int(n as i64))
}

/// The first `n` bytes, taken off the buffer.
fn take(a: &[Term]) -> Result<Vec<u8>, Exception> {
    let (b, n) = (buffer(a[0])?, count(a[1])?);
    let mut bytes = b.bytes();
    if n > bytes.len() {
        return Err(Exception::badarg());
    }
    Ok(bytes.drain(..n).collect())
}

fn read(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = take(a)?;
    Ok(p.heap.binary(&bytes))
}

fn read_iovec(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = take(a)?;
    if bytes.is_empty() {
        return Ok(Term::NIL);
    }
    let bin = p.heap.binary(&bytes);
    Ok(p.heap.list(&[bin]))
}

/// `write(Buffer, IOVec)`: appends a list of binaries.
fn write(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let b = buffer(a[0])?;
    let parts = a[1].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut chunks = Vec::with_capacity(parts.len());
    for part in &parts {
        chunks.push(binary_bytes(part)?);
    }
    let mut bytes = b.bytes();
    for chunk in chunks {
        bytes.extend(chunk.iter());
    }
    Ok(Term::atom(Atom::OK))
}

fn skip(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    take(a)?;
    Ok(Term::atom(Atom::OK))
}

fn wipe(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    buffer(a[0])?.bytes().clear();
    Ok(Term::atom(Atom::OK))
}

/// `find_byte_index(Buffer, Byte)`: `{ok, Index}` of its first occurrence,
/// or `not_found`.
fn find_byte_index(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let b = buffer(a[0])?;
    let byte = a[1]
        .as_small()
        .and_then(|n| u8::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    let found = b.bytes().iter().position(|&x| x == byte);
    Ok(match found {
        Some(i) => p
            .heap
            .tuple(&[Term::atom(Atom::OK), Term::small_unchecked(i as i64)]),
        None => atom("not_found"),
    })
}

/// `peek_head(Buffer)`: the buffered bytes, left in place.
fn peek_head(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes: Vec<u8> = buffer(a[0])?.bytes().iter().copied().collect();
    Ok(p.heap.binary(&bytes))
}

fn try_lock(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let b = buffer(a[0])?;
    let taken = b
        .locked
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_ok();
    Ok(atom(if taken { "acquired" } else { "busy" }))
}

fn unlock(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    buffer(a[0])?.locked.store(false, Ordering::Release);
    Ok(Term::atom(Atom::OK))
}
