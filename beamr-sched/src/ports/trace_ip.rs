//! `trace_ip_drv`: erts's trace IP driver, native. `dbg:trace_port(ip,
//! {PortNo, QueueSize})` opens it as `open_port({spawn, "trace_ip_drv
//! PortNo QueueSize Flags"}, [eof])`. It listens on TCP port `PortNo` (0:
//! one the system picks, which `port_control(Port, $p, [])` answers as
//! `<<0, PortNo:16>>`) for one client (`dbg:trace_client(ip, ...)`) and
//! sends it every trace message as the file driver writes it: Op 0, the
//! size (be32), the term.
//!
//! Messages wait in a queue of `QueueSize` while no client is connected
//! (with flag 2, "fill always", which dbg passes; without it they are
//! dropped until one connects) or while the client reads slower than they
//! come. When the queue is full, erts's drop entry takes the last place:
//! Op 1 with the number of messages dropped in the size field.
//!
//! A thread of its own accepts the client and writes; the tracer only
//! queues, so a slow client never holds up a traced process.

use std::collections::VecDeque;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::runtime::PortDriver;

/// `FLAG_FILL_ALWAYS`: queue messages while no client is connected.
const FILL_ALWAYS: u32 = 2;

/// The arguments of the driver's command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpArgs {
    /// The TCP port to listen on (0: any).
    pub port: u16,
    /// Messages queued at most.
    pub queue: usize,
    /// erts's flags (0 to 3).
    pub flags: u32,
}

/// Reads `trace_ip_drv PortNo QueueSize Flags`; `None` when it is not such
/// a line.
pub fn parse(command: &str) -> Option<IpArgs> {
    let mut words = command.split_whitespace();
    if words.next()? != "trace_ip_drv" {
        return None;
    }
    let port = words.next()?.parse().ok()?;
    let queue = words.next()?.parse().ok()?;
    let flags = words.next()?.parse().ok().filter(|f| *f <= 3)?;
    Some(IpArgs { port, queue, flags })
}

enum Entry {
    Data(Vec<u8>),
    Dropped(u32),
}

struct Queue {
    entries: VecDeque<Entry>,
    connected: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    stopped: AtomicBool,
}

/// The open driver.
pub struct TraceIp {
    port: u16,
    capacity: usize,
    fill_always: bool,
    shared: Arc<Shared>,
}

impl TraceIp {
    /// Listens, and starts the thread that serves the client.
    pub fn open(args: IpArgs) -> std::io::Result<TraceIp> {
        let listener = TcpListener::bind(("0.0.0.0", args.port))?;
        let port = listener.local_addr()?.port();
        listener.set_nonblocking(true)?;
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                entries: VecDeque::new(),
                connected: false,
            }),
            ready: Condvar::new(),
            stopped: AtomicBool::new(false),
        });
        let serving = shared.clone();
        std::thread::Builder::new()
            .name("trace_ip_drv".into())
            .spawn(move || serve(&listener, &serving))?;
        Ok(TraceIp {
            port,
            capacity: args.queue,
            fill_always: args.flags & FILL_ALWAYS != 0,
            shared,
        })
    }
}

impl Shared {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Accepts one client at a time and writes the queue to it until it goes
/// or the port stops.
fn serve(listener: &TcpListener, shared: &Shared) {
    while !shared.stopped.load(Ordering::Acquire) {
        match listener.accept() {
            Ok((client, _)) => {
                let _ = client.set_nonblocking(false);
                shared.queue().connected = true;
                write_to(client, shared);
                shared.queue().connected = false;
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

fn write_to(mut client: TcpStream, shared: &Shared) {
    loop {
        let entry = {
            let mut queue = shared.queue();
            loop {
                if let Some(entry) = queue.entries.pop_front() {
                    break entry;
                }
                if shared.stopped.load(Ordering::Acquire) {
                    return;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let written = match entry {
            Entry::Data(frame) => client.write_all(&frame),
            Entry::Dropped(n) => {
                let mut frame = [1u8; 5];
                frame[1..].copy_from_slice(&n.to_be_bytes());
                client.write_all(&frame)
            }
        };
        if written.is_err() {
            return;
        }
    }
}

impl PortDriver for TraceIp {
    fn output(&self, bytes: &[u8]) {
        if self.stopped() {
            return;
        }
        let mut queue = self.shared.queue();
        if !queue.connected && !self.fill_always {
            return;
        }
        if queue.entries.len() >= self.capacity {
            match queue.entries.back_mut() {
                Some(Entry::Dropped(n)) => *n += 1,
                _ => queue.entries.push_back(Entry::Dropped(1)),
            }
            return;
        }
        let mut frame = Vec::with_capacity(5 + bytes.len());
        frame.push(0);
        frame.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        frame.extend_from_slice(bytes);
        queue.entries.push_back(Entry::Data(frame));
        drop(queue);
        self.shared.ready.notify_one();
    }

    fn control(&self, command: u32, _data: &[u8]) -> Option<(Vec<u8>, bool)> {
        if command != u32::from(b'p') {
            return None;
        }
        let [high, low] = self.port.to_be_bytes();
        Some((vec![0, high, low], true))
    }

    fn stop(&self, _reason: beamr_core::term::Term) {
        self.shared.stopped.store(true, Ordering::Release);
        // Taking the lock orders the flag before the writer's next wait.
        drop(self.shared.queue());
        self.shared.ready.notify_all();
    }

    fn stopped(&self) -> bool {
        self.shared.stopped.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn reads_dbgs_command_line() {
        let args = parse("trace_ip_drv 4711 200 2").unwrap();
        assert_eq!((args.port, args.queue, args.flags), (4711, 200, 2));
        assert_eq!(parse("trace_ip_drv 1 2 7"), None);
        assert_eq!(parse("trace_file_drv 1 2 2"), None);
    }

    #[test]
    fn queues_until_a_client_comes_and_counts_drops() {
        let ip = TraceIp::open(parse("trace_ip_drv 0 2 2").unwrap()).unwrap();
        let (reply, binary) = ip.control(u32::from(b'p'), &[]).unwrap();
        assert!(binary);
        let port = u16::from_be_bytes([reply[1], reply[2]]);
        for m in [b"a", b"b", b"c", b"d"] {
            ip.output(m);
        }
        let mut client = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut got = [0u8; 6 + 6 + 5];
        client.read_exact(&mut got).unwrap();
        assert_eq!(&got[..6], &[0, 0, 0, 0, 1, b'a']);
        assert_eq!(&got[6..12], &[0, 0, 0, 0, 1, b'b']);
        assert_eq!(&got[12..], &[1, 0, 0, 0, 2]);
        ip.stop(beamr_core::term::Term::atom(beamr_core::atom::Atom::NORMAL));
    }
}
