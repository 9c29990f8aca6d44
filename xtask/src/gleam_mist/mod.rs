//! A Gleam web app on mist served on erl 27 and on beamr, answering the
//! same requests with the same bytes.
//!
//! `tests/gleam/mist_app` (GET with query parameters, JSON through
//! gleam_json, POST echo, 404s, a handler that crashes, a chunked response,
//! a websocket echo; and the same over TLS 1.3 and 1.2 with a certificate
//! made here by `openssl`, signed by a CA made with it) is built with `gleam build` in the OTP 27 root, its
//! dependencies given by path to copies of `../shared/gleam/packages` (so
//! no hex access is needed), then started as `gleam run` starts it (`erl
//! -pa build/dev/erlang/*/ebin` running `mist_app@@main:run(mist_app)`,
//! which starts the application and its dependencies, ssl among them) and
//! with `beamr run build/dev/erlang`. Each listens on 127.0.0.1 on a port
//! the system picks and prints it (and its TLS port); [`client::script`]
//! is run against each, and [`client::tls_script`] over TLS, and the answers are compared byte for byte, `date` headers masked.
//! Both servers are killed at the end, whatever happened.
//!
//! Two of the copies are adjusted so that Gleam's resolver accepts them:
//! logging (its main branch) still says version 1.2.0 where glisten asks
//! for 1.3.0 or later, and the Erlang packages telemetry and hpack_erl get
//! a `gleam.toml` (telemetry's naming its application module), since
//! Gleam builds a path dependency only when it is a Gleam project (their
//! `src/*.erl` compile as a Gleam package's own Erlang files do).

pub mod client;
pub mod soak;

use crate::gleam_suites::copy_dir;
use crate::{process, Error, Result};
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// The packages the app's build needs, from `../shared/gleam/packages`.
const PACKAGES: [&str; 14] = [
    "gleam_stdlib",
    "gleam_erlang",
    "logging",
    "gleam_otp",
    "gleam_http",
    "gleam_json",
    "gleam_yielder",
    "exception",
    "gleam_crypto",
    "gramps",
    "glisten",
    "mist",
    "telemetry",
    "hpack_erl",
];

/// The `gleam.toml` each Erlang package gets in the work directory.
const ERLANG_PACKAGES: [(&str, &str); 2] = [
    (
        "telemetry",
        "name = \"telemetry\"\nversion = \"1.3.0\"\n\n[erlang]\napplication_start_module = \"telemetry_app\"\n",
    ),
    ("hpack_erl", "name = \"hpack_erl\"\nversion = \"0.3.0\"\n"),
];

