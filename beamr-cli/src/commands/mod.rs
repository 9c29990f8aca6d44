//! One module per `beamr` subcommand.

pub mod disasm;
pub mod run;
pub mod trace;
