//! One module per `beamr` subcommand.

pub mod disasm;
pub mod trace;
