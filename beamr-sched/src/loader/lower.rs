//! Lowering: generic instructions of a [`BeamFile`] to executable [`Instr`]s.
//!
//! Two passes over the generic code: the first gives every label the index
//! of the executable instruction that follows it (labels and `line`
//! instructions produce no executable instruction); the second translates
//! each instruction with jump targets made relative to their instruction.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;

use beamr_core::atom::Atom;
use beamr_core::beam::{BeamFile, Instruction, Integer, Opcode, Operand};
use beamr_core::heap::Heap;
use beamr_core::term::{Export, FunEntry, Term};

use super::error::LoadError;
use super::instr::{ArithOp, BifCall, Compare, FloatOp, Instr, MakeFun, Select, Tail, TypeTest};
use super::module::{FunctionInfo, Module};
use super::natives::Natives;
use super::operand::{Dst, Src, SrcKind, Target};

/// Loads a parsed `.beam` file into an executable module, binding imports
/// that are BIFs in `natives` to their native implementations.
pub fn load(file: &BeamFile, natives: &Natives) -> Result<Module, LoadError> {
    Lowering::new(file, natives)?.run()
}

pub(super) struct Lowering<'f> {
    pub(super) file: &'f BeamFile,
    natives: &'f Natives,
    pub(super) module: Atom,
    atoms: Vec<Atom>,
    literals: Vec<Term>,
    pub(super) literal_heap: Heap,
    imports: Vec<&'static Export>,
    funs: Vec<&'static FunEntry>,
    /// Label number to executable instruction index.
    labels: HashMap<u32, usize>,
    /// The native records the module declares (see [`super::record`]).
    pub(super) records: Vec<super::record::ModuleRecord>,
    /// Frame sizes of exception handlers (`frames::check`), by the byte
    /// offset of their first instruction.
    handler_frames: super::frames::HandlerFrames,
}

fn atom(name: &str, module: &str) -> Result<Atom, LoadError> {
    Atom::new_within_limit(name).map_err(|e| LoadError::Atom {
        module: module.to_string(),
        reason: e.to_string(),
    })
}

