//! Bad input is an error, never a panic or a hang: truncation at every
//! length, corrupted bytes, absurd counts, unknown opcodes, and a literal
//! table that inflates past its bound.

use std::io::Write;

use beamr_core::beam::{BeamError, BeamErrorKind, BeamFile, ChunkId, MAX_LITERAL_TABLE_SIZE};

/// A small real module: OTP's own, so no compiler is needed.
fn small_beam() -> Vec<u8> {
    let candidates = std::fs::read_dir("/usr/lib/erlang/lib")
        .expect("Erlang/OTP is installed under /usr/lib/erlang")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("stdlib-"))
        .map(|e| e.path().join("ebin/erl_bits.beam"))
        .collect::<Vec<_>>();
    let path = candidates.first().expect("stdlib is installed");
    std::fs::read(path).unwrap()
}

/// Builds a `.beam` file from chunks, padding each to 4 bytes.
fn build(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut body = b"BEAM".to_vec();
    for (id, data) in chunks {
        body.extend_from_slice(*id);
        body.extend_from_slice(&(data.len() as u32).to_be_bytes());
        body.extend_from_slice(data);
        body.resize(body.len().div_ceil(4) * 4, 0);
    }
    let mut file = b"FOR1".to_vec();
    file.extend_from_slice(&(body.len() as u32).to_be_bytes());
    file.extend(body);
    file
}

fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

