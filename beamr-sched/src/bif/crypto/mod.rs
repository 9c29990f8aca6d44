//! `crypto`'s NIFs natively: hashes, HMAC, random bytes (`crypto.erl`
//! runs as bytecode on top).

pub(super) mod nifs;
