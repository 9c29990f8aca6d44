//! beamr's ETF against `erl`'s: every term of the corpus that
//! `tests/erlang/etf_corpus.erl` writes with `term_to_binary` (and the
//! encodings erl reads but never writes) decodes, and encodes again to
//! exactly the bytes erl's `term_to_binary` gives for it; every input erl
//! refuses, beamr refuses with an error, not a panic.

mod etf_support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use beamr_core::etf::{self, EtfErrorKind};
use beamr_core::heap::Heap;
use beamr_core::order;
use beamr_core::term::{Kind, Term, FLAT_MAP_LIMIT};

/// The corpus, written once per test run: name -> (input, expected
/// re-encoding); and bad name -> input.
struct Corpus {
    cases: BTreeMap<String, (Vec<u8>, Vec<u8>)>,
    bad: BTreeMap<String, Vec<u8>>,
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = etf_support::scratch_dir("corpus");
        etf_support::erl_eval(&format!(
            "etf_corpus:write({})",
            etf_support::erl_string(&dir)
        ));
        let mut cases = BTreeMap::new();
        let mut bad = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("corpus dir") {
            let path: PathBuf = entry.expect("dir entry").path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            match path.extension().and_then(|e| e.to_str()) {
                Some("in") => {
                    let input = std::fs::read(&path).unwrap();
                    let out = std::fs::read(path.with_extension("out")).unwrap();
                    cases.insert(name, (input, out));
                }
                Some("bad") => {
                    bad.insert(name, std::fs::read(&path).unwrap());
                }
                _ => {}
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        Corpus { cases, bad }
    })
}

/// The zlib level a case is re-encoded with: `zL_...` names are compressed
/// at level L.
fn level(name: &str) -> Option<u32> {
    let b = name.as_bytes();
    (b.len() > 3 && b[0] == b'z' && b[2] == b'_').then(|| (b[1] - b'0') as u32)
}

