//! Erlang's term order and equality: `<` and `==` ([`compare`], [`eq`]),
//! `=:=` ([`exact_eq`]), map-key order ([`compare_exact`]) and a flat
//! map's key order ([`compare_map_keys`]).
//!
//! - [`compare`]: the order itself, as OTP 25 (numbers compared by value,
//!   `1 == 1.0`).
//! - [`number`]: integers against floats and bignums, exactly.
//! - [`equal`]: structural equality without ordering.

mod compare;
mod equal;
mod number;

pub use compare::{compare, compare_exact, compare_map_keys, eq};
pub use equal::exact_eq;