/// How long a server may take to print its port.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Builds the app in `otp_root` with the Gleam `compiler` from `packages`
/// and compares its answers on erl 27 and on `beamr`. Both transcripts and
/// what each server printed are left in the root's `tmp/beamr-gleam-mist`
/// (`answers-erl.txt`, `output-beamr.txt`, ...).
pub fn run(
    workspace: &Path,
    otp_root: &Path,
    compiler: &Path,
    packages: &Path,
    beamr: &Path,
) -> Result<()> {
    let app = App::build(workspace, otp_root, compiler, packages)?;
    let mut runs = vec![Run {
        label: "",
        transport: client::Transport::Tcp,
        exchanges: client::script(),
    }];
    for (label, version) in [("tls 1.3: ", 13), ("tls 1.2: ", 12)] {
        runs.push(Run {
            label,
            transport: client::Transport::Tls(
                client::tls_config(&app.ca, version).map_err(Error::new)?,
            ),
            exchanges: client::tls_script(),
        });
    }
    let exchanges: Vec<String> = runs
        .iter()
        .flat_map(|r| r.exchanges.iter().map(|e| format!("{}{}", r.label, e.name)))
        .collect();
    let erl = answers(start("erl 27", app.erl())?, &runs);
    let ours = answers(start("beamr", app.beamr(beamr))?, &runs);

    // Both transcripts, for a look at what was compared.
    for (name, served) in [("erl", &erl), ("beamr", &ours)] {
        let mut text = String::new();
        for (exchange, answer) in exchanges.iter().zip(&served.answers) {
            text.push_str(&format!("== {exchange}\n{answer}"));
        }
        write(&app.work.join(format!("answers-{name}.txt")), &text)?;
        write(
            &app.work.join(format!("output-{name}.txt")),
            &served.output.join("\n"),
        )?;
    }
    let mut failures = Vec::new();
    for ((exchange, e), b) in exchanges.iter().zip(&erl.answers).zip(&ours.answers) {
        let (e, b) = (client::mask_dates(e), client::mask_dates(b));
        if e == b {
            println!("gleam: mist_app: {exchange}: same");
        } else {
            println!("gleam: mist_app: {exchange}: DIFFERENT");
            println!("  erl 27:\n{}", indent(&e));
            println!("  beamr:\n{}", indent(&b));
            failures.push(exchange.as_str());
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    for line in ours.output.iter().rev().take(30).rev() {
        println!("  beamr output: {line}");
    }
    Err(Error::new(format!(
        "mist_app answers differently on beamr: {}",
        failures.join("; ")
    )))
}

/// `tests/gleam/mist_app` built in an OTP root, with its TLS certificate,
/// ready to start on either runtime.
pub struct App {
    otp_root: PathBuf,
    /// The work directory, `tmp/beamr-gleam-mist` in the root.
    pub work: PathBuf,
    /// The built project, where both servers run.
    project: PathBuf,
    /// The test CA's certificate, for a client to trust.
    pub ca: PathBuf,
}

impl App {
    /// Copies the app and the packages it needs from `packages` into the
    /// root's work directory, makes its certificate and builds it with the
    /// Gleam `compiler` in the root.
    pub fn build(
        workspace: &Path,
        otp_root: &Path,
        compiler: &Path,
        packages: &Path,
    ) -> Result<App> {
        let work = otp_root.join("tmp/beamr-gleam-mist");
        let _ = fs::remove_dir_all(&work);
        let project = work.join("project");
        let pkgs = work.join("pkgs");
        for package in PACKAGES {
            copy_dir(&packages.join(package), &pkgs.join(package))?;
        }
        raise_logging_version(&pkgs.join("logging/gleam.toml"))?;
        for (package, toml) in ERLANG_PACKAGES {
            write(&pkgs.join(package).join("gleam.toml"), toml)?;
            // Their tests are rebar3's (EUnit and Common Test): not built here.
            let _ = fs::remove_dir_all(pkgs.join(package).join("test"));
        }
        let source = workspace.join("tests/gleam/mist_app");
        copy_dir(&source.join("src"), &project.join("src"))?;
        fs::copy(source.join("gleam.toml"), project.join("gleam.toml"))
            .map_err(|e| Error::new(format!("copying {}: {e}", source.display())))?;
        let ca = make_certificates(&project.join("tls"))?;
        fs::copy(compiler, work.join("gleam"))
            .map_err(|e| Error::new(format!("copying {}: {e}", compiler.display())))?;
        let app = App {
            otp_root: otp_root.to_path_buf(),
            work,
            project,
            ca,
        };
        process::run(Command::new("chroot").arg(otp_root).args([
            "sh",
            "-c",
            &format!(
                "cd {} && {} build",
                app.inside(&app.project).display(),
                app.inside(&app.work.join("gleam")).display()
            ),
        ]))?;
        Ok(app)
    }

    /// `path` as seen inside the root.
    fn inside(&self, path: &Path) -> PathBuf {
        Path::new("/").join(path.strip_prefix(&self.otp_root).unwrap_or(path))
    }

    /// The app on erl 27, as `gleam run` starts it, in the root.
    pub fn erl(&self) -> Command {
        let mut command = Command::new("chroot");
        command.arg(&self.otp_root).args([
            "sh",
            "-c",
            &format!(
                "cd {} && exec erl -noshell -pa build/dev/erlang/*/ebin -eval \"'mist_app@@main':run(mist_app)\"",
                self.inside(&self.project).display()
            ),
        ]);
        command
    }

    /// The app on `beamr`, with the root's OTP library.
    pub fn beamr(&self, beamr: &Path) -> Command {
        let mut command = Command::new(beamr);
        command
            .current_dir(&self.project)
            .env("BEAMR_OTP_ROOT", self.otp_root.join("usr/lib/erlang"))
            .arg("run")
            .arg("build/dev/erlang");
        command
    }
}

/// One pass of exchanges over one transport, its names prefixed with
/// `label` in the report.
struct Run {
    label: &'static str,
    transport: client::Transport,
    exchanges: Vec<client::Exchange>,
}

/// What one server answered to the runs, in order, and what it printed.
struct Served {
    answers: Vec<String>,
    output: Vec<String>,
}

/// Runs each of `runs` against `server` (on the port of its transport),
/// then stops it.
fn answers(server: Running, runs: &[Run]) -> Served {
    let answers = runs
        .iter()
        .flat_map(|run| {
            let port = match run.transport {
                client::Transport::Tcp => server.port,
                client::Transport::Tls(_) => server.tls_port,
            };
            run.exchanges
                .iter()
                .map(move |e| client::run(port, &run.transport, e))
        })
        .collect();
    Served {
        answers,
        output: server.stop(),
    }
}

/// A server that printed its ports, with what it has printed so far.
pub struct Running {
    server: Server,
    output: mpsc::Receiver<String>,
    printed: Vec<String>,
    /// Its HTTP port.
    pub port: u16,
    /// Its HTTPS port.
    pub tls_port: u16,
}

/// Starts the server `command` (called `name` in errors) and waits for its
/// `listening on PORT` and `listening tls on PORT` lines.
pub fn start(name: &str, mut command: Command) -> Result<Running> {
    let mut server = Server(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::new(format!("cannot start the mist app on {name}: {e}")))?,
    );
    let (lines, output) = mpsc::channel();
    for pipe in [
        server
            .0
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
        server
            .0
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    {
        let lines = lines.clone();
        thread::spawn(move || {
            for line in BufReader::new(pipe)
                .lines()
                .map_while(std::result::Result::ok)
            {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
    }
    drop(lines);
    let mut printed = Vec::new();
    let (mut port, mut tls_port) = (None, None);
    loop {
        if let (Some(port), Some(tls_port)) = (port, tls_port) {
            return Ok(Running {
                server,
                output,
                printed,
                port,
                tls_port,
            });
        }
        let Ok(line) = output.recv_timeout(START_TIMEOUT) else {
            return Err(Error::new(format!(
                "the mist app on {name} printed no port and TLS port within {} s; it printed:\n{}",
                START_TIMEOUT.as_secs(),
                printed.join("\n")
            )));
        };
        let number = |prefix: &str| {
            line.strip_prefix(prefix)
                .and_then(|p| p.trim().parse::<u16>().ok())
        };
        port = port.or(number("listening on "));
        tls_port = tls_port.or(number("listening tls on "));
        printed.push(line);
    }
}

impl Running {
    /// The server's OS process id.
    pub fn pid(&self) -> u32 {
        self.server.0.id()
    }

    /// Whether the server is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.server.0.try_wait(), Ok(None))
    }

    /// Stops the server; everything it printed.
    pub fn stop(self) -> Vec<String> {
        let Running {
            server,
            output,
            mut printed,
            ..
        } = self;
        // Killed, its pipes end: the readers send what it printed last and
        // finish (waited for a few seconds at most: a helper process it
        // started could hold a pipe open).
        drop(server);
        while let Ok(line) = output.recv_timeout(Duration::from_secs(5)) {
            printed.push(line);
        }
        printed
    }
}

/// A started server, stopped when dropped: asked with SIGTERM (on which
/// erl stops as `init:stop/0` does, writing out what it has printed), then
/// killed if it is still there after a few seconds.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let asked = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if asked {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.0.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Makes a test CA and a certificate for `localhost` and 127.0.0.1 signed
/// by it, with `openssl`, in `dir`: `cert.pem` and `key.pem` for the
/// server, and the CA's `ca.pem` (returned) for the client to trust.
fn make_certificates(dir: &Path) -> Result<PathBuf> {
    fs::create_dir_all(dir).map_err(|e| Error::new(format!("{}: {e}", dir.display())))?;
    write(
        &dir.join("server.ext"),
        "subjectAltName = DNS:localhost, IP:127.0.0.1\n",
    )?;
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
    ];
    let openssl = |args: &[&str]| {
        process::run(
            Command::new("openssl")
                .current_dir(dir)
                .args(args)
                .stdout(Stdio::null()),
        )
    };
    openssl(
        &[
            &["req", "-x509"][..],
            &ec,
            &["-keyout", "ca.key", "-out", "ca.pem"],
            &["-days", "2", "-subj", "/CN=beamr mist test CA"],
        ]
        .concat(),
    )?;
    openssl(
        &[
            &["req"][..],
            &ec,
            &["-keyout", "key.pem", "-out", "server.csr"],
            &["-subj", "/CN=localhost"],
        ]
        .concat(),
    )?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "cert.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ])?;
    Ok(dir.join("ca.pem"))
}

/// Sets logging's `version` to 1.3.0 (see the module's comment).
fn raise_logging_version(toml: &Path) -> Result<()> {
    let text =
        fs::read_to_string(toml).map_err(|e| Error::new(format!("{}: {e}", toml.display())))?;
    let raised: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("version = ") {
                "version = \"1.3.0\"".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    write(toml, &(raised.join("\n") + "\n"))
}

fn write(file: &Path, text: &str) -> Result<()> {
    fs::write(file, text).map_err(|e| Error::new(format!("{}: {e}", file.display())))
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
