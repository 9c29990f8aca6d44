//! Native BIFs: functions that are BIFs in OTP, implemented in Rust, one
//! file per Erlang module, registered in one table by `{M, F, A}`.

mod erlang_arith;
mod erlang_terms;
mod table;

pub use table::{lookup, BifFn};
