//! The OpenSSL functions the `openssl` crate does not bind, each behind a
//! safe function.

use foreign_types::ForeignTypeRef;
use openssl::cipher::CipherRef;

extern "C" {
    // libcrypto's, from OpenSSL 3.0 on (`EVP_CIPHER_type` is a macro for
    // it); the `openssl` crate links libcrypto.
    fn EVP_CIPHER_get_type(cipher: *const std::ffi::c_void) -> std::ffi::c_int;
}

/// `EVP_CIPHER_type(cipher)`, what erts's `cipher_info/1` gives as
/// `type`: the cipher's ASN.1 object NID, or 0 when it has none. It is
/// the library's answer, not a table's, because releases differ: OpenSSL
/// releases before its fix of April 2026 (openssl/openssl#30966) answer
/// triple DES CFB with single DES CFB's NID (30), later ones with its own
/// (61).
pub(super) fn cipher_type(cipher: &CipherRef) -> i32 {
    // SAFETY: `as_ptr` is a live EVP_CIPHER (a `CipherRef` borrows one the
    // library owns for the whole program: every cipher here is a
    // static `EVP_*()` one); EVP_CIPHER_get_type only reads it.
    unsafe { EVP_CIPHER_get_type(cipher.as_ptr().cast()) }
}
