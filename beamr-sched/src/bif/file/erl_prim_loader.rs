//! `erl_prim_loader`'s file reading, natively: the application controller
//! reads `.app` files with `erl_prim_loader:get_file/1` (up to OTP 25) or
//! `read_file/1` (OTP 26 on). On the BEAM these ask the boot loader (a
//! process up to OTP 25, a configuration in `persistent_term` after) that
//! `erl`'s boot sets up; beamr's loader is its code path, and the files
//! come straight from the file system.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erl_prim_loader", "get_file", 1, get_file),
    ("erl_prim_loader", "read_file", 1, read_file),
];

/// The file named by `t` (a string or an atom) and its contents.
fn read(t: Term) -> Option<(String, Vec<u8>)> {
    let name = match t.as_atom() {
        Some(a) => a.name().to_string(),
        None => crate::bif::os::bifs::string_arg(t)?,
    };
    let bytes = std::fs::read(&name).ok()?;
    Some((name, bytes))
}

/// `get_file(File)`: `{ok, Binary, FullName}` or `error`.
fn get_file(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(match read(a[0]) {
        Some((name, bytes)) => {
            let bin = p.heap.binary(&bytes);
            let name = p.heap.string(&name);
            p.heap.tuple(&[Term::atom(Atom::OK), bin, name])
        }
        None => atom("error"),
    })
}

/// `read_file(File)`: `{ok, Binary}` or `error`.
fn read_file(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(match read(a[0]) {
        Some((_, bytes)) => {
            let bin = p.heap.binary(&bytes);
            p.heap.tuple(&[Term::atom(Atom::OK), bin])
        }
        None => atom("error"),
    })
}
