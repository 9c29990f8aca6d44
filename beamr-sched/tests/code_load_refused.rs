//! A module version that is loaded but never installed (its binary names
//! another module, or the module still has old code) leaves the global fun
//! entries as they were: they keep pointing into the installed version's
//! code. Before, the loader pointed them at the refused version's code,
//! which is freed with it, so the next call of such a fun ran freed memory
//! (ThreadSanitizer's run of `code_load_errors` crashed on it; a normal
//! build usually read the stale copy and went on).

use std::sync::atomic::Ordering;

use beamr_core::atom::Atom;
use beamr_sched::code::{CodeServer, LoadFailure, LoadOutcome};

mod support;

/// Each fun entry of the current `disasm_funs`, with the address it holds.
fn fun_addresses(server: &CodeServer, module: Atom) -> Vec<usize> {
    let current = server.current(module).expect("disasm_funs is loaded");
    assert!(!current.funs.is_empty(), "the fixture defines funs");
    current
        .funs
        .iter()
        .map(|(entry, _)| {
            let address = entry.code.load(Ordering::Acquire);
            assert!(
                current.contains(address as *const _),
                "a fun entry points outside the current version"
            );
            address
        })
        .collect()
}

#[test]
fn a_refused_load_leaves_the_fun_entries_on_the_installed_code() {
    let dir = support::fixtures("disasm_funs");
    let server = CodeServer::new(support::code_path(&dir));
    let module = Atom::new("disasm_funs").unwrap();
    assert!(matches!(
        server.ensure_loaded(module),
        Ok(LoadOutcome::Loaded(_))
    ));
    let before = fun_addresses(&server, module);
    let bytes = std::fs::read(dir.join("disasm_funs.beam")).unwrap();

    let other = Atom::new("code_load_refused_other").unwrap();
    let refused = server.load_checked(other, &bytes, "in_memory".into());
    assert!(
        matches!(refused, Err(LoadFailure::Badfile(_))),
        "loaded under another name: {refused:?}"
    );
    assert_eq!(fun_addresses(&server, module), before);

    // A new version while the old one is not purged is refused too.
    server
        .load_checked(module, &bytes, "in_memory".into())
        .unwrap();
    let second = fun_addresses(&server, module);
    assert_ne!(second, before, "an installed version takes the entries");
    let refused = server.load_checked(module, &bytes, "in_memory".into());
    assert_eq!(refused, Err(LoadFailure::NotPurged));
    assert_eq!(fun_addresses(&server, module), second);
}
