//! What the pattern table needs of loaded code, as traits the code layer
//! implements: the table lives here, in the bottom layer, and the code
//! server and the loader above it are passed in (as `&dyn LoadedCode`) by
//! whoever changes patterns or loads a module.

use std::sync::Arc;

use beamr_core::atom::Atom;

/// One loaded version of a module, as the pattern table sees it.
pub trait TracedModule: Send + Sync {
    /// The module's name.
    fn name(&self) -> Atom;
    /// Every function's name and arity, in the module's order (the index
    /// [`TracedModule::function_holding`] and
    /// [`TracedModule::set_native_local_trace`] use).
    fn functions(&self) -> Vec<(Atom, u32)>;
    /// The exported functions' names and arities.
    fn exports(&self) -> Vec<(Atom, u32)>;
    /// The index of the function whose code holds the instruction at
    /// `address`, if this version holds it.
    fn function_holding(&self, address: usize) -> Option<usize>;
    /// Marks function `function`'s native code traced on local calls (its
    /// call sites test the mark), where the module has native code.
    fn set_native_local_trace(&self, function: usize, on: bool);
}

/// The loaded code, as the pattern table sees it: the code server.
pub trait LoadedCode {
    /// The current version of `module`, if it is loaded.
    fn current_module(&self, module: Atom) -> Option<Arc<dyn TracedModule>>;
    /// The names of every loaded module.
    fn loaded_modules(&self) -> Vec<Atom>;
}
