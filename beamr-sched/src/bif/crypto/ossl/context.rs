//! An OpenSSL cipher context that a crypto resource can hold while its
//! process moves between scheduler threads.

use openssl::cipher_ctx::CipherCtx;

/// A cipher context owned by one resource, used under its `Mutex`.
pub(super) struct Ctx(pub(super) CipherCtx);

// SAFETY: an EVP_CIPHER_CTX is heap memory that this value alone owns (it
// frees it on drop); OpenSSL keeps no thread-local state in it and gives it
// no thread affinity, so it may be used from another thread than the one
// that made it. `CipherCtx` is not `Send` only because it wraps a raw
// pointer. Every `Ctx` lives inside a `Mutex` (see `stream.rs`), so one
// thread at a time touches it.
unsafe impl Send for Ctx {}
