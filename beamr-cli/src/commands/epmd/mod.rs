//! `beamr epmd`: an Erlang Port Mapper Daemon of beamr's own, speaking
//! erts's EPMD protocol, for machines with no `epmd` program (a beamr
//! installed without Erlang): `beamr run --sname` starts it as erl's
//! launcher starts `epmd -daemon` when it finds no `epmd`
//! ([`crate::commands::node::start_epmd`]). Its command line is epmd's:
//!
//! - `beamr epmd [-port N]`: serve in the foreground;
//! - `-daemon`: serve in the background and return once it listens (at
//!   once when an EPMD answers on the port already);
//! - `-names`: list the registered nodes, as `epmd -names` prints them;
//! - `-kill`: stop the daemon (refused while nodes are registered, as
//!   erts's epmd refuses without `-relaxed_command_check`).
//!
//! The port is `-port`'s, else `ERL_EPMD_PORT`'s, else 4369. It listens
//! on every IPv4 address, as erts's epmd does without `-address`.

mod request;
mod server;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// EPMD's well-known port.
const DEFAULT_PORT: u16 = 4369;

/// How long `-daemon` waits for the daemon to listen.
const START_WAIT: Duration = Duration::from_secs(10);

/// What the command line asks.
#[derive(Debug, PartialEq, Eq)]
enum Action {
    Serve,
    Daemon,
    Names,
    Kill,
}

/// The action and the port, from epmd's flags.
fn parse(args: &[String]) -> Result<(Action, u16), String> {
    let mut action = Action::Serve;
    let mut port = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-port" => {
                let value = words.next().ok_or("epmd: -port needs a port number")?;
                port = Some(
                    value
                        .parse::<u16>()
                        .map_err(|_| format!("epmd: -port `{value}`: not a port number"))?,
                );
            }
            "-daemon" => action = Action::Daemon,
            "-names" => action = Action::Names,
            "-kill" => action = Action::Kill,
            other => {
                return Err(format!(
                    "epmd: `{other}` is not taken (beamr epmd takes -port N, -daemon, -names and -kill)"
                ))
            }
        }
    }
    let port = match port {
        Some(p) => p,
        None => match std::env::var("ERL_EPMD_PORT") {
            Ok(v) => v
                .trim()
                .parse()
                .map_err(|_| format!("epmd: ERL_EPMD_PORT `{v}`: not a port number"))?,
            Err(_) => DEFAULT_PORT,
        },
    };
    Ok((action, port))
}

/// Runs `beamr epmd ARGS...`; exit status 2 for a command line it does
/// not take, 1 when the daemon cannot be served or reached.
pub fn main(args: &[std::ffi::OsString]) -> ExitCode {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (action, port) = match parse(&words) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("beamr {e}");
            return ExitCode::from(2);
        }
    };
    let result = match action {
        Action::Serve => serve(port),
        Action::Daemon => daemon(port),
        Action::Names => names(port),
        Action::Kill => kill(port),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("beamr epmd: {e}");
            ExitCode::from(1)
        }
    }
}

fn serve(port: u16) -> Result<(), String> {
    let listener = TcpListener::bind(("0.0.0.0", port))
        .map_err(|e| format!("cannot listen on port {port}: {e}"))?;
    server::serve(listener, port).map_err(|e| e.to_string())
}

fn answers(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

/// Starts `beamr epmd -port PORT` in a process group of its own, its
/// standard streams closed, and waits until it listens.
fn daemon(port: u16) -> Result<(), String> {
    if answers(port) {
        return Ok(());
    }
    let beamr = crate::commands::shim::this_binary()?;
    use std::os::unix::process::CommandExt;
    Command::new(beamr)
        .args(["epmd", "-port", &port.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start the daemon: {e}"))?;
    let deadline = Instant::now() + START_WAIT;
    while !answers(port) {
        if Instant::now() > deadline {
            return Err(format!(
                "the daemon did not listen on port {port} within {} s",
                START_WAIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// Sends one request (its tag alone) and reads the whole answer.
fn ask(port: u16, tag: u8) -> Result<Vec<u8>, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .map_err(|_| "Cannot connect to local epmd".to_string())?;
    stream
        .set_read_timeout(Some(START_WAIT))
        .and_then(|()| stream.write_all(&[0, 1, tag]))
        .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("no answer: {e}"))?;
    Ok(answer)
}

fn names(port: u16) -> Result<(), String> {
    let answer = ask(port, request::NAMES_REQ)?;
    let Some(nodes) = answer.get(4..) else {
        return Err("a short answer to NAMES_REQ".into());
    };
    print!(
        "epmd: up and running on port {port} with data:\n{}",
        String::from_utf8_lossy(nodes)
    );
    Ok(())
}

fn kill(port: u16) -> Result<(), String> {
    match ask(port, request::KILL_REQ)?.as_slice() {
        b"OK" => {
            println!("Killed");
            Ok(())
        }
        b"NO" => Err("Killing not allowed - living nodes in database.".into()),
        other => Err(format!("an answer to KILL_REQ of {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn epmds_flags_are_taken_and_others_named() {
        assert_eq!(
            parse(&words("-port 4400 -daemon")),
            Ok((Action::Daemon, 4400))
        );
        assert_eq!(parse(&words("-names -port 1")), Ok((Action::Names, 1)));
        assert!(parse(&words("-port")).unwrap_err().contains("needs a port"));
        assert!(parse(&words("-port x")).unwrap_err().contains("`x`"));
        assert!(parse(&words("-d"))
            .unwrap_err()
            .contains("`-d` is not taken"));
    }
}
