//! Native BIFs: functions that are BIFs in OTP, implemented in Rust,
//! grouped into wings by what they implement, one file per Erlang module
//! or concept inside a wing, each file with its rows of `{M, F, A,
//! implementation}`, gathered by [`natives`] (`registry`).
//!
//! The wings form layers as the crate's top-level modules do: a wing
//! uses only the wings below it, and the files of a wing use each other
//! without a circle (`tests/layers.rs` holds both):
//!
//! ```text
//! registry  every wing's rows: the table Runtime::new installs
//!  |
//! code      the code server's functions: loading, purging, ensure_loaded, md5
//! file      prim_file, prim_buffer, erl_prim_loader
//! text      string, unicode, re
//! data      lists, maps, binary, math, records
//! global    atomics, counters, persistent_term
//! crypto    crypto's NIFs
//! asn1      asn1rt_nif: BER decoding and encoding, PER packing
//! zlib      zlib, one call and streaming
//! net       erlang:decode_packet/3, over the inet driver's packet parser
//! dist      the local node's name, the distribution flags (over crate::dist)
//! ets       the ets module
//!  |
//! io        beamr_io, its format/2, io:printable_range/0
//!  |
//! erlang    the erlang module: terms, binaries, processes, ports, time, the system
//!  |
//! trace     the trace BIFs: trace/3, trace_pattern/3, trace_info/2, sessions, seq_trace
//! os        the os module: environment, pid, OS clocks
//!  |
//! common    atoms, the C library, clocks, the default term format, resources
//! ```

mod asn1;
mod code;
mod common;
mod crypto;
mod data;
mod dist;
mod erlang;
mod ets;
mod file;
mod global;
mod io;
mod net;
mod os;
mod registry;
mod text;
mod trace;
mod zlib;

pub use file::prim_file::open_files;
pub use os::set_signal::handled as os_signal_handled;
pub use registry::natives;
