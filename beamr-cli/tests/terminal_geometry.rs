//! `io:columns/0` and `io:rows/0` when standard output is a terminal: the
//! program runs under `script` (util-linux), on a pseudo-terminal whose
//! size `stty` sets, once on `erl -noshell` and once on `beamr run`; both
//! must print the same bytes, and those name the size that was set. (On a
//! pipe both answer `{error, enotsup}`: `tests/diff/stdin_empty.erl`.)

use std::path::PathBuf;
use std::process::{Command, Stdio};

const PROGRAM: &str = r#"-module(geometry).
-export([main/0]).
main() ->
    io:format("~p ~p~n", [io:columns(), io:rows()]),
    io:format("~p ~p~n", [io:columns(standard_io), io:rows(user)]),
    io:format("~p~n", [io:columns(standard_error)]).
"#;

/// Runs `command` under `script` on a terminal of 91 columns and 33 rows;
/// returns what the terminal showed.
fn on_terminal(command: &str) -> String {
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("stty cols 91 rows 33; {command}"),
            "/dev/null",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn columns_and_rows_on_a_terminal_answer_its_size_as_erl_does() {
    let dir = std::env::temp_dir().join(format!("beamr-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("geometry.erl"), PROGRAM).unwrap();
    let status = Command::new("erlc")
        .arg("-o")
        .arg(&dir)
        .arg(dir.join("geometry.erl"))
        .status()
        .expect("erlc runs");
    assert!(status.success());
    let dir_s = dir.display().to_string();
    let erl = on_terminal(&format!(
        "erl -noshell -pa {dir_s} -s geometry main -s init stop"
    ));
    let beamr = PathBuf::from(env!("CARGO_BIN_EXE_beamr"));
    let ours = on_terminal(&format!("{} run -e geometry {dir_s}", beamr.display()));
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        erl.starts_with("{ok,91} {ok,33}\r\n"),
        "erl printed {erl:?}"
    );
    assert_eq!(ours, erl);
}
