//! Printing a parsed module in the notation of `erlc -S` listings.
//!
//! The `.beam` form of an instruction is not always the `.S` form; this
//! module rebuilds the `.S` form from the module's tables:
//!
//! - type tests (`is_eq_exact`, `test_arity`, `bs_test_unit`, ...) become
//!   `{test,Name,Fail,[Args]}`; tests with a live count and a destination
//!   (`bs_get_integer2`, `bs_start_match3`, ...) become
//!   `{test,Name,Fail,Live,[Args],Dst}`; `has_map_fields` becomes
//!   `{test,has_map_fields,Fail,Src,{list,Keys}}`.
//! - `bif0..2`, `gc_bif1..3`, the float operations and `raise` become
//!   `{bif,...}` and `{gc_bif,...}` with the BIF's name from the import table.
//! - import indices become `{extfunc,M,F,A}`; `line` indices become
//!   `[{location,File,Line}]`; string-table offsets become
//!   `{string,<<Bytes>>}`; `make_fun2`/`make_fun3` lambda indices become
//!   `{f,Label},Index,OldUniq`; bit-syntax flag words become
//!   `{field_flags,[little,signed,...]}` (bits that are zero, such as `big`
//!   and `unsigned`, are not listed).
//! - literal operands are printed by a pluggable [`LiteralPrinter`] (the
//!   ETF decoder's `~w` formatter), wrapped as `{float,F}` for floats,
//!   `{integer,N}` for bignums and `{literal,T}` for everything else, as the
//!   compiler writes them.
//!
//! `int_code_end`, which ends the code and has no `.S` form, is not printed.

use std::fmt::Write;

use super::functions::split_functions;
use super::instruction::Instruction;
use super::module::BeamFile;
use super::opcode::Opcode;
use super::operand::{AllocKind, Integer, Operand, Register};
use super::quote::{write_atom, write_string};

/// Turns a literal's raw External Term Format bytes into its `~w` text.
pub type LiteralPrinter<'a> = &'a dyn Fn(&[u8]) -> String;

/// A placeholder [`LiteralPrinter`] until the ETF decoder is wired in:
/// `<raw:` and the bytes in hex, then `>`.
pub fn raw_literal(etf: &[u8]) -> String {
    let mut s = String::with_capacity(6 + etf.len() * 2);
    s.push_str("<raw:");
    for b in etf {
        let _ = write!(s, "{b:02x}");
    }
    s.push('>');
    s
}

/// ETF tags that decide how a literal operand is wrapped.
const ETF_NEW_FLOAT: u8 = 70;
const ETF_SMALL_BIG: u8 = 110;
const ETF_LARGE_BIG: u8 = 111;

/// Bit-syntax flag bits and their names, in bit order.
const FIELD_FLAGS: &[(u64, &str)] = &[
    (0x01, "aligned"),
    (0x02, "little"),
    (0x04, "signed"),
    (0x08, "exact"),
    (0x10, "native"),
];

/// Prints one parsed module as a `.S`-style listing.
pub struct Disassembler<'a> {
    file: &'a BeamFile,
    literal: LiteralPrinter<'a>,
}

impl<'a> Disassembler<'a> {
    /// A disassembler for `file` that prints literals with `literal`.
    pub fn new(file: &'a BeamFile, literal: LiteralPrinter<'a>) -> Self {
        Disassembler { file, literal }
    }

