//! `beamr_io`: beamr's native output, used by its group leader
//! (`beamr-sched/erlang/beamr_group_leader.erl`).
//!
//! Standard output is a latin1 device, as `erl -noshell`'s is up to OTP 25:
//! characters up to 255 are written as one byte each, larger ones as
//! `\x{HEX}`. From OTP 26 on, `erl -noshell`'s standard output is a
//! unicode device (UTF-8) when the locale's character set is UTF-8
//! (`LC_ALL`, else `LC_CTYPE`, else `LANG`), and beamr follows the release
//! of the library it runs ([`unicode_device`]).

use std::io::Write;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("beamr_io", "put_chars", 2, put_chars),
    ("beamr_io", "put_error_chars", 3, put_error_chars),
    ("beamr_io", "encoding", 0, encoding),
    ("beamr_io", "columns", 0, columns),
    ("beamr_io", "rows", 0, rows),
    ("beamr_io", "error_columns", 0, error_columns),
    ("beamr_io", "error_rows", 0, error_rows),
];

/// `beamr_io:columns()`: `{ok, N}` when standard output is a terminal
/// (its width), else `{error, enotsup}`, as `io:columns/0` answers.
fn columns(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(geometry(p, std::io::stdout(), |w, _| w))
}

/// `beamr_io:rows()`: as [`columns`], the terminal's height.
fn rows(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(geometry(p, std::io::stdout(), |_, h| h))
}

/// `beamr_io:error_columns()`: as [`columns`], for standard error (the
/// `standard_error` device answers `io:columns/1` on its own terminal).
fn error_columns(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(geometry(p, std::io::stderr(), |w, _| w))
}

/// `beamr_io:error_rows()`: as [`error_columns`], the terminal's height.
fn error_rows(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(geometry(p, std::io::stderr(), |_, h| h))
}

fn geometry(p: &mut Process, stream: impl std::os::fd::AsFd, pick: fn(u16, u16) -> u16) -> Term {
    match terminal_size::terminal_size_of(stream) {
        Some((terminal_size::Width(w), terminal_size::Height(h))) if w > 0 => {
            let n = Term::small_unchecked(i64::from(pick(w, h)));
            p.heap.tuple(&[Term::OK, n])
        }
        _ => {
            let enotsup = Term::atom(Atom::new("enotsup").expect("atom"));
            p.heap.tuple(&[Term::atom(Atom::ERROR), enotsup])
        }
    }
}

/// Whether standard output is a unicode device (see the module doc).
pub(crate) fn unicode_device() -> bool {
    static UNICODE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *UNICODE.get_or_init(|| {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default()
            .to_ascii_lowercase();
        crate::code::otp_release() >= 26 && (locale.contains("utf-8") || locale.contains("utf8"))
    })
}

/// `beamr_io:encoding()`: `unicode` or `latin1`, the device's encoding.
fn encoding(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let name = if unicode_device() {
        "unicode"
    } else {
        "latin1"
    };
    Ok(Term::atom(Atom::new(name).expect("atom")))
}

/// Appends the characters of chardata `t` (a list of characters, binaries
/// and nested lists; binaries in `encoding`) to `out`. `None` if it is not chardata.
pub(crate) fn chardata(t: Term, unicode: bool, out: &mut Vec<u32>) -> Option<()> {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if let Some((h, tl)) = t.as_cons() {
            stack.push(tl);
            stack.push(h);
        } else if t.is_nil() {
        } else if let Some(c) = t.as_small() {
            out.push(u32::try_from(c).ok().filter(|&c| c <= 0x10FFFF)?);
        } else if let Some(b) = t.as_binary() {
            let bytes = b.as_bytes()?;
            if unicode {
                out.extend(std::str::from_utf8(bytes).ok()?.chars().map(|c| c as u32));
            } else {
                out.extend(bytes.iter().map(|&b| b as u32));
            }
        } else {
            return None;
        }
    }
    Some(())
}

/// Writes characters to a latin1 device: bytes up to 255, `\x{HEX}` above.
pub(crate) fn latin1_bytes(chars: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(chars.len());
    for &c in chars {
        if c <= 255 {
            out.push(c as u8);
        } else {
            out.extend_from_slice(format!("\\x{{{c:X}}}").as_bytes());
        }
    }
    out
}

fn put_chars(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    write_chars(a, unicode_device(), &mut std::io::stdout().lock())
}

/// `beamr_io:put_error_chars(Encoding, Chars, DeviceEncoding)`: as
/// `put_chars/2`, on standard error (for the `standard_error` process,
/// whose encoding `io:setopts/2` sets).
fn put_error_chars(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let device_unicode = match a[2].as_atom().map(Atom::name) {
        Some("unicode" | "utf8") => true,
        Some("latin1") => false,
        _ => return Err(Exception::badarg()),
    };
    write_chars(a, device_unicode, &mut std::io::stderr().lock())
}

/// Writes `[Encoding, Chars | _]` to `out`, as UTF-8 on a unicode device,
/// else as latin1: `ok`, or `error` for data that is not chardata or a
/// failed write.
fn write_chars(a: &[Term], device_unicode: bool, out: &mut impl Write) -> Result<Term, Exception> {
    let unicode = match a[0].as_atom().map(Atom::name) {
        Some("unicode" | "utf8") => true,
        Some("latin1") => false,
        _ => return Err(Exception::badarg()),
    };
    let mut chars = Vec::new();
    if chardata(a[1], unicode, &mut chars).is_none() {
        return Ok(Term::atom(Atom::ERROR));
    }
    let bytes = if device_unicode {
        chars
            .iter()
            .filter_map(|&c| char::from_u32(c))
            .collect::<String>()
            .into_bytes()
    } else {
        latin1_bytes(&chars)
    };
    match out.write_all(&bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Term::OK),
        Err(_) => Ok(Term::atom(Atom::ERROR)),
    }
}
