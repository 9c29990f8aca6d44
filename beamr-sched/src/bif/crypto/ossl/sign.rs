//! Signatures: `pkey_sign_nif(Alg, Digest, Data | {digest, Hash}, Key,
//! Opts)` and `pkey_verify_nif(Alg, Digest, Data | {digest, Hash}, Sig,
//! Key, Opts)` for RSA (PKCS #1 v1.5 and PSS), ECDSA on the named curves
//! of [`super::keys`] and EdDSA (Ed25519, Ed448); `rsa_generate_key_nif`.
//!
//! Keys come as crypto passes them: RSA `[E, N, D | _]` (private) or
//! `[E, N]` (public) as big-endian binaries, ECDSA `{{Params, Curve}, Key}`
//! (private scalar or public point), EdDSA `[Key, Curve]`. An ECDSA
//! signature is DER, as OpenSSL makes it.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::{EcKey, EcPoint};
use openssl::error::ErrorStack;
use openssl::md::{Md, MdRef};
use openssl::pkey::{HasPublic, Id, PKey, PKeyRef, Private, Public};
use openssl::pkey_ctx::PkeyCtx;
use openssl::rsa::{Padding, Rsa};
use openssl::sign::RsaPssSaltlen;
use openssl::sign::{Signer, Verifier};

use super::keys::ec_group;
use super::rsa_opts::{self, RsaOpts, Use};
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The algorithms of the first argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Alg {
    Rsa,
    Ecdsa,
    Eddsa,
}

fn alg(t: Term) -> Option<Alg> {
    Some(match t.as_atom()?.name() {
        "rsa" => Alg::Rsa,
        "ecdsa" => Alg::Ecdsa,
        "eddsa" => Alg::Eddsa,
        _ => return None,
    })
}

/// The digest named by crypto's atom.
fn digest(t: Term) -> Option<&'static MdRef> {
    Md::from_nid(super::digest::nid(t)?)
}

fn bin(t: Term) -> Option<Vec<u8>> {
    binary_bytes(&t).ok().map(|b| b.to_vec())
}

fn bn(t: Term) -> Option<BigNum> {
    BigNum::from_slice(&bin(t)?).ok()
}

fn ed_id(t: Term) -> Option<Id> {
    match t.as_atom()?.name() {
        "ed25519" => Some(Id::ED25519),
        "ed448" => Some(Id::ED448),
        _ => None,
    }
}

/// A private key of `alg` from crypto's key term.
fn private_key(alg: Alg, t: Term) -> Option<PKey<Private>> {
    match alg {
        Alg::Rsa => {
            let parts = t.list_to_vec()?;
            let (e, n, d) = (
                bn(*parts.first()?)?,
                bn(*parts.get(1)?)?,
                bn(*parts.get(2)?)?,
            );
            let rsa = if parts.len() >= 8 {
                let more: Option<Vec<BigNum>> = parts[3..8].iter().map(|t| bn(*t)).collect();
                let [p, q, dp, dq, qi]: [BigNum; 5] = more?.try_into().ok()?;
                Rsa::from_private_components(n, e, d, p, q, dp, dq, qi).ok()?
            } else {
                openssl::rsa::RsaPrivateKeyBuilder::new(n, e, d)
                    .ok()?
                    .build()
            };
            PKey::from_rsa(rsa).ok()
        }
        Alg::Ecdsa => {
            let [curve, key] = t.as_tuple()? else {
                return None;
            };
            let group = ec_group(*curve)?;
            let scalar = bn(*key)?;
            let make = || -> Result<PKey<Private>, ErrorStack> {
                let mut ctx = BigNumContext::new()?;
                let mut point = EcPoint::new(&group)?;
                point.mul_generator2(&group, &scalar, &mut ctx)?;
                PKey::from_ec_key(EcKey::from_private_components(&group, &scalar, &point)?)
            };
            make().ok()
        }
        Alg::Eddsa => {
            let parts = t.list_to_vec()?;
            let [key, curve] = parts.as_slice() else {
                return None;
            };
            PKey::private_key_from_raw_bytes(&bin(*key)?, ed_id(*curve)?).ok()
        }
    }
}

/// A public key of `alg` from crypto's key term.
fn public_key(alg: Alg, t: Term) -> Option<PKey<Public>> {
    match alg {
        Alg::Rsa => {
            let parts = t.list_to_vec()?;
            let (e, n) = (bn(*parts.first()?)?, bn(*parts.get(1)?)?);
            PKey::from_rsa(Rsa::from_public_components(n, e).ok()?).ok()
        }
        Alg::Ecdsa => {
            let [curve, key] = t.as_tuple()? else {
                return None;
            };
            let group = ec_group(*curve)?;
            let mut ctx = BigNumContext::new().ok()?;
            let point = EcPoint::from_bytes(&group, &bin(*key)?, &mut ctx).ok()?;
            PKey::from_ec_key(EcKey::from_public_key(&group, &point).ok()?).ok()
        }
        Alg::Eddsa => {
            let parts = t.list_to_vec()?;
            let [key, curve] = parts.as_slice() else {
                return None;
            };
            PKey::public_key_from_raw_bytes(&bin(*key)?, ed_id(*curve)?).ok()
        }
    }
}

/// The message argument: the data, or `{digest, Hash}`.
enum Message {
    Data(Vec<u8>),
    Digest(Vec<u8>),
}

