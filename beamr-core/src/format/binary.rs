//! The elements of a binary or bitstring as `io_lib:write_binary/3` lists
//! them: one decimal per whole byte, then the trailing bits as
//! `Value:Size`, with `...` in place of whatever lies beyond the depth.
//!
//! `<<1,2,3>>`, `<<1,2:3>>`, and at depth 3 `<<1,2,...>>`.

use std::borrow::Cow;
use std::fmt::{self, Write};

use super::number::write_u64;
use crate::term::BinaryView;

/// One element of a written binary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A whole byte.
    Byte(u8),
    /// The trailing bits: their value and how many there are (1..=7).
    Bits(u8, u8),
    /// Elements cut by the depth limit.
    Dots,
}

impl Piece {
    /// Writes the element.
    pub(crate) fn write<W: Write + ?Sized>(self, out: &mut W) -> fmt::Result {
        match self {
            Piece::Byte(b) => write_u64(out, u64::from(b)),
            Piece::Bits(value, size) => {
                write_u64(out, u64::from(value))?;
                out.write_char(':')?;
                write_u64(out, u64::from(size))
            }
            Piece::Dots => out.write_str("..."),
        }
    }
}

/// The whole bytes of a bitstring (borrowed when byte-aligned) and the
/// trailing bits as `(value, size)` when the size is not a multiple of 8.
pub(crate) fn split_bits<'a>(view: &BinaryView<'a>) -> (Cow<'a, [u8]>, Option<(u8, u8)>) {
    let whole = view.byte_size();
    let trailing = view.trailing_bits();
    if view.bit_offset % 8 == 0 {
        let start = view.bit_offset / 8;
        let bytes = &view.storage[start..start + whole];
        let bits = (trailing > 0).then(|| {
            let last = view.storage[start + whole];
            (last >> (8 - trailing), trailing as u8)
        });
        return (Cow::Borrowed(bytes), bits);
    }
    let mut all = view.to_vec();
    let bits = (trailing > 0).then(|| {
        let last = all.pop().unwrap_or(0);
        (last >> (8 - trailing), trailing as u8)
    });
    (Cow::Owned(all), bits)
}

/// Calls `f` with each element of the bitstring as written at `depth`
/// (negative: unlimited), in order.
pub(crate) fn for_each_piece<F>(view: &BinaryView, depth: i64, mut f: F) -> fmt::Result
where
    F: FnMut(Piece) -> fmt::Result,
{
    let (bytes, bits) = split_bits(view);
    let mut d = depth;
    for &b in bytes.iter() {
        if d == 1 {
            return f(Piece::Dots);
        }
        f(Piece::Byte(b))?;
        d -= 1;
    }
    if let Some((value, size)) = bits {
        if d == 1 {
            return f(Piece::Dots);
        }
        f(Piece::Bits(value, size))?;
    }
    Ok(())
}

/// Writes the bitstring as `<<...>>` at `depth` (negative: unlimited).
pub(crate) fn write_binary<W: Write + ?Sized>(
    out: &mut W,
    view: &BinaryView,
    depth: i64,
) -> fmt::Result {
    out.write_str("<<")?;
    let mut first = true;
    for_each_piece(view, depth, |piece| {
        if !first {
            out.write_char(',')?;
        }
        first = false;
        piece.write(out)
    })?;
    out.write_str(">>")
}
