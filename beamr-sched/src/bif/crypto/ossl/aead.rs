//! AEAD ciphers, one-shot: `aead_cipher_nif(Type, Key, IV, In, AAD,
//! TagOrTagLength, EncFlag)` (erts's `aead.c`) over AES-GCM, AES-CCM and
//! ChaCha20-Poly1305, and from OTP 28 on with a state made once for many
//! texts (`crypto_one_time_aead_init/4`, `aead_cipher_init_nif(Type, Key,
//! TagLength, EncFlag)`, then `aead_cipher_nif(State, IV, In, AAD)` per
//! text), which OTP 29's TLS records use: encrypting answers the cipher
//! text with the tag after it, decrypting takes the tag from the end of
//! `In`. A state lives until the runtime ends (see
//! [`crate::bif::common::resource`]): it holds the cipher, key and tag
//! length, and each text gets a fresh OpenSSL context.
//!
//! Encrypting answers `{CipherText, Tag}` with a tag of the length asked
//! for; decrypting answers the plain text, or `error` when the tag does not
//! match (for GCM and ChaCha20-Poly1305 a shorter tag checks its prefix, as
//! OpenSSL does). The IV may be of any length the cipher's mode takes
//! (GCM: any but empty; CCM: 7 to 13 bytes; ChaCha20-Poly1305: 12).

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use openssl::cipher_ctx::CipherCtx;

use super::ciphers::{self, CipherType, Mode};
use super::error::{self, Line};
use crate::bif::common::resource::Resources;
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

const FILE: &str = "aead.c";

/// The largest tag OpenSSL makes (`EVP_MAX_AEAD_TAG_LENGTH`).
const MAX_TAG: usize = 16;

/// The tag argument: a length to make, or a tag to check.
enum Tag {
    Make(usize),
    Check(Vec<u8>),
}

/// `aead_cipher_nif(Type, Key, IV, In, AAD, TagOrTagLength, EncFlag)`.
pub(super) fn aead_cipher_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let encrypt = match a[6].as_atom() {
        Some(Atom::TRUE) => true,
        Some(Atom::FALSE) => false,
        _ => return Err(error::badarg(p, FILE, Line(54, 54, 180), 6, "Bad enc flag")),
    };
    let bytes = |t: Term| beamr_core::term::iodata_bytes(t);
    let Some(key) = bytes(a[1]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(63, 63, 189),
            1,
            "non-binary key",
        ));
    };
    let Some(iv) = bytes(a[2]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(65, 65, 191),
            2,
            "non-binary iv",
        ));
    };
    let Some(input) = bytes(a[3]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(67, 67, 193),
            3,
            "non-binary text",
        ));
    };
    let Some(aad) = bytes(a[4]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(69, 69, 197),
            4,
            "non-binary AAD",
        ));
    };
    let tag = if encrypt {
        let len = a[5].as_small().and_then(|n| u32::try_from(n).ok());
        match len {
            Some(n) => Tag::Make(n as usize),
            None => {
                return Err(error::badarg(
                    p,
                    FILE,
                    Line(73, 73, 201),
                    5,
                    "Bad Tag length",
                ))
            }
        }
    } else {
        match binary_bytes(&a[5]) {
            Ok(t) => Tag::Check(t.to_vec()),
            Err(_) => {
                return Err(error::badarg(
                    p,
                    FILE,
                    Line(77, 77, 205),
                    5,
                    "non-binary Tag",
                ))
            }
        }
    };
    let cipher = a[0]
        .as_atom()
        .and_then(|name| ciphers::by_name_and_key(name.name(), key.len()))
        .filter(|c| c.aead);
    let Some(cipher) = cipher else {
        let msg = "Unknown cipher or invalid key size";
        return Err(error::badarg(p, FILE, Line(90, 90, 218), 0, msg));
    };
    Ok(match crypt(p, cipher, &key, &iv, &input, &aad, tag)? {
        Crypted::Sealed(text, made) => {
            let text = p.heap.binary(&text);
            let made = p.heap.binary(&made);
            p.heap.tuple(&[text, made])
        }
        Crypted::Opened(text) => p.heap.binary(&text),
        Crypted::Mismatch => Term::atom(Atom::ERROR),
    })
}

