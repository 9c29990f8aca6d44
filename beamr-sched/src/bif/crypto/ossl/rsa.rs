//! RSA encryption: `pkey_crypt_nif(rsa, Data, Key, Opts, IsPrivate,
//! IsEncrypt)` behind `public_encrypt/4`, `private_decrypt/4`,
//! `private_encrypt/4` and `public_decrypt/4`, with PKCS #1 v1.5, OAEP
//! (`rsa_oaep_md`, `rsa_oaep_label`, `rsa_mgf1_md`) and no padding.

use beamr_core::term::Term;
use openssl::bn::BigNum;
use openssl::error::ErrorStack;
use openssl::pkey::{HasPublic, PKey, PKeyRef};
use openssl::pkey_ctx::PkeyCtx;
use openssl::rsa::{Padding, Rsa};

use super::error::{self, Line};
use super::rsa_opts::{self, RsaOpts, Use};
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

fn bn(t: Term) -> Option<BigNum> {
    BigNum::from_slice(&binary_bytes(&t).ok()?).ok()
}

fn configure<T>(ctx: &mut PkeyCtx<T>, o: &RsaOpts) -> Result<(), ErrorStack> {
    ctx.set_rsa_padding(o.padding)?;
    if o.padding == Padding::PKCS1_OAEP {
        if let Some(m) = o.oaep_md {
            ctx.set_rsa_oaep_md(m)?;
        }
        if let Some(m) = o.mgf1_md {
            ctx.set_rsa_mgf1_md(m)?;
        }
        if let Some(label) = &o.label {
            ctx.set_rsa_oaep_label(label)?;
        }
    }
    Ok(())
}

/// The operation with a public key: encrypt, or recover a private
/// encryption.
fn with_public<T: HasPublic>(
    key: &PKeyRef<T>,
    o: &RsaOpts,
    data: &[u8],
    encrypt: bool,
) -> Result<Vec<u8>, ErrorStack> {
    let mut ctx = PkeyCtx::new(key)?;
    let mut out = Vec::new();
    if encrypt {
        ctx.encrypt_init()?;
        configure(&mut ctx, o)?;
        ctx.encrypt_to_vec(data, &mut out)?;
    } else {
        ctx.verify_recover_init()?;
        configure(&mut ctx, o)?;
        let mut buf = vec![0u8; key.size()];
        let n = ctx.verify_recover(data, Some(&mut buf))?;
        buf.truncate(n);
        out = buf;
    }
    Ok(out)
}

/// `pkey_crypt_nif(rsa, Data, Key, Opts, IsPrivate, IsEncrypt)`.
pub(super) fn pkey_crypt_nif(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    if a[0].as_atom().map(|x| x.name()) != Some("rsa") {
        return Err(Exception::badarg());
    }
    let data = binary_bytes(&a[1])
        .map_err(|_| Exception::badarg())?
        .to_vec();
    let o = rsa_opts::parse(a[3], Use::Crypt).ok_or_else(Exception::badarg)?;
    let private = a[4] == Term::TRUE;
    let encrypt = a[5] == Term::TRUE;
    let parts = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    let nums: Option<Vec<BigNum>> = parts.iter().map(|t| bn(*t)).collect();
    let mut nums = nums.ok_or_else(Exception::badarg)?.into_iter();
    let (Some(e), Some(n)) = (nums.next(), nums.next()) else {
        return Err(Exception::badarg());
    };
    let result = if private {
        let d = nums.next().ok_or_else(Exception::badarg)?;
        let rest: Vec<BigNum> = nums.collect();
        let run = || -> Result<Vec<u8>, ErrorStack> {
            let rsa = match <[BigNum; 5]>::try_from(rest) {
                Ok([p1, q, dp, dq, qi]) => {
                    Rsa::from_private_components(n, e, d, p1, q, dp, dq, qi)?
                }
                Err(_) => openssl::rsa::RsaPrivateKeyBuilder::new(n, e, d)?.build(),
            };
            let key = PKey::from_rsa(rsa)?;
            let mut ctx = PkeyCtx::new(&key)?;
            let mut out = Vec::new();
            if encrypt {
                ctx.sign_init()?;
                configure(&mut ctx, &o)?;
                ctx.sign_to_vec(&data, &mut out)?;
            } else {
                ctx.decrypt_init()?;
                configure(&mut ctx, &o)?;
                ctx.decrypt_to_vec(&data, &mut out)?;
            }
            Ok(out)
        };
        run()
    } else {
        let run = || -> Result<Vec<u8>, ErrorStack> {
            let key = PKey::from_rsa(Rsa::from_public_components(n, e)?)?;
            with_public(&key, &o, &data, encrypt)
        };
        run()
    };
    match result {
        Ok(out) => Ok(p.heap.binary(&out)),
        Err(_) => Err(error::error(
            p,
            "pkey.c",
            Line(1184, 1179, 1474),
            "Couldn't get the result",
        )),
    }
}
