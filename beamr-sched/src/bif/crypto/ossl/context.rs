//! The OpenSSL contexts (a cipher's, a MAC's) that a crypto resource can
//! hold while its process moves between scheduler threads.

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

// SAFETY: an EVP_MD_CTX (with the EVP_PKEY it references, counted) is heap
// memory that this value alone owns and frees on drop; OpenSSL gives it no
// thread affinity. `MdCtx` is not `Send` only because it wraps a raw
// pointer. Every `Streaming` MAC lives inside a `Mutex` (the MAC states of
// `nifs`), so one thread at a time touches it.
unsafe impl Send for super::mac::Streaming {}
