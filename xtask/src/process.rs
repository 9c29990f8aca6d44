//! Running external programs: echoing them, checking their exit status,
//! finding them on `PATH`.

use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// How a command is shown to the user: the program's file name (`cargo`, not
/// the toolchain path `$CARGO` names) and the arguments, space separated.
pub fn display(cmd: &Command) -> String {
    let program = Path::new(cmd.get_program());
    let name = program.file_name().unwrap_or(program.as_os_str());
    let mut shown = name.to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        shown.push(' ');
        shown.push_str(&arg.to_string_lossy());
    }
    shown
}

/// Prints `$ <command>`, runs it with inherited stdio, and fails unless it
/// exits with status 0.
pub fn run(cmd: &mut Command) -> Result<()> {
    let shown = display(cmd);
    println!("$ {shown}");
    let status = cmd
        .status()
        .map_err(|err| Error::new(format!("could not start `{shown}`: {err}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::new(format!("`{shown}` failed ({status})")))
    }
}

/// Runs a command quietly and returns its trimmed standard output, or `None`
/// if it could not start or did not exit with status 0.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The first executable file called `name` in a directory on `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Whether this process runs as root (`id -u` prints 0).
pub fn is_root() -> bool {
    output(Command::new("id").arg("-u")).as_deref() == Some("0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_joins_program_and_args() {
        let mut cmd = Command::new("/opt/toolchain/bin/cargo");
        cmd.args(["clippy", "--", "-D", "warnings"]);
        assert_eq!(display(&cmd), "cargo clippy -- -D warnings");
    }

    #[cfg(unix)]
    #[test]
    fn finds_sh_but_not_nonsense() {
        assert!(which("sh").is_some());
        assert!(which("beamr-no-such-program-xyz").is_none());
    }
}
