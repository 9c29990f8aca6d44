//! A per-thread memo of names already looked up in the atom table.
//!
//! Atoms are never freed, so a name once found keeps its atom for the life
//! of the runtime and a thread may remember it without asking the table
//! again. Schedulers look names up all the time (`binary_to_atom`,
//! `list_to_existing_atom`, decoding atoms from the external format, HTTP
//! header names in `decode_packet`); the memo spares each lookup the table's
//! shared read lock, whose counter every scheduler thread would otherwise
//! write, and a hash of the name with a slow hasher.

use std::cell::RefCell;
use std::collections::HashMap;

use super::table::Atom;

/// The most names one thread remembers; past it the memo starts again
/// empty, so a program that makes atoms by the million does not make every
/// thread keep a copy of the table.
const MOST_REMEMBERED: usize = 4096;

thread_local! {
    static SEEN: RefCell<HashMap<&'static str, Atom, foldhash::fast::RandomState>> =
        RefCell::new(HashMap::with_hasher(foldhash::fast::RandomState::default()));
}

/// The atom this thread has already found for `name`, if any.
#[inline]
pub(super) fn recall(name: &str) -> Option<Atom> {
    SEEN.try_with(|seen| seen.borrow().get(name).copied())
        .ok()
        .flatten()
}

/// Remembers `atom` on this thread, under its own (never freed) name.
pub(super) fn remember(atom: Atom) {
    // A thread being torn down has no memo left; the table still answers.
    let _ = SEEN.try_with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.len() >= MOST_REMEMBERED {
            seen.clear();
        }
        seen.insert(atom.name(), atom);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_atom_is_recalled_on_its_thread_only() {
        let atom = Atom::new("beamr_seen_test_atom").unwrap();
        remember(atom);
        assert_eq!(recall("beamr_seen_test_atom"), Some(atom));
        let elsewhere = std::thread::spawn(|| recall("beamr_seen_test_atom"))
            .join()
            .unwrap();
        assert_eq!(elsewhere, None);
    }

    #[test]
    fn a_full_memo_starts_again_and_still_answers() {
        let atoms: Vec<Atom> = (0..MOST_REMEMBERED + 10)
            .map(|i| Atom::new(&format!("beamr_seen_fill_{i}")).unwrap())
            .collect();
        for &atom in &atoms {
            remember(atom);
        }
        let last = atoms[atoms.len() - 1];
        assert_eq!(recall(last.name()), Some(last));
        SEEN.with(|seen| assert!(seen.borrow().len() <= MOST_REMEMBERED));
        for &atom in &atoms {
            assert_eq!(Atom::existing(atom.name()), Some(atom));
        }
    }
}
