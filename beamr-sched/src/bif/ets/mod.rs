//! The `ets` module's BIFs over `crate::ets`'s tables: whole tables
//! (`tables`), objects (`objects`, `lookup_walk`), match specifications
//! (`select`), and what they all share (`access`: finding a table and
//! checking the caller's rights).

pub(super) mod access;
pub(super) mod lookup_walk;
pub(super) mod objects;
pub(super) mod select;
pub(super) mod tables;
