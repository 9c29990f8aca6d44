//! One module per `beamr` subcommand.

pub mod disasm;
pub mod gleam_build;
pub mod run;
pub mod run_trace;
pub mod trace;
pub mod tracer_modules;
