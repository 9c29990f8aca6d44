//! Execution of [`BsInstr`](crate::loader::bs::BsInstr) instructions:
//! binary construction and matching.
//!
//! # Matching
//!
//! `bs_start_match*` makes a match context over the heap or refc binary
//! that holds the bytes (a sub-binary's underlying binary, with the
//! sub-binary's range as `start..end`); the `bs_get_*`, `bs_skip_*` and
//! `bs_test_*` instructions read at its position and move it in place. A
//! segment that does not fit, or a size that is not a non-negative integer,
//! makes the match fail (a jump), never an exception, as in the BEAM.
//!
//! # Construction
//!
//! `bs_create_bin` runs in two passes: the first checks every segment and
//! computes its size in bits (raising `badarg` or `system_limit` as the
//! BEAM does, or jumping to the fail label in a guard); the second writes
//! the bits into a zeroed buffer: on the stack for heap binaries (up to 64
//! bytes), into an off-heap binary above that.
//!
//! # Appending
//!
//! `<<Bin/binary, ...>>` (an `append` or `private_append` first segment)
//! follows the BEAM's `erts_bs_append`: when `Bin` is the latest version
//! of a writable off-heap binary (a sub-binary ending exactly at the
//! binary's length, on a byte boundary), the new segments are written into
//! the spare capacity in place and the result is a longer sub-binary of the
//! same binary; otherwise `Bin` is copied into a new writable binary with
//! twice the room needed (at least 256 bytes). Appending in a loop is thus
//! amortised linear. See `OffHeapBinary` for why this is safe: bytes a term
//! can see never change, and a binary stops being writable once shared.

pub(crate) mod bits;
mod match_cmds;

use beamr_core::atom::Atom;
use beamr_core::release;
use beamr_core::term::{try_zeroed_bytes, MatchCtxView, OffHeapBinary, Term, HEAP_BIN_LIMIT};
use num_traits::ToPrimitive;

use self::bits::IntValue;
use super::{fail_or, get, put, set_x, x, Flow};
use crate::loader::bs::{
    AppendInts, BsInstr, CreateBin, GetKind, MatchInts, SegKind, Segment, Size, Utf, LITTLE, SIGNED,
};
use crate::loader::{Dst, Src, Target};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// Executes one instruction.
pub fn exec(_rt: &Runtime, p: &mut Process, op: &BsInstr) -> Flow {
    match op {
        BsInstr::Create(c) => create(p, c),
        BsInstr::StartMatch {
            fail,
            live,
            src,
            dst,
        } => start_match(p, *fail, *live, *src, *dst),
        BsInstr::GetPosition { ctx, dst } => get_position(p, *ctx, *dst),
        BsInstr::SetPosition { ctx, pos } => {
            let Some((c, m)) = context(p, *ctx) else {
                return Flow::Raise(Exception::badarg());
            };
            match get(p, *pos)
                .as_small()
                .and_then(|n| usize::try_from(n).ok())
            {
                Some(n) if m.start <= n && n <= m.end => {
                    set_position(c, n);
                    Flow::Next
                }
                _ => Flow::Raise(Exception::badarg()),
            }
        }
        BsInstr::GetTail { ctx, dst } => {
            let Some((_, m)) = context(p, *ctx) else {
                return Flow::Raise(Exception::badarg());
            };
            let tail = p.heap.sub_binary(m.orig, m.position, m.end - m.position);
            put(p, *dst, tail);
            Flow::Next
        }
        BsInstr::Get {
            kind,
            fail,
            ctx,
            size,
            flags,
            dst,
        } => {
            let Some((c, m)) = context(p, *ctx) else {
                return Flow::Jump(*fail);
            };
            let left = m.end - m.position;
            let n = match match_size(p, *size, left, *kind == GetKind::Binary) {
                Some(n) if n <= left => n,
                _ => return Flow::Jump(*fail),
            };
            let Some(value) = read_segment(p, *kind, m.orig, m.position, n, *flags) else {
                return Flow::Jump(*fail);
            };
            set_position(c, m.position + n);
            put(p, *dst, value);
            Flow::Next
        }
        BsInstr::Skip { fail, ctx, size } => {
            let Some((c, m)) = context(p, *ctx) else {
                return Flow::Jump(*fail);
            };
            let left = m.end - m.position;
            match match_size(p, *size, left, true) {
                Some(n) if n <= left => {
                    set_position(c, m.position + n);
                    Flow::Next
                }
                _ => Flow::Jump(*fail),
            }
        }
        BsInstr::TestTail { fail, ctx, bits } => match context(p, *ctx) {
            Some((_, m)) if m.end - m.position == *bits => Flow::Next,
            _ => Flow::Jump(*fail),
        },
        BsInstr::TestUnit { fail, ctx, unit } => test_unit(p, *fail, *ctx, *unit),
        BsInstr::MatchString {
            fail,
            ctx,
            bits: n,
            bytes,
        } => {
            let Some((c, m)) = context(p, *ctx) else {
                return Flow::Jump(*fail);
            };
            if !equal_at(&m.orig, m.position, m.end - m.position, bytes, *n) {
                return Flow::Jump(*fail);
            }
            set_position(c, m.position + n);
            Flow::Next
        }
        BsInstr::Utf {
            utf,
            fail,
            ctx,
            flags,
            dst,
        } => {
            let Some((c, m)) = context(p, *ctx) else {
                return Flow::Jump(*fail);
            };
            let (data, left, little) = (storage(&m.orig), m.end - m.position, flags & LITTLE != 0);
            let read = match utf {
                Utf::Utf8 => bits::read_utf8(data, m.position, left),
                Utf::Utf16 => bits::read_utf16(data, m.position, left, little),
                Utf::Utf32 => bits::read_utf32(data, m.position, left, little),
            };
            let Some((ch, n)) = read else {
                return Flow::Jump(*fail);
            };
            set_position(c, m.position + n);
            if let Some(dst) = dst {
                put(p, *dst, Term::small_unchecked(ch as i64));
            }
            Flow::Next
        }
        BsInstr::InitWritable => {
            if p.heap.needs_gc() {
                p.collect(0, 1);
            }
            let hint = p.x[0]
                .as_small()
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(0);
            let fresh = OffHeapBinary::writable(&[], hint.clamp(256, 1 << 20));
            let whole = p.heap.refc_binary(fresh, 0);
            p.x[0] = p.heap.sub_binary(whole, 0, 0);
            Flow::Next
        }
        BsInstr::Match(m) => match_cmds::exec(p, m),
        BsInstr::ContextToBinary { reg } => {
            if let Some((_, m)) = context(p, reg.as_src()) {
                let bin = p.heap.sub_binary(m.orig, m.start, m.end - m.start);
                put(p, *reg, bin);
            }
            Flow::Next
        }
    }
}

