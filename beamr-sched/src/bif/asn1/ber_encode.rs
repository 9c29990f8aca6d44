//! BER encoding as `asn1rt_nif:encode_ber_tlv/1` does it: a `{Tag,
//! Value}` tree, a value being a binary (primitive) or a list of such
//! trees (constructed), into its bytes, with definite lengths of the
//! fewest octets. A tag's class is in its bits 16 and 17 and its number in
//! the low 16, as [`super::ber_decode`] answers them.
//!
//! The encoder keeps its own stack of open lists instead of recursing, so
//! that a tree nested a million levels deep cannot exhaust the thread's
//! stack.

use beamr_core::term::Term;

use crate::bif::erlang::binaries::binary_bytes;

/// An open constructed value: its tag, the items still to encode and the
/// bytes of those encoded so far.
struct Open {
    tag: u32,
    rest: Term,
    out: Vec<u8>,
}

/// The tag and value of `{Tag, Value}`.
fn element(t: Term) -> Option<(u32, Term)> {
    let [tag, value, ..] = t.as_tuple()? else {
        return None;
    };
    let tag = u32::try_from(tag.as_small()?).ok()?;
    Some((tag, *value))
}

/// Appends the identifier and length octets of a value of `tag` with
/// `len` content bytes.
fn header(out: &mut Vec<u8>, tag: u32, constructed: bool, len: usize) {
    let head = if constructed { 0x20 } else { 0 } | ((tag & 0x3_0000) >> 10) as u8;
    let number = tag & 0xFFFF;
    if number <= 30 {
        out.push(head | number as u8);
    } else {
        out.push(head | 0x1F);
        let groups = (32 - number.leading_zeros()).div_ceil(7);
        for g in (0..groups).rev() {
            let more = if g == 0 { 0 } else { 0x80 };
            out.push(((number >> (7 * g)) & 0x7F) as u8 | more);
        }
    }
    if len < 128 {
        out.push(len as u8);
    } else {
        let octets = (usize::BITS - len.leading_zeros()).div_ceil(8);
        out.push(0x80 | octets as u8);
        for o in (0..octets).rev() {
            out.push((len >> (8 * o)) as u8);
        }
    }
}

/// The tag-length-value of a constructed value.
fn close(tag: u32, content: Vec<u8>) -> Vec<u8> {
    let mut tlv = Vec::with_capacity(content.len() + 8);
    header(&mut tlv, tag, true, content.len());
    tlv.extend(content);
    tlv
}

/// The bytes of the tree `t`; `None` when it is not one (a value that is
/// neither a binary nor a proper list, an item that is not a 2-tuple, a
/// tag that is not an unsigned 32-bit integer).
pub(super) fn encode(t: Term) -> Option<Vec<u8>> {
    let mut open: Vec<Open> = Vec::new();
    let mut next = t;
    loop {
        let (tag, value) = element(next)?;
        if value.is_list() {
            open.push(Open {
                tag,
                rest: value,
                out: Vec::new(),
            });
        } else {
            let bytes = binary_bytes(&value).ok()?;
            let mut tlv = Vec::with_capacity(bytes.len() + 8);
            header(&mut tlv, tag, false, bytes.len());
            tlv.extend_from_slice(&bytes);
            match open.last_mut() {
                None => return Some(tlv),
                Some(o) => o.out.extend(tlv),
            }
        }
        // The next item of the innermost open list, closing each list
        // that has none left.
        next = loop {
            let top = open.last_mut()?;
            if let Some((head, tail)) = top.rest.as_cons() {
                top.rest = tail;
                break head;
            }
            if !top.rest.is_nil() {
                return None;
            }
            let o = open.pop()?;
            let tlv = close(o.tag, o.out);
            match open.last_mut() {
                None => return Some(tlv),
                Some(outer) => outer.out.extend(tlv),
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::heap::Heap;

    fn prim(h: &mut Heap, tag: i64, bytes: &[u8]) -> Term {
        let b = h.binary(bytes);
        h.tuple(&[Term::small_unchecked(tag), b])
    }

    #[test]
    fn trees_encode_with_short_and_long_tags_and_lengths() {
        let mut h = Heap::new();
        let int = prim(&mut h, 2, &[5]);
        assert_eq!(encode(int), Some(vec![0x02, 0x01, 0x05]));
        let long = prim(&mut h, 0x2_0000 | 129, &[]);
        assert_eq!(encode(long), Some(vec![0x9f, 0x81, 0x01, 0x00]));
        let big = prim(&mut h, 4, &[9; 300]);
        assert_eq!(encode(big).unwrap()[..4], [0x04, 0x82, 0x01, 0x2c]);
        let items = h.list(&[int, int]);
        let seq = h.tuple(&[Term::small_unchecked(16), items]);
        assert_eq!(encode(seq), Some(vec![0x30, 0x06, 2, 1, 5, 2, 1, 5]));
        let empty = h.tuple(&[Term::small_unchecked(16), Term::NIL]);
        assert_eq!(encode(empty), Some(vec![0x30, 0x00]));
    }

    #[test]
    fn what_is_no_tree_is_refused() {
        let mut h = Heap::new();
        assert_eq!(encode(Term::NIL), None);
        let bad_value = h.tuple(&[Term::small_unchecked(2), Term::small_unchecked(3)]);
        assert_eq!(encode(bad_value), None);
        let bad_tag = h.tuple(&[Term::small_unchecked(-1), Term::NIL]);
        assert_eq!(encode(bad_tag), None);
        let int = prim(&mut h, 2, &[5]);
        let improper = h.cons(int, Term::small_unchecked(1));
        let seq = h.tuple(&[Term::small_unchecked(16), improper]);
        assert_eq!(encode(seq), None);
    }

    #[test]
    fn deep_trees_encode_without_recursion() {
        let mut h = Heap::new();
        let mut t = h.tuple(&[Term::small_unchecked(16), Term::NIL]);
        for _ in 0..100_000 {
            let l = h.list(&[t]);
            t = h.tuple(&[Term::small_unchecked(16), l]);
        }
        let bytes = encode(t).unwrap();
        assert_eq!(bytes[0], 0x30);
        assert_eq!(bytes[bytes.len() - 2..], [0x30, 0x00]);
    }
}
