//! A whole `.beam` file parsed into plain data: every chunk, and the code
//! decoded into generic instructions.

use super::atoms::{parse_atoms, AtomTable};
use super::code::{parse_code, CodeChunk};
use super::compact::OperandLimits;
use super::container::{split_chunks, ChunkId, RawChunk};
use super::decode::decode_code;
use super::error::{BeamError, BeamErrorKind};
use super::exports::{parse_exports, FunctionEntry};
use super::funs::{parse_funs, Lambda};
use super::imports::{parse_imports, Import};
use super::instruction::Instruction;
use super::lines::{parse_lines, LineTable};
use super::literals::{parse_literals, LiteralTable};
use super::locals::parse_locals;
use super::records::{parse_records, RecordDecl};
use super::strings::{parse_strings, StringTable};
use super::types::{parse_types, TypeTable};

/// A parsed `.beam` module.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BeamFile {
    /// `AtU8` (or `Atom`): the atom table; atom 1 is the module name.
    pub atoms: AtomTable,
    /// `Code`: header fields and instruction bytes.
    pub code: CodeChunk,
    /// The decoded instructions, ending with `int_code_end`.
    pub instructions: Vec<Instruction>,
    /// `StrT`: the string table.
    pub strings: StringTable,
    /// `ImpT`: imported functions.
    pub imports: Vec<Import>,
    /// `ExpT`: exported functions.
    pub exports: Vec<FunctionEntry>,
    /// `LocT`: local functions (empty when the chunk is absent).
    pub locals: Vec<FunctionEntry>,
    /// `FunT`: lambdas (empty when the chunk is absent).
    pub funs: Vec<Lambda>,
    /// `LitT`: literals as raw ETF (empty when the chunk is absent).
    pub literals: LiteralTable,
    /// `Line`: source locations (empty when the chunk is absent).
    pub lines: LineTable,
    /// `Type`: operand types, when present.
    pub types: Option<TypeTable>,
    /// `Recs`: the native records the module declares (OTP 29; empty when
    /// the chunk is absent).
    pub records: Vec<RecordDecl>,
    /// `Attr`: module attributes, raw ETF.
    pub attributes: Option<Vec<u8>>,
    /// `CInf`: compile information, raw ETF.
    pub compile_info: Option<Vec<u8>>,
    /// `Meta`: metadata, raw ETF.
    pub meta: Option<Vec<u8>>,
    /// `Dbgi`: debug information, raw.
    pub debug_info: Option<Vec<u8>>,
    /// `Docs`: documentation, raw.
    pub docs: Option<Vec<u8>>,
    /// Chunks this parser does not know, raw, in file order.
    pub other_chunks: Vec<(ChunkId, Vec<u8>)>,
}

/// The chunks of one file by kind, each seen at most once.
#[derive(Default)]
struct Chunks<'a> {
    atoms: Option<RawChunk<'a>>,
    code: Option<RawChunk<'a>>,
    strings: Option<RawChunk<'a>>,
    imports: Option<RawChunk<'a>>,
    exports: Option<RawChunk<'a>>,
    locals: Option<RawChunk<'a>>,
    funs: Option<RawChunk<'a>>,
    literals: Option<RawChunk<'a>>,
    lines: Option<RawChunk<'a>>,
    types: Option<RawChunk<'a>>,
    records: Option<RawChunk<'a>>,
    attributes: Option<RawChunk<'a>>,
    compile_info: Option<RawChunk<'a>>,
    meta: Option<RawChunk<'a>>,
    debug_info: Option<RawChunk<'a>>,
    docs: Option<RawChunk<'a>>,
    other: Vec<RawChunk<'a>>,
}

