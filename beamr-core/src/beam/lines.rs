//! The `Line` chunk: the source locations that `line` instructions refer to.
//!
//! ```text
//! 4   version, big-endian u32 (only 0 is understood; others are kept raw)
//! 4   flags
//! 4   number of line instructions
//! 4   number of line items (L)
//! 4   number of file names (F)
//! ... L line items, compact-encoded: an `a`-tagged value switches the
//!     current file (0 is the module's own `<module>.erl`, 1..=F the names
//!     below) and is not an item; an `i`-tagged value is a line number in
//!     the current file and is one item
//! ... F file names, each a big-endian u16 length and that many UTF-8 bytes
//! ```
//!
//! A `line` instruction's operand is an index into the items where 0 is
//! "no location" and `n` is the `n`-th item (1-based).

use super::compact::{raw_to_u32, read_tagged, Tag};
use super::container::RawChunk;
use super::error::{BeamError, BeamErrorKind};

/// One source location: file index (0 is the module's own file) and line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineItem {
    /// Index of the file name: 0 for `<module>.erl`, `n` for `names[n - 1]`.
    pub file: u32,
    /// The line number.
    pub line: u32,
}

/// The decoded line table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineTable {
    /// The format version (0 is the only one decoded).
    pub version: u32,
    /// Flags (bit 0: executable-line instructions present; OTP 27 and later).
    pub flags: u32,
    /// Number of `line` instructions in the code.
    pub instruction_count: u32,
    /// The items, without the implicit "no location" entry 0.
    pub items: Vec<LineItem>,
    /// File names other than the module's own file.
    pub names: Vec<String>,
    /// The undecoded chunk, for versions other than 0.
    pub raw: Vec<u8>,
}

impl LineTable {
    /// The location of `line` operand `index`: `None` for 0 (no location) or
    /// an index past the table. `module` names the implicit file 0.
    pub fn location(&self, index: u64, module: &str) -> Option<(String, u32)> {
        let item = self
            .items
            .get(usize::try_from(index).ok()?.checked_sub(1)?)?;
        let file = match item.file {
            0 => format!("{module}.erl"),
            n => self.names.get(n as usize - 1)?.clone(),
        };
        Some((file, item.line))
    }
}

/// Parses a `Line` chunk.
pub fn parse_lines(chunk: &RawChunk<'_>) -> Result<LineTable, BeamError> {
    let mut r = chunk.reader();
    let version = r.u32()?;
    if version != 0 {
        return Ok(LineTable {
            version,
            raw: chunk.data.to_vec(),
            ..LineTable::default()
        });
    }
    let flags = r.u32()?;
    let instruction_count = r.u32()?;
    let items_at = r.offset();
    let item_count = r.u32()?;
    let names_at = r.offset();
    let name_count = r.u32()?;
    // Items take at least one byte, names at least two.
    let item_count = r.check_count(items_at, "line items", u64::from(item_count), 1)?;
    let name_count = r.check_count(names_at, "file names", u64::from(name_count), 2)?;
    let mut items = Vec::with_capacity(item_count);
    let mut file = 0u32;
    while items.len() < item_count {
        let at = r.offset();
        let (tag, raw) = read_tagged(&mut r)?;
        match tag {
            Tag::A => {
                file = raw_to_u32(&r, at, raw, "file index")?;
                if file as usize > name_count {
                    return Err(r.error_at(
                        at,
                        BeamErrorKind::BadIndex {
                            what: "file name",
                            index: u64::from(file),
                            len: name_count,
                        },
                    ));
                }
            }
            Tag::I => {
                let line = raw_to_u32(&r, at, raw, "line number")?;
                items.push(LineItem { file, line });
            }
            other => {
                return Err(r.error_at(
                    at,
                    BeamErrorKind::BadTag {
                        expected: "a or i (a line item)",
                        found: other.letter(),
                    },
                ))
            }
        }
    }
    let mut names = Vec::with_capacity(name_count);
    for _ in 0..name_count {
        let len = usize::from(r.u16()?);
        let at = r.offset();
        let bytes = r.bytes(len)?;
        let name = std::str::from_utf8(bytes)
            .map_err(|_| r.error_at(at, BeamErrorKind::BadUtf8("file name")))?;
        names.push(name.to_owned());
    }
    Ok(LineTable {
        version,
        flags,
        instruction_count,
        items,
        names,
        raw: Vec::new(),
    })
}
