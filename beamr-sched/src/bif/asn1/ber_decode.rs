//! BER decoding as `asn1rt_nif:decode_ber_tlv_raw/1` does it: one
//! tag-length-value from the start of the input, read into a tree the
//! caller builds (a [`Sink`]), and the bytes after it.
//!
//! A tag is answered as one integer, its class in bits 16 and 17 (the
//! identifier octet's top two bits shifted left by 10) and its number
//! below, a number of at most two base-128 octets (14 bits); a
//! primitive's value is its bytes, a constructed one's the list of what it
//! holds. Definite and indefinite lengths are read; a definite length has
//! at most four octets that matter, and what a definite length holds
//! must end within it. Errors name a reason and the offset
//! the reader had reached, as erl's NIF reports them.
//!
//! The reader keeps its own stack of open constructed values instead of
//! recursing, so that input nested a million levels deep is read (or
//! refused) without exhausting the thread's stack.

/// Why the input does not decode (erl's `invalid_tag`, `invalid_length`
/// and `invalid_value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reason {
    /// A tag number over 14 bits, or no room for the length after a tag.
    Tag,
    /// A definite length longer than the input or than 32 bits, or an
    /// indefinite length where it cannot be.
    Length,
    /// Too few bytes for a tag and length, or for the value the length
    /// announces.
    Value,
}

/// A decoding error: the reason and the offset it was found at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Error {
    /// What is wrong.
    pub reason: Reason,
    /// The offset in the input the reader had reached.
    pub at: usize,
}

/// What builds the decoded tree.
pub(super) trait Sink {
    /// A decoded value.
    type Node;
    /// A primitive value of `tag` with `bytes`.
    fn primitive(&mut self, tag: u32, bytes: &[u8]) -> Self::Node;
    /// A constructed value of `tag` holding `items`, in order.
    fn constructed(&mut self, tag: u32, items: Vec<Self::Node>) -> Self::Node;
}

/// The end of an open constructed value.
enum End {
    /// Its content ends at this offset.
    At(usize),
    /// It ends at two zero octets.
    Zeros,
}

/// An open constructed value.
struct Open<N> {
    tag: u32,
    items: Vec<N>,
    end: End,
    /// Where what it holds must end: its own end, or for an indefinite
    /// length the end of the value around it.
    limit: usize,
}

fn fail<T>(reason: Reason, at: usize) -> Result<T, Error> {
    Err(Error { reason, at })
}

/// Reads the identifier octets at `*i`: the tag and whether the value is
/// constructed.
fn tag(buf: &[u8], i: &mut usize) -> Result<(u32, bool), Error> {
    let first = buf[*i];
    let class = u32::from(first & 0xC0) << 10;
    let constructed = first & 0x20 != 0;
    let number = first & 0x1F;
    if number < 31 {
        *i += 1;
        return Ok((class | u32::from(number), constructed));
    }
    // A long tag needs a tag octet or two and a length octet.
    if *i + 3 > buf.len() {
        return fail(Reason::Value, *i);
    }
    *i += 1;
    let mut tag = class;
    if buf[*i] >= 0x80 {
        tag |= u32::from(buf[*i] & 0x7F) << 7;
        *i += 1;
    }
    if buf[*i] >= 0x80 {
        return fail(Reason::Tag, *i);
    }
    tag |= u32::from(buf[*i]);
    *i += 1;
    Ok((tag, constructed))
}

