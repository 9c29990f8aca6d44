//! The inet drivers' I/O thread: one `mio::Poll` for every socket of the
//! OS process, so an accept, connect or recv that has to wait holds no
//! scheduler thread.
//!
//! # Protocol
//!
//! 1. A socket registers its OS socket under a fresh token and keeps the
//!    token; the poller maps the token to a weak reference of the socket.
//! 2. Schedulers never wait: a request that cannot finish at once is
//!    recorded in the socket (a waiting recv, accept or connect, with its
//!    deadline given to [`Poller::deadline`]) and finished here when the
//!    socket becomes ready or the deadline passes.
//! 3. mio's readiness is edge-triggered: a socket that stops reading
//!    while data waits (passive, no recv) tries a read itself the moment
//!    it wants data again, since no new event may come.
//! 4. The thread calls into a socket (`ready`, `expire`, `flush`) with no
//!    lock of its own held, so a socket may call back into the poller
//!    (register, deadline) from there.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Instant;

use mio::event::Source;
use mio::{Events, Interest, Poll, Registry, Token, Waker};

use super::socket::InetPort;

/// What the I/O thread calls into: an inet driver's socket, or a
/// `socket` module socket (`bif::net::socket`).
pub trait PollTarget: Send + Sync {
    /// The OS socket became readable or writable (or closed, or failed).
    fn ready(&self, readable: bool, writable: bool);
    /// A deadline it asked for ([`Poller::deadline`]) has come.
    fn expire(&self, now: Instant);
    /// It asked for [`Poller::flush_later`].
    fn flush(&self);
}

impl PollTarget for InetPort {
    fn ready(&self, readable: bool, writable: bool) {
        InetPort::ready(self, readable, writable);
    }
    fn expire(&self, now: Instant) {
        InetPort::expire(self, now);
    }
    fn flush(&self) {
        InetPort::flush(self);
    }
}

/// The waker's token; sockets count from 1.
const WAKE: Token = Token(0);

/// The shared side of the I/O thread.
pub struct Poller {
    registry: Registry,
    waker: Waker,
    sockets: Mutex<HashMap<Token, Weak<dyn PollTarget>>>,
    deadlines: Mutex<BinaryHeap<Reverse<(Instant, usize)>>>,
    flushes: Mutex<Vec<Token>>,
    next: AtomicUsize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

static POLLER: OnceLock<Option<Poller>> = OnceLock::new();

/// The I/O thread, started on first use (the first socket: with OTP's
/// library, the UDP socket `inet_db` opens at boot) and kept, with its
/// poller's descriptors, for the OS process's life; `None` when the OS
/// refuses a poller.
pub fn poller() -> Option<&'static Poller> {
    POLLER
        .get_or_init(|| {
            let poll = Poll::new().ok()?;
            let registry = poll.registry().try_clone().ok()?;
            let waker = Waker::new(poll.registry(), WAKE).ok()?;
            std::thread::Builder::new()
                .name("beamr-inet".into())
                .spawn(move || run(poll))
                .ok()?;
            Some(Poller {
                registry,
                waker,
                sockets: Mutex::new(HashMap::new()),
                deadlines: Mutex::new(BinaryHeap::new()),
                flushes: Mutex::new(Vec::new()),
                next: AtomicUsize::new(1),
            })
        })
        .as_ref()
}

/// The I/O thread if it runs already (for a socket that registered,
/// it does).
pub fn started() -> Option<&'static Poller> {
    POLLER.get().and_then(Option::as_ref)
}

impl Poller {
    /// Registers `source` of `socket` for `interest`; its token.
    pub fn register(
        &self,
        source: &mut impl Source,
        interest: Interest,
        socket: Weak<dyn PollTarget>,
    ) -> std::io::Result<Token> {
        let token = Token(self.next.fetch_add(1, Ordering::Relaxed));
        lock(&self.sockets).insert(token, socket);
        if let Err(e) = self.registry.register(source, token, interest) {
            lock(&self.sockets).remove(&token);
            return Err(e);
        }
        Ok(token)
    }

    /// Forgets `source`, registered under `token`.
    pub fn deregister(&self, source: &mut impl Source, token: Token) {
        let _ = self.registry.deregister(source);
        lock(&self.sockets).remove(&token);
    }

    /// Asks for `expire` on socket `token` at `at`.
    pub fn deadline(&self, at: Instant, token: Token) {
        lock(&self.deadlines).push(Reverse((at, token.0)));
        let _ = self.waker.wake();
    }

    /// Asks for `flush` on socket `token` (messages a socket could not
    /// send where it was, under its port's lock).
    pub fn flush_later(&self, token: Token) {
        lock(&self.flushes).push(token);
        let _ = self.waker.wake();
    }

    fn socket(&self, token: Token) -> Option<Arc<dyn PollTarget>> {
        lock(&self.sockets).get(&token).and_then(Weak::upgrade)
    }
}

fn run(mut poll: Poll) {
    let mut events = Events::with_capacity(256);
    // `poller()` returns once the shared side exists (this thread is
    // started last, so it does).
    let Some(poller) = poller() else {
        return;
    };
    loop {
        let timeout = lock(&poller.deadlines)
            .peek()
            .map(|Reverse((at, _))| at.saturating_duration_since(Instant::now()));
        if let Err(e) = poll.poll(&mut events, timeout) {
            if e.kind() != std::io::ErrorKind::Interrupted {
                return;
            }
        }
        for event in events.iter() {
            if event.token() == WAKE {
                continue;
            }
            if let Some(socket) = poller.socket(event.token()) {
                socket.ready(
                    event.is_readable() || event.is_read_closed(),
                    event.is_writable() || event.is_write_closed() || event.is_error(),
                );
            }
        }
        let now = Instant::now();
        let mut due = Vec::new();
        {
            let mut deadlines = lock(&poller.deadlines);
            while let Some(Reverse((at, token))) = deadlines.peek().copied() {
                if at > now {
                    break;
                }
                deadlines.pop();
                due.push(Token(token));
            }
        }
        for token in due {
            if let Some(socket) = poller.socket(token) {
                socket.expire(now);
            }
        }
        let flushes = std::mem::take(&mut *lock(&poller.flushes));
        for token in flushes {
            if let Some(socket) = poller.socket(token) {
                socket.flush();
            }
        }
    }
}
