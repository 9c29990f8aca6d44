//! The atom table refuses programs' atoms past the BEAM's limit with
//! `system_limit`, and stays usable: the runtime's own names still fit,
//! in the reserve past the limit. (Its own test binary: it fills the
//! global table.)

use beamr_core::atom::{capacity, Atom, AtomError, MAX_ATOMS, RUNTIME_RESERVE};

#[test]
fn the_table_stops_at_the_beam_limit_with_system_limit() {
    let first = Atom::new_within_limit("limit_probe_first").unwrap();
    let mut i = 0u64;
    let err = loop {
        match Atom::new_within_limit(&format!("a{i}")) {
            Ok(_) => i += 1,
            Err(e) => break e,
        }
        assert!(i <= MAX_ATOMS as u64, "the table grew past its limit");
    };
    assert_eq!(err, AtomError::SystemLimit);
    assert_eq!(Atom::count(), MAX_ATOMS);
    // Existing atoms still resolve, by name and by index; new ones are refused.
    assert_eq!(Atom::new_within_limit("limit_probe_first"), Ok(first));
    assert_eq!(Atom::new_within_limit("a0").unwrap().name(), "a0");
    assert_eq!(
        Atom::new_within_limit("one_too_many"),
        Err(AtomError::SystemLimit)
    );
    assert_eq!(Atom::existing("one_too_many"), None);
    // The runtime's own names go into the reserve, up to its end.
    let own = Atom::new("a_runtime_name").unwrap();
    assert_eq!(own.name(), "a_runtime_name");
    assert_eq!(Atom::count(), MAX_ATOMS + 1);
    for j in 1..RUNTIME_RESERVE {
        Atom::new(&format!("r{j}")).unwrap();
    }
    assert_eq!(Atom::count(), capacity());
    assert_eq!(Atom::new("past_the_reserve"), Err(AtomError::SystemLimit));
}
