//! `beamr_core::map` against `erl`: the fixture `tests/erlang/map_order.erl`
//! builds maps of 1 to 2,000 keys of many kinds (small integers, bignums,
//! floats, binaries, bitstrings, tuples, strings, improper lists, maps,
//! keys whose first 32-bit hashes collide, atoms), removes keys from some,
//! and writes the pairs with the order OTP 25 lists the keys in
//! (`maps:keys/1` and `maps:next/1`) and the words its nodes take. This test
//! decodes each case with `beamr_core::etf::decode`, builds the map with
//! `map::from_pairs` and again with one `map::put` per pair, applies the
//! removals with `map::remove`, and checks both iteration orders, every
//! lookup, the size, the shape (node words) and that both builds are equal.
//!
//! Needs the compiled fixture: run `cargo xtask fixtures` (or
//! `cargo xtask test-all`) first, or point `BEAMR_FIXTURES_DIR` at the
//! folder holding `beam/map_order.beam`.

use std::cmp::Ordering;

use beamr_core::etf;
use beamr_core::heap::Heap;
use beamr_core::map::{self, Order};
use beamr_core::order::{compare, compare_exact, exact_eq};
use beamr_core::term::{Term, FLAT_MAP_LIMIT};

mod support;

/// Runs the fixture and returns each case's encoding.
fn cases() -> Vec<Vec<u8>> {
    let bytes = support::erl_written("map_order");
    let mut cases = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        cases.push(bytes[at + 4..at + 4 + len].to_vec());
        at += 4 + len;
    }
    cases
}

/// One case, decoded.
struct Case {
    name: String,
    exact: bool,
    pairs: Vec<(Term, Term)>,
    removals: Vec<Term>,
    to_list_keys: Vec<Term>,
    next_keys: Vec<Term>,
    node_words: i64,
}

fn decode_case(bytes: &[u8], heap: &mut Heap) -> Case {
    let t = etf::decode(bytes, heap).expect("decoding a case");
    let f = t.as_tuple().expect("a case is a tuple");
    let list = |t: Term| t.list_to_vec().expect("a proper list");
    Case {
        name: String::from_utf8(f[0].as_binary().unwrap().to_vec()).unwrap(),
        exact: f[1] == Term::TRUE,
        pairs: list(f[2])
            .into_iter()
            .map(|p| {
                let kv = p.as_tuple().unwrap();
                (kv[0], kv[1])
            })
            .collect(),
        removals: list(f[3]),
        to_list_keys: list(f[4]),
        next_keys: list(f[5]),
        node_words: f[6].as_small().unwrap(),
    }
}

/// The words OTP 25's layout takes for `map`'s nodes and leaves: a flat map
/// is a header, size, keys pointer and values, plus the keys tuple (the
/// empty map's keys tuple is a shared literal); a trie's root is a header,
/// size and children (16 children without a bitmap when full), an inner
/// node a header with the bitmap and its children, a leaf a cons cell.
fn otp_node_words(map: Term) -> i64 {
    if let Some(flat) = map.as_flat_map() {
        let n = flat.keys.len() as i64;
        return 3 + n + if n > 0 { 1 + n } else { 0 };
    }
    let mut words = 0;
    let mut stack = vec![(map, true)];
    while let Some((node, root)) = stack.pop() {
        let view = node.as_hash_node().expect("a trie node");
        words += view.children.len() as i64 + if root { 2 } else { 1 };
        for &child in view.children {
            if child.is_cons() {
                words += 2;
            } else {
                stack.push((child, false));
            }
        }
    }
    words
}

fn keys_of(map: Term, order: Order) -> Vec<Term> {
    map::iter_in(map, order)
        .expect("a map")
        .map(|(k, _)| k)
        .collect()
}

fn same_sequence(ours: &[Term], theirs: &[Term]) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(&a, &b)| exact_eq(a, b))
}

fn same_set(ours: &[Term], theirs: &[Term]) -> bool {
    let sorted = |ks: &[Term]| {
        let mut v = ks.to_vec();
        v.sort_by(|&a, &b| compare_exact(a, b));
        v
    };
    same_sequence(&sorted(ours), &sorted(theirs))
}

/// Checks one case; returns what disagrees.
fn check(case: &Case, heap: &mut Heap) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut built = map::from_pairs(heap, &case.pairs);
    let mut grown = map::new(heap);
    for &(k, v) in &case.pairs {
        grown = map::put(heap, grown, k, v).expect("put into a map");
    }
    for &k in &case.removals {
        built = map::remove(heap, built, k).expect("remove from a map");
        grown = map::remove(heap, grown, k).expect("remove from a map");
    }
    let n = case.to_list_keys.len();
    for (label, m) in [("from_pairs", built), ("put", grown)] {
        if map::size(m) != Some(n) {
            wrong.push(format!("{label}: size {:?}, erl {n}", map::size(m)));
        }
        if (n > FLAT_MAP_LIMIT) != m.as_hash_node().is_some() {
            wrong.push(format!(
                "{label}: {n} keys but flat is {}",
                m.as_flat_map().is_some()
            ));
        }
        let (to_list, next) = (keys_of(m, Order::ToList), keys_of(m, Order::Next));
        let agree = |ours: &[Term], theirs: &[Term]| {
            if case.exact {
                same_sequence(ours, theirs)
            } else {
                same_set(ours, theirs)
            }
        };
        if !agree(&to_list, &case.to_list_keys) {
            wrong.push(format!(
                "{label}: maps:to_list order differs; first keys ours {:?}, erl {:?}",
                &to_list[..to_list.len().min(6)],
                &case.to_list_keys[..n.min(6)]
            ));
        }
        if !agree(&next, &case.next_keys) {
            wrong.push(format!("{label}: maps:next order differs"));
        }
        if case.exact && otp_node_words(m) != case.node_words {
            wrong.push(format!(
                "{label}: shape takes {} words in OTP's layout, erl {}",
                otp_node_words(m),
                case.node_words
            ));
        }
        for (k, v) in map::iter(m).unwrap() {
            if map::get(m, k).map(Term::raw) != Some(v.raw()) {
                wrong.push(format!("{label}: get({k:?}) is not the listed value"));
                break;
            }
        }
    }
    // The last pair for a key gives its value.
    for &(k, _) in &case.pairs {
        let last = case
            .pairs
            .iter()
            .rev()
            .find(|p| exact_eq(p.0, k))
            .unwrap()
            .1;
        let removed = case.removals.iter().any(|&r| exact_eq(r, k));
        let expected = if removed { None } else { Some(last.raw()) };
        if map::get(built, k).map(Term::raw) != expected {
            wrong.push(format!("get({k:?}) gives {:?}", map::get(built, k)));
            break;
        }
    }
    if !exact_eq(built, grown) || compare(built, grown) != Ordering::Equal {
        wrong.push("the from_pairs and put builds differ".to_string());
    }
    wrong
}

#[test]
fn large_maps_list_their_keys_in_otp_order() {
    let encoded = cases();
    assert!(
        encoded.len() >= 30,
        "only {} cases: is the fixture intact?",
        encoded.len()
    );
    let mut heap = Heap::new();
    let mut failures = Vec::new();
    let mut keys_checked = 0;
    for bytes in &encoded {
        let case = decode_case(bytes, &mut heap);
        keys_checked += case.to_list_keys.len();
        for w in check(&case, &mut heap) {
            failures.push(format!("{}: {w}", case.name));
        }
    }
    assert!(keys_checked > 5_000, "only {keys_checked} keys checked");
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