    /// The whole listing: `{module,M}.`, `{exports,[...]}.`, `{labels,N}.`,
    /// then each function's `{function,Name,Arity,Entry}.` header and its
    /// instructions, one per line.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        self.write_listing(&mut out);
        out
    }

    /// Appends [`Disassembler::listing`] to `out`.
    pub fn write_listing(&self, out: &mut String) {
        let file = self.file;
        out.push_str("{module,");
        write_atom(out, file.module_name());
        out.push_str("}.\n");
        self.write_exports(out);
        let _ = writeln!(out, "{{labels,{}}}.", file.code.label_count);
        let instrs = &file.instructions;
        let spans = split_functions(instrs);
        let first = spans.first().map_or(instrs.len(), |s| s.range.start);
        for i in instrs[..first]
            .iter()
            .filter(|i| i.opcode != Opcode::IntCodeEnd)
        {
            self.write_line(out, i);
        }
        for span in &spans {
            out.push_str("\n{function,");
            write_atom(out, file.atom(span.name).unwrap_or(""));
            let _ = writeln!(out, ",{},{}}}.", span.arity, span.entry);
            for i in &instrs[span.range.clone()] {
                self.write_line(out, i);
            }
        }
    }

    fn write_exports(&self, out: &mut String) {
        let mut exports: Vec<(&str, u32)> = self
            .file
            .exports
            .iter()
            .map(|e| (self.file.atom(e.function).unwrap_or(""), e.arity))
            .collect();
        exports.sort_unstable();
        out.push_str("{exports,[");
        for (k, (name, arity)) in exports.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push('{');
            write_atom(out, name);
            let _ = write!(out, ",{arity}}}");
        }
        out.push_str("]}.\n");
    }

    fn write_line(&self, out: &mut String, instr: &Instruction) {
        out.push_str(if instr.opcode == Opcode::Label {
            "  "
        } else {
            "    "
        });
        self.write_instruction(out, instr);
        out.push_str(".\n");
    }

    /// One instruction in `.S` notation, without the final `.`.
    pub fn instruction(&self, instr: &Instruction) -> String {
        let mut out = String::new();
        self.write_instruction(&mut out, instr);
        out
    }

    /// One operand in `.S` notation.
    pub fn operand(&self, op: &Operand) -> String {
        let mut out = String::new();
        self.write_operand(&mut out, op);
        out
    }

    /// Appends [`Disassembler::instruction`] to `out`.
    pub fn write_instruction(&self, out: &mut String, instr: &Instruction) {
        use Opcode::*;
        let op = instr.opcode;
        let a = &instr.args;
        if a.len() != op.arity() {
            // Decoded instructions always have their arity; be safe anyway.
            return self.write_plain(out, op.name(), a, None);
        }
        let flags = field_flags_index(op);
        match op {
            IsLt | IsGe | IsEq | IsNe | IsEqExact | IsNeExact | IsInteger | IsFloat | IsNumber
            | IsAtom | IsPid | IsReference | IsPort | IsNil | IsBinary | IsConstant | IsList
            | IsNonemptyList | IsTuple | TestArity | IsFunction | IsBoolean | IsFunction2
            | BsSkipBits2 | BsTestTail2 | BsTestUnit | IsBitstr | BsSkipUtf8 | BsSkipUtf16
            | BsSkipUtf32 | IsMap | IsTaggedTuple => {
                out.push_str("{test,");
                out.push_str(op.name());
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push_str(",[");
                self.write_args(out, &a[1..], flags.map(|i| i - 1));
                out.push_str("]}");
            }
            BsMatchString => {
                out.push_str("{test,bs_match_string,");
                self.write_operand(out, &a[0]);
                out.push_str(",[");
                self.write_operand(out, &a[1]);
                out.push(',');
                self.write_operand(out, &a[2]);
                out.push(',');
                let bits = a[2].unsigned().unwrap_or(0);
                self.write_string_operand(out, &a[3], bits.div_ceil(8));
                out.push_str("]}");
            }
            HasMapFields => {
                out.push_str("{test,has_map_fields,");
                self.write_args(out, a, None);
                out.push('}');
            }
            BsStartMatch2 | BsGetInteger2 | BsGetFloat2 | BsGetBinary2 | BsGetUtf8 | BsGetUtf16
            | BsGetUtf32 | BsStartMatch3 => {
                // .beam order: Fail, Src, Live, Rest..., Dst.
                let n = a.len();
                out.push_str("{test,");
                out.push_str(op.name());
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push(',');
                self.write_operand(out, &a[2]);
                out.push_str(",[");
                self.write_operand(out, &a[1]);
                for (k, arg) in a[3..n - 1].iter().enumerate() {
                    out.push(',');
                    self.write_arg(out, arg, flags == Some(k + 3));
                }
                out.push_str("],");
                self.write_operand(out, &a[n - 1]);
                out.push('}');
            }
            Bif0 => {
                out.push_str("{bif,");
                self.write_bif_name(out, &a[0]);
                out.push_str(",{f,0},[],");
                self.write_operand(out, &a[1]);
                out.push('}');
            }
            Bif1 | Bif2 => {
                let n = a.len();
                out.push_str("{bif,");
                self.write_bif_name(out, &a[1]);
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push_str(",[");
                self.write_args(out, &a[2..n - 1], None);
                out.push_str("],");
                self.write_operand(out, &a[n - 1]);
                out.push('}');
            }
            GcBif1 | GcBif2 | GcBif3 => {
                let n = a.len();
                out.push_str("{gc_bif,");
                self.write_bif_name(out, &a[2]);
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push(',');
                self.write_operand(out, &a[1]);
                out.push_str(",[");
                self.write_args(out, &a[3..n - 1], None);
                out.push_str("],");
                self.write_operand(out, &a[n - 1]);
                out.push('}');
            }
            Fadd | Fsub | Fmul | Fdiv | Fnegate => {
                let n = a.len();
                out.push_str("{bif,");
                out.push_str(op.name());
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push_str(",[");
                self.write_args(out, &a[1..n - 1], None);
                out.push_str("],");
                self.write_operand(out, &a[n - 1]);
                out.push('}');
            }
            Raise => {
                out.push_str("{bif,raise,{f,0},[");
                self.write_args(out, a, None);
                out.push_str("],{x,0}}");
            }
            CallExt | CallExtLast | CallExtOnly => {
                out.push('{');
                out.push_str(op.name());
                out.push(',');
                self.write_operand(out, &a[0]);
                out.push(',');
                self.write_import(out, &a[1]);
                for arg in &a[2..] {
                    out.push(',');
                    self.write_operand(out, arg);
                }
                out.push('}');
            }
            MakeFun2 | MakeFun3 => {
                out.push('{');
                out.push_str(op.name());
                out.push(',');
                match self.lambda(&a[0]) {
                    Some(l) => {
                        let _ = write!(out, "{{f,{}}},{},{}", l.label, l.index, l.old_uniq);
                        if op == MakeFun2 {
                            let _ = write!(out, ",{}", l.num_free);
                        }
                    }
                    None => self.write_operand(out, &a[0]),
                }
                for arg in &a[1..] {
                    out.push(',');
                    self.write_operand(out, arg);
                }
                out.push('}');
            }
            CallFun2 => {
                out.push_str("{call_fun2,");
                match (&a[0], self.lambda(&a[0])) {
                    (Operand::Unsigned(_), Some(l)) => {
                        let _ = write!(out, "{{f,{}}}", l.label);
                    }
                    _ => self.write_operand(out, &a[0]),
                }
                for arg in &a[1..] {
                    out.push(',');
                    self.write_operand(out, arg);
                }
                out.push('}');
            }
            Line | ExecutableLine => {
                out.push('{');
                out.push_str(op.name());
                out.push(',');
                self.write_location(out, &a[0]);
                for arg in &a[1..] {
                    out.push(',');
                    self.write_operand(out, arg);
                }
                out.push('}');
            }
            BsPutString => {
                out.push_str("{bs_put_string,");
                self.write_operand(out, &a[0]);
                out.push(',');
                self.write_string_operand(out, &a[1], a[0].unsigned().unwrap_or(0));
                out.push('}');
            }
            BsCreateBin => {
                out.push_str("{bs_create_bin,");
                self.write_args(out, &a[..5], None);
                out.push(',');
                self.write_segments(out, &a[5]);
                out.push('}');
            }
            _ => self.write_plain(out, op.name(), a, flags),
        }
    }

    /// `{name,Arg,...}`, or the bare name for no operands.
    fn write_plain(&self, out: &mut String, name: &str, args: &[Operand], flags: Option<usize>) {
        if args.is_empty() {
            write_atom(out, name);
            return;
        }
        out.push('{');
        write_atom(out, name);
        out.push(',');
        self.write_args(out, args, flags);
        out.push('}');
    }

    fn write_args(&self, out: &mut String, args: &[Operand], flags: Option<usize>) {
        for (k, arg) in args.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            self.write_arg(out, arg, flags == Some(k));
        }
    }

    fn write_arg(&self, out: &mut String, arg: &Operand, is_flags: bool) {
        match arg {
            Operand::Unsigned(bits) if is_flags => write_field_flags(out, *bits),
            _ => self.write_operand(out, arg),
        }
    }

    /// Appends [`Disassembler::operand`] to `out`.
    pub fn write_operand(&self, out: &mut String, op: &Operand) {
        match op {
            Operand::Unsigned(n) => {
                let _ = write!(out, "{n}");
            }
            Operand::Integer(n) => {
                let _ = write!(out, "{{integer,{n}}}");
            }
            Operand::Atom(i) => {
                out.push_str("{atom,");
                write_atom(out, self.file.atom(*i).unwrap_or(""));
                out.push('}');
            }
            Operand::Nil => out.push_str("nil"),
            Operand::X(n) => {
                let _ = write!(out, "{{x,{n}}}");
            }
            Operand::Y(n) => {
                let _ = write!(out, "{{y,{n}}}");
            }
            Operand::Label(n) => {
                let _ = write!(out, "{{f,{n}}}");
            }
            Operand::Char(n) => {
                let _ = write!(out, "{{char,{n}}}");
            }
            Operand::Float(f) => {
                out.push_str("{float,");
                out.push_str(&format_float(*f));
                out.push('}');
            }
            Operand::List(items) => {
                out.push_str("{list,[");
                self.write_args(out, items, None);
                out.push_str("]}");
            }
            Operand::FloatReg(n) => {
                let _ = write!(out, "{{fr,{n}}}");
            }
            Operand::AllocList(items) => {
                out.push_str("{alloc,[");
                for (k, (kind, n)) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    let name = match kind {
                        AllocKind::Words => "words",
                        AllocKind::Floats => "floats",
                        AllocKind::Funs => "funs",
                    };
                    let _ = write!(out, "{{{name},{n}}}");
                }
                out.push_str("]}");
            }
            Operand::Literal(i) => self.write_literal(out, *i),
            Operand::TypedReg { reg, type_index } => {
                out.push_str("{tr,");
                match reg {
                    Register::X(n) => {
                        let _ = write!(out, "{{x,{n}}}");
                    }
                    Register::Y(n) => {
                        let _ = write!(out, "{{y,{n}}}");
                    }
                }
                let _ = write!(out, ",{type_index}}}");
            }
        }
    }

    fn write_literal(&self, out: &mut String, index: u32) {
        let Some(etf) = self.file.literals.get(index) else {
            let _ = write!(out, "{{literal,{{bad_index,{index}}}}}");
            return;
        };
        let wrapper = match etf.get(1) {
            Some(&ETF_NEW_FLOAT) => "float",
            Some(&ETF_SMALL_BIG | &ETF_LARGE_BIG) => "integer",
            _ => "literal",
        };
        out.push('{');
        out.push_str(wrapper);
        out.push(',');
        out.push_str(&(self.literal)(etf));
        out.push('}');
    }

    fn lambda(&self, op: &Operand) -> Option<&super::funs::Lambda> {
        let i = usize::try_from(op.unsigned()?).ok()?;
        self.file.funs.get(i)
    }

    fn write_bif_name(&self, out: &mut String, op: &Operand) {
        let import = op
            .unsigned()
            .and_then(|i| self.file.imports.get(usize::try_from(i).ok()?));
        match import.and_then(|imp| self.file.atom(imp.function)) {
            Some(name) => write_atom(out, name),
            None => self.write_operand(out, op),
        }
    }

    fn write_import(&self, out: &mut String, op: &Operand) {
        let import = op
            .unsigned()
            .and_then(|i| self.file.imports.get(usize::try_from(i).ok()?));
        let names = import.and_then(|imp| {
            Some((
                self.file.atom(imp.module)?,
                self.file.atom(imp.function)?,
                imp.arity,
            ))
        });
        match names {
            Some((m, f, arity)) => {
                out.push_str("{extfunc,");
                write_atom(out, m);
                out.push(',');
                write_atom(out, f);
                let _ = write!(out, ",{arity}}}");
            }
            None => self.write_operand(out, op),
        }
    }

    fn write_location(&self, out: &mut String, op: &Operand) {
        let Some(index) = op.unsigned() else {
            return self.write_operand(out, op);
        };
        if index == 0 {
            out.push_str("[]");
            return;
        }
        match self.file.lines.location(index, self.file.module_name()) {
            Some((file, line)) => {
                out.push_str("[{location,");
                write_string(out, &file);
                let _ = write!(out, ",{line}}}]");
            }
            None => self.write_operand(out, op),
        }
    }

    /// `{string,<<Bytes>>}` for the `len` bytes at string-table offset `op`.
    fn write_string_operand(&self, out: &mut String, op: &Operand, len: u64) {
        let bytes = op
            .unsigned()
            .and_then(|off| self.file.strings.get(off, len));
        match bytes {
            Some(bytes) => {
                out.push_str("{string,<<");
                for (k, b) in bytes.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{b}");
                }
                out.push_str(">>}");
            }
            None => self.write_operand(out, op),
        }
    }

    /// The segment list of `bs_create_bin`: groups of six operands (type,
    /// segment number, unit, flags, source, size); a `string` segment's
    /// source is a string-table offset and its size counts units.
    fn write_segments(&self, out: &mut String, op: &Operand) {
        let Operand::List(items) = op else {
            return self.write_operand(out, op);
        };
        out.push_str("{list,[");
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let seg = &items[k - k % 6..];
            let is_string = k % 6 == 4
                && seg.len() >= 6
                && matches!(seg[0], Operand::Atom(a) if self.file.atom(a) == Some("string"));
            if is_string {
                let unit = seg[2].unsigned().unwrap_or(8);
                let size = match &seg[5] {
                    Operand::Integer(Integer::Small(n)) => u64::try_from(*n).unwrap_or(0),
                    _ => 0,
                };
                let len = size.saturating_mul(unit).div_ceil(8);
                self.write_string_operand(out, item, len);
            } else {
                self.write_operand(out, item);
            }
        }
        out.push_str("]}");
    }
}

