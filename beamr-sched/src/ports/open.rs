//! Opening a port: starting its OS program (or taking the runtime's own
//! file descriptors), putting it in the port table, and starting the
//! thread that writes its input and the one that reads its output.
//!
//! `{spawn, Command}` runs `/bin/sh -c "exec Command"`, as erts does (a
//! command that does not exist is the shell's complaint and exit status
//! 127, not an error of `open_port`). `{spawn_executable, File}` runs File
//! itself; a file that cannot be run is `enoent` or `eacces`. A `{cd, Dir}`
//! that is not a directory gives a port whose program says so and exits
//! with status 2, as erts's does.
//! erts's resolver program (`inet_gethost`) and its inet drivers
//! (`{spawn_driver, "tcp_inet"}`) are native (`ports::inet`).
//! `stderr_to_stdout` sends standard error down the pipe the port reads;
//! otherwise the program writes to the runtime's standard error.
//! With the port table full (`+Q`), every open raises `system_limit`.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::errno::os_error;
use super::options::{PortName, PortOptions};
use super::reader::{self, Reader};
use crate::process::Exception;
use crate::runtime::pending_output;
use crate::runtime::{Port, Runtime};

/// Opens a port connected to `owner`. `environment` is the `os`
/// environment a spawned program starts from (the settings' `env` applies
/// on top). Errors are what `open_port/2` raises.
pub fn open(
    rt: &Runtime,
    owner: Term,
    name: PortName,
    o: PortOptions,
    environment: Vec<(String, String)>,
) -> Result<Term, Exception> {
    if rt.ports.is_full() {
        // Before any driver or program starts, as erts checks.
        return Err(crate::runtime::PortLimitReached.into());
    }
    if let PortName::Spawn(command) = &name {
        if let Some(opened) = super::builtin::open(rt, owner, command, o.binary) {
            return opened;
        }
    }
    if let PortName::Driver(driver) = &name {
        return super::inet::open(rt, owner, driver);
    }
    if let PortName::Executable(file) = &name {
        if super::inet::gethost::is_gethost(file) {
            return super::inet::gethost::open(rt, owner, file).ok_or_else(|| error("enotsup"));
        }
    }
    let Some(rt_arc) = rt.weak_self.get().and_then(std::sync::Weak::upgrade) else {
        return Err(error("enotsup"));
    };
    let id = rt.ports.new_id()?;
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let sink = o.output.then_some(tx);
    match name {
        PortName::Fd(input, output) => {
            let mut bad_input = None;
            let source = match o.input {
                false => None,
                true => super::fd::reader(input)
                    .map_err(|e| bad_input = Some(e))
                    .ok(),
            };
            // Written as the port is given data, as erts's fd driver
            // writes (`fd_writer`).
            let target = o.output.then(|| super::fd_writer::Target::of(output));
            // erts names an fd port after its descriptors: "In/Out".
            let name = format!("{input}/{output}");
            let mut port = Port::new(id, name.clone(), owner, None);
            port.packet = packet_header(&o);
            port.writable = o.output;
            if let Some(target) = target {
                let writer = super::fd_writer::FdWriter::new(id, Arc::downgrade(&rt_arc), target);
                port.driver = Some(writer as Arc<dyn crate::runtime::PortDriver>);
            }
            let port = Arc::new(port);
            rt.insert_port(port.clone());
            if let Some(reason) = bad_input {
                // erts says so when it polls the descriptor, and ends the port.
                let rt = rt_arc.clone();
                std::thread::spawn(move || {
                    let text = format!(
                        "Bad input fd in erts_poll()! fd={input}, port=#Port<0.{}>, driver=fd, name={name}\n",
                        id.as_local_port().unwrap_or_default()
                    );
                    rt.log_emulator_text(owner, None, &text);
                    rt.port_exit(id, error_atom(&reason), None);
                });
            }
            reader::start(
                rt_arc,
                Reader {
                    port,
                    source,
                    child: None,
                    options: o,
                },
            );
            Ok(id)
        }
        PortName::Spawn(_) | PortName::Executable(_) => {
            let label = match &name {
                PortName::Spawn(c) | PortName::Executable(c) => c.clone(),
                PortName::Fd(..) | PortName::Driver(_) => unreachable!("handled above"),
            };
            let (child, source, target) = spawn(&name, &o, environment)?;
            let mut port = Port::new(id, label, owner, sink);
            port.os_pid = Some(child.id());
            port.packet = packet_header(&o);
            port.writable = o.output;
            let port = Arc::new(port);
            rt.insert_port(port.clone());
            if let Some(target) = target {
                start_writer(target, rx);
            }
            reader::start(
                rt_arc,
                Reader {
                    port,
                    source,
                    child: Some(child),
                    options: o,
                },
            );
            Ok(id)
        }
        PortName::Driver(_) => Err(Exception::badarg()),
    }
}

/// The `{packet, N}` header size a port writes (0 for none).
fn packet_header(o: &PortOptions) -> usize {
    match o.framing {
        super::framing::Framing::Packet(n) => n,
        _ => 0,
    }
}

/// An `error` exception with the atom `reason`.
fn error(reason: &str) -> Exception {
    Exception::error(error_atom(reason))
}

/// The atom `reason`.
fn error_atom(reason: &str) -> Term {
    Term::atom(Atom::new(reason).expect("atom"))
}

