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
    by_mfa: WordMap<(Atom, Atom, u8), BifFn>,
    arith: Vec<Option<BifFn>>,
}

impl Natives {
    /// The table of `groups` of rows; a later row for the same MFA wins.
    pub fn from_rows(groups: &[&[BifRow]]) -> Natives {
        let mut by_mfa = WordMap::default();
        for rows in groups {
            for &(m, f, a, bif) in rows.iter() {
                let key = (
                    Atom::new(m).expect("bif module atom"),
                    Atom::new(f).expect("bif name atom"),
                    a,
                );
                by_mfa.insert(key, bif);
            }
        }
        let arith = ArithOp::ALL
            .iter()
            .map(|op| {
                let name = Atom::new(op.name()).expect("operator atom");
                by_mfa.get(&(Atom::ERLANG, name, 2)).copied()
            })
            .collect();
        Natives { by_mfa, arith }
    }

    /// The native implementation of `M:F/A`, if it is a BIF.
    #[inline]
    pub fn get(&self, module: Atom, function: Atom, arity: u8) -> Option<BifFn> {
        self.by_mfa.get(&(module, function, arity)).copied()
    }

    /// The BIF `erlang:Op/2` behind an inline arithmetic instruction.
    #[inline]
    pub fn arith(&self, op: ArithOp) -> Option<BifFn> {
        self.arith.get(op as usize).copied().flatten()
    }
}
