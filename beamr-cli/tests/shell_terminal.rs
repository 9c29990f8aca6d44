//! erl's interactive shell on beamr (`beamr erl` without `-noshell`), as
//! a user meets it, compared byte for byte with erl's, on the host's OTP
//! (25) and on the OTP 27 and 29 roots `cargo xtask test-all` makes (erl
//! through chroot, beamr on the root's library):
//!
//! - on a terminal (a pseudo-terminal of 80 by 24): line editing through
//!   OTP's user_drv, on beamr's tty_sl driver (OTP 25) or prim_tty NIF
//!   (OTP 27, and 29's other one): tab completion, a
//!   continued expression, history recall with the up arrow, backspace,
//!   cursor keys, Ctrl-A and Ctrl-E, Ctrl-G's job control (list,
//!   connect, start a new shell and switch to it), UTF-8 output, and
//!   `q()` (init:stop/0); afterwards the terminal's modes are as before;
//! - on a pipe: the shell reads expressions from standard input;
//! - `-remsh`: erl and beamr clients get a shell on a beamr node (host
//!   OTP), and when that node is killed both say the shell terminated and
//!   go on.
//!
//! Each step waits for the text that ends its answer (a prompt) before
//! the next keys are typed, so the comparison never depends on timing.

#[allow(dead_code)]
mod release_roots;

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use release_roots::releases;
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{tcgetattr, tcsetwinsize, LocalModes, Winsize};

/// How long one step may wait for its answer on a loaded machine.
const STEP_LIMIT: Duration = Duration::from_secs(120);

/// One step: the keys typed, then a text the answer must contain and
/// the text the screen must then end with (the next prompt), so that
/// the next keys go in when the editor waits for them. The same steps
/// serve OTP 25 and 27, whose prompts and redraws differ.
const SESSION: &[(&[u8], &str, &str)] = &[
    (b"lists:sor\t", "lists:sort(", "lists:sort("),
    (b"[3,1,2]).\r", "[1,2,3]", "> "),
    (b"foo(\r", "foo(\r\n", " "),
    (b"1).\r", "foo/1", "> "),
    (b"X = 42.\r", "42\r\n", "> "),
    (b"\x1b[A", "X = 42.", "X = 42."),
    (b"\x7f\x7f\x7f7.\r", "value 7", "> "),
    (b"abc\x1b[D\x1b[DX\x01Y\x05.\r", "unbound", "> "),
    (b"\x07", "User switch command", " --> "),
    (b"j\r", "{shell,start,[init]}", " --> "),
    (b"c\r", "c\r\n", ""),
    (
        "io:format(\"~ts~n\", [\"h\u{e9}\u{2192}\"]).\r".as_bytes(),
        "ok\r\n",
        "> ",
    ),
    (b"\x07", "User switch command", " --> "),
    (b"s\r", "s\r\n", " --> "),
    (b"j\r", "{shell,start,[]}", " --> "),
    (b"c 2\r", "Eshell", "> "),
    (b"[{N, N * N} || N <- lists:seq(1, 4)].\r", "{4,16}]", "> "),
];

fn beamr() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_beamr"))
}

/// `erl` of the host, or of a release root (through chroot).
fn erl(root: Option<&Path>) -> Command {
    match root {
        Some(root) => {
            let mut c = Command::new("chroot");
            c.arg(root).arg("erl");
            c
        }
        None => Command::new("erl"),
    }
}

/// `beamr erl` on the host's OTP library or on a release root's.
fn beamr_erl(root: Option<&Path>) -> Command {
    let mut c = Command::new(beamr());
    c.arg("erl");
    if let Some(root) = root {
        c.env("BEAMR_OTP_ROOT", root.join("usr/lib/erlang"));
    }
    c
}

