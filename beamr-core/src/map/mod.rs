//! Maps as the BEAM keeps them: flat maps of up to 32 keys sorted in
//! map-key order, hash array mapped tries above that, shaped, hashed and
//! ordered as the release's ([`crate::release`]), so `maps:to_list/1`, `~p`
//! and `term_to_binary/1` of a beamr map list its keys in OTP's order:
//!
//! - OTP 25: flat maps in term order (`compare_exact`); tries by the 32-bit
//!   Jenkins hash, 8 levels a round.
//! - OTP 26 and later: tries by the 64-bit internal hash, 16 levels a
//!   round. Two atoms of a flat map in atom-index order, erl's boot atoms
//!   in erl's order ([`crate::order::compare_map_keys`]).
//!
//! - [`ops`]: the operations ([`from_pairs`], [`get`], [`put`], [`update`],
//!   [`remove`], [`size`], [`iter`], [`keys`], [`values`], [`to_list`]).
//! - [`hash`]: OTP 25's internal term hash, which places keys in a trie.
//! - [`hash64`]: OTP 26's 64-bit internal hash, which does from OTP 26 on.
//! - [`iter`](mod@iter): the two iteration orders of the BEAM.
//! - `flat`, `trie`: the two representations.

mod flat;
pub mod hash;
pub mod hash64;
pub mod iter;
pub mod ops;
mod trie;

pub use iter::{MapIter, Order};
pub use ops::{
    contains, from_pairs, get, iter, iter_in, keys, new, put, remove, size, to_list, update,
    values, MapError,
};
