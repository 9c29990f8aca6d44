//! The digests the public-key and KDF NIFs take, by crypto's names (erts
//! looks them up in one table, `get_digest_type`, for every family).

use beamr_core::term::Term;
use openssl::nid::Nid;

/// OpenSSL's name for the digest crypto calls `t`, if it is one of these.
pub(super) fn nid(t: Term) -> Option<Nid> {
    Some(match t.as_atom()?.name() {
        "sha" => Nid::SHA1,
        "sha224" => Nid::SHA224,
        "sha256" => Nid::SHA256,
        "sha384" => Nid::SHA384,
        "sha512" => Nid::SHA512,
        "sha3_224" => Nid::SHA3_224,
        "sha3_256" => Nid::SHA3_256,
        "sha3_384" => Nid::SHA3_384,
        "sha3_512" => Nid::SHA3_512,
        "md5" => Nid::MD5,
        "ripemd160" => Nid::RIPEMD160,
        _ => return None,
    })
}