/// `bs_start_match3`/`bs_start_match4`: `src` itself when it is a match
/// context already (every iteration of a matching loop but the first),
/// else a new context over the bitstring.
#[inline(always)]
pub(crate) fn start_match(p: &mut Process, fail: Target, live: u32, src: Src, dst: Dst) -> Flow {
    if p.heap.needs_gc() {
        p.collect(0, live as usize);
    }
    let t = get(p, src);
    if t.is_match_context() {
        put(p, dst, t);
        return Flow::Next;
    }
    new_context(p, fail, t, dst)
}

/// [`start_match`] on a term that is not a match context yet.
#[inline(never)]
fn new_context(p: &mut Process, fail: Target, t: Term, dst: Dst) -> Flow {
    let Some(view) = t.as_binary() else {
        return fail_or(fail, Exception::badarg);
    };
    let (orig, off, size) = t.as_sub_binary().unwrap_or((t, 0, view.bit_size));
    let ctx = p.heap.match_context(orig, off, off, off + size);
    put(p, dst, ctx);
    Flow::Next
}

/// `bs_get_position`: the context's position as an integer.
#[inline(always)]
pub(crate) fn get_position(p: &mut Process, ctx: Src, dst: Dst) -> Flow {
    let Some((_, m)) = context(p, ctx) else {
        return Flow::Raise(Exception::badarg());
    };
    put(p, dst, Term::small_unchecked(m.position as i64));
    Flow::Next
}

/// `bs_test_unit`: the bits left are a multiple of `unit`.
#[inline(always)]
pub(crate) fn test_unit(p: &Process, fail: Target, ctx: Src, unit: usize) -> Flow {
    match context(p, ctx) {
        Some((_, m)) if multiple_of(m.end - m.position, unit) => Flow::Next,
        _ => Flow::Jump(fail),
    }
}

