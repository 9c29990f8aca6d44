//! The `crypto` NIFs built on the system's OpenSSL (the `openssl` crate over
//! Debian's libssl, the library erts's own crypto links), one module per
//! family:
//!
//! - [`info`]: `info_lib/0`, `info_nif/0`, and the lists behind
//!   `crypto:supports/1` of ciphers, public-key kinds and curves;
//! - [`ciphers`]: the table of symmetric ciphers and `cipher_info_nif/1`;
//! - [`stream`]: `ng_crypto_init_nif/4`, `ng_crypto_update_nif/2`,
//!   `ng_crypto_final_nif/1`, `ng_crypto_get_data_nif/1` and
//!   `ng_crypto_one_time_nif/5`;
//! - [`aead`]: `aead_cipher_nif/7`, AES-GCM, AES-CCM, ChaCha20-Poly1305,
//!   and the state of `aead_cipher_init_nif/4` for `aead_cipher_nif/4`;
//! - [`keys`]: key generation and agreement (X25519, X448, ECDH on named
//!   prime curves, DH), and the Ed25519/Ed448 key pairs;
//! - [`sign`]: signatures (RSA PKCS #1 v1.5 and PSS, ECDSA, EdDSA) and
//!   RSA key generation;
//! - [`rsa`]: RSA encryption and decryption (`pkey_crypt_nif/6`);
//! - [`rsa_opts`]: the RSA options list both of those take;
//! - [`kdf`]: PBKDF2 (`pbkdf2_hmac_nif/5`);
//! - [`mac`]: CMAC and Poly1305, for `nifs`'s MAC NIFs;
//! - [`digest`]: the digest names the three above take;
//! - [`ffi`]: the libcrypto calls the `openssl` crate does not bind.
//!
//! Errors are raised as the C NIFs raise them (see [`error`]), with the C
//! file and line of the release that runs, so that `crypto.erl` turns them
//! into the exceptions erl gives.

mod aead;
mod ciphers;
mod context;
mod digest;
pub(super) mod error;
mod ffi;
mod info;
mod kdf;
mod keys;
pub(super) mod mac;
mod rsa;
mod rsa_opts;
mod sign;
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
    (
        "crypto",
        "aead_cipher_init_nif",
        4,
        aead::aead_cipher_init_nif,
    ),
    ("crypto", "aead_cipher_nif", 4, aead::aead_cipher_state_nif),
    ("crypto", "pubkey_algorithms", 0, info::pubkey_algorithms),
    ("crypto", "curve_algorithms", 0, info::curve_algorithms),
    ("crypto", "kem_algorithms_nif", 0, info::kem_algorithms),
    (
        "crypto",
        "evp_generate_key_nif",
        2,
        keys::evp_generate_key_nif,
    ),
    (
        "crypto",
        "evp_compute_key_nif",
        3,
        keys::evp_compute_key_nif,
    ),
    (
        "crypto",
        "ec_generate_key_nif",
        2,
        keys::ec_generate_key_nif,
    ),
    (
        "crypto",
        "ecdh_compute_key_nif",
        3,
        keys::ecdh_compute_key_nif,
    ),
    (
        "crypto",
        "dh_generate_key_nif",
        4,
        keys::dh_generate_key_nif,
    ),
    ("crypto", "dh_compute_key_nif", 3, keys::dh_compute_key_nif),
    (
        "crypto",
        "rsa_opts_algorithms",
        0,
        info::rsa_opts_algorithms,
    ),
    ("crypto", "pkey_sign_nif", 5, sign::pkey_sign_nif),
    ("crypto", "pkey_verify_nif", 6, sign::pkey_verify_nif),
    (
        "crypto",
        "rsa_generate_key_nif",
        2,
        sign::rsa_generate_key_nif,
    ),
    ("crypto", "pkey_crypt_nif", 6, rsa::pkey_crypt_nif),
    ("crypto", "pbkdf2_hmac_nif", 5, kdf::pbkdf2_hmac_nif),
];
