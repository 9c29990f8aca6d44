//! The `erlang` module's BIFs (and the `erts_internal` ones under them),
//! one file per concept: arithmetic, terms, binaries and conversions,
//! hashes and checksums, processes (spawning, signals, names, flags,
//! `process_info`), ports, timers and time, the system as a whole
//! (`system_info`, `system_flag`, `memory`, `halt` and its crash dump).
//!
//! The trace BIFs of `erlang` (`trace/3`, `trace_pattern/3`,
//! `trace_info/2`, `seq_trace/2`, ...) are the `trace` wing's;
//! `system_flag/2` and `system_info/1` reach its sequential tracer there.

pub(super) mod arith;
pub(super) mod binaries;
pub(super) mod checksum;
pub(super) mod convert;
pub(super) mod crash_dump;
pub(super) mod gc_flags;
pub(super) mod halt;
pub(super) mod identity;
pub(super) mod md5;
pub(super) mod memory;
pub(super) mod misc;
pub(super) mod names;
pub(super) mod phash;
pub(super) mod phash2;
pub(super) mod ports;
pub(super) mod process;
pub(super) mod process_backtrace;
pub(super) mod process_info;
pub(super) mod process_info_gc;
pub(super) mod signals;
pub(super) mod spawn;
pub(super) mod spawn_request;
pub(super) mod system;
pub(super) mod system_flag;
pub(super) mod system_info;
pub(super) mod system_info_dumps;
pub(super) mod system_info_vm;
pub(super) mod terms;
pub(super) mod time;
pub(super) mod timers;
