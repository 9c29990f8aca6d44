//! The flight recorder's hook: what an always-on recorder (beamr-ctl's
//! `flight`) is told, at a cost small enough to leave on.
//!
//! A trace session sets flags on every process and sends each event
//! through the process's sessions; for a recorder that sees every process
//! that costs an allocation per process and about a thousand instructions
//! an event (`cargo xtask bench --flight`). So the recorder is not a
//! session. Once [`install`]ed, its [`FlightSink`] gets:
//!
//! 1. **Lifecycle and collections, as events:** `spawned` (the child, its
//!    parent and initial call) from `sched::spawn` and `exit` with any
//!    reason but `normal` from `signals::exit`, each as its few words
//!    ([`FlightSink::spawned`], [`FlightSink::exited`]), and
//!    `gc_*_start`/`gc_*_end` from `process::collect` as events
//!    ([`FlightSink::event`]), with nothing kept per process. Exits with
//!    reason `normal`, the most frequent, are counted per scheduler
//!    instead, as in point 2: an event for each would cost more than half
//!    a spawn's whole budget (`cargo xtask bench --flight`'s spawn_many).
//! 2. **Messages and scheduling, as counters:** each time slice adds one
//!    to its scheduler's count, and the messages that entered the
//!    process's mailbox since its last slice (counted on the process,
//!    `Process::messages_in`) to its scheduler's messages
//!    ([`count_slice`]); the recorder samples them ([`counts`]) and writes
//!    one event per scheduler an interval. One event per message or slice
//!    would cost more than the message itself.
//!
//! The recorder's events are its own: no trace flag, no `erlang:trace/3`
//! call and no other session reaches them. Before [`install`], each hook
//! site is one load and one branch.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{Mfa, Payload, TraceEvent, TraceTag, Tracee};
use crossbeam_utils::CachePadded;

use super::clock::{now_ns, scheduler_id};
use super::PROBES;

/// Counter slots: scheduler `s` counts in slot `s` (`s < SLOTS`); slot 0
/// takes the threads that are not schedulers and any id past the last.
pub const SLOTS: usize = 64;

/// What the flight recorder is told; each call comes from the thread
/// where it happened, `scheduler_id` naming it (0: not a scheduler).
pub trait FlightSink: Send + Sync {
    /// `tracee` was spawned by `parent` (`[]` for none) to run `mfa`.
    fn spawned(&self, tracee: Tracee, scheduler_id: u32, parent: Term, mfa: &Mfa);
    /// `tracee` exited with `reason`.
    fn exited(&self, tracee: Tracee, scheduler_id: u32, reason: Term);
    /// Any other event (the garbage collections).
    fn event(&self, event: &TraceEvent<'_>);
}

static RECORDER: OnceLock<Arc<dyn FlightSink>> = OnceLock::new();

/// One count per scheduler, each on a cache line of its own.
struct Counts([CachePadded<AtomicU64>; SLOTS]);

impl Counts {
    const fn new() -> Counts {
        // A `const` item is copied into each element of the array.
        #[allow(clippy::declare_interior_mutable_const)]
        const ZERO: CachePadded<AtomicU64> = CachePadded::new(AtomicU64::new(0));
        Counts([ZERO; SLOTS])
    }

    /// Adds `n` for scheduler `id`, from that scheduler's thread. A
    /// scheduler's slot has one writer, the scheduler itself, so a load
    /// and a store suffice (no locked instruction); slot 0 (any other
    /// thread, any id past the last slot) adds atomically.
    #[inline(always)]
    fn add(&self, id: usize, n: u64) {
        if id != 0 && id < SLOTS {
            let slot = &self.0[id];
            slot.store(
                slot.load(Ordering::Relaxed).wrapping_add(n),
                Ordering::Relaxed,
            );
        } else {
            self.0[0].fetch_add(n, Ordering::Relaxed);
        }
    }

    fn get(&self, slot: usize) -> u64 {
        self.0.get(slot).map_or(0, |c| c.load(Ordering::Relaxed))
    }
}

static MESSAGES: Counts = Counts::new();
static SLICES: Counts = Counts::new();
static NORMAL_EXITS: Counts = Counts::new();

/// Installs `sink` as the flight recorder, from now on and for the rest
/// of the OS process; false if one was installed already.
pub fn install(sink: Arc<dyn FlightSink>) -> bool {
    RECORDER.set(sink).is_ok()
}

/// The recorder, when one is installed.
#[inline(always)]
fn recorder() -> Option<&'static Arc<dyn FlightSink>> {
    if PROBES {
        RECORDER.get()
    } else {
        None
    }
}

