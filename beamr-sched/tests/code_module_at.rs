//! `CodeServer::module_at`, which every stack trace asks for each frame:
//! it names the version whose code holds an address, among many loaded
//! modules and both versions of a reloaded one, and nothing for an address
//! outside every module's code.

use beamr_core::atom::Atom;
use beamr_sched::code::CodeServer;
use beamr_sched::runtime::Runtime;

mod support;

const MODULES: [&str; 8] = [
    "disasm_arith",
    "disasm_binaries",
    "disasm_exceptions",
    "disasm_floats",
    "disasm_funs",
    "disasm_lists",
    "disasm_maps",
    "disasm_tuples",
];

#[test]
fn every_address_of_every_module_is_found_in_it() {
    let dir = support::fixtures(MODULES[0]);
    // A runtime installs the native BIFs that the loader resolves calls to.
    let _runtime = Runtime::new(support::code_path(&dir));
    let server = CodeServer::new(support::code_path(&dir));
    let mut loaded = Vec::new();
    for name in MODULES {
        let bytes = std::fs::read(dir.join(format!("{name}.beam"))).unwrap();
        let atom = server.load_binary(&bytes).unwrap();
        loaded.push(server.current(atom).unwrap());
    }
    // A second version of the first: both versions keep their code.
    let bytes = std::fs::read(dir.join(format!("{}.beam", MODULES[0]))).unwrap();
    let first = Atom::new(MODULES[0]).unwrap();
    server.load_binary(&bytes).unwrap();
    let second = server.current(first).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&second, &loaded[0]));
    loaded.push(second);

    for module in &loaded {
        let code = &module.code;
        for ip in [&code[0], &code[code.len() / 2], &code[code.len() - 1]] {
            let found = server.module_at(ip).expect("an address in loaded code");
            assert!(
                std::sync::Arc::ptr_eq(&found, module),
                "{} found for an address of {}",
                found.name.name(),
                module.name.name()
            );
        }
    }
    let outside = [0u64; 4];
    assert!(server.module_at(outside.as_ptr().cast()).is_none());
    assert!(server.module_at(std::ptr::null()).is_none());
}
