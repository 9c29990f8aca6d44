//! Binary construction (`bs_create_bin`) and matching (`bs_start_match*`,
//! `bs_get_*`, `bs_skip_*`, `bs_test_*`, `bs_match_string`, positions,
//! UTF-8/16/32), as OTP 25's erlc emits them, and OTP 26's `bs_match`
//! (its commands are lowered in [`bs_match`](super::bs_match)).
//!
//! Lowered here into [`BsInstr`]; executed by `interp::ops::bs`. Constant
//! segment sizes are multiplied by their unit at load time ([`Size::Bits`]);
//! `native` endianness is resolved to the host's; strings move out of the
//! string table into the instruction.

use beamr_core::atom::Atom;
use beamr_core::beam::{Instruction, Integer, Opcode, Operand};
use beamr_core::term::Term;

use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, SrcKind, Target};

/// Segment flag: little-endian (after resolving `native`).
pub const LITTLE: u8 = 1;
/// Segment flag: signed.
pub const SIGNED: u8 = 2;

/// The size of a segment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Size {
    /// A constant size, already multiplied by the unit: bits.
    Bits(usize),
    /// `all`: the rest of the binary (matching) or the whole value
    /// (construction), which must be a multiple of the unit.
    All(u32),
    /// A size read at run time, in units of `unit` bits.
    Var(Src, u32),
    /// A constant size that is not valid (negative, not an integer): the
    /// segment always fails (match) or raises `badarg` (construction).
    Bad,
    /// A constant size too large to represent: `system_limit` in construction.
    Huge,
    /// No size (`undefined`, for UTF segments).
    None,
}

/// The type of a construction segment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SegKind {
    /// `integer`
    Integer,
    /// `float`
    Float,
    /// `binary` or `bitstring`
    Binary,
    /// `utf8`
    Utf8,
    /// `utf16`
    Utf16,
    /// `utf32`
    Utf32,
    /// A literal string from the string table.
    String,
    /// `append`: the binary the rest is appended to (always first).
    Append,
    /// `private_append`: as `append`, for a binary known to be unshared.
    PrivateAppend,
}

/// One segment of `bs_create_bin`.
#[derive(Debug)]
pub struct Segment {
    /// Its type.
    pub kind: SegKind,
    /// Its type as the compiler named it (for error reports).
    pub type_name: Atom,
    /// Its number in the source expression, from 1 (for error reports).
    pub number: u32,
    /// The unit in bits.
    pub unit: u32,
    /// [`LITTLE`] and [`SIGNED`] bits.
    pub flags: u8,
    /// The value.
    pub src: Src,
    /// The size.
    pub size: Size,
    /// The bytes of a `String` segment (empty otherwise).
    pub string: Box<[u8]>,
}

/// `bs_create_bin`: builds a binary from segments.
#[derive(Debug)]
pub struct CreateBin {
    /// Where to go on failure; NONE raises.
    pub fail: Target,
    /// Live X registers (GC roots).
    pub live: u32,
    /// The result register.
    pub dst: Dst,
    /// The segments, in order.
    pub segments: Box<[Segment]>,
    /// The fast form, when the segments have its shape (see [`AppendInts`]).
    pub append_ints: Option<AppendInts>,
}

/// The shape of `<<Bin/binary, I1:S1, ..., In:Sn>>` in which every `Ii` is
/// an integer segment of a constant size of 1 to 8 whole bytes: the
/// appends of a loop that builds a binary, which the interpreter tries
/// first (the BEAM's `i_bs_append` with its integer puts). It writes the
/// integers byte-wise into a writable binary's spare room, and only when
/// the generic path would do the same: `Bin` is the latest version of a
/// writable binary with room, and every integer is a small. Anything else
/// (the first append of a loop, a shared binary, a bignum, a bad value that
/// raises) takes the generic path, which makes the same checks and raises
/// the same errors as without this form.
#[derive(Debug)]
pub struct AppendInts {
    /// The binary appended to.
    pub head: Src,
    /// Its unit (at least 1): its size must be a multiple of it.
    pub unit: u32,
    /// Bytes the integers take in all.
    pub bytes: usize,
    /// The integers, in order.
    pub ints: Box<[IntBytes]>,
    /// The packed form, when the binary and every integer are in X
    /// registers, the integers are big-endian and take at most 8 bytes in
    /// all, and the unit is a power of two: the integers are put together
    /// in one word and stored at once.
    pub packed: Option<PackedInts>,
}

