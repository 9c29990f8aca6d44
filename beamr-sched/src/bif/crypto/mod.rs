//! `crypto`'s NIFs natively (`crypto.erl` runs as bytecode on top): hashes,
//! HMAC and random bytes in [`nifs`], and the families built on the
//! system's OpenSSL (ciphers, AEAD, library information) in [`ossl`].

pub(super) mod nifs;
pub(super) mod ossl;
