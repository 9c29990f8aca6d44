//! One `socket` module socket: the OS socket (non-blocking), who controls
//! it, and who waits on it.
//!
//! # Waiting (erts's `enif_select`)
//!
//! An operation that would block records a [`Waiter`] (the caller and its
//! select handle) and answers `select`. The poller thread calls
//! [`SocketObject::ready`] when the OS socket becomes readable or
//! writable; every reader (or writer) waiting then gets
//! `{'$socket', Socket, select, Handle}` and is forgotten, and retries.
//! The try and the record happen under the state's lock, and `ready`
//! takes the same lock, so a readiness edge between them is not lost.
//!
//! Closing sends each waiter `{'$socket', Socket, abort, {Handle, closed}}`.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Instant;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use mio::Token;

use crate::bif::common::atoms::atom;
use crate::ports::inet::poller::{started, PollTarget};
use crate::process::OwnedResource;
use crate::runtime::Runtime;

/// What a waiter waits to do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Op {
    /// `accept`.
    Accept,
    /// `recv`, `recvfrom`, `recvmsg`.
    Recv,
    /// `send`, `sendto`, `sendmsg`.
    Send,
    /// `connect`.
    Connect,
}

impl Op {
    /// The operation `cancel/3` names, if it is one.
    pub(super) fn named(t: Term) -> Option<Op> {
        Some(match t.as_atom()?.name() {
            "accept" => Op::Accept,
            "recv" | "recvfrom" | "recvmsg" => Op::Recv,
            "send" | "sendto" | "sendmsg" | "sendv" => Op::Send,
            "connect" => Op::Connect,
            _ => return None,
        })
    }

    /// Whether it waits for the socket to become readable.
    fn reads(self) -> bool {
        matches!(self, Op::Accept | Op::Recv)
    }
}

/// A process waiting for the socket, with the handle its select message
/// carries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Waiter {
    /// The waiting process.
    pub pid: Term,
    /// Its select handle, a local reference's id words.
    pub handle: [u32; 3],
    /// What it waits to do.
    pub op: Op,
}

/// What the state's lock guards.
pub(super) struct State {
    /// The OS socket; `None` once closed.
    pub os: Option<socket2::Socket>,
    /// The rest.
    pub tracked: Tracked,
}

/// What beamr tracks of a socket besides the OS socket.
pub(super) struct Tracked {
    /// The OS's domain (`AF_INET`, ...), type and protocol numbers.
    pub domain: i32,
    /// `SOCK_STREAM`, `SOCK_DGRAM`, ...
    pub kind: i32,
    /// The protocol number it was opened with.
    pub protocol: i32,
    /// The controlling process.
    pub owner: Term,
    /// Its poller registration.
    pub token: Option<Token>,
    /// `bind/2` succeeded.
    pub bound: bool,
    /// `listen/2` succeeded.
    pub listening: bool,
    /// Connected: by `connect`, or accepted.
    pub connected: bool,
    /// What it has done, as `socket:info/1` counts it.
    pub counters: Counters,
    /// Who waits for it.
    pub waits: Waits,
    /// `{otp, rcvbuf}`: the bytes a `recv` of length 0 reads at most.
    pub rcvbuf: usize,
    /// `{otp, meta}`: any term, kept as a payload.
    pub meta: crate::process::Payload,
    /// `{otp, debug}`.
    pub debug: bool,
    /// `{otp, iow}`.
    pub iow: bool,
    /// `{otp, use_registry}`: whether the socket registry hears of it.
    pub use_registry: bool,
    /// `{otp, rcvctrlbuf}` and `{otp, sndctrlbuf}`, as set.
    pub ctrl_bufs: (usize, usize),
}

impl Tracked {
    /// A non-blocking connect is under way: its caller waits.
    pub(super) fn connecting(&self) -> bool {
        self.waits.waiters.iter().any(|w| w.op == Op::Connect)
    }
}

/// erts's per-socket counters (`socket:info/1`'s `counters`, which
/// `inet:getstat/2` reads on the socket backend).
#[derive(Default, Clone, Copy)]
pub(super) struct Counters {
    pub acc_fails: u64,
    pub acc_success: u64,
    pub acc_tries: u64,
    pub acc_waits: u64,
    pub read_byte: u64,
    pub read_fails: u64,
    pub read_pkg: u64,
    pub read_pkg_max: u64,
    pub read_tries: u64,
    pub read_waits: u64,
    pub write_byte: u64,
    pub write_fails: u64,
    pub write_pkg: u64,
    pub write_pkg_max: u64,
    pub write_tries: u64,
    pub write_waits: u64,
}

