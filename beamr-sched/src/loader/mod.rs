//! Code loading: generic instructions from a parsed `.beam` file become a
//! [`Module`] of executable [`Instr`]uctions, with labels resolved to
//! relative offsets, imports bound to exports or native BIFs, and literals
//! in the module's own literal area.

pub mod bs;
pub mod bs_match;
mod error;
mod frames;
mod instr;
mod lower;
pub mod maps;
mod module;
pub mod native;
mod natives;
mod operand;
pub mod record;
pub mod recv;
mod specialise;
#[cfg(test)]
mod test_code;
mod xregs;

pub use error::LoadError;
pub use instr::{
    ArithOp, BifCall, Compare, FloatOp, Instr, MakeFun, Select, Tail, TypeTest, RETURN_TRACE_STUB,
};
pub use lower::load;
pub use module::{FunctionInfo, Module};
pub use natives::{BifFn, BifRow, Natives};
pub use operand::{Dst, Src, SrcKind, Target};
