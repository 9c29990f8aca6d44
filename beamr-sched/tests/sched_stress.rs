//! The scheduling protocol under load: 50 senders send 20,000 messages to 50
//! receivers on 4 scheduler threads, 20 times over. Every message arrives
//! exactly once and no wake-up is lost (the run finishes). A process body is
//! a mutex that only the scheduler holding it `RUNNING` locks, so two threads
//! never run one process at once; the state word's own races are tested in
//! `process::state_bits`.

use std::path::PathBuf;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::runtime::Runtime;

#[test]
fn every_message_arrives_once_on_four_schedulers() {
    let dir = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"))
        .join("beam");
    assert!(
        dir.join("sched_stress.beam").is_file(),
        "fixtures missing: run `cargo xtask fixtures`"
    );
    for round in 0..20 {
        let mut path = CodePath::new();
        path.push(&dir);
        for d in otp_lib_dirs() {
            path.push(d);
        }
        let rt = Arc::new(Runtime::new(path));
        let reason = rt
            .run_main(
                Atom::new("sched_stress").unwrap(),
                Atom::new("main").unwrap(),
                &[],
                4,
            )
            .expect("runs");
        assert_eq!(
            display_w(reason.term).to_string(),
            "{stress,true,true}",
            "round {round}"
        );
    }
}
