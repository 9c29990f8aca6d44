//! [`atom`]: the atom term for a name BIF code spells out.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

/// The atom `name` as a term. `name` is a literal in the code: short, so
/// the atom table cannot refuse it.
pub(crate) fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("a short atom name"))
}
