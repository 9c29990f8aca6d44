//! beamr's own EPMD (`beamr epmd`), for machines without erts's `epmd`:
//! erl and beamr nodes register with it and find each other through it,
//! erts's `epmd -names` reads it, a name in use is refused as erts's epmd
//! refuses it, a node's name goes when the node does, garbage closes only
//! its own connection, and `-kill` stops it. And a beamr node on a machine with no `epmd` program starts
//! beamr's own, as erl's launcher starts `epmd -daemon`.

mod dist_support;
mod support;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use dist_support::{beamr, beamr_node, compile, erl, unique, wait_registered, Epmd};

const LIMIT: Duration = Duration::from_secs(120);

/// The beamr node: an `echo` process answering one message, or (with the
/// argument `until FILE`) nothing until FILE exists.
const PROGRAM: &str = r#"-module(epmdnode).
-export([main/0]).

main() ->
    case init:get_plain_arguments() of
        ["echo"] ->
            register(echo, self()),
            receive {From, Msg} -> From ! {echoed, node(), Msg} after 60000 -> timeout end;
        ["until", File] ->
            wait(File, 1200)
    end.

wait(_, 0) -> timeout;
wait(File, N) ->
    case filelib:is_file(File) of
        true -> ok;
        false -> timer:sleep(50), wait(File, N - 1)
    end.
"#;

fn beam() -> std::path::PathBuf {
    compile("epmdnode", PROGRAM)
}

/// `beamr epmd FLAGS -port PORT`.
fn beamr_epmd(port: u16, flags: &[&str]) -> Output {
    Command::new(beamr())
        .arg("epmd")
        .args(flags)
        .args(["-port", &port.to_string()])
        .output()
        .unwrap()
}

/// What `beamr epmd -names` prints once it lists nothing but the header.
fn wait_until_no_names(port: u16) {
    let empty = format!("epmd: up and running on port {port} with data:\n");
    let deadline = Instant::now() + LIMIT;
    loop {
        let out = beamr_epmd(port, &["-names"]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if text == empty {
            return;
        }
        assert!(Instant::now() < deadline, "names stay: {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn erl_and_beamr_nodes_meet_through_beamrs_epmd() {
    let epmd = Epmd::start_beamrs();
    let cookie = unique("c");
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["echo"]);
    // erts's `epmd -names` reads it.
    wait_registered(&epmd, &b.name);
    let e_name = unique("e");
    let expr = format!(
        "B = '{b}', {{ok, Names}} = erl_epmd:names(),
         io:format(\"~p~n\", [lists:sort([N || {{N, _}} <- Names])]),
         pong = net_adm:ping(B),
         {{echo, B}} ! {{self(), hi}},
         receive R -> io:format(\"~p~n\", [R]) after 30000 -> io:format(\"no reply~n\") end,
         halt().",
        b = b.name
    );
    let e = erl(&epmd, &e_name, &cookie, &expr);
    let (out, err) = e.output(LIMIT);
    let b_short = b.name.split('@').next().unwrap().to_string();
    let mut both = [b_short.clone(), e_name.clone()];
    both.sort();
    assert_eq!(
        out,
        format!(
            "[\"{}\",\"{}\"]\n{{echoed,{b},hi}}\n",
            both[0],
            both[1],
            b = b.name
        ),
        "erl's stderr: {err}"
    );
    // The beamr node ended once it answered; a name in use is refused
    // while it is registered, so this one is taken again.
    let (bout, berr) = b.output(LIMIT);
    assert_eq!(bout, "", "beamr's stderr: {berr}");
    wait_until_no_names(epmd.port);
    let holder = erl(&epmd, &e_name, &cookie, "timer:sleep(60000), halt().");
    wait_registered(&epmd, &holder.name);
    let second = erl(&epmd, &e_name, &cookie, "halt().");
    let (_, err) = second.output(LIMIT);
    assert!(
        err.contains("seems to be in use by another Erlang node"),
        "{err}"
    );
    // Garbage, a truncated request, an unknown tag, an oversized name and
    // a client that says nothing: each closes its own connection, and the
    // registered node stays.
    let mut silent = std::net::TcpStream::connect(("127.0.0.1", epmd.port)).unwrap();
    for bad in [
        &b"GET / HTTP/1.1\r\n\r\n"[..],
        &[0, 10, 120, 0][..],
        &[0, 1, 3][..],
        &[0, 0][..],
        &[1, 1, 122][..],
    ] {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", epmd.port)).unwrap();
        s.write_all(bad).unwrap();
        let _ = s.shutdown(std::net::Shutdown::Write);
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        assert!(answer.is_empty(), "{bad:?}: {answer:?}");
    }
    let mut long = vec![0u8; 2];
    long.push(122);
    long.extend(std::iter::repeat_n(b'a', 300));
    let n = (long.len() - 2) as u16;
    long[..2].copy_from_slice(&n.to_be_bytes());
    let mut s = std::net::TcpStream::connect(("127.0.0.1", epmd.port)).unwrap();
    s.write_all(&long).unwrap();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    assert!(answer.is_empty(), "{answer:?}");
    silent.write_all(&[0]).unwrap();
    wait_registered(&epmd, &holder.name);
    drop(holder);
    wait_until_no_names(epmd.port);
    drop(silent);
    // -kill stops it once no node is registered.
    let killed = beamr_epmd(epmd.port, &["-kill"]);
    assert_eq!(String::from_utf8_lossy(&killed.stdout), "Killed\n");
    let gone = beamr_epmd(epmd.port, &["-names"]);
    assert_eq!(gone.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&gone.stderr),
        "beamr epmd: Cannot connect to local epmd\n"
    );
}

#[test]
fn a_node_on_a_machine_without_epmd_starts_beamrs_own() {
    // An OTP library with no erts directory (so no epmd program), and a
    // PATH with no epmd on it.
    let root = std::env::temp_dir().join(unique("beamr-no-epmd"));
    std::fs::create_dir_all(&root).unwrap();
    let installed = Path::new("/usr/lib/erlang");
    for dir in ["lib", "releases"] {
        std::os::unix::fs::symlink(installed.join(dir), root.join(dir)).unwrap();
    }
    let port = dist_support::free_port();
    let stop = root.join("stop");
    let name = unique("lone");
    let mut node = Command::new(beamr())
        .args(["run", "--no-ctl", "--sname", &name, "--setcookie", "c"])
        .arg(beam())
        .args(["--", "until"])
        .arg(&stop)
        .env_clear()
        .env("BEAMR_OTP_ROOT", &root)
        .env("ERL_EPMD_PORT", port.to_string())
        .env("HOME", &root)
        .env("PATH", "/nonexistent")
        .spawn()
        .unwrap();
    // erts's epmd client finds the node registered with beamr's daemon.
    dist_support::wait_registered_on(port, &name);
    std::fs::write(&stop, "").unwrap();
    let status = node.wait().unwrap();
    assert!(status.success(), "{status}");
    // The daemon outlives the node, as erts's does; its name is gone.
    wait_until_no_names(port);
    let killed = beamr_epmd(port, &["-kill"]);
    assert_eq!(String::from_utf8_lossy(&killed.stdout), "Killed\n");
    let _ = std::fs::remove_dir_all(&root);
}