/// True when a recorder is installed: the gate of the sites whose event
/// takes work to build (a collection's sizes).
#[inline(always)]
pub fn installed() -> bool {
    recorder().is_some()
}

/// Tells the recorder, if one is installed, that `pid` was spawned by
/// `parent` to run `mfa`.
#[inline(always)]
pub fn spawned(pid: Term, parent: Term, mfa: &Mfa) {
    if let Some(sink) = recorder() {
        if let Some(tracee) = Tracee::from_term(pid) {
            sink.spawned(tracee, scheduler_id(), parent, mfa);
        }
    }
}

/// Tells the recorder, if one is installed, that `pid` exited with
/// `reason`: an exit with reason `normal` is counted for its scheduler
/// (see the module's point 1), any other is an event.
#[inline(always)]
pub fn exited(pid: Term, reason: Term) {
    if let Some(sink) = recorder() {
        if reason == Term::atom(Atom::NORMAL) {
            NORMAL_EXITS.add(scheduler_id() as usize, 1);
        } else if let Some(tracee) = Tracee::from_term(pid) {
            sink.exited(tracee, scheduler_id(), reason);
        }
    }
}

/// Hands `tag` of `pid` with `payload` to the recorder, if one is
/// installed.
#[inline(always)]
pub fn event(tag: TraceTag, pid: Term, payload: Payload<'_>) {
    if let Some(sink) = recorder() {
        hand_over(&**sink, tag, pid, payload);
    }
}

#[cold]
#[inline(never)]
fn hand_over(sink: &dyn FlightSink, tag: TraceTag, pid: Term, payload: Payload<'_>) {
    if let Some(tracee) = Tracee::from_term(pid) {
        sink.event(&TraceEvent::new(
            tag,
            tracee,
            now_ns(),
            scheduler_id(),
            payload,
        ));
    }
}

/// Counts one time slice, and the messages that entered the process's
/// mailbox since its last (`messages_in`, taken), when a recorder is
/// installed.
#[inline(always)]
pub fn count_slice(messages_in: &mut u64) {
    if installed() {
        count_slice_of(std::mem::take(messages_in));
    }
}

#[inline(never)]
fn count_slice_of(messages: u64) {
    let id = scheduler_id() as usize;
    SLICES.add(id, 1);
    MESSAGES.add(id, messages);
}

/// Counts of one slot so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// Messages that entered the mailboxes of the processes that
    /// scheduler ran, counted at the end of their slices.
    pub messages: u64,
    /// Time slices run on it.
    pub slices: u64,
    /// Processes that exited on it with reason `normal`.
    pub normal_exits: u64,
}

impl Counted {
    /// What was counted from `earlier` to these.
    pub fn since(&self, earlier: &Counted) -> Counted {
        Counted {
            messages: self.messages.saturating_sub(earlier.messages),
            slices: self.slices.saturating_sub(earlier.slices),
            normal_exits: self.normal_exits.saturating_sub(earlier.normal_exits),
        }
    }

    /// True when nothing was counted.
    pub fn is_empty(&self) -> bool {
        *self == Counted::default()
    }
}

/// What slot `slot` has counted since the recorder was installed (slot 0:
/// threads that are not schedulers).
pub fn counts(slot: usize) -> Counted {
    Counted {
        messages: MESSAGES.get(slot),
        slices: SLICES.get(slot),
        normal_exits: NORMAL_EXITS.get(slot),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scheduler_counts_in_its_own_slot_and_others_in_slot_0() {
        let counts = Counts::new();
        counts.add(0, 1);
        std::thread::scope(|s| {
            s.spawn(|| {
                counts.add(3, 2);
                counts.add(3, 5);
            });
            s.spawn(|| counts.add(SLOTS + 5, 4));
        });
        assert_eq!(counts.get(0), 5);
        assert_eq!(counts.get(3), 7);
        assert_eq!(counts.get(SLOTS), 0);
    }
}
