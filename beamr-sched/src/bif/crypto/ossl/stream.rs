//! The symmetric ciphers, one-shot and streaming: erts's `api_ng.c`.
//!
//! - `ng_crypto_init_nif(Cipher, Key, IV, Opts)` makes a state (a
//!   resource holding an OpenSSL cipher context) and
//!   `ng_crypto_update_nif(State, Data)` feeds it;
//! - `ng_crypto_final_nif(State)` pads as the options say and ends it;
//!   `ng_crypto_get_data_nif(State)` tells its size, padding and direction;
//! - `ng_crypto_one_time_nif(Cipher, Key, IV, Data, Opts)` is all three.
//!
//! `Opts` is `true`/`false` (encrypt or decrypt, no padding) or a property
//! list of `{encrypt, Bool}` and `{padding, none | zero | random |
//! pkcs_padding | undefined}`. Without a `padding` option the final step
//! gives nothing, so a block cipher keeps back an unfilled last block, as
//! on erl.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use openssl::cipher_ctx::CipherCtx;

use super::ciphers::{self, CipherType};
use super::context::Ctx;
use super::error::{self, Line};
use crate::bif::common::atoms::atom;
use crate::bif::common::resource::Resources;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

const FILE: &str = "api_ng.c";

/// The `padding` option.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Padding {
    Undefined,
    None,
    Zero,
    Random,
    Pkcs,
}

