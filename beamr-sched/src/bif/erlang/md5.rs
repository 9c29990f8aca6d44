//! `erlang:md5_init/0`, `md5_update/2` and `md5_final/1`: MD5 over data
//! given in parts (`ets:tab2file/3`'s `md5sum`), on the md-5 crate.
//!
//! erts's context is an 88-byte binary holding its `MD5_CTX`. The md-5
//! crate does not expose its state, so beamr's context is a binary of the
//! same size that names a state kept in a process-wide table:
//!
//! ```text
//! bytes 0..8    b"beamrMD5"
//! bytes 8..16   the state's serial, little-endian u64
//! bytes 16..88  zero
//! ```
//!
//! Contexts are values: `md5_update` leaves its argument valid and returns
//! a context naming a new state. As with other native objects in beamr
//! (see `resource`), a state lives until the runtime ends.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex, PoisonError};

use beamr_core::term::Term;
use md5::{Digest, Md5};

use super::binaries::iodata_bytes;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "md5_init", 0, md5_init),
    ("erlang", "md5_update", 2, md5_update),
    ("erlang", "md5_final", 1, md5_final),
];

/// Size of a context binary (erts's `sizeof(MD5_CTX)`).
const CONTEXT_BYTES: usize = 88;

/// The first bytes of every context beamr makes.
const MAGIC: &[u8; 8] = b"beamrMD5";

static NEXT: AtomicU64 = AtomicU64::new(1);
static STATES: LazyLock<Mutex<HashMap<u64, Md5>>> = LazyLock::new(Mutex::default);

/// A context binary naming `state`, on `p`'s heap.
fn context(p: &mut Process, state: Md5) -> Term {
    let serial = NEXT.fetch_add(1, Ordering::Relaxed);
    STATES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(serial, state);
    let mut bytes = [0u8; CONTEXT_BYTES];
    bytes[..8].copy_from_slice(MAGIC);
    bytes[8..16].copy_from_slice(&serial.to_le_bytes());
    p.heap.binary(&bytes)
}

/// The state context `t` names (a copy); badarg for anything else.
fn state(t: Term) -> Result<Md5, Exception> {
    let view = t.as_binary().ok_or_else(Exception::badarg)?;
    let bytes = view.as_bytes().ok_or_else(Exception::badarg)?;
    if bytes.len() != CONTEXT_BYTES || &bytes[..8] != MAGIC {
        return Err(Exception::badarg());
    }
    let serial = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    STATES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&serial)
        .cloned()
        .ok_or_else(Exception::badarg)
}

fn md5_init(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(context(p, Md5::new()))
}

fn md5_update(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut state = state(a[0])?;
    state.update(iodata_bytes(a[1])?);
    Ok(context(p, state))
}

fn md5_final(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let digest: [u8; 16] = state(a[0])?.finalize().into();
    Ok(p.heap.binary(&digest))
}
