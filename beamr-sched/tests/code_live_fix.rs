//! Hot code loading: the live fix of a running server.
//!
//! - `driver_matches_erl`: `code_livefix_driver:run(V2)` on erl and on
//!   beamr, where `V2` is the corrected `code_livefix` compiled at test time
//!   (`erlc` on a patched copy of the fixture's source). It loads the fix
//!   with `code:load_binary/3` while a request is in progress inside version
//!   1, then checks `check_old_code`, `check_process_code`, `soft_purge`,
//!   `purge` (which kills a process parked in old code), `load_module`,
//!   `delete_module`, and that later answers come from version 2 in the
//!   same server process. Every observation must print the same with `~w`.
//! - `rust_api_fix_while_serving`: `code_hotswap:main/0` keeps asking its
//!   server while the test thread loads the corrected version through
//!   [`CodeServer::load_from`]; the answers must switch from version 1's
//!   wrong ones to version 2's right ones, all from one server process.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath, CodeServer};
use beamr_sched::runtime::Runtime;

fn fixtures() -> PathBuf {
    let dir = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"));
    let beam = dir.join("beam");
    for m in ["code_livefix", "code_livefix_driver", "code_hotswap"] {
        assert!(
            beam.join(format!("{m}.beam")).is_file(),
            "fixture {m} missing in {}: run `cargo xtask fixtures`",
            beam.display()
        );
    }
    beam
}

/// Compiles `module`'s fixture source with each `(from, to)` line replaced;
/// returns the `.beam` file.
fn compile_fixed(module: &str, edits: &[(&str, &str)]) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/erlang")
        .join(format!("{module}.erl"));
    let mut text = std::fs::read_to_string(&src).expect("fixture source");
    for (from, to) in edits {
        assert!(text.contains(from), "{module}.erl lacks {from:?}");
        text = text.replace(from, to);
    }
    let dir = std::env::temp_dir().join(format!("beamr-{module}-v2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{module}.erl"));
    std::fs::write(&file, text).unwrap();
    let out = Command::new("erlc")
        .arg("-o")
        .arg(&dir)
        .arg(&file)
        .output()
        .expect("erlc runs");
    assert!(
        out.status.success(),
        "erlc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(format!("{module}.beam"))
}

fn runtime(beam: &Path) -> Arc<Runtime> {
    let mut path = CodePath::new();
    path.push(beam);
    for dir in otp_lib_dirs() {
        path.push(dir);
    }
    Arc::new(Runtime::new(path))
}

fn atom(s: &str) -> Atom {
    Atom::new(s).unwrap()
}

/// The `{results, ...}` exit reason's elements, or a panic naming the crash.
fn results(reason: Term, what: &str) -> Vec<Term> {
    match reason.as_tuple() {
        Some(t) if t[0] == Term::atom(atom("results")) => t[1..].to_vec(),
        _ => panic!("{what} crashed: {}", display_w(reason)),
    }
}

#[test]
fn driver_matches_erl() {
    let beam = fixtures();
    let v2 = compile_fixed(
        "code_livefix",
        &[
            ("version() -> 1.", "version() -> 2."),
            (
                "handle(X) -> slow(X, 2000) + 1.",
                "handle(X) -> slow(X, 2000).",
            ),
        ],
    );
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(&beam)
        .arg("-eval")
        .arg(format!(
            "{{ok, B}} = file:read_file(\"{}\"), [io:format(\"R: ~w~n\", [X]) || X <- code_livefix_driver:run(B)], halt().",
            v2.display()
        ))
        .output()
        .expect("erl runs");
    assert!(out.status.success(), "erl failed");
    // Lines other than results are erl's error reports about bad loads.
    let expected: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("R: ").map(str::to_string))
        .collect();
    assert_eq!(expected.len(), 21, "erl printed {expected:?}");

    let bytes = std::fs::read(&v2).unwrap();
    let mut heap = Heap::new();
    let bin = heap.binary(&bytes);
    let rt = runtime(&beam);
    let reason = rt
        .run_main(atom("code_livefix_driver"), atom("main"), &[bin], 2)
        .expect("driver loads");
    let got: Vec<String> = results(reason.term, "code_livefix_driver")[0]
        .list_to_vec()
        .expect("a list")
        .iter()
        .map(|&t| display_w(t).to_string())
        .collect();
    let diffs: Vec<String> = expected
        .iter()
        .zip(&got)
        .enumerate()
        .filter(|(_, (e, g))| e != g)
        .map(|(i, (e, g))| format!("step {}: beamr {g} / erl {e}", i + 1))
        .collect();
    assert!(
        diffs.is_empty() && got.len() == expected.len(),
        "{} steps on beamr, {} on erl; differences:\n{}",
        got.len(),
        expected.len(),
        diffs.join("\n")
    );
}

#[test]
fn rust_api_fix_while_serving() {
    let beam = fixtures();
    let v2 = compile_fixed(
        "code_hotswap",
        &[
            ("version() -> 1.", "version() -> 2."),
            (
                "handle(X) -> slow(X, 3000) + 1.",
                "handle(X) -> slow(X, 3000).",
            ),
        ],
    );
    let bytes = std::fs::read(&v2).unwrap();
    let rt = runtime(&beam);
    let runner = {
        let rt = rt.clone();
        std::thread::spawn(move || {
            rt.run_main(atom("code_hotswap"), atom("main"), &[], 2)
                .expect("code_hotswap loads")
        })
    };
    // Let the server answer from version 1 (the client registers once it
    // has), and a while more, then fix it.
    let client = atom("code_hotswap_client");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while rt.names.whereis(client).is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "version 1 never answered"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    let loaded = CodeServer::global()
        .load_from(&bytes, v2.display().to_string())
        .expect("version 2 loads");
    assert_eq!(loaded, atom("code_hotswap"));
    let reason = runner.join().expect("runtime thread");
    let r = results(reason.term, "code_hotswap");
    let runs = display_w(r[0]).to_string();
    assert_eq!(
        runs, "[{1,false},{2,true}]",
        "answers should go from version 1 (wrong) to version 2 (right)"
    );
    assert_eq!(r[1], Term::TRUE, "one server answered every request");
    let served = r[2].as_small().expect("a count");
    assert!(served > 20, "served {served}");
    assert!(
        CodeServer::global().has_old(atom("code_hotswap")),
        "version 1 stays as old code until purged"
    );
}
