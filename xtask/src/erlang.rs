//! Making sure `erl` and `erlc` are on `PATH`, installing them through apt-get
//! when running as root (as CI does on a clean machine).

use crate::process::{self, which};
use crate::{Error, Result};
use std::process::Command;

/// The Debian/Ubuntu packages that provide `erl`, `erlc`, and the parts of
/// OTP the tests use: `eunit`, runtime_tools (`dbg`), and the header files
/// the test programs include (`eunit.hrl`, `ms_transform.hrl`, `file.hrl`,
/// `logger.hrl`), which only `erlang-dev` ships; `erlang-crypto` (the
/// differential programs' erl side of `crypto`), `erlang-asn1`,
/// `erlang-public-key`, `erlang-ssl` and `erlang-inets` (their erl side of
/// ASN.1, certificates and TLS), `openssl` (the command the TLS tests
/// talk to with `s_client` and `s_server`), and `libssl-dev` with
/// `pkg-config`, which beamr's own build needs (its `crypto` links the
/// system's OpenSSL through the `openssl` crate), and `tmux`, the terminal
/// `beamr ctl top`'s test draws in (`beamr-cli/tests/ctl_top.rs`). This step
/// runs before any beamr build.
pub const APT_PACKAGES: [&str; 13] = [
    "erlang-base",
    "erlang-runtime-tools",
    "erlang-eunit",
    "erlang-dev",
    "erlang-crypto",
    "erlang-asn1",
    "erlang-public-key",
    "erlang-ssl",
    "erlang-inets",
    "openssl",
    "libssl-dev",
    "pkg-config",
    "tmux",
];

const TOOLS: [&str; 2] = ["erl", "erlc"];

fn missing_tools() -> Vec<&'static str> {
    TOOLS.into_iter().filter(|t| which(t).is_none()).collect()
}

/// The packages of [`APT_PACKAGES`] that dpkg says are not installed; none
/// where there is no dpkg (Erlang installed some other way).
fn missing_packages() -> Vec<&'static str> {
    if which("dpkg-query").is_none() {
        return Vec::new();
    }
    APT_PACKAGES
        .into_iter()
        .filter(|package| {
            process::output(Command::new("dpkg-query").args(["-W", "-f=${Status}", package]))
                .is_none_or(|status| !status.ends_with(" installed"))
        })
        .collect()
}

/// Ensures `erl` and `erlc` exist, installing Erlang with apt-get if they do
/// not and this process is root; as root, also installs any of
/// [`APT_PACKAGES`] that is missing beside an `erl` already there (an
/// `erl` without `erlang-dev` compiles no test that includes `eunit.hrl`).
/// Prints the OTP release found.
pub fn ensure() -> Result<()> {
    let missing = missing_tools();
    if !missing.is_empty() {
        install(&missing)?;
    } else if process::is_root() && which("apt-get").is_some() {
        let packages = missing_packages();
        if !packages.is_empty() {
            println!("erlang: {} not installed", packages.join(", "));
            apt_install()?;
        }
    }
    let version = otp_version().ok_or_else(|| {
        Error::new("`erl` is on PATH but `erl -noshell -eval ...` did not run; check the Erlang installation")
    })?;
    println!("erlang: {version}");
    Ok(())
}

fn install(missing: &[&str]) -> Result<()> {
    let packages = APT_PACKAGES.join(" ");
    let missing = missing.join(" and ");
    if !process::is_root() {
        return Err(Error::new(format!(
            "{missing} not found on PATH. Install Erlang/OTP (25 or later), e.g. on \
             Debian/Ubuntu:\n    sudo apt-get install -y {packages}\n\
             (as root, `cargo xtask test-all` installs it itself)"
        )));
    }
    if which("apt-get").is_none() {
        return Err(Error::new(format!(
            "{missing} not found on PATH and there is no apt-get to install it with; \
             install Erlang/OTP (25 or later) so that `erl` and `erlc` are on PATH \
             (on Debian/Ubuntu the packages are: {packages})"
        )));
    }
    println!("erlang: {missing} not found; installing {packages} with apt-get");
    apt_install()?;
    let still_missing = missing_tools();
    if still_missing.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "installed {packages}, but {} still not on PATH",
            still_missing.join(" and ")
        )))
    }
}

/// `apt-get update`, then `apt-get install -y` of every [`APT_PACKAGES`].
fn apt_install() -> Result<()> {
    process::run(
        Command::new("apt-get")
            .arg("update")
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )?;
    process::run(
        Command::new("apt-get")
            .args(["install", "-y"])
            .args(APT_PACKAGES)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// `Erlang/OTP <release> (erts-<version>)`, asked of `erl` itself.
fn otp_version() -> Option<String> {
    process::output(Command::new("erl").args([
        "-noshell",
        "-eval",
        "io:format(\"Erlang/OTP ~s (erts-~s)~n\", \
         [erlang:system_info(otp_release), erlang:system_info(version)]), halt().",
    ]))
}
