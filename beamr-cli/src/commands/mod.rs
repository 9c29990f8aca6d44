//! One module per `beamr` subcommand.

pub mod ctl;
pub mod disasm;
pub mod epmd;
pub mod erl;
pub mod escript;
pub mod gleam_build;
pub mod node;
pub mod run;
pub mod run_trace;
pub mod shim;
pub mod trace;
pub mod tracer_modules;
