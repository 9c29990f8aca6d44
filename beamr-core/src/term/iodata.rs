//! Iodata: a binary, or a possibly improper list of bytes, binaries and
//! such lists, ending in `[]` or a binary. The one walker every reader of
//! iodata uses (`iolist_to_binary`, `iolist_size`, port commands, the
//! BIFs that take iodata), without recursion: an explicit stack of the
//! tails still to walk, so a deep iolist cannot overflow the native stack.

use super::binary::BinaryView;
use super::word::Term;

/// One piece of iodata, met in order.
#[derive(Clone, Copy, Debug)]
pub enum IoPiece<'a> {
    /// A byte, an element of a list.
    Byte(u8),
    /// A binary, or any bitstring: whether one that is not whole bytes
    /// is allowed is the caller's choice (`list_to_bitstring` takes them).
    Bits(BinaryView<'a>),
}

/// A term that is not iodata, or holds a piece its reader refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotIodata;

/// Calls `f` on each piece of `t` in order. `Err` when `t` is not iodata
/// (a list element other than a byte, a bitstring or a list, a tail other
/// than `[]` or a bitstring), or as soon as `f` refuses a piece.
pub fn walk_iodata(
    t: Term,
    mut f: impl FnMut(IoPiece<'_>) -> Result<(), NotIodata>,
) -> Result<(), NotIodata> {
    let mut tails: Vec<Term> = Vec::new();
    let mut cur = t;
    loop {
        if let Some((h, tl)) = cur.as_cons() {
            if let Some(b) = h.as_small() {
                f(IoPiece::Byte(u8::try_from(b).map_err(|_| NotIodata)?))?;
            } else if h.is_list() {
                tails.push(tl);
                cur = h;
                continue;
            } else if let Some(v) = h.binary_parts() {
                f(IoPiece::Bits(v))?;
            } else {
                return Err(NotIodata);
            }
            cur = tl;
        } else if cur.is_nil() {
            match tails.pop() {
                Some(t) => cur = t,
                None => return Ok(()),
            }
        } else if let Some(v) = cur.binary_parts() {
            f(IoPiece::Bits(v))?;
            cur = Term::NIL;
        } else {
            return Err(NotIodata);
        }
    }
}

/// Appends the bytes of iodata `t` to `out`. `Err` when `t` is not
/// iodata or holds a bitstring that is not whole bytes; `out` then holds
/// a part of them.
pub fn iodata_into(t: Term, out: &mut Vec<u8>) -> Result<(), NotIodata> {
    walk_iodata(t, |piece| {
        match piece {
            IoPiece::Byte(b) => out.push(b),
            IoPiece::Bits(v) if !v.is_binary() => return Err(NotIodata),
            IoPiece::Bits(v) => match v.as_bytes() {
                Some(bytes) => out.extend_from_slice(bytes),
                None => out.extend_from_slice(&v.to_vec()),
            },
        }
        Ok(())
    })
}

/// The bytes of iodata `t`; `None` when it is not iodata (see
/// [`iodata_into`]).
pub fn iodata_bytes(t: Term) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    iodata_into(t, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{iodata_bytes, walk_iodata, IoPiece};
    use crate::heap::Heap;
    use crate::term::Term;

    fn byte(b: u8) -> Term {
        Term::small_unchecked(i64::from(b))
    }

    #[test]
    fn nested_lists_binaries_and_a_binary_tail() {
        let mut h = Heap::new();
        let bin = h.binary(b"cd");
        let tail = h.binary(b"ef");
        let inner = h.list(&[byte(b'b'), bin]);
        let t = h.list_with_tail(&[byte(b'a'), inner, Term::NIL], tail);
        assert_eq!(iodata_bytes(t).as_deref(), Some(&b"abcdef"[..]));
        assert_eq!(iodata_bytes(bin).as_deref(), Some(&b"cd"[..]));
        assert_eq!(iodata_bytes(Term::NIL).as_deref(), Some(&b""[..]));
    }

    #[test]
    fn a_whole_byte_binary_at_a_bit_offset_is_read() {
        let mut h = Heap::new();
        let orig = h.binary(&[0x0F, 0xF0, 0xAB]);
        // Bits 4..20: the bytes 0xFF and 0x0A.
        let sub = h.sub_binary(orig, 4, 16);
        let t = h.list(&[sub]);
        assert_eq!(iodata_bytes(t).as_deref(), Some(&[0xFF, 0x0A][..]));
    }

    #[test]
    fn non_iodata_is_refused() {
        let mut h = Heap::new();
        let orig = h.binary(b"x");
        let bits = h.sub_binary(orig, 0, 3);
        for t in [
            Term::small_unchecked(1),
            h.list(&[Term::small_unchecked(256)]),
            h.list(&[Term::small_unchecked(-1)]),
            h.list_with_tail(&[byte(1)], byte(2)),
            h.list(&[bits]),
        ] {
            assert_eq!(iodata_bytes(t), None);
        }
        // The walker itself passes a bitstring on; the caller decides.
        let mut seen = 0;
        let t = h.list(&[bits]);
        assert!(walk_iodata(t, |p| {
            if let IoPiece::Bits(v) = p {
                seen += v.bit_size;
            }
            Ok(())
        })
        .is_ok());
        assert_eq!(seen, 3);
    }
}
