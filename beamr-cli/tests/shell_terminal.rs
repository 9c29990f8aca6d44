//! erl's interactive shell on beamr (`beamr erl` without `-noshell`), as
//! a user meets it, compared byte for byte with erl 25's:
//!
//! - on a terminal (a pseudo-terminal of 80 by 24): line editing through
//!   OTP's user_drv and beamr's tty_sl driver: tab completion, a
//!   continued expression, history recall with the up arrow, backspace,
//!   cursor keys, Ctrl-A and Ctrl-E, Ctrl-G's job control (list,
//!   connect, start a new shell and switch to it), UTF-8 output, and
//!   `halt()`; afterwards the terminal's modes are as before;
//! - on a pipe: OTP's plain `user` shell reads expressions from standard
//!   input (also what `-oldshell` gives on a terminal).
//!
//! Each step waits for the text that ends its answer (a prompt) before
//! the next keys are typed, so the comparison never depends on timing.
//! Where the host's OTP is 26 or later, whose shell needs the prim_tty
//! NIF, the test checks beamr's one-line refusal instead.

use std::fs::File;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{tcgetattr, tcsetwinsize, LocalModes, Winsize};

/// How long one step may wait for its answer on a loaded machine.
const STEP_LIMIT: Duration = Duration::from_secs(120);

/// The keys of each step, and the text that ends the answer to them.
const SESSION: &[(&[u8], &str)] = &[
    (b"lists:sor\t", "lists:sort("),
    (b"[3,1,2]).\r", "2> "),
    (b"foo(\r", "\n2> "),
    (b"1).\r", "3> "),
    (b"X = 42.\r", "4> "),
    (b"\x1b[A", "X = 42."),
    (b"\x7f\x7f\x7f7.\r", "5> "),
    (b"abc\x1b[D\x1b[DX\x01Y\x05.\r", "6> "),
    (b"\x07", " --> "),
    (b"j\r", " --> "),
    (b"c\r", "c\r\n"),
    (
        "io:format(\"~ts~n\", [\"h\u{e9}\u{2192}\"]).\r".as_bytes(),
        "7> ",
    ),
    (b"\x07", " --> "),
    (b"s\r", " --> "),
    (b"j\r", " --> "),
    (b"c 2\r", "1> "),
    (b"[{N, N * N} || N <- lists:seq(1, 4)].\r", "2> "),
];

fn beamr() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_beamr"))
}