/// Starts the program; returns it with the pipe its output comes from.
fn spawn(
    name: &PortName,
    o: &PortOptions,
    environment: Vec<(String, String)>,
) -> Result<Spawned, Exception> {
    let cd_fails =
        o.cd.as_ref()
            .is_some_and(|d| !std::path::Path::new(d).is_dir());
    let mut cmd = match name {
        // erts's child says so on standard error and exits with status 2;
        // so does a shell standing in for it.
        _ if cd_fails => {
            let mut cmd = Command::new("/bin/sh");
            cmd.arg0("sh")
                .arg("-c")
                .arg("echo \"spawn: Could not cd to $0\" >&2; exit 2")
                .arg(o.cd.as_deref().unwrap_or_default());
            cmd
        }
        PortName::Spawn(command) => {
            let mut cmd = Command::new("/bin/sh");
            cmd.arg0("sh").arg("-c").arg(format!("exec {command}"));
            cmd
        }
        // A directory passes erts's access check and fails its exec: the
        // port's program exits with the errno, EACCES.
        PortName::Executable(file) if std::path::Path::new(file).is_dir() => {
            let mut cmd = Command::new("/bin/sh");
            cmd.arg0("sh").arg("-c").arg("exit 13");
            cmd
        }
        PortName::Executable(file) => {
            let mut cmd = Command::new(file);
            if let Some(arg0) = &o.arg0 {
                cmd.arg0(arg0);
            }
            cmd.args(&o.args);
            cmd
        }
        PortName::Fd(..) | PortName::Driver(_) => return Err(Exception::badarg()),
    };
    cmd.env_clear().envs(environment);
    for (k, v) in &o.env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    if let Some(dir) = o.cd.as_ref().filter(|_| !cd_fails) {
        cmd.current_dir(dir);
    }
    if !o.use_stdio {
        return spawn_nouse_stdio(cmd, o);
    }
    cmd.stdin(if o.output {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let source: Option<Box<dyn Read + Send>> = if o.input {
        let (read, write) = os_pipe::pipe().map_err(|e| os_error(&e))?;
        // (erts's complaint about the directory goes to the runtime's
        // standard error whatever the settings.)
        if o.stderr_to_stdout && !cd_fails {
            let copy = write.try_clone().map_err(|e| os_error(&e))?;
            cmd.stderr(copy);
        }
        cmd.stdout(write);
        Some(Box::new(read))
    } else {
        // A port that reads nothing leaves the program erts's standard
        // output, as erts does.
        cmd.stdout(Stdio::inherit());
        None
    };
    let mut child = cmd.spawn().map_err(|e| os_error(&e))?;
    // `cmd` holds the pipe's write ends: dropping it leaves them to the
    // child alone, so the reader sees end of file when the child is done.
    drop(cmd);
    let target = child
        .stdin
        .take()
        .map(|stdin| Box::new(stdin) as Box<dyn Write + Send>);
    Ok((child, source, target))
}

/// A started program: the child, what the port reads from it, and what
/// the port writes to.
type Spawned = (
    Child,
    Option<Box<dyn Read + Send>>,
    Option<Box<dyn Write + Send>>,
);

/// Starts `cmd` for a `nouse_stdio` port: the program reads the port's
/// output on descriptor 3 and writes the port's input on descriptor 4
/// (command-fds places the pipes there in the child), and its standard
/// input, output and error are the runtime's own, as with erts.
fn spawn_nouse_stdio(mut cmd: Command, o: &PortOptions) -> Result<Spawned, Exception> {
    use command_fds::{CommandFdExt, FdMapping};
    let mut mappings = Vec::new();
    let mut target: Option<Box<dyn Write + Send>> = None;
    if o.output {
        let (read, write) = os_pipe::pipe().map_err(|e| os_error(&e))?;
        mappings.push(FdMapping {
            parent_fd: read.into(),
            child_fd: 3,
        });
        target = Some(Box::new(write));
    }
    let mut source: Option<Box<dyn Read + Send>> = None;
    if o.input {
        let (read, write) = os_pipe::pipe().map_err(|e| os_error(&e))?;
        mappings.push(FdMapping {
            parent_fd: write.into(),
            child_fd: 4,
        });
        source = Some(Box::new(read));
    }
    cmd.fd_mappings(mappings).map_err(|_| Exception::badarg())?;
    let child = cmd.spawn().map_err(|e| os_error(&e))?;
    // Only the child keeps the descriptors it was given.
    drop(cmd);
    Ok((child, source, target))
}

/// Writes what the port's channel carries to `target`, until the channel
/// closes (the port exited: `None`) or a write fails (its error). Every
/// byte taken from the channel is counted done ([`pending_output`]).
fn pump(target: &mut dyn Write, rx: &Receiver<Vec<u8>>) -> Option<std::io::Error> {
    rx.iter().find_map(|data| {
        let result = target.write_all(&data).and_then(|()| target.flush());
        pending_output::done(data.len());
        result.err()
    })
}

/// Counts done, without writing them, the bytes still in the channel
/// and any sent until the port closes it.
fn discard(rx: Receiver<Vec<u8>>) {
    for data in rx {
        pending_output::done(data.len());
    }
}

/// The writer of a program's port: [`pump`] on a thread of its own, then
/// closes `target` (a failed write stops it; the program's end is what
/// ends the port).
fn start_writer(mut target: Box<dyn Write + Send>, rx: Receiver<Vec<u8>>) {
    std::thread::spawn(move || {
        if pump(&mut *target, &rx).is_some() {
            drop(target);
            discard(rx);
        }
    });
}

/// A finished program's status as a port reports it: its exit code, or
/// 128 plus the signal that ended it.
pub(super) fn exit_code(status: std::process::ExitStatus) -> i64 {
    match (status.code(), status.signal()) {
        (Some(code), _) => i64::from(code),
        (None, Some(signal)) => 128 + i64::from(signal),
        (None, None) => 0,
    }
}
