//! What every `ets` BIF shares: resolving a table identifier in the
//! runtime, locking the table and checking the caller's access (`badarg`
//! where OTP raises it), and the atoms and BIFs the hot paths use.

use crate::bif::common::atoms::atom;
use std::sync::LazyLock;

use beamr_core::term::Term;

use crate::ets::table::TableData;
use crate::ets::{Protection, Table};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

pub(super) fn badarg<T>() -> Result<T, Exception> {
    Err(Exception::badarg())
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Access {
    Read,
    Write,
}

/// Runs `f` on the locked table `tab` after checking `p`'s access.
pub(super) fn with_table<R>(
    rt: &Runtime,
    p: &mut Process,
    tab: Term,
    access: Access,
    f: impl FnOnce(&mut Process, &Table, &mut TableData) -> Result<R, Exception>,
) -> Result<R, Exception> {
    let table = rt.ets.resolve(tab).ok_or_else(Exception::badarg)?;
    let mut data = table.lock();
    if data.deleted {
        return badarg();
    }
    let allowed = match (table.protection, access) {
        (Protection::Public, _) | (Protection::Protected, Access::Read) => true,
        _ => data.owner == p.pid,
    };
    if !allowed {
        return badarg();
    }
    f(p, &table, &mut data)
}

/// Atoms and BIFs the hot paths use, looked up once.
pub(super) struct Known {
    end_of_table: Term,
    pub(super) plus: crate::loader::BifFn,
}

pub(super) static KNOWN: LazyLock<Known> = LazyLock::new(|| Known {
    end_of_table: atom("$end_of_table"),
    plus: crate::code::resolve::arith(crate::loader::ArithOp::Add),
});

pub(super) fn end_of_table() -> Term {
    KNOWN.end_of_table
}
