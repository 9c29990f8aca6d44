//! Map instructions: `put_map_assoc`, `put_map_exact`, `get_map_elements`,
//! `has_map_fields` (`is_map` is a plain type test).
//!
//! Lowered here into [`MapInstr`]; executed by `interp::ops::maps`. The
//! `Live` operand of the two `put_map_*` instructions is dropped: a beamr
//! heap grows on demand and collects only at `allocate`/`test_heap`.
//!
//! When every key of a `put_map_*` instruction is a constant (the usual
//! case: `M#{a => 1, b => 2}`), the pairs are sorted here in map-key order,
//! duplicates resolved (the last value wins), and the instruction is marked
//! `sorted`, so that the interpreter merges them into a flat map without
//! sorting anything at run time.

use std::cmp::Ordering;

use beamr_core::beam::{Instruction, Opcode};
use beamr_core::order::compare_map_keys;

use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, Target};

/// The operands of `put_map_assoc` and `put_map_exact`.
#[derive(Debug)]
pub struct PutMap {
    /// Where to go when the source is not a map (or, for `put_map_exact`,
    /// a key is missing); [`Target::NONE`] raises `{badmap, Src}` or
    /// `{badkey, Key}` instead.
    pub fail: Target,
    /// The map updated.
    pub src: Src,
    /// The result register.
    pub dst: Dst,
    /// X registers live: the roots of a collection before the update.
    pub live: u32,
    /// Key and value operands, in instruction order, or in map-key order
    /// without duplicate keys when `sorted`.
    pub pairs: Box<[(Src, Src)]>,
    /// True when every key is a constant and `pairs` is sorted and deduplicated.
    pub sorted: bool,
}

/// An executable maps instruction.
#[derive(Debug)]
pub enum MapInstr {
    /// `M#{K => V, ...}`: insert or replace.
    PutAssoc(PutMap),
    /// `M#{K := V, ...}`: replace existing keys only.
    PutExact(PutMap),
    /// Reads the values of keys that must all be present into registers;
    /// jumps to `fail` (writing nothing) when one is missing or `src` is not
    /// a map.
    GetElements {
        /// Where to go when a key is missing.
        fail: Target,
        /// The map.
        src: Src,
        /// Each key and the register its value goes to.
        pairs: Box<[(Src, Dst)]>,
    },
    /// Jumps to `fail` unless `src` is a map holding every key.
    HasFields {
        /// Where to go when a key is missing.
        fail: Target,
        /// The map.
        src: Src,
        /// The keys.
        keys: Box<[Src]>,
    },
}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::PutMapAssoc | Opcode::PutMapExact | Opcode::GetMapElements | Opcode::HasMapFields
    )
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_map(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<MapInstr, LoadError> {
        Ok(match ins.opcode {
            Opcode::PutMapAssoc | Opcode::PutMapExact => {
                let put = self.put_map(ins, here)?;
                if ins.opcode == Opcode::PutMapAssoc {
                    MapInstr::PutAssoc(put)
                } else {
                    MapInstr::PutExact(put)
                }
            }
            Opcode::GetMapElements => {
                let items = self.groups(ins, 2, 2, "odd key/destination list")?;
                let mut pairs = Vec::with_capacity(items.len() / 2);
                for pair in items.chunks(2) {
                    pairs.push((self.src_of(ins, &pair[0])?, self.dst_of(ins, &pair[1])?));
                }
                MapInstr::GetElements {
                    fail: self.target(ins, 0, here)?,
                    src: self.src(ins, 1)?,
                    pairs: pairs.into_boxed_slice(),
                }
            }
            Opcode::HasMapFields => {
                let items = self.list(ins, 2)?.to_vec();
                let keys = items
                    .iter()
                    .map(|op| self.src_of(ins, op))
                    .collect::<Result<Vec<_>, _>>()?;
                MapInstr::HasFields {
                    fail: self.target(ins, 0, here)?,
                    src: self.src(ins, 1)?,
                    keys: keys.into_boxed_slice(),
                }
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

    /// `put_map_assoc`/`put_map_exact Fail Src Dst Live Pairs`.
    fn put_map(&mut self, ins: &Instruction, here: usize) -> Result<PutMap, LoadError> {
        let items = self.groups(ins, 4, 2, "odd key/value list")?;
        let mut pairs = Vec::with_capacity(items.len() / 2);
        for pair in items.chunks(2) {
            pairs.push((self.src_of(ins, &pair[0])?, self.src_of(ins, &pair[1])?));
        }
        let sorted = pairs.iter().all(|(k, _)| !k.is_register());
        if sorted {
            sort_constant_keys(&mut pairs);
        }
        Ok(PutMap {
            fail: self.target(ins, 0, here)?,
            src: self.src(ins, 1)?,
            dst: self.dst(ins, 2)?,
            live: self.live(ins, 3)?,
            pairs: pairs.into_boxed_slice(),
            sorted,
        })
    }
}

/// Sorts pairs with constant keys in map-key order and keeps, for a key
/// given twice, its last value.
fn sort_constant_keys(pairs: &mut Vec<(Src, Src)>) {
    // Stable: equal keys keep their instruction order, so the last wins.
    pairs.sort_by(|a, b| compare_map_keys(a.0.term(), b.0.term()));
    let mut out: Vec<(Src, Src)> = Vec::with_capacity(pairs.len());
    for &(k, v) in pairs.iter() {
        match out.last_mut() {
            Some(last) if compare_map_keys(last.0.term(), k.term()) == Ordering::Equal => {
                last.1 = v
            }
            _ => out.push((k, v)),
        }
    }
    *pairs = out;
}