/// A minimal valid module `m` with one function body given as code bytes.
fn module_with(code: &[u8], extra: Vec<(&'static [u8; 4], Vec<u8>)>) -> Vec<u8> {
    let mut atoms = u32s(&[1]);
    atoms.push(1);
    atoms.push(b'm');
    let mut code_chunk = u32s(&[16, 0, 184, 1, 0]);
    code_chunk.extend_from_slice(code);
    let mut chunks: Vec<(&[u8; 4], Vec<u8>)> = vec![
        (b"AtU8", atoms),
        (b"Code", code_chunk),
        (b"ImpT", u32s(&[0])),
        (b"ExpT", u32s(&[0])),
    ];
    chunks.extend(extra);
    build(&chunks)
}

fn kind(result: Result<BeamFile, BeamError>) -> BeamErrorKind {
    result.expect_err("bad input must be rejected").kind
}

#[test]
fn the_small_module_parses() {
    let file = BeamFile::parse(&small_beam()).unwrap();
    assert_eq!(file.module_name(), "erl_bits");
}

#[test]
fn truncation_at_every_length_is_an_error() {
    let bytes = small_beam();
    for len in 0..bytes.len() {
        assert!(
            BeamFile::parse(&bytes[..len]).is_err(),
            "truncated to {len} bytes parsed"
        );
    }
}

#[test]
fn corrupting_any_byte_never_panics() {
    let bytes = small_beam();
    let mut copy = bytes.clone();
    for i in 0..bytes.len() {
        for value in [0x00, 0xff, bytes[i] ^ 0x80] {
            copy[i] = value;
            let _ = BeamFile::parse(&copy);
        }
        copy[i] = bytes[i];
    }
}

#[test]
fn container_errors_name_the_place() {
    assert_eq!(
        kind(BeamFile::parse(b"FOR2\0\0\0\x04BEAM")),
        BeamErrorKind::BadMagic(*b"FOR2")
    );
    assert_eq!(
        kind(BeamFile::parse(b"FOR1\0\0\0\x04BEAN")),
        BeamErrorKind::NotBeam(*b"BEAN")
    );
    let mut past_end = build(&[(b"AtU8", vec![0; 8])]);
    past_end[16..20].copy_from_slice(&1000u32.to_be_bytes());
    let err = BeamFile::parse(&past_end).unwrap_err();
    assert_eq!(err.chunk, Some(ChunkId::ATU8));
    assert_eq!(err.offset, 16);
    assert!(matches!(
        err.kind,
        BeamErrorKind::PastEnd { size: 1000, .. }
    ));
    assert_eq!(
        kind(BeamFile::parse(&build(&[(
            b"AtU8",
            vec![0, 0, 0, 1, 1, b'm']
        )]))),
        BeamErrorKind::MissingChunk(ChunkId::CODE)
    );
}

#[test]
fn a_minimal_module_parses() {
    // label 1; int_code_end
    let file = BeamFile::parse(&module_with(&[1, 0x10, 3], vec![])).unwrap();
    assert_eq!(file.instructions.len(), 2);
}

#[test]
fn unknown_opcode_names_code_and_offset() {
    let bytes = module_with(&[1, 0x10, 250, 3], vec![]);
    let err = BeamFile::parse(&bytes).unwrap_err();
    assert_eq!(err.kind, BeamErrorKind::UnknownOpcode(250));
    assert_eq!(err.chunk, Some(ChunkId::CODE));
    assert_eq!(bytes[err.offset], 250);
    assert_eq!(
        err.to_string(),
        format!("Code chunk at offset {:#x}: unknown opcode 250", err.offset)
    );
}

#[test]
fn code_without_end_is_an_error() {
    assert_eq!(
        kind(BeamFile::parse(&module_with(&[1, 0x10], vec![]))),
        BeamErrorKind::MissingCodeEnd
    );
}

#[test]
fn absurd_counts_are_rejected_before_allocating() {
    let huge = u32s(&[u32::MAX]);
    for id in [b"ImpT", b"ExpT"] {
        let mut atoms = u32s(&[1]);
        atoms.extend([1, b'm']);
        let bytes = build(&[
            (b"AtU8", atoms),
            (b"Code", u32s(&[16, 0, 184, 1, 0, 0x03000000])),
            (if id == b"ImpT" { b"ImpT" } else { b"ExpT" }, huge.clone()),
            (if id == b"ImpT" { b"ExpT" } else { b"ImpT" }, u32s(&[0])),
        ]);
        assert!(matches!(
            kind(BeamFile::parse(&bytes)),
            BeamErrorKind::AbsurdCount { .. }
        ));
    }
    // An atom table claiming 2^31 atoms in 4 bytes.
    let bytes = build(&[(b"AtU8", u32s(&[0x7fff_ffff]))]);
    assert!(matches!(
        kind(BeamFile::parse(&bytes)),
        BeamErrorKind::AbsurdCount { .. }
    ));
    // A list operand claiming 2047 elements: select_val x0 f0 {list, 2047}.
    let code = [1, 0x10, 59, 0x03, 0x05, 0x17, 0xe8, 0xff, 3];
    assert!(matches!(
        kind(BeamFile::parse(&module_with(&code, vec![]))),
        BeamErrorKind::AbsurdCount { .. }
    ));
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn literal_table_bounds() {
    let table = {
        let mut t = u32s(&[1, 2]);
        t.extend([131, 106]);
        t
    };
    let chunk = |declared: u32, data: &[u8]| {
        let mut c = u32s(&[declared]);
        c.extend(zlib(data));
        c
    };
    // Declared exactly: parses.
    let ok = module_with(
        &[1, 0x10, 3],
        vec![(b"LitT", chunk(table.len() as u32, &table))],
    );
    assert_eq!(
        BeamFile::parse(&ok).unwrap().literals.literals,
        vec![vec![131, 106]]
    );
    // Inflates past the declared size.
    let past = module_with(&[1, 0x10, 3], vec![(b"LitT", chunk(4, &table))]);
    assert_eq!(
        kind(BeamFile::parse(&past)),
        BeamErrorKind::InflatesPastSize { declared: 4 }
    );
    // Declares more than the bound.
    let big = module_with(&[1, 0x10, 3], vec![(b"LitT", chunk(u32::MAX, &table))]);
    assert!(matches!(
        kind(BeamFile::parse(&big)),
        BeamErrorKind::LiteralsTooLarge {
            limit: MAX_LITERAL_TABLE_SIZE,
            ..
        }
    ));
    // A zlib bomb (64 MiB of zeros) declared as 1 KiB stops at the declared size.
    let bomb = module_with(
        &[1, 0x10, 3],
        vec![(b"LitT", chunk(1024, &vec![0; 64 << 20]))],
    );
    assert_eq!(
        kind(BeamFile::parse(&bomb)),
        BeamErrorKind::InflatesPastSize { declared: 1024 }
    );
    // Not zlib at all.
    let mut junk = u32s(&[100]);
    junk.extend([1, 2, 3, 4, 5]);
    let junk = module_with(&[1, 0x10, 3], vec![(b"LitT", junk)]);
    assert!(matches!(
        kind(BeamFile::parse(&junk)),
        BeamErrorKind::Inflate(_)
    ));
}
