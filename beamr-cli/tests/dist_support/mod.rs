//! Real erl nodes and beamr nodes on loopback for the distribution tests:
//! each test starts an EPMD of its own on a free port (`ERL_EPMD_PORT`
//! for every node it starts), names its nodes uniquely, bounds every wait,
//! and kills what it started when it ends (also when it fails).
//!
//! A peer erl runs on the host's OTP, or with `BEAMR_DIST_OTP_ROOT=DIR`
//! (for instance `target/otp/27`) inside that root through `chroot`, as
//! the differential suite enters it: the root shares the host's loopback
//! and host name.

#![allow(dead_code)]

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The beamr binary under test.
pub fn beamr() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_beamr"))
}

/// The root a peer erl runs in (`BEAMR_DIST_OTP_ROOT`), if any.
pub fn otp_root() -> Option<PathBuf> {
    std::env::var_os("BEAMR_DIST_OTP_ROOT").map(PathBuf::from)
}

/// This host's short name, as `-sname` nodes get it.
pub fn host() -> String {
    let out = Command::new("hostname").arg("-s").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A name no other test of this run uses: `PREFIX_PID_N`.
pub fn unique(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A child killed when dropped.
pub struct Killed(pub Option<Child>);

impl Drop for Killed {
    fn drop(&mut self) {
        if let Some(c) = self.0.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// An EPMD of the test's own.
pub struct Epmd {
    /// Its port.
    pub port: u16,
    _child: Killed,
}

impl Epmd {
    /// Starts `epmd -port P` on a free port and waits until it listens.
    pub fn start() -> Epmd {
        Epmd::start_program(Command::new(epmd_program()))
    }

    /// Starts beamr's own, `beamr epmd -port P`, as [`Epmd::start`] does.
    pub fn start_beamrs() -> Epmd {
        let mut command = Command::new(beamr());
        command.arg("epmd");
        Epmd::start_program(command)
    }

    fn start_program(mut command: Command) -> Epmd {
        let port = free_port();
        let child = command
            .args(["-port", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("epmd");
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "epmd did not start on port {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Epmd {
            port,
            _child: Killed(Some(child)),
        }
    }
}

/// A TCP port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// erts's `epmd` program.
pub fn epmd_program() -> PathBuf {
    for dir in ["/usr/lib/erlang"] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let p = e.path().join("bin/epmd");
                if e.file_name().to_string_lossy().starts_with("erts-") && p.is_file() {
                    return p;
                }
            }
        }
    }
    PathBuf::from("epmd")
}

/// A started node (erl or beamr) whose output is read when it ends.
pub struct Node {
    /// Its node name, `NAME@HOST`.
    pub name: String,
    child: Killed,
}

impl Node {
    /// Waits for the node to exit (killing it after `limit`), and returns
    /// its standard output and error.
    pub fn output(mut self, limit: Duration) -> (String, String) {
        let mut child = self.child.0.take().unwrap();
        let deadline = Instant::now() + limit;
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut out = String::new();
        let mut err = String::new();
        if let Some(mut s) = child.stdout.take() {
            let _ = s.read_to_string(&mut out);
        }
        if let Some(mut s) = child.stderr.take() {
            let _ = s.read_to_string(&mut err);
        }
        (out, err)
    }

    /// Kills the node's OS process at once (its connections drop).
    pub fn kill(&mut self) {
        if let Some(c) = self.child.0.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// An erl node `-sname NAME -setcookie COOKIE -noshell -eval EXPR`.
pub fn erl(epmd: &Epmd, name: &str, cookie: &str, expr: &str) -> Node {
    erl_with(epmd, name, cookie, &[], expr)
}

/// [`erl`] with more of erl's flags (`-connect_all false`).
pub fn erl_with(epmd: &Epmd, name: &str, cookie: &str, flags: &[&str], expr: &str) -> Node {
    let mut cmd = match otp_root() {
        Some(root) => {
            let mut c = Command::new("chroot");
            c.arg(root).arg("erl");
            c
        }
        None => Command::new("erl"),
    };
    cmd.args(["-sname", name, "-setcookie", cookie, "-noshell"])
        .args(flags)
        .args(["-eval", expr])
        .env("ERL_EPMD_PORT", epmd.port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Node {
        name: format!("{name}@{}", host()),
        child: Killed(Some(cmd.spawn().expect("erl"))),
    }
}

/// A beamr node running `MOD:main/0` of `beam` with plain `args`.
pub fn beamr_node(epmd: &Epmd, name: &str, cookie: &str, beam: &Path, args: &[&str]) -> Node {
    beamr_node_with(epmd, name, cookie, &[], beam, args)
}

/// [`beamr_node`] with more of `beamr run`'s flags (`--hidden`).
pub fn beamr_node_with(
    epmd: &Epmd,
    name: &str,
    cookie: &str,
    flags: &[&str],
    beam: &Path,
    args: &[&str],
) -> Node {
    let mut cmd = Command::new(beamr());
    cmd.args(["run", "--no-ctl", "--sname", name, "--setcookie", cookie])
        .args(flags)
        .arg(beam)
        .arg("--")
        .args(args)
        .env("ERL_EPMD_PORT", epmd.port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Node {
        name: format!("{name}@{}", host()),
        child: Killed(Some(cmd.spawn().expect("beamr"))),
    }
}

/// Compiles `source` (module `module`) with erlc into a fresh directory;
/// returns the `.beam` file.
pub fn compile(module: &str, source: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(unique(&format!("beamr-dist-{module}")));
    std::fs::create_dir_all(&dir).unwrap();
    crate::support::erlc(&dir, module, source)
}

/// The directory, as a peer erl sees it, that holds a copy of `beam`: its
/// own directory on the host's OTP, or one under the root's `/tmp` when
/// the peer runs inside [`otp_root`] (which sees nothing else of the
/// host's files).
pub fn erl_code_dir(beam: &Path) -> String {
    let dir = beam.parent().expect("a .beam in a directory");
    let Some(root) = otp_root() else {
        return dir.display().to_string();
    };
    let name = dir.file_name().expect("a named directory");
    let inside = root.join("tmp").join(name);
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::copy(beam, inside.join(beam.file_name().unwrap())).unwrap();
    Path::new("/tmp").join(name).display().to_string()
}

/// Waits until `node` is registered with `epmd` (so a peer can reach it).
pub fn wait_registered(epmd: &Epmd, node: &str) {
    wait_registered_on(epmd.port, node);
}

/// [`wait_registered`] with the EPMD on `port`, asked by erts's `epmd
/// -names`.
pub fn wait_registered_on(port: u16, node: &str) {
    let short = node.split('@').next().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let out = Command::new(epmd_program())
            .args(["-port", &port.to_string(), "-names"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        if text
            .lines()
            .any(|l| l.starts_with(&format!("name {short} ")))
        {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{node} never registered:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The distribution port `node` registered with `epmd`.
pub fn dist_port(epmd: &Epmd, node: &str) -> u16 {
    let short = node.split('@').next().unwrap();
    let out = Command::new(epmd_program())
        .args(["-port", &epmd.port.to_string(), "-names"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .find_map(|l| {
            l.strip_prefix(&format!("name {short} at port "))
                .and_then(|p| p.trim().parse().ok())
        })
        .unwrap_or_else(|| panic!("{node} not in epmd's names:\n{text}"))
}
