//! The RSA options list of `pkey_crypt_nif` and of `pkey_sign_nif` /
//! `pkey_verify_nif`, parsed in one place: `{rsa_padding, Padding}`,
//! `{rsa_mgf1_md, Digest}`, and for encryption `{rsa_oaep_md, Digest}`
//! and `{rsa_oaep_label, Binary}`, for signatures `{rsa_pss_saltlen, N}`.

use beamr_core::term::Term;
use openssl::md::{Md, MdRef};
use openssl::rsa::Padding;

use crate::bif::erlang::binaries::binary_bytes;

/// What the options are for: each takes its own paddings and options.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Use {
    /// `pkey_crypt_nif`: PKCS #1 v1.5, OAEP or no padding.
    Crypt,
    /// `pkey_sign_nif` and `pkey_verify_nif`: PKCS #1 v1.5, PSS or none.
    Sign,
}

/// The parsed options (PKCS #1 v1.5 padding when none is named).
pub(super) struct RsaOpts {
    pub padding: Padding,
    pub mgf1_md: Option<&'static MdRef>,
    pub oaep_md: Option<&'static MdRef>,
    pub label: Option<Vec<u8>>,
    pub saltlen: Option<i32>,
}

/// The digest crypto's atom names.
pub(super) fn md(t: Term) -> Option<&'static MdRef> {
    Md::from_nid(super::digest::nid(t)?)
}

/// The options in the list `t` for `usage`; `None` when an item is not
/// one it takes.
pub(super) fn parse(t: Term, usage: Use) -> Option<RsaOpts> {
    let mut o = RsaOpts {
        padding: Padding::PKCS1,
        mgf1_md: None,
        oaep_md: None,
        label: None,
        saltlen: None,
    };
    for item in t.list_to_vec()? {
        let [tag, value] = item.as_tuple()? else {
            return None;
        };
        match (tag.as_atom()?.name(), usage) {
            ("rsa_padding", _) => {
                o.padding = match (value.as_atom()?.name(), usage) {
                    ("rsa_pkcs1_padding", _) => Padding::PKCS1,
                    ("rsa_no_padding", _) => Padding::NONE,
                    ("rsa_pkcs1_oaep_padding", Use::Crypt) => Padding::PKCS1_OAEP,
                    ("rsa_pkcs1_pss_padding", Use::Sign) => Padding::PKCS1_PSS,
                    _ => return None,
                }
            }
            ("rsa_mgf1_md", _) => o.mgf1_md = Some(md(*value)?),
            ("rsa_oaep_md", Use::Crypt) => o.oaep_md = Some(md(*value)?),
            ("rsa_oaep_label", Use::Crypt) => {
                o.label = Some(binary_bytes(value).ok()?.to_vec());
            }
            ("rsa_pss_saltlen", Use::Sign) => {
                o.saltlen = Some(i32::try_from(value.as_small()?).ok()?);
            }
            _ => return None,
        }
    }
    Some(o)
}
