//! `.beam` file parsing: the IFF container, every chunk as plain data, and
//! the Code chunk decoded into generic instructions.
//!
//! ```text
//! bytes --container--> chunks --atoms, imports, exports, locals, funs,
//!                               literals, lines, types, strings--> tables
//!                            --code + decode (opcode, compact)--> Vec<Instruction>
//!                                                  = BeamFile
//! BeamFile --functions, disasm, quote--> an `erlc -S` style listing
//! ```
//!
//! [`BeamFile::parse`] is the entry point. Bad input is never a panic: every
//! failure is a [`BeamError`] naming the chunk and the absolute byte offset,
//! and no allocation is sized from a count that the remaining bytes cannot
//! back (see [`reader`]). One file per chunk; the instruction set is one
//! table in [`opcode`].

pub mod atoms;
pub mod code;
pub mod compact;
pub mod container;
pub mod decode;
pub mod disasm;
pub mod error;
pub mod exports;
pub mod functions;
pub mod funs;
pub mod imports;
pub mod instruction;
pub mod lines;
pub mod literals;
pub mod locals;
pub mod module;
pub mod opcode;
pub mod operand;
pub mod quote;
pub mod reader;
pub mod records;
pub mod strings;
pub mod types;

pub use atoms::AtomTable;
pub use code::CodeChunk;
pub use container::{split_chunks, ChunkId, RawChunk};
pub use disasm::{raw_literal, Disassembler, LiteralPrinter};
pub use error::{BeamError, BeamErrorKind};
pub use exports::FunctionEntry;
pub use functions::{split_functions, FunctionSpan};
pub use funs::Lambda;
pub use imports::Import;
pub use instruction::Instruction;
pub use lines::{LineItem, LineTable};
pub use literals::{LiteralTable, MAX_LITERAL_TABLE_SIZE};
pub use module::BeamFile;
pub use opcode::Opcode;
pub use operand::{AllocKind, Integer, Operand, Register};
pub use records::RecordDecl;
pub use strings::StringTable;
pub use types::{TypeEntry, TypeTable};
