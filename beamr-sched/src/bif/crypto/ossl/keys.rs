//! Key generation and key agreement: `evp_generate_key_nif/2` and
//! `evp_compute_key_nif/3` (X25519, X448, and key pairs of Ed25519 and
//! Ed448), `ec_generate_key_nif/2` and `ecdh_compute_key_nif/3` (ECDH on
//! named prime curves), `dh_generate_key_nif/4` and `dh_compute_key_nif/3`
//! (finite-field Diffie-Hellman).
//!
//! Keys are raw binaries as crypto hands them: an EdDSA/X-curve key is its
//! raw bytes, an EC public key an uncompressed point, an EC private key the
//! scalar padded to the order's size, a DH key a big-endian number.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use openssl::bn::{BigNum, BigNumContext};
use openssl::derive::Deriver;
use openssl::dh::Dh;
use openssl::ec::{EcGroup, EcKey, EcPoint, PointConversionForm};
use openssl::error::ErrorStack;
use openssl::nid::Nid;
use openssl::pkey::{Id, PKey, Private};

use super::error::{self, Line};
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The raw-key curves of `evp_*_key_nif`.
fn raw_curve(t: Term) -> Option<Id> {
    Some(match t.as_atom()?.name() {
        "x25519" => Id::X25519,
        "x448" => Id::X448,
        "ed25519" => Id::ED25519,
        "ed448" => Id::ED448,
        _ => return None,
    })
}

/// The named prime curves ECDH takes, by crypto's names.
pub(super) const EC_CURVES: &[(&str, Nid)] = &[
    ("secp224r1", Nid::SECP224R1),
    ("secp256k1", Nid::SECP256K1),
    ("secp384r1", Nid::SECP384R1),
    ("secp521r1", Nid::SECP521R1),
    ("secp256r1", Nid::X9_62_PRIME256V1),
    ("prime256v1", Nid::X9_62_PRIME256V1),
    ("brainpoolP256r1", Nid::BRAINPOOL_P256R1),
    ("brainpoolP384r1", Nid::BRAINPOOL_P384R1),
    ("brainpoolP512r1", Nid::BRAINPOOL_P512R1),
];

/// The raw-key curves `crypto:supports(curves)` lists.
pub(super) const RAW_CURVES: &[&str] = &["x25519", "x448"];

fn bin(t: Term) -> Option<Vec<u8>> {
    binary_bytes(&t).ok().map(|b| b.to_vec())
}

/// `evp_generate_key_nif(Curve, PrivKey | undefined)`: `{Pub, Priv}`.
pub(super) fn evp_generate_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let id = raw_curve(a[0]).ok_or_else(Exception::badarg)?;
    let key = if a[1].as_atom() == Some(Atom::UNDEFINED) {
        let made = match id {
            Id::X25519 => PKey::generate_x25519(),
            Id::X448 => PKey::generate_x448(),
            Id::ED25519 => PKey::generate_ed25519(),
            _ => PKey::generate_ed448(),
        };
        made.map_err(|_| error::error(p, "evp.c", Line(140, 146, 268), "Can't generate key"))?
    } else {
        let raw = bin(a[1]).unwrap_or_default();
        PKey::private_key_from_raw_bytes(&raw, id).map_err(|_| {
            let line = Line(145, 151, 273);
            error::error(p, "evp.c", line, "Can't EVP_PKEY_new_raw_private_key")
        })?
    };
    let raw = |k: &PKey<Private>| -> Result<(Vec<u8>, Vec<u8>), ErrorStack> {
        Ok((k.raw_public_key()?, k.raw_private_key()?))
    };
    let (public, private) = raw(&key)
        .map_err(|_| error::error(p, "evp.c", Line(155, 161, 283), "Can't get raw key"))?;
    let public = p.heap.binary(&public);
    let private = p.heap.binary(&private);
    Ok(p.heap.tuple(&[public, private]))
}

/// `evp_compute_key_nif(Curve, OthersPub, MyPriv)`: the shared secret.
pub(super) fn evp_compute_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let id = raw_curve(a[0]).ok_or_else(Exception::badarg)?;
    let peer = bin(a[1]).and_then(|b| PKey::public_key_from_raw_bytes(&b, id).ok());
    let Some(peer) = peer else {
        return Err(error::badarg(
            p,
            "evp.c",
            Line(63, 65, 173),
            1,
            "Not a raw public peer key",
        ));
    };
    let own = bin(a[2]).and_then(|b| PKey::private_key_from_raw_bytes(&b, id).ok());
    let Some(own) = own else {
        return Err(error::badarg(
            p,
            "evp.c",
            Line(68, 70, 178),
            2,
            "Not a raw private key",
        ));
    };
    let derive = || -> Result<Vec<u8>, ErrorStack> {
        let mut d = Deriver::new(&own)?;
        d.set_peer(&peer)?;
        d.derive_to_vec()
    };
    let secret = derive()
        .map_err(|_| error::error(p, "evp.c", Line(79, 81, 189), "Can't EVP_PKEY_derive"))?;
    Ok(p.heap.binary(&secret))
}