/// `bs_get_integer2` of a constant size `n <= 64` bits: the integer read
/// straight from the bytes (see [`bits::read_raw`]), a small unless it does
/// not fit in one.
#[inline(always)]
pub(crate) fn get_int(
    p: &mut Process,
    fail: Target,
    ctx: Src,
    n: usize,
    flags: u8,
    dst: Dst,
) -> Flow {
    let Some((c, m)) = context(p, ctx) else {
        return Flow::Jump(fail);
    };
    if m.end - m.position < n {
        return Flow::Jump(fail);
    }
    let raw = bits::read_raw(storage(&m.orig), m.position, n, flags & LITTLE != 0);
    let value = int_term(p, bits::int_of_raw(raw, n, flags & SIGNED != 0));
    set_position(c, m.position + n);
    put(p, dst, value);
    Flow::Next
}

/// [`Instr::BsMatchInts`](crate::loader::Instr::BsMatchInts) in the
/// common case: a `packed` head on a context (no new context to make, no
/// collection due) at a byte position with the integers' bits left and 8
/// bytes readable, every check made before the first register is
/// written. `Some(true)` when it matched (on past the instructions it
/// stands for), `Some(false)` when the unit test failed after the reads
/// (to the fail label); `None`, having changed nothing, in every other
/// case: then [`match_ints`].
#[inline(always)]
pub(crate) fn match_ints_packed(p: &mut Process, m: &MatchInts) -> Option<bool> {
    if !m.packed {
        return None;
    }
    let t = x(p, m.start.map_or(m.ctx, |s| s.src));
    let c = t.as_match_context()?;
    let at = c.position;
    if at % 8 != 0 || c.end - at < m.bits as usize {
        return None;
    }
    let bytes = storage(&c.orig).get(at / 8..at / 8 + 8)?;
    let word = u64::from_be_bytes(bytes.try_into().expect("8 bytes"));
    if let Some(s) = m.start {
        if p.heap.needs_gc() {
            return None;
        }
        set_x(p, m.ctx, t);
        if let Some(pos) = s.pos {
            set_x(p, pos, Term::small_unchecked(at as i64));
        }
    }
    let mut used = 0;
    for i in m.ints() {
        // 1 <= bits <= 59 and used + bits <= 64 (`packed`): the shifts
        // are in range and the value is a small.
        let v = (word << used) >> (64 - u32::from(i.bits));
        set_x(p, i.dst, Term::small_unchecked(v as i64));
        used += u32::from(i.bits);
    }
    let at = at + used as usize;
    set_position(t, at);
    Some(multiple_of(c.end - at, m.unit as usize))
}

/// [`Instr::BsMatchInts`](crate::loader::Instr::BsMatchInts) in every
/// case: the instructions of a matching loop's head in one step, each
/// one's work in turn, as they would run one after another
/// ([`MatchInts`]). `Next` is past all of them.
#[inline(never)]
pub(crate) fn match_ints(p: &mut Process, m: &MatchInts) -> Flow {
    if let Some(s) = &m.start {
        let t = x(p, s.src);
        if t.is_match_context() && !p.heap.needs_gc() {
            set_x(p, m.ctx, t);
        } else {
            let (src, ctx) = (Src::x(s.src as usize), Dst::x(m.ctx as usize));
            match start_match(p, s.fail, s.live, src, ctx) {
                Flow::Next => {}
                other => return other,
            }
        }
    }
    let t = x(p, m.ctx);
    let Some(c) = t.as_match_context() else {
        // Only without a start (which leaves a context): the first get fails.
        return Flow::Jump(m.fail);
    };
    if let Some(pos) = m.start.and_then(|s| s.pos) {
        set_x(p, pos, Term::small_unchecked(c.position as i64));
    }
    let data = storage(&c.orig);
    let mut at = c.position;
    for i in m.ints() {
        let n = i.bits as usize;
        if c.end - at < n {
            set_position(t, at);
            return Flow::Jump(m.fail);
        }
        let raw = bits::read_raw(data, at, n, i.flags & LITTLE != 0);
        let value = int_term(p, bits::int_of_raw(raw, n, i.flags & SIGNED != 0));
        set_x(p, i.dst, value);
        at += n;
    }
    set_position(t, at);
    if multiple_of(c.end - at, m.unit as usize) {
        Flow::Next
    } else {
        Flow::Jump(m.fail)
    }
}

/// The term for an integer read by [`bits::int_of_raw`]: a small when it
/// fits, else a bignum on the heap.
#[inline(always)]
fn int_term(p: &mut Process, v: Result<i64, u64>) -> Term {
    match v {
        Ok(v) => match Term::small(v) {
            Some(t) => t,
            None => p.heap.int(v),
        },
        Err(raw) => p.heap.bigint(&raw.into()),
    }
}