/// The packed form of [`AppendInts`].
#[derive(Copy, Clone, Debug)]
pub struct PackedInts {
    /// The X register of the binary appended to.
    pub head: u32,
    /// Its unit less one (the unit is a power of two).
    pub unit_mask: u32,
    /// How many of `ints` are used.
    pub len: u8,
    /// The X register and size in bytes of each integer, in order.
    pub ints: [(u32, u8); 8],
}

impl PackedInts {
    /// The integers.
    #[inline(always)]
    pub fn ints(&self) -> &[(u32, u8)] {
        &self.ints[..self.len as usize]
    }

    /// The packed form of an append of `ints` to the binary in `head`, if
    /// it has one.
    fn of(head: Src, unit: u32, ints: &[IntBytes]) -> Option<PackedInts> {
        let x = |s: Src| match s.kind() {
            SrcKind::X(n) => u32::try_from(n).ok(),
            _ => None,
        };
        let bytes: usize = ints.iter().map(|i| i.bytes as usize).sum();
        if bytes > 8 || !unit.is_power_of_two() || ints.iter().any(|i| i.little) {
            return None;
        }
        let mut packed = PackedInts {
            head: x(head)?,
            unit_mask: unit - 1,
            len: ints.len() as u8,
            ints: [(0, 0); 8],
        };
        for (slot, i) in packed.ints.iter_mut().zip(ints) {
            *slot = (x(i.src)?, i.bytes);
        }
        Some(packed)
    }
}

/// One integer segment of [`AppendInts`].
#[derive(Copy, Clone, Debug)]
pub struct IntBytes {
    /// The value.
    pub src: Src,
    /// Its size in bytes, 1 to 8.
    pub bytes: u8,
    /// Little-endian (else big-endian).
    pub little: bool,
}

impl AppendInts {
    /// The fast form of `segments`, if they have its shape.
    fn recognise(segments: &[Segment]) -> Option<AppendInts> {
        let (head, rest) = segments.split_first()?;
        let Size::All(unit) = head.size else {
            return None;
        };
        if !matches!(head.kind, SegKind::Append | SegKind::PrivateAppend) || rest.is_empty() {
            return None;
        }
        let ints = rest
            .iter()
            .map(|seg| match (seg.kind, seg.size) {
                (SegKind::Integer, Size::Bits(n)) if n % 8 == 0 && (8..=64).contains(&n) => {
                    Some(IntBytes {
                        src: seg.src,
                        bytes: (n / 8) as u8,
                        little: seg.flags & LITTLE != 0,
                    })
                }
                _ => None,
            })
            .collect::<Option<Box<[IntBytes]>>>()?;
        let unit = unit.max(1);
        Some(AppendInts {
            head: head.src,
            unit,
            bytes: ints.iter().map(|i| i.bytes as usize).sum(),
            packed: PackedInts::of(head.src, unit, &ints),
            ints,
        })
    }
}

/// The head of an OTP 25 matching loop, fused into one instruction
/// ([`Instr::BsMatchInts`](super::Instr::BsMatchInts)): an optional
/// `bs_start_match*` (with the `bs_get_position` of its context), one to
/// [`MatchInts::MAX_INTS`] `bs_get_integer2` of constant sizes up to 64
/// bits, and an optional `bs_test_unit`, all on one context in an X
/// register and failing to one label. It does what the instructions do one
/// after another, in their order: a get that does not fit leaves the
/// earlier gets' registers and position in place and jumps. The
/// instructions it absorbs stay in place after it, for jumps that land on
/// them (see `specialise`).
#[derive(Debug)]
pub struct MatchInts {
    /// The `bs_start_match*` at the head, if the run begins with one.
    pub start: Option<MatchStart>,
    /// Where a get or the unit test goes when it fails, relative to the
    /// fused instruction.
    pub fail: Target,
    /// The context's X register.
    pub ctx: u32,
    /// The unit test after the gets (1 when there is none: every size
    /// passes it).
    pub unit: u32,
    /// Instructions the fused one stands for, itself included.
    pub span: u32,
    /// Bits the integers take in all.
    pub bits: u32,
    /// True when every integer is unsigned and big-endian, of 1 to 59
    /// bits (a small integer whatever its value), and they take at most 64
    /// bits in all: at a byte position, one 8-byte load holds them all.
    pub packed: bool,
    /// How many of `ints` are used.
    pub len: u8,
    /// The integers, in order.
    pub ints: [MatchInt; MatchInts::MAX_INTS],
}