/// The curve of an EC argument: `{Params, Name}` as `crypto.erl` passes it
/// (a named curve), or a bare name; with the name `undefined` (explicit
/// parameters, as `public_key` passes them), the named curve whose base
/// point the parameters give.
pub(super) fn ec_group(t: Term) -> Option<EcGroup> {
    let (params, name) = match t.as_tuple() {
        Some([params, name]) => (Some(*params), name.as_atom()?),
        _ => (None, t.as_atom()?),
    };
    if name == Atom::UNDEFINED {
        return params.and_then(curve_of_params);
    }
    let nid = EC_CURVES.iter().find(|(n, _)| *n == name.name())?.1;
    EcGroup::from_curve_name(nid).ok()
}

/// The named curve of explicit parameters `{Field, Curve, Base, Order,
/// Cofactor}`: the one with that base point and order.
fn curve_of_params(params: Term) -> Option<EcGroup> {
    let [_, _, base, order, _] = params.as_tuple()? else {
        return None;
    };
    let base = bin(*base)?;
    let order = BigNum::from_slice(&bin(*order)?).ok()?;
    let mut ctx = BigNumContext::new().ok()?;
    for (_, nid) in EC_CURVES {
        let Ok(group) = EcGroup::from_curve_name(*nid) else {
            continue;
        };
        let form = PointConversionForm::UNCOMPRESSED;
        let generator = group
            .generator_opt()
            .map(|g| g.to_bytes(&group, form, &mut ctx));
        let Some(Ok(generator)) = generator else {
            continue;
        };
        let mut own = BigNum::new().ok()?;
        group.order(&mut own, &mut ctx).ok()?;
        if generator == base && own == order {
            return Some(group);
        }
    }
    None
}

fn curve_error(p: &mut Process, arg: i64) -> Exception {
    error::badarg(
        p,
        "ec.c",
        Line(355, 389, 391),
        arg,
        "Couldn't get Curve definition",
    )
}

/// `ec_generate_key_nif(Curve, PrivKey | undefined)`: `{PubPoint, Priv}`,
/// the private scalar padded to the order's size.
pub(super) fn ec_generate_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let group = ec_group(a[0]).ok_or_else(|| curve_error(p, 0))?;
    let given = if a[1].as_atom() == Some(Atom::UNDEFINED) {
        None
    } else {
        let raw = bin(a[1]).ok_or_else(Exception::badarg)?;
        let n = BigNum::from_slice(&raw).map_err(|_| Exception::badarg())?;
        if n.num_bits() == 0 {
            let line = Line(429, 429, 429);
            return Err(error::badarg(
                p,
                "ec.c",
                line,
                1,
                "peer priv key must not be 0",
            ));
        }
        Some(n)
    };
    let make = || -> Result<(Vec<u8>, Vec<u8>), ErrorStack> {
        let mut ctx = BigNumContext::new()?;
        let key = match given {
            Some(n) => {
                let mut point = EcPoint::new(&group)?;
                point.mul_generator2(&group, &n, &mut ctx)?;
                EcKey::from_private_components(&group, &n, &point)?
            }
            None => EcKey::generate(&group)?,
        };
        let mut order = BigNum::new()?;
        group.order(&mut order, &mut ctx)?;
        let public =
            key.public_key()
                .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)?;
        let private = key.private_key().to_vec_padded(order.num_bytes())?;
        Ok((public, private))
    };
    let (public, private) = make()
        .map_err(|_| error::error(p, "ec.c", Line(440, 440, 440), "Couldn't generate EC key"))?;
    let public = p.heap.binary(&public);
    let private = p.heap.binary(&private);
    Ok(p.heap.tuple(&[public, private]))
}