/// True if `n` is a multiple of `unit` (units are almost always 1 or 8).
#[inline(always)]
fn multiple_of(n: usize, unit: usize) -> bool {
    if unit.is_power_of_two() {
        n & (unit - 1) == 0
    } else {
        unit == 0 || n % unit == 0
    }
}

/// The match context in `s`, with its fields.
#[inline(always)]
fn context(p: &Process, s: Src) -> Option<(Term, MatchCtxView)> {
    let t = get(p, s);
    t.as_match_context().map(|m| (t, m))
}

/// The bytes of a match context's binary (a heap or refc binary: offset 0).
#[inline(always)]
fn storage(orig: &Term) -> &[u8] {
    orig.binary_storage().unwrap_or(&[])
}

/// The `kind` segment of `n` bits at bit `pos` of the binary `orig` (the
/// caller has checked that `n` bits are left), read as `flags` say
/// ([`LITTLE`], [`SIGNED`]); `None` for a float of a size no float has.
/// `bs_get_*` and `bs_match`'s commands both read through it.
#[inline(always)]
fn read_segment(
    p: &mut Process,
    kind: GetKind,
    orig: Term,
    pos: usize,
    n: usize,
    flags: u8,
) -> Option<Term> {
    let (data, little) = (storage(&orig), flags & LITTLE != 0);
    Some(match kind {
        GetKind::Integer if n <= 64 => {
            let raw = bits::read_raw(data, pos, n, little);
            int_term(p, bits::int_of_raw(raw, n, flags & SIGNED != 0))
        }
        GetKind::Integer => match bits::read_int(data, pos, n, little, flags & SIGNED != 0) {
            IntValue::Small(v) => p.heap.int(v),
            IntValue::Big(v) => p.heap.bigint(&v),
        },
        GetKind::Float => p.heap.float(bits::read_float(data, pos, n, little)?),
        GetKind::Binary => p.heap.sub_binary(orig, pos, n),
    })
}

/// True if the `n` bits at bit `pos` of the binary `orig`, of which `left`
/// are unmatched, are there and equal the first `n` bits of `bytes`
/// (`bs_match_string` and `bs_match`'s `=:=`).
#[inline(always)]
fn equal_at(orig: &Term, pos: usize, left: usize, bytes: &[u8], n: usize) -> bool {
    left >= n && bits::bits_equal(storage(orig), pos, bytes, 0, n)
}

#[inline(always)]
fn set_position(ctx: Term, position: usize) {
    // SAFETY: `ctx` is a match context made by StartMatch on this process's
    // heap (match contexts never leave the process that made them), and
    // every caller keeps `position` within its start..=end.
    unsafe { ctx.set_match_position(position) };
}

/// The bits a matching segment takes, `None` for a size that makes the
/// match fail. `all` is the rest (when `allow_all`), if a multiple of its unit.
#[inline(always)]
fn match_size(p: &Process, size: Size, left: usize, allow_all: bool) -> Option<usize> {
    match size {
        Size::Bits(n) => Some(n),
        Size::Var(s, unit) => {
            let n = usize::try_from(get(p, s).as_small()?).ok()?;
            n.checked_mul(unit as usize)
        }
        Size::All(unit) if allow_all => multiple_of(left, unit as usize).then_some(left),
        _ => None,
    }
}

// ----- construction ---------------------------------------------------------

/// Largest binary built, in bits: 2^43 bits is 1 TiB. Beyond it:
/// `system_limit`, where the BEAM would try the allocation and abort.
const MAX_BITS: usize = 1 << 43;

