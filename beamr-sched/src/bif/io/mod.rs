//! Output and the `io` module: `beamr_io` (beamr's own output, under its
//! group leader), its `format/2` for the fallback `io` module,
//! `io:printable_range/0`, and the prim_tty NIF under OTP 26's shell.

pub(super) mod beamr_io;
pub(super) mod format;
pub(super) mod prim_tty;
pub(super) mod printable_range;