impl<'a> Chunks<'a> {
    fn sort(raw: Vec<RawChunk<'a>>) -> Result<Self, BeamError> {
        let mut c = Chunks::default();
        for chunk in raw {
            let slot = match chunk.id {
                ChunkId::ATU8 | ChunkId::ATOM => &mut c.atoms,
                ChunkId::CODE => &mut c.code,
                ChunkId::STRT => &mut c.strings,
                ChunkId::IMPT => &mut c.imports,
                ChunkId::EXPT => &mut c.exports,
                ChunkId::LOCT => &mut c.locals,
                ChunkId::FUNT => &mut c.funs,
                ChunkId::LITT => &mut c.literals,
                ChunkId::LINE => &mut c.lines,
                ChunkId::TYPE => &mut c.types,
                ChunkId::RECS => &mut c.records,
                ChunkId::ATTR => &mut c.attributes,
                ChunkId::CINF => &mut c.compile_info,
                ChunkId::META => &mut c.meta,
                ChunkId::DBGI => &mut c.debug_info,
                ChunkId::DOCS => &mut c.docs,
                _ => {
                    c.other.push(chunk);
                    continue;
                }
            };
            if slot.is_some() {
                return Err(BeamError::new(
                    Some(chunk.id),
                    chunk.offset,
                    BeamErrorKind::DuplicateChunk,
                ));
            }
            *slot = Some(chunk);
        }
        Ok(c)
    }
}

fn required<'a>(chunk: Option<RawChunk<'a>>, id: ChunkId) -> Result<RawChunk<'a>, BeamError> {
    chunk.ok_or_else(|| BeamError::new(None, 0, BeamErrorKind::MissingChunk(id)))
}

fn raw(chunk: Option<RawChunk<'_>>) -> Option<Vec<u8>> {
    chunk.map(|c| c.data.to_vec())
}

impl BeamFile {
    /// Parses a whole `.beam` file: the container, every chunk, and the
    /// code. `AtU8` (or `Atom`), `Code`, `ImpT` and `ExpT` are required, as
    /// OTP's loader requires them.
    pub fn parse(bytes: &[u8]) -> Result<BeamFile, BeamError> {
        let c = Chunks::sort(split_chunks(bytes)?)?;
        let atoms = parse_atoms(&required(c.atoms, ChunkId::ATU8)?)?;
        let code = parse_code(&required(c.code, ChunkId::CODE)?)?;
        let imports = parse_imports(&required(c.imports, ChunkId::IMPT)?, &atoms)?;
        let exports = parse_exports(&required(c.exports, ChunkId::EXPT)?, &atoms)?;
        let locals = match &c.locals {
            Some(chunk) => parse_locals(chunk, &atoms)?,
            None => Vec::new(),
        };
        let funs = match &c.funs {
            Some(chunk) => parse_funs(chunk, &atoms)?,
            None => Vec::new(),
        };
        let literals = match &c.literals {
            Some(chunk) => parse_literals(chunk)?,
            None => LiteralTable::default(),
        };
        let lines = match &c.lines {
            Some(chunk) => parse_lines(chunk)?,
            None => LineTable::default(),
        };
        let types = c.types.as_ref().map(parse_types).transpose()?;
        let strings = parse_strings(c.strings.map(|s| s.data).unwrap_or_default());
        let limits = OperandLimits {
            atoms: atoms.len(),
            literals: literals.len(),
            types: types
                .as_ref()
                .filter(|t| t.version == 1)
                .map(|t| t.entries.len()),
        };
        let instructions = decode_code(&code, &limits)?;
        let records = match &c.records {
            Some(chunk) => parse_records(chunk, &limits, |i| atoms.get(i).map(str::to_owned))?,
            None => Vec::new(),
        };
        Ok(BeamFile {
            atoms,
            code,
            instructions,
            strings,
            imports,
            exports,
            locals,
            funs,
            literals,
            lines,
            types,
            records,
            attributes: raw(c.attributes),
            compile_info: raw(c.compile_info),
            meta: raw(c.meta),
            debug_info: raw(c.debug_info),
            docs: raw(c.docs),
            other_chunks: c.other.iter().map(|c| (c.id, c.data.to_vec())).collect(),
        })
    }

    /// The module's name (atom 1).
    pub fn module_name(&self) -> &str {
        self.atoms.module()
    }

    /// The atom at 1-based `index`.
    pub fn atom(&self, index: u32) -> Option<&str> {
        self.atoms.get(index)
    }
}
