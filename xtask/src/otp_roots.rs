//! Newer Erlang/OTP releases for the differential suite, each in a Debian
//! root of its own under `target/otp/<release>/`.
//!
//! This machine's Erlang is Debian bookworm's OTP 25. OTP 27 is Debian
//! trixie's `erlang-base`, OTP 29 Debian sid's; both need a newer libc, so
//! they live in roots made by `debootstrap --variant=minbase` and run
//! through `chroot` (beamr itself only reads their `.beam` files).
//!
//! Protocol, per release:
//!
//! 1. `target/otp/<release>/.beamr-otp-ready` exists: the root is complete
//!    (written last, after `erl` in it answered); use it as it is.
//! 2. Otherwise, unless this process is root, skip: debootstrap and chroot
//!    need root. Without `debootstrap` on PATH, install it with apt-get.
//! 3. Remove any half-made root, run debootstrap, check that `erl` in the
//!    root reports the expected release, write the marker.
//!
//! Any failure in 2 or 3 is a [`Skip`] with the reason: the comparisons
//! against that release are skipped and the summary says why. The two
//! roots take about a minute each to make (most of it downloading about
//! 60 MiB of packages each from Debian's mirror) and about 270 MiB each on
//! disk.

use crate::process::{self, which};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The newer releases the suite also runs against: (release, Debian suite).
pub const RELEASES: [(&str, &str); 2] = [("27", "trixie"), ("29", "sid")];

/// The packages each root gets.
const PACKAGES: &str = "erlang-base,erlang-dev,erlang-eunit,erlang-runtime-tools,erlang-crypto";

/// Debian's mirror.
const MIRROR: &str = "http://deb.debian.org/debian";

/// The file that marks a complete root; it names the packages, so a root
/// made with another list is made again.
const READY: &str = ".beamr-otp-ready";

fn ready_text(release: &str, suite: &str) -> String {
    format!("OTP {release} from Debian {suite}: {PACKAGES}\n")
}

/// Why a release's root is not available; the comparisons are skipped.
#[derive(Debug)]
pub struct Skip(pub String);

/// The root of `release` (Debian `suite`) under `workspace/target/otp/`,
/// made if missing.
pub fn ensure(workspace: &Path, release: &str, suite: &str) -> Result<PathBuf, Skip> {
    let dir = workspace.join("target/otp").join(release);
    if fs::read_to_string(dir.join(READY)).is_ok_and(|t| t == ready_text(release, suite)) {
        println!("otp {release}: using {}", dir.display());
        return Ok(dir);
    }
    if !process::is_root() {
        return Err(Skip(format!(
            "no OTP {release} root in {} and not running as root (debootstrap and chroot need root)",
            dir.display()
        )));
    }
    if which("debootstrap").is_none() {
        install_debootstrap()?;
    }
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| {
            Skip(format!(
                "cannot remove the half-made {}: {e}",
                dir.display()
            ))
        })?;
    }
    fs::create_dir_all(&dir).map_err(|e| Skip(format!("creating {}: {e}", dir.display())))?;
    let made = process::run(
        Command::new("debootstrap")
            .arg("--variant=minbase")
            .arg(format!("--include={PACKAGES}"))
            .arg(suite)
            .arg(&dir)
            .arg(MIRROR),
    );
    if let Err(e) = made {
        let _ = fs::remove_dir_all(&dir);
        return Err(Skip(format!(
            "debootstrap of Debian {suite} (OTP {release}) failed, no network to {MIRROR}? {e}"
        )));
    }
    let found = process::output(Command::new("chroot").arg(&dir).args([
        "erl",
        "-noshell",
        "-eval",
        "io:format(\"~s\", [erlang:system_info(otp_release)]), halt().",
    ]));
    if found.as_deref() != Some(release) {
        return Err(Skip(format!(
            "the Debian {suite} root in {} runs OTP {found:?}, not {release}",
            dir.display()
        )));
    }
    fs::write(dir.join(READY), ready_text(release, suite))
        .map_err(|e| Skip(format!("writing {}: {e}", dir.join(READY).display())))?;
    Ok(dir)
}

/// Debian packages one step needs in a root beyond [`PACKAGES`], each
/// installed in place (`apt-get install` in the root) by [`ensure_packages`]
/// when missing: adding one to [`PACKAGES`] would change every root's ready
/// marker, and so make every existing root again from scratch.
pub const MIST_PACKAGES: [&str; 3] = ["erlang-ssl", "erlang-asn1", "erlang-public-key"];

/// The packages the differential programs need beyond [`PACKAGES`]
/// (`asn1`, `public_key`, `ssl` and `inets` for the ASN.1, certificate and
/// TLS programs), installed as [`MIST_PACKAGES`] are.
pub const DIFF_PACKAGES: [&str; 4] = [
    "erlang-ssl",
    "erlang-asn1",
    "erlang-public-key",
    "erlang-inets",
];

/// Installs each of `packages` missing from `root` with apt-get there
/// (as root; `dpkg -s` says which are missing).
pub fn ensure_packages(root: &Path, packages: &[&str]) -> Result<(), Skip> {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("chroot")
                .arg(root)
                .args(["dpkg", "-s", p])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !process::is_root() {
        return Err(Skip(format!(
            "{} lacks {} and this process is not root to install them",
            root.display(),
            missing.join(", ")
        )));
    }
    let apt = |args: &[&str]| {
        process::run(
            Command::new("chroot")
                .arg(root)
                .arg("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )
    };
    let install: Vec<&str> = ["install", "-y", "--no-install-recommends"]
        .into_iter()
        .chain(missing.iter().copied())
        .collect();
    apt(&install)
        .or_else(|_| apt(&["update"]).and_then(|()| apt(&install)))
        .map_err(|e| {
            Skip(format!(
                "cannot install {} in {}: {e}",
                missing.join(", "),
                root.display()
            ))
        })
}

fn install_debootstrap() -> Result<(), Skip> {
    if which("apt-get").is_none() {
        return Err(Skip(
            "no debootstrap on PATH and no apt-get to install it with".into(),
        ));
    }
    let apt = |args: &[&str]| {
        process::run(
            Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )
    };
    apt(&["install", "-y", "debootstrap"])
        .or_else(|_| apt(&["update"]).and_then(|()| apt(&["install", "-y", "debootstrap"])))
        .map_err(|e| Skip(format!("cannot install debootstrap: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_newer_than_the_host_and_distinct() {
        let numbers: Vec<u32> = RELEASES.iter().map(|(r, _)| r.parse().unwrap()).collect();
        assert!(numbers.iter().all(|&n| n > 25));
        assert!(numbers.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn a_ready_root_is_used_without_root_or_network() {
        let workspace = std::env::temp_dir().join(format!("xtask-otp-{}", std::process::id()));
        let dir = workspace.join("target/otp/27");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(READY), ready_text("27", "trixie")).unwrap();
        let found = ensure(&workspace, "27", "trixie");
        let _ = fs::remove_dir_all(&workspace);
        assert_eq!(found.unwrap(), dir);
    }
}