/// `ecdh_compute_key_nif(OthersPub, Curve, MyPriv)`: the shared secret
/// (the x coordinate, padded to the field's size).
pub(super) fn ecdh_compute_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let group = ec_group(a[1]).ok_or_else(|| curve_error(p, 1))?;
    let fromdata =
        |p: &mut Process| error::error(p, "ecdh.c", Line(70, 78, 80), "Can't do fromdata");
    let Some(peer_bytes) = bin(a[0]) else {
        return Err(fromdata(p));
    };
    let Some(own) = bin(a[2]) else {
        return Err(fromdata(p));
    };
    let peer = || -> Result<PKey<openssl::pkey::Public>, ErrorStack> {
        let mut ctx = BigNumContext::new()?;
        let point = EcPoint::from_bytes(&group, &peer_bytes, &mut ctx)?;
        let key = EcKey::from_public_key(&group, &point)?;
        key.check_key()?;
        PKey::from_ec_key(key)
    };
    let peer = peer().map_err(|_| fromdata(p))?;
    let secret = || -> Result<Vec<u8>, ErrorStack> {
        let mut ctx = BigNumContext::new()?;
        let n = BigNum::from_slice(&own)?;
        let mut point = EcPoint::new(&group)?;
        point.mul_generator2(&group, &n, &mut ctx)?;
        let key = PKey::from_ec_key(EcKey::from_private_components(&group, &n, &point)?)?;
        let mut d = Deriver::new(&key)?;
        d.set_peer(&peer)?;
        d.derive_to_vec()
    };
    let secret =
        secret().map_err(|_| error::error(p, "ecdh.c", Line(90, 98, 100), "Can't derive"))?;
    Ok(p.heap.binary(&secret))
}

/// The `[P, G]` argument of the DH NIFs.
fn dh_params(t: Term) -> Option<(BigNum, BigNum)> {
    let items = t.list_to_vec()?;
    let [prime, generator] = items.as_slice() else {
        return None;
    };
    let prime = BigNum::from_slice(&bin(*prime)?).ok()?;
    let generator = BigNum::from_slice(&bin(*generator)?).ok()?;
    Some((prime, generator))
}

/// `dh_generate_key_nif(PrivKey | undefined, [P, G], Mpint, Len)`:
/// `{Pub, Priv}`.
pub(super) fn dh_generate_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let (prime, generator) = dh_params(a[1]).ok_or_else(Exception::badarg)?;
    let given = if a[0].as_atom() == Some(Atom::UNDEFINED) {
        None
    } else {
        let raw = bin(a[0]).ok_or_else(Exception::badarg)?;
        Some(BigNum::from_slice(&raw).map_err(|_| Exception::badarg())?)
    };
    let make = || -> Result<(Vec<u8>, Vec<u8>), ErrorStack> {
        let dh = Dh::from_pqg(prime, None, generator)?;
        let dh = match given {
            Some(n) => dh.set_private_key(n)?,
            None => dh.generate_key()?,
        };
        Ok((dh.public_key().to_vec(), dh.private_key().to_vec()))
    };
    let (public, private) = make()
        .map_err(|_| error::error(p, "dh.c", Line(124, 124, 134), "Can't generate DH key pair"))?;
    let public = p.heap.binary(&public);
    let private = p.heap.binary(&private);
    Ok(p.heap.tuple(&[public, private]))
}

/// `dh_compute_key_nif(OthersPub, MyPriv, [P, G])`: the shared secret,
/// `OthersPub ^ MyPriv mod P`, unpadded as erl gives it.
pub(super) fn dh_compute_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let (prime, _generator) = dh_params(a[2]).ok_or_else(Exception::badarg)?;
    let (Some(peer), Some(own)) = (bin(a[0]), bin(a[1])) else {
        return Err(Exception::badarg());
    };
    // OpenSSL's DH_check_pub_key bounds: 1 < peer < P - 1.
    let compute = || -> Result<Option<Vec<u8>>, ErrorStack> {
        let peer = BigNum::from_slice(&peer)?;
        let own = BigNum::from_slice(&own)?;
        let one = BigNum::from_u32(1)?;
        let mut top = BigNum::new()?;
        top.checked_sub(&prime, &one)?;
        if peer <= one || peer >= top {
            return Ok(None);
        }
        let mut ctx = BigNumContext::new()?;
        let mut secret = BigNum::new()?;
        secret.mod_exp(&peer, &own, &prime, &mut ctx)?;
        Ok(Some(secret.to_vec()))
    };
    let Ok(Some(secret)) = compute() else {
        return Err(error::error(
            p,
            "dh.c",
            Line(236, 236, 247),
            "Can't get result size",
        ));
    };
    Ok(p.heap.binary(&secret))
}