/// The position (in `.beam` operand order) of the bit-syntax flags operand.
fn field_flags_index(op: Opcode) -> Option<usize> {
    use Opcode::*;
    match op {
        BsGetInteger2 | BsGetFloat2 | BsGetBinary2 => Some(5),
        BsSkipBits2 | BsInit2 | BsInitBits | BsPrivateAppend => Some(4),
        BsGetUtf8 | BsGetUtf16 | BsGetUtf32 | BsSkipUtf8 | BsSkipUtf16 | BsSkipUtf32 => Some(3),
        BsPutInteger | BsPutBinary | BsPutFloat => Some(3),
        BsPutUtf8 | BsPutUtf16 | BsPutUtf32 => Some(1),
        BsAppend => Some(6),
        _ => None,
    }
}

/// `{field_flags,[little,...]}`, or `{field_flags,N}` with unknown bits.
fn write_field_flags(out: &mut String, bits: u64) {
    let known: u64 = FIELD_FLAGS.iter().map(|(b, _)| b).sum();
    if bits & !known != 0 {
        let _ = write!(out, "{{field_flags,{bits}}}");
        return;
    }
    out.push_str("{field_flags,[");
    let mut first = true;
    for (bit, name) in FIELD_FLAGS {
        if bits & bit != 0 {
            if !first {
                out.push(',');
            }
            out.push_str(name);
            first = false;
        }
    }
    out.push_str("]}");
}

/// A float in Erlang's shortest round-trip notation (`2.5`, `1.0e100`).
fn format_float(f: f64) -> String {
    if !f.is_finite() {
        return format!("{f}");
    }
    let abs = f.abs();
    if abs == 0.0 || (1e-4..1e21).contains(&abs) {
        let s = format!("{f}");
        if s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        if mantissa.contains('.') {
            format!("{mantissa}e{exp}")
        } else {
            format!("{mantissa}.0e{exp}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_floats() {
        let mut s = String::new();
        write_field_flags(&mut s, 6);
        assert_eq!(s, "{field_flags,[little,signed]}");
        assert_eq!(format_float(2.5), "2.5");
        assert_eq!(format_float(1e100), "1.0e100");
        assert_eq!(format_float(-0.0), "-0.0");
        assert_eq!(raw_literal(&[131, 106]), "<raw:836a>");
    }
}