impl Counters {
    /// Counts a read of `n` bytes.
    pub fn read(&mut self, n: usize) {
        self.read_byte += n as u64;
        self.read_pkg += 1;
        self.read_pkg_max = self.read_pkg_max.max(n as u64);
    }

    /// Counts a write of `n` bytes.
    pub fn wrote(&mut self, n: usize) {
        self.write_byte += n as u64;
        self.write_pkg += 1;
        self.write_pkg_max = self.write_pkg_max.max(n as u64);
    }

    /// The counters as `socket:info/1`'s map, built on `h`.
    pub fn term(&self, h: &mut Heap) -> Term {
        let n = |v: u64| Term::small_unchecked(v.min(1 << 59) as i64);
        let pairs = [
            (atom("acc_fails"), n(self.acc_fails)),
            (atom("acc_success"), n(self.acc_success)),
            (atom("acc_tries"), n(self.acc_tries)),
            (atom("acc_waits"), n(self.acc_waits)),
            (atom("read_byte"), n(self.read_byte)),
            (atom("read_fails"), n(self.read_fails)),
            (atom("read_pkg"), n(self.read_pkg)),
            (atom("read_pkg_max"), n(self.read_pkg_max)),
            (atom("read_tries"), n(self.read_tries)),
            (atom("read_waits"), n(self.read_waits)),
            (atom("write_byte"), n(self.write_byte)),
            (atom("write_fails"), n(self.write_fails)),
            (atom("write_pkg"), n(self.write_pkg)),
            (atom("write_pkg_max"), n(self.write_pkg_max)),
            (atom("write_tries"), n(self.write_tries)),
            (atom("write_waits"), n(self.write_waits)),
        ];
        beamr_core::map::from_pairs(h, &pairs)
    }
}

/// The processes waiting for a socket.
#[derive(Default)]
pub(super) struct Waits {
    /// The processes waiting, in the order they came.
    pub waiters: Vec<Waiter>,
    /// Handles whose select message went out and that were not used
    /// again yet (`cancel/3` answers `select_sent` for them).
    pub sent: Vec<[u32; 3]>,
}

/// A socket of the `socket` module: the object behind its reference.
pub(super) struct SocketObject {
    rt: Weak<Runtime>,
    /// The reference's id words, set once it is made.
    pub ids: OnceLock<[u32; 3]>,
    /// Drops the reference table's hold on the object (by its ids), once
    /// its controlling process's end has closed it.
    forget: fn([u32; 3]),
    state: Mutex<State>,
}

/// `recv`'s default buffer (erts's `ESOCK_RECV_BUFFER_SIZE_DEFAULT`).
const DEFAULT_RCVBUF: usize = 8192;

/// erts's default control-message buffers (`ESOCK_RECV_CTRL_BUFFER_SIZE_DEFAULT`,
/// `ESOCK_SEND_CTRL_BUFFER_SIZE_DEFAULT`).
const DEFAULT_CTRL_BUF: usize = 1024;

impl SocketObject {
    /// A new object over `os`, controlled by `owner`, told to the socket
    /// registry when `use_registry`; `forget` takes it out of the table
    /// of references.
    pub(super) fn new(
        rt: Weak<Runtime>,
        os: socket2::Socket,
        (domain, kind, protocol): (i32, i32, i32),
        owner: Term,
        use_registry: bool,
        forget: fn([u32; 3]),
    ) -> Arc<SocketObject> {
        Arc::new(SocketObject {
            rt,
            ids: OnceLock::new(),
            forget,
            state: Mutex::new(State {
                os: Some(os),
                tracked: Tracked {
                    domain,
                    kind,
                    protocol,
                    owner,
                    token: None,
                    bound: false,
                    listening: false,
                    connected: false,
                    counters: Counters::default(),
                    waits: Waits::default(),
                    rcvbuf: DEFAULT_RCVBUF,
                    meta: crate::process::Payload::copy(Term::atom(Atom::UNDEFINED)),
                    debug: false,
                    iow: false,
                    use_registry,
                    ctrl_bufs: (DEFAULT_CTRL_BUF, DEFAULT_CTRL_BUF),
                },
            }),
        })
    }

    /// The state, locked.
    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the OS socket and the rest of the state, locked;
    /// `None` once the socket is closed.
    pub(super) fn with_open<R>(
        &self,
        f: impl FnOnce(&socket2::Socket, &mut Tracked) -> R,
    ) -> Option<R> {
        let mut st = self.lock();
        let State { os, tracked } = &mut *st;
        os.as_ref().map(|os| f(os, tracked))
    }

