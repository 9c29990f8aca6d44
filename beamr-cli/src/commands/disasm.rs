//! `beamr disasm FILE.beam`: print a module in `erlc -S` notation.

use std::io::Write;
use std::path::Path;

use beamr_core::beam::{raw_literal, BeamFile, Disassembler};

/// Parses `path` and prints its listing to stdout. The error is one line.
pub fn run(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = BeamFile::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // TODO(etf): print literals with the ETF decoder and the `~w` formatter
    // (beamr_core::etf + beamr_core::format) once they land; until then
    // literal operands show their raw bytes as `<raw:hex>`.
    let literal = raw_literal;
    let listing = Disassembler::new(&file, &literal).listing();
    let mut out = std::io::stdout().lock();
    match out.write_all(listing.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`beamr disasm x.beam | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("writing the listing: {e}")),
    }
}