impl Padding {
    fn from_name(name: &str) -> Option<Padding> {
        Some(match name {
            "undefined" => Padding::Undefined,
            "none" => Padding::None,
            "zero" => Padding::Zero,
            "random" => Padding::Random,
            "pkcs_padding" => Padding::Pkcs,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Padding::Undefined => "undefined",
            Padding::None => "none",
            Padding::Zero => "zero",
            Padding::Random => "random",
            Padding::Pkcs => "pkcs_padding",
        }
    }
}

/// A cipher state: the context and what `get_data` reports.
struct State {
    ctx: Ctx,
    encrypt: bool,
    padding: Padding,
    /// Bytes fed so far.
    size: i64,
    /// The padding the final step added (-1 before it).
    padded_size: i64,
}

/// Third id word of a cipher state's reference.
const STATE_TAG: u32 = 0x00C1_F400;

static STATES: Resources<Mutex<State>> = Resources::new(STATE_TAG);

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The options argument (`get_opts`): the direction and the padding.
fn options(p: &mut Process, opts: Term, arg: i64) -> Result<(bool, Padding), Exception> {
    match opts.as_atom() {
        Some(Atom::TRUE) => return Ok((true, Padding::Undefined)),
        Some(Atom::FALSE) => return Ok((false, Padding::Undefined)),
        Some(Atom::UNDEFINED) => return Ok((true, Padding::Undefined)),
        _ => {}
    }
    let Some(items) = opts.list_to_vec() else {
        let msg = "Options are not a boolean or a proper list";
        return Err(error::badarg(p, FILE, Line(120, 120, 122), arg, msg));
    };
    let mut encrypt = None;
    let mut padding = None;
    for item in items {
        let pair = match item.as_tuple() {
            Some([tag, value]) => (*tag, *value),
            _ => {
                let msg = "Options must be a property list!";
                return Err(error::badarg(p, FILE, Line(139, 139, 141), arg, msg));
            }
        };
        match pair.0.as_atom().map(Atom::name) {
            Some("encrypt") => {
                if encrypt.is_some() {
                    let msg = "'encrypt' option is present more than once!";
                    return Err(error::badarg(p, FILE, Line(144, 144, 146), arg, msg));
                }
                encrypt = Some(match pair.1.as_atom() {
                    Some(Atom::TRUE | Atom::UNDEFINED) => true,
                    Some(Atom::FALSE) => false,
                    _ => {
                        let msg = "The 'encrypt' option must be a boolean!";
                        return Err(error::badarg(p, FILE, Line(152, 152, 154), arg, msg));
                    }
                });
            }
            Some("padding") => {
                if padding.is_some() {
                    let msg = "The 'padding' option is present more than once!";
                    return Err(error::badarg(p, FILE, Line(157, 157, 159), arg, msg));
                }
                let value = pair.1.as_atom().and_then(|a| Padding::from_name(a.name()));
                match value {
                    Some(v) => padding = Some(v),
                    None => {
                        let msg = "Bad 'padding' option value";
                        return Err(error::badarg(p, FILE, Line(168, 168, 170), arg, msg));
                    }
                }
            }
            _ => {
                let text = beamr_core::format::display_w(pair.0).to_string();
                let msg = format!("Bad tag in option: {text}");
                return Err(error::badarg(p, FILE, Line(174, 174, 176), arg, &msg));
            }
        }
    }
    Ok((
        encrypt.unwrap_or(true),
        padding.unwrap_or(Padding::Undefined),
    ))
}

/// The C argument numbers of the cipher, key, IV and options.
struct Args {
    cipher: usize,
    key: usize,
    iv: usize,
    opts: usize,
}

/// Checks the arguments and makes the state (`get_init_args`).
fn init_state(p: &mut Process, a: &[Term], n: Args) -> Result<State, Exception> {
    let (encrypt, padding) = options(p, a[n.opts], n.opts as i64)?;
    let Some(key) = beamr_core::term::iodata_bytes(a[n.key]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(228, 228, 230),
            n.key as i64,
            "Bad key",
        ));
    };
    let Some(name) = a[n.cipher].as_atom() else {
        let msg = "Cipher id is not an atom";
        return Err(error::badarg(
            p,
            FILE,
            Line(235, 235, 237),
            n.cipher as i64,
            msg,
        ));
    };
    let cipher: &CipherType = match ciphers::by_name_and_key(name.name(), key.len()) {
        Some(c) => c,
        None if ciphers::by_name(name.name()).is_some() => {
            let line = Line(244, 244, 246);
            return Err(error::badarg(p, FILE, line, n.key as i64, "Bad key size"));
        }
        None => {
            let line = Line(242, 242, 244);
            return Err(error::badarg(
                p,
                FILE,
                line,
                n.cipher as i64,
                "Unknown cipher",
            ));
        }
    };
    if cipher.aead {
        let msg = "Missing arguments for this cipher";
        return Err(error::badarg(
            p,
            FILE,
            Line(250, 250, 252),
            n.cipher as i64,
            msg,
        ));
    }
    let evp = cipher.evp();
    let iv_len = evp.iv_length();
    let iv = if iv_len > 0 {
        let Some(iv) = beamr_core::term::iodata_bytes(a[n.iv]) else {
            let line = Line(304, 301, 303);
            return Err(error::badarg(p, FILE, line, n.iv as i64, "Bad iv type"));
        };
        if iv.len() != iv_len {
            let line = Line(310, 307, 309);
            return Err(error::badarg(p, FILE, line, n.iv as i64, "Bad iv size"));
        }
        Some(iv)
    } else {
        None
    };
    let init = || -> Result<CipherCtx, openssl::error::ErrorStack> {
        let mut ctx = CipherCtx::new()?;
        if encrypt {
            ctx.encrypt_init(Some(evp), Some(&key), iv.as_deref())?;
        } else {
            ctx.decrypt_init(Some(evp), Some(&key), iv.as_deref())?;
        }
        ctx.set_padding(padding == Padding::Pkcs);
        Ok(ctx)
    };
    let ctx = init()
        .map_err(|_| error::error(p, FILE, Line(300, 300, 300), "Can't initialize key or iv"))?;
    Ok(State {
        ctx: Ctx(ctx),
        encrypt,
        padding,
        size: 0,
        padded_size: -1,
    })
}

/// Feeds `data` (`get_update_args`).
fn update(p: &mut Process, state: &mut State, data: &[u8]) -> Result<Vec<u8>, Exception> {
    state.size += data.len() as i64;
    let mut out = Vec::with_capacity(data.len() + state.ctx.0.block_size());
    match state.ctx.0.cipher_update_vec(data, &mut out) {
        Ok(_) => Ok(out),
        Err(_) => Err(error::error(p, FILE, Line(400, 400, 400), "Can't update")),
    }
}

