//! The `StrT` chunk: one byte string that binary instructions
//! (`bs_put_string`, `bs_match_string`, string segments of `bs_create_bin`)
//! index by offset and length. It has no header.

/// The string table's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StringTable {
    /// The whole table.
    pub bytes: Vec<u8>,
}

impl StringTable {
    /// The `len` bytes at `offset`, if the table holds them.
    pub fn get(&self, offset: u64, len: u64) -> Option<&[u8]> {
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        self.bytes.get(start..end)
    }
}

/// Parses a `StrT` chunk.
pub fn parse_strings(data: &[u8]) -> StringTable {
    StringTable {
        bytes: data.to_vec(),
    }
}
