//! [`Natives`]: the table of native BIFs by `{Module, Function, Arity}`,
//! which the loader binds imports to and the code layer's resolver
//! answers from. The implementations live in `bif`; the table is built from
//! its rows once, when a runtime is created, and installed in `code`.

use beamr_core::atom::Atom;
use beamr_core::hash::word::WordMap;
use beamr_core::term::Term;

use super::instr::ArithOp;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// A native BIF: called with the runtime, the calling process and its arguments.
pub type BifFn = fn(&Runtime, &mut Process, &[Term]) -> Result<Term, Exception>;

/// One table row: module, function, arity, implementation.
pub type BifRow = (&'static str, &'static str, u8, BifFn);

/// Every native BIF, by `{M, F, A}`, and the BIFs behind the inline
/// arithmetic instructions (their slow path on big or non-integer operands).
#[derive(Default)]
pub struct Natives {
    /// Each BIF's place in `bifs`.
    by_mfa: WordMap<(Atom, Atom, u8), u32>,
    bifs: Vec<BifFn>,
    arith: Vec<Option<BifFn>>,
}

impl Natives {
    /// The table of `groups` of rows; a later row for the same MFA wins.
    pub fn from_rows(groups: &[&[BifRow]]) -> Natives {
        let mut by_mfa = WordMap::default();
        let mut bifs: Vec<BifFn> = Vec::new();
        for rows in groups {
            for &(m, f, a, bif) in rows.iter() {
                let key = (
                    Atom::new(m).expect("bif module atom"),
                    Atom::new(f).expect("bif name atom"),
                    a,
                );
                match by_mfa.get(&key) {
                    Some(&place) => bifs[place as usize] = bif,
                    None => {
                        by_mfa.insert(key, bifs.len() as u32);
                        bifs.push(bif);
                    }
                }
            }
        }
        let arith = ArithOp::ALL
            .iter()
            .map(|op| {
                let name = Atom::new(op.name()).expect("operator atom");
                by_mfa
                    .get(&(Atom::ERLANG, name, 2))
                    .map(|&place| bifs[place as usize])
            })
            .collect();
        Natives {
            by_mfa,
            bifs,
            arith,
        }
    }

    /// The native implementation of `M:F/A`, if it is a BIF.
    #[inline]
    pub fn get(&self, module: Atom, function: Atom, arity: u8) -> Option<BifFn> {
        self.place(module, function, arity)
            .map(|place| self.bifs[place as usize])
    }

    /// The place of `M:F/A` in the table, if it is a BIF: what an
    /// [`Export`](beamr_core::term::Export) keeps of the lookup.
    #[inline]
    pub fn place(&self, module: Atom, function: Atom, arity: u8) -> Option<u32> {
        self.by_mfa.get(&(module, function, arity)).copied()
    }

    /// The BIF at `place` (from [`Natives::place`]).
    #[inline]
    pub fn at(&self, place: u32) -> Option<BifFn> {
        self.bifs.get(place as usize).copied()
    }

    /// The BIF `erlang:Op/2` behind an inline arithmetic instruction.
    #[inline]
    pub fn arith(&self, op: ArithOp) -> Option<BifFn> {
        self.arith.get(op as usize).copied().flatten()
    }
}