/// Pads and ends (`get_final_args`).
fn finish(p: &mut Process, state: &mut State) -> Result<Vec<u8>, Exception> {
    let block = state.ctx.0.block_size().max(1) as i64;
    let mut pad = state.size % block;
    if pad != 0 {
        pad = block - pad;
    }
    let mut out = Vec::new();
    if state.encrypt {
        state.padded_size = match state.padding {
            Padding::Pkcs if pad == 0 => block,
            _ => pad,
        };
        if state.padding == Padding::Undefined {
            return Ok(out);
        }
        if matches!(state.padding, Padding::Zero | Padding::Random) && pad > 0 {
            let mut bytes = vec![0u8; pad as usize];
            if state.padding == Padding::Random {
                openssl::rand::rand_bytes(&mut bytes)
                    .map_err(|_| error::error(p, FILE, Line(590, 586, 588), "Can't pad"))?;
            }
            state
                .ctx
                .0
                .cipher_update_vec(&bytes, &mut out)
                .map_err(|_| error::error(p, FILE, Line(590, 586, 588), "Can't pad"))?;
        }
        if state.ctx.0.cipher_final_vec(&mut out).is_err() {
            let (line, msg) = match state.padding {
                Padding::None => (
                    Line(610, 606, 608),
                    "Padding 'none' but unfilled last block",
                ),
                Padding::Pkcs => (Line(612, 608, 610), "Can't finalize"),
                _ => (Line(614, 610, 612), "Padding failed"),
            };
            return Err(error::error(p, FILE, line, msg));
        }
    } else {
        if state.padding == Padding::Undefined {
            return Ok(out);
        }
        if state.ctx.0.cipher_final_vec(&mut out).is_err() {
            return Err(error::error(p, FILE, Line(638, 634, 636), "Can't finalize"));
        }
    }
    Ok(out)
}

fn state_arg(p: &mut Process, t: Term, line: Line) -> Result<Arc<Mutex<State>>, Exception> {
    STATES
        .get(t)
        .ok_or_else(|| error::badarg(p, FILE, line, 0, "Bad State"))
}

/// `ng_crypto_init_nif(Cipher, Key, IV, Opts)`: a new state.
pub(super) fn init_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let args = Args {
        cipher: 0,
        key: 1,
        iv: 2,
        opts: 3,
    };
    let state = init_state(p, a, args)?;
    Ok(STATES.insert(p, Mutex::new(state)))
}

/// `ng_crypto_update_nif(State, Data)`: the output for `Data`.
pub(super) fn update_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(data) = beamr_core::term::iodata_bytes(a[1]) else {
        return Err(error::badarg(
            p,
            FILE,
            Line(860, 743, 745),
            1,
            "expected binary",
        ));
    };
    let state = state_arg(p, a[0], Line(731, 727, 729))?;
    let out = update(p, &mut lock(&state), &data)?;
    Ok(p.heap.binary(&out))
}

/// `ng_crypto_final_nif(State)`: the last output, padded as the options say.
pub(super) fn final_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = state_arg(p, a[0], Line(886, 769, 771))?;
    let out = finish(p, &mut lock(&state))?;
    Ok(p.heap.binary(&out))
}

/// `ng_crypto_get_data_nif(State)`: `#{size, padding_size, padding_type,
/// encrypt}`.
pub(super) fn get_data_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let state = state_arg(p, a[0], Line(992, 880, 882))?;
    let (size, padded, padding, encrypt) = {
        let s = lock(&state);
        (s.size, s.padded_size, s.padding, s.encrypt)
    };
    let size = p.heap.int(size);
    let padded = p.heap.int(padded);
    let pairs = [
        (
            atom("encrypt"),
            if encrypt { Term::TRUE } else { Term::FALSE },
        ),
        (atom("padding_size"), padded),
        (atom("padding_type"), atom(padding.name())),
        (atom("size"), size),
    ];
    Ok(beamr_core::map::from_pairs(&mut p.heap, &pairs))
}

/// `ng_crypto_one_time_nif(Cipher, Key, IV, Data, Opts)`: the whole output.
pub(super) fn one_time_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(data) = beamr_core::term::iodata_bytes(a[3]) else {
        let line = Line(966, 849, 851);
        return Err(error::badarg(p, FILE, line, 3, "expected binary as data"));
    };
    let args = Args {
        cipher: 0,
        key: 1,
        iv: 2,
        opts: 4,
    };
    let mut state = init_state(p, a, args)?;
    let mut out = update(p, &mut state, &data)?;
    out.extend(finish(p, &mut state)?);
    Ok(p.heap.binary(&out))
}
