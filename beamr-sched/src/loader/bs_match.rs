//! `bs_match` (opcode 182, OTP 26): one instruction that runs a list of
//! matching commands on a match context.
//!
//! erlc 26+ emits it for segments of constant size. Its third operand is a
//! flat list: each command's name (an atom) followed by its operands.
//!
//! ```text
//! ensure_at_least Size Unit         >= Size bits left, and (left - Size) rem Unit == 0
//! ensure_exactly  Size              exactly Size bits left
//! integer  Live Flags Size Unit Dst  Size*Unit bits as an integer
//! binary   Live Flags Size Unit Dst  Size*Unit bits as a sub-binary
//! skip     Stride                   Stride bits skipped
//! get_tail Live Unit Dst            the rest as a sub-binary
//! '=:='    Live Size Value          the next Size bits equal the unsigned integer Value
//! ```
//!
//! Any failing command jumps to the instruction's fail label. Sizes are
//! resolved to bits here; a `'=:='` value becomes the bytes to compare.

use beamr_core::atom::Atom;
use beamr_core::beam::{Instruction, Integer, Operand};
use num_bigint::BigInt;
use num_integer::Integer as _;

use super::bs::GetKind;
use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, Target};

/// One command of a `bs_match`.
#[derive(Debug, PartialEq, Eq)]
pub enum MatchCmd {
    /// At least `bits` bits left, and the bits beyond them a multiple of `unit`.
    EnsureAtLeast {
        /// Bits that must be left.
        bits: usize,
        /// The unit of what follows them.
        unit: usize,
    },
    /// Exactly `bits` bits left.
    EnsureExactly {
        /// Bits that must be left.
        bits: usize,
    },
    /// The next `bits` bits as an integer or a sub-binary (`integer`,
    /// `binary`), read as `bs_get_integer2` and `bs_get_binary2` read them.
    Get {
        /// [`GetKind::Integer`] or [`GetKind::Binary`].
        kind: GetKind,
        /// Size in bits.
        bits: usize,
        /// [`LITTLE`](super::bs::LITTLE), [`SIGNED`](super::bs::SIGNED).
        flags: u8,
        /// Destination.
        dst: Dst,
    },
    /// Skips `bits` bits.
    Skip {
        /// Size in bits.
        bits: usize,
    },
    /// The rest of the context as a sub-binary.
    GetTail {
        /// Destination.
        dst: Dst,
    },
    /// The next `bits` bits equal `bytes`'s first `bits` bits.
    Equal {
        /// Size in bits.
        bits: usize,
        /// The expected bits, big-endian, from the first byte's top bit.
        bytes: Box<[u8]>,
    },
}

/// A `bs_match` instruction.
#[derive(Debug)]
pub struct BsMatch {
    /// Where any failing command jumps.
    pub fail: Target,
    /// The match context.
    pub ctx: Src,
    /// The commands, in order.
    pub cmds: Box<[MatchCmd]>,
}

/// The number of operands after each command's name.
fn arity(name: &str) -> Option<usize> {
    Some(match name {
        "ensure_at_least" => 2,
        "ensure_exactly" => 1,
        "integer" | "binary" => 5,
        "skip" => 1,
        "get_tail" => 3,
        "=:=" => 3,
        _ => return None,
    })
}

/// `value`'s low `bits` bits (two's complement), big-endian, from the top
/// bit of the first of `ceil(bits / 8)` bytes.
pub fn int_bits(value: &BigInt, bits: usize) -> Box<[u8]> {
    let len = bits.div_ceil(8);
    if len == 0 {
        return Box::new([]);
    }
    let modulus = BigInt::from(1) << bits;
    // Below 2^(len*8), so at most `len` bytes (zero is one byte, 0).
    let low = value.mod_floor(&modulus) << (len * 8 - bits);
    let (_, bytes) = low.to_bytes_be();
    let mut out = vec![0u8; len - bytes.len()];
    out.extend_from_slice(&bytes);
    out.into_boxed_slice()
}

