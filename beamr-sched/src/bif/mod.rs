//! Native BIFs: functions that are BIFs in OTP, implemented in Rust, one
//! file per Erlang module and concept, each with its rows of
//! `{M, F, A, implementation}`, gathered by [`natives`].

mod beamr_io;
mod binary;
mod code;
mod code_loading;
mod code_md5;
mod erlang_arith;
mod erlang_binaries;
mod erlang_checksum;
mod erlang_convert;
mod erlang_hash;
mod erlang_misc;
mod erlang_phash;
mod erlang_procs;
mod erlang_system;
mod erlang_terms;
mod ets;
mod io;
mod io_format;
mod lists;
mod maps;
mod math;
mod os;
mod persistent_term;
mod process_info;
mod registry;
mod string;
mod unicode;

pub use registry::natives;
