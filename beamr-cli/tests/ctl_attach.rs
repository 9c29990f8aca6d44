//! `beamr ctl` attached to a running `beamr run` of the `ctl_server`
//! fixture: `list` finds it; `stats`, `ps`, `info` and `eval` answer what
//! the program itself sees; `state` reads a gen_server's state; `load` of a changed module changes its
//! answers; `stop` ends it cleanly.

mod ctl_support;

use std::process::Command;
use std::time::Duration;

use ctl_support::Server;

fn ask(server: &Server) -> String {
    server.eval("ctl_server:ask(20)")
}

#[test]
fn list_finds_the_runtime() {
    let server = Server::start();
    let list = ctl_support::ctl(&server.dir, &["list", "--json"]);
    assert!(list.status.success());
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let entries = list.as_array().unwrap();
    assert_eq!(entries.len(), 1, "{list}");
    assert_eq!(entries[0]["os_pid"], server.pid());
    // Not distributed: no node name.
    assert_eq!(entries[0]["node"], "");
    let program = entries[0]["program"].as_str().unwrap();
    assert!(program.starts_with("ctl_server:main "), "{program}");
    // The table, and the runtime named by the module it runs.
    let table = ctl_support::ctl(&server.dir, &["list"]);
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(
        table
            .lines()
            .any(|l| l.starts_with(&server.pid().to_string())),
        "{table}"
    );
    let by_name = ctl_support::ctl(&server.dir, &["ctl_server", "eval", "node()"]);
    assert_eq!(
        String::from_utf8_lossy(&by_name.stdout).trim(),
        "nonode@nohost"
    );
}