/// The `bs_start_match*` of [`MatchInts`].
#[derive(Copy, Clone, Debug)]
pub struct MatchStart {
    /// Where to go when `src` is not a bitstring; NONE raises `badarg`.
    pub fail: Target,
    /// Live X registers.
    pub live: u32,
    /// The X register of the binary or context.
    pub src: u32,
    /// The X register that the following `bs_get_position` writes, if it
    /// follows.
    pub pos: Option<u32>,
}

/// One integer of [`MatchInts`].
#[derive(Copy, Clone, Debug, Default)]
pub struct MatchInt {
    /// Its size in bits, at most 64.
    pub bits: u8,
    /// [`LITTLE`], [`SIGNED`].
    pub flags: u8,
    /// The X register it goes to.
    pub dst: u32,
}

impl MatchInts {
    /// Most integers one fused instruction reads.
    pub const MAX_INTS: usize = 4;

    /// The integers read.
    #[inline(always)]
    pub fn ints(&self) -> &[MatchInt] {
        &self.ints[..self.len as usize]
    }
}

/// Which UTF encoding a `bs_get_utf*`/`bs_skip_utf*` reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Utf {
    /// UTF-8.
    Utf8,
    /// UTF-16 (flags give the endianness).
    Utf16,
    /// UTF-32 (flags give the endianness).
    Utf32,
}

/// What a `bs_get_*2` instruction extracts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GetKind {
    /// An integer.
    Integer,
    /// A float.
    Float,
    /// A sub-binary.
    Binary,
}

/// An executable bs instruction.
#[derive(Debug)]
pub enum BsInstr {
    /// `bs_create_bin`.
    Create(CreateBin),
    /// `bs_start_match3`/`bs_start_match4`: a match context for a binary
    /// (or the same context again).
    StartMatch {
        /// Where to go when `src` is not a bitstring; NONE raises `badarg`.
        fail: Target,
        /// Live X registers.
        live: u32,
        /// The binary or context.
        src: Src,
        /// The context register.
        dst: Dst,
    },
    /// `bs_get_position`: the context's position as an integer.
    GetPosition {
        /// The context.
        ctx: Src,
        /// Destination.
        dst: Dst,
    },
    /// `bs_set_position`: restores a position read by `GetPosition`.
    SetPosition {
        /// The context.
        ctx: Src,
        /// The position.
        pos: Src,
    },
    /// `bs_get_tail`: the rest of the context as a sub-binary.
    GetTail {
        /// The context.
        ctx: Src,
        /// Destination.
        dst: Dst,
    },
    /// `bs_get_integer2`/`bs_get_float2`/`bs_get_binary2`.
    Get {
        /// What is extracted.
        kind: GetKind,
        /// Where to go when it does not match.
        fail: Target,
        /// The context.
        ctx: Src,
        /// The size.
        size: Size,
        /// [`LITTLE`], [`SIGNED`].
        flags: u8,
        /// Destination.
        dst: Dst,
    },
    /// `bs_skip_bits2`.
    Skip {
        /// Where to go when it does not match.
        fail: Target,
        /// The context.
        ctx: Src,
        /// The size.
        size: Size,
    },
    /// `bs_test_tail2`: exactly `bits` bits remain.
    TestTail {
        /// Where to go otherwise.
        fail: Target,
        /// The context.
        ctx: Src,
        /// Bits that must remain.
        bits: usize,
    },
    /// `bs_test_unit`: the bits remaining are a multiple of `unit`.
    TestUnit {
        /// Where to go otherwise.
        fail: Target,
        /// The context.
        ctx: Src,
        /// The unit.
        unit: usize,
    },
    /// `bs_match_string`: the next `bits` bits equal `bytes`'s first bits.
    MatchString {
        /// Where to go otherwise.
        fail: Target,
        /// The context.
        ctx: Src,
        /// Number of bits compared.
        bits: usize,
        /// The string.
        bytes: Box<[u8]>,
    },
    /// `bs_get_utf8/16/32` (with `dst`) and `bs_skip_utf8/16/32` (without).
    Utf {
        /// The encoding.
        utf: Utf,
        /// Where to go when no valid character is next.
        fail: Target,
        /// The context.
        ctx: Src,
        /// [`LITTLE`].
        flags: u8,
        /// Destination; None for a skip.
        dst: Option<Dst>,
    },
    /// `bs_init_writable`: x0 becomes an empty writable binary with room
    /// for x0 bytes (the start of a binary comprehension).
    InitWritable,
    /// `bs_context_to_binary`: replaces a context in a register with the
    /// binary it matches, from where the match began.
    ContextToBinary {
        /// The register.
        reg: Dst,
    },
    /// `bs_match` (OTP 26): a list of commands (see [`bs_match`](super::bs_match)).
    Match(super::bs_match::BsMatch),
}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::BsCreateBin
            | O::BsStartMatch3
            | O::BsStartMatch4
            | O::BsGetPosition
            | O::BsSetPosition
            | O::BsGetTail
            | O::BsGetInteger2
            | O::BsGetFloat2
            | O::BsGetBinary2
            | O::BsSkipBits2
            | O::BsTestTail2
            | O::BsTestUnit
            | O::BsMatchString
            | O::BsGetUtf8
            | O::BsGetUtf16
            | O::BsGetUtf32
            | O::BsSkipUtf8
            | O::BsSkipUtf16
            | O::BsSkipUtf32
            | O::BsContextToBinary
            | O::BsInitWritable
            | O::BsMatch
    )
}