/// Decodes the value at the start of `buf` into `sink`: the value and the
/// offset after it.
pub(super) fn decode<S: Sink>(sink: &mut S, buf: &[u8]) -> Result<(S::Node, usize), Error> {
    let mut open: Vec<Open<S::Node>> = Vec::new();
    let mut i = 0;
    loop {
        // One element's identifier and length at `i`, within the value
        // that holds it.
        let n = open.last().map_or(buf.len(), |o| o.limit);
        let within = &buf[..n];
        if i + 2 > n {
            return fail(Reason::Value, i);
        }
        let (tag, constructed) = tag(within, &mut i)?;
        if i >= n {
            return fail(Reason::Tag, i);
        }
        let mut done = None;
        let first = within[i];
        if first == 0x80 {
            i += 1;
            if i + 1 >= n || !constructed {
                return fail(Reason::Length, i);
            }
            open.push(Open {
                tag,
                items: Vec::new(),
                end: End::Zeros,
                limit: n,
            });
        } else {
            let mut len: u32 = 0;
            if first & 0x80 == 0 {
                len = u32::from(first);
            } else {
                let octets = usize::from(first & 0x7F);
                if octets > n - (i + 1) {
                    return fail(Reason::Length, i);
                }
                for _ in 0..octets {
                    i += 1;
                    if len >= 1 << 24 {
                        return fail(Reason::Length, i);
                    }
                    len = (len << 8) | u32::from(within[i]);
                }
            }
            let len = len as usize;
            if len > n - (i + 1) {
                return fail(Reason::Value, i);
            }
            i += 1;
            if constructed {
                open.push(Open {
                    tag,
                    items: Vec::new(),
                    end: End::At(i + len),
                    limit: i + len,
                });
            } else {
                done = Some(sink.primitive(tag, &within[i..i + len]));
                i += len;
            }
        }
        // Hand the finished value to the innermost open one, and close
        // every open value that ends here.
        if let Some(node) = done {
            match open.last_mut() {
                None => return Ok((node, i)),
                Some(o) => o.items.push(node),
            }
        }
        while let Some(top) = open.last() {
            match top.end {
                End::At(end) if i < end => break,
                End::At(_) => {}
                End::Zeros => {
                    if i + 1 >= top.limit {
                        return fail(Reason::Length, i);
                    }
                    if buf[i] != 0 || buf[i + 1] != 0 {
                        break;
                    }
                    i += 2;
                }
            }
            if let Some(o) = open.pop() {
                let node = sink.constructed(o.tag, o.items);
                match open.last_mut() {
                    None => return Ok((node, i)),
                    Some(outer) => outer.items.push(node),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree printed as text: `Tag:hex` or `Tag[..]`.
    struct Text;

    impl Sink for Text {
        type Node = String;
        fn primitive(&mut self, tag: u32, bytes: &[u8]) -> String {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("{tag}:{hex}")
        }
        fn constructed(&mut self, tag: u32, items: Vec<String>) -> String {
            format!("{tag}[{}]", items.join(","))
        }
    }

    fn dec(buf: &[u8]) -> Result<(String, usize), Error> {
        decode(&mut Text, buf)
    }

    fn err(reason: Reason, at: usize) -> Result<(String, usize), Error> {
        Err(Error { reason, at })
    }

    #[test]
    fn primitives_and_sequences_decode_with_their_class_in_the_tag() {
        assert_eq!(dec(&[0x02, 0x01, 0x05]), Ok(("2:05".into(), 3)));
        assert_eq!(
            dec(&[0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xff, 0xaa]),
            Ok(("16[2:05,4:ff]".into(), 8))
        );
        // Context class, constructed [0]: 0x80 << 10.
        assert_eq!(dec(&[0xa0, 0x00]), Ok(("131072[]".into(), 2)));
        // A long tag of two octets: 31 with 0x81 0x01 is number 129.
        assert_eq!(dec(&[0x1f, 0x81, 0x01, 0x00]), Ok(("129:".into(), 4)));
    }

    #[test]
    fn long_and_indefinite_lengths_decode() {
        let mut buf = vec![0x04, 0x81, 0x80];
        buf.extend([7u8; 128]);
        let (text, used) = dec(&buf).unwrap();
        assert_eq!(used, 131);
        assert_eq!(text.len(), 2 + 256);
        assert_eq!(
            dec(&[0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00]),
            Ok(("16[2:01]".into(), 7))
        );
    }

    #[test]
    fn bad_input_names_the_reason_and_offset() {
        assert_eq!(dec(&[]), err(Reason::Value, 0));
        assert_eq!(dec(&[0x02]), err(Reason::Value, 0));
        assert_eq!(dec(&[0x02, 0x05, 0x01]), err(Reason::Value, 1));
        assert_eq!(dec(&[0x02, 0x85, 0x01]), err(Reason::Length, 1));
        assert_eq!(dec(&[0x02, 0x85, 1, 0, 0, 0, 0, 0]), err(Reason::Length, 6));
        assert_eq!(dec(&[0x1f, 0x81, 0x81, 0x00]), err(Reason::Tag, 2));
        assert_eq!(dec(&[0x02, 0x80, 0x00, 0x00]), err(Reason::Length, 2));
        assert_eq!(dec(&[0x30, 0x80, 0x02, 0x00]), err(Reason::Length, 4));
        // A value longer than the sequence around it.
        assert_eq!(
            dec(&[0x30, 0x02, 0x02, 0x05, 1, 2, 3, 4, 5]),
            err(Reason::Value, 3)
        );
    }

    #[test]
    fn any_bytes_decode_or_fail_without_a_panic() {
        // Short inputs built from the octets that steer the reader.
        let alphabet = [0x00, 0x02, 0x1f, 0x30, 0x80, 0x81, 0x82, 0xa0, 0xff, 0x01];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 12) as usize;
            let buf: Vec<u8> = (0..len)
                .map(|k| alphabet[((seed >> (4 * k)) % 10) as usize])
                .collect();
            if let Ok((_, used)) = dec(&buf) {
                assert!(used <= buf.len());
            }
        }
    }

    #[test]
    fn deep_nesting_is_read_without_recursion() {
        let depth = 200_000;
        let mut buf = Vec::new();
        for _ in 0..depth {
            buf.extend([0x30, 0x80]);
        }
        for _ in 0..depth {
            buf.extend([0x00, 0x00]);
        }
        let (text, used) = dec(&buf).unwrap();
        assert_eq!(used, buf.len());
        assert!(text.starts_with("16[16["));
        buf.truncate(buf.len() - 1);
        assert_eq!(dec(&buf), err(Reason::Length, buf.len() - 1));
    }
}