/// What [`crypt`] made.
enum Crypted {
    /// The cipher text and the tag.
    Sealed(Vec<u8>, Vec<u8>),
    /// The plain text, its tag checked.
    Opened(Vec<u8>),
    /// The tag did not match, or the text did not decrypt.
    Mismatch,
}

/// Encrypts (a tag to make) or decrypts (a tag to check) `input` with
/// `cipher` under `key` and `iv`, authenticating `aad` too.
fn crypt(
    p: &mut Process,
    cipher: &'static CipherType,
    key: &[u8],
    iv: &[u8],
    input: &[u8],
    aad: &[u8],
    tag: Tag,
) -> Result<Crypted, Exception> {
    let encrypt = matches!(tag, Tag::Make(_));
    let ccm = cipher.mode == Mode::Ccm;
    let evp = cipher.evp();

    let mut ctx = CipherCtx::new()
        .map_err(|_| error::error(p, FILE, Line(100, 100, 270), "Can't allocate ctx"))?;
    let started = if encrypt {
        ctx.encrypt_init(Some(evp), None, None)
    } else {
        ctx.decrypt_init(Some(evp), None, None)
    };
    started.map_err(|_| error::error(p, FILE, Line(105, 105, 275), "CipherInit failed"))?;
    if iv.len() > i32::MAX as usize || ctx.set_iv_length(iv.len()).is_err() {
        return Err(error::badarg(
            p,
            FILE,
            Line(111, 111, 281),
            2,
            "Bad IV length",
        ));
    }
    if ccm {
        let set = match &tag {
            Tag::Make(n) => *n <= MAX_TAG && ctx.set_tag_length(*n).is_ok(),
            Tag::Check(t) => t.len() <= MAX_TAG && ctx.set_tag(t).is_ok(),
        };
        if !set {
            return Err(error::badarg(
                p,
                FILE,
                Line(116, 116, 286),
                5,
                "Can't set tag",
            ));
        }
    }
    let keyed = if encrypt {
        ctx.encrypt_init(None, Some(key), Some(iv))
    } else {
        ctx.decrypt_init(None, Some(key), Some(iv))
    };
    keyed.map_err(|_| error::error(p, FILE, Line(121, 121, 291), "Can't set key or iv"))?;
    if ccm && (input.len() > i32::MAX as usize || ctx.set_data_len(input.len()).is_err()) {
        return Err(error::error(
            p,
            FILE,
            Line(126, 126, 296),
            "Can't set text size",
        ));
    }
    if ctx.cipher_update(aad, None).is_err() {
        return Err(error::error(p, FILE, Line(131, 131, 301), "Can't set AAD"));
    }
    let mut out = Vec::with_capacity(input.len() + MAX_TAG);
    match tag {
        Tag::Make(len) => {
            if ctx.cipher_update_vec(input, &mut out).is_err() {
                return Err(error::error(
                    p,
                    FILE,
                    Line(141, 141, 311),
                    "Can't encrypt text",
                ));
            }
            if ctx.cipher_final_vec(&mut out).is_err() {
                return Err(error::error(p, FILE, Line(146, 146, 316), "Can't finalize"));
            }
            let mut made = vec![0u8; len.min(MAX_TAG)];
            if len == 0 || len > MAX_TAG || ctx.tag(&mut made).is_err() {
                return Err(error::error(p, FILE, Line(156, 156, 332), "Can't get Tag"));
            }
            Ok(Crypted::Sealed(out, made))
        }
        Tag::Check(expected) => {
            if !ccm
                && (expected.is_empty()
                    || expected.len() > MAX_TAG
                    || ctx.set_tag(&expected).is_err())
            {
                return Ok(Crypted::Mismatch);
            }
            if ctx.cipher_update_vec(input, &mut out).is_err() {
                return Ok(Crypted::Mismatch);
            }
            if !ccm && ctx.cipher_final_vec(&mut out).is_err() {
                return Ok(Crypted::Mismatch);
            }
            Ok(Crypted::Opened(out))
        }
    }
}

