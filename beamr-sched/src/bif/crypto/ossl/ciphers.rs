//! The symmetric ciphers crypto offers, as erts's crypto names them, and
//! `cipher_info_nif/1`.
//!
//! The table holds AES (ECB, CBC, CTR, CFB8, CFB128, OFB, GCM, CCM in
//! 128, 192 and 256 bits), ChaCha20, ChaCha20-Poly1305 and triple DES (CBC, CFB):
//! the ones in OpenSSL 3's default provider. erts's DES, Blowfish, RC2,
//! RC4 and SM4 are not here (`crypto:supports(ciphers)` does not list
//! them, and they fail as unknown ciphers).

use beamr_core::term::Term;
use openssl::cipher::{Cipher, CipherRef};

use crate::bif::common::atoms::atom;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// A cipher's mode, as `cipher_info/1` names it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
    Gcm,
    Ccm,
    Stream,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb_mode",
            Mode::Cbc => "cbc_mode",
            Mode::Cfb => "cfb_mode",
            Mode::Ofb => "ofb_mode",
            Mode::Ctr => "ctr_mode",
            Mode::Gcm => "gcm_mode",
            Mode::Ccm => "ccm_mode",
            Mode::Stream => "stream_cipher",
        }
    }
}

/// One cipher of the table: crypto's name, its OpenSSL cipher, the key
/// length it takes, its mode, and whether it is an AEAD.
pub(super) struct CipherType {
    pub name: &'static str,
    pub cipher: fn() -> &'static CipherRef,
    pub key_len: usize,
    pub mode: Mode,
    pub aead: bool,
}

macro_rules! c {
    ($name:literal, $f:ident, $key:literal, $mode:ident) => {
        c!($name, $f, $key, $mode, false)
    };
    ($name:literal, $f:ident, $key:literal, $mode:ident, $aead:literal) => {
        CipherType {
            name: $name,
            cipher: Cipher::$f,
            key_len: $key,
            mode: Mode::$mode,
            aead: $aead,
        }
    };
}

/// The ciphers, in `crypto:supports(ciphers)`'s order (erts's list, less
/// the ciphers not here). `crypto.erl` itself turns the aliases (`aes_cbc`
/// and the like) into these names by the key's size, and adds them to
/// `supports(ciphers)`.
pub(super) const CIPHERS: &[CipherType] = &[
    c!("chacha20", chacha20, 32, Stream),
    c!("aes_256_ofb", aes_256_ofb, 32, Ofb),
    c!("aes_192_ofb", aes_192_ofb, 24, Ofb),
    c!("aes_128_ofb", aes_128_ofb, 16, Ofb),
    c!("des_ede3_cfb", des_ede3_cfb64, 24, Cfb),
    c!("aes_128_cbc", aes_128_cbc, 16, Cbc),
    c!("aes_192_cbc", aes_192_cbc, 24, Cbc),
    c!("aes_256_cbc", aes_256_cbc, 32, Cbc),
    c!("aes_128_cfb128", aes_128_cfb128, 16, Cfb),
    c!("aes_192_cfb128", aes_192_cfb128, 24, Cfb),
    c!("aes_256_cfb128", aes_256_cfb128, 32, Cfb),
    c!("aes_128_cfb8", aes_128_cfb8, 16, Cfb),
    c!("aes_192_cfb8", aes_192_cfb8, 24, Cfb),
    c!("aes_256_cfb8", aes_256_cfb8, 32, Cfb),
    c!("aes_128_ecb", aes_128_ecb, 16, Ecb),
    c!("aes_192_ecb", aes_192_ecb, 24, Ecb),
    c!("aes_256_ecb", aes_256_ecb, 32, Ecb),
    c!("chacha20_poly1305", chacha20_poly1305, 32, Stream, true),
    c!("aes_256_gcm", aes_256_gcm, 32, Gcm, true),
    c!("aes_256_ccm", aes_256_ccm, 32, Ccm, true),
    c!("aes_192_gcm", aes_192_gcm, 24, Gcm, true),
    c!("aes_192_ccm", aes_192_ccm, 24, Ccm, true),
    c!("aes_128_gcm", aes_128_gcm, 16, Gcm, true),
    c!("aes_128_ccm", aes_128_ccm, 16, Ccm, true),
    c!("aes_256_ctr", aes_256_ctr, 32, Ctr),
    c!("aes_192_ctr", aes_192_ctr, 24, Ctr),
    c!("aes_128_ctr", aes_128_ctr, 16, Ctr),
    c!("des_ede3_cbc", des_ede3_cbc, 24, Cbc),
];

