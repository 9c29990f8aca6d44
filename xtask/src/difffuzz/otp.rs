//! The Erlang/OTP releases programs are compared against: the host's
//! (OTP 25 on these machines) or one in a Debian root entered with
//! `chroot` (as the differential suite does, see `otp_roots`), and how
//! to compile and run there.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One release to compare against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Otp {
    /// `erl` and `erlc` on PATH, of release `.0` (`"25"`).
    Host(String),
    /// The release `release` in the root `root`.
    Chroot {
        /// The release's number (`"27"`).
        release: String,
        /// The root directory.
        root: PathBuf,
    },
}

impl Otp {
    /// The release's number, as in file names and messages (`"27"`).
    pub fn name(&self) -> &str {
        match self {
            Otp::Host(release) | Otp::Chroot { release, .. } => release,
        }
    }

    /// Whether the release's `io:format/2` lacks the `k` modifier and its
    /// compiler the `maybe` and map-comprehension syntax (OTP 25).
    pub fn is_old(&self) -> bool {
        self.name().parse::<u32>().is_ok_and(|r| r < 26)
    }

    /// A directory for the work of `workspace` on this release: under
    /// `target/difffuzz/` for the host's, inside the root for a chroot
    /// (so that `erlc` and `erl` there see it).
    pub fn work_dir(&self, workspace: &Path) -> PathBuf {
        match self {
            Otp::Host(_) => workspace.join("target/difffuzz/work"),
            Otp::Chroot { root, .. } => {
                use std::hash::{Hash, Hasher};
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                workspace.hash(&mut hasher);
                root.join(format!("tmp/beamr-difffuzz-{:016x}", hasher.finish()))
            }
        }
    }

    /// A command running `program` in `dir` (a path on this side).
    pub fn command(&self, program: &str, dir: &Path) -> Command {
        match self {
            Otp::Host(_) => {
                let mut cmd = Command::new(program);
                cmd.current_dir(dir).env("ERL_CRASH_DUMP_SECONDS", "0");
                cmd
            }
            Otp::Chroot { root, .. } => {
                let inside = Path::new("/").join(dir.strip_prefix(root).unwrap_or(dir));
                let mut cmd = Command::new("chroot");
                cmd.arg(root)
                    .arg("env")
                    .arg("-C")
                    .arg(inside)
                    .arg("HOME=/tmp")
                    .arg("ERL_CRASH_DUMP_SECONDS=0")
                    .arg(program);
                cmd
            }
        }
    }

    /// The library beamr runs with for this release (`BEAMR_OTP_ROOT`),
    /// or `None` for the host's (beamr's default).
    pub fn beamr_otp_root(&self) -> Option<PathBuf> {
        match self {
            Otp::Host(_) => None,
            Otp::Chroot { root, .. } => Some(root.join("usr/lib/erlang")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chroot_runs_inside_its_root() {
        let otp = Otp::Chroot {
            release: "27".into(),
            root: PathBuf::from("/r"),
        };
        let cmd = otp.command("erlc", Path::new("/r/tmp/w"));
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(cmd.get_program(), "chroot");
        assert_eq!(args[..4], ["/r", "env", "-C", "/tmp/w"]);
        assert_eq!(args.last().map(String::as_str), Some("erlc"));
        assert!(!otp.is_old());
        assert!(Otp::Host("25".into()).is_old());
        assert!(otp.work_dir(Path::new("/ws")).starts_with("/r/tmp"));
    }
}
