//! The global atom table: append-only, lock-free to read, with the BEAM's
//! limit of 1,048,576 atoms.
//!
//! An [`Atom`] is an index into the table. Names are leaked `&'static str`s
//! (atoms are never freed, as in the BEAM), stored in a segmented vector whose
//! reads take no lock. Interning a new name takes a write lock on the
//! name-to-index map; looking up an existing name takes its read lock, once
//! per thread and name ([`seen`] remembers what each thread found).

mod erl_order;
mod known;
mod seen;
mod table;

pub use known::KNOWN_ATOMS;
pub use table::{
    capacity, install_erl_boot_order, limit, set_limit, Atom, AtomError, AtomMemory, MAX_ATOMS,
    MAX_ATOM_CHARS, RUNTIME_RESERVE,
};
