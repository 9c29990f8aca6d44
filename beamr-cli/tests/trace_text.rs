//! `beamr run --trace-to text` prints what OTP's `dbg` prints with its
//! default handler: tests/erlang/trace_text.erl runs on beamr with
//! `--trace-pids main` and on erl under dbg (its `dbg_main/0` traces
//! `main/0` in a new process with the same flags and patterns), and the
//! lines of each process must be the same, pids named by order of
//! appearance.
//!
//! What differs by nature is left out: the order of lines of different
//! processes (each tracee's stay in order), where a long term breaks (a
//! pid's width moves the break; continuation lines are joined), and the
//! `spawned` line of erl's main process, whose parent beamr's has not.

use std::collections::BTreeMap;
use std::process::{Command, Output};

mod support;

use support::fixtures;

const FLAGS: &[&str] = &[
    "--trace",
    "send,receive,procs,set_on_spawn",
    "--trace-call",
    "trace_text:f/1:x",
    "--trace-call",
    "trace_text:g/1:x",
];

fn beamr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
}

fn beamr_text(extra: &[&str]) -> Output {
    beamr()
        .arg("run")
        .args(FLAGS)
        .args(extra)
        .args(["-e", "trace_text"])
        .arg(fixtures("trace_text"))
        .output()
        .expect("running beamr")
}

/// The entries of a text trace: each line starting `(` with the lines
/// that continue it joined on, their indentation dropped.
fn entries(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("(<") {
            out.push(line.to_owned());
        } else if line.starts_with(' ') {
            if let Some(last) = out.last_mut() {
                last.push_str(line.trim_start());
            }
        }
    }
    out
}

/// The tracee of an entry: its `(<...>)` prefix.
fn tracee(entry: &str) -> &str {
    &entry[..entry.find(") ").expect("an entry starts (Pid) ") + 1]
}

/// Each process's entries, in order, with pids renamed `<P1>`, `<P2>`,
/// ... in order of appearance: the first process's entries (the main
/// one's, whose order is its own) named first, then the others.
fn per_process(entries: &[String]) -> BTreeMap<String, Vec<String>> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for e in entries {
        let who = tracee(e).to_owned();
        match groups.iter_mut().find(|(w, _)| *w == who) {
            Some((_, list)) => list.push(e.clone()),
            None => groups.push((who, vec![e.clone()])),
        }
    }
    let mut names: Vec<String> = Vec::new();
    let mut rename = |text: &str| -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("<0.") {
            out.push_str(&rest[..start]);
            let end = start + rest[start..].find('>').expect("a pid ends with >") + 1;
            let pid = rest[start..end].to_owned();
            let n = match names.iter().position(|p| *p == pid) {
                Some(i) => i + 1,
                None => {
                    names.push(pid);
                    names.len()
                }
            };
            out.push_str(&format!("<P{n}>"));
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    };
    let mut result = BTreeMap::new();
    for (who, list) in groups {
        let who = rename(&who);
        let list = list.iter().map(|e| rename(e)).collect();
        result.insert(who, list);
    }
    result
}

#[test]
fn text_lines_are_dbgs() {
    let out = beamr_text(&["--trace-pids", "main", "--trace-to", "text"]);
    assert!(
        out.status.success(),
        "beamr failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "the trace goes to standard error");
    let ours = entries(&String::from_utf8_lossy(&out.stderr));

    let erl = Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(fixtures("trace_text"))
        .args(["-s", "trace_text", "dbg_main", "-s", "init", "stop"])
        .output()
        .expect("running erl");
    assert!(erl.status.success(), "erl failed");
    let mut theirs = entries(&String::from_utf8_lossy(&erl.stdout));
    // erl's main process was spawned by the dbg_main process.
    assert!(theirs[0].contains(") spawned <0."), "{theirs:?}");
    theirs.remove(0);

    let (ours, theirs) = (per_process(&ours), per_process(&theirs));
    assert_eq!(ours.len(), 2, "the main process and the one it spawns");
    assert_eq!(ours, theirs);
    let main = &ours["(<P1>)"];
    assert_eq!(main[0], "(<P1>) spawn <P2> as trace_text:echo()");
    assert!(main.contains(&"(<P1>) call trace_text:f(1)".to_owned()));
    assert!(main.contains(&"(<P1>) exception_from {trace_text,g,1} {error,badarith}".to_owned()));
}

#[test]
fn text_to_a_file_and_the_other_scopes() {
    let dir = std::env::temp_dir().join(format!("beamr-trace-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("trace.txt");
    let to = format!("text:{}", file.display());
    let out = beamr_text(&["--trace-pids", "main", "--trace-to", &to]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(per_process(&entries(&written)).len(), 2, "{written}");

    // new: the program's processes (both of them here, perhaps a process
    // the runtime spawns as it stops), never the runtime's own started
    // before the program.
    let out = beamr_text(&["--trace-pids", "new", "--trace-to", "text"]);
    let new = entries(&String::from_utf8_lossy(&out.stderr));
    assert!(new[0].contains(" spawn "), "{new:?}");
    assert!(new.iter().all(|e| !e.contains("proc_lib")), "{new:?}");

    // all: the runtime's own processes too, which start first.
    let out = beamr_text(&["--trace-to", "text"]);
    let all = entries(&String::from_utf8_lossy(&out.stderr));
    assert!(all.len() > new.len(), "{} <= {}", all.len(), new.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_trace_pids_are_one_line_and_status_2() {
    for (args, needle) in [
        (
            &["--trace-pids", "bogus", "--trace-to", "text"][..],
            "--trace-pids `bogus`: expected all, main",
        ),
        (&["--trace-to", "text:"][..], "needs a file name"),
    ] {
        let out = beamr_text(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("beamr: ") && err.contains(needle), "{err}");
    }
    let out = beamr()
        .args(["run", "--trace-pids", "main", "-e", "trace_text"])
        .arg(fixtures("trace_text"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--trace-pids needs --trace"), "{err}");
}
