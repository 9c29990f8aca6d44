//! What `beamr ctl`'s server refuses: a client of another user (by the
//! socket's file modes, and by its peer credentials when the modes would
//! let it in), a stale socket of a dead runtime (removed, never connected
//! to), and a malformed, oversized or wrong-version request over the real
//! socket (an error reply; the server goes on serving).

mod ctl_support;

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::Command;
use std::time::Duration;

use beamr_ctl::protocol::framing::{decode_reply, MAX_FRAME};
use beamr_ctl::protocol::{
    encode_request, read_frame, write_frame, ErrorKind, Reply, Request, VERSION,
};
use ctl_support::Server;

/// `beamr ctl PID stats` run as uid and gid 65534.
fn ctl_as_nobody(server: &Server) -> std::process::Output {
    ctl_support::run_bounded(
        Command::new("setpriv")
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg(ctl_support::beamr())
            .args(["ctl", &server.pid().to_string(), "stats"])
            .env("BEAMR_CTL_DIR", &server.dir),
    )
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n")
}

#[test]
fn another_user_is_refused() {
    if !is_root() {
        eprintln!("another_user_is_refused: needs root to switch uid; skipped");
        return;
    }
    let server = Server::start();
    // The directory is 0700 and the socket 0600: the file modes keep the
    // other user out.
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&server.dir), 0o700);
    assert_eq!(mode(&server.socket()), 0o600);
    let out = ctl_as_nobody(&server);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    // With the modes opened, the peer's credentials still refuse it.
    std::fs::set_permissions(&server.dir, std::fs::Permissions::from_mode(0o711)).unwrap();
    std::fs::set_permissions(server.socket(), std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = ctl_as_nobody(&server);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("refused: the client runs as uid 65534"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    // The owner is still served.
    assert_eq!(server.eval("1 + 1"), "2");
}

#[test]
fn a_stale_socket_is_removed_and_never_connected_to() {
    let server = Server::start();
    // A pid that is no process: a child that has exited.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = server.dir.join(format!("{dead}.sock"));
    let listener = UnixListener::bind(&stale).unwrap();
    listener.set_nonblocking(true).unwrap();
    let list = ctl_support::ctl(&server.dir, &["list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let pids: Vec<u64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["os_pid"].as_u64().unwrap())
        .collect();
    assert_eq!(pids, vec![u64::from(server.pid())]);
    assert!(!stale.exists(), "the stale socket was kept");
    // Named directly, it is refused and removed too.
    drop(listener);
    let listener = UnixListener::bind(&stale).unwrap();
    listener.set_nonblocking(true).unwrap();
    let out = ctl_support::ctl(&server.dir, &[&dead.to_string(), "stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("no beamr runtime with pid {dead}"))
    );
    assert!(!stale.exists());
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("the stale socket was connected to: {other:?}"),
    }
}

fn connect(server: &Server) -> UnixStream {
    let stream = UnixStream::connect(server.socket()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
}

fn reply(stream: &mut UnixStream) -> Reply {
    decode_reply(&read_frame(stream).unwrap()).unwrap()
}

fn error_kind(reply: Reply) -> ErrorKind {
    match reply {
        Reply::Error(e) => e.kind,
        other => panic!("not an error: {other:?}"),
    }
}

#[test]
fn bad_requests_get_error_replies_and_the_server_goes_on() {
    let server = Server::start();
    let mut stream = connect(&server);
    // Malformed: the session goes on.
    let mut payload = VERSION.to_le_bytes().to_vec();
    payload.extend_from_slice(b"\xff\xfe not a request");
    write_frame(&mut stream, &payload).unwrap();
    assert_eq!(error_kind(reply(&mut stream)), ErrorKind::Malformed);
    // Another version: named, and the session goes on.
    let mut payload = encode_request(&Request::Hello);
    payload[..4].copy_from_slice(&(VERSION + 7).to_le_bytes());
    write_frame(&mut stream, &payload).unwrap();
    assert_eq!(error_kind(reply(&mut stream)), ErrorKind::WrongVersion);
    write_frame(&mut stream, &encode_request(&Request::Hello)).unwrap();
    match reply(&mut stream) {
        Reply::Hello(info) => assert_eq!(info.os_pid, server.pid()),
        other => panic!("{other:?}"),
    }
    // Oversized: answered, then closed.
    stream.write_all(&(MAX_FRAME + 1).to_be_bytes()).unwrap();
    assert_eq!(error_kind(reply(&mut stream)), ErrorKind::Oversized);
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
    // Truncated: answered, then closed.
    let mut stream = connect(&server);
    stream.write_all(&100u32.to_be_bytes()).unwrap();
    stream.write_all(&[1, 2, 3]).unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    assert_eq!(error_kind(reply(&mut stream)), ErrorKind::Truncated);
    // The server still serves, and the program still answers.
    assert_eq!(server.eval("ctl_server:ask(5)"), "{v1,5}");
}
