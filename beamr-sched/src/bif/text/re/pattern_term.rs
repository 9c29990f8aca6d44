//! The compiled-pattern term `{re_pattern, Groups, Unicode, UseCRLF, Bin}`.
//!
//! The BEAM keeps the compiled code behind the fifth element (a binary up
//! to OTP 27, a magic reference from 28); programs treat it as opaque.
//! beamr's binary holds what is needed to compile the pattern again, and
//! the engine's cache makes that a lookup:
//!
//! ```text
//!   bytes 0..4   "bRE1"                         magic and layout version
//!   bytes 4..8   option bits, little-endian     see OPTION_BITS
//!   byte  8      newline: 0 none, 1 cr, 2 lf, 3 crlf, 4 anycrlf, 5 any, 6 nul
//!   byte  9      bsr: 0 none, 1 anycrlf, 2 unicode
//!   bytes 10..   the pattern's source bytes (UTF-8 when `unicode`)
//! ```

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::translate::{Bsr, CompileOptions, Newline};
use crate::process::Process;

const MAGIC: &[u8; 4] = b"bRE1";
const HEADER: usize = 10;
const NEWLINES: [Newline; 6] = [
    Newline::Cr,
    Newline::Lf,
    Newline::Crlf,
    Newline::AnyCrlf,
    Newline::Any,
    Newline::Nul,
];

/// Each boolean compile option and its bit.
fn option_bits(o: &mut CompileOptions) -> [(&mut bool, u32); 14] {
    [
        (&mut o.unicode, 1),
        (&mut o.caseless, 1 << 1),
        (&mut o.multiline, 1 << 2),
        (&mut o.dotall, 1 << 3),
        (&mut o.extended, 1 << 4),
        (&mut o.ungreedy, 1 << 5),
        (&mut o.dupnames, 1 << 6),
        (&mut o.no_auto_capture, 1 << 7),
        (&mut o.dollar_endonly, 1 << 8),
        (&mut o.firstline, 1 << 9),
        (&mut o.ucp, 1 << 10),
        (&mut o.never_utf, 1 << 11),
        (&mut o.no_start_optimize, 1 << 12),
        (&mut o.anchored, 1 << 13),
    ]
}

/// Builds the term for a pattern with `groups` capturing groups.
pub(super) fn encode(
    p: &mut Process,
    source: &[u8],
    opts: &CompileOptions,
    groups: usize,
    crlf: bool,
) -> Term {
    let mut copy = opts.clone();
    let bits = option_bits(&mut copy)
        .iter()
        .filter(|(set, _)| **set)
        .fold(0u32, |acc, (_, bit)| acc | bit);
    let mut bin = Vec::with_capacity(HEADER + source.len());
    bin.extend_from_slice(MAGIC);
    bin.extend_from_slice(&bits.to_le_bytes());
    bin.push(
        opts.newline
            .and_then(|n| NEWLINES.iter().position(|&x| x == n))
            .map_or(0, |i| i as u8 + 1),
    );
    bin.push(match opts.bsr {
        None => 0,
        Some(Bsr::AnyCrlf) => 1,
        Some(Bsr::Unicode) => 2,
    });
    bin.extend_from_slice(source);
    let bin = p.heap.binary(&bin);
    let tag = Term::atom(Atom::new("re_pattern").expect("atom"));
    p.heap.tuple(&[
        tag,
        Term::small_unchecked(groups as i64),
        Term::small_unchecked(opts.unicode as i64),
        Term::small_unchecked(crlf as i64),
        bin,
    ])
}

/// True when `t` is a 5-tuple: re:run treats it as a compiled pattern.
pub(super) fn is_pattern_shaped(t: Term) -> bool {
    t.as_tuple().is_some_and(|t| t.len() == 5)
}

/// The source and options of a compiled pattern, the source borrowed from
/// its binary; `None` if `t` is not one beamr made.
pub(super) fn decode(t: &Term) -> Option<(&[u8], CompileOptions)> {
    let el = t.as_tuple().filter(|t| t.len() == 5)?;
    if el[0].as_atom().map(Atom::name) != Some("re_pattern")
        || el[1..4].iter().any(|e| e.as_small().is_none())
    {
        return None;
    }
    let view = el[4].as_binary()?;
    let bytes = view.as_bytes()?;
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return None;
    }
    let bits = u32::from_le_bytes(bytes[4..8].try_into().ok()?);
    let mut opts = CompileOptions::default();
    for (set, bit) in option_bits(&mut opts) {
        *set = bits & bit != 0;
    }
    opts.newline = match bytes[8] {
        0 => None,
        n => Some(*NEWLINES.get(n as usize - 1)?),
    };
    opts.bsr = match bytes[9] {
        0 => None,
        1 => Some(Bsr::AnyCrlf),
        2 => Some(Bsr::Unicode),
        _ => return None,
    };
    Some((&bytes[HEADER..], opts))
}
