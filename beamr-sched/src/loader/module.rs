//! [`Module`]: one loaded version of a module's code.

use beamr_core::atom::Atom;
use beamr_core::beam::LineItem;
use beamr_core::heap::Heap;
use beamr_core::term::FunEntry;
use std::sync::atomic::Ordering;

use super::instr::Instr;
use crate::trace::call_patterns::TracedModule;

/// Where a function starts, for stack traces and `current_function`.
#[derive(Clone, Debug)]
pub struct FunctionInfo {
    /// Name.
    pub name: Atom,
    /// Arity.
    pub arity: u32,
    /// Index of its `FuncInfo` instruction.
    pub start: usize,
}

/// A loaded module version. Its code never moves once loaded: instruction
/// addresses are used as code pointers.
pub struct Module {
    /// The module's name.
    pub name: Atom,
    /// The executable code.
    pub code: Box<[Instr]>,
    /// Exported functions: name, arity, entry index into `code`.
    pub exports: Vec<(Atom, u32, usize)>,
    /// Every function, sorted by `start`.
    pub functions: Vec<FunctionInfo>,
    /// Source locations: (first instruction index, location), sorted.
    pub lines: Vec<(usize, LineItem)>,
    /// Source file names (index 0 is the module's own file).
    pub files: Vec<String>,
    /// The module's funs, each with the index in `code` where it starts;
    /// their entries point there once the module is installed
    /// ([`Module::publish_funs`]).
    pub funs: Vec<(&'static FunEntry, usize)>,
    /// The native records it declares (OTP 29), defaults in `literals`.
    pub records: Vec<super::record::ModuleRecord>,
    /// Literals live here; it is never collected.
    pub literals: Heap,
    /// The module's native code, where it has any (`loader::native`).
    pub native: Option<super::native::NativeCode>,
}

// SAFETY: a module is immutable after loading; the literal heap's terms are
// only read, from any thread.
unsafe impl Sync for Module {}
// SAFETY: as above; ownership moves only while loading.
unsafe impl Send for Module {}

impl Module {
    /// Points every fun entry of the module at this version's code: called
    /// when the version becomes current, never before (a version that is
    /// never installed is freed, and entries pointing into it would call
    /// freed code).
    pub fn publish_funs(&self) {
        for &(entry, index) in &self.funs {
            entry.code.store(
                &self.code[index] as *const Instr as usize,
                Ordering::Release,
            );
        }
    }

    /// True if `ip` points into this module's code.
    pub fn contains(&self, ip: *const Instr) -> bool {
        let start = self.code.as_ptr() as usize;
        let end = start + self.code.len() * std::mem::size_of::<Instr>();
        (start..end).contains(&(ip as usize))
    }

    /// The index of the instruction at `ip`, which must be in this module.
    pub fn index_of(&self, ip: *const Instr) -> usize {
        (ip as usize - self.code.as_ptr() as usize) / std::mem::size_of::<Instr>()
    }

    /// The function containing instruction `index`.
    pub fn function_at(&self, index: usize) -> Option<&FunctionInfo> {
        let i = self.functions.partition_point(|f| f.start <= index);
        i.checked_sub(1).map(|i| &self.functions[i])
    }

    /// The source location in effect at instruction `index`.
    pub fn line_at(&self, index: usize) -> Option<(&str, u32)> {
        let i = self.lines.partition_point(|(start, _)| *start <= index);
        let (_, item) = self.lines.get(i.checked_sub(1)?)?;
        let file = self.files.get(item.file as usize)?;
        Some((file, item.line))
    }

    /// Bytes this version takes: its code, literal heap, tables of
    /// exports, functions, lines and funs, and file names.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let literals = self.literals.young_capacity()
            + self.literals.old_capacity()
            + self.literals.fragment_words();
        size_of::<Module>()
            + self.code.len() * size_of::<Instr>()
            + literals * size_of::<u64>()
            + self.exports.capacity() * size_of::<(Atom, u32, usize)>()
            + self.functions.capacity() * size_of::<FunctionInfo>()
            + self.lines.capacity() * size_of::<(usize, LineItem)>()
            + self.funs.capacity() * size_of::<(&FunEntry, usize)>()
            + self.funs.len() * size_of::<FunEntry>()
            + self.files.iter().map(String::capacity).sum::<usize>()
    }

    /// The native record `name` this module declares.
    pub fn record(&self, name: Atom) -> Option<&super::record::ModuleRecord> {
        self.records.iter().find(|r| r.def.name == name)
    }

    /// The entry index of exported `name/arity`.
    pub fn export_index(&self, name: Atom, arity: u32) -> Option<usize> {
        self.exports
            .iter()
            .find(|(n, a, _)| *n == name && *a == arity)
            .map(|e| e.2)
    }
}

/// What the call pattern table needs of a version: its functions, and
/// which one holds a code address.
impl TracedModule for Module {
    fn name(&self) -> Atom {
        self.name
    }

    fn functions(&self) -> Vec<(Atom, u32)> {
        self.functions.iter().map(|f| (f.name, f.arity)).collect()
    }

    fn exports(&self) -> Vec<(Atom, u32)> {
        self.exports.iter().map(|&(f, a, _)| (f, a)).collect()
    }

    fn function_holding(&self, address: usize) -> Option<usize> {
        let ip = address as *const Instr;
        if !self.contains(ip) {
            return None;
        }
        let index = self.index_of(ip);
        self.functions
            .partition_point(|f| f.start <= index)
            .checked_sub(1)
    }

    fn set_native_local_trace(&self, function: usize, on: bool) {
        if let Some(native) = &self.native {
            native.set_local_trace(function, on);
        }
    }
}
