//! OTP 26+'s flat-map key order for atoms: erl's boot atoms first, in erl's
//! index order, then every other atom in creation order; every other pair
//! of keys and the term order of whole maps stay as on OTP 25. Its own test
//! binary, since the release is set once per process.

use std::cmp::Ordering;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::map;
use beamr_core::order::compare;
use beamr_core::release::set_otp_release;
use beamr_core::term::Term;

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).unwrap())
}

fn names(keys: &[Term]) -> Vec<&'static str> {
    keys.iter()
        .map(|k| k.as_atom().expect("an atom key").name())
        .collect()
}

#[test]
fn atom_keys_follow_erl_boot_order_then_creation_order_on_otp_27() {
    set_otp_release(27);
    let mut heap = Heap::new();
    // Created here, after the boot atoms: a later name first.
    let (zeta, alpha) = (atom("test_zeta_key_v26"), atom("test_alpha_key_v26"));
    let pairs: Vec<(Term, Term)> = [
        alpha,
        atom("type"),
        Term::small_unchecked(7),
        zeta,
        atom("size"),
        atom("module"),
        atom("false"),
    ]
    .into_iter()
    .map(|k| (k, Term::NIL))
    .collect();
    let m = map::from_pairs(&mut heap, &pairs);
    let keys: Vec<Term> = map::iter(m).unwrap().map(|(k, _)| k).collect();
    // Numbers before atoms, as in the term order.
    assert_eq!(keys[0], Term::small_unchecked(7));
    assert_eq!(
        names(&keys[1..]),
        [
            "false",
            "module",
            "size",
            "type",
            "test_zeta_key_v26",
            "test_alpha_key_v26"
        ]
    );
    // Lookups find every key in the reordered map.
    for (k, _) in &pairs {
        assert!(map::contains(m, *k));
    }
    // The term order of maps still compares sorted keys: #{alpha} < #{zeta}.
    let a = map::from_pairs(&mut heap, &[(alpha, Term::NIL)]);
    let b = map::from_pairs(&mut heap, &[(zeta, Term::NIL)]);
    assert_eq!(compare(a, b), Ordering::Less);
    let ab = map::from_pairs(&mut heap, &[(alpha, Term::NIL), (zeta, Term::NIL)]);
    let bz = map::from_pairs(&mut heap, &[(zeta, Term::NIL), (atom("type"), Term::NIL)]);
    // Sorted keys [test_alpha, test_zeta] < [test_zeta, type].
    assert_eq!(compare(ab, bz), Ordering::Less);
    assert_eq!(compare(bz, ab), Ordering::Greater);
}
