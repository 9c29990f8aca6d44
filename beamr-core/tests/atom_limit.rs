//! The atom table refuses atoms past the BEAM's limit with `system_limit`,
//! and stays usable. (Its own test binary: it fills the global table.)

use beamr_core::atom::{Atom, AtomError, MAX_ATOMS};

#[test]
fn the_table_stops_at_the_beam_limit_with_system_limit() {
    let first = Atom::new("limit_probe_first").unwrap();
    let mut i = 0u64;
    let err = loop {
        match Atom::new(&format!("a{i}")) {
            Ok(_) => i += 1,
            Err(e) => break e,
        }
        assert!(i <= MAX_ATOMS as u64, "the table grew past its limit");
    };
    assert_eq!(err, AtomError::SystemLimit);
    assert_eq!(Atom::count(), MAX_ATOMS);
    // Existing atoms still resolve, by name and by index; new ones are refused.
    assert_eq!(Atom::new("limit_probe_first"), Ok(first));
    assert_eq!(Atom::new("a0").unwrap().name(), "a0");
    assert_eq!(Atom::new("one_too_many"), Err(AtomError::SystemLimit));
    assert_eq!(Atom::existing("one_too_many"), None);
}
