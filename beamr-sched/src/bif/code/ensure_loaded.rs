//! Native stand-ins for the `code` functions that OTP's library calls on
//! its own error paths (`io_lib:format/2` checks that the modules in a
//! failing stack trace are loaded): `code:ensure_loaded/1` and
//! `code:ensure_modules_loaded/1`. In OTP they ask the `code_server`
//! process, which `beamr run` does not start; here they load from beamr's
//! code path directly. `code:where_is_file/1` (how the application
//! controller finds `.app` files) searches the same path.

use crate::bif::common::atoms::atom;
use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::code::{CodeServer, LoadOutcome};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("code", "ensure_loaded", 1, ensure_loaded),
    ("code", "ensure_modules_loaded", 1, ensure_modules_loaded),
    ("code", "where_is_file", 1, where_is_file),
];

/// Loads `module`; the error reason `code` would give, if any.
fn load(module: Atom) -> Option<&'static str> {
    match CodeServer::global().ensure_loaded(module) {
        Ok(LoadOutcome::Loaded(_)) => None,
        Ok(LoadOutcome::NotFound) => Some("nofile"),
        Err(_) => Some("badfile"),
    }
}

/// `ensure_loaded(M)`: `{module, M}` or `{error, nofile | badfile}`.
fn ensure_loaded(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = a[0].as_atom().ok_or_else(Exception::badarg)?;
    Ok(match load(module) {
        None => p.heap.tuple(&[atom("module"), a[0]]),
        Some(reason) => p.heap.tuple(&[Term::atom(Atom::ERROR), atom(reason)]),
    })
}

/// `ensure_modules_loaded(Ms)`: `ok` or `{error, [{M, Reason}]}`.
fn ensure_modules_loaded(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let modules = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut failed = Vec::new();
    for m in modules {
        let module = m.as_atom().ok_or_else(Exception::badarg)?;
        if let Some(reason) = load(module) {
            failed.push(p.heap.tuple(&[m, atom(reason)]));
        }
    }
    if failed.is_empty() {
        return Ok(Term::atom(Atom::OK));
    }
    let list = p.heap.list(&failed);
    Ok(p.heap.tuple(&[Term::atom(Atom::ERROR), list]))
}

/// `where_is_file(Filename)`: the first directory of the code path holding
/// `Filename`, joined with it, or `non_existing`.
fn where_is_file(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = crate::bif::os::bifs::string_arg(a[0]).ok_or_else(Exception::badarg)?;
    let found = CodeServer::global()
        .path_dirs()
        .into_iter()
        .map(|dir| dir.join(&name))
        .find(|file| file.is_file());
    Ok(match found {
        Some(file) => p.heap.string(&file.to_string_lossy()),
        None => atom("non_existing"),
    })
}
