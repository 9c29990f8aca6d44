//! `beamr_core::format` against `erl`: every term of the corpus in
//! `tests/erlang/format_corpus.erl` is printed by OTP under `~w`, `~tw`,
//! `~p`, `~tp`, `~lp`, `~P`, `~W`, field widths and start columns; the test
//! rebuilds each term from its `term_to_binary` with
//! `beamr_core::etf::decode`, prints it natively and compares the text byte
//! for byte. Expected output always comes from the local `erl`.
//!
//! Needs the compiled fixture: run `cargo xtask fixtures` (or
//! `cargo xtask test-all`) first, or point `BEAMR_FIXTURES_DIR` at the
//! folder holding `beam/format_corpus.beam`.

use beamr_core::etf::{self, EtfErrorKind};
use beamr_core::format::{format_p, write_w, write_with, Encoding, PrettyOptions, WriteOptions};
use beamr_core::heap::Heap;
use beamr_core::term::Term;

mod support;

/// One corpus entry: the encoded term and OTP's text per directive.
struct Case {
    etf: Vec<u8>,
    outputs: Vec<(String, String)>,
}

/// Runs the fixture under `erl` and reads what it wrote.
fn corpus() -> Vec<Case> {
    parse(&support::erl_written("format_corpus"))
}

/// Parses the fixture's file (layout in `format_corpus.erl`).
fn parse(bytes: &[u8]) -> Vec<Case> {
    struct Reader<'a>(&'a [u8]);
    impl<'a> Reader<'a> {
        fn take(&mut self, n: usize) -> &'a [u8] {
            assert!(self.0.len() >= n, "corpus file truncated");
            let (head, rest) = self.0.split_at(n);
            self.0 = rest;
            head
        }
        fn u32(&mut self) -> usize {
            let b = self.take(4);
            u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize
        }
        fn text(&mut self, n: usize) -> String {
            String::from_utf8(self.take(n).to_vec()).expect("UTF-8 text in the corpus")
        }
    }
    let mut r = Reader(bytes);
    let mut cases = Vec::new();
    while !r.0.is_empty() {
        let len = r.u32();
        let etf = r.take(len).to_vec();
        let count = r.u32();
        let mut outputs = Vec::with_capacity(count);
        for _ in 0..count {
            let name_len = r.take(1)[0] as usize;
            let name = r.text(name_len);
            let text_len = r.u32();
            outputs.push((name, r.text(text_len)));
        }
        cases.push(Case { etf, outputs });
    }
    cases
}

/// The number after `prefix` in a directive name.
fn arg(name: &str, prefix: &str) -> Option<usize> {
    name.strip_prefix(prefix)?.parse().ok()
}

/// beamr's text for `term` under the fixture's directive `name`.
fn render(term: Term, name: &str) -> String {
    let mut s = String::new();
    let uni = Encoding::Unicode;
    let pretty = |o: PrettyOptions| format_p(term, &o);
    let p = PrettyOptions::default();
    match name {
        "w" => write_w(term, &mut s).unwrap(),
        "tw" => write_with(
            term,
            &mut s,
            &WriteOptions {
                encoding: uni,
                depth: None,
            },
        )
        .unwrap(),
        "p" => return pretty(p),
        "tp" => return pretty(PrettyOptions { encoding: uni, ..p }),
        "lp" => {
            return pretty(PrettyOptions {
                strings: false,
                ..p
            })
        }
        _ => {
            if let Some(d) = arg(name, "P") {
                return pretty(PrettyOptions {
                    depth: Some(d),
                    ..p
                });
            }
            if let Some(d) = arg(name, "tP") {
                return pretty(PrettyOptions {
                    depth: Some(d),
                    encoding: uni,
                    ..p
                });
            }
            if let Some(d) = arg(name, "W") {
                let o = WriteOptions {
                    depth: Some(d),
                    ..WriteOptions::default()
                };
                write_with(term, &mut s, &o).unwrap();
                return s;
            }
            if let Some(n) = arg(name, "pL") {
                return pretty(PrettyOptions {
                    line_length: n,
                    ..p
                });
            }
            if let Some(n) = arg(name, "tpL") {
                return pretty(PrettyOptions {
                    line_length: n,
                    encoding: uni,
                    ..p
                });
            }
            if let Some(c) = arg(name, "pc") {
                return pretty(PrettyOptions { column: c, ..p });
            }
            panic!("unknown directive {name} in the fixture");
        }
    }
    s
}

#[test]
fn every_corpus_term_prints_as_erl_prints_it() {
    let cases = corpus();
    assert!(cases.len() > 500, "corpus too small: {}", cases.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut skipped = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let mut heap = Heap::new();
        let term = match etf::decode(&case.etf, &mut heap) {
            Ok(t) => t,
            Err(e) if matches!(e.kind, EtfErrorKind::Unsupported(_)) => {
                skipped.push(format!("case {i}: {e}"));
                continue;
            }
            Err(e) => panic!("case {i}: decoding erl's term_to_binary failed: {e}"),
        };
        for (name, want) in &case.outputs {
            compared += 1;
            let got = render(term, name);
            if &got != want {
                if failures
                    .last()
                    .is_some_and(|f: &String| f.starts_with(&format!("case {i} ")))
                {
                    failures.push(format!("case {i} ~{name}: differs too"));
                    continue;
                }
                failures.push(format!(
                    "case {i} ~{name}:\n  erl:   {want:?}\n  beamr: {got:?}\n  (~w by erl: {})",
                    case.outputs[0].1
                ));
            }
        }
    }
    for s in &skipped {
        eprintln!("skipped (the decoder cannot build it yet): {s}");
    }
    eprintln!(
        "{compared} outputs compared, {} differ, {} terms skipped",
        failures.len(),
        skipped.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} outputs differ from erl's:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
