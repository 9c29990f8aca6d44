//! What crypto says of its library: `info_lib/0`, `info_nif/0`, and the
//! cipher list behind `crypto:supports(ciphers)`.

use beamr_core::term::Term;

use super::{ciphers, keys};
use crate::bif::common::atoms::atom;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// `info_lib()`: `[{<<"OpenSSL">>, VersionNumber, VersionText}]` of the
/// OpenSSL beamr is linked with.
pub(super) fn info_lib(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let name = p.heap.binary(b"OpenSSL");
    let number = p.heap.int(openssl::version::number());
    let text = p.heap.binary(openssl::version::version().as_bytes());
    let entry = p.heap.tuple(&[name, number, text]);
    Ok(p.heap.list(&[entry]))
}

/// `info_nif()`: how the library is linked (dynamically, not in FIPS
/// mode); `crypto:info/0` adds the crypto application's version.
pub(super) fn info_nif(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let version = openssl::version::version();
    let compiled = p.heap.string(version);
    let linked = p.heap.string(version);
    let pairs = [
        (atom("compile_type"), atom("normal")),
        (atom("cryptolib_version_compiled"), compiled),
        (atom("cryptolib_version_linked"), linked),
        (atom("fips_provider_available"), Term::FALSE),
        (atom("link_type"), atom("dynamic")),
    ];
    Ok(beamr_core::map::from_pairs(&mut p.heap, &pairs))
}

/// `cipher_algorithms()`: the names of the ciphers that work.
pub(super) fn cipher_algorithms(
    _rt: &Runtime,
    p: &mut Process,
    _: &[Term],
) -> Result<Term, Exception> {
    let names: Vec<Term> = ciphers::names().into_iter().map(atom).collect();
    Ok(p.heap.list(&names))
}

/// `pubkey_algorithms()`: the public-key kinds that work (signatures:
/// `rsa`, `ecdsa`, `eddsa`; key agreement: `dh`, `ecdh`, `eddh`), in
/// erts's order.
pub(super) fn pubkey_algorithms(
    _rt: &Runtime,
    p: &mut Process,
    _: &[Term],
) -> Result<Term, Exception> {
    let names: Vec<Term> = ["rsa", "dh", "ecdsa", "ecdh", "eddsa", "eddh"]
        .into_iter()
        .map(atom)
        .collect();
    Ok(p.heap.list(&names))
}

/// `curve_algorithms()`: the curves key agreement and signatures take, in
/// erts's order.
pub(super) fn curve_algorithms(
    _rt: &Runtime,
    p: &mut Process,
    _: &[Term],
) -> Result<Term, Exception> {
    let names: Vec<Term> = keys::EC_CURVES
        .iter()
        .map(|(name, _)| *name)
        .chain(["ed25519", "ed448"])
        .chain(keys::RAW_CURVES.iter().copied())
        .map(atom)
        .collect();
    Ok(p.heap.list(&names))
}

/// `rsa_opts_algorithms()`: the RSA options that work (signatures and
/// encryption), in erts's order.
pub(super) fn rsa_opts_algorithms(
    _rt: &Runtime,
    p: &mut Process,
    _: &[Term],
) -> Result<Term, Exception> {
    let names = [
        "rsa_pkcs1_pss_padding",
        "rsa_pss_saltlen",
        "rsa_mgf1_md",
        "rsa_pkcs1_oaep_padding",
        "rsa_oaep_label",
        "rsa_oaep_md",
        "rsa_pkcs1_padding",
        "rsa_no_padding",
    ];
    let names: Vec<Term> = names.into_iter().map(atom).collect();
    Ok(p.heap.list(&names))
}

/// `kem_algorithms_nif()` (OTP 29's `crypto:supports(kems)`): the key
/// encapsulation mechanisms that work, none yet (ML-KEM's
/// `encapsulate_key`/`decapsulate_key` are not implemented).
pub(super) fn kem_algorithms(
    _rt: &Runtime,
    _: &mut Process,
    _: &[Term],
) -> Result<Term, Exception> {
    Ok(Term::NIL)
}
