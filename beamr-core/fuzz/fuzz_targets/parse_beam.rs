//! Fuzz target: any bytes given to the `.beam` parser produce a module or a
//! `BeamError`, never a panic, a hang or an unbounded allocation; a module
//! that parses also disassembles.
//!
//! Run with `RUSTC_BOOTSTRAP=1 cargo fuzz run parse_beam` in
//! `beamr-core/fuzz`; seed the corpus with real modules, e.g.
//! `mkdir -p corpus/parse_beam && cp /usr/lib/erlang/lib/stdlib-*/ebin/*.beam corpus/parse_beam/`.
#![no_main]

use beamr_core::beam::{raw_literal, BeamFile, Disassembler};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = BeamFile::parse(data) {
        let _ = Disassembler::new(&file, &raw_literal).listing();
    }
});
