//! Output and the `io` module: `beamr_io` (beamr's own output, under its
//! group leader), its `format/2` for the fallback `io` module,
//! `io:printable_range/0`, and the prim_tty NIF under the shell of OTP 26 and later.

pub(super) mod beamr_io;
pub(super) mod format;
pub(super) mod prim_tty;
pub(super) mod printable_range;
