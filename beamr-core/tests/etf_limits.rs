//! The decoder's limits and modes: nesting depth, deep terms without
//! recursion, safe decoding, and the inflated-size bound.

use beamr_core::atom::Atom;
use beamr_core::etf::{self, DecodeOptions, EtfErrorKind};
use beamr_core::heap::Heap;
use beamr_core::term::Term;

/// `[[[...[]...]]]`, `depth` lists deep, as erl encodes it.
fn nested_lists(depth: usize) -> Vec<u8> {
    let mut bytes = vec![131];
    for _ in 0..depth {
        bytes.extend_from_slice(&[108, 0, 0, 0, 1]);
    }
    bytes.push(106);
    bytes.extend(std::iter::repeat_n(106, depth));
    bytes
}

#[test]
fn a_million_levels_decode_and_encode_without_recursion() {
    let bytes = nested_lists(1_000_000);
    let mut heap = Heap::new();
    let t = etf::decode(&bytes, &mut heap).unwrap();
    let mut depth = 0;
    let mut cur = t;
    while let Some((head, tail)) = cur.as_cons() {
        assert!(tail.is_nil());
        depth += 1;
        cur = head;
    }
    assert_eq!(depth, 1_000_000);
    assert_eq!(etf::encode(t), bytes);
}

#[test]
fn nesting_past_the_bound_is_refused_before_building() {
    let opts = DecodeOptions {
        max_depth: 100,
        ..DecodeOptions::default()
    };
    let mut heap = Heap::new();
    assert!(etf::decode_with(&nested_lists(100), &mut heap, &opts).is_ok());
    let used = heap.used_words();
    let e = etf::decode_with(&nested_lists(101), &mut heap, &opts).unwrap_err();
    assert_eq!(e.kind, EtfErrorKind::TooDeep(100));
    assert_eq!(e.offset, 1 + 100 * 5);
    assert_eq!(heap.used_words(), used, "nothing built for refused input");
}

#[test]
fn safe_decoding_creates_no_atoms() {
    let safe = DecodeOptions {
        safe: true,
        ..DecodeOptions::default()
    };
    let name = "etf_limits_never_seen_before_atom";
    let mut bytes = vec![131, 119, name.len() as u8];
    bytes.extend_from_slice(name.as_bytes());
    let mut heap = Heap::new();
    let e = etf::decode_with(&bytes, &mut heap, &safe).unwrap_err();
    assert_eq!(e.kind, EtfErrorKind::UnsafeAtom(name.to_owned()));
    assert_eq!(Atom::existing(name), None);
    let (t, _) = etf::decode_with(&[131, 100, 0, 2, b'o', b'k'], &mut heap, &safe).unwrap();
    assert_eq!(t.as_atom(), Some(Atom::OK));
}

#[test]
fn compressed_terms_are_bounded_by_the_limit() {
    let mut heap = Heap::new();
    let big = heap.binary(&vec![0u8; 100_000]);
    let z = etf::encode_compressed(big, 6).unwrap();
    assert_eq!(z[1], 80, "a long run of zeros compresses");
    let tight = DecodeOptions {
        max_inflated: 50_000,
        ..DecodeOptions::default()
    };
    let e = etf::decode_with(&z, &mut heap, &tight).unwrap_err();
    assert!(
        matches!(
            e.kind,
            EtfErrorKind::InflateLimit {
                declared: 100_005,
                limit: 50_000
            }
        ),
        "{e}"
    );
    assert_eq!(e.offset, 6);
    let (t, used) = etf::decode_used(&z, &mut heap).unwrap();
    assert_eq!(used, z.len());
    assert_eq!(t.as_binary().unwrap().byte_size(), 100_000);
}

#[test]
fn short_terms_are_never_compressed() {
    let mut heap = Heap::new();
    for t in [Term::NIL, heap.int(5), heap.string("short")] {
        assert_eq!(etf::encode_compressed(t, 9).unwrap(), etf::encode(t));
    }
}