/// The result of a `bs_create_bin` with a
/// [`PackedInts`](crate::loader::bs::PackedInts) form, when that
/// form applies and no collection is due: `Bin` (in an X register) is the
/// latest version of a writable binary with 8 spare bytes, its size a
/// multiple of its unit, and every integer (each in an X register) a
/// small. The integers are put together in one word, in order, each its
/// value modulo 2^size, and stored with one 8-byte write (the bytes past
/// them stay spare). `None`, having changed nothing, otherwise: then
/// [`create_append_ints`].
#[inline(always)]
pub(crate) fn append_packed(p: &mut Process, c: &CreateBin) -> Option<Term> {
    let a = c.append_ints.as_ref()?;
    let k = a.packed.as_ref()?;
    if p.heap.needs_gc() {
        return None;
    }
    let (orig, off, size) = x(p, k.head).as_sub_binary()?;
    let ptr = orig.as_off_heap_binary()?;
    let end = off + size;
    let extra = 8 * a.bytes;
    if end % 8 != 0 || size & k.unit_mask as usize != 0 || size + extra >= MAX_BITS {
        return None;
    }
    let mut word = 0u64;
    for &(r, bytes) in k.ints() {
        let v = x(p, r).as_small()? as u64;
        let n = 8 * u32::from(bytes);
        // `word << n` in two steps: n is 64 for a lone 8-byte integer.
        word = (word << (n - 1) << 1) | (v & (u64::MAX >> (64 - n)));
    }
    // SAFETY: a refc-binary object holds a reference to a live off-heap
    // binary; `orig` is reachable from a register.
    let b = unsafe { &*ptr };
    // SAFETY: a writable binary's one reference is held by this process's
    // heap, which only this thread touches (`spare_room` refuses a binary
    // that is not writable); we write only the 8 bytes asked for.
    let spare = unsafe { b.spare_room(end / 8, 8)? };
    // The a.bytes <= 8 bytes of `word`'s low end, first byte first.
    let out = (word << (64 - extra)).to_be_bytes();
    // SAFETY: `spare` has 8 bytes of room.
    unsafe { spare.cast::<[u8; 8]>().write_unaligned(out) };
    // SAFETY: the a.bytes bytes from `spare` are written, within its room.
    unsafe { b.commit_append(end / 8, a.bytes) };
    // `orig` is a refc binary (as_off_heap_binary above).
    Some(p.heap.sub_binary_of_whole(orig, off, size + extra))
}

/// A `bs_create_bin` with an [`AppendInts`] form: that form when it
/// applies (after a collection, when one is due), else the generic
/// construction.
#[inline(never)]
pub(crate) fn create_append_ints(p: &mut Process, c: &CreateBin) -> Flow {
    if let Some(a) = &c.append_ints {
        if p.heap.needs_gc() {
            p.collect(0, c.live as usize);
        }
        if let Some(t) = append_ints(p, a) {
            put(p, c.dst, t);
            return Flow::Next;
        }
    }
    create(p, c)
}

#[inline(never)]
fn create(p: &mut Process, c: &CreateBin) -> Flow {
    if p.heap.needs_gc() {
        p.collect(0, c.live as usize);
    }
    match build(p, c) {
        Ok(t) => {
            put(p, c.dst, t);
            Flow::Next
        }
        Err(e) => fail_or(c.fail, || e),
    }
}

/// Why a construction segment failed: the exception, and for `badarg` the
/// BEAM's cause (`type`, `size`, `unit`, `short`, `invalid`) and the value
/// it names, reported in the frame's `error_info`.
struct SegFail {
    exception: Exception,
    cause: Option<(&'static str, Term)>,
}

impl SegFail {
    fn badarg(cause: &'static str, value: Term) -> SegFail {
        SegFail {
            exception: Exception::badarg(),
            cause: Some((cause, value)),
        }
    }