impl<'f> Lowering<'f> {
    fn new(file: &'f BeamFile, natives: &'f Natives) -> Result<Lowering<'f>, LoadError> {
        let name = file.module_name();
        let atoms = file
            .atoms
            .names()
            .iter()
            .map(|n| atom(n, name))
            .collect::<Result<Vec<_>, _>>()?;
        let module = atoms.first().copied().ok_or_else(|| LoadError::Atom {
            module: String::new(),
            reason: "the atom table is empty".into(),
        })?;
        let mut literal_heap = Heap::new();
        let mut literals = Vec::with_capacity(file.literals.len());
        for (index, bytes) in file.literals.literals.iter().enumerate() {
            let term = beamr_core::etf::decode(bytes, &mut literal_heap).map_err(|e| {
                LoadError::Literal {
                    module: name.to_string(),
                    index,
                    reason: e.to_string(),
                }
            })?;
            literals.push(term);
        }
        let at = |i: u32| {
            (i as usize)
                .checked_sub(1)
                .and_then(|i| atoms.get(i))
                .copied()
                .unwrap_or(Atom::UNDEFINED)
        };
        let imports = file
            .imports
            .iter()
            .map(|imp| Export::intern(at(imp.module), at(imp.function), imp.arity))
            .collect();
        let funs =
            file.funs
                .iter()
                .map(|lambda| {
                    let arity = lambda.arity.checked_sub(lambda.num_free).ok_or_else(|| {
                        LoadError::Atom {
                            module: name.to_string(),
                            reason: format!(
                                "fun {} has {} free variables, more than its arity {}",
                                lambda.index, lambda.num_free, lambda.arity
                            ),
                        }
                    })?;
                    Ok(FunEntry::intern(FunEntry {
                        module,
                        function: at(lambda.function),
                        arity,
                        num_free: lambda.num_free,
                        index: lambda.index,
                        uniq: [0; 16],
                        old_index: lambda.index,
                        old_uniq: lambda.old_uniq,
                        code: AtomicUsize::new(0),
                    }))
                })
                .collect::<Result<Vec<_>, LoadError>>()?;
        Ok(Lowering {
            file,
            natives,
            module,
            atoms,
            literals,
            literal_heap,
            imports,
            funs,
            labels: HashMap::new(),
            records: Vec::new(),
            handler_frames: HashMap::new(),
        })
    }

    fn run(mut self) -> Result<Module, LoadError> {
        self.records = self.module_records()?;
        // Pass 1: label positions.
        let mut count = 0;
        for ins in &self.file.instructions {
            match ins.opcode {
                Opcode::Label => {
                    let n = self.unsigned(ins, 0)? as u32;
                    self.labels.insert(n, count);
                }
                op if !emits(op) => {}
                _ => count += 1,
            }
        }
        self.handler_frames = super::frames::check(&self.file.instructions, |import| {
            self.imports
                .get(import as usize)
                .is_some_and(|export| never_returns(export))
        })
        .map_err(|(i, what)| self.err(&self.file.instructions[i], what))?;
        super::xregs::check(&self.file.instructions, |a| {
            self.atom_at(a).name().to_string()
        })
        .map_err(|(i, what)| self.err(&self.file.instructions[i], what))?;
        let stubs = self.native_stubs()?;
        // Pass 2: translation. The entry of a NIF stub with a native
        // implementation calls the native, so that the module's local calls
        // reach it too (the rest of the stub's body is never run).
        let mut code = Vec::with_capacity(count);
        let mut lines = Vec::new();
        let mut functions = Vec::new();
        let mut stub_entry = None;
        for ins in &self.file.instructions {
            if let Some((bif, export)) = stub_entry {
                if emits(ins.opcode) && ins.opcode != Opcode::FuncInfo {
                    stub_entry = None;
                    code.push(Instr::CallBifOnly { bif, export });
                    continue;
                }
            }
            match ins.opcode {
                Opcode::Label => continue,
                // `executable_line` (OTP 27, for line coverage) and
                // `debug_line` (OTP 28, for breakpoints) also say where
                // the code that follows comes from; beamr runs neither
                // coverage nor breakpoints, so they are line markers.
                Opcode::Line | Opcode::ExecutableLine | Opcode::DebugLine => {
                    let at = usize::from(ins.opcode == Opcode::DebugLine);
                    let index = self.unsigned(ins, at)?;
                    if let Some(item) = index
                        .checked_sub(1)
                        .and_then(|i| self.file.lines.items.get(i as usize))
                    {
                        lines.push((code.len(), *item));
                    }
                    continue;
                }
                op if !emits(op) => continue,
                Opcode::FuncInfo => {
                    let (name, arity) = (self.atom_operand(ins, 1)?, self.unsigned(ins, 2)? as u32);
                    functions.push(FunctionInfo {
                        name,
                        arity,
                        start: code.len(),
                    });
                    stub_entry = stubs
                        .contains(&(name, arity))
                        .then(|| self.natives.get(self.module, name, arity as u8))
                        .flatten()
                        .map(|bif| (bif, Export::intern(self.module, name, arity)));
                }
                _ => {}
            }
            let here = code.len();
            code.push(self.lower(ins, here)?);
        }
        super::specialise::specialise(&mut code);
        let mut code = code.into_boxed_slice();
        let native = super::native::compile(&code, &functions);
        if let Some(native) = &native {
            enter_native_at_calls(&mut code, native);
        }
        let mut exports = Vec::new();
        for e in &self.file.exports {
            let name = self.atom_at(e.function);
            exports.push((name, e.arity, self.label(e.label, None)?));
        }
        // Where each fun's code starts. The entries are global (a fun made
        // by the current version of the module is called through them), so
        // they are pointed at this code only when the module is installed
        // (`Module::publish_funs`): a load that fails after this, or a
        // module refused for its name, must leave them as they were, or
        // they would point at code freed with it.
        let funs = self
            .funs
            .iter()
            .zip(&self.file.funs)
            .map(|(&entry, lambda)| Ok((entry, self.label(lambda.label, None)?)))
            .collect::<Result<Vec<_>, LoadError>>()?;
        let mut files = vec![format!("{}.erl", self.module.name())];
        files.extend(self.file.lines.names.iter().cloned());
        Ok(Module {
            name: self.module,
            code,
            exports,
            functions,
            lines,
            files,
            funs,
            records: self.records,
            literals: self.literal_heap,
            native,
        })
    }

    /// The NIF stubs, which a native implementation replaces when it
    /// exists: the functions whose body calls `erlang:nif_error/1,2`, or
    /// calls such a function of the module (as `crypto`'s stubs call its
    /// `nif_stub_error/1`).
    fn native_stubs(&self) -> Result<Vec<(Atom, u32)>, LoadError> {
        type Fun = (Atom, u32);
        let mut direct: Vec<Fun> = Vec::new();
        let mut local_calls: Vec<(Fun, u64)> = Vec::new();
        let mut entries: HashMap<u64, Fun> = HashMap::new();
        let mut current = None;
        let mut after_func_info = false;
        for ins in &self.file.instructions {
            match ins.opcode {
                Opcode::FuncInfo => {
                    current = Some((self.atom_operand(ins, 1)?, self.unsigned(ins, 2)? as u32));
                    after_func_info = true;
                    continue;
                }
                Opcode::Label if after_func_info => {
                    if let Some(f) = current {
                        entries.insert(self.unsigned(ins, 0)?, f);
                    }
                }
                Opcode::CallExt | Opcode::CallExtOnly | Opcode::CallExtLast => {
                    let callee = self.import(ins, 1)?;
                    if callee.module == Atom::ERLANG && callee.function.name() == "nif_error" {
                        direct.extend(current);
                    }
                }
                Opcode::Call | Opcode::CallOnly | Opcode::CallLast => {
                    if let (Some(f), Ok(Operand::Label(label))) = (current, self.arg(ins, 1)) {
                        local_calls.push((f, u64::from(*label)));
                    }
                }
                _ => {}
            }
            after_func_info = false;
        }
        let mut stubs = direct.clone();
        for (caller, label) in local_calls {
            if entries
                .get(&label)
                .is_some_and(|callee| direct.contains(callee))
            {
                stubs.push(caller);
            }
        }
        Ok(stubs)
    }

    // ----- operand helpers ------------------------------------------------

    pub(super) fn err(&self, ins: &Instruction, what: impl Into<String>) -> LoadError {
        LoadError::Malformed {
            module: self.module.name().to_string(),
            opcode: ins.opcode.name(),
            offset: ins.offset,
            what: what.into(),
        }
    }

    /// The frame size the frame check found for an exception handler's
    /// first instruction (0 for one that starts no handler).
    fn handler_frame(&self, ins: &Instruction) -> u32 {
        self.handler_frames.get(&ins.offset).copied().unwrap_or(0)
    }

    pub(super) fn arg<'a>(&self, ins: &'a Instruction, i: usize) -> Result<&'a Operand, LoadError> {
        ins.args
            .get(i)
            .ok_or_else(|| self.err(ins, format!("missing operand {i}")))
    }

    pub(super) fn unsigned(&self, ins: &Instruction, i: usize) -> Result<u64, LoadError> {
        self.unsigned_of(ins, self.arg(ins, i)?, format_args!("operand {i}"))
    }

    /// The live X-register count in operand `i`: a number of registers
    /// that exist (at most [`MAX_X_REGS`](crate::process::MAX_X_REGS)), as
    /// a collection takes them for roots.
    pub(super) fn live(&self, ins: &Instruction, i: usize) -> Result<u32, LoadError> {
        let n = self.unsigned(ins, i)?;
        if n as usize > crate::process::MAX_X_REGS {
            return Err(self.err(ins, format!("{n} live X registers, more than exist")));
        }
        Ok(n as u32)
    }

    /// The value of the non-negative integer operand `op`, named `what`
    /// in the error when it is not one.
    pub(super) fn unsigned_of(
        &self,
        ins: &Instruction,
        op: &Operand,
        what: std::fmt::Arguments<'_>,
    ) -> Result<u64, LoadError> {
        match op {
            Operand::Unsigned(n) => Ok(*n),
            Operand::Integer(Integer::Small(n)) if *n >= 0 => Ok(*n as u64),
            _ => Err(self.err(ins, format!("{what} should be a number, found {op:?}"))),
        }
    }

    pub(super) fn atom_at(&self, index: u32) -> Atom {
        (index as usize)
            .checked_sub(1)
            .and_then(|i| self.atoms.get(i))
            .copied()
            .unwrap_or(Atom::UNDEFINED)
    }

    pub(super) fn atom_operand(&self, ins: &Instruction, i: usize) -> Result<Atom, LoadError> {
        match self.arg(ins, i)? {
            Operand::Atom(n) => Ok(self.atom_at(*n)),
            other => Err(self.err(
                ins,
                format!("operand {i} should be an atom, found {other:?}"),
            )),
        }
    }

    pub(super) fn label(&self, n: u32, ins: Option<&Instruction>) -> Result<usize, LoadError> {
        self.labels.get(&n).copied().ok_or_else(|| match ins {
            Some(ins) => self.err(ins, format!("undefined label {n}")),
            None => LoadError::Malformed {
                module: self.module.name().to_string(),
                opcode: "export",
                offset: 0,
                what: format!("undefined label {n}"),
            },
        })
    }

    pub(super) fn target_of(
        &self,
        ins: &Instruction,
        op: &Operand,
        here: usize,
    ) -> Result<Target, LoadError> {
        match op {
            Operand::Label(0) => Ok(Target::NONE),
            Operand::Label(n) => {
                let to = self.label(*n, Some(ins))?;
                Ok(Target(to as i32 - here as i32))
            }
            other => Err(self.err(ins, format!("expected a label, found {other:?}"))),
        }
    }

    /// Operand `i` of `ins`, a label it must have: a test or a jump, for
    /// which `{f,0}` (no label, [`Target::NONE`]) means nothing to go to,
    /// and which must not go to itself.
    pub(super) fn jump_target(
        &self,
        ins: &Instruction,
        i: usize,
        here: usize,
    ) -> Result<Target, LoadError> {
        match self.arg(ins, i)? {
            Operand::Label(0) => Err(self.err(ins, "a test or jump with no label ({f,0})")),
            // Offset 0 is `Target::NONE`, and a test or jump to itself
            // would never end, nor count a reduction.
            op => match self.target_of(ins, op, here)? {
                Target::NONE => Err(self.err(ins, "a test or jump to itself")),
                target => Ok(target),
            },
        }
    }

    pub(super) fn target(
        &self,
        ins: &Instruction,
        i: usize,
        here: usize,
    ) -> Result<Target, LoadError> {
        self.target_of(ins, self.arg(ins, i)?, here)
    }

    pub(super) fn src_of(&mut self, ins: &Instruction, op: &Operand) -> Result<Src, LoadError> {
        if let Some(beamr_core::beam::Register::X(n)) = op.register() {
            if n as usize >= crate::process::MAX_X_REGS {
                return Err(self.err(ins, format!("X register {n} out of range")));
            }
        }
        Ok(match op {
            Operand::X(n) => Src::x(*n as usize),
            Operand::Y(n) => Src::y(*n as usize),
            Operand::TypedReg { reg, .. } => match reg {
                beamr_core::beam::Register::X(n) => Src::x(*n as usize),
                beamr_core::beam::Register::Y(n) => Src::y(*n as usize),
            },
            Operand::FloatReg(n) => Src::fr(*n as usize),
            Operand::Atom(n) => Src::constant(Term::atom(self.atom_at(*n))),
            Operand::Nil => Src::constant(Term::NIL),
            Operand::Integer(Integer::Small(v)) => Src::constant(self.literal_heap.int(*v)),
            Operand::Integer(Integer::Big(b)) => Src::constant(self.literal_heap.bigint(b)),
            Operand::Char(c) => Src::constant(Term::small_unchecked(*c as i64)),
            Operand::Float(f) => Src::constant(self.literal_heap.float(*f)),
            Operand::Literal(i) => Src::constant(
                *self
                    .literals
                    .get(*i as usize)
                    .ok_or_else(|| self.err(ins, format!("literal {i} out of range")))?,
            ),
            Operand::Unsigned(n) => Src::constant(self.literal_heap.int(*n as i64)),
            other => return Err(self.err(ins, format!("expected a value, found {other:?}"))),
        })
    }

    pub(super) fn src(&mut self, ins: &Instruction, i: usize) -> Result<Src, LoadError> {
        let op = self.arg(ins, i)?.clone();
        self.src_of(ins, &op)
    }

    pub(super) fn dst_of(&self, ins: &Instruction, op: &Operand) -> Result<Dst, LoadError> {
        match op.register() {
            Some(beamr_core::beam::Register::X(n)) if n as usize >= crate::process::MAX_X_REGS => {
                Err(self.err(ins, format!("X register {n} out of range")))
            }
            Some(beamr_core::beam::Register::X(n)) => Ok(Dst::x(n as usize)),
            Some(beamr_core::beam::Register::Y(n)) => Ok(Dst::y(n as usize)),
            None => Err(self.err(ins, format!("expected a register, found {op:?}"))),
        }
    }

    pub(super) fn dst(&self, ins: &Instruction, i: usize) -> Result<Dst, LoadError> {
        self.dst_of(ins, self.arg(ins, i)?)
    }

    pub(super) fn y(&self, ins: &Instruction, i: usize) -> Result<u32, LoadError> {
        match self.arg(ins, i)?.register() {
            Some(beamr_core::beam::Register::Y(n)) => Ok(n),
            _ => Err(self.err(ins, format!("operand {i} should be a Y register"))),
        }
    }

    pub(super) fn fr(&self, ins: &Instruction, i: usize) -> Result<u32, LoadError> {
        match self.arg(ins, i)? {
            Operand::FloatReg(n) if (*n as usize) < crate::process::MAX_FLOAT_REGS => Ok(*n),
            other => Err(self.err(
                ins,
                format!("operand {i} should be a float register, found {other:?}"),
            )),
        }
    }

    pub(super) fn list<'a>(
        &self,
        ins: &'a Instruction,
        i: usize,
    ) -> Result<&'a [Operand], LoadError> {
        match self.arg(ins, i)? {
            Operand::List(items) => Ok(items),
            other => Err(self.err(
                ins,
                format!("operand {i} should be a list, found {other:?}"),
            )),
        }
    }

    /// Operand `i`, a list of groups of `n` operands (`select_val`'s
    /// value/label pairs, `bs_create_bin`'s segments of six), copied so
    /// that lowering the groups may borrow `self` mutably; the error
    /// `what` when its length is not a multiple of `n`.
    pub(super) fn groups(
        &self,
        ins: &Instruction,
        i: usize,
        n: usize,
        what: &str,
    ) -> Result<Vec<Operand>, LoadError> {
        let items = self.list(ins, i)?;
        if items.len() % n != 0 {
            return Err(self.err(ins, what));
        }
        Ok(items.to_vec())
    }

    pub(super) fn import(&self, ins: &Instruction, i: usize) -> Result<&'static Export, LoadError> {
        let n = self.unsigned(ins, i)? as usize;
        self.imports
            .get(n)
            .copied()
            .ok_or_else(|| self.err(ins, format!("import {n} out of range")))
    }

    pub(super) fn heap_need(&self, ins: &Instruction, i: usize) -> Result<u32, LoadError> {
        match self.arg(ins, i)? {
            Operand::AllocList(items) => Ok(items
                .iter()
                .map(|(kind, n)| match kind {
                    beamr_core::beam::AllocKind::Words => *n,
                    beamr_core::beam::AllocKind::Floats => *n * 2,
                    beamr_core::beam::AllocKind::Funs => *n * 4,
                })
                .sum::<u64>() as u32),
            _ => Ok(self.unsigned(ins, i)? as u32),
        }
    }

    /// A `bif`/`gc_bif` instruction: operand indices of the fail label (if
    /// any), the import, the arguments and the destination.
    fn bif_call(
        &mut self,
        ins: &Instruction,
        here: usize,
        fail: Option<usize>,
        import: usize,
        args: &[usize],
        dst: usize,
    ) -> Result<Instr, LoadError> {
        let export = self.import(ins, import)?;
        if args.len() != export.arity as usize {
            return Err(self.err(
                ins,
                format!(
                    "calls {}:{}/{} with {} arguments",
                    export.module,
                    export.function,
                    export.arity,
                    args.len()
                ),
            ));
        }
        let bif = self
            .natives
            .get(export.module, export.function, export.arity as u8)
            .ok_or_else(|| LoadError::UnknownBif {
                module: self.module.name().to_string(),
                bif: format!("{}:{}/{}", export.module, export.function, export.arity),
                offset: ins.offset,
            })?;
        let args = args
            .iter()
            .map(|&i| self.src(ins, i))
            .collect::<Result<Vec<_>, _>>()?
            .into_boxed_slice();
        let fail = match fail {
            Some(i) => self.target(ins, i, here)?,
            None => Target::NONE,
        };
        if let Some((op, swap)) = comparison(export) {
            let (a, b) = if swap {
                (args[1], args[0])
            } else {
                (args[0], args[1])
            };
            return Ok(Instr::CompareBool {
                op,
                a,
                b,
                dst: self.dst(ins, dst)?,
            });
        }
        if let Some(index) = constant_element_index(export, &args) {
            return Ok(Instr::Element {
                tuple: args[1],
                index,
                dst: self.dst(ins, dst)?,
                fail,
            });
        }
        Ok(Instr::Bif(Box::new(BifCall {
            bif,
            mfa: (export.module, export.function, export.arity as u8),
            fail,
            args,
            dst: self.dst(ins, dst)?,
        })))
    }

    /// The inline arithmetic for a `gc_bif2` calling `erlang:+/2` and friends.
    fn arith_op(&self, ins: &Instruction) -> Result<Option<ArithOp>, LoadError> {
        let export = self.import(ins, 2)?;
        if export.module != Atom::ERLANG || export.arity != 2 {
            return Ok(None);
        }
        Ok(ArithOp::from_name(export.function.name()))
    }

    fn select(
        &mut self,
        ins: &Instruction,
        here: usize,
        arity_table: bool,
    ) -> Result<Box<Select>, LoadError> {
        let arg = self.src(ins, 0)?;
        let fail = self.jump_target(ins, 1, here)?;
        let items = self.groups(ins, 2, 2, "odd jump table")?;
        let mut cases = Vec::with_capacity(items.len() / 2);
        for pair in items.chunks(2) {
            let value = if arity_table {
                match &pair[0] {
                    Operand::Unsigned(n) => Term::small_unchecked(*n as i64),
                    Operand::Integer(Integer::Small(n)) => Term::small_unchecked(*n),
                    other => return Err(self.err(ins, format!("bad arity {other:?}"))),
                }
            } else {
                self.src_of(ins, &pair[0])?.term()
            };
            cases.push((value, self.target_of(ins, &pair[1], here)?));
        }
        let immediates = cases.iter().all(|(v, _)| v.is_immediate());
        if immediates {
            cases.sort_by_key(|(v, _)| v.raw());
        }
        Ok(Box::new(Select {
            arg,
            fail,
            cases: cases.into_boxed_slice(),
            immediates,
        }))
    }

    fn call_ext(&self, export: &'static Export, dealloc: Option<u32>, only: bool) -> Instr {
        let tail = match (dealloc, only) {
            (Some(d), _) => Tail::Last(d),
            (None, true) => Tail::Only,
            (None, false) => Tail::Call,
        };
        // apply/2,3 are BIFs that call code: they get instructions of their own.
        // hibernate/3 applies at once (beamr keeps no hibernated state; the
        // function applied, as proc_lib's wake_up, waits for its message).
        if export.module == Atom::ERLANG && matches!(export.function.name(), "apply" | "hibernate")
        {
            match export.arity {
                3 => return Instr::ApplyList { tail },
                2 => return Instr::ApplyFunList { tail },
                _ => {}
            }
        }
        match self
            .natives
            .get(export.module, export.function, export.arity as u8)
        {
            Some(bif) => match (dealloc, only) {
                (Some(dealloc), _) => Instr::CallBifLast {
                    bif,
                    export,
                    dealloc,
                },
                (None, true) => Instr::CallBifOnly { bif, export },
                (None, false) => Instr::CallBif { bif, export },
            },
            None => match (dealloc, only) {
                (Some(dealloc), _) => Instr::CallExtLast { export, dealloc },
                (None, true) => Instr::CallExtOnly { export },
                (None, false) => Instr::CallExt { export },
            },
        }
    }

    // ----- the translation --------------------------------------------------

    fn lower(&mut self, ins: &Instruction, here: usize) -> Result<Instr, LoadError> {
        use Opcode as O;
        Ok(match ins.opcode {
            O::FuncInfo => Instr::FuncInfo {
                module: self.atom_operand(ins, 0)?,
                function: self.atom_operand(ins, 1)?,
                arity: self.unsigned(ins, 2)? as u8,
            },
            O::IntCodeEnd => Instr::IntCodeEnd,
            O::Call => Instr::Call {
                target: self.target(ins, 1, here)?,
            },
            O::CallLast => Instr::CallLast {
                target: self.target(ins, 1, here)?,
                dealloc: self.unsigned(ins, 2)? as u32,
            },
            O::CallOnly => Instr::CallOnly {
                target: self.target(ins, 1, here)?,
            },
            O::CallExt => self.call_ext(self.import(ins, 1)?, None, false),
            O::CallExtLast => self.call_ext(
                self.import(ins, 1)?,
                Some(self.unsigned(ins, 2)? as u32),
                false,
            ),
            O::CallExtOnly => self.call_ext(self.import(ins, 1)?, None, true),
            O::Bif0 => self.bif_call(ins, here, None, 0, &[], 1)?,
            O::Bif1 => self.bif_call(ins, here, Some(0), 1, &[2], 3)?,
            O::Bif2 => self.bif_call(ins, here, Some(0), 1, &[2, 3], 4)?,
            O::GcBif1 => self.bif_call(ins, here, Some(0), 2, &[3], 4)?,
            O::GcBif2 => match self.arith_op(ins)? {
                Some(op) => Instr::Arith {
                    op,
                    fail: self.target(ins, 0, here)?,
                    a: self.src(ins, 3)?,
                    b: self.src(ins, 4)?,
                    dst: self.dst(ins, 5)?,
                    live: self.live(ins, 1)? as u16,
                },
                None => self.bif_call(ins, here, Some(0), 2, &[3, 4], 5)?,
            },
            O::GcBif3 => self.bif_call(ins, here, Some(0), 2, &[3, 4, 5], 6)?,
            O::Bif3 => self.bif_call(ins, here, Some(0), 1, &[2, 3, 4], 5)?,
            O::Allocate | O::AllocateZero => Instr::Allocate {
                slots: self.unsigned(ins, 0)? as u32,
                heap: 0,
                live: self.live(ins, 1)?,
            },
            O::AllocateHeap | O::AllocateHeapZero => Instr::Allocate {
                slots: self.unsigned(ins, 0)? as u32,
                heap: self.heap_need(ins, 1)?,
                live: self.live(ins, 2)?,
            },
            O::TestHeap => Instr::TestHeap {
                heap: self.heap_need(ins, 0)?,
                live: self.live(ins, 1)?,
            },
            O::Deallocate => Instr::Deallocate {
                slots: self.unsigned(ins, 0)? as u32,
            },
            O::Return => Instr::Return,
            O::Trim => Instr::Trim {
                n: self.unsigned(ins, 0)? as u32,
            },
            O::InitYregs => {
                let regs = self.list(ins, 0)?.to_vec();
                let ys = regs
                    .iter()
                    .map(|op| match op.register() {
                        Some(beamr_core::beam::Register::Y(n)) => Ok(n),
                        _ => Err(self.err(ins, "init_yregs takes Y registers")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Instr::InitYregs(ys.into_boxed_slice())
            }
            O::IsLt | O::IsGe | O::IsEq | O::IsNe | O::IsEqExact | O::IsNeExact => Instr::Compare {
                op: match ins.opcode {
                    O::IsLt => Compare::Lt,
                    O::IsGe => Compare::Ge,
                    O::IsEq => Compare::Eq,
                    O::IsNe => Compare::Ne,
                    O::IsEqExact => Compare::EqExact,
                    _ => Compare::NeExact,
                },
                fail: self.jump_target(ins, 0, here)?,
                a: self.src(ins, 1)?,
                b: self.src(ins, 2)?,
            },
            O::IsInteger
            | O::IsFloat
            | O::IsNumber
            | O::IsAtom
            | O::IsPid
            | O::IsReference
            | O::IsPort
            | O::IsNil
            | O::IsBinary
            | O::IsBitstr
            | O::IsList
            | O::IsNonemptyList
            | O::IsTuple
            | O::IsFunction
            | O::IsBoolean
            | O::IsMap => Instr::TypeTest {
                test: match ins.opcode {
                    O::IsInteger => TypeTest::Integer,
                    O::IsFloat => TypeTest::Float,
                    O::IsNumber => TypeTest::Number,
                    O::IsAtom => TypeTest::Atom,
                    O::IsPid => TypeTest::Pid,
                    O::IsReference => TypeTest::Reference,
                    O::IsPort => TypeTest::Port,
                    O::IsNil => TypeTest::Nil,
                    O::IsBinary => TypeTest::Binary,
                    O::IsBitstr => TypeTest::Bitstring,
                    O::IsList => TypeTest::List,
                    O::IsNonemptyList => TypeTest::NonemptyList,
                    O::IsTuple => TypeTest::Tuple,
                    O::IsFunction => TypeTest::Function,
                    O::IsBoolean => TypeTest::Boolean,
                    _ => TypeTest::Map,
                },
                fail: self.jump_target(ins, 0, here)?,
                arg: self.src(ins, 1)?,
            },
            O::IsFunction2 => Instr::IsFunction2 {
                fail: self.jump_target(ins, 0, here)?,
                arg: self.src(ins, 1)?,
                arity: self.src(ins, 2)?,
            },
            O::TestArity => Instr::TestArity {
                fail: self.jump_target(ins, 0, here)?,
                arg: self.src(ins, 1)?,
                arity: self.unsigned(ins, 2)? as u32,
            },
            O::IsTaggedTuple => Instr::IsTaggedTuple {
                fail: self.jump_target(ins, 0, here)?,
                arg: self.src(ins, 1)?,
                arity: self.unsigned(ins, 2)? as u32,
                tag: self.atom_operand(ins, 3)?,
            },
            O::SelectVal => Instr::SelectVal(self.select(ins, here, false)?),
            O::SelectTupleArity => Instr::SelectTupleArity(self.select(ins, here, true)?),
            O::Jump => Instr::Jump {
                target: self.jump_target(ins, 0, here)?,
            },
            O::Move => Instr::Move {
                src: self.src(ins, 0)?,
                dst: self.dst(ins, 1)?,
            },
            O::GetList => Instr::GetList {
                src: self.src(ins, 0)?,
                head: self.dst(ins, 1)?,
                tail: self.dst(ins, 2)?,
            },
            O::GetHd => Instr::GetHd {
                src: self.src(ins, 0)?,
                dst: self.dst(ins, 1)?,
            },
            O::GetTl => Instr::GetTl {
                src: self.src(ins, 0)?,
                dst: self.dst(ins, 1)?,
            },
            O::GetTupleElement => Instr::GetTupleElement {
                src: self.src(ins, 0)?,
                index: self.unsigned(ins, 1)? as u32,
                dst: self.dst(ins, 2)?,
            },
            O::SetTupleElement => Instr::SetTupleElement {
                value: self.src(ins, 0)?,
                tuple: self.src(ins, 1)?,
                index: self.unsigned(ins, 2)? as u32,
            },
            O::PutList => Instr::PutList {
                head: self.src(ins, 0)?,
                tail: self.src(ins, 1)?,
                dst: self.dst(ins, 2)?,
            },
            O::PutTuple2 => {
                let items = self.list(ins, 1)?.to_vec();
                let elements = items
                    .iter()
                    .map(|op| self.src_of(ins, op))
                    .collect::<Result<Vec<_>, _>>()?;
                Instr::PutTuple2 {
                    dst: self.dst(ins, 0)?,
                    elements: elements.into_boxed_slice(),
                }
            }
            O::Swap => Instr::Swap {
                a: self.dst(ins, 0)?,
                b: self.dst(ins, 1)?,
            },
            O::Badmatch => Instr::Badmatch {
                arg: self.src(ins, 0)?,
            },
            O::IfEnd => Instr::IfEnd,
            O::CaseEnd => Instr::CaseEnd {
                arg: self.src(ins, 0)?,
            },
            O::TryCaseEnd => Instr::TryCaseEnd {
                arg: self.src(ins, 0)?,
            },
            O::Badrecord => Instr::Badrecord {
                arg: self.src(ins, 0)?,
            },
            O::Catch | O::Try => Instr::Catch {
                y: self.y(ins, 0)?,
                handler: self.target(ins, 1, here)?,
            },
            O::CatchEnd => Instr::CatchEnd {
                y: self.y(ins, 0)?,
                frame: self.handler_frame(ins),
            },
            O::TryEnd => Instr::TryEnd { y: self.y(ins, 0)? },
            O::TryCase => Instr::TryCase {
                y: self.y(ins, 0)?,
                frame: self.handler_frame(ins),
            },
            O::Raise => Instr::Raise {
                trace: self.src(ins, 0)?,
                value: self.src(ins, 1)?,
            },
            O::BuildStacktrace => Instr::BuildStacktrace,
            O::RawRaise => Instr::RawRaise,
            O::Apply => Instr::Apply {
                arity: self.unsigned(ins, 0)? as u32,
            },
            O::ApplyLast => Instr::ApplyLast {
                arity: self.unsigned(ins, 0)? as u32,
                dealloc: self.unsigned(ins, 1)? as u32,
            },
            O::CallFun => Instr::CallFun {
                arity: self.unsigned(ins, 0)? as u32,
            },
            O::CallFun2 => Instr::CallFun2 {
                func: self.src(ins, 2)?,
                arity: self.unsigned(ins, 1)? as u32,
            },
            O::MakeFun3 => {
                let index = self.unsigned(ins, 0)? as usize;
                let entry = *self
                    .funs
                    .get(index)
                    .ok_or_else(|| self.err(ins, format!("fun {index} out of range")))?;
                let items = self.list(ins, 2)?.to_vec();
                let free = items
                    .iter()
                    .map(|op| self.src_of(ins, op))
                    .collect::<Result<Vec<_>, _>>()?;
                Instr::MakeFun(Box::new(MakeFun {
                    entry,
                    free: free.into_boxed_slice(),
                    dst: self.dst(ins, 1)?,
                }))
            }
            O::Fmove => {
                let (from, to) = (self.arg(ins, 0)?.clone(), self.arg(ins, 1)?.clone());
                match (from, to) {
                    (Operand::FloatReg(a), Operand::FloatReg(b)) => Instr::FMove { from: a, to: b },
                    (Operand::FloatReg(a), to) => Instr::FStore {
                        fr: a,
                        dst: self.dst_of(ins, &to)?,
                    },
                    (from, Operand::FloatReg(b)) => Instr::FLoad {
                        src: self.src_of(ins, &from)?,
                        fr: b,
                    },
                    _ => return Err(self.err(ins, "fmove needs a float register")),
                }
            }
            O::Fconv => Instr::FConv {
                src: self.src(ins, 0)?,
                fr: self.fr(ins, 1)?,
            },
            O::Fadd | O::Fsub | O::Fmul | O::Fdiv => Instr::FArith {
                op: match ins.opcode {
                    O::Fadd => FloatOp::Add,
                    O::Fsub => FloatOp::Sub,
                    O::Fmul => FloatOp::Mul,
                    _ => FloatOp::Div,
                },
                a: self.fr(ins, 1)?,
                b: self.fr(ins, 2)?,
                dst: self.fr(ins, 3)?,
            },
            O::Fnegate => Instr::FArith {
                op: FloatOp::Negate,
                a: self.fr(ins, 1)?,
                b: 0,
                dst: self.fr(ins, 2)?,
            },
            op if super::bs::handles(op) => Instr::Bs(Box::new(self.lower_bs(ins, here)?)),
            op if super::maps::handles(op) => Instr::Map(Box::new(self.lower_map(ins, here)?)),
            op if super::recv::handles(op) => Instr::Recv(self.lower_recv(ins, here)?),
            op if super::record::handles(op) => {
                Instr::Record(Box::new(self.lower_record(ins, here)?))
            }
            _ => {
                return Err(LoadError::Unsupported {
                    module: self.module.name().to_string(),
                    opcode: ins.opcode.name(),
                    offset: ins.offset,
                })
            }
        })
    }
}

/// False for generic instructions that produce no executable instruction:
/// labels, line markers (`line`, `executable_line`, `debug_line`), float error checks (beamr checks every float
/// operation as it happens, as the BEAM does today), `nif_start` (a marker
/// for NIF stubs, whose bodies then raise `undef` through `nif_error`), and
/// `on_load` (beamr does not run on-load functions yet: modules that need
/// one load without it).
/// Whether a call of `export` never returns: the BIFs that always raise,
/// after which the compiler may place code with another frame.
fn never_returns(export: &Export) -> bool {
    export.module == Atom::ERLANG
        && matches!(
            (export.function.name(), export.arity),
            ("error", 1..=3) | ("exit", 1) | ("throw", 1) | ("nif_error", 1..=2)
        )
}

fn emits(op: Opcode) -> bool {
    !matches!(
        op,
        Opcode::Label
            | Opcode::Line
            | Opcode::ExecutableLine
            | Opcode::DebugLine
            | Opcode::Fclearerror
            | Opcode::Fcheckerror
            | Opcode::NifStart
            | Opcode::OnLoad
    )
}

/// The 0-based index of an `erlang:element/2` call whose index is a
/// constant from 1 to 2^32 (`Instr::Element`'s case), else `None`.
/// The comparison `erlang:Op/2` makes, if it is one, and whether its
/// operands are swapped to make it (`a > b` is `b < a`, `a =< b` is
/// `b >= a`).
fn comparison(export: &Export) -> Option<(Compare, bool)> {
    if export.arity != 2 || export.module != Atom::ERLANG {
        return None;
    }
    Some(match export.function.name() {
        "<" => (Compare::Lt, false),
        ">" => (Compare::Lt, true),
        ">=" => (Compare::Ge, false),
        "=<" => (Compare::Ge, true),
        "==" => (Compare::Eq, false),
        "/=" => (Compare::Ne, false),
        "=:=" => (Compare::EqExact, false),
        "=/=" => (Compare::NeExact, false),
        _ => return None,
    })
}

fn constant_element_index(export: &Export, args: &[Src]) -> Option<u32> {
    if export.arity != 2 || export.module != Atom::ERLANG || export.function.name() != "element" {
        return None;
    }
    let n = args[0].kind();
    let SrcKind::Const(n) = n else { return None };
    let n = n.as_small()?;
    u32::try_from(n.checked_sub(1)?).ok()
}

/// Turns each local call of a function that runs natively into an
/// [`Instr::NativeCall`], where the interpreter enters its native code.
fn enter_native_at_calls(code: &mut [Instr], native: &super::native::NativeCode) {
    for (i, ins) in code.iter_mut().enumerate() {
        let (target, tail) = match *ins {
            Instr::Call { target } => (target, Tail::Call),
            Instr::CallLast { target, dealloc } => (target, Tail::Last(dealloc)),
            Instr::CallOnly { target } => (target, Tail::Only),
            _ => continue,
        };
        let callee = i as i64 + i64::from(target.0);
        let Ok(callee) = usize::try_from(callee) else {
            continue;
        };
        if let Some(entry) = native.entry_at(callee) {
            *ins = Instr::NativeCall {
                target,
                tail,
                entry,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_bifs_become_compare_bool_with_gt_and_le_swapped() {
        let erlang = |name: &str| Export::intern(Atom::ERLANG, Atom::new(name).unwrap(), 2);
        assert_eq!(comparison(erlang("<")), Some((Compare::Lt, false)));
        assert_eq!(comparison(erlang(">")), Some((Compare::Lt, true)));
        assert_eq!(comparison(erlang(">=")), Some((Compare::Ge, false)));
        assert_eq!(comparison(erlang("=<")), Some((Compare::Ge, true)));
        assert_eq!(comparison(erlang("=:=")), Some((Compare::EqExact, false)));
        assert_eq!(comparison(erlang("/=")), Some((Compare::Ne, false)));
        assert_eq!(comparison(erlang("element")), None);
        let lists = Export::intern(Atom::new("lists").unwrap(), Atom::new("<").unwrap(), 2);
        assert_eq!(comparison(lists), None);
    }
}