fn message(t: Term) -> Option<Message> {
    if let Some([tag, hash]) = t.as_tuple() {
        if tag.as_atom().map(Atom::name) == Some("digest") {
            return Some(Message::Digest(bin(*hash)?));
        }
        return None;
    }
    Some(Message::Data(beamr_core::term::iodata_bytes(t)?))
}

/// The hash to sign: the digest given, or that of the data.
fn to_sign(md: &MdRef, msg: Message) -> Result<Vec<u8>, ErrorStack> {
    match msg {
        Message::Digest(d) => Ok(d),
        Message::Data(data) => {
            let kind =
                openssl::hash::MessageDigest::from_nid(md.type_()).ok_or_else(ErrorStack::get)?;
            Ok(openssl::hash::hash(kind, &data)?.to_vec())
        }
    }
}

/// A context set up for `alg` with `md` and the RSA options.
fn setup<T>(ctx: &mut PkeyCtx<T>, alg: Alg, md: &MdRef, opts: &RsaOpts) -> Result<(), ErrorStack> {
    ctx.set_signature_md(md)?;
    if alg == Alg::Rsa {
        ctx.set_rsa_padding(opts.padding)?;
        if opts.padding == Padding::PKCS1_PSS {
            if let Some(n) = opts.saltlen {
                ctx.set_rsa_pss_saltlen(RsaPssSaltlen::custom(n))?;
            }
            if let Some(mgf1) = opts.mgf1_md {
                ctx.set_rsa_mgf1_md(mgf1)?;
            }
        }
    }
    Ok(())
}

/// The arguments both NIFs share.
struct Args {
    alg: Alg,
    md: Option<&'static MdRef>,
    msg: Message,
    opts: RsaOpts,
}

fn args(alg_t: Term, md_t: Term, msg_t: Term, opts_t: Term) -> Option<Args> {
    let alg = alg(alg_t)?;
    let md = if alg == Alg::Eddsa {
        None
    } else {
        Some(digest(md_t)?)
    };
    Some(Args {
        alg,
        md,
        msg: message(msg_t)?,
        opts: rsa_opts::parse(opts_t, Use::Sign)?,
    })
}

/// `pkey_sign_nif(Alg, Digest, Msg, Key, Opts)`: the signature.
pub(super) fn pkey_sign_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let args = args(a[0], a[1], a[2], a[4]).ok_or_else(Exception::badarg)?;
    let key = private_key(args.alg, a[3]).ok_or_else(Exception::badarg)?;
    let sign = || -> Result<Vec<u8>, ErrorStack> {
        let mut out = Vec::new();
        match (args.md, args.msg) {
            (Some(md), msg) => {
                let hash = to_sign(md, msg)?;
                let mut ctx = PkeyCtx::new(&key)?;
                ctx.sign_init()?;
                setup(&mut ctx, args.alg, md, &args.opts)?;
                ctx.sign_to_vec(&hash, &mut out)?;
            }
            (None, Message::Data(data)) => {
                let mut signer = Signer::new_without_digest(&key)?;
                out = signer.sign_oneshot_to_vec(&data)?;
            }
            (None, Message::Digest(_)) => return Err(ErrorStack::get()),
        }
        Ok(out)
    };
    let signature = sign().map_err(|_| Exception::badarg())?;
    Ok(p.heap.binary(&signature))
}

fn verify_with<T: HasPublic>(key: &PKeyRef<T>, args: Args, sig: &[u8]) -> Result<bool, ErrorStack> {
    match (args.md, args.msg) {
        (Some(md), msg) => {
            let hash = to_sign(md, msg)?;
            let mut ctx = PkeyCtx::new(key)?;
            ctx.verify_init()?;
            setup(&mut ctx, args.alg, md, &args.opts)?;
            // A signature that does not parse verifies as false.
            Ok(ctx.verify(&hash, sig).unwrap_or(false))
        }
        (None, Message::Data(data)) => {
            let mut verifier = Verifier::new_without_digest(key)?;
            Ok(verifier.verify_oneshot(sig, &data).unwrap_or(false))
        }
        (None, Message::Digest(_)) => Err(ErrorStack::get()),
    }
}

/// `pkey_verify_nif(Alg, Digest, Msg, Sig, Key, Opts)`: `true` or `false`.
pub(super) fn pkey_verify_nif(
    _rt: &Runtime,
    _p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let args = args(a[0], a[1], a[2], a[5]).ok_or_else(Exception::badarg)?;
    let sig = bin(a[3]).ok_or_else(Exception::badarg)?;
    let key = public_key(args.alg, a[4]).ok_or_else(Exception::badarg)?;
    let ok = verify_with(&key, args, &sig).map_err(|_| Exception::badarg())?;
    Ok(if ok { Term::TRUE } else { Term::FALSE })
}

/// `rsa_generate_key_nif(Bits, E)`: `[E, N, D, P, Q, DP, DQ, QInv]`.
pub(super) fn rsa_generate_key_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let bits = a[0]
        .as_small()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    let e = bn(a[1]).ok_or_else(Exception::badarg)?;
    let rsa = Rsa::generate_with_e(bits, &e).map_err(|_| Exception::badarg())?;
    let parts = [
        Some(rsa.e()),
        Some(rsa.n()),
        Some(rsa.d()),
        rsa.p(),
        rsa.q(),
        rsa.dmp1(),
        rsa.dmq1(),
        rsa.iqmp(),
    ];
    let mut terms = Vec::with_capacity(parts.len());
    for part in parts {
        let part = part.ok_or_else(Exception::badarg)?;
        terms.push(p.heap.binary(&part.to_vec()));
    }
    Ok(p.heap.list(&terms))
}
