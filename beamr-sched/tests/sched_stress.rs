//! The scheduling protocol under load: 50 senders send 20,000 messages to 50
//! receivers on 4 scheduler threads, 20 times over. Every message arrives
//! exactly once and no wake-up is lost (the run finishes). A process body is
//! a mutex that only the scheduler holding it `RUNNING` locks, so two threads
//! never run one process at once; the state word's own races are tested in
//! `process::state_bits`.
//!
//! Nothing waits forever: the fixture gives up on a missing message after
//! 60 s and exits saying which sender or receiver came up short, and each
//! run is on a thread of its own that the test stops waiting for after
//! [`ROUND_LIMIT`] (for when the scheduler is too stuck even for that). The
//! other tests inject faults (`sched_stress:main/2`) to check both.

use std::path::Path;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;
use beamr_sched::runtime::Runtime;

mod support;

/// How long one round may run before the test fails. The fixture's own
/// deadline is 60 s; this is longer, so that its report normally comes
/// first, and generous, for a loaded two-core machine (a round takes well
/// under a second there).
const ROUND_LIMIT: Duration = Duration::from_secs(90);

/// The exit reason of `sched_stress:main(args...)` on 4 schedulers, as `~w`
/// prints it, waiting at most `limit`. Panics, naming `what`, when the run
/// cannot load, its thread panics, or it does not finish in time (its
/// thread is then left behind, stuck).
fn run(dir: &Path, args: &[Term], what: &str, limit: Duration) -> String {
    let rt = Arc::new(Runtime::new(support::code_path(dir)));
    let args = args.to_vec();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("sched_stress {what}"))
        .spawn(move || {
            let reason = rt
                .run_main(
                    Atom::new("sched_stress").unwrap(),
                    Atom::new("main").unwrap(),
                    &args,
                    4,
                )
                .map(|reason| display_w(reason.term).to_string());
            let _ = tx.send(reason.map_err(|e| format!("{e:?}")));
        })
        .expect("starting a run's thread");
    match rx.recv_timeout(limit) {
        Ok(Ok(reason)) => reason,
        Ok(Err(e)) => panic!("{what}: sched_stress:main did not run: {e}"),
        Err(mpsc::RecvTimeoutError::Timeout) => panic!(
            "{what}: sched_stress:main did not finish within {limit:?}, and its own \
             deadlines did not fire either: the scheduler lost a wake-up (or a timer)"
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            panic!("{what}: the thread running sched_stress:main panicked (see above)")
        }
    }
}

/// `sched_stress:main/2`'s arguments: the fault to inject, and the deadline
/// of each of the run's phases in milliseconds.
fn fault(name: &str, deadline_ms: i64) -> [Term; 2] {
    [
        Term::atom(Atom::new(name).unwrap()),
        Term::small(deadline_ms).unwrap(),
    ]
}

#[test]
fn every_message_arrives_once_on_four_schedulers() {
    let dir = support::fixtures("sched_stress");
    for round in 0..20 {
        let what = format!("round {round}");
        let reason = run(&dir, &[], &what, ROUND_LIMIT);
        assert_eq!(reason, "{stress,true,true}", "{what}");
    }
}

#[test]
fn a_lost_message_is_reported() {
    let dir = support::fixtures("sched_stress");
    let reason = run(&dir, &fault("drop_two", 60_000), "drop_two", ROUND_LIMIT);
    // Receiver 1 gets messages 1, 51, ..., 351 from each of 50 senders and
    // drops two, whichever came first.
    let (head, tail) = (
        "{stress,receivers_wrong,[{receiver,1,got,398,expected,400,sum,",
        ",expected_sum,70400}]}",
    );
    assert!(
        reason.starts_with(head) && reason.ends_with(tail),
        "{reason}"
    );
}

#[test]
fn a_silent_receiver_is_reported_after_the_deadline() {
    let dir = support::fixtures("sched_stress");
    let reason = run(&dir, &fault("silent", 5_000), "silent", ROUND_LIMIT);
    assert_eq!(
        reason,
        "{stress,receivers_wrong,[{receiver,1,no_total_within_ms,5000}]}"
    );
}

#[test]
#[should_panic(expected = "hang: sched_stress:main did not finish within 1s")]
fn a_stuck_run_fails_instead_of_hanging() {
    let dir = support::fixtures("sched_stress");
    run(&dir, &fault("hang", 0), "hang", Duration::from_secs(1));
}
