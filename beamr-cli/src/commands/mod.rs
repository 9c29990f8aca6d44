//! One module per `beamr` subcommand.

pub mod disasm;
