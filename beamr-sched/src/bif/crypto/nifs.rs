//! `crypto`'s commonly used NIFs natively, on RustCrypto's digests:
//! hashing (`hash_nif`, `hash_init/update/final_nif`, `hash_info_nif`,
//! `hash_algorithms`), MACs (`mac_nif`, `mac_init/update/final_nif`,
//! `mac_algorithms`: HMAC here, CMAC and Poly1305 on OpenSSL in
//! `ossl::mac`),
//! random bytes and numbers (`strong_rand_bytes_nif`, `rand_uniform_nif`),
//! `hash_equals_nif` and `do_exor`. `crypto.erl` runs as bytecode on top,
//! as on the BEAM.
//!
//! - Digests: md4, md5, ripemd160, sha, sha224, sha256, sha384, sha512,
//!   sha3_224..sha3_512, blake2b (BLAKE2b-512) and blake2s (BLAKE2s-256),
//!   the list OTP 25 on OpenSSL 3 supports; from OTP 27 on also sm3 and
//!   the extendable-output shake128 and shake256 (`hash_final_xof_nif`,
//!   behind `crypto:hash_xof/3`), from OTP 29 on sha512_224 and sha512_256
//!   (OTP 28 not checked). Each release answers what its crypto does on
//!   OpenSSL 3: OTP 27's `crypto:hash/2` of a shake fails ("Low-level call
//!   failed") where OTP 29's gives the default length (16 or 32 bytes), and
//!   neither has an HMAC over a shake.
//! - HMAC is RFC 2104 over those digests (a key longer than the block is
//!   hashed first, then padded with zeros to the block size).
//! - A hash or MAC state is a resource (see [`crate::bif::common::resource`]), kept
//!   until the runtime ends.
//!   `hash_update_nif` answers a new state, leaving the old one usable, as
//!   OpenSSL's context copy does; `mac_update_nif` updates in place.
//! - Errors are raised as the C NIFs raise them, `{badarg, #{c_file_name
//!   => File, c_file_line_num => Line, c_function_arg_num => N}, Msg}`,
//!   with crypto-5.1.2's file and line, so that `crypto.erl` turns them
//!   into the same exceptions as on the BEAM.

use crate::bif::common::atoms::atom;
use std::sync::{Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use num_bigint::BigUint;

use crate::bif::common::resource::Resources;
use crate::bif::crypto::ossl::error::{badarg, error, nif_exception, Line};
use crate::bif::crypto::ossl::mac::{self, CipherLines, Streaming};
use crate::bif::erlang::binaries::{binary_bytes, iodata_bytes};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("crypto", "on_load", 0, on_load),
    ("crypto", "hash_algorithms", 0, hash_algorithms),
    ("crypto", "mac_algorithms", 0, mac_algorithms),
    ("crypto", "hash_info_nif", 1, hash_info_nif),
    ("crypto", "hash_nif", 2, hash_nif),
    ("crypto", "hash_init_nif", 1, hash_init_nif),
    ("crypto", "hash_update_nif", 2, hash_update_nif),
    ("crypto", "hash_final_nif", 1, hash_final_nif),
    ("crypto", "hash_final_xof_nif", 2, hash_final_xof_nif),
    ("crypto", "mac_nif", 4, mac_nif),
    ("crypto", "mac_init_nif", 3, mac_init_nif),
    ("crypto", "mac_update_nif", 2, mac_update_nif),
    ("crypto", "mac_final_nif", 1, mac_final_nif),
    ("crypto", "strong_rand_bytes_nif", 1, strong_rand_bytes_nif),
    ("crypto", "rand_uniform_nif", 2, rand_uniform_nif),
    ("crypto", "hash_equals_nif", 2, hash_equals_nif),
    ("crypto", "do_exor", 2, do_exor),
];

/// `crypto:on_load()`: the NIFs are built in; nothing to load.
fn on_load(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::atom(Atom::OK))
}

/// A NIF's exception: `{Class, #{c_file_name, c_file_line_num,
/// c_function_arg_num}, Msg}`.
fn nif_error(p: &mut Process, file: &str, line: i64, arg: i64, msg: &str) -> Exception {
    nif_exception(p, Atom::BADARG, file, line, arg, msg)
}

// ---- digests ----

