//! Erlang's term order and equality: `<` and `==` ([`compare`], [`eq`]),
//! `=:=` ([`exact_eq`]) and map-key order ([`compare_exact`]).
//!
//! - [`compare`]: the order itself, as OTP 25 (numbers compared by value,
//!   `1 == 1.0`).
//! - [`number`]: integers against floats and bignums, exactly.
//! - [`equal`]: structural equality without ordering.

mod compare;
mod equal;
mod number;

pub use compare::{compare, compare_exact, eq};
pub use equal::exact_eq;
