//! What the commands on the nightly toolchain share (`miri`, `tsan`,
//! `fuzz`): a `cargo +nightly` command, a check for the components they
//! need, and the host's target triple (`-Zbuild-std` wants one spelled
//! out).

use crate::{process, Error, Result};
use std::process::Command;

/// A `cargo +nightly` command, with the toolchain the outer `cargo xtask`
/// chose taken out of the environment so that `+nightly` decides: the
/// rustup proxy `cargo` on PATH picks nightly, where `$CARGO` (stable's own
/// cargo binary) would not.
pub fn cargo() -> Command {
    let mut cmd = Command::new("cargo");
    cmd.env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .arg("+nightly");
    cmd
}

/// Fails, saying what to run, unless the nightly toolchain is installed
/// with every one of `components` (for `host`, the triple).
pub fn require(components: &[&str], host: &str) -> Result<()> {
    let installed = process::output(Command::new("rustup").args([
        "component",
        "list",
        "--toolchain",
        "nightly",
        "--installed",
    ]))
    .ok_or_else(|| {
        Error::new(
            "this needs the nightly toolchain: `rustup toolchain install nightly` \
             (`rustup component list --toolchain nightly` did not run)",
        )
    })?;
    let missing: Vec<&str> = components
        .iter()
        .copied()
        .filter(|wanted| {
            !installed
                .lines()
                .any(|line| is_component(line, wanted, host))
        })
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "the nightly toolchain lacks {}: `rustup component add --toolchain nightly {}`",
            missing.join(", "),
            missing.join(" ")
        )))
    }
}

/// True when a line of `rustup component list --installed` is `component`
/// for `host` (`miri-x86_64-unknown-linux-gnu` is `miri`; `rust-src` has
/// no triple).
fn is_component(line: &str, component: &str, host: &str) -> bool {
    line == component
        || line
            .strip_prefix(component)
            .and_then(|rest| rest.strip_prefix('-'))
            == Some(host)
}

/// The nightly compiler's host triple (`x86_64-unknown-linux-gnu`).
pub fn host_triple() -> Result<String> {
    let version = process::output(
        Command::new("rustc")
            .env_remove("RUSTUP_TOOLCHAIN")
            .args(["+nightly", "-vV"]),
    )
    .ok_or_else(|| Error::new("`rustc +nightly -vV` did not run"))?;
    version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| Error::new("`rustc +nightly -vV` named no host triple"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_matched_by_name_not_by_prefix() {
        let host = "x86_64-unknown-linux-gnu";
        assert!(is_component("miri-x86_64-unknown-linux-gnu", "miri", host));
        assert!(is_component("rust-src", "rust-src", host));
        assert!(!is_component("rust-src", "rust", host));
        assert!(!is_component(
            "rust-std-x86_64-unknown-linux-gnu",
            "rust-src",
            host
        ));
        assert!(!is_component(
            "miri-aarch64-unknown-linux-gnu",
            "miri",
            host
        ));
    }
}