/// A hash computation of any digest.
trait Hasher: Send + Sync {
    fn update(&mut self, data: &[u8]);
    /// The digest of what was fed so far (the hasher stays as it is).
    fn finish(&self) -> Vec<u8>;
    /// A copy to go on from separately.
    fn fork(&self) -> Box<dyn Hasher>;
    fn output_size(&self) -> usize;
    /// The digest's block size in bytes (HMAC's key block; OpenSSL's
    /// `EVP_MD_block_size`).
    fn block_size(&self) -> usize;
    /// `len` bytes of an extendable output (a shake), or `None` for a
    /// fixed-size digest.
    fn finish_xof(&self, _len: usize) -> Option<Vec<u8>> {
        None
    }
}

impl<T> Hasher for T
where
    T: digest::Digest + digest::core_api::BlockSizeUser + Clone + Send + Sync + 'static,
{
    fn update(&mut self, data: &[u8]) {
        digest::Digest::update(self, data);
    }
    fn finish(&self) -> Vec<u8> {
        self.clone().finalize().to_vec()
    }
    fn fork(&self) -> Box<dyn Hasher> {
        Box::new(self.clone())
    }
    fn output_size(&self) -> usize {
        <T as digest::Digest>::output_size()
    }
    fn block_size(&self) -> usize {
        <T as digest::core_api::BlockSizeUser>::block_size()
    }
}

/// A shake, an extendable-output function: `LEN` bytes when asked for a
/// plain digest; a size of 0, as OpenSSL reports for an XOF.
#[derive(Clone, Default)]
struct Shake<T, const LEN: usize>(T);

impl<T, const LEN: usize> Hasher for Shake<T, LEN>
where
    T: digest::Update
        + digest::ExtendableOutput
        + digest::core_api::BlockSizeUser
        + Default
        + Clone
        + Send
        + Sync
        + 'static,
{
    fn update(&mut self, data: &[u8]) {
        digest::Update::update(&mut self.0, data);
    }
    fn finish(&self) -> Vec<u8> {
        self.finish_xof(LEN).unwrap_or_default()
    }
    fn fork(&self) -> Box<dyn Hasher> {
        Box::new(self.clone())
    }
    fn output_size(&self) -> usize {
        0
    }
    fn block_size(&self) -> usize {
        <T as digest::core_api::BlockSizeUser>::block_size()
    }
    fn finish_xof(&self, len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0; len];
        digest::ExtendableOutput::finalize_xof_into(self.0.clone(), &mut out);
        Some(out)
    }
}

/// A digest algorithm: its name, OpenSSL NID, the first OTP release whose
/// crypto offers it, whether it is a shake, and a fresh hasher (which
/// knows its sizes).
struct Algorithm {
    name: &'static str,
    nid: i64,
    since: u32,
    xof: bool,
    new: fn() -> Box<dyn Hasher>,
}

macro_rules! algorithm {
    ($name:literal, $nid:literal, $ty:ty) => {
        algorithm!($name, $nid, $ty, since 25)
    };
    ($name:literal, $nid:literal, $ty:ty, since $since:literal) => {
        Algorithm {
            name: $name,
            nid: $nid,
            since: $since,
            xof: false,
            new: || Box::new(<$ty as Default>::default()),
        }
    };
    ($name:literal, $nid:literal, $ty:ty, xof since $since:literal) => {
        Algorithm {
            name: $name,
            nid: $nid,
            since: $since,
            xof: true,
            new: || Box::new(<$ty as Default>::default()),
        }
    };
}

/// The digests, in `crypto:supports(hashs)`'s order (of the release that
/// offers them all).
const ALGORITHMS: &[Algorithm] = &[
    algorithm!("blake2s", 1057, blake2::Blake2s256),
    algorithm!("blake2b", 1056, blake2::Blake2b512),
    algorithm!("sm3", 1143, sm3::Sm3, since 27),
    algorithm!("shake256", 1101, Shake<sha3::Shake256, 32>, xof since 27),
    algorithm!("shake128", 1100, Shake<sha3::Shake128, 16>, xof since 27),
    algorithm!("sha3_512", 1099, sha3::Sha3_512),
    algorithm!("sha3_384", 1098, sha3::Sha3_384),
    algorithm!("sha3_256", 1097, sha3::Sha3_256),
    algorithm!("sha3_224", 1096, sha3::Sha3_224),
    algorithm!("sha512_256", 1095, sha2::Sha512_256, since 29),
    algorithm!("sha512_224", 1094, sha2::Sha512_224, since 29),
    algorithm!("sha512", 674, sha2::Sha512),
    algorithm!("sha384", 673, sha2::Sha384),
    algorithm!("sha256", 672, sha2::Sha256),
    algorithm!("sha224", 675, sha2::Sha224),
    algorithm!("sha", 64, sha1::Sha1),
    algorithm!("ripemd160", 117, ripemd::Ripemd160),
    algorithm!("md5", 4, md5::Md5),
    algorithm!("md4", 257, md4::Md4),
];