/// The cipher named `name` that takes a key of `key_len` bytes (erts's
/// `get_cipher_type`).
pub(super) fn by_name_and_key(name: &str, key_len: usize) -> Option<&'static CipherType> {
    CIPHERS
        .iter()
        .find(|c| c.name == name && c.key_len == key_len)
}

/// The cipher erts's `get_cipher_type` finds for `name` and a key of
/// `key_len` bytes: erts's table gives triple DES and ChaCha20-Poly1305
/// no key length, so those are found whatever the key (OpenSSL refuses a
/// wrong one later).
pub(super) fn by_name_as_erts(name: &str, key_len: usize) -> Option<&'static CipherType> {
    by_name_and_key(name, key_len).or_else(|| {
        by_name(name).filter(|c| {
            matches!(
                c.name,
                "des_ede3_cbc" | "des_ede3_cfb" | "chacha20_poly1305"
            )
        })
    })
}

/// The first cipher named `name`, whatever its key (erts's
/// `get_cipher_type_no_key`).
pub(super) fn by_name(name: &str) -> Option<&'static CipherType> {
    CIPHERS.iter().find(|c| c.name == name)
}

/// The names of the ciphers, each once, in the table's order.
pub(super) fn names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for c in CIPHERS {
        if !out.contains(&c.name) {
            out.push(c.name);
        }
    }
    out
}

impl CipherType {
    /// The OpenSSL cipher.
    pub(super) fn evp(&self) -> &'static CipherRef {
        (self.cipher)()
    }
}

/// `cipher_info_nif(Type)`: `#{type, key_length, iv_length, block_size,
/// mode, prop_aead}`; a plain badarg for a name not in the table.
pub(super) fn cipher_info_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let c = by_name(name.name()).ok_or_else(Exception::badarg)?;
    let evp = c.evp();
    let small = |n: usize| Term::small_unchecked(n as i64);
    // erts gives `undefined` for a cipher without an ASN.1 object.
    let ty = match super::ffi::cipher_type(evp) {
        0 => atom("undefined"),
        n => Term::small_unchecked(i64::from(n)),
    };
    let pairs = [
        (atom("block_size"), small(evp.block_size())),
        (atom("iv_length"), small(evp.iv_length())),
        (atom("key_length"), small(c.key_len)),
        (atom("mode"), atom(c.mode.name())),
        (
            atom("prop_aead"),
            if c.aead { Term::TRUE } else { Term::FALSE },
        ),
        (atom("type"), ty),
    ];
    Ok(beamr_core::map::from_pairs(&mut p.heap, &pairs))
}

#[cfg(test)]
mod tests {
    use super::{Mode, CIPHERS};

    /// Each row's key length is its OpenSSL cipher's, so a key crypto
    /// accepts is never shorter than what OpenSSL reads; the AEAD rows are
    /// the GCM, CCM and ChaCha20-Poly1305 ones.
    #[test]
    fn rows_agree_with_openssl() {
        for c in CIPHERS {
            assert_eq!(c.evp().key_length(), c.key_len, "{}", c.name);
            let aead = matches!(c.mode, Mode::Gcm | Mode::Ccm) || c.name == "chacha20_poly1305";
            assert_eq!(c.aead, aead, "{}", c.name);
        }
    }
}
