//! `zlib` natively: the one-call functions (`compress/1`, `gzip/1`, ...)
//! and the streaming NIFs under OTP's `zlib.erl`.

pub(super) mod one_call;
pub(super) mod stream;