/// The digests the running release's crypto offers.
fn offered() -> impl Iterator<Item = &'static Algorithm> {
    let release = crate::code::otp_release();
    ALGORITHMS.iter().filter(move |a| a.since <= release)
}

fn algorithm(t: Term) -> Option<&'static Algorithm> {
    let name = t.as_atom()?;
    offered().find(|a| a.name == name.name())
}

/// The C source line of a NIF error that moved between OTP 27's crypto
/// and OTP 29's (OTP 28 is taken as 29).
fn line_by_release(otp27: i64, otp29: i64) -> i64 {
    if crate::code::otp_release() >= 28 {
        otp29
    } else {
        otp27
    }
}

fn hash_algorithms(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let names: Vec<Term> = offered().map(|a| atom(a.name)).collect();
    Ok(p.heap.list(&names))
}

/// `mac_algorithms()`: mac.c's list, built backwards as its C builds it.
fn mac_algorithms(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.list(&[atom("cmac"), atom("hmac"), atom("poly1305")]))
}

/// The digest argument of `hash_*_nif` (C argument 0), or hash.c's error.
fn digest_arg(p: &mut Process, t: Term, line: i64) -> Result<&'static Algorithm, Exception> {
    algorithm(t).ok_or_else(|| nif_error(p, "hash.c", line, 0, "Bad digest type"))
}

/// `hash_info_nif(Type)`: `#{type => NID, size => Bytes, block_size => Bytes}`.
fn hash_info_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // erts answers a plain badarg here.
    let alg = algorithm(a[0]).ok_or_else(Exception::badarg)?;
    let hasher = (alg.new)();
    let keys = [atom("block_size"), atom("size"), atom("type")];
    let small = Term::small_unchecked;
    let values = [
        small(hasher.block_size() as i64),
        small(hasher.output_size() as i64),
        small(alg.nid),
    ];
    let pairs: Vec<(Term, Term)> = keys.into_iter().zip(values).collect();
    Ok(beamr_core::map::from_pairs(&mut p.heap, &pairs))
}

fn hash_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let alg = digest_arg(p, a[0], 108)?;
    let data = iodata_bytes(a[1])?;
    if alg.xof && crate::code::otp_release() < 29 {
        // OTP 27's one-shot hash asks OpenSSL for a fixed-size digest.
        let e = nif_exception(p, Atom::ERROR, "hash.c", 126, -1, "Low-level call failed");
        return Err(e);
    }
    let mut hasher = (alg.new)();
    hasher.update(&data);
    Ok(p.heap.binary(&hasher.finish()))
}

/// A hash in progress.
struct HashState(Box<dyn Hasher>);

/// Third id word of a hash state's reference.
const HASH_TAG: u32 = 0x00C4_A500;

static HASHES: Resources<HashState> = Resources::new(HASH_TAG);

fn hash_init_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let alg = digest_arg(p, a[0], 142)?;
    Ok(HASHES.insert(p, HashState((alg.new)())))
}

fn hash_state(p: &mut Process, t: Term, line: i64) -> Result<std::sync::Arc<HashState>, Exception> {
    HASHES
        .get(t)
        .ok_or_else(|| nif_error(p, "hash.c", line, 0, "Bad state"))
}

fn hash_update_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = hash_state(p, a[0], 202)?;
    let data = iodata_bytes(a[1])?;
    let mut next = state.0.fork();
    next.update(&data);
    Ok(HASHES.insert(p, HashState(next)))
}

fn hash_final_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = hash_state(p, a[0], 243)?;
    Ok(p.heap.binary(&state.0.finish()))
}

