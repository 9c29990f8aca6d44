//! `erlang:load_nif/2`: beamr loads no NIF libraries (`.so` files), since
//! the NIFs of OTP's own modules it runs are native BIFs already. A call
//! for one of those (OTP 28's `prim_tty:load/0` calls it for the
//! terminal's NIF, `prim_socket:on_load/1` for the socket NIF) answers
//! `ok`, as erts does for a NIF library it has linked in; any other
//! library is `{error, {load_failed, Text}}` naming it, erts's answer for
//! a library it cannot load.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::bif::os::bifs::string_arg;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "load_nif", 2, load_nif)];

/// The NIF libraries whose functions beamr has natively, by the name
/// erts's static NIFs are loaded by.
const BUILT_IN: &[&str] = &["prim_tty", "prim_socket"];

fn load_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let path = string_arg(a[0]).ok_or_else(Exception::badarg)?;
    if BUILT_IN.contains(&path.as_str()) {
        return Ok(Term::atom(Atom::OK));
    }
    let text = p.heap.string(&format!(
        "Failed to load NIF library {path}: 'beamr loads no NIF libraries'"
    ));
    let reason = p.heap.tuple(&[atom("load_failed"), text]);
    Ok(p.heap.tuple(&[Term::atom(Atom::ERROR), reason]))
}
