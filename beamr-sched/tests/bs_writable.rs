//! The writable-binary append optimisation: `<<Bin/binary, ...>>` extends
//! the latest version of a binary in place, copies an older version, and
//! stops extending in place once the binary is shared with another heap.

use std::path::PathBuf;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{OffHeapBinary, Term};
use beamr_sched::code::CodePath;
use beamr_sched::interp::Outcome;
use beamr_sched::process::Process;
use beamr_sched::runtime::Runtime;

fn runtime() -> Runtime {
    let dir = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"));
    let beam = dir.join("beam");
    assert!(
        beam.join("bs_construct.beam").is_file(),
        "fixtures missing in {}: run `cargo xtask fixtures`",
        beam.display()
    );
    let mut path = CodePath::new();
    path.push(beam);
    Runtime::new(path)
}

/// `bs_construct:append_loop(N, B)` on `p`: B with N times 5 bytes appended.
fn append(rt: &Runtime, p: &mut Process, n: i64, b: Term) -> Term {
    let m = Atom::new("bs_construct").unwrap();
    let f = Atom::new("append_loop").unwrap();
    let outcome = rt.call_in(p, m, f, &[Term::small_unchecked(n), b]).unwrap();
    assert!(matches!(outcome, Outcome::Returned), "{outcome:?}");
    p.returned_value()
}

/// The off-heap binary under a sub-binary result of an append.
fn storage(t: Term) -> *const OffHeapBinary {
    let (orig, _, _) = t.as_sub_binary().expect("appends give sub-binaries");
    orig.as_off_heap_binary().expect("over an off-heap binary")
}

fn bytes(t: Term) -> Vec<u8> {
    t.as_binary().unwrap().to_vec()
}

/// A process whose heap never needs collecting in these small tests, so
/// terms kept in Rust variables between calls stay valid.
fn process() -> Process {
    let mut p = Process::new(Term::pid(1));
    p.heap = Heap::with_capacity(1 << 20);
    p
}

/// What `append_loop(N, B)` appends, computed here.
fn appended(mut base: Vec<u8>, n: u32) -> Vec<u8> {
    for k in (1..=n).rev() {
        base.extend_from_slice(&k.to_be_bytes());
        base.push((k % 256) as u8);
    }
    base
}

#[test]
fn latest_version_grows_in_place_older_ones_are_copied() {
    let rt = runtime();
    let mut p = process();
    let empty = p.heap.binary(&[]);
    let b1 = append(&rt, &mut p, 10, empty);
    assert_eq!(bytes(b1), appended(vec![], 10));
    let bin = storage(b1);
    // SAFETY: b1 keeps its off-heap binary alive (the heap is never collected here).
    assert!(unsafe { (*bin).is_writable() });

    // The latest version: extended in place, same storage.
    let b2 = append(&rt, &mut p, 3, b1);
    assert_eq!(storage(b2), bin);
    assert_eq!(bytes(b2), appended(appended(vec![], 10), 3));

    // b1 is no longer the latest: appending to it copies, and b2 is intact.
    let b3 = append(&rt, &mut p, 2, b1);
    assert_ne!(storage(b3), bin);
    assert_eq!(bytes(b3), appended(appended(vec![], 10), 2));
    assert_eq!(bytes(b2), appended(appended(vec![], 10), 3));
    assert_eq!(bytes(b1), appended(vec![], 10));
}

#[test]
fn a_shared_binary_is_never_extended_in_place() {
    let rt = runtime();
    let mut p = process();
    let empty = p.heap.binary(&[]);
    let b1 = append(&rt, &mut p, 4, empty);
    let bin = storage(b1);
    // Another heap gets a copy (as a message would).
    let mut other = Heap::new();
    let copy = other.copy_term(b1);
    // SAFETY: both b1 and the copy keep the binary alive.
    assert!(!unsafe { (*bin).is_writable() });
    let b2 = append(&rt, &mut p, 1, b1);
    assert_ne!(storage(b2), bin, "a shared binary must be copied");
    assert_eq!(bytes(b2), appended(appended(vec![], 4), 1));
    assert_eq!(bytes(copy), appended(vec![], 4));
}

#[test]
fn appending_in_a_loop_is_amortised_linear() {
    // 200,000 appends of 5 bytes, 100 to a call: quadratic copying would
    // move 100 GB. A copy goes to new storage, so copies are counted, not
    // timed: the storage a call's result lies in changes only when the
    // binary outgrows its capacity, which grows by a factor (a few dozen
    // times in all), where copying on each append would change it on
    // every call.
    let rt = runtime();
    let mut p = Process::new(Term::pid(1));
    let mut b = p.heap.binary(&[]);
    let (mut changes, mut last) = (0, None);
    for _ in 0..2000 {
        b = append(&rt, &mut p, 100, b);
        let now = storage(b);
        if last != Some(now) {
            changes += 1;
            last = Some(now);
        }
    }
    assert_eq!(b.as_binary().unwrap().byte_size(), 1_000_000);
    assert!(
        changes <= 64,
        "the storage changed on {changes} of 2000 calls"
    );
}
