//! beamr's encoder against `erl`'s decoder: terms built directly on a beamr
//! heap are encoded, and `erl` (`etf_corpus:check/1`) must decode each to a
//! term exactly equal (`=:=`) to an Erlang expression of the intended term,
//! and encode that term back to the very bytes beamr wrote.

mod etf_support;

use beamr_core::atom::Atom;
use beamr_core::etf;
use beamr_core::heap::Heap;
use beamr_core::map;
use beamr_core::term::{Export, Term};
use num_bigint::BigInt;

/// A case: a name, the Erlang expression of the term, and how to build it.
type Case = (&'static str, String, Box<dyn Fn(&mut Heap) -> Term>);

fn case(name: &'static str, expr: &str, build: impl Fn(&mut Heap) -> Term + 'static) -> Case {
    (name, expr.to_owned(), Box::new(build))
}

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).unwrap())
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let ints: [(&str, i64); 14] = [
        ("0", 0),
        ("255", 255),
        ("256", 256),
        ("-1", -1),
        ("134217728", 1 << 27),
        ("2147483647", i32::MAX as i64),
        ("2147483648", 1 << 31),
        ("-2147483648", i32::MIN as i64),
        ("-2147483649", i32::MIN as i64 - 1),
        ("576460752303423487", (1 << 59) - 1),
        ("576460752303423488", 1 << 59),
        ("-576460752303423489", -(1 << 59) - 1),
        ("9223372036854775807", i64::MAX),
        ("-9223372036854775808", i64::MIN),
    ];
    for (expr, v) in ints {
        cases.push(case("int", expr, move |h| h.int(v)));
    }
    let one = || BigInt::from(1u8);
    for (expr, big) in [
        ("1 bsl 64", one() << 64usize),
        ("(1 bsl 64) + 1", (one() << 64usize) + 1),
        ("-(1 bsl 64)", -(one() << 64usize)),
        ("1 bsl 2040", one() << 2040usize),
        ("-(1 bsl 5000) + 12345", -(one() << 5000usize) + 12345),
    ] {
        cases.push(case("big", expr, move |h| h.bigint(&big)));
    }
    for (expr, f) in [
        ("0.0", 0.0),
        ("-0.0", -0.0),
        ("1.5", 1.5),
        ("1.0e300", 1.0e300),
        ("5.0e-324", 5.0e-324),
        ("-1.7976931348623157e308", -f64::MAX),
    ] {
        cases.push(case("float", expr, move |h| h.float(f)));
    }
    for (expr, name) in [
        ("ok", "ok"),
        ("''", ""),
        ("'hello world'", "hello world"),
        ("list_to_atom([233, 255])", "éÿ"),
        ("list_to_atom([945, 946])", "αβ"),
        ("list_to_atom(lists:duplicate(255, 945))", &"α".repeat(255)),
    ] {
        let name = name.to_owned();
        cases.push(case("atom", expr, move |_| atom(&name)));
    }
    cases.push(case("bin", "<<>>", |h| h.binary(&[])));
    cases.push(case("bin", "<<1, 2, 3>>", |h| h.binary(&[1, 2, 3])));
    cases.push(case("bin", "<<7:800>>", |h| {
        let mut bytes = vec![0u8; 100];
        bytes[99] = 7;
        h.binary(&bytes)
    }));
    cases.push(case("bits", "<<5:3>>", |h| h.bitstring(&[0b1011_1111], 3)));
    cases.push(case("bits", "<<1, 2, 1:1>>", |h| {
        h.bitstring(&[1, 2, 0xff], 17)
    }));
    cases.push(case("subbin", "<<3, 4>>", |h| {
        let whole = h.binary(&[1, 2, 3, 4, 5]);
        h.sub_binary(whole, 16, 16)
    }));
    cases.push(case("subbits", "<<32, 1:2>>", |h| {
        let whole = h.binary(&(0u8..200).collect::<Vec<_>>());
        // Bits 13..23 of <<0, 1, 2, ...>>: 001 (of 1) and 0000001 (of 2).
        h.sub_binary(whole, 13, 10)
    }));
    cases.push(case("list", "[]", |_| Term::NIL));
    cases.push(case("list", "\"abc\"", |h| h.string("abc")));
    cases.push(case("list", "[1, 2 | 3]", |h| {
        let items = [Term::small_unchecked(1), Term::small_unchecked(2)];
        h.list_with_tail(&items, Term::small_unchecked(3))
    }));
    cases.push(case("list", "[256, a]", |h| {
        let items = [Term::small_unchecked(256), atom("a")];
        h.list(&items)
    }));
    cases.push(case("list", "lists:duplicate(65535, 7)", |h| {
        h.list(&vec![Term::small_unchecked(7); 65535])
    }));
    cases.push(case("list", "lists:seq(1, 70000)", |h| {
        let items: Vec<Term> = (1..=70000).map(Term::small_unchecked).collect();
        h.list(&items)
    }));
    cases.push(case(
        "deep",
        "lists:foldl(fun(_, A) -> [A] end, [], lists:seq(1, 5000))",
        |h| (0..5000).fold(Term::NIL, |acc, _| h.list(&[acc])),
    ));
    cases.push(case("tuple", "{}", |h| h.tuple(&[])));
    cases.push(case("tuple", "{a, 1, \"s\"}", |h| {
        let s = h.string("s");
        h.tuple(&[atom("a"), Term::small_unchecked(1), s])
    }));
    cases.push(case("tuple", "list_to_tuple(lists:seq(1, 300))", |h| {
        let items: Vec<Term> = (1..=300).map(Term::small_unchecked).collect();
        h.tuple(&items)
    }));
    cases.push(case("map", "#{}", map::new));
    cases.push(case("map", "#{a => 1, b => [], 1 => x}", |h| {
        let pairs = [
            (atom("b"), Term::NIL),
            (atom("a"), Term::small_unchecked(1)),
            (Term::small_unchecked(1), atom("x")),
        ];
        map::from_pairs(h, &pairs)
    }));
    cases.push(case(
        "map",
        "maps:from_list([{K, K * K} || K <- lists:seq(1, 500)])",
        |h| {
            let pairs: Vec<(Term, Term)> = (1..=500)
                .map(|k| (Term::small_unchecked(k), Term::small_unchecked(k * k)))
                .collect();
            map::from_pairs(h, &pairs)
        },
    ));
    cases.push(case(
        "map",
        "maps:from_list([{<<K:16>>, {K}} || K <- lists:seq(1, 100)])",
        |h| {
            let pairs: Vec<(Term, Term)> = (1..=100u16)
                .map(|k| {
                    let key = h.binary(&k.to_be_bytes());
                    let value = h.tuple(&[Term::small_unchecked(k as i64)]);
                    (key, value)
                })
                .collect();
            map::from_pairs(h, &pairs)
        },
    ));
    let pid = etf::local::local_pid_number(5, 3).unwrap();
    cases.push(case("pid", "list_to_pid(\"<0.5.3>\")", move |_| {
        Term::pid(pid)
    }));
    cases.push(case(
        "pid",
        "binary_to_term(<<131,88,100,0,8,\"a@remote\",0,0,0,42,0,0,0,3,0,0,0,7>>)",
        |h| h.external_pid(Atom::new("a@remote").unwrap(), 42, 3, 7),
    ));
    cases.push(case("port", "list_to_port(\"#Port<0.12>\")", |_| {
        Term::port(12)
    }));
    cases.push(case(
        "port",
        "binary_to_term(<<131,89,100,0,8,\"a@remote\",0,0,0,9,0,0,0,2>>)",
        |h| h.external_port(Atom::new("a@remote").unwrap(), 9, 2),
    ));
    cases.push(case("ref", "list_to_ref(\"#Ref<0.3.2.1>\")", |h| {
        h.local_ref([1, 2, 3])
    }));
    cases.push(case(
        "ref",
        "binary_to_term(<<131,90,0,2,100,0,8,\"a@remote\",0,0,0,4,0,0,0,1,0,0,0,2>>)",
        |h| h.external_ref(Atom::new("a@remote").unwrap(), 4, &[1, 2]),
    ));
    cases.push(case("export", "fun lists:map/2", |h| {
        let e = Export::intern(
            atom("lists").as_atom().unwrap(),
            atom("map").as_atom().unwrap(),
            2,
        );
        h.export(e)
    }));
    cases.push(case(
        "mixed",
        "{ok, [#{k => <<\"v\">>}, 1.5, {nested, [list_to_atom([945])]}]}",
        |h| {
            let v = h.binary(b"v");
            let m = map::from_pairs(h, &[(atom("k"), v)]);
            let alpha = atom("α");
            let inner = h.list(&[alpha]);
            let nested = h.tuple(&[atom("nested"), inner]);
            let f = h.float(1.5);
            let l = h.list(&[m, f, nested]);
            h.tuple(&[atom("ok"), l])
        },
    ));
    cases
}