/// The host erl's OTP release.
fn host_release() -> u32 {
    let out = Command::new("erl")
        .args([
            "-noshell",
            "-eval",
            "io:format(\"~s\", [erlang:system_info(otp_release)]), halt().",
        ])
        .output()
        .expect("erl runs");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// A pseudo-terminal: the side this test reads and types on, and the
/// side the program gets as standard input, output and error.
fn pseudo_terminal() -> (File, File) {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let size = Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    tcsetwinsize(&slave, size).unwrap();
    (File::from(master), slave)
}

/// A program running on a pseudo-terminal, and everything it has shown.
struct OnTerminal {
    child: Child,
    keys: File,
    shown: Arc<Mutex<Vec<u8>>>,
    slave: File,
}

impl OnTerminal {
    fn start(mut command: Command) -> OnTerminal {
        let (master, slave) = pseudo_terminal();
        command
            .env("LANG", "C.UTF-8")
            .env("TERM", "xterm")
            .stdin(slave.try_clone().unwrap())
            .stdout(slave.try_clone().unwrap())
            .stderr(slave.try_clone().unwrap());
        let child = command.spawn().unwrap();
        let shown = Arc::new(Mutex::new(Vec::new()));
        let mut screen = master.try_clone().unwrap();
        let sink = shown.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends with an error once every copy of the slave side is closed.
            while let Ok(n) = screen.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        OnTerminal {
            child,
            keys: master,
            shown,
            slave,
        }
    }

    fn shown(&self) -> Vec<u8> {
        self.shown.lock().unwrap().clone()
    }

    /// Waits until what was shown after byte `from` contains `text`.
    fn wait_for(&self, from: usize, text: &str, what: &str) {
        let start = Instant::now();
        loop {
            let shown = self.shown();
            let after = String::from_utf8_lossy(&shown[from.min(shown.len())..]).into_owned();
            if after.contains(text) {
                return;
            }
            assert!(
                start.elapsed() < STEP_LIMIT,
                "{what}: no {text:?} after {:?}",
                String::from_utf8_lossy(&shown)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types `keys` and waits for `answer`.
    fn step(&mut self, keys: &[u8], answer: &str, what: &str) {
        let from = self.shown().len();
        self.keys.write_all(keys).unwrap();
        self.wait_for(from, answer, what);
    }

    /// Waits for the program to end; its status.
    fn wait(mut self, what: &str) -> Option<i32> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if start.elapsed() > STEP_LIMIT {
                let _ = self.child.kill();
                panic!(
                    "{what} did not end: {:?}",
                    String::from_utf8_lossy(&self.shown())
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Runs the session on `command`; what the terminal showed, the exit
/// status, and whether the terminal was left in canonical mode with echo.
fn session(command: Command, what: &str) -> (String, Option<i32>, bool) {
    let mut term = OnTerminal::start(command);
    term.wait_for(0, "1> ", what);
    for (keys, answer) in SESSION {
        term.step(keys, answer, what);
    }
    let from = term.shown().len();
    term.keys.write_all(b"halt().\r").unwrap();
    term.wait_for(from, "halt().\r\n", what);
    let slave = term.slave.try_clone().unwrap();
    let shown = term.shown.clone();
    let status = term.wait(what);
    let modes = tcgetattr(&slave).unwrap().local_modes;
    let cooked = modes.contains(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG);
    let shown = String::from_utf8_lossy(&shown.lock().unwrap()).into_owned();
    (shown, status, cooked)
}

#[test]
fn the_shell_on_a_terminal_edits_lines_as_erl_does() {
    if host_release() >= 26 {
        let out = Command::new(beamr()).arg("erl").output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("prim_tty"), "{stderr}");
        return;
    }
    let (erl, erl_status, erl_cooked) = session(Command::new("erl"), "erl");
    let mut ours = Command::new(beamr());
    ours.arg("erl");
    let (beamr, status, cooked) = session(ours, "beamr erl");
    assert!(erl.contains("User switch command"), "{erl}");
    assert!(erl.contains("h\u{e9}\u{2192}\r\nok"), "{erl}");
    assert_eq!(beamr, erl);
    assert_eq!(status, erl_status);
    assert_eq!((cooked, erl_cooked), (true, true));
}

/// Runs `command` with `input` on standard input; its standard output
/// and status.
fn piped(mut command: Command, input: &str) -> (String, Option<i32>) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn the_shell_on_a_pipe_reads_expressions_as_erl_does() {
    if host_release() >= 26 {
        return;
    }
    let input = "X = lists:seq(1, 3).\n\
                 lists:sum(X).\n\
                 {ok, T, _} = erl_scan:string(\"a + b.\"), length(T).\n\
                 foo(\n\
                 1).\n\
                 Y = 1, Y = 2.\n\
                 io:format(\"~p~n\", [self() =:= self()]).\n\
                 halt(3).\n";
    let (erl, erl_status) = piped(Command::new("erl"), input);
    let mut ours = Command::new(beamr());
    ours.arg("erl");
    let (beamr, status) = piped(ours, input);
    assert!(erl.contains("1> [1,2,3]"), "{erl}");
    assert_eq!(beamr, erl);
    assert_eq!(status, erl_status);
    assert_eq!(status, Some(3));
}

/// The keys of a remote shell session on the node the prompt names, and
/// the text that ends each answer; Ctrl-G's `q` then ends the local node
/// only.
const REMOTE_SESSION: &[(&[u8], &str)] = &[
    (b"node().\r", "2> "),
    (b"io:format(\"~p~n\", [lists:seq(1, 3)]).\r", "3> "),
    (b"[X * 2 || X <- [1, 2, 3]].\r", "4> "),
    (b"\x07", " --> "),
];

/// Runs the remote session from `command`; what the terminal showed and
/// the exit status.
fn remote_session(command: Command, what: &str) -> (String, Option<i32>) {
    let mut term = OnTerminal::start(command);
    term.wait_for(0, "1> ", what);
    for (keys, answer) in REMOTE_SESSION {
        term.step(keys, answer, what);
    }
    term.keys.write_all(b"q\r").unwrap();
    let shown = term.shown.clone();
    let status = term.wait(what);
    let shown = String::from_utf8_lossy(&shown.lock().unwrap()).into_owned();
    (shown, status)
}

#[test]
fn a_remote_shell_runs_on_a_beamr_node_from_erl_and_from_beamr() {
    if host_release() >= 26 {
        return;
    }
    let target = format!("shell_target_{}", std::process::id());
    let mut node = Command::new(beamr())
        .args(["erl", "-sname", &target, "-noshell"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The node is up once erl can reach it.
    let start = Instant::now();
    let probe = format!(
        "io:format(\"~p\", [net_adm:ping(list_to_atom(\"{target}@\" ++ \
         lists:nth(2, string:split(atom_to_list(node()), \"@\"))))]), halt()."
    );
    loop {
        let out = Command::new("erl")
            .args(["-sname", &format!("probe_{}", std::process::id())])
            .args(["-noshell", "-eval", &probe])
            .output()
            .unwrap();
        if out.stdout == b"pong" {
            break;
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "the beamr node never answered"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut erl = Command::new("erl");
    erl.args(["-sname", &format!("erl_client_{}", std::process::id())])
        .args(["-remsh", &target]);
    let (erl_shown, erl_status) = remote_session(erl, "erl -remsh");
    let mut ours = Command::new(beamr());
    ours.args([
        "erl",
        "-sname",
        &format!("beamr_client_{}", std::process::id()),
    ])
    .args(["-remsh", &target]);
    let (shown, status) = remote_session(ours, "beamr erl -remsh");
    let still_up = node.try_wait().unwrap().is_none();
    let _ = node.kill();
    let _ = node.wait();
    assert!(
        erl_shown.contains(&format!("({target}@")),
        "the prompt names the remote node: {erl_shown}"
    );
    assert!(erl_shown.contains("[2,4,6]"), "{erl_shown}");
    assert_eq!(shown, erl_shown);
    assert_eq!(status, erl_status);
    assert!(still_up, "the remote node ended with the session");
}