/// `hash_final_xof_nif(State, Bits)` (OTP 26 and later, behind
/// `crypto:hash_xof/3`): the whole bytes of a shake's first `Bits` bits of
/// output (33 gives 4 bytes); a fixed-size digest fails as OpenSSL's
/// `EVP_DigestFinalXOF` does.
fn hash_final_xof_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = hash_state(p, a[0], 243)?;
    let len = match a[1].as_small().and_then(|n| usize::try_from(n).ok()) {
        Some(bits) => bits / 8,
        None => {
            let line = line_by_release(541, 573);
            return Err(nif_error(p, "hash.c", line, 1, "Bad len"));
        }
    };
    match state.0.finish_xof(len) {
        Some(out) => Ok(p.heap.binary(&out)),
        None => {
            let line = line_by_release(551, 583);
            let msg = "Low-level call EVP_DigestFinalXOF failed";
            Err(nif_exception(p, Atom::ERROR, "hash.c", line, -1, msg))
        }
    }
}

// ---- HMAC ----

/// An HMAC in progress: the inner hash fed with `key ^ ipad` and the
/// message so far, and the outer key block.
struct Hmac {
    inner: Box<dyn Hasher>,
    alg: &'static Algorithm,
    outer_key: Vec<u8>,
}

impl Hmac {
    fn new(alg: &'static Algorithm, key: &[u8]) -> Hmac {
        let mut inner = (alg.new)();
        let block_size = inner.block_size();
        let mut block = if key.len() > block_size {
            let mut h = (alg.new)();
            h.update(key);
            h.finish()
        } else {
            key.to_vec()
        };
        block.resize(block_size, 0);
        inner.update(&block.iter().map(|b| b ^ 0x36).collect::<Vec<u8>>());
        Hmac {
            inner,
            alg,
            outer_key: block.iter().map(|b| b ^ 0x5c).collect(),
        }
    }

    fn finish(&self) -> Vec<u8> {
        let inner = self.inner.finish();
        let mut outer = (self.alg.new)();
        outer.update(&self.outer_key);
        outer.update(&inner);
        outer.finish()
    }
}

/// The MACs erts's mac.c knows (its `mac_types`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum MacKind {
    Hmac,
    Cmac,
    Poly1305,
}

/// Where mac.c raises each error of one NIF, in OTP 25, 27 and 29:
/// `mac_nif`'s lines and `mac_init_nif`'s differ.
struct MacLines {
    /// "Unknown mac algorithm" (C argument 0).
    unknown_mac: Line,
    /// "Bad key length" (C argument 2): a Poly1305 key not of 32 bytes.
    key_length: Line,
    /// "Bad digest algorithm for HMAC" (C argument 1).
    digest: Line,
    /// CMAC's cipher errors.
    cipher: CipherLines,
    /// The library's refusal, and erts's words for it.
    failed: (Line, &'static str),
}

const MAC_NIF: MacLines = MacLines {
    unknown_mac: Line(233, 234, 251),
    key_length: Line(235, 236, 253),
    digest: Line(263, 264, 281),
    cipher: CipherLines {
        unknown: Line(313, 314, 331),
        key_size: Line(316, 317, 334),
    },
    failed: (Line(387, 388, 405), "Couldn't get mac"),
};

const MAC_INIT_NIF: MacLines = MacLines {
    unknown_mac: Line(587, 587, 600),
    key_length: Line(589, 589, 602),
    digest: Line(617, 617, 630),
    cipher: CipherLines {
        unknown: Line(658, 658, 671),
        key_size: Line(661, 661, 674),
    },
    failed: (Line(737, 737, 750), "Can't initialize EVP_MAC_CTX"),
};

/// C argument 0 given a key of `key_len` bytes: the kind, or mac.c's
/// error for a name it does not know or a Poly1305 key of another size.
fn mac_kind(
    p: &mut Process,
    t: Term,
    key_len: usize,
    lines: &MacLines,
) -> Result<MacKind, Exception> {
    let kind = match t.as_atom().map(Atom::name) {
        Some("hmac") => MacKind::Hmac,
        Some("cmac") => MacKind::Cmac,
        Some("poly1305") => MacKind::Poly1305,
        _ => {
            let msg = "Unknown mac algorithm";
            return Err(badarg(p, "mac.c", lines.unknown_mac, 0, msg));
        }
    };
    if kind == MacKind::Poly1305 && key_len != 32 {
        return Err(badarg(p, "mac.c", lines.key_length, 2, "Bad key length"));
    }
    Ok(kind)
}

/// A MAC being computed: HMAC here, CMAC and Poly1305 on OpenSSL.
enum MacState {
    Hmac(Hmac),
    Ossl(Streaming),
}

impl MacState {
    fn update(&mut self, data: &[u8]) -> bool {
        match self {
            MacState::Hmac(mac) => {
                mac.inner.update(data);
                true
            }
            MacState::Ossl(mac) => mac.update(data),
        }
    }

