//! `erlang:decode_packet(Type, Bin, Options)`: the packet at the front
//! of `Bin`, cut and decoded as a socket with `{packet, Type}` would.
//!
//! ```text
//! {ok, Packet, Rest}      Packet: the body (a sub-binary of Bin), or an
//!                         HTTP term, or an ssl_tls tuple; Rest: the rest
//! {more, Length}          the packet's whole length, when it is known
//! {more, undefined}       not enough to tell
//! {error, invalid}        a malformed header or a packet over the limits
//! ```
//!
//! `Options` is a proper list of `{packet_size, N}`, `{line_length, N}`
//! (N from 0 to 2^32 - 1) and, for `line` only, `{line_delimiter, Byte}`;
//! anything else, a `Type` erts does not name, or a `Bin` that is not a
//! binary, is `badarg`. An HTTP `Type` reads a start line (`http`,
//! `http_bin`) or a header line (`httph`, `httph_bin`): the call has no
//! state to carry between lines. Before OTP 26 `Bin` may be a bitstring
//! (the whole bytes are read; the bits left over end `Rest`), as erts's
//! were.

use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::loader::BifRow;
use crate::ports::inet::packet_parser::{
    body_range, decode, packet_length, term, Decoded, HttpState, Length, Limits, PacketType,
};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "decode_packet", 3, decode_packet)];

fn decode_packet(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let view = a[1].as_binary().ok_or_else(Exception::badarg)?;
    let bitstrings = beamr_core::release::otp_release() < 26;
    if !(view.is_binary() || bitstrings) || !a[2].is_list() {
        return Err(Exception::badarg());
    }
    let ty = packet_type(a[0]).ok_or_else(Exception::badarg)?;
    let limits = options(a[2], ty).ok_or_else(Exception::badarg)?;
    let whole = view.byte_size();
    let bytes = match view.as_bytes() {
        Some(bytes) => std::borrow::Cow::Borrowed(bytes),
        None => {
            let mut bits = view.to_vec();
            bits.truncate(whole);
            std::borrow::Cow::Owned(bits)
        }
    };
    let len = match packet_length(ty, &bytes, &limits, false) {
        Length::Total(len) if len <= whole => len,
        Length::Total(len) => {
            let len = Term::small_unchecked(len as i64);
            return Ok(p.heap.tuple(&[atom("more"), len]));
        }
        Length::Unknown => return Ok(p.heap.tuple(&[atom("more"), atom("undefined")])),
        Length::Invalid => return Ok(p.heap.tuple(&[atom("error"), atom("invalid")])),
    };
    let packet = &bytes[..len];
    let packet = match decode(ty, packet, HttpState::Start).0 {
        Decoded::Body(_) => {
            // The body is a part of the packet: a sub-binary of `Bin`.
            let body = body_range(ty, packet);
            p.heap.sub_binary(a[1], body.start * 8, body.len() * 8)
        }
        Decoded::Http(line) => term::http_term(&mut p.heap, &line, ty.http_binaries()),
        Decoded::SslTls(record) => term::ssl_tls_term(&mut p.heap, &record, Term::NIL),
    };
    let rest = p.heap.sub_binary(a[1], len * 8, view.bit_size - len * 8);
    Ok(p.heap.tuple(&[atom("ok"), packet, rest]))
}

/// The packet type `t` names: an atom, or 0, 1, 2 or 4.
fn packet_type(t: Term) -> Option<PacketType> {
    match t.as_atom() {
        Some(name) => PacketType::from_name(name.name()),
        None => PacketType::from_integer(t.as_small()?),
    }
}

/// The limits `options` set for a packet of type `ty`; `None` for a
/// list erts refuses.
fn options(options: Term, ty: PacketType) -> Option<Limits> {
    let mut limits = Limits::default();
    let mut items = options.iter_list();
    for item in items.by_ref() {
        let [key, value] = item.as_tuple()? else {
            return None;
        };
        let value = u32::try_from(value.as_small()?).ok()?;
        match key.as_atom()?.name() {
            "packet_size" => limits.packet_size = value,
            "line_length" => limits.line_length = value,
            "line_delimiter" if ty == PacketType::Line => {
                limits.delimiter = u8::try_from(value).ok()?;
            }
            _ => return None,
        }
    }
    items.tail().is_nil().then_some(limits)
}
