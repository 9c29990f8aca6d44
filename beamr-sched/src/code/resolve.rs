//! The call resolver: what a call of `M:F/A` runs. A native BIF, loaded
//! bytecode (loading the module from the code path on first use), or
//! nothing (`undef`). The loader binds imports through it at load time
//! ([`native`]); the interpreter (`call_ext`, `apply`, funs, the arithmetic
//! slow path), exception handling and match specifications resolve through
//! it at run time ([`resolve`]). Per-function trace flags will hook here.
//!
//! The native BIFs are installed once, by `Runtime::new`, before any code
//! loads; until then no import binds to a BIF and loading a module that
//! calls one fails with `LoadError::UnknownBif`.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;

use beamr_core::term::Export;

use super::registry::{CodeServer, LoadOutcome};
use crate::loader::{ArithOp, BifFn, Instr, Natives};

static NATIVES: OnceLock<Natives> = OnceLock::new();

/// What a call of an export runs.
#[derive(Clone, Copy, Debug)]
pub enum Callee {
    /// A native BIF.
    Native(BifFn),
    /// Bytecode at this address.
    Code(*const Instr),
    /// Nothing: the function is not defined (after trying to load its module).
    Undefined,
}

/// Installs the table of native BIFs; the first call wins (the table is
/// the same for every runtime of the OS process).
pub fn install_natives(natives: impl FnOnce() -> Natives) {
    NATIVES.get_or_init(natives);
}

/// The installed native BIFs (an empty table before [`install_natives`]).
pub fn natives() -> &'static Natives {
    static EMPTY: OnceLock<Natives> = OnceLock::new();
    NATIVES
        .get()
        .unwrap_or_else(|| EMPTY.get_or_init(Natives::default))
}

/// The native BIF behind `export`, if it is one. Once the table is
/// installed, the answer is kept in the export ([`Export::native`]), so
/// that a call of an export fun looks it up once, not on every call.
#[inline]
pub fn native(export: &Export) -> Option<BifFn> {
    let table = NATIVES.get()?;
    match export.native.load(Ordering::Relaxed) {
        0 => native_first_time(table, export),
        Export::NOT_NATIVE => None,
        kept => table.at(kept - Export::FIRST_NATIVE),
    }
}

#[cold]
fn native_first_time(table: &Natives, export: &Export) -> Option<BifFn> {
    let arity = u8::try_from(export.arity).ok()?;
    let place = table.place(export.module, export.function, arity);
    let kept = place.map_or(Export::NOT_NATIVE, |place| place + Export::FIRST_NATIVE);
    export.native.store(kept, Ordering::Relaxed);
    place.and_then(|place| table.at(place))
}

/// The BIF behind an inline arithmetic instruction's slow path.
#[inline]
pub fn arith(op: ArithOp) -> BifFn {
    natives()
        .arith(op)
        .expect("the arithmetic BIFs are installed with the native table")
}

/// What calling `export` runs: its BIF, its code (loading its module on
/// first use), or [`Callee::Undefined`].
pub fn resolve(export: &'static Export) -> Callee {
    if let Some(bif) = native(export) {
        return Callee::Native(bif);
    }
    match code_of(export) {
        Some(code) => Callee::Code(code),
        None => Callee::Undefined,
    }
}

/// The bytecode of `export`, loading its module on first use; `None` if
/// undefined. BIFs are not looked at (a loaded call site knows it calls code).
#[inline]
pub fn code_of(export: &'static Export) -> Option<*const Instr> {
    let code = export.code.load(Ordering::Acquire);
    if code != 0 {
        return Some(code as *const Instr);
    }
    load_code_of(export)
}

#[cold]
fn load_code_of(export: &'static Export) -> Option<*const Instr> {
    match CodeServer::global().ensure_loaded(export.module) {
        Ok(LoadOutcome::Loaded(_)) => {
            let code = export.code.load(Ordering::Acquire);
            (code != 0).then_some(code as *const Instr)
        }
        Ok(LoadOutcome::NotFound) => None,
        Err(e) => {
            eprintln!("beamr: loading {} failed: {e}", export.module);
            None
        }
    }
}