/// The OTP release of the host's erl or of a root's.
fn release(root: Option<&Path>) -> u32 {
    let out = erl(root)
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

    /// Waits until what was shown after byte `from` contains `text` and
    /// then ends with `end`.
    fn wait_for(&self, from: usize, text: &str, end: &str, what: &str) {
        let start = Instant::now();
        loop {
            let shown = self.shown();
            let after = String::from_utf8_lossy(&shown[from.min(shown.len())..]).into_owned();
            if after
                .find(text)
                .is_some_and(|at| after[at..].ends_with(end))
            {
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

    /// Types `keys` and waits for `answer`, then for the screen to end
    /// with `end`.
    fn step(&mut self, keys: &[u8], answer: &str, end: &str, what: &str) {
        let from = self.shown().len();
        self.keys.write_all(keys).unwrap();
        self.wait_for(from, answer, end, what);
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

/// Runs the session on `command`; what the terminal showed before
/// `q().` (erl 27 may stop before it echoes that line), the exit
/// status, and whether the terminal was left in canonical mode with
/// echo.
fn session(command: Command, what: &str) -> (String, Option<i32>, bool) {
    let mut term = OnTerminal::start(command);
    term.wait_for(0, "1> ", "> ", what);
    for (keys, answer, end) in SESSION {
        term.step(keys, answer, end, what);
    }
    let shown = String::from_utf8_lossy(&term.shown()).into_owned();
    term.keys.write_all(b"q().\r").unwrap();
    let slave = term.slave.try_clone().unwrap();
    let status = term.wait(what);
    let modes = tcgetattr(&slave).unwrap().local_modes;
    let cooked = modes.contains(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG);
    (shown, status, cooked)
}

#[test]
fn the_shell_on_a_terminal_edits_lines_as_erl_does() {
    for root in releases() {
        let root = root.as_deref();
        let release = release(root);
        let what = format!("OTP {release}");
        let (erl_shown, erl_status, erl_cooked) = session(erl(root), &format!("erl, {what}"));
        let (shown, status, cooked) = session(beamr_erl(root), &format!("beamr erl, {what}"));
        assert!(erl_shown.contains("User switch command"), "{erl_shown}");
        assert!(erl_shown.contains("h\u{e9}\u{2192}\r\nok"), "{erl_shown}");
        assert_eq!(shown, erl_shown, "{what}");
        assert_eq!(status, erl_status, "{what}");
        assert_eq!((cooked, erl_cooked), (true, true), "{what}");
    }
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
    let input = "X = lists:seq(1, 3).\n\
                 lists:sum(X).\n\
                 {ok, T, _} = erl_scan:string(\"a + b.\"), length(T).\n\
                 foo(\n\
                 1).\n\
                 Y = 1, Y = 2.\n\
                 io:format(\"~p~n\", [self() =:= self()]).\n\
                 halt(3).\n";
    for root in releases() {
        let root = root.as_deref();
        // erl 27 may halt before its writer shows the prompt that came
        // before `halt(3).`, so that last prompt is left out on both.
        let (erl_out, erl_status) = piped(erl(root), input);
        let (ours, status) = piped(beamr_erl(root), input);
        let (erl_out, ours) = (without_last_prompt(&erl_out), without_last_prompt(&ours));
        assert!(erl_out.contains("[1,2,3]"), "{erl_out}");
        assert_eq!(ours, erl_out, "{root:?}");
        assert_eq!(status, erl_status);
        assert_eq!(status, Some(3));
    }
}

/// `text` without the prompt (`N> `) it ends with, if it ends with one.
fn without_last_prompt(text: &str) -> String {
    let Some(body) = text.strip_suffix("> ") else {
        return text.to_string();
    };
    let number = body.trim_end_matches(|c: char| c.is_ascii_digit());
    if number.len() < body.len() && number.ends_with('\n') {
        number.to_string()
    } else {
        text.to_string()
    }
}

/// The keys of a remote shell session on the node the prompt names, and
/// the text that ends each answer; Ctrl-G's `q` then ends the local node
/// only.
const REMOTE_SESSION: &[(&[u8], &str, &str)] = &[
    (b"node().\r", "\r\n", "> "),
    (b"io:format(\"~p~n\", [lists:seq(1, 3)]).\r", "ok\r\n", "> "),
    (b"[X * 2 || X <- [1, 2, 3]].\r", "[2,4,6]", "> "),
    (b"\x07", "User switch command", " --> "),
];

/// Runs the remote session from `command`; what the terminal showed and
/// the exit status.
fn remote_session(command: Command, what: &str) -> (String, Option<i32>) {
    let mut term = OnTerminal::start(command);
    term.wait_for(0, "1> ", "> ", what);
    for (keys, answer, end) in REMOTE_SESSION {
        term.step(keys, answer, end, what);
    }
    term.keys.write_all(b"q\r").unwrap();
    let shown = term.shown.clone();
    let status = term.wait(what);
    let shown = String::from_utf8_lossy(&shown.lock().unwrap()).into_owned();
    (shown, status)
}

/// A `beamr erl -sname NAME -noshell` node, once erl can reach it; the
/// caller kills and waits for it (clippy cannot see that through the
/// return).
#[allow(clippy::zombie_processes)]
fn beamr_node(name: &str) -> Child {
    let mut node = Command::new(beamr())
        .args(["erl", "-sname", name, "-noshell"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let probe = format!(
        "io:format(\"~p\", [net_adm:ping(list_to_atom(\"{name}@\" ++ \
         lists:nth(2, string:split(atom_to_list(node()), \"@\"))))]), halt()."
    );
    loop {
        let out = Command::new("erl")
            .args(["-sname", &format!("probe_{name}")])
            .args(["-noshell", "-eval", &probe])
            .output()
            .unwrap();
        if out.stdout == b"pong" {
            return node;
        }
        if start.elapsed() > STEP_LIMIT {
            let _ = node.kill();
            let _ = node.wait();
            panic!("the beamr node never answered");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_remote_shell_runs_on_a_beamr_node_from_erl_and_from_beamr() {
    let target = format!("shell_target_{}", std::process::id());
    let mut node = beamr_node(&target);
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

#[test]
fn a_remote_shell_whose_node_is_killed_ends_as_on_erl() {
    let target = format!("shell_killed_{}", std::process::id());
    let mut node = beamr_node(&target);
    let mut erl = Command::new("erl");
    erl.args(["-sname", &format!("erl_killed_{}", std::process::id())])
        .args(["-remsh", &target]);
    let mut ours = Command::new(beamr());
    ours.args([
        "erl",
        "-sname",
        &format!("beamr_killed_{}", std::process::id()),
    ])
    .args(["-remsh", &target]);
    let mut erl_term = OnTerminal::start(erl);
    erl_term.wait_for(0, "1> ", "> ", "erl -remsh");
    let mut our_term = OnTerminal::start(ours);
    our_term.wait_for(0, "1> ", "> ", "beamr erl -remsh");
    let (erl_from, our_from) = (erl_term.shown().len(), our_term.shown().len());
    let _ = node.kill();
    let _ = node.wait();
    let ended = "Shell process terminated!";
    erl_term.wait_for(erl_from, ended, "", "erl after the kill");
    our_term.wait_for(our_from, ended, "", "beamr after the kill");
    // The local node goes on: its Ctrl-G answers.
    erl_term.step(b"\x07", "User switch command", " --> ", "erl");
    our_term.step(b"\x07", "User switch command", " --> ", "beamr");
    let after =
        |t: &OnTerminal, from: usize| String::from_utf8_lossy(&t.shown()[from..]).into_owned();
    let (erl_after, our_after) = (after(&erl_term, erl_from), after(&our_term, our_from));
    erl_term.keys.write_all(b"q\r").unwrap();
    our_term.keys.write_all(b"q\r").unwrap();
    let _ = erl_term.wait("erl -remsh");
    let _ = our_term.wait("beamr erl -remsh");
    assert!(erl_after.contains(ended), "{erl_after}");
    assert_eq!(our_after, erl_after);
}
