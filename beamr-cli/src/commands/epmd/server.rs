//! The EPMD server: a thread per connection. A node's `ALIVE2_REQ`
//! registers it for as long as that connection stays open, as erts's
//! epmd keeps it; every other request is answered and its connection
//! closed. A malformed request closes its connection with a line on
//! standard error naming the fault; the server goes on.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::request::{self, Registration, Request};

/// How long a client may take to send its request.
const REQUEST_WAIT: Duration = Duration::from_secs(10);

/// Connections served at once at most (a thread each); one past it is
/// closed at once, as erts's epmd closes what passes its file limit.
const MAX_CONNECTIONS: usize = 1024;

/// The registered nodes, each with its creation.
struct Registry {
    nodes: Mutex<BTreeMap<String, (Registration, u32)>>,
    next_creation: AtomicU32,
}

impl Registry {
    fn new() -> Registry {
        // Creations start somewhere new on each start of the daemon, so
        // that a node registered again after a restart gets another one.
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.subsec_nanos() ^ d.as_secs() as u32);
        Registry {
            nodes: Mutex::new(BTreeMap::new()),
            next_creation: AtomicU32::new(seed),
        }
    }

    fn nodes(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, (Registration, u32)>> {
        self.nodes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `r`; its creation, or `None` when its name is taken.
    fn register(&self, r: &Registration) -> Option<u32> {
        let mut nodes = self.nodes();
        if nodes.contains_key(&r.name) {
            return None;
        }
        let creation = loop {
            let c = self.next_creation.fetch_add(1, Ordering::Relaxed);
            // 0 means "no creation" to the distribution; 1 to 3 are the
            // old nodes' range.
            if c > 3 {
                break c;
            }
        };
        nodes.insert(r.name.clone(), (r.clone(), creation));
        Some(creation)
    }

    fn unregister(&self, name: &str, creation: u32) {
        let mut nodes = self.nodes();
        if nodes.get(name).is_some_and(|(_, c)| *c == creation) {
            nodes.remove(name);
        }
    }
}

/// Serves `listener` (bound to `port`) until a `KILL_REQ` ends the process.
pub fn serve(listener: TcpListener, port: u16) -> io::Result<()> {
    let registry = Arc::new(Registry::new());
    let open = Arc::new(AtomicUsize::new(0));
    for connection in listener.incoming() {
        let stream = match connection {
            Ok(stream) => stream,
            Err(e) => {
                eprintln!("beamr epmd: accept: {e}");
                continue;
            }
        };
        if open.fetch_add(1, Ordering::Relaxed) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::Relaxed);
            eprintln!("beamr epmd: {MAX_CONNECTIONS} connections open; one more closed");
            continue;
        }
        let (registry, count) = (registry.clone(), open.clone());
        let spawned = std::thread::Builder::new()
            .name("beamr-epmd-conn".into())
            .spawn(move || {
                let peer = stream
                    .peer_addr()
                    .map_or_else(|_| "a client".to_string(), |a| a.to_string());
                if let Err(e) = handle(stream, &registry, port) {
                    eprintln!("beamr epmd: {peer}: {e}");
                }
                count.fetch_sub(1, Ordering::Relaxed);
            });
        if let Err(e) = spawned {
            open.fetch_sub(1, Ordering::Relaxed);
            eprintln!("beamr epmd: no thread for a connection: {e}");
        }
    }
    Ok(())
}

/// Reads one request: its 2-byte length, then its bytes.
fn read_request(stream: &mut TcpStream) -> io::Result<Request> {
    let mut length = [0u8; 2];
    stream.read_exact(&mut length)?;
    let mut body = vec![0u8; usize::from(u16::from_be_bytes(length))];
    stream.read_exact(&mut body)?;
    request::decode(&body).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.0))
}

fn handle(mut stream: TcpStream, registry: &Registry, port: u16) -> io::Result<()> {
    stream.set_read_timeout(Some(REQUEST_WAIT))?;
    let request = read_request(&mut stream)
        .map_err(|e| io::Error::new(e.kind(), format!("connection closed: {e}")))?;
    match request {
        Request::Alive2(r) => {
            let Some(creation) = registry.register(&r) else {
                stream.write_all(&request::alive2_reply(r.highest, 1, 0))?;
                return Err(io::Error::other(format!(
                    "the name {} is registered already",
                    r.name
                )));
            };
            let kept = stream
                .write_all(&request::alive2_reply(r.highest, 0, creation))
                .and_then(|()| wait_for_close(&mut stream));
            registry.unregister(&r.name, creation);
            kept
        }
        Request::PortPlease2(name) => {
            let reply = request::port2_reply(registry.nodes().get(&name).map(|(r, _)| r));
            stream.write_all(&reply)
        }
        Request::Names => {
            let nodes: Vec<(String, u16)> = registry
                .nodes()
                .values()
                .map(|(r, _)| (r.name.clone(), r.port))
                .collect();
            stream.write_all(&request::names_reply(port, &nodes))
        }
        Request::Dump => {
            let mut reply = u32::from(port).to_be_bytes().to_vec();
            for (r, creation) in registry.nodes().values() {
                reply.extend_from_slice(
                    format!(
                        "active name     <{}> at port {}, creation = {creation}\n",
                        r.name, r.port
                    )
                    .as_bytes(),
                );
            }
            stream.write_all(&reply)
        }
        Request::Kill => {
            if !stream.peer_addr()?.ip().is_loopback() {
                return Err(io::Error::other("a KILL_REQ from another host, refused"));
            }
            // As erts's epmd without -relaxed_command_check: not while
            // nodes are registered.
            if registry.nodes().is_empty() {
                stream.write_all(b"OK")?;
                std::process::exit(0);
            }
            stream.write_all(b"NO")
        }
        Request::Stop(name) => Err(io::Error::other(format!(
            "a STOP_REQ for {name}, refused (erts's epmd takes it only with -relaxed_command_check)"
        ))),
    }
}

/// Waits until a registered node's connection ends; what it sends
/// meanwhile is read and dropped.
fn wait_for_close(stream: &mut TcpStream) -> io::Result<()> {
    stream.set_read_timeout(None)?;
    let mut buf = [0u8; 256];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A reset is how a killed node's connection ends.
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}