    fn finish(&mut self) -> Option<Vec<u8>> {
        match self {
            MacState::Hmac(mac) => Some(mac.finish()),
            MacState::Ossl(mac) => mac.finish(),
        }
    }
}

/// The MAC `kind`, `sub` (a digest, a cipher or `undefined`) and `key`
/// name, with nothing fed yet; or mac.c's error.
fn new_mac(
    p: &mut Process,
    kind: Term,
    sub: Term,
    key: &[u8],
    lines: &MacLines,
) -> Result<MacState, Exception> {
    let (failed, msg) = lines.failed;
    let key = match mac_kind(p, kind, key.len(), lines)? {
        MacKind::Hmac => {
            let msg_digest = "Bad digest algorithm for HMAC";
            let alg =
                algorithm(sub).ok_or_else(|| badarg(p, "mac.c", lines.digest, 1, msg_digest))?;
            // OpenSSL has no HMAC over an extendable-output digest.
            if alg.xof {
                return Err(error(p, "mac.c", failed, msg));
            }
            return Ok(MacState::Hmac(Hmac::new(alg, key)));
        }
        MacKind::Cmac => mac::cmac_key(p, sub, key, lines.cipher)?,
        MacKind::Poly1305 => mac::poly1305_key(key),
    };
    match key.as_ref().and_then(Streaming::new) {
        Some(mac) => Ok(MacState::Ossl(mac)),
        None => Err(error(p, "mac.c", failed, msg)),
    }
}

/// `mac_nif(Type, SubType, Key, Data)`: the MAC, checked as erts's mac.c
/// checks (the text first, then the key, the type and the sub-type).
fn mac_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let data =
        iodata_bytes(a[3]).map_err(|_| badarg(p, "mac.c", Line(175, 176, 193), 3, "Bad text"))?;
    let key =
        iodata_bytes(a[2]).map_err(|_| badarg(p, "mac.c", Line(220, 221, 238), 2, "Bad key"))?;
    let mut mac = new_mac(p, a[0], a[1], &key, &MAC_NIF)?;
    let (failed, msg) = MAC_NIF.failed;
    match mac.update(&data).then(|| mac.finish()).flatten() {
        Some(out) => Ok(p.heap.binary(&out)),
        None => Err(error(p, "mac.c", failed, msg)),
    }
}

/// Third id word of a MAC state's reference.
const MAC_TAG: u32 = 0x00AC_5700;

static MACS: Resources<Mutex<MacState>> = Resources::new(MAC_TAG);

fn lock(m: &Mutex<MacState>) -> MutexGuard<'_, MacState> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `mac_init_nif(Type, SubType, Key)`: a MAC state to feed.
fn mac_init_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let key =
        iodata_bytes(a[2]).map_err(|_| badarg(p, "mac.c", Line(580, 580, 593), 2, "Bad key"))?;
    let mac = new_mac(p, a[0], a[1], &key, &MAC_INIT_NIF)?;
    Ok(MACS.insert(p, Mutex::new(mac)))
}

/// The MAC state `t` denotes, or mac.c's "Bad ref" at `line`.
fn mac_state(
    p: &mut Process,
    t: Term,
    line: Line,
) -> Result<std::sync::Arc<Mutex<MacState>>, Exception> {
    MACS.get(t)
        .ok_or_else(|| badarg(p, "mac.c", line, 0, "Bad ref"))
}

/// `mac_update_nif(State, Data)`: feeds the state in place; answers it.
/// The text is checked before the state, as erts checks.
fn mac_update_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let data =
        iodata_bytes(a[1]).map_err(|_| badarg(p, "mac.c", Line(794, 794, 807), 1, "Bad text"))?;
    let state = mac_state(p, a[0], Line(817, 817, 830))?;
    if !lock(&state).update(&data) {
        return Err(error(p, "mac.c", Line(827, 827, 840), "mac update"));
    }
    Ok(a[0])
}