impl Lowering<'_> {
    /// Lowers `bs_match Fail Ctx {commands, [...]}`.
    pub(super) fn lower_bs_match(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<BsMatch, LoadError> {
        let fail = self.target(ins, 0, here)?;
        let ctx = self.src(ins, 1)?;
        let items = self.list(ins, 2)?.to_vec();
        let mut cmds = Vec::new();
        let mut rest = &items[..];
        while let Some((head, tail)) = rest.split_first() {
            let name = match head {
                Operand::Atom(n) => self.atom_at(*n),
                other => return Err(self.err(ins, format!("expected a command, found {other:?}"))),
            };
            let n = arity(name.name())
                .ok_or_else(|| self.err(ins, format!("unknown bs_match command {name}")))?;
            if tail.len() < n {
                return Err(self.err(ins, format!("bs_match command {name} lacks operands")));
            }
            let (ops, after) = tail.split_at(n);
            cmds.push(self.match_cmd(ins, name, ops)?);
            rest = after;
        }
        Ok(BsMatch {
            fail,
            ctx,
            cmds: cmds.into_boxed_slice(),
        })
    }

    fn match_cmd(
        &mut self,
        ins: &Instruction,
        name: Atom,
        ops: &[Operand],
    ) -> Result<MatchCmd, LoadError> {
        let num = |i: usize| {
            self.unsigned_of(ins, &ops[i], format_args!("bs_match {name}: operand {i}"))
                .map(|n| n as usize)
        };
        let bits = |size: usize, unit: usize| {
            size.checked_mul(unit)
                .filter(|&b| b < 1 << 56)
                .ok_or_else(|| self.err(ins, format!("bs_match {name}: size too large")))
        };
        // An `ensure_*` size past any binary (erlc writes a bignum for
        // `<<_:(1 bsl 64)>>`) can never be met: usize::MAX bits, which
        // no match context has left.
        let at_least = |i: usize| match &ops[i] {
            Operand::Integer(Integer::Big(n)) if n.sign() == num_bigint::Sign::Plus => {
                Ok(usize::MAX)
            }
            _ => num(i),
        };
        Ok(match name.name() {
            "ensure_at_least" => MatchCmd::EnsureAtLeast {
                bits: at_least(0)?,
                unit: num(1)?.max(1),
            },
            "ensure_exactly" => MatchCmd::EnsureExactly { bits: at_least(0)? },
            kind @ ("integer" | "binary") => MatchCmd::Get {
                kind: if kind == "integer" {
                    GetKind::Integer
                } else {
                    GetKind::Binary
                },
                bits: bits(num(2)?, num(3)?)?,
                flags: self.flags_of_operand(ins, ops[1].clone())?,
                dst: self.dst_of(ins, &ops[4])?,
            },
            "skip" => MatchCmd::Skip { bits: num(0)? },
            "get_tail" => MatchCmd::GetTail {
                dst: self.dst_of(ins, &ops[2])?,
            },
            _ => {
                let bits = num(1)?;
                let value = match &ops[2] {
                    Operand::Integer(Integer::Small(v)) => BigInt::from(*v),
                    Operand::Integer(Integer::Big(b)) => b.clone(),
                    Operand::Unsigned(v) => BigInt::from(*v),
                    op @ Operand::Literal(_) => {
                        let t = self.src_of(ins, op)?.term();
                        match (t.as_small(), t.as_big()) {
                            (Some(v), _) => BigInt::from(v),
                            (_, Some(b)) => b.to_bigint(),
                            _ => return Err(self.err(ins, "bs_match =:= needs an integer")),
                        }
                    }
                    other => {
                        return Err(self.err(ins, format!("bs_match =:= value {other:?}")));
                    }
                };
                MatchCmd::Equal {
                    bits,
                    bytes: int_bits(&value, bits),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_bits_left_aligns_the_low_bits() {
        assert_eq!(&*int_bits(&BigInt::from(121), 8), &[121]);
        assert_eq!(&*int_bits(&BigInt::from(0x1234), 16), &[0x12, 0x34]);
        // 3 bits of 5 (101) sit at the top of one byte.
        assert_eq!(&*int_bits(&BigInt::from(5), 3), &[0b1010_0000]);
        // 12 bits of 0xabc.
        assert_eq!(&*int_bits(&BigInt::from(0xabc), 12), &[0xab, 0xc0]);
        assert_eq!(&*int_bits(&BigInt::from(0), 16), &[0, 0]);
        assert_eq!(&*int_bits(&BigInt::from(-1), 8), &[0xff]);
        assert!(int_bits(&BigInt::from(7), 0).is_empty());
        let big = BigInt::from(1) << 70;
        let bytes = int_bits(&(big + 1), 72);
        assert_eq!(&*bytes, &[0x40, 0, 0, 0, 0, 0, 0, 0, 1]);
    }

    #[test]
    fn every_command_has_an_arity() {
        for name in [
            "ensure_at_least",
            "ensure_exactly",
            "integer",
            "binary",
            "skip",
            "get_tail",
            "=:=",
        ] {
            assert!(arity(name).is_some(), "{name}");
        }
        assert_eq!(arity("float"), None);
    }
}
