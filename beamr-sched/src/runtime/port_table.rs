//! [`PortTable`]: the live ports, and what each one holds: its owner
//! (connected process), links, monitors, counters, and the channel its
//! output travels on to the OS side.
//!
//! Only the state lives here. Opening a port (the OS program, its reader
//! and writer threads) is `ports`; a port's end and the signals it sends
//! are `signals::port`.
//!
//! # Protocol
//!
//! 1. Everything that changes a port, or sends a message on its behalf,
//!    holds the port's `state` lock: the reader thread delivering data, a
//!    BIF connecting it, the exit path closing it.
//! 2. Closing sets `closed` and drops the output channel under that lock,
//!    then removes the port from the table. A reader that takes the lock
//!    afterwards sees `closed` and sends nothing, so no data message from
//!    a port follows its exit signals.
//! 3. Dropping the channel's sender ends the writer thread once it has
//!    written what was queued; the OS program then reads end of file.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};

use beamr_core::heap::Heap;
use beamr_core::term::{iodata_into, Term};
use beamr_trace::TraceTag;

use crate::process::Payload;
use crate::runtime::Runtime;
use crate::trace::{port_probes, ProcessTrace};

/// The live ports by number, at most [`PortTable::limit`] of them.
pub struct PortTable {
    ports: Mutex<BTreeMap<u64, Arc<Port>>>,
    next: AtomicU64,
    limit: AtomicUsize,
}

/// erts's default port limit (`+Q` unset), on every release beamr runs.
pub const DEFAULT_PORT_LIMIT: usize = 65_536;

/// The port table is full: [`PortTable::limit`] ports exist. `open_port`
/// raises `system_limit` then, and a socket call answers
/// `{error, system_limit}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortLimitReached;

impl From<PortLimitReached> for crate::process::Exception {
    /// `open_port`'s error: `system_limit`.
    fn from(_: PortLimitReached) -> Self {
        crate::process::Exception::error(Term::atom(beamr_core::atom::Atom::SYSTEM_LIMIT))
    }
}

impl Default for PortTable {
    fn default() -> PortTable {
        PortTable {
            ports: Mutex::new(BTreeMap::new()),
            // Past the numbers a fresh erl's own ports take.
            next: AtomicU64::new(16),
            limit: AtomicUsize::new(DEFAULT_PORT_LIMIT),
        }
    }
}

