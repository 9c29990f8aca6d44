//! Gleam's own tooling on beamr through `beamr shim`: a small project
//! (gleam_stdlib and gleeunit as path dependencies) built and run with
//! `gleam run`, `gleam test` and `gleam shell` (expressions on a pipe),
//! exported with `gleam export erlang-shipment` and run with the
//! shipment's `entrypoint.sh run`, and gleam_stdlib's own suite with
//! `gleam test` ([`stdlib_suite`]), on erl 27's tools, then again with the
//! launchers of `beamr shim` first on the PATH, so that Gleam's build (its
//! `escript` compiling the Erlang it writes, with OTP's compiler) and its
//! `erl -pa ... -eval 'PKG@@main:run(MOD)' -noshell -extra` both run on
//! beamr. The two runs must print the same and exit with the same status,
//! and the two builds must hold the same `.beam` files. Not the same bytes:
//! from OTP 26 on, a literal map's atom keys are written in the order the
//! compiling runtime created those atoms, which differs from one runtime
//! (or run) to another (the abstract code is the same).
//!
//! Everything runs inside the OTP 27 root (Gleam 1.18 needs OTP 27), so
//! beamr is copied into it. The `gleam` step ([`crate::gleam_suites`])
//! runs it after the suites.

mod gleeunit_output;
mod stdlib_suite;

use crate::gleam_suites::copy_dir;
use crate::{process, Error, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const GLEAM_TOML: &str = r#"name = "shimdemo"
version = "1.0.0"

[dependencies]
gleam_stdlib = { path = "../pkgs/gleam_stdlib" }

[dev_dependencies]
gleeunit = { path = "../pkgs/gleeunit" }
"#;

const MAIN: &str = r#"import gleam/int
import gleam/io
import gleam/list

pub fn main() -> Nil {
  io.println("Hello from shimdemo")
  io.println(int.to_string(list.fold([1, 2, 3], 0, fn(a, b) { a + b })))
}
"#;

const TEST: &str = r#"import gleeunit

pub fn main() -> Nil {
  gleeunit.main()
}

pub fn add_test() {
  assert 1 + 1 == 2
}

pub fn fold_test() {
  assert [1, 2, 3] |> list_sum == 6
}

fn list_sum(l: List(Int)) -> Int {
  case l {
    [] -> 0
    [x, ..rest] -> x + list_sum(rest)
  }
}
"#;

/// Compares `gleam run`, `gleam test` and `gleam shell`, and gleam_stdlib's
/// `gleam test`, on erl 27 and through beamr's shim, in `otp_root` (the OTP 27 root), with the Gleam `compiler`, the
/// `packages` directory of `../shared/gleam` and the `beamr` binary.
pub fn run(otp_root: &Path, compiler: &Path, packages: &Path, beamr: &Path) -> Result<()> {
    let work = otp_root.join("tmp/beamr-gleam-shim");
    let _ = fs::remove_dir_all(&work);
    let project = work.join("project");
    for dir in [project.join("src"), project.join("test"), work.join("pkgs")] {
        fs::create_dir_all(&dir).map_err(|e| Error::new(format!("{}: {e}", dir.display())))?;
    }
    for package in ["gleam_stdlib", "gleeunit"] {
        copy_dir(&packages.join(package), &work.join("pkgs").join(package))?;
    }
    // gleeunit's own tests need a package that is not there.
    for extra in ["test", "testhelper"] {
        let _ = fs::remove_dir_all(work.join("pkgs/gleeunit").join(extra));
    }
    for (file, text) in [
        ("gleam.toml", GLEAM_TOML),
        ("src/shimdemo.gleam", MAIN),
        ("test/shimdemo_test.gleam", TEST),
    ] {
        write(&project.join(file), text)?;
    }
    copy(compiler, &work.join("gleam"))?;
    copy(beamr, &work.join("beamr"))?;
    let inside = |p: &Path| Path::new("/").join(p.strip_prefix(otp_root).unwrap_or(p));
    let (project_in, work_in) = (inside(&project), inside(&work));
    let shim = work_in.join("shim");
    let setup = format!(
        "{} shim {}",
        work_in.join("beamr").display(),
        shim.display()
    );
    process::run(
        Command::new("chroot")
            .arg(otp_root)
            .args(["sh", "-c", &setup]),
    )?;
    let mut failures = Vec::new();
    for command in ["run", "test", "shell"] {
        // `gleam shell` reads expressions from a pipe here (the terminal's
        // line editing is tests/shell_terminal.rs's).
        let input = if command == "shell" { SHELL_INPUT } else { "" };
        let gleam = format!(
            "cd {} && rm -rf build && printf '{input}' | {} {command}",
            project_in.display(),
            work_in.join("gleam").display()
        );
        let erl = ran(otp_root, &gleam)?;
        let erl_build = beams(&project.join("build/dev/erlang"))?;
        let ours = ran(otp_root, &format!("PATH={}:$PATH; {gleam}", shim.display()))?;
        // erl may halt before it shows the prompt before `halt().`.
        let (erl, ours) = if command == "shell" {
            (
                (without_last_prompt(&erl.0), erl.1),
                (without_last_prompt(&ours.0), ours.1),
            )
        } else {
            (erl, ours)
        };
        let our_build = beams(&project.join("build/dev/erlang"))?;
        let evaluated = erl.0.contains("Hello from shimdemo") && erl.0.contains("[3,2,1]");
        if command == "shell" && !evaluated {
            failures.push(format!(
                "gleam shell on erl 27 did not evaluate: {:?}",
                erl.0
            ));
        }
        if ours != erl {
            failures.push(format!(
                "gleam {command}: erl 27 printed {:?} (status {}), beamr's shim {:?} (status {})",
                erl.0, erl.1, ours.0, ours.1
            ));
        }
        if our_build != erl_build {
            failures.push(format!(
                "gleam {command}: erlc built {erl_build:?}, beamr's shim {our_build:?}"
            ));
        }
    }
    failures.extend(compare_shipment(otp_root, &project_in, &work_in, &shim)?);
    failures.extend(stdlib_suite::compare(
        otp_root,
        packages,
        &work,
        &work_in,
        &work_in.join("gleam"),
        &shim,
    )?);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Error::new(failures.join("\n")))
    }
}

