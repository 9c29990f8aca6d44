//! The atom table: `AtU8` (UTF-8) or the old `Atom` (Latin-1) chunk.
//!
//! ```text
//! AtU8 / Atom
//! 4     count, big-endian i32; negative (OTP 28) means the lengths below
//!       are compact `u` values, positive means one length byte each
//! then count times:
//!   1 or compact   length in bytes
//!   length         the atom's text (UTF-8 for AtU8, Latin-1 for Atom)
//! ```
//!
//! Atom 1 is the module's name. Code refers to atoms by 1-based index; the
//! index 0 in an `a` operand means `[]`.

use super::compact::read_unsigned;
use super::container::{ChunkId, RawChunk};
use super::error::{BeamError, BeamErrorKind};

/// The module's atoms, in table order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AtomTable {
    names: Vec<String>,
}

impl AtomTable {
    /// The atom at 1-based `index`, as code refers to it.
    pub fn get(&self, index: u32) -> Option<&str> {
        let i = usize::try_from(index).ok()?.checked_sub(1)?;
        self.names.get(i).map(String::as_str)
    }

    /// The module's name (atom 1).
    pub fn module(&self) -> &str {
        self.names.first().map(String::as_str).unwrap_or("")
    }

    /// Number of atoms.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when the table holds no atom.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All atoms in table order (index 1 first).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Checks that `index` names an atom of this table; `what` says which
    /// field held it.
    pub(crate) fn check(
        &self,
        chunk: &RawChunk<'_>,
        at: usize,
        what: &'static str,
        index: u32,
    ) -> Result<(), BeamError> {
        if index == 0 || index as usize > self.names.len() {
            return Err(BeamError::new(
                Some(chunk.id),
                at,
                BeamErrorKind::BadIndex {
                    what,
                    index: u64::from(index),
                    len: self.names.len(),
                },
            ));
        }
        Ok(())
    }
}

/// Parses an `AtU8` or `Atom` chunk.
pub fn parse_atoms(chunk: &RawChunk<'_>) -> Result<AtomTable, BeamError> {
    let latin1 = chunk.id == ChunkId::ATOM;
    let mut r = chunk.reader();
    let count_at = r.offset();
    let raw_count = i64::from(r.i32()?);
    let long_lengths = raw_count < 0;
    let count = raw_count.unsigned_abs();
    if count == 0 {
        return Err(r.error_at(
            count_at,
            BeamErrorKind::BadValue {
                what: "atom count",
                value: raw_count,
            },
        ));
    }
    // Every atom takes at least its length byte.
    let count = r.check_count(count_at, "atoms", count, 1)?;
    let mut names = Vec::with_capacity(count);
    for _ in 0..count {
        let len_at = r.offset();
        let len = if long_lengths {
            read_unsigned(&mut r, "u (an atom length)")?
        } else {
            u64::from(r.u8()?)
        };
        let len = r.check_count(len_at, "atom bytes", len, 1)?;
        let text_at = r.offset();
        let bytes = r.bytes(len)?;
        let name = if latin1 {
            bytes.iter().map(|&b| char::from(b)).collect()
        } else {
            String::from_utf8(bytes.to_vec())
                .map_err(|_| r.error_at(text_at, BeamErrorKind::BadUtf8("atom")))?
        };
        names.push(name);
    }
    Ok(AtomTable { names })
}