#[test]
fn erl_decodes_what_beamr_encodes() {
    let dir = etf_support::scratch_dir("to-erl");
    let cases = cases();
    let mut names = Vec::new();
    for (i, (kind, expr, build)) in cases.iter().enumerate() {
        let mut heap = Heap::new();
        let term = build(&mut heap);
        for compressed in [false, true] {
            let name = format!("{i:03}_{kind}{}", if compressed { "_z" } else { "" });
            let bytes = if compressed {
                etf::encode_compressed(term, etf::DEFAULT_COMPRESSION).unwrap()
            } else {
                etf::encode(term)
            };
            std::fs::write(dir.join(format!("{name}.bin")), &bytes).unwrap();
            std::fs::write(dir.join(format!("{name}.expr")), expr).unwrap();
            names.push(name);
        }
    }
    let out = etf_support::erl_eval(&format!(
        "etf_corpus:check({})",
        etf_support::erl_string(&dir)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let lines: Vec<&str> = out.lines().collect();
    let failures: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("ok ")).collect();
    assert!(
        failures.is_empty(),
        "erl disagrees:\n{}",
        failures
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    names.sort();
    let checked: Vec<String> = lines.iter().map(|l| l[3..].to_owned()).collect();
    assert_eq!(checked, names, "erl checked a different set of cases");
}
