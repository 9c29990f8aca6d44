//! Files are closed when the process that opened them ends, as erts's
//! resource monitors close them: the `file_owner` fixture's owners each
//! hold a raw file and a non-raw one (opened by its io server) and end
//! without closing them; while they live, `prim_file` counts their files
//! open and the OS process has at least that many more descriptors; once
//! they (and their io servers) are gone and the runtime has ended, both
//! counts are back where they started.
//!
//! One test in this binary: the counts are of the whole OS process. The
//! inet drivers' I/O thread is the OS process's, not a runtime's: boot
//! starts it (`inet_db` opens a UDP socket), and it keeps its poller's
//! descriptors for the process's life, so it is started before the
//! counts are first taken.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_sched::bif::open_files;
use beamr_sched::process::{Payload, Signal};
use beamr_sched::runtime::Runtime;

mod support;

/// Owners the fixture starts; each holds two files.
const OWNERS: usize = 6;

/// File descriptors this OS process has open.
fn descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .count()
}

/// Waits until `done` holds, for at most 60 s: what it waits for takes
/// milliseconds (a runtime's boot, a few processes ending), and the limit
/// only ends a test that would otherwise hang.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn files_of_ended_processes_are_closed() {
    let beam = support::fixtures("file_owner");
    let dir = std::env::temp_dir().join(format!("beamr_file_owner_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rt = Arc::new(Runtime::new(support::code_path(&beam)));
    let run = |rt: &Arc<Runtime>, dir: &PathBuf, n: usize| {
        let rt = rt.clone();
        let dir = dir.to_string_lossy().into_owned();
        std::thread::spawn(move || {
            let mut heap = beamr_core::heap::Heap::new();
            let args = [heap.string(&dir), Term::small_unchecked(n as i64)];
            let reason = rt
                .run_main(
                    Atom::new("file_owner").unwrap(),
                    Atom::new("hold").unwrap(),
                    &args,
                    2,
                )
                .expect("runs");
            beamr_core::format::display_w(reason.term).to_string()
        })
    };
    let release = |rt: &Arc<Runtime>| {
        let name = Atom::new("file_owner_main").unwrap();
        wait_for("file_owner_main", || rt.names.whereis(name).is_some());
        let pid = rt.names.whereis(name).unwrap();
        let release = Atom::new("release").unwrap();
        rt.send_signal(
            pid,
            Signal::Message(Payload::build(|_| Term::atom(release)), None),
        );
    };
    assert!(
        beamr_sched::ports::inet::poller::poller().is_some(),
        "the I/O thread starts"
    );
    let (files, fds) = (open_files(), descriptors());
    let main = run(&rt, &dir, OWNERS);
    wait_for("the owners' files", || open_files() == files + 2 * OWNERS);
    // The runtime's boot may hold descriptors of its own while it runs.
    assert!(descriptors() >= fds + 2 * OWNERS, "a descriptor per file");
    release(&rt);
    assert_eq!(main.join().unwrap(), format!("{{released,{OWNERS}}}"));
    assert_eq!(open_files(), files, "prim_file's files after the owners");
    assert_eq!(descriptors(), fds, "descriptors after the owners");
    let _ = std::fs::remove_dir_all(&dir);
}
