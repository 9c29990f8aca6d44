//! The table of native BIFs by `{Module, Function, Arity}`.

use std::collections::HashMap;
use std::sync::LazyLock;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// A native BIF: called with the runtime, the calling process and its arguments.
pub type BifFn = fn(&Runtime, &mut Process, &[Term]) -> Result<Term, Exception>;

/// One table row: module, function, arity, implementation.
pub(crate) type BifRow = (&'static str, &'static str, u8, BifFn);

static TABLE: LazyLock<HashMap<(Atom, Atom, u8), BifFn>> = LazyLock::new(|| {
    let mut table = HashMap::new();
    for rows in [
        super::erlang_arith::BIFS,
        super::erlang_terms::BIFS,
        super::erlang_convert::BIFS,
        super::erlang_misc::BIFS,
        super::erlang_phash::BIFS,
        super::lists::BIFS,
        super::maps::BIFS,
        super::math::BIFS,
        super::string::BIFS,
        super::io::BIFS,
        super::code::BIFS,
        super::erlang_checksum::BIFS,
        super::erlang_procs::BIFS,
        super::erlang_system::BIFS,
        super::beamr_io::BIFS,
        super::persistent_term::BIFS,
        super::os::BIFS,
        super::erlang_binaries::BIFS,
        super::binary::BIFS,
        super::unicode::BIFS,
        super::ets::BIFS,
        super::code_loading::BIFS,
    ] {
        for &(m, f, a, bif) in rows {
            let key = (
                Atom::new(m).expect("bif module atom"),
                Atom::new(f).expect("bif name atom"),
                a,
            );
            table.insert(key, bif);
        }
    }
    table
});

/// The native implementation of `M:F/A`, if it is a BIF.
pub fn lookup(module: Atom, function: Atom, arity: u8) -> Option<BifFn> {
    TABLE.get(&(module, function, arity)).copied()
}
