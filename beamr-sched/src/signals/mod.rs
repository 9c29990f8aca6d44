//! Signals: the one home of everything one process sends another (messages,
//! exit signals, links, unlinks, monitors, demonitors, `'DOWN'` messages,
//! timer expiries), from resolving the destination to acting on the signal
//! in the receiver. The send, receive, link and exit trace probes belong
//! here.
//!
//! - [`send`](mod@send): resolving a destination (pid, registered name,
//!   alias, `{Name, Node}`) and putting the signal in the receiver's inbox.
//! - [`deliver`]: the receiver taking its inbox and acting on each signal.
//! - [`exit`]: a process's end and the signals its death sends.
//! - [`port`]: a port's messages, the messages sent to a port, and a
//!   port's end.
//! - [`seq_trace`]: the `seq_trace` token messages, link exits and spawns
//!   carry, and its counters.
//! - [`remote`]: signals to other nodes, through the distribution's hooks.
//! - [`timers`]: timer expiries as signals.
//! - [`tracer_inbox`]: trace messages into a tracer process.
//! - [`system_logger`]: what the runtime itself logs, sent to the system
//!   logger.
//!
//! The data (the [`Signal`](crate::process::Signal) enum, the inbox in the
//! [`ProcessHandle`](crate::process::ProcessHandle)) lives in `process`,
//! below the runtime's tables; every operation on it is here.
//!
//! # Who writes into whose heap
//!
//! A process's body (registers, stack, heap, mailbox) sits behind the
//! handle's `body` mutex. The scheduler that moves the process's state word
//! to RUNNING locks it for the whole time slice (see
//! `process::run_state`); inspection BIFs (`process_info`) lock it briefly.
//!
//! 1. A sender builds every signal on the sender's thread, on a heap of its
//!    own ([`Payload`](crate::process::Payload)), never on the receiver's
//!    heap, and pushes it onto the receiver's inbox (a mutex-guarded
//!    vector of signals, in arrival order).
//! 2. One exception, for speed, as the BEAM does when it gets the
//!    receiver's main lock: a *message* whose receiver is not running (the
//!    sender's `try_lock` of the body succeeds) is copied by the sender
//!    straight onto the receiver's heap and into its mailbox, while the
//!    sender holds the body lock, after the sender delivered the signals
//!    waiting in the receiver's inbox (step 4, on the sender's thread).
//!    So another thread
//!    writes into a receiver's heap only while holding that lock, which the
//!    receiver's own scheduler holds whenever the receiver runs: the heap
//!    is never touched by two threads at once, and never while its process
//!    runs. (DESIGN.md's "the receiver's heap is never touched by another
//!    thread" is stricter than the code; this rule is the one that holds.)
//! 3. After pushing, the sender asks the state word whether the receiver
//!    was waiting (`notify`); only then does it enqueue the receiver on a
//!    run queue, so a waiting process is scheduled exactly once.
//! 4. The receiver's scheduler, holding the body lock, takes the whole
//!    inbox and delivers it in order ([`deliver_signals`]): payload heaps
//!    are absorbed into the receiver's heap (no copy), messages appended to
//!    the mailbox.
//! 5. Order between a pair of processes holds because every signal from A
//!    to B goes through B's one inbox, and the direct path of step 2
//!    delivers that inbox before the message (A's earlier signals are
//!    then delivered already).
//! 6. A process's death ([`Runtime::terminate`](crate::runtime::Runtime)) runs
//!    on the scheduler that ran it last, after it left the process table:
//!    exit signals to its links, `'DOWN'` to its monitors, demonitors to
//!    what it monitored, each through step 1, a bounded number per time
//!    slice (`sched::exiting` runs the later slices of a long one).

pub mod deliver;
pub mod exit;
pub mod message_trace;
pub mod port;
pub mod port_control;
pub mod remote;
pub mod send;
pub mod seq_trace;
pub mod system_logger;
pub mod timers;
pub mod tracer_inbox;

pub use deliver::{absorb, deliver_pending, deliver_signals, deliver_to_self};
pub use port::PortEnd;
pub use send::send;
