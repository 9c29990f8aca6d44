//! Hashing as OTP does it, shared by the runtime's term hashes (the
//! internal hash that shapes maps here, `erlang:phash2` and `phash` in
//! beamr-sched).

pub mod jenkins;
