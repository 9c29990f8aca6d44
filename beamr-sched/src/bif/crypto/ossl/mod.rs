//! The `crypto` NIFs built on the system's OpenSSL (the `openssl` crate over
//! Debian's libssl, the library erts's own crypto links), one module per
//! family:
//!
//! - [`info`]: `info_lib/0`, `info_nif/0`, `cipher_algorithms/0`;
//! - [`ciphers`]: the table of symmetric ciphers and `cipher_info_nif/1`;
//! - [`stream`]: `ng_crypto_init_nif/4`, `ng_crypto_update_nif/2`,
//!   `ng_crypto_final_nif/1`, `ng_crypto_get_data_nif/1` and
//!   `ng_crypto_one_time_nif/5`;
//! - [`aead`]: `aead_cipher_nif/7`, AES-GCM, AES-CCM, ChaCha20-Poly1305.
//!
//! Errors are raised as the C NIFs raise them (see [`error`]), with the C
//! file and line of the release that runs, so that `crypto.erl` turns them
//! into the exceptions erl gives.

mod aead;
mod ciphers;
mod context;
mod error;
mod info;
mod stream;

use crate::loader::BifRow;

/// The BIFs of this wing.
pub(crate) const BIFS: &[BifRow] = &[
    ("crypto", "info_lib", 0, info::info_lib),
    ("crypto", "info_nif", 0, info::info_nif),
    ("crypto", "cipher_algorithms", 0, info::cipher_algorithms),
    ("crypto", "cipher_info_nif", 1, ciphers::cipher_info_nif),
    ("crypto", "ng_crypto_init_nif", 4, stream::init_nif),
    ("crypto", "ng_crypto_update_nif", 2, stream::update_nif),
    ("crypto", "ng_crypto_final_nif", 1, stream::final_nif),
    ("crypto", "ng_crypto_get_data_nif", 1, stream::get_data_nif),
    ("crypto", "ng_crypto_one_time_nif", 5, stream::one_time_nif),
    ("crypto", "aead_cipher_nif", 7, aead::aead_cipher_nif),
];
