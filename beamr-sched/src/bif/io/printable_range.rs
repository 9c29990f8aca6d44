//! The `io` module's BIFs: `io:printable_range/0`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("io", "printable_range", 0, printable_range)];

/// `io:printable_range()`: which characters `~p` shows as strings. `erl`'s
/// default (no `+pc unicode`) is `latin1`, and beamr has no such flag.
fn printable_range(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let latin1 = Atom::new("latin1").map_err(|_| Exception::badarg())?;
    Ok(Term::atom(latin1))
}