#[test]
fn stats_agree_with_the_program() {
    let server = Server::start();
    let stats = server.ctl_json(&["stats"]);
    assert_eq!(stats["atoms"]["limit"], server.atom_limit);
    let limit: u64 = server
        .eval("erlang:system_info(process_limit)")
        .parse()
        .unwrap();
    assert_eq!(stats["processes"]["limit"], limit);
    let ets_count: u64 = server.eval("length(ets:all())").parse().unwrap();
    assert_eq!(stats["ets_tables"]["count"], ets_count);
    // The request's own process is counted, as the eval's is.
    let processes: i64 = server
        .eval("erlang:system_info(process_count)")
        .parse()
        .unwrap();
    let counted = stats["processes"]["count"].as_i64().unwrap();
    assert!(
        (counted - processes).abs() <= 1,
        "{counted} against {processes}"
    );
    let kinds: Vec<String> = stats["memory"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[0].as_str().unwrap().to_string())
        .collect();
    let expected = server.eval("[K || {K, _} <- erlang:memory()]");
    assert_eq!(format!("[{}]", kinds.join(",")), expected);
    // -S 2: a run queue per scheduler.
    assert_eq!(stats["run_queues"].as_array().unwrap().len(), 2);
    assert!(stats["reductions"].as_u64().unwrap() > 0);
    // Rates over the interval: a process that never waits keeps one
    // scheduler busy.
    server.eval("register(ctl_busy, spawn(fun Loop() -> Loop() end))");
    let busy = server.ctl_json(&["stats", "--interval", "500"]);
    assert_eq!(busy["interval_ms"], 500);
    assert!(
        busy["reductions_per_second"].as_u64().unwrap() > 0,
        "{busy}"
    );
    let utilisation: Vec<f64> = busy["scheduler_utilisation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_f64().unwrap())
        .collect();
    assert_eq!(utilisation.len(), 2, "{busy}");
    assert!(
        utilisation.iter().all(|u| (0.0..=1.0).contains(u)),
        "{busy}"
    );
    assert!(utilisation.iter().sum::<f64>() >= 0.5, "{busy}");
    server.eval("exit(whereis(ctl_busy), kill)");
    let bad = server.ctl(&["stats", "--interval", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    let table = server.ctl_ok(&["stats"]);
    assert!(
        table.lines().any(|l| l.starts_with("schedulers  ")),
        "{table}"
    );
    assert!(
        table.lines().any(|l| l.starts_with("per second  ")),
        "{table}"
    );
    let atoms = table
        .lines()
        .find(|l| l.starts_with("atoms "))
        .expect(&table);
    assert!(
        atoms.ends_with(&format!(" {}", server.atom_limit)),
        "{atoms}"
    );
}

#[test]
fn ps_shows_the_program_s_processes() {
    let server = Server::start();
    let rows = server.ctl_json(&["ps", "--sort", "mq"]);
    let rows = rows.as_array().unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["registered_name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {rows:?}"))
    };
    let main = row("ctl_server");
    assert_eq!(main["pid"], server.erlang_pid.as_str());
    assert_eq!(main["initial_call"], "ctl_server:main/0");
    assert_eq!(main["current_function"], "ctl_server:loop/0");
    assert_eq!(main["status"], "waiting");
    let sink = row("ctl_sink");
    assert_eq!(sink["message_queue_len"], 3);
    // Sorted by queue length, longest first.
    assert_eq!(rows[0]["registered_name"], "ctl_sink");
    // Every row is a live process.
    let pids: Vec<String> = rows
        .iter()
        .map(|r| r["pid"].as_str().unwrap().into())
        .collect();
    let alive = server.eval(&format!(
        "lists:all(fun erlang:is_process_alive/1, [list_to_pid(P) || P <- {pids:?}])"
    ));
    assert_eq!(alive, "true");
    let table = server.ctl_ok(&["ps"]);
    assert!(table.starts_with("PID"), "{table}");
    assert!(table.lines().any(|l| l.contains("ctl_sink")), "{table}");
}

#[test]
fn info_shows_items_stack_and_queued_messages() {
    let server = Server::start();
    let info = server.ctl_json(&["info", "ctl_sink"]);
    assert_eq!(info["registered_name"], "ctl_sink");
    assert_eq!(info["message_queue_len"], "3");
    assert_eq!(info["first_messages"], "[{queued,1},{queued,2},{queued,3}]");
    assert!(info["current_stacktrace"]
        .as_str()
        .unwrap()
        .starts_with("[{"));
    let by_pid = server.ctl_json(&["info", &server.erlang_pid]);
    assert_eq!(by_pid["registered_name"], "ctl_server");
    assert_eq!(by_pid["initial_call"], "{ctl_server,main,0}");
    let missing = server.ctl(&["info", "no_such_process_name"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no process no_such_process_name"));
}

#[test]
fn state_reads_a_sys_process_s_state() {
    let server = Server::start();
    let asked = server.eval("gen_server:call(ctl_counter, get)");
    assert_eq!(server.ctl_ok(&["state", "ctl_counter"]).trim(), asked);
    let json = server.ctl_json(&["state", "ctl_counter"]);
    assert_eq!(json["state"], asked.as_str());
    // A process that answers no system messages: a timeout, said.
    let out = server.ctl(&["state", "ctl_server", "--timeout", "300"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gave no state within 300 ms"), "{stderr}");
    assert_eq!(ask(&server), "{v1,20}");
}

#[test]
fn eval_evaluates_on_the_runtime() {
    let server = Server::start();
    assert_eq!(server.eval("lists:seq(1, 5)"), "[1,2,3,4,5]");
    assert_eq!(
        server.eval("pid_to_list(whereis(ctl_server))."),
        format!("\"{}\"", server.erlang_pid)
    );
    assert_eq!(ask(&server), "{v1,20}");
    let json = server.ctl_json(&["eval", "#{a => 1}"]);
    assert_eq!(json["value"], "#{a => 1}");
    let bad = server.ctl(&["eval", "1 +"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("syntax error"));
    let raised = server.ctl(&["eval", "1 + a"]);
    assert!(String::from_utf8_lossy(&raised.stderr).contains("badarith"));
    // The server still answers.
    assert_eq!(ask(&server), "{v1,20}");
}

#[test]
fn eval_output_goes_to_the_client() {
    let server = Server::start();
    let out = server.ctl_ok(&[
        "eval",
        "io:format(\"hello ~p~n\", [1]), io:put_chars(\"ünï\"), 42",
    ]);
    assert_eq!(out, "hello 1\nünï42\n");
    let json = server.ctl_json(&["eval", "io:format(\"x~n\"), ok"]);
    assert_eq!(json["output"], "x\n");
    assert_eq!(json["value"], "ok");
    // What the expression printed reached the client only; a process it
    // spawned that prints once it is over prints where the program does.
    let out = server.ctl_ok(&[
        "eval",
        "spawn(fun() -> timer:sleep(300), io:format(\"later~n\") end), done",
    ]);
    assert_eq!(out, "done\n");
    let line = server
        .lines
        .recv_timeout(Duration::from_secs(30))
        .expect("the spawned process printed nothing");
    assert_eq!(line, "later");
    // Output before an exception is shown with it.
    let raised = server.ctl(&["eval", "io:format(\"before~n\"), 1 + a"]);
    assert_eq!(raised.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&raised.stderr);
    assert!(
        stderr.contains("before\n") && stderr.contains("badarith"),
        "{stderr}"
    );
}

#[test]
fn load_of_a_changed_module_changes_the_answers() {
    let server = Server::start();
    assert_eq!(ask(&server), "{v1,20}");
    let build = ctl_support::ctl_dir();
    std::fs::create_dir_all(&build).unwrap();
    let source = build.join("ctl_answer.erl");
    std::fs::write(
        &source,
        "-module(ctl_answer).\n-export([answer/1]).\nanswer(N) -> {v2, N}.\n",
    )
    .unwrap();
    let erlc = Command::new("erlc")
        .arg("-o")
        .arg(&build)
        .arg(&source)
        .status()
        .unwrap();
    assert!(erlc.success());
    let beam = build.join("ctl_answer.beam");
    let loaded = server.ctl_ok(&["load", beam.to_str().unwrap()]);
    assert_eq!(loaded.trim(), "loaded ctl_answer");
    assert_eq!(ask(&server), "{v2,20}");
    // The old version is kept, as on erl, until purged.
    assert_eq!(server.eval("erlang:check_old_code(ctl_answer)"), "true");
    let purged = server.ctl_json(&["purge", "ctl_answer"]);
    assert_eq!(purged["purged"], "ctl_answer");
    assert_eq!(server.eval("erlang:check_old_code(ctl_answer)"), "false");
    assert_eq!(ask(&server), "{v2,20}");
    // A file that is no .beam is refused, and changes nothing.
    let bad = server.ctl(&["load", source.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(ask(&server), "{v2,20}");
    let _ = std::fs::remove_dir_all(&build);
}

#[test]
fn stop_ends_the_runtime_cleanly() {
    let mut server = Server::start();
    assert!(server.socket().exists());
    assert_eq!(server.ctl_ok(&["stop"]).trim(), "stopping");
    assert_eq!(server.wait_exit(Duration::from_secs(30)), Some(0));
    assert!(!server.socket().exists(), "the socket outlived its runtime");
    let list = ctl_support::ctl(&server.dir, &["list", "--json"]);
    assert_eq!(String::from_utf8_lossy(&list.stdout).trim(), "[]");
}

#[test]
fn no_ctl_opens_no_socket() {
    let server = Server::start_with(&["--no-ctl"]);
    assert!(!server.socket().exists());
    let out = server.ctl(&["stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no control socket"));
}

#[test]
fn a_run_that_returns_removes_its_socket() {
    let dir = ctl_support::ctl_dir();
    let beams = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures")
        })
        .join("beam");
    // ctl_answer:answer/1 returns at once.
    let out = ctl_support::run_bounded(
        Command::new(ctl_support::beamr())
            .args(["run", "-e", "ctl_answer:answer"])
            .arg(beams.join("ctl_answer.beam"))
            .args(["--", "x"])
            .env("BEAMR_CTL_DIR", &dir),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
