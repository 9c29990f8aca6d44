//! Output and the `io` module: `beamr_io` (beamr's own output, under its
//! group leader), its `format/2` for the fallback `io` module, and
//! `io:printable_range/0`.

pub(super) mod beamr_io;
pub(super) mod format;
pub(super) mod printable_range;