#[test]
fn corpus_decodes_and_reencodes_byte_for_byte() {
    let corpus = corpus();
    assert!(
        corpus.cases.len() >= 300,
        "only {} cases",
        corpus.cases.len()
    );
    let mut failures = Vec::new();
    for (name, (input, expected)) in &corpus.cases {
        let mut heap = Heap::new();
        let term = match etf::decode(input, &mut heap) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: decode failed: {e}"));
                continue;
            }
        };
        let again = match level(name) {
            Some(l) => etf::encode_compressed(term, l).unwrap(),
            None => etf::encode(term),
        };
        if &again != expected && !same_up_to_vm_dependent_map_order(term, &again, expected) {
            let at = again.iter().zip(expected).position(|(a, b)| a != b);
            failures.push(format!(
                "{name}: re-encoded {} bytes, erl wrote {} (first difference at {at:?})",
                again.len(),
                expected.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        corpus.cases.len(),
        failures.join("\n")
    );
}

/// True if `term` holds a hash-trie map (over 32 keys) with a key whose
/// hash depends on the VM instance (an atom, pid, port, reference or fun:
/// OTP hashes them by table index or address, see `beamr_core::map::hash`),
/// so its pairs come out in an order of beamr's own; and `ours` and `erls`
/// then decode to exactly equal terms.
fn same_up_to_vm_dependent_map_order(term: Term, ours: &[u8], erls: &[u8]) -> bool {
    let mut stack = vec![term];
    let mut vm_dependent = false;
    while let Some(t) = stack.pop() {
        if let Some((h, tl)) = t.as_cons() {
            stack.extend([h, tl]);
        } else if let Some(elems) = t.as_tuple() {
            stack.extend_from_slice(elems);
        } else if t.map_size().is_some_and(|n| n > FLAT_MAP_LIMIT) {
            for (k, v) in beamr_core::map::iter(t).into_iter().flatten() {
                vm_dependent |= has_vm_dependent_hash(k);
                stack.extend([k, v]);
            }
        } else if let Some(flat) = t.as_flat_map() {
            stack.extend_from_slice(flat.keys);
            stack.extend_from_slice(flat.values);
        }
    }
    let mut heap = Heap::new();
    vm_dependent
        && ours.len() == erls.len()
        && match (etf::decode(ours, &mut heap), etf::decode(erls, &mut heap)) {
            (Ok(a), Ok(b)) => order::exact_eq(a, b),
            _ => false,
        }
}

/// True if `key` contains an atom, pid, port, reference or fun.
fn has_vm_dependent_hash(key: Term) -> bool {
    let mut stack = vec![key];
    while let Some(t) = stack.pop() {
        match t.kind() {
            Kind::Atom | Kind::Pid | Kind::Port | Kind::Ref | Kind::Fun => return true,
            Kind::Cons => stack.extend(t.as_cons().map(|(h, tl)| [h, tl]).into_iter().flatten()),
            Kind::Tuple => stack.extend_from_slice(t.as_tuple().unwrap_or(&[])),
            Kind::Map => {
                for (k, v) in beamr_core::map::iter(t).into_iter().flatten() {
                    stack.extend([k, v]);
                }
            }
            _ => {}
        }
    }
    false
}

#[test]
fn decode_used_reports_where_each_term_ends() {
    for (name, (input, _)) in &corpus().cases {
        if name.contains("trailing") {
            continue;
        }
        let mut padded = input.clone();
        padded.extend_from_slice(&[131, 97, 1]);
        let mut heap = Heap::new();
        let (_, used) =
            etf::decode_used(&padded, &mut heap).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(used, input.len(), "{name}");
    }
}

#[test]
fn inputs_erl_refuses_are_refused() {
    let corpus = corpus();
    assert!(
        corpus.bad.len() >= 50,
        "only {} bad cases",
        corpus.bad.len()
    );
    let mut accepted = Vec::new();
    for (name, input) in &corpus.bad {
        let mut heap = Heap::new();
        if let Ok(t) = etf::decode(input, &mut heap) {
            accepted.push(format!("{name}: decoded to {t:?}"));
        }
    }
    assert!(
        accepted.is_empty(),
        "accepted bad input:\n{}",
        accepted.join("\n")
    );
}

#[test]
fn errors_name_the_problem_and_its_offset() {
    let bad = &corpus().bad;
    let err = |name: &str| {
        let input = bad
            .get(name)
            .unwrap_or_else(|| panic!("no bad case {name}"));
        etf::decode(input, &mut Heap::new()).unwrap_err()
    };
    let e = err("bad_version");
    assert_eq!(
        (e.kind.clone(), e.offset),
        (EtfErrorKind::BadVersion(130), 0)
    );
    let e = err("unknown_tag_inner");
    assert_eq!((e.kind.clone(), e.offset), (EtfErrorKind::UnknownTag(1), 5));
    assert!(matches!(
        err("truncated_0").kind,
        EtfErrorKind::Truncated { .. }
    ));
    assert!(matches!(
        err("huge_list").kind,
        EtfErrorKind::CountTooLarge {
            count: 0xffff_ffff,
            ..
        }
    ));
    assert!(matches!(
        err("huge_binary").kind,
        EtfErrorKind::Truncated { .. }
    ));
    assert_eq!(err("long_atom").kind, EtfErrorKind::AtomTooLong(256));
    assert_eq!(err("long_atom_utf8").kind, EtfErrorKind::AtomTooLong(256));
    assert_eq!(err("bad_utf8_atom").kind, EtfErrorKind::InvalidUtf8);
    assert_eq!(err("nan_float").kind, EtfErrorKind::NonFiniteFloat);
    assert_eq!(err("dup_map_keys").kind, EtfErrorKind::DuplicateMapKey);
    assert_eq!(err("fun_ext").kind, EtfErrorKind::ObsoleteFun);
    assert!(matches!(
        err("compressed_huge_declared").kind,
        EtfErrorKind::InflateLimit { .. }
    ));
    assert!(matches!(
        err("compressed_size_too_small").kind,
        EtfErrorKind::InflateSize { .. }
    ));
    assert!(matches!(
        err("compressed_size_too_large").kind,
        EtfErrorKind::InflateSize { .. }
    ));
    let e = err("compressed_twice");
    assert!(e.in_compressed && e.offset == 0, "{e}");
    assert_eq!(e.to_string(), "byte 0 of the inflated data: unknown tag 80");
}