/// `mac_final_nif(State)`: the MAC of what was fed.
fn mac_final_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = mac_state(p, a[0], Line(847, 847, 860))?;
    let mac = lock(&state).finish();
    match mac {
        Some(mac) => Ok(p.heap.binary(&mac)),
        None => Err(error(p, "mac.c", Line(866, 866, 879), "Signing")),
    }
}

// ---- randomness and the rest ----

/// `strong_rand_bytes_nif(N)`: N bytes from the OS's random source.
fn strong_rand_bytes_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = a[0]
        .as_small()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|_| Exception::error(atom("low_entropy")))?;
    Ok(p.heap.binary(&bytes))
}

/// An mpint: a 4-byte big-endian length, then the magnitude big-endian.
fn mpint_arg(t: Term) -> Result<BigUint, Exception> {
    let bytes = binary_bytes(&t)?;
    if bytes.len() < 4 {
        return Err(Exception::badarg());
    }
    Ok(BigUint::from_bytes_be(&bytes[4..]))
}

/// `rand_uniform_nif(From, To)`: a random integer in `[From, To)`, all as
/// mpints.
fn rand_uniform_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (from, to) = (mpint_arg(a[0])?, mpint_arg(a[1])?);
    if from >= to {
        return Err(Exception::badarg());
    }
    let n = random_below(&(to - &from))? + from;
    let magnitude = if n == BigUint::default() {
        Vec::new()
    } else {
        n.to_bytes_be()
    };
    // A set top bit would read as a sign: mpints lead with a zero then.
    let pad = magnitude.first().is_some_and(|b| b & 0x80 != 0);
    let len = magnitude.len() + usize::from(pad);
    let mut out = (len as u32).to_be_bytes().to_vec();
    if pad {
        out.push(0);
    }
    out.extend_from_slice(&magnitude);
    Ok(p.heap.binary(&out))
}

/// A uniformly random integer in `[0, bound)` (bound > 0), by rejection:
/// draw as many bits as `bound` has until the draw is below it.
fn random_below(bound: &BigUint) -> Result<BigUint, Exception> {
    let bits = bound.bits();
    let mut bytes = vec![0u8; bits.div_ceil(8) as usize];
    loop {
        getrandom::fill(&mut bytes).map_err(|_| Exception::error(atom("low_entropy")))?;
        if bits % 8 != 0 {
            bytes[0] &= (1u8 << (bits % 8)) - 1;
        }
        let n = BigUint::from_bytes_be(&bytes);
        if &n < bound {
            return Ok(n);
        }
    }
}

/// `hash_equals_nif(A, B)`: a comparison in time independent of the bytes.
fn hash_equals_nif(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (x, y) = (binary_bytes(&a[0])?, binary_bytes(&a[1])?);
    if x.len() != y.len() {
        return Err(Exception::badarg());
    }
    let diff = x
        .iter()
        .zip(y.iter())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    Ok(if diff == 0 { Term::TRUE } else { Term::FALSE })
}

/// `do_exor(A, B)`: the bytewise exclusive or of two iodata of one size.
fn do_exor(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (x, y) = (iodata_bytes(a[0])?, iodata_bytes(a[1])?);
    if x.len() != y.len() {
        return Err(Exception::badarg());
    }
    let out: Vec<u8> = x.iter().zip(&y).map(|(a, b)| a ^ b).collect();
    Ok(p.heap.binary(&out))
}

#[cfg(test)]
mod tests {
    use super::ALGORITHMS;

    /// The digests' block sizes are OpenSSL's (`EVP_MD_block_size`), which
    /// `hash_info/1` reports and HMAC pads keys to.
    #[test]
    fn block_sizes_are_openssls() {
        let openssl = [
            ("blake2s", 64),
            ("blake2b", 128),
            ("sm3", 64),
            ("shake256", 136),
            ("shake128", 168),
            ("sha3_512", 72),
            ("sha3_384", 104),
            ("sha3_256", 136),
            ("sha3_224", 144),
            ("sha512_256", 128),
            ("sha512_224", 128),
            ("sha512", 128),
            ("sha384", 128),
            ("sha256", 64),
            ("sha224", 64),
            ("sha", 64),
            ("ripemd160", 64),
            ("md5", 64),
            ("md4", 64),
        ];
        let ours: Vec<(&str, usize)> = ALGORITHMS
            .iter()
            .map(|a| (a.name, (a.new)().block_size()))
            .collect();
        assert_eq!(ours, openssl);
    }
}