/// A state of `aead_cipher_init_nif`: what each text is sealed or opened
/// with.
struct AeadState {
    cipher: &'static CipherType,
    key: Vec<u8>,
    tag_len: usize,
    encrypt: bool,
}

/// The tag of AEAD state resources.
const AEAD_TAG: u32 = 0x00AE_AD00;

static AEAD_STATES: Resources<AeadState> = Resources::new(AEAD_TAG);

/// `aead_cipher_init_nif(Type, Key, TagLength, EncFlag)`: a state for
/// `aead_cipher_nif/4`. The function is OTP 28's, so its errors name
/// OTP 29's lines (no line of 25 or 27).
pub(super) fn aead_cipher_init_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let encrypt = match a[3].as_atom() {
        Some(Atom::TRUE) => true,
        Some(Atom::FALSE) => false,
        _ => return Err(error::badarg(p, FILE, Line(0, 0, 95), 3, "Bad enc flag")),
    };
    if !a[0].is_atom() {
        let msg = "non-atom cipher type";
        return Err(error::badarg(p, FILE, Line(0, 0, 102), 0, msg));
    }
    let Ok(key) = binary_bytes(&a[1]) else {
        return Err(error::badarg(p, FILE, Line(0, 0, 105), 1, "non-binary key"));
    };
    let Some(tag_len) = a[2].as_small().and_then(|n| u32::try_from(n).ok()) else {
        return Err(error::badarg(p, FILE, Line(0, 0, 109), 2, "Bad Tag length"));
    };
    if tag_len > i32::MAX as u32 {
        let msg = "key or tag too long";
        return Err(error::badarg(p, FILE, Line(0, 0, 113), 1, msg));
    }
    let cipher = a[0]
        .as_atom()
        .and_then(|name| ciphers::by_name_and_key(name.name(), key.len()));
    let Some(cipher) = cipher else {
        let msg = "Unknown cipher or invalid key size";
        return Err(error::badarg(p, FILE, Line(0, 0, 116), 0, msg));
    };
    if !cipher.aead {
        return Err(error::badarg(
            p,
            FILE,
            Line(0, 0, 120),
            0,
            "Not aead cipher",
        ));
    }
    let state = AeadState {
        cipher,
        key: key.to_vec(),
        tag_len: tag_len as usize,
        encrypt,
    };
    Ok(AEAD_STATES.insert(p, state))
}

/// `aead_cipher_nif(State, IV, In, AAD)`: one text sealed (the cipher
/// text with the tag after it) or opened (the tag taken from the end of
/// `In`; `error` when it does not match).
pub(super) fn aead_cipher_state_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let Some(state) = AEAD_STATES.get(a[0]) else {
        return Err(error::badarg(p, FILE, Line(0, 0, 244), 0, "Bad State"));
    };
    let bytes = |t: Term| beamr_core::term::iodata_bytes(t);
    let Some(iv) = bytes(a[1]) else {
        return Err(error::badarg(p, FILE, Line(0, 0, 249), 1, "non-binary iv"));
    };
    let Some(input) = bytes(a[2]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(0, 0, 251),
            2,
            "non-binary text",
        ));
    };
    let Some(aad) = bytes(a[3]) else {
        return Err(error::badarg(p, FILE, Line(0, 0, 256), 3, "non-binary AAD"));
    };
    let (text, tag) = if state.encrypt {
        (&input[..], Tag::Make(state.tag_len))
    } else {
        let Some(split) = input.len().checked_sub(state.tag_len) else {
            return Err(error::error(p, FILE, Line(0, 0, 270), "Bad in data"));
        };
        let (text, tag) = input.split_at(split);
        (text, Tag::Check(tag.to_vec()))
    };
    Ok(
        match crypt(p, state.cipher, &state.key, &iv, text, &aad, tag)? {
            Crypted::Sealed(mut sealed, made) => {
                sealed.extend_from_slice(&made);
                p.heap.binary(&sealed)
            }
            Crypted::Opened(opened) => p.heap.binary(&opened),
            Crypted::Mismatch => Term::atom(Atom::ERROR),
        },
    )
}
