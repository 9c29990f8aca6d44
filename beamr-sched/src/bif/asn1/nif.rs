//! The rows of `asn1rt_nif` and the conversion between terms and the BER
//! and PER code: `load_nif/0` (the module's `on_load`; the NIF is built
//! in), `decode_ber_tlv_raw/1`, `encode_ber_tlv/1` and
//! `encode_per_complete/1`, answering what erl's NIF answers:
//!
//! - `decode_ber_tlv_raw(Bytes)`: `{{Tag, Value}, Rest}`, or `{error,
//!   {invalid_tag | invalid_length | invalid_value, Offset}}`;
//! - `encode_ber_tlv(Tree)`: the bytes, or `{error, -1}`;
//! - `encode_per_complete(Commands)`: the bytes, or `{error, $1}`;
//!
//! each raising `badarg` for an argument that is not iodata where iodata
//! is asked for.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::ber_decode::{self, Reason, Sink};
use super::{ber_encode, per_complete};
use crate::bif::common::atoms::atom;
use crate::bif::erlang::binaries::iodata_bytes;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("asn1rt_nif", "load_nif", 0, load_nif),
    ("asn1rt_nif", "decode_ber_tlv_raw", 1, decode_ber_tlv_raw),
    ("asn1rt_nif", "encode_ber_tlv", 1, encode_ber_tlv),
    ("asn1rt_nif", "encode_per_complete", 1, encode_per_complete),
];

/// `asn1rt_nif:load_nif()`: the NIF is built in; nothing to load.
fn load_nif(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::atom(Atom::OK))
}

/// Builds the decoded tree on a process heap.
struct Terms<'p>(&'p mut Process);

impl Sink for Terms<'_> {
    type Node = Term;
    fn primitive(&mut self, tag: u32, bytes: &[u8]) -> Term {
        let value = self.0.heap.binary(bytes);
        self.0
            .heap
            .tuple(&[Term::small_unchecked(tag.into()), value])
    }
    fn constructed(&mut self, tag: u32, items: Vec<Term>) -> Term {
        let value = self.0.heap.list(&items);
        self.0
            .heap
            .tuple(&[Term::small_unchecked(tag.into()), value])
    }
}

fn error(p: &mut Process, reason: Term) -> Term {
    p.heap.tuple(&[Term::atom(Atom::ERROR), reason])
}

fn decode_ber_tlv_raw(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let input = iodata_bytes(a[0])?;
    match ber_decode::decode(&mut Terms(p), &input) {
        Ok((tree, used)) => {
            let rest = p.heap.binary(&input[used..]);
            Ok(p.heap.tuple(&[tree, rest]))
        }
        Err(e) => {
            let name = match e.reason {
                Reason::Tag => "invalid_tag",
                Reason::Length => "invalid_length",
                Reason::Value => "invalid_value",
            };
            let at = Term::small_unchecked(e.at as i64);
            let why = p.heap.tuple(&[atom(name), at]);
            Ok(error(p, why))
        }
    }
}

fn encode_ber_tlv(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(match ber_encode::encode(a[0]) {
        Some(bytes) => p.heap.binary(&bytes),
        None => error(p, Term::small_unchecked(-1)),
    })
}

fn encode_per_complete(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let input = iodata_bytes(a[0])?;
    Ok(match per_complete::complete(&input) {
        Some(bytes) => p.heap.binary(&bytes),
        None => error(p, Term::small_unchecked(i64::from(b'1'))),
    })
}
