//! The `Recs` chunk (OTP 29): the native records a module declares.
//!
//! ```text
//! u32 version    0
//! u32 count      record definitions that follow
//! u32 fields     total fields over all definitions
//! count x        one `call_last` instruction each (opcode byte, then three
//!                operands in the compact term encoding of the Code chunk):
//!                  a: the record's name
//!                  a: true | false (exported)
//!                  z1 list: field name atom, then its default (any source
//!                           operand, or u 0 for a field without one), ...
//! ```
//!
//! OTP's compiler reuses the instruction encoding for the definitions
//! (`beam_asm:build_record_chunk/2`); `call_last` is chosen only because it
//! has three operands.

use super::compact::{read_operand, OperandLimits};
use super::container::RawChunk;
use super::error::{BeamError, BeamErrorKind};
use super::opcode::Opcode;
use super::operand::Operand;

/// One native record a module declares.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecl {
    /// The record's name (atom index).
    pub name: u32,
    /// Whether `-export_record` names it.
    pub exported: bool,
    /// Its fields in declaration order: name (atom index) and default
    /// value (`None` for a field that must be given a value).
    pub fields: Vec<(u32, Option<Operand>)>,
}

/// Parses a `Recs` chunk; `atom_name` names the module's atoms (by
/// 1-based index), to read the exported flag.
pub fn parse_records(
    chunk: &RawChunk<'_>,
    limits: &OperandLimits,
    atom_name: impl Fn(u32) -> Option<String>,
) -> Result<Vec<RecordDecl>, BeamError> {
    let mut r = chunk.reader();
    let version = r.u32()?;
    if version != 0 {
        return Err(r.error(BeamErrorKind::UnsupportedFormat(version)));
    }
    let count = r.u32()?;
    let _fields = r.u32()?;
    let mut out = Vec::new();
    for _ in 0..count {
        let at = r.offset();
        let op = r.u8()?;
        if op != Opcode::CallLast as u8 {
            return Err(r.error_at(at, BeamErrorKind::UnknownOpcode(op)));
        }
        let name = match read_operand(&mut r, limits)? {
            Operand::Atom(a) => a,
            _ => return Err(bad_tag(&r, at, "a record name atom")),
        };
        let exported = match read_operand(&mut r, limits)? {
            Operand::Atom(a) => match atom_name(a).as_deref() {
                Some("true") => true,
                Some("false") => false,
                _ => return Err(bad_tag(&r, at, "true or false")),
            },
            _ => return Err(bad_tag(&r, at, "true or false")),
        };
        let Operand::List(items) = read_operand(&mut r, limits)? else {
            return Err(bad_tag(&r, at, "a field list"));
        };
        if items.len() % 2 != 0 {
            return Err(bad_tag(&r, at, "field and default pairs"));
        }
        let mut fields = Vec::with_capacity(items.len() / 2);
        for pair in items.chunks_exact(2) {
            let Operand::Atom(f) = pair[0] else {
                return Err(bad_tag(&r, at, "a field name atom"));
            };
            let default = match &pair[1] {
                Operand::Unsigned(0) => None,
                other => Some(other.clone()),
            };
            fields.push((f, default));
        }
        out.push(RecordDecl {
            name,
            exported,
            fields,
        });
    }
    Ok(out)
}

fn bad_tag(r: &super::reader::Reader<'_>, at: usize, expected: &'static str) -> BeamError {
    r.error_at(
        at,
        BeamErrorKind::BadTag {
            expected,
            found: '?',
        },
    )
}