impl PortTable {
    fn map(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Port>>> {
        self.ports.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh port identifier (not yet in the table), unless the table
    /// is full. Two opens that race for the last place may both get one:
    /// the limit is checked, not reserved.
    pub fn new_id(&self) -> Result<Term, PortLimitReached> {
        if self.is_full() {
            return Err(PortLimitReached);
        }
        Ok(Term::port(self.next.fetch_add(1, Ordering::Relaxed)))
    }

    /// True when [`PortTable::limit`] ports exist: no port can be opened.
    pub fn is_full(&self) -> bool {
        self.map().len() >= self.limit()
    }

    /// The most ports that may exist at once (`system_info(port_limit)`).
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Sets the port limit to `requested` (`+Q`), rounded as erts rounds
    /// it ([`crate::runtime::erts_table_size`]).
    pub fn set_limit(&self, requested: usize) {
        self.limit
            .store(super::erts_table_size(requested), Ordering::Relaxed);
    }

    /// Adds a port.
    pub fn insert(&self, port: Arc<Port>) {
        if let Some(n) = port.id.as_local_port() {
            self.map().insert(n, port);
        }
    }

    /// The live port `id`.
    pub fn get(&self, id: Term) -> Option<Arc<Port>> {
        self.map().get(&id.as_local_port()?).cloned()
    }

    /// Takes port `id` out of the table.
    pub fn remove(&self, id: Term) -> Option<Arc<Port>> {
        self.map().remove(&id.as_local_port()?)
    }

    /// Every live port, in the order they were opened.
    pub fn ids(&self) -> Vec<Term> {
        self.map().values().map(|p| p.id).collect()
    }
}

/// What a port sends its OS side: data, framed already.
pub type PortSink = Sender<Vec<u8>>;

/// A port whose other side is built into the runtime rather than an OS
/// program: erts's linked-in drivers (the trace drivers, `ports::trace_file`
/// and `ports::trace_ip`). The port's data goes to [`PortDriver::output`],
/// `port_control/3` to [`PortDriver::control`].
///
/// Both may be called from any scheduler thread, for a port that is a
/// tracer in the middle of a traced process: they must not block for long.
pub trait PortDriver: Send + Sync {
    /// Data given to the port (`port_command/2`, or a trace message in the
    /// external format when the port is a tracer).
    fn output(&self, bytes: &[u8]);
    /// `port_control(Port, Command, Data)`: the reply and whether it is a
    /// binary (else a list of bytes); `None` for a command the driver does
    /// not know (`badarg`).
    fn control(&self, command: u32, data: &[u8]) -> Option<(Vec<u8>, bool)>;
    /// The port exited with `reason`: write out what is buffered and
    /// close (a distribution socket passes the reason on as the node's
    /// `nodedown_reason`).
    fn stop(&self, reason: Term);
    /// Data that process `caller` gave the port (`port_command`,
    /// `Port ! {Pid, {command, Data}}`); by default [`PortDriver::output`].
    /// A driver that answers the caller (the inet drivers'
    /// `{inet_reply, ...}`) reads it here. It runs with the port's state
    /// locked, so it must not lock it again (`Runtime::port_deliver`).
    ///
    /// Returns the messages the port sends its owner in answer (each with
    /// the bytes it counts as the port's input, as `driver_output` in the
    /// command callback of an erts driver): the port delivers them, under
    /// the lock it holds, before the command returns. None by default.
    fn command(&self, caller: Term, bytes: &[u8]) -> Vec<(usize, Payload)> {
        let _ = caller;
        self.output(bytes);
        Vec::new()
    }
    /// `port_control(Port, Command, Data)` from process `caller`; by
    /// default [`PortDriver::control`].
    fn control_by(&self, caller: Term, command: u32, data: &[u8]) -> Option<(Vec<u8>, bool)> {
        let _ = caller;
        self.control(command, data)
    }
    /// True once [`PortDriver::stop`] was called.
    fn stopped(&self) -> bool;
    /// The driver as `Any`, for the layers above that know its type (the
    /// distribution takes an inet socket so); `None` by default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// One port.
pub struct Port {
    /// Its identifier (`#Port<0.N>`).
    pub id: Term,
    /// The name `port_info/2` gives: the command or executable.
    pub name: String,
    /// The OS process behind it, if it started one.
    pub os_pid: Option<u32>,
    /// The length-header size of `{packet, N}` (0 for a stream).
    pub packet: usize,
    /// Whether the port was opened for output (`in` makes it input only).
    pub writable: bool,
    /// The built-in driver behind it, if it is one (no OS program then).
    pub driver: Option<std::sync::Arc<dyn PortDriver>>,
    /// The changing part (see the module doc's protocol).
    state: Mutex<PortState>,
}

/// The changing part of a port.
pub struct PortState {
    /// The connected process, which gets the port's messages.
    pub owner: Term,
    /// Linked processes.
    pub links: Vec<Term>,
    /// Monitors of the port: reference ids and the monitoring process.
    pub monitors: Vec<([u32; 3], Term)>,
    /// Bytes read from the OS side.
    pub input: u64,
    /// Bytes written to the OS side.
    pub output: u64,
    /// True once the port has exited.
    pub closed: bool,
    /// Its registered name, if any.
    pub registered_name: Option<beamr_core::atom::Atom>,
    /// Where its output goes; `None` once closed.
    pub sink: Option<PortSink>,
    /// The term `erlang:port_set_data/2` stored (`None`: `undefined`).
    pub data: Option<Payload>,
    /// How the port is traced (`trace::port_probes`).
    pub trace: ProcessTrace,
}

impl Port {
    /// A port connected to (and linked with) `owner`.
    pub fn new(id: Term, name: String, owner: Term, sink: Option<PortSink>) -> Port {
        Port {
            id,
            name,
            os_pid: None,
            packet: 0,
            writable: true,
            driver: None,
            state: Mutex::new(PortState {
                owner,
                links: vec![owner],
                monitors: Vec::new(),
                input: 0,
                output: 0,
                closed: false,
                registered_name: None,
                sink,
                data: None,
                trace: ProcessTrace::off(),
            }),
        }
    }

    /// Locks the port's changing part.
    pub fn state(&self) -> MutexGuard<'_, PortState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bytes of iodata `t` as data for this port, flattened behind
    /// room for its `{packet, N}` header; `None` when `t` is not iodata.
    pub fn iodata(&self, t: Term) -> Option<PortData> {
        let mut bytes = vec![0; self.packet];
        iodata_into(t, &mut bytes).ok()?;
        Some(PortData {
            bytes,
            header: self.packet,
        })
    }

    /// `bytes` as data for this port: moved as they are for a stream,
    /// copied behind room for the header for `{packet, N}`.
    pub fn data(&self, bytes: Vec<u8>) -> PortData {
        if self.packet == 0 {
            return PortData { bytes, header: 0 };
        }
        let mut framed = Vec::with_capacity(self.packet + bytes.len());
        framed.resize(self.packet, 0);
        framed.extend_from_slice(&bytes);
        PortData {
            bytes: framed,
            header: self.packet,
        }
    }

    /// Sends `data` to the OS side, its `{packet, N}` header filled in,
    /// on behalf of no process: a trace port's data, which no built-in
    /// driver answers (an answer would be dropped).
    pub fn command(&self, data: PortData) -> Sent {
        self.send_command(None, Term::NIL, data)
    }

    /// [`Port::command`] on behalf of process `caller`, whom a built-in
    /// driver may answer: its answers reach the port's owner before this
    /// returns.
    pub fn command_by(&self, rt: &Runtime, caller: Term, data: PortData) -> Sent {
        self.send_command(Some(rt), caller, data)
    }

    fn send_command(&self, rt: Option<&Runtime>, caller: Term, data: PortData) -> Sent {
        let PortData {
            bytes: mut framed,
            header,
        } = data;
        if header > 0 {
            let len = (framed.len() - header) as u64;
            if header < 8 && len >> (8 * header) != 0 {
                return Sent::TooLarge;
            }
            framed[..header].copy_from_slice(&len.to_be_bytes()[8 - header..]);
        }
        let mut state = self.state();
        let traced = caller.is_local_pid();
        if traced {
            port_probes::running(&mut state.trace, TraceTag::In, self.id, Some("command"));
            if port_probes::wants_receive(&state.trace) {
                trace_command(&mut state.trace, self.id, caller, &framed[header..]);
            }
        }
        let (sent, answers) = self.write_locked(&mut state, caller, framed);
        if let Some(rt) = rt {
            for (bytes, message) in answers {
                rt.deliver_port_message(self.id, &mut state, bytes, message);
            }
        }
        if traced && !state.closed {
            port_probes::running(&mut state.trace, TraceTag::Out, self.id, Some("command"));
        }
        sent
    }

    /// Writes `framed` (the port's lock held as `state`); a built-in
    /// driver's answers come back with the outcome.
    fn write_locked(
        &self,
        state: &mut PortState,
        caller: Term,
        framed: Vec<u8>,
    ) -> (Sent, Vec<(usize, Payload)>) {
        let len = framed.len() as u64;
        if let Some(driver) = self.driver.as_ref().filter(|_| !state.closed) {
            let answers = driver.command(caller, &framed);
            state.output += len;
            return (Sent::Sent, answers);
        }
        let sent = match &state.sink {
            Some(sink) => {
                // A writer thread that ended (its program is gone) drops
                // the data, as a port whose program exited does.
                let bytes = framed.len();
                super::pending_output::queued(bytes);
                if sink.send(framed).is_err() {
                    super::pending_output::done(bytes);
                }
                state.output += len;
                Sent::Sent
            }
            None if state.closed => Sent::Closed,
            None => Sent::Sent,
        };
        (sent, Vec::new())
    }
}

/// `'receive'` of `{Caller, {command, Data}}` (Data as a binary, as erts
/// writes it whatever iodata was given), past the flag test.
#[cold]
#[inline(never)]
fn trace_command(trace: &mut ProcessTrace, port: Term, caller: Term, data: &[u8]) {
    let mut heap = Heap::new();
    let data = heap.binary(data);
    let command = Term::atom(beamr_core::atom::Atom::COMMAND);
    let op = heap.tuple(&[command, data]);
    let message = heap.tuple(&[caller, op]);
    port_probes::receive(trace, port, message);
}

/// Data for a port's OS side, made by [`Port::iodata`] or [`Port::data`]:
/// the bytes behind room for the port's `{packet, N}` header, which
/// [`Port::command`] fills in once it knows the length.
pub struct PortData {
    /// The header's room, then the data.
    bytes: Vec<u8>,
    /// The header's size in bytes (0 for a stream).
    header: usize,
}

/// What became of data given to [`Port::command`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// On its way to the OS side.
    Sent,
    /// Too large for the port's packet header (erts then ends the port
    /// with `einval`).
    TooLarge,
    /// The port has exited.
    Closed,
}
