//! `beamr disasm FILE.beam`: print a module in `erlc -S` notation.

use std::io::Write;
use std::path::Path;

use beamr_core::beam::{raw_literal, BeamFile, Disassembler};
use beamr_core::format::{format_p, PrettyOptions};
use beamr_core::heap::Heap;

/// Parses `path` and prints its listing to stdout. The error is one line.
pub fn run(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = BeamFile::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let literal = print_literal;
    let listing = Disassembler::new(&file, &literal).listing();
    let mut out = std::io::stdout().lock();
    match out.write_all(listing.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`beamr disasm x.beam | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("writing the listing: {e}")),
    }
}

/// A literal as `erlc -S` prints it (`~p` on one line); its raw bytes when
/// it is not a valid external term.
fn print_literal(bytes: &[u8]) -> String {
    let mut heap = Heap::new();
    match beamr_core::etf::decode(bytes, &mut heap) {
        Ok(term) => format_p(
            term,
            &PrettyOptions {
                line_length: 0,
                ..PrettyOptions::default()
            },
        ),
        Err(_) => raw_literal(bytes),
    }
}
