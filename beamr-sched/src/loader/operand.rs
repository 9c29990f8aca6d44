//! The operand encodings of executable instructions: sources, destinations
//! and jump targets, each one machine word or less, decoded with a shift and
//! a mask while running.
//!
//! ```text
//! Src (u64): either a term (a constant: immediate or pointer into the
//!            module's literal area), or a register reference that reuses the
//!            NON_VALUE immediate tag, which no constant can carry:
//!     | index (56 bits)                 | kind (2) | 1 1 1 0 1 1 |
//!       kind: 1 = X register, 2 = Y register, 3 = float register
//! Dst (u32): bit 31 set for a Y register, else an X register; index below.
//! Target (i32): instruction offset relative to the instruction that holds it.
//! ```

use beamr_core::term::tag::{IMMED2_MASK, IMMED2_NON_VALUE};
use beamr_core::term::Term;

const KIND_SHIFT: u32 = 6;
const INDEX_SHIFT: u32 = 8;
const KIND_X: u64 = 1;
const KIND_Y: u64 = 2;
const KIND_FR: u64 = 3;

/// Where an instruction reads a value from.
#[derive(Copy, Clone, PartialEq, Eq)]
#[repr(transparent)]
pub struct Src(u64);

/// What a [`Src`] names, for the slow paths that need to look.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SrcKind {
    /// A constant term.
    Const(Term),
    /// X register n.
    X(usize),
    /// Y register n.
    Y(usize),
    /// Float register n.
    Fr(usize),
}

impl Src {
    /// A constant.
    #[inline]
    pub const fn constant(term: Term) -> Src {
        Src(term.raw())
    }

    /// X register `n`.
    #[inline]
    pub const fn x(n: usize) -> Src {
        Src(((n as u64) << INDEX_SHIFT) | (KIND_X << KIND_SHIFT) | IMMED2_NON_VALUE)
    }

    /// Y register `n`.
    #[inline]
    pub const fn y(n: usize) -> Src {
        Src(((n as u64) << INDEX_SHIFT) | (KIND_Y << KIND_SHIFT) | IMMED2_NON_VALUE)
    }

    /// Float register `n`.
    #[inline]
    pub const fn fr(n: usize) -> Src {
        Src(((n as u64) << INDEX_SHIFT) | (KIND_FR << KIND_SHIFT) | IMMED2_NON_VALUE)
    }

    /// The raw word.
    #[inline(always)]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The low byte of an X register reference (constants never have it).
    pub const X_TAG: u64 = (KIND_X << KIND_SHIFT) | IMMED2_NON_VALUE;
    /// The low byte of a Y register reference (constants never have it).
    pub const Y_TAG: u64 = (KIND_Y << KIND_SHIFT) | IMMED2_NON_VALUE;
    /// Shift of a register reference's index.
    pub const INDEX_SHIFT: u32 = INDEX_SHIFT;

    /// True when this names a register rather than a constant.
    #[inline(always)]
    pub const fn is_register(self) -> bool {
        self.0 & IMMED2_MASK == IMMED2_NON_VALUE && self.0 != IMMED2_NON_VALUE
    }

    /// True for an X register.
    #[inline(always)]
    pub const fn is_x(self) -> bool {
        self.is_register() && (self.0 >> KIND_SHIFT) & 3 == KIND_X
    }

    /// The register index (meaningless for a constant).
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 >> INDEX_SHIFT) as usize
    }

    /// The constant (for a register, a NON_VALUE-tagged immediate that
    /// means nothing but is harmless: no accessor dereferences it).
    #[inline(always)]
    pub const fn term(self) -> Term {
        // SAFETY: a Src holds either the raw word of a term given to
        // `Src::constant` (an immediate, or a pointer into the module's
        // literal area, which lives as long as the code that holds this
        // operand), or a register reference made by `x`/`y`/`fr`, which has
        // the NON_VALUE immediate tag and so never reads as a pointer.
        unsafe { Term::from_raw(self.0) }
    }

    /// What this source names.
    pub fn kind(self) -> SrcKind {
        if !self.is_register() {
            return SrcKind::Const(self.term());
        }
        match (self.0 >> KIND_SHIFT) & 3 {
            KIND_X => SrcKind::X(self.index()),
            KIND_Y => SrcKind::Y(self.index()),
            _ => SrcKind::Fr(self.index()),
        }
    }
}

impl std::fmt::Debug for Src {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.kind())
    }
}

/// Where an instruction writes a value.
#[derive(Copy, Clone, PartialEq, Eq)]
#[repr(transparent)]
pub struct Dst(u32);

const DST_Y: u32 = 1 << 31;

impl Dst {
    /// X register `n`.
    #[inline]
    pub const fn x(n: usize) -> Dst {
        Dst(n as u32)
    }

    /// Y register `n`.
    #[inline]
    pub const fn y(n: usize) -> Dst {
        Dst(n as u32 | DST_Y)
    }

    /// True for a Y register.
    #[inline(always)]
    pub const fn is_y(self) -> bool {
        self.0 & DST_Y != 0
    }

    /// The register index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & !DST_Y) as usize
    }

    /// The same register as a source.
    pub const fn as_src(self) -> Src {
        if self.is_y() {
            Src::y(self.index())
        } else {
            Src::x(self.index())
        }
    }
}

impl std::fmt::Debug for Dst {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_y() {
            write!(f, "y{}", self.index())
        } else {
            write!(f, "x{}", self.index())
        }
    }
}

/// A jump target: an instruction offset relative to the instruction holding
/// it. [`Target::NONE`] means "no label": the instruction raises instead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct Target(pub i32);

impl Target {
    /// No label.
    pub const NONE: Target = Target(0);

    /// True when there is a label.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::atom::Atom;

    #[test]
    fn registers_and_constants_never_collide() {
        for t in [
            Term::NIL,
            Term::NON_VALUE,
            Term::small_unchecked(-1),
            Term::atom(Atom::OK),
            Term::pid(3),
        ] {
            assert!(!Src::constant(t).is_register(), "{t:?}");
            assert_eq!(Src::constant(t).kind(), SrcKind::Const(t));
        }
        assert_eq!(Src::x(0).kind(), SrcKind::X(0));
        assert_eq!(Src::y(1023).kind(), SrcKind::Y(1023));
        assert_eq!(Src::fr(5).kind(), SrcKind::Fr(5));
        assert!(Src::x(7).is_x() && !Src::y(7).is_x());
        assert_eq!(Dst::y(4).as_src(), Src::y(4));
        assert_eq!(std::mem::size_of::<Src>(), 8);
        assert_eq!(std::mem::size_of::<Dst>(), 4);
    }
}
