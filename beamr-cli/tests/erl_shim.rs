//! `beamr shim DIR` and `beamr escript`: the launchers run this beamr with
//! their arguments (directly, and found on the PATH as erl's callers find
//! them), and escripts run through them as on erl's `escript`: standard
//! output, standard error and the exit status the same, on the host's OTP
//! and on each release root under `target/otp/` (27, 29).

mod release_roots;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use release_roots::{otp_root_env, releases, shell, work_dir};

fn beamr() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_beamr"))
}

/// Standard output, standard error, status.
fn outcome(out: std::process::Output) -> (String, String, Option<i32>) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn shim_writes_launchers_that_run_this_beamr() {
    let (dir, _) = work_dir(None, "beamr-shim");
    let bin = dir.join("bin");
    let out = Command::new(beamr())
        .arg("shim")
        .arg(&bin)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", outcome(out));
    let beamr = std::fs::canonicalize(beamr()).unwrap();
    for name in ["erl", "escript"] {
        let file = bin.join(name);
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{name} is executable");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains(&format!("exec '{}' {name} \"$@\"", beamr.display())),
            "{text}"
        );
        assert!(text.contains("BEAMR_OTP_ROOT="), "{text}");
    }
    // Run directly, and as `erl` found first on the PATH.
    let eval = r#"io:format("~s ~p~n", [hi, init:get_plain_arguments()]), halt(5)."#;
    let direct = Command::new(bin.join("erl"))
        .args(["-noshell", "-eval", eval, "-extra", "x", "y z"])
        .output()
        .unwrap();
    assert_eq!(
        outcome(direct),
        ("hi [\"x\",\"y z\"]\n".into(), String::new(), Some(5))
    );
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("erl -noshell -eval '{eval}' -extra x"))
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(
        outcome(found),
        ("hi [\"x\"]\n".into(), String::new(), Some(5))
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Scripts: a name, the file's text, its arguments.
const SCRIPTS: &[(&str, &str, &str)] = &[
    (
        "arguments",
        "#!/usr/bin/env escript\nmain(Args) -> io:format(\"~p~n\", [Args]).\n",
        "a 'b c' -d",
    ),
    (
        "halt status",
        "#!/usr/bin/env escript\nmain(_) -> io:format(\"bye~n\"), halt(9).\n",
        "",
    ),
    (
        "emulator flags",
        "#!/usr/bin/env escript\n%% -*- erlang -*-\n%%! -pa extra_dir -myflag v\n\
         main(_) -> io:format(\"~p ~p~n\", [init:get_argument(myflag), \
         [D || D <- code:get_path(), D =:= \"extra_dir\"]]).\n",
        "",
    ),
    (
        "error in main",
        "#!/usr/bin/env escript\nmain(_) -> erlang:error(boom).\n",
        "",
    ),
    (
        "no main",
        "#!/usr/bin/env escript\n-export([f/0]).\nf() -> ok.\n",
        "",
    ),
    (
        "syntax error",
        "#!/usr/bin/env escript\nmain(_) -> foo(.\n",
        "",
    ),
    (
        "compiled",
        "#!/usr/bin/env escript\n-mode(compile).\nmain([A]) -> io:format(\"~s~n\", [A]).\n",
        "word",
    ),
];

/// Runs `command` in `inner` (inside `root` when given); the module name
/// escript gives a compiled script (`NAME__escript__` and numbers of the
/// moment) is masked.
fn run(
    root: Option<&Path>,
    inner: &Path,
    env: &str,
    command: &str,
) -> (String, String, Option<i32>) {
    let line = format!(
        "cd {} && exec env HOME=/tmp {env} timeout -s KILL 60 {command}",
        inner.display()
    );
    let (stdout, stderr, status) = outcome(
        shell(root, &line)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap(),
    );
    (masked(&stdout), masked(&stderr), status)
}

/// `text` with the digits after each `__escript__` cut.
fn masked(text: &str) -> String {
    const TAG: &str = "__escript__";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(TAG) {
        out.push_str(&rest[..at + TAG.len()]);
        rest = rest[at + TAG.len()..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '_');
    }
    out.push_str(rest);
    out
}

#[test]
fn escripts_run_as_on_escript() {
    let mut differing = Vec::new();
    for root in releases() {
        let root = root.as_deref();
        let (dir, inner) = work_dir(root, "beamr-escript");
        std::fs::create_dir_all(dir.join("extra_dir")).unwrap();
        for (i, (name, text, args)) in SCRIPTS.iter().enumerate() {
            let file = format!("s{i}.escript");
            std::fs::write(dir.join(&file), text).unwrap();
            let escript = run(root, &inner, "", &format!("escript {file} {args}"));
            let ours = run(
                None,
                &dir,
                &otp_root_env(root),
                &format!("{} escript {file} {args}", beamr().display()),
            );
            if ours != escript {
                differing.push(format!(
                    "{name} ({root:?})\n  escript: {escript:?}\n  beamr:   {ours:?}"
                ));
            }
        }
        // Before the script, escript's own errors.
        for args in ["", "nosuch.escript", "-s"] {
            let escript = run(root, &inner, "", &format!("escript {args}"));
            let ours = run(
                None,
                &dir,
                &otp_root_env(root),
                &format!("{} escript {args}", beamr().display()),
            );
            if ours != escript {
                differing.push(format!(
                    "escript {args} ({root:?})\n  escript: {escript:?}\n  beamr:   {ours:?}"
                ));
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}
