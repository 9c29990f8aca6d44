//! The scheduling protocol under load: 50 senders send 20,000 messages to 50
//! receivers on 4 scheduler threads, 20 times over. Every message arrives
//! exactly once and no wake-up is lost (the run finishes). A process body is
//! a mutex that only the scheduler holding it `RUNNING` locks, so two threads
//! never run one process at once; the state word's own races are tested in
//! `process::state_bits`.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_sched::runtime::Runtime;

mod support;

#[test]
fn every_message_arrives_once_on_four_schedulers() {
    let dir = support::fixtures("sched_stress");
    for round in 0..20 {
        let rt = Arc::new(Runtime::new(support::code_path(&dir)));
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
