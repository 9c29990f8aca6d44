//! TLS between beamr and erl, and between beamr and `openssl`: OTP's
//! `ssl`, unchanged, on beamr's crypto (OpenSSL) and asn1 NIFs, talks to
//! erl's and to OpenSSL's. `tests/erlang/tls_peer.erl` is one end of a
//! connection; it runs as the server on one runtime and as the client on
//! the other, for TLS 1.3 and TLS 1.2, with a certificate chain the
//! server makes at test time (`public_key:pkix_test_data/1`) and the
//! client verifies; `openssl s_client` reaches a beamr server, and
//! beamr's client reaches `openssl s_server -rev` (a root and leaf that
//! `openssl req` makes at test time).
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
        .env("ERL_CRASH_DUMP_SECONDS", "0")
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

/// A free loopback port (free when asked; `s_server` takes it next).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    l.local_addr().expect("its address").port()
}

/// Waits until `path` exists or `deadline` passes.
fn wait_for(path: &Path, deadline: Instant) -> bool {
    while !path.exists() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    true
}

/// A fresh temporary folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-tls-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// `openssl s_client` with `flag` (`-tls1_3`, `-tls1_2`) reaches a beamr
/// server, checks its chain against the root the server wrote, and gets
/// its line echoed.
fn s_client_to_beamr(version: &str, flag: &str) {
    let beams = support::fixtures("tls_peer");
    let dir = scratch(&format!("s_client-{version}"));
    let deadline = Instant::now() + PATIENCE;
    let mut server = Reaped(start(Runtime::Beamr, "server_once", version, &beams, &dir));
    assert!(
        wait_for(&dir.join("server.info"), deadline),
        "the beamr server did not start listening"
    );
    let port = std::fs::read_to_string(dir.join("port")).expect("the port file");
    let mut client = Reaped(
        Command::new("openssl")
            .args(["s_client", "-connect", &format!("127.0.0.1:{port}"), flag])
            .args(["-quiet", "-ign_eof", "-verify_return_error", "-CAfile"])
            .arg(dir.join("ca.pem"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("openssl runs"),
    );
    {
        use std::io::Write;
        let mut stdin = client.0.stdin.take().expect("piped stdin");
        stdin
            .write_all(b"hello from s_client\n")
            .expect("a line to openssl");
    }
    let (client_out, client_err) = finish(&mut client, deadline);
    let (server_out, server_err) = finish(&mut server, deadline);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        client_out == "hello from s_client\n"
            && server_out.trim() == format!("server done '{version}'"),
        "s_client said:\n{client_out}{client_err}\nthe beamr server said:\n{server_out}{server_err}"
    );
}

/// beamr's `ssl:connect` reaches `openssl s_server -rev` (with `flag`, a
/// P-256 root and leaf openssl makes at test time; the client trusts the
/// root) and gets its line back reversed.
fn beamr_to_s_server(version: &str, flag: &str) {
    let beams = support::fixtures("tls_peer");
    let dir = scratch(&format!("s_server-{version}"));
    // A root and a leaf it signs (OTP's ssl refuses a self-signed leaf).
    let openssl = |args: &[&str]| {
        let made = Command::new("openssl")
            .current_dir(&dir)
            .args(args)
            .output()
            .expect("openssl runs");
        assert!(made.status.success(), "openssl {args:?}: {made:?}");
    };
    let ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    for line in [
        format!("req -x509 {ec} -days 2 -subj /CN=root -keyout ca.key -out ca.pem"),
        format!("req {ec} -subj /CN=localhost -keyout key.pem -out leaf.csr"),
        "x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out cert.pem"
            .to_string(),
    ] {
        openssl(&line.split(' ').collect::<Vec<_>>());
    }
    let port = free_port();
    std::fs::write(dir.join("port"), port.to_string()).expect("the port file");
    let deadline = Instant::now() + PATIENCE;
    let mut server = Reaped(
        Command::new("openssl")
            .args(["s_server", "-accept", &format!("127.0.0.1:{port}"), flag])
            .args(["-rev", "-naccept", "1", "-cert"])
            .arg(dir.join("cert.pem"))
            .arg("-key")
            .arg(dir.join("key.pem"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("openssl runs"),
    );
    // s_server says ACCEPT once it listens (after a line or two more).
    let out = server.0.stdout.take().expect("piped stdout");
    let mut out = std::io::BufReader::new(out);
    let mut listening = false;
    let mut line = String::new();
    while !listening {
        use std::io::BufRead;
        line.clear();
        if out.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        listening = line.trim() == "ACCEPT";
    }
    assert!(listening, "openssl s_server did not start");
    let mut client = Reaped(start(Runtime::Beamr, "client_rev", version, &beams, &dir));
    let (client_out, client_err) = finish(&mut client, deadline);
    drop(out);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        client_out.trim() == format!("client ok '{version}'"),
        "the beamr client said:\n{client_out}{client_err}"
    );
}

#[test]
fn openssl_s_client_reaches_a_beamr_tls_1_3_server() {
    s_client_to_beamr("tlsv1.3", "-tls1_3");
}

#[test]
fn openssl_s_client_reaches_a_beamr_tls_1_2_server() {
    s_client_to_beamr("tlsv1.2", "-tls1_2");
}

#[test]
fn beamr_reaches_an_openssl_s_server_over_tls_1_3() {
    beamr_to_s_server("tlsv1.3", "-tls1_3");
}

#[test]
fn beamr_reaches_an_openssl_s_server_over_tls_1_2() {
    beamr_to_s_server("tlsv1.2", "-tls1_2");
}