/// Field-flag bits of the `.beam` encoding.
const FLAG_LITTLE: u64 = 0x02;
const FLAG_SIGNED: u64 = 0x04;
const FLAG_NATIVE: u64 = 0x10;

fn flags_from_bits(bits: u64) -> u8 {
    let little =
        bits & FLAG_LITTLE != 0 || (bits & FLAG_NATIVE != 0 && cfg!(target_endian = "little"));
    let mut f = 0;
    if little {
        f |= LITTLE;
    }
    if bits & FLAG_SIGNED != 0 {
        f |= SIGNED;
    }
    f
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_bs(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<BsInstr, LoadError> {
        use Opcode as O;
        Ok(match ins.opcode {
            O::BsCreateBin => self.lower_create(ins, here)?,
            O::BsStartMatch3 => BsInstr::StartMatch {
                fail: self.bs_fail(ins, 0, here)?,
                src: self.src(ins, 1)?,
                live: self.live(ins, 2)?,
                dst: self.dst(ins, 3)?,
            },
            O::BsStartMatch4 => BsInstr::StartMatch {
                fail: self.bs_fail(ins, 0, here)?,
                live: self.live(ins, 1)?,
                src: self.src(ins, 2)?,
                dst: self.dst(ins, 3)?,
            },
            O::BsGetPosition => BsInstr::GetPosition {
                ctx: self.src(ins, 0)?,
                dst: self.dst(ins, 1)?,
            },
            O::BsSetPosition => BsInstr::SetPosition {
                ctx: self.src(ins, 0)?,
                pos: self.src(ins, 1)?,
            },
            O::BsGetTail => BsInstr::GetTail {
                ctx: self.src(ins, 0)?,
                dst: self.dst(ins, 1)?,
            },
            O::BsGetInteger2 | O::BsGetFloat2 | O::BsGetBinary2 => {
                let unit = self.unsigned(ins, 4)? as u32;
                BsInstr::Get {
                    kind: match ins.opcode {
                        O::BsGetInteger2 => GetKind::Integer,
                        O::BsGetFloat2 => GetKind::Float,
                        _ => GetKind::Binary,
                    },
                    fail: self.target(ins, 0, here)?,
                    ctx: self.src(ins, 1)?,
                    size: self.size(ins, 3, unit)?,
                    flags: flags_from_bits(self.flag_bits(ins, 5)?),
                    dst: self.dst(ins, 6)?,
                }
            }
            O::BsSkipBits2 => {
                let unit = self.unsigned(ins, 3)? as u32;
                BsInstr::Skip {
                    fail: self.target(ins, 0, here)?,
                    ctx: self.src(ins, 1)?,
                    size: self.size(ins, 2, unit)?,
                }
            }
            O::BsTestTail2 => BsInstr::TestTail {
                fail: self.target(ins, 0, here)?,
                ctx: self.src(ins, 1)?,
                // A size past a u64 (erlc 25 writes one for
                // `<<_:(1 bsl 64)>>`) is never the bits left.
                bits: match self.arg(ins, 2)? {
                    Operand::Integer(Integer::Big(n)) if n.sign() == num_bigint::Sign::Plus => {
                        usize::MAX
                    }
                    _ => self.unsigned(ins, 2)? as usize,
                },
            },
            O::BsTestUnit => BsInstr::TestUnit {
                fail: self.target(ins, 0, here)?,
                ctx: self.src(ins, 1)?,
                unit: (self.unsigned(ins, 2)? as usize).max(1),
            },
            O::BsMatchString => {
                let bits = self.unsigned(ins, 2)?;
                let offset = self.unsigned(ins, 3)?;
                let bytes = self.string_bytes(ins, offset, bits.div_ceil(8))?;
                BsInstr::MatchString {
                    fail: self.target(ins, 0, here)?,
                    ctx: self.src(ins, 1)?,
                    bits: bits as usize,
                    bytes,
                }
            }
            O::BsGetUtf8 | O::BsGetUtf16 | O::BsGetUtf32 => BsInstr::Utf {
                utf: utf_of(ins.opcode),
                fail: self.target(ins, 0, here)?,
                ctx: self.src(ins, 1)?,
                flags: flags_from_bits(self.flag_bits(ins, 3)?),
                dst: Some(self.dst(ins, 4)?),
            },
            O::BsSkipUtf8 | O::BsSkipUtf16 | O::BsSkipUtf32 => BsInstr::Utf {
                utf: utf_of(ins.opcode),
                fail: self.target(ins, 0, here)?,
                ctx: self.src(ins, 1)?,
                flags: flags_from_bits(self.flag_bits(ins, 3)?),
                dst: None,
            },
            O::BsInitWritable => BsInstr::InitWritable,
            O::BsMatch => BsInstr::Match(self.lower_bs_match(ins, here)?),
            O::BsContextToBinary => BsInstr::ContextToBinary {
                reg: self.dst(ins, 0)?,
            },
            _ => {
                return Err(LoadError::Unsupported {
                    module: self.module.name().to_string(),
                    opcode: ins.opcode.name(),
                    offset: ins.offset,
                })
            }
        })
    }

    /// A fail operand that may be a label or `{atom,no_fail}`/`{atom,resume}`.
    fn bs_fail(&self, ins: &Instruction, i: usize, here: usize) -> Result<Target, LoadError> {
        match self.arg(ins, i)? {
            Operand::Atom(_) => Ok(Target::NONE),
            _ => self.target(ins, i, here),
        }
    }

    fn flag_bits(&mut self, ins: &Instruction, i: usize) -> Result<u64, LoadError> {
        let op = self.arg(ins, i)?.clone();
        self.flags_of(ins, op)
    }

    /// Segment flags ([`LITTLE`], [`SIGNED`]) from a flags operand.
    pub(super) fn flags_of_operand(
        &mut self,
        ins: &Instruction,
        op: Operand,
    ) -> Result<u8, LoadError> {
        Ok(flags_from_bits(self.flags_of(ins, op)?))
    }

    fn flags_of(&mut self, ins: &Instruction, op: Operand) -> Result<u64, LoadError> {
        match op {
            Operand::Unsigned(n) => Ok(n),
            Operand::Integer(Integer::Small(n)) if n >= 0 => Ok(n as u64),
            Operand::Nil => Ok(0),
            op @ Operand::Literal(_) => {
                let list = self.src_of(ins, &op)?.term();
                let mut bits = 0;
                for item in list.iter_list() {
                    match item.as_atom().map(Atom::name) {
                        Some("little") => bits |= FLAG_LITTLE,
                        Some("signed") => bits |= FLAG_SIGNED,
                        Some("native") => bits |= FLAG_NATIVE,
                        _ => {}
                    }
                }
                Ok(bits)
            }
            other => Err(self.err(ins, format!("bad field flags {other:?}"))),
        }
    }

    /// A size operand with its unit.
    fn size_of(&mut self, ins: &Instruction, op: &Operand, unit: u32) -> Result<Size, LoadError> {
        Ok(match op {
            Operand::Atom(_) => match self.src_of(ins, op)?.term().as_atom().map(Atom::name) {
                Some("all") => Size::All(unit),
                Some("undefined") => Size::None,
                _ => Size::Bad,
            },
            Operand::Integer(Integer::Small(n)) => match usize::try_from(*n) {
                Ok(n) => match n.checked_mul(unit as usize) {
                    Some(bits) if bits < 1 << 56 => Size::Bits(bits),
                    _ => Size::Huge,
                },
                Err(_) => Size::Bad,
            },
            Operand::Unsigned(n) => match (*n as usize).checked_mul(unit as usize) {
                Some(bits) if bits < 1 << 56 => Size::Bits(bits),
                _ => Size::Huge,
            },
            Operand::Integer(Integer::Big(b)) => {
                if b.sign() == num_bigint::Sign::Minus {
                    Size::Bad
                } else {
                    Size::Huge
                }
            }
            Operand::X(_) | Operand::Y(_) | Operand::TypedReg { .. } => {
                Size::Var(self.src_of(ins, op)?, unit)
            }
            Operand::Literal(_) => {
                let t = self.src_of(ins, op)?.term();
                match t.as_small() {
                    Some(n) if n >= 0 => Size::Bits(n as usize * unit as usize),
                    _ if t.as_big().is_some_and(|b| !b.negative) => Size::Huge,
                    _ => Size::Bad,
                }
            }
            _ => Size::Bad,
        })
    }

    fn size(&mut self, ins: &Instruction, i: usize, unit: u32) -> Result<Size, LoadError> {
        let op = self.arg(ins, i)?.clone();
        self.size_of(ins, &op, unit)
    }

    fn string_bytes(
        &self,
        ins: &Instruction,
        offset: u64,
        len: u64,
    ) -> Result<Box<[u8]>, LoadError> {
        if len == 0 {
            return Ok(Box::new([]));
        }
        self.file
            .strings
            .get(offset, len)
            .map(Into::into)
            .ok_or_else(|| {
                self.err(
                    ins,
                    format!("string {offset}+{len} outside the string table"),
                )
            })
    }

    fn lower_create(&mut self, ins: &Instruction, here: usize) -> Result<BsInstr, LoadError> {
        let fail = self.target(ins, 0, here)?;
        let live = self.live(ins, 2)?;
        let dst = self.dst(ins, 4)?;
        let items = self.groups(ins, 5, 6, "segment list is not groups of six")?;
        let mut segments = Vec::with_capacity(items.len() / 6);
        for seg in items.chunks(6) {
            let kind_name = match &seg[0] {
                Operand::Atom(_) => self.src_of(ins, &seg[0])?.term().as_atom().map(Atom::name),
                _ => None,
            };
            let kind = match kind_name {
                Some("integer") => SegKind::Integer,
                Some("float") => SegKind::Float,
                Some("binary") | Some("bitstring") => SegKind::Binary,
                Some("utf8") => SegKind::Utf8,
                Some("utf16") => SegKind::Utf16,
                Some("utf32") => SegKind::Utf32,
                Some("string") => SegKind::String,
                Some("append") => SegKind::Append,
                Some("private_append") => SegKind::PrivateAppend,
                _ => return Err(self.err(ins, format!("unknown segment type {:?}", seg[0]))),
            };
            let unit = self.unsigned_of(ins, &seg[2], format_args!("segment unit"))? as u32;
            let flags = flags_from_bits(self.flags_of(ins, seg[3].clone())?);
            let (src, size, string) = if kind == SegKind::String {
                let offset = self.unsigned_of(ins, &seg[4], format_args!("string offset"))?;
                let units = self.unsigned_of(ins, &seg[5], format_args!("string size"))?;
                let bits = units * unit.max(1) as u64;
                let bytes = self.string_bytes(ins, offset, bits.div_ceil(8))?;
                (Src::constant(Term::NIL), Size::Bits(bits as usize), bytes)
            } else {
                let src = self.src_of(ins, &seg[4])?;
                let size = self.size_of(ins, &seg[5], unit.max(1))?;
                (src, size, Box::default())
            };
            let number = self
                .unsigned_of(ins, &seg[1], format_args!("segment number"))
                .map_or(0, |n| n as u32);
            segments.push(Segment {
                kind,
                // Appends are binary segments to the programmer, and in OTP's reports.
                type_name: match kind {
                    SegKind::Append | SegKind::PrivateAppend => Atom::new("binary").expect("atom"),
                    _ => kind_name
                        .and_then(|n| Atom::new_within_limit(n).ok())
                        .unwrap_or(Atom::UNDEFINED),
                },
                number,
                unit,
                flags,
                src,
                size,
                string,
            });
        }
        Ok(BsInstr::Create(CreateBin {
            fail,
            live,
            dst,
            append_ints: AppendInts::recognise(&segments),
            segments: segments.into_boxed_slice(),
        }))
    }
}

fn utf_of(op: Opcode) -> Utf {
    match op {
        Opcode::BsGetUtf8 | Opcode::BsSkipUtf8 => Utf::Utf8,
        Opcode::BsGetUtf16 | Opcode::BsSkipUtf16 => Utf::Utf16,
        _ => Utf::Utf32,
    }
}
