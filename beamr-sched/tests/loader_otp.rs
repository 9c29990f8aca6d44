//! Every module of the local OTP installation loads: the opcodes its
//! compiler emits are the list beamr must implement, and every BIF its code
//! calls from a guard or a `bif` instruction must exist natively.

use beamr_core::beam::BeamFile;
use beamr_sched::code::otp_lib_dirs;
use beamr_sched::loader;

#[test]
fn every_otp_module_loads() {
    let dirs = otp_lib_dirs();
    assert!(
        !dirs.is_empty(),
        "no Erlang/OTP installation found (erl on PATH or BEAMR_OTP_ROOT)"
    );
    let natives = beamr_sched::bif::natives();
    let mut loaded = 0;
    let mut failures = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "beam") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let file =
                BeamFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            match loader::load(&file, &natives) {
                Ok(_) => loaded += 1,
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(
        loaded + failures.len() > 300,
        "expected the whole OTP library, found {}",
        loaded + failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} modules failed to load:\n{}",
        failures.len(),
        loaded + failures.len(),
        failures.join("\n")
    );
}