    /// Registers the OS socket with the I/O thread.
    pub(super) fn register(self: &Arc<Self>) -> std::io::Result<()> {
        let poller = crate::ports::inet::poller::poller()
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::ENOMEM))?;
        let weak: Weak<dyn PollTarget> = Arc::downgrade(self) as Weak<SocketObject>;
        let token = self
            .with_open(|os, _| {
                let fd = std::os::fd::AsRawFd::as_raw_fd(os);
                let interest = mio::Interest::READABLE | mio::Interest::WRITABLE;
                poller.register(&mut mio::unix::SourceFd(&fd), interest, weak)
            })
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::EBADF))??;
        self.lock().tracked.token = Some(token);
        Ok(())
    }

    /// Tells the socket registry `{'$socket', Tag, Socket}` (`add`,
    /// `del`), when the socket uses it and the registry runs.
    pub(super) fn tell_registry(&self, tag: &str) {
        let Some(rt) = self.rt.upgrade() else { return };
        let registry = Atom::new("socket_registry")
            .ok()
            .and_then(|name| rt.names.whereis(name));
        if let Some(registry) = registry {
            let mut h = Heap::new();
            let socket = self.socket_term(&mut h);
            let message = h.tuple(&[atom("$socket"), atom(tag), socket]);
            rt.send(registry, message);
        }
    }

    /// The socket term `{'$socket', Ref}` built on `h`.
    pub(super) fn socket_term(&self, h: &mut Heap) -> Term {
        let ids = self.ids.get().copied().unwrap_or([0; 3]);
        let r = h.local_ref(ids);
        h.tuple(&[atom("$socket"), r])
    }

    /// Sends `{'$socket', Socket, Tag, Info}` to `pid`, `info` built on
    /// the message's heap.
    pub(super) fn notify(&self, pid: Term, tag: &str, info: impl FnOnce(&mut Heap) -> Term) {
        let Some(rt) = self.rt.upgrade() else { return };
        let mut h = Heap::new();
        let socket = self.socket_term(&mut h);
        let info = info(&mut h);
        let message = h.tuple(&[atom("$socket"), socket, atom(tag), info]);
        rt.send(pid, message);
    }

    /// Closes the OS socket (once): forgets its poller registration and
    /// tells every waiter that it is closed. True if this call closed it.
    pub(super) fn close(&self) -> bool {
        let (waiters, use_registry) = {
            let mut guard = self.lock();
            let State { os, tracked: st } = &mut *guard;
            let Some(os) = os.take() else {
                return false;
            };
            if let (Some(token), Some(poller)) = (st.token.take(), started()) {
                let fd = std::os::fd::AsRawFd::as_raw_fd(&os);
                poller.deregister(&mut mio::unix::SourceFd(&fd), token);
            }
            st.waits.sent.clear();
            (std::mem::take(&mut st.waits.waiters), st.use_registry)
        };
        for w in waiters {
            self.notify(w.pid, "abort", |h| {
                let handle = h.local_ref(w.handle);
                h.tuple(&[handle, atom("closed")])
            });
        }
        if use_registry {
            self.tell_registry("del");
        }
        true
    }
}

impl Waits {
    /// Records that `w` waits; an earlier wait of the same process for
    /// the same operation is replaced.
    pub(super) fn wait(&mut self, w: Waiter) {
        self.waiters.retain(|o| !(o.pid == w.pid && o.op == w.op));
        self.sent.retain(|h| *h != w.handle);
        self.waiters.push(w);
    }

    /// The handle `h` is used again (its select message was read).
    pub(super) fn used(&mut self, handle: [u32; 3]) {
        self.sent.retain(|h| *h != handle);
    }
}

impl PollTarget for SocketObject {
    fn ready(&self, readable: bool, writable: bool) {
        let woken = self.with_open(|_, st| {
            let mut woken = Vec::new();
            st.waits.waiters.retain(|w| {
                let wake = if w.op.reads() { readable } else { writable };
                if wake {
                    woken.push(*w);
                }
                !wake
            });
            let sent = &mut st.waits.sent;
            sent.extend(woken.iter().map(|w| w.handle));
            if sent.len() > 64 {
                let excess = sent.len() - 64;
                sent.drain(..excess);
            }
            woken
        });
        for w in woken.unwrap_or_default() {
            self.notify(w.pid, "select", |h| h.local_ref(w.handle));
        }
    }

    fn expire(&self, _now: Instant) {}

    fn flush(&self) {}
}

impl OwnedResource for SocketObject {
    /// The controlling process ended: close the socket, as erts's monitor
    /// of the controlling process does.
    fn owner_exited(&self) {
        self.close();
        if let Some(ids) = self.ids.get() {
            (self.forget)(*ids);
        }
    }
}
