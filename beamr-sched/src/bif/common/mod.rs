//! What several wings share and none owns: the [`atom`](atoms::atom)
//! helper, the C library behind safe functions, the runtime's clocks and
//! unique integers, the release's default external term format, and
//! native objects held by reference (resources).
//!
//! The bottom of `bif`: it uses no other wing.

pub(super) mod atoms;
pub(super) mod c_library;
pub(super) mod clocks;
pub(super) mod etf;
pub(super) mod resource;
