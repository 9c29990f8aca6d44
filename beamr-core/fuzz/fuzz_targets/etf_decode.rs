//! Fuzz target: `etf::decode` on any bytes must return a term or an error,
//! never panic, hang or exhaust memory; what decodes must encode, and the
//! encoding must decode to the same bytes again.
//!
//! Run with `cargo xtask fuzz etf_decode` (its seeds, `term_to_binary`
//! outputs of erl, are in `seeds/etf_decode/`); more seeds: the `.in`
//! files `etf_corpus:write(Dir)` (tests/erlang/etf_corpus.erl) writes.

#![no_main]

use beamr_core::etf::{self, DecodeOptions};
use beamr_core::heap::Heap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Keep inflation small so the fuzzer explores rather than allocates.
    let options = DecodeOptions {
        max_inflated: 1 << 20,
        ..DecodeOptions::default()
    };
    let mut heap = Heap::new();
    if let Ok((term, used)) = etf::decode_with(data, &mut heap, &options) {
        assert!(used <= data.len());
        let bytes = etf::encode(term);
        let again = etf::decode(&bytes, &mut heap).expect("beamr decodes its own encoding");
        assert_eq!(etf::encode(again), bytes);
    }
});
