//! Why a module could not be loaded.

use beamr_core::beam::BeamError;

/// A load failure, naming the module and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is not a valid `.beam` file.
    #[error("invalid .beam file: {0}")]
    Parse(#[from] BeamError),
    /// A literal could not be decoded.
    #[error("module {module}: literal {index} is not a valid external term: {reason}")]
    Literal {
        /// The module.
        module: String,
        /// Literal index.
        index: usize,
        /// The decoder's complaint.
        reason: String,
    },
    /// The code uses an instruction beamr does not run yet.
    #[error("module {module}: instruction {opcode} (at byte offset {offset}) is not supported by beamr yet")]
    Unsupported {
        /// The module.
        module: String,
        /// The opcode's name.
        opcode: &'static str,
        /// File offset of the instruction.
        offset: usize,
    },
    /// The code calls a BIF in a guard or as an instruction that beamr does
    /// not implement natively.
    #[error(
        "module {module}: BIF {bif} (at byte offset {offset}) is not implemented by beamr yet"
    )]
    UnknownBif {
        /// The module.
        module: String,
        /// `M:F/A`.
        bif: String,
        /// File offset of the instruction.
        offset: usize,
    },
    /// An instruction's operands are not what its opcode requires.
    #[error("module {module}: malformed {opcode} instruction at byte offset {offset}: {what}")]
    Malformed {
        /// The module.
        module: String,
        /// The opcode's name.
        opcode: &'static str,
        /// File offset of the instruction.
        offset: usize,
        /// What is wrong.
        what: String,
    },
    /// An atom in the file cannot be interned.
    #[error("module {module}: {reason}")]
    Atom {
        /// The module.
        module: String,
        /// Why.
        reason: String,
    },
}
