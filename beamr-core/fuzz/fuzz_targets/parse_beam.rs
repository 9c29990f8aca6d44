//! Fuzz target: any bytes given to the `.beam` parser produce a module or a
//! `BeamError`, never a panic, a hang or an unbounded allocation; a module
//! that parses also disassembles.
//!
//! Run with `cargo xtask fuzz parse_beam` (its seeds, a few fixture
//! modules compiled by erlc, are in `seeds/parse_beam/`); more seeds: e.g.
//! `cp /usr/lib/erlang/lib/stdlib-*/ebin/*.beam ../../target/fuzz/corpus/parse_beam/`.
#![no_main]

use beamr_core::beam::{raw_literal, BeamFile, Disassembler};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = BeamFile::parse(data) {
        let _ = Disassembler::new(&file, &raw_literal).listing();
    }
});
