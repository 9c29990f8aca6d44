//! TLS between beamr and erl: OTP's `ssl`, unchanged, on beamr's crypto
//! (OpenSSL) and asn1 NIFs, talks to erl's. `tests/erlang/tls_peer.erl`
//! is one end of a connection; it runs as the server on one runtime and
//! as the client on the other, for TLS 1.3 and TLS 1.2, with a
//! certificate chain the server makes at test time
//! (`public_key:pkix_test_data/1`) and the client verifies.
//!
//! Each run is bounded in time, and both processes are killed when the
//! test ends, whatever happened.

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long one end may take (handshakes on a loaded 2-core machine with
/// a debug build are slow).
const PATIENCE: Duration = Duration::from_secs(180);

/// Which runtime runs an end.
#[derive(Clone, Copy, Debug)]
enum Runtime {
    Erl,
    Beamr,
}

/// Starts `tls_peer` as `role` on `runtime`, its output piped.
fn start(runtime: Runtime, role: &str, version: &str, beams: &Path, dir: &Path) -> Child {
    let dir = dir.to_str().expect("a UTF-8 temporary path");
    let mut cmd = match runtime {
        Runtime::Erl => {
            let mut c = Command::new("erl");
            c.arg("-noshell")
                .arg("-pa")
                .arg(beams)
                .args(["-s", "tls_peer", "main", "-s", "init", "stop", "-extra"]);
            c
        }
        Runtime::Beamr => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_beamr"));
            c.args(["run", "-e", "tls_peer"]).arg(beams).arg("--");
            c
        }
    };
    cmd.args([role, version, dir])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the runtime starts")
}

/// Kills the process when dropped, so that no end outlives the test.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` until `deadline` (killing it then): its stdout and
/// stderr.
fn finish(child: &mut Reaped, deadline: Instant) -> (String, String) {
    loop {
        match child.0.try_wait().expect("wait") {
            Some(_) => break,
            None if Instant::now() >= deadline => {
                let _ = child.0.kill();
                let _ = child.0.wait();
                break;
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    let mut out = String::new();
    let mut err = String::new();
    use std::io::Read;
    if let Some(mut s) = child.0.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    if let Some(mut s) = child.0.stderr.take() {
        let _ = s.read_to_string(&mut err);
    }
    (out, err)
}

/// Runs a server on `server` and a client on `client` for `version`;
/// both must say they finished with that protocol.
fn connect(server: Runtime, client: Runtime, version: &str) {
    let beams = support::fixtures("tls_peer");
    let dir = std::env::temp_dir().join(format!(
        "beamr-tls-{}-{server:?}-{client:?}-{version}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let deadline = Instant::now() + PATIENCE;
    let mut s = Reaped(start(server, "server", version, &beams, &dir));
    let mut c = Reaped(start(client, "client", version, &beams, &dir));
    let (client_out, client_err) = finish(&mut c, deadline);
    let (server_out, server_err) = finish(&mut s, deadline);
    let _ = std::fs::remove_dir_all(&dir);
    let protocol = format!("'{version}'");
    let ok = client_out.trim() == format!("client ok {protocol}")
        && server_out.trim() == format!("server done {protocol}");
    assert!(
        ok,
        "the {client:?} client said:\n{client_out}{client_err}\n\
         the {server:?} server said:\n{server_out}{server_err}"
    );
}

#[test]
fn beamr_connects_to_an_erl_tls_1_3_server() {
    connect(Runtime::Erl, Runtime::Beamr, "tlsv1.3");
}

#[test]
fn erl_connects_to_a_beamr_tls_1_3_server() {
    connect(Runtime::Beamr, Runtime::Erl, "tlsv1.3");
}

#[test]
fn beamr_connects_to_an_erl_tls_1_2_server() {
    connect(Runtime::Erl, Runtime::Beamr, "tlsv1.2");
}

#[test]
fn erl_connects_to_a_beamr_tls_1_2_server() {
    connect(Runtime::Beamr, Runtime::Erl, "tlsv1.2");
}
