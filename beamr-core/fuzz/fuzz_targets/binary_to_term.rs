//! Fuzz target: `binary_to_term/1,2` as Erlang code calls it: the decoder
//! with the options the BIF passes (its default limits; `safe` and `used`
//! chosen by the first input byte, bit 0 and bit 1). Any bytes give a term
//! or an error, never a panic, a hang or a runaway allocation; and the
//! options keep their promises:
//!
//! - `safe` refuses only what plain decoding accepts with new atoms: a term
//!   decoded safely decodes the same way without `safe`;
//! - `used` counts the bytes of the term: they alone decode to it;
//! - what decodes encodes, and the encoding decodes to the same bytes.
//!
//! (The BIF itself lives in beamr-sched and needs a process and a runtime;
//! this is the same decoding call with the same options.)
//!
//! Run with `cargo xtask fuzz binary_to_term`.

#![no_main]

use beamr_core::etf::{self, DecodeOptions};
use beamr_core::heap::Heap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, bytes)) = data.split_first() else {
        return;
    };
    let (safe, used) = (flags & 1 != 0, flags & 2 != 0);
    // What `binary_to_term(B, [safe])` passes (beamr-sched's `decode`).
    let options = DecodeOptions {
        safe,
        ..DecodeOptions::default()
    };
    let plain = DecodeOptions::default();
    let mut heap = Heap::new();
    let Ok((term, n)) = etf::decode_with(bytes, &mut heap, &options) else {
        return;
    };
    assert!(
        0 < n && n <= bytes.len(),
        "used {n} of {} bytes",
        bytes.len()
    );
    let encoded = etf::encode(term);
    if safe {
        let (again, m) =
            etf::decode_with(bytes, &mut heap, &plain).expect("what decodes safely decodes");
        assert_eq!(m, n);
        assert_eq!(etf::encode(again), encoded);
    }
    if used {
        let (prefix, m) = etf::decode_with(&bytes[..n], &mut heap, &options)
            .expect("the bytes `used` counts decode alone");
        assert_eq!(m, n);
        assert_eq!(etf::encode(prefix), encoded);
    }
    let again = etf::decode(&encoded, &mut heap).expect("beamr decodes its own encoding");
    assert_eq!(etf::encode(again), encoded);
});