    fn limit() -> SegFail {
        SegFail {
            exception: Exception::system_limit(),
            cause: None,
        }
    }
}

/// The size in bits of a construction segment with an explicit size.
#[inline(always)]
fn construct_size(p: &Process, size: Size) -> Result<usize, SegFail> {
    match size {
        Size::Bits(n) => Ok(n),
        Size::Var(s, unit) => {
            let v = get(p, s);
            match v.as_small() {
                Some(n) if n >= 0 => (n as usize)
                    .checked_mul(unit as usize)
                    .filter(|&b| b < MAX_BITS)
                    .ok_or_else(SegFail::limit),
                Some(_) => Err(SegFail::badarg("size", v)),
                None => match v.as_big() {
                    Some(b) if !b.negative => Err(SegFail::limit()),
                    _ => Err(SegFail::badarg("size", v)),
                },
            }
        }
        Size::Huge => Err(SegFail::limit()),
        Size::All(_) | Size::Bad | Size::None => Err(SegFail::badarg("size", Term::NIL)),
    }
}

fn number_as_f64(v: Term) -> Option<f64> {
    if let Some(f) = v.as_float() {
        return Some(f);
    }
    if let Some(i) = v.as_small() {
        return Some(i as f64);
    }
    v.as_big()?.to_bigint().to_f64().filter(|f| f.is_finite())
}

/// One segment's size in bits, checking what erts checks before it
/// allocates: each size (`badarg` for a bad one, `system_limit`
/// past the limit) and the value of a `utf32` segment (and from OTP 26 on,
/// of a `utf8` one). Every other value is checked by [`check_value`], whose
/// first failure is raised only once all sizes are known to be good, as
/// erts does: a size past the limit in any segment wins over a bad value
/// in an earlier one.
fn segment_bits(p: &Process, seg: &Segment) -> Result<usize, SegFail> {
    let value = get(p, seg.src);
    match seg.kind {
        SegKind::Integer | SegKind::Float | SegKind::String => construct_size(p, seg.size),
        SegKind::Binary | SegKind::Append | SegKind::PrivateAppend => match seg.size {
            Size::All(_) => Ok(value.as_binary().map_or(0, |v| v.bit_size)),
            size => construct_size(p, size),
        },
        SegKind::Utf8 | SegKind::Utf16 | SegKind::Utf32 => match unicode_scalar(value) {
            Some(c) => Ok(match seg.kind {
                SegKind::Utf8 => bits::utf8_bits(c),
                SegKind::Utf16 if c >= 0x10000 => 32,
                SegKind::Utf16 => 16,
                _ => 32,
            }),
            None if seg.kind == SegKind::Utf32
                || (seg.kind == SegKind::Utf8 && release::utf8_checked_with_sizes()) =>
            {
                Err(SegFail::badarg("type", value))
            }
            // Refused by `check_value`; the size only counts towards the
            // limit meanwhile.
            None => Ok(32),
        },
    }
}

/// A `utf8`/`utf16`/`utf32` segment's value as a character, if it is one.
fn unicode_scalar(value: Term) -> Option<u32> {
    value
        .as_small()
        .filter(|&c| bits::is_scalar(c))
        .map(|c| c as u32)
}

/// The checks of a segment's value (of `n` bits) that erts makes as it
/// writes the segment (its type; a float's size; a
/// binary's length against the size, or its bits against the unit).
fn check_value(p: &Process, seg: &Segment, n: usize) -> Result<(), SegFail> {
    let value = get(p, seg.src);
    match seg.kind {
        SegKind::Integer if value.is_integer() => Ok(()),
        SegKind::Integer => Err(SegFail::badarg("type", value)),
        SegKind::Float => {
            let f = number_as_f64(value).ok_or_else(|| SegFail::badarg("type", value))?;
            match bits::float_bits(f, n) {
                Some(_) => Ok(()),
                None if matches!(n, 16 | 32 | 64) => Err(SegFail::badarg("no_float", value)),
                None => Err(SegFail::badarg("invalid", Term::small_unchecked(n as i64))),
            }
        }
        SegKind::Binary | SegKind::Append | SegKind::PrivateAppend => {
            let view = value
                .as_binary()
                .ok_or_else(|| SegFail::badarg("type", value))?;
            match seg.size {
                Size::All(unit) if view.bit_size % unit.max(1) as usize != 0 => {
                    Err(SegFail::badarg("unit", value))
                }
                Size::All(_) => Ok(()),
                _ if n <= view.bit_size => Ok(()),
                _ => Err(SegFail::badarg("short", value)),
            }
        }
        SegKind::Utf8 | SegKind::Utf16 | SegKind::Utf32 => match unicode_scalar(value) {
            Some(_) => Ok(()),
            None => Err(SegFail::badarg("type", value)),
        },
        SegKind::String => Ok(()),
    }
}

/// The size a segment was given, as erts names it in a `system_limit`'s
/// cause: the size operand before the unit is applied.
fn size_operand(p: &Process, seg: &Segment) -> Option<Term> {
    match seg.size {
        Size::Bits(n) => i64::try_from(n).ok().map(Term::small_unchecked),
        Size::Var(s, _) => Some(get(p, s)),
        _ => None,
    }
}

/// The exception for a failed segment, with the BEAM's `error_info`
/// (`#{cause => {Segment, Type, Cause, Value}, function => format_bs_fail,
/// module => erl_erts_errors}`): a `badarg`'s cause, or for a
/// `system_limit` the size that passed the limit.
fn segment_error(p: &mut Process, seg: &Segment, fail: SegFail) -> Exception {
    let mut e = fail.exception;
    let cause = fail.cause.or_else(|| {
        let limit = e.reason == Term::atom(Atom::SYSTEM_LIMIT);
        limit.then(|| size_operand(p, seg).map(|size| ("size", size)))?
    });
    if let Some((cause, value)) = cause {
        let cause = p.heap.tuple(&[
            Term::small_unchecked(seg.number as i64),
            Term::atom(seg.type_name),
            Term::atom(Atom::new(cause).expect("atom")),
            value,
        ]);
        let keys = [
            Term::atom(Atom::new("cause").expect("atom")),
            Term::atom(Atom::new("function").expect("atom")),
            Term::atom(Atom::new("module").expect("atom")),
        ];
        let values = [
            cause,
            Term::atom(Atom::new("format_bs_fail").expect("atom")),
            Term::atom(Atom::new("erl_erts_errors").expect("atom")),
        ];
        e.error_info = beamr_core::map::from_pairs(
            &mut p.heap,
            &[
                (keys[0], values[0]),
                (keys[1], values[1]),
                (keys[2], values[2]),
            ],
        );
    }
    e
}

/// Pass two: writes `segs` (checked by pass one, sizes in `sizes`) into
/// `buf` from bit `off`.
fn write_segments(p: &Process, segs: &[Segment], sizes: &[usize], buf: &mut [u8], mut off: usize) {
    for (seg, &n) in segs.iter().zip(sizes) {
        let little = seg.flags & LITTLE != 0;
        match seg.kind {
            SegKind::Integer => {
                let v = get(p, seg.src);
                match v.as_small() {
                    Some(i) => bits::write_int_small(buf, off, i, n, little),
                    None => {
                        if let Some(b) = v.as_big() {
                            bits::write_int_big(buf, off, &b.to_bigint(), n, little)
                        }
                    }
                }
            }
            SegKind::Float => {
                let f = number_as_f64(get(p, seg.src)).unwrap_or(0.0);
                let mut raw = bits::float_bits(f, n).unwrap_or(0);
                if little {
                    raw = raw.swap_bytes() >> (64 - n);
                }
                bits::write_u64(buf, off, raw, n);
            }
            SegKind::Binary | SegKind::Append | SegKind::PrivateAppend => {
                if let Some(v) = get(p, seg.src).as_binary() {
                    bits::copy_bits(buf, off, v.storage, v.bit_offset, n);
                }
            }
            SegKind::Utf8 => {
                let c = get(p, seg.src).as_small().unwrap_or(0) as u32;
                bits::write_utf8(buf, off, c);
            }
            SegKind::Utf16 => {
                let c = get(p, seg.src).as_small().unwrap_or(0) as u32;
                bits::write_utf16(buf, off, c, little);
            }
            SegKind::Utf32 => {
                let c = get(p, seg.src).as_small().unwrap_or(0) as u32;
                let raw = if little { c.swap_bytes() } else { c };
                bits::write_u64(buf, off, raw as u64, 32);
            }
            SegKind::String => bits::copy_bits(buf, off, &seg.string, 0, n),
        }
        off += n;
    }
}

fn build(p: &mut Process, c: &CreateBin) -> Result<Term, Exception> {
    let segs = &c.segments[..];
    let mut small = [0usize; 16];
    let mut large = Vec::new();
    let sizes: &mut [usize] = if segs.len() <= small.len() {
        &mut small[..segs.len()]
    } else {
        large.resize(segs.len(), 0);
        &mut large
    };
    let mut total: usize = 0;
    // The first bad value, raised only if every size is good (erts's order).
    let mut bad_value: Option<(&Segment, SegFail)> = None;
    for (seg, size) in segs.iter().zip(sizes.iter_mut()) {
        *size = match segment_bits(p, seg) {
            Ok(n) => n,
            Err(fail) => return Err(segment_error(p, seg, fail)),
        };
        total = match total.checked_add(*size).filter(|&t| t < MAX_BITS) {
            Some(total) => total,
            None => return Err(segment_error(p, seg, SegFail::limit())),
        };
        if bad_value.is_none() {
            bad_value = check_value(p, seg, *size).err().map(|fail| (seg, fail));
        }
    }
    if let Some((seg, fail)) = bad_value {
        return Err(segment_error(p, seg, fail));
    }
    if let Some(first) = segs.first() {
        if matches!(first.kind, SegKind::Append | SegKind::PrivateAppend) {
            return append(p, segs, sizes, total);
        }
    }
    let bytes = total.div_ceil(8);
    let bin = if bytes <= HEAP_BIN_LIMIT {
        let mut buf = [0u8; HEAP_BIN_LIMIT];
        write_segments(p, segs, sizes, &mut buf[..bytes], 0);
        p.heap.heap_binary(&buf[..bytes])
    } else {
        let mut buf = try_zeroed_bytes(bytes).ok_or_else(Exception::system_limit)?;
        write_segments(p, segs, sizes, &mut buf, 0);
        let off_heap = OffHeapBinary::new(buf.into_boxed_slice());
        p.heap.refc_binary(off_heap, bytes)
    };
    Ok(if total % 8 == 0 {
        bin
    } else {
        p.heap.sub_binary(bin, 0, total)
    })
}

/// `<<Bin/binary, Rest...>>`: extends `Bin` in place when it is the latest
/// version of a writable binary, else copies it into a new writable one.
/// Raises `system_limit` when the memory for the new binary cannot be had.
fn append(
    p: &mut Process,
    segs: &[Segment],
    sizes: &[usize],
    total: usize,
) -> Result<Term, Exception> {
    let bin = get(p, segs[0].src);
    let head_bits = sizes[0];
    let extra = total - head_bits;
    if let Some((orig, off, size)) = bin.as_sub_binary() {
        if let Some(ptr) = orig.as_off_heap_binary() {
            // SAFETY: a refc-binary object holds a reference to a live
            // off-heap binary; `orig` is reachable from a register.
            let b = unsafe { &*ptr };
            let end = off + size;
            if b.is_writable() && end % 8 == 0 && end / 8 == b.bytes().len() {
                let proc_ref: &Process = p;
                // SAFETY: this process's heap holds the binary's one
                // reference (a writable binary is never shared), and only
                // this thread runs the process.
                let done = unsafe {
                    b.append_in_place(end / 8, extra.div_ceil(8), |spare| {
                        write_segments(proc_ref, &segs[1..], &sizes[1..], spare, 0)
                    })
                };
                if done {
                    return Ok(p.heap.sub_binary(orig, off, size + extra));
                }
            }
        }
    }
    let used = total.div_ceil(8);
    // Room to grow into, as the BEAM leaves; only the bytes needed when
    // that much cannot be had.
    let fresh = OffHeapBinary::try_writable(&[], (2 * used).max(256))
        .or_else(|| OffHeapBinary::try_writable(&[], used))
        .ok_or_else(Exception::system_limit)?;
    let proc_ref: &Process = p;
    // SAFETY: `fresh` was just allocated: this thread holds its only reference.
    let done = unsafe {
        (*fresh).append_in_place(0, used, |buf| {
            if let Some(v) = bin.as_binary() {
                bits::copy_bits(buf, 0, v.storage, v.bit_offset, head_bits);
            }
            write_segments(proc_ref, &segs[1..], &sizes[1..], buf, head_bits)
        })
    };
    debug_assert!(done, "a fresh writable binary has room");
    let whole = p.heap.refc_binary(fresh, used);
    Ok(p.heap.sub_binary(whole, 0, total))
}

/// The fast form of an append ([`AppendInts`]): the result when `Bin` is
/// the latest version of a writable binary with room for the integers,
/// its size a multiple of its unit, and every integer a small; `None`,
/// having changed nothing, otherwise (the generic path then decides, and
/// raises what it raises). The bytes are those the generic path writes:
/// each integer modulo 2^size, two's complement, in its byte order.
#[inline(always)]
fn append_ints(p: &mut Process, a: &AppendInts) -> Option<Term> {
    let (orig, off, size) = get(p, a.head).as_sub_binary()?;
    let ptr = orig.as_off_heap_binary()?;
    let end = off + size;
    let extra = 8 * a.bytes;
    if end % 8 != 0 || !multiple_of(size, a.unit as usize) || size + extra >= MAX_BITS {
        return None;
    }
    // SAFETY: a refc-binary object holds a reference to a live off-heap
    // binary; `orig` is reachable from a register.
    let b = unsafe { &*ptr };
    // SAFETY: a writable binary's one reference is held by this process's
    // heap, which only this thread touches (`spare_room` refuses a binary
    // that is not writable); we write only the room asked for.
    let spare = unsafe { b.spare_room(end / 8, a.bytes + 8)? };
    let mut at = 0;
    for i in a.ints.iter() {
        let v = get(p, i.src).as_small()?;
        let k = i.bytes as usize;
        // The integer's k bytes first, then 8 - k bytes that the next
        // integer overwrites (or that stay spare).
        let word = if i.little {
            v.to_le_bytes()
        } else {
            (v << (64 - 8 * k)).to_be_bytes()
        };
        // SAFETY: at + 8 <= a.bytes + 8, the room `spare_room` gave.
        unsafe { spare.add(at).cast::<[u8; 8]>().write_unaligned(word) };
        at += k;
    }
    // SAFETY: the a.bytes bytes from `spare` are written, within its room.
    unsafe { b.commit_append(end / 8, a.bytes) };
    // `orig` is a refc binary (as_off_heap_binary above).
    Some(p.heap.sub_binary_of_whole(orig, off, size + extra))
}