/// `gleam export erlang-shipment` of the project (on erl 27's tools),
/// then the shipment's `entrypoint.sh run` on erl and with the shim's
/// launchers first on the PATH: the same output and status.
fn compare_shipment(
    otp_root: &Path,
    project_in: &Path,
    work_in: &Path,
    shim: &Path,
) -> Result<Vec<String>> {
    let export = format!(
        "cd {} && rm -rf build && {} export erlang-shipment >/dev/null 2>&1; echo $?",
        project_in.display(),
        work_in.join("gleam").display()
    );
    let (status, _) = ran(otp_root, &export)?;
    if status.trim() != "0" {
        return Ok(vec![format!(
            "gleam export erlang-shipment failed (status {})",
            status.trim()
        )]);
    }
    let run = format!(
        "cd {} && build/erlang-shipment/entrypoint.sh run",
        project_in.display()
    );
    let erl = ran(otp_root, &run)?;
    let ours = ran(otp_root, &format!("PATH={}:$PATH; {run}", shim.display()))?;
    let mut found = Vec::new();
    if !erl.0.contains("Hello from shimdemo") {
        found.push(format!("entrypoint.sh run on erl 27 printed {:?}", erl.0));
    }
    if ours != erl {
        found.push(format!(
            "entrypoint.sh run: erl 27 printed {:?} (status {}), through beamr's shim {:?} (status {})",
            erl.0, erl.1, ours.0, ours.1
        ));
    }
    Ok(found)
}

/// What `gleam shell` is given on standard input (printf's format).
const SHELL_INPUT: &str = "shimdemo:main().\\ngleam@list:reverse([1, 2, 3]).\\nhalt().\\n";

/// `text` without the shell prompt (`N> `) it ends with, if any.
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

/// Standard output and exit status of `sh -c LINE` inside the root.
fn ran(otp_root: &Path, line: &str) -> Result<(String, i32)> {
    let out = Command::new("chroot")
        .arg(otp_root)
        .args(["sh", "-c", line])
        .output()
        .map_err(|e| Error::new(format!("chroot {}: {e}", otp_root.display())))?;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    ))
}

/// Every `.beam` file under `dir`, relative to it, in order.
fn beams(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let entries = fs::read_dir(&d).map_err(|e| Error::new(format!("{}: {e}", d.display())))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "beam") {
                found.push(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
            }
        }
    }
    found.sort();
    Ok(found)
}

fn write(file: &Path, text: &str) -> Result<()> {
    fs::write(file, text).map_err(|e| Error::new(format!("{}: {e}", file.display())))
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    fs::copy(from, to)
        .map(drop)
        .map_err(|e| Error::new(format!("copying {}: {e}", from.display())))
}
