//! Native BIFs: functions that are BIFs in OTP, implemented in Rust, one
//! file per Erlang module and concept, each with its rows of
//! `{M, F, A, implementation}`, gathered by [`natives`].

mod atomics;
mod atoms;
mod beamr_io;
mod binary;
mod c_library;
mod code;
mod code_loading;
mod code_md5;
mod crypto;
mod erl_prim_loader;
mod erlang_arith;
mod erlang_binaries;
mod erlang_checksum;
mod erlang_convert;
mod erlang_halt;
mod erlang_identity;
mod erlang_misc;
mod erlang_names;
mod erlang_phash;
mod erlang_phash2;
mod erlang_ports;
mod erlang_process;
mod erlang_signals;
mod erlang_spawn;
mod erlang_system;
mod erlang_system_flag;
mod erlang_terms;
mod erlang_time;
mod erlang_timers;
mod erlang_trace;
mod ets_access;
mod ets_lookup_walk;
mod ets_objects;
mod ets_select;
mod ets_tables;
mod io;
mod io_format;
mod lists;
mod maps;
mod math;
mod os;
mod persistent_term;
mod prim_buffer;
mod prim_file;
mod process_info;
mod re;
mod records;
mod registry;
mod resource;
mod string;
mod unicode;
mod zlib;

pub use prim_file::open_files;
pub use registry::natives;
