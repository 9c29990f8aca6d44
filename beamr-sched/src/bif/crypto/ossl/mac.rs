//! CMAC and Poly1305 on OpenSSL, for `mac_nif/4` and `mac_init_nif/3`
//! (whose argument checks and HMAC are in `nifs`): the key made as erts's
//! mac.c makes it, then the MAC fed in pieces (`mac_nif` feeds it once).

use beamr_core::term::Term;
use openssl::md_ctx::MdCtx;
use openssl::pkey::{Id, PKey, Private};
use openssl::symm::Cipher;

use super::ciphers::{by_name, by_name_as_erts};
use super::error::{badarg, Line};
use crate::process::{Exception, Process};

/// Where erts raises a bad CMAC cipher: `mac_nif`'s lines and
/// `mac_init_nif`'s differ.
#[derive(Clone, Copy)]
pub(in crate::bif::crypto) struct CipherLines {
    /// "Unknown cipher" (C argument 1).
    pub unknown: Line,
    /// "Bad key size" (C argument 2): the cipher takes another key.
    pub key_size: Line,
}

/// The CMAC key of `key` over cipher `sub` (crypto's name, an alias
/// already turned into one by `crypto.erl`), or mac.c's error for a
/// cipher it does not know or a key it does not take; `None` when OpenSSL
/// refuses the pair (the caller raises its "couldn't" error).
pub(in crate::bif::crypto) fn cmac_key(
    p: &mut Process,
    sub: Term,
    key: &[u8],
    lines: CipherLines,
) -> Result<Option<PKey<Private>>, Exception> {
    let name = sub.as_atom().map(|a| a.name()).unwrap_or_default();
    let Some(cipher) = by_name_as_erts(name, key.len()) else {
        return Err(match by_name(name) {
            None => badarg(p, "mac.c", lines.unknown, 1, "Unknown cipher"),
            Some(_) => badarg(p, "mac.c", lines.key_size, 2, "Bad key size"),
        });
    };
    Ok(Cipher::from_nid(cipher.evp().nid()).and_then(|c| PKey::cmac(&c, key).ok()))
}

/// The Poly1305 key of `key` (32 bytes, which the caller checked).
pub(in crate::bif::crypto) fn poly1305_key(key: &[u8]) -> Option<PKey<Private>> {
    PKey::private_key_from_raw_bytes(key, Id::POLY1305).ok()
}

/// A CMAC or Poly1305 fed in pieces (`mac_init_nif`, `mac_update_nif`,
/// `mac_final_nif`): OpenSSL's signing context, which holds its own
/// reference to the key.
pub(in crate::bif::crypto) struct Streaming(pub(super) MdCtx);

impl Streaming {
    /// A MAC under `key` with nothing fed yet; `None` when OpenSSL
    /// refuses the key (erts's "Can't initialize EVP_MAC_CTX").
    pub(in crate::bif::crypto) fn new(key: &PKey<Private>) -> Option<Streaming> {
        let mut ctx = MdCtx::new().ok()?;
        ctx.digest_sign_init(None, key).ok()?;
        Some(Streaming(ctx))
    }

    /// Feeds `data`; false when OpenSSL fails ("mac update").
    pub(in crate::bif::crypto) fn update(&mut self, data: &[u8]) -> bool {
        self.0.digest_sign_update(data).is_ok()
    }

    /// The MAC of what was fed.
    pub(in crate::bif::crypto) fn finish(&mut self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.0.digest_sign_final_to_vec(&mut out).ok()?;
        Some(out)
    }
}
