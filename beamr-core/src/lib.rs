//! beamr-core: the data layer every other beamr crate stands on.
//!
//! - [`term`]: the 64-bit tagged [`Term`] word and the boxed objects it points to.
//! - [`atom`]: the global append-only atom table.
//! - [`hash`]: OTP's hash building blocks (Jenkins' mix and block hash).
//! - [`heap`]: process heaps, bump allocation and the generational copying collector.
//! - [`etf`]: the External Term Format (`term_to_binary` / `binary_to_term`).
//! - [`beam`]: `.beam` file parsing into plain data and generic instructions.
//! - [`map`]: map operations: flat maps and hash array mapped tries, as the BEAM's.
//! - [`order`]: Erlang's term order and equality (`<`, `==`, `=:=`).
//! - [`format`]: printing terms as Erlang's `~w` and `~p` do.
//! - [`release`]: the OTP release whose term semantics apply (25 by default).

pub mod atom;
pub mod beam;
pub mod etf;
pub mod format;
pub mod hash;
pub mod heap;
pub mod map;
pub mod order;
pub mod release;
pub mod term;
