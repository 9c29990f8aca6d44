//! Key derivation: `pbkdf2_hmac_nif(Digest, Pass, Salt, Iter, KeyLen)`
//! (erts's `pbkdf2_hmac.c`).

use beamr_core::term::Term;
use openssl::hash::MessageDigest;

use super::error::{self, Line};
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

const FILE: &str = "pbkdf2_hmac.c";

/// The digest PBKDF2 takes, by crypto's name.
fn digest(t: Term) -> Option<MessageDigest> {
    MessageDigest::from_nid(super::digest::nid(t)?)
}

/// A count argument that must be above zero (and fit OpenSSL's `int`).
fn positive(t: Term) -> Option<usize> {
    t.as_small()
        .filter(|n| *n > 0 && *n <= i64::from(i32::MAX))
        .map(|n| n as usize)
}

/// `pbkdf2_hmac_nif(Digest, Pass, Salt, Iter, KeyLen)`: the derived key.
pub(super) fn pbkdf2_hmac_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let Some(md) = digest(a[0]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(34, 34, 36),
            0,
            "Bad digest type",
        ));
    };
    let Ok(pass) = binary_bytes(&a[1]).map(|b| b.to_vec()) else {
        return Err(error::badarg(p, FILE, Line(41, 41, 43), 1, "Not binary"));
    };
    let Ok(salt) = binary_bytes(&a[2]).map(|b| b.to_vec()) else {
        return Err(error::badarg(p, FILE, Line(44, 44, 46), 2, "Not binary"));
    };
    let Some(iter) = positive(a[3]) else {
        return Err(error::badarg(p, FILE, Line(49, 77, 79), 3, "Must be > 0"));
    };
    let Some(len) = positive(a[4]) else {
        return Err(error::badarg(p, FILE, Line(54, 82, 84), 4, "Must be > 0"));
    };
    let mut key = vec![0u8; len];
    openssl::pkcs5::pbkdf2_hmac(&pass, &salt, iter, md, &mut key)
        .map_err(|_| error::error(p, FILE, Line(60, 88, 90), "Low-level call failed"))?;
    Ok(p.heap.binary(&key))
}
