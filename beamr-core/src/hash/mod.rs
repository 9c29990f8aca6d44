//! Hashing as OTP does it, shared by the runtime's term hashes (the
//! internal hash that shapes maps here, `erlang:phash2` and `phash` in
//! beamr-sched), and [`word`]: the fast hasher of the runtime's own
//! integer-keyed tables.

pub mod jenkins;
pub mod word;
