//! Decoded operands of generic instructions: the values the compact term
//! encoding (see [`compact`](super::compact)) can express.

use num_bigint::BigInt;

/// An integer operand (`i` tag): small when it fits an `i64`, else a bignum.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Integer {
    /// Fits in 64 bits.
    Small(i64),
    /// Does not fit in 64 bits.
    Big(BigInt),
}

impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Integer::Small(n) => write!(f, "{n}"),
            Integer::Big(n) => write!(f, "{n}"),
        }
    }
}

/// A register that a typed-register operand wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Register {
    /// An X (argument/temporary) register.
    X(u32),
    /// A Y (stack slot) register.
    Y(u32),
}

/// What one entry of an allocation list counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllocKind {
    /// Heap words (kind 0).
    Words,
    /// Floats (kind 1).
    Floats,
    /// Funs (kind 2).
    Funs,
}

/// One operand of a generic instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `u`: an untagged number (arity, live count, table index, size, ...).
    Unsigned(u64),
    /// `i`: an integer constant.
    Integer(Integer),
    /// `a` with a nonzero value: index into the atom table (1 is the module).
    Atom(u32),
    /// `a` with value 0: the empty list `[]`.
    Nil,
    /// `x`: an X register.
    X(u32),
    /// `y`: a Y register.
    Y(u32),
    /// `f`: a label; 0 means "no label" (raise an exception instead).
    Label(u32),
    /// `h`: a character.
    Char(u32),
    /// Extended 0: a float stored inline (compilers before literal tables).
    Float(f64),
    /// Extended 1: a list of operands (`select_val` pairs, `put_tuple2`
    /// elements, `bs_create_bin` segments, ...).
    List(Vec<Operand>),
    /// Extended 2: a floating-point register.
    FloatReg(u32),
    /// Extended 3: an allocation list (words, floats, funs).
    AllocList(Vec<(AllocKind, u64)>),
    /// Extended 4: index into the literal table.
    Literal(u32),
    /// Extended 5: a register with an index into the `Type` chunk.
    TypedReg {
        /// The register.
        reg: Register,
        /// Index into the type table.
        type_index: u32,
    },
}

impl Operand {
    /// The register this operand names, if it is `x`, `y` or a typed register.
    pub fn register(&self) -> Option<Register> {
        match *self {
            Operand::X(n) => Some(Register::X(n)),
            Operand::Y(n) => Some(Register::Y(n)),
            Operand::TypedReg { reg, .. } => Some(reg),
            _ => None,
        }
    }

    /// The number of an untagged operand.
    pub fn unsigned(&self) -> Option<u64> {
        match *self {
            Operand::Unsigned(n) => Some(n),
            _ => None,
        }
    }
}
