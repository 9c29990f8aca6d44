//! The crash dump `halt(Slogan)` writes, as erts does: to the file
//! `ERL_CRASH_DUMP` names (`erl_crash.dump` in the current directory by
//! default), unless `ERL_CRASH_DUMP_SECONDS` is 0, saying so on standard
//! error (`Crash dump is being written to: File...done`).
//!
//! It is short and holds only what beamr can truthfully fill in, in
//! erts's `=erl_crash_dump:0.5` format, so that tools find the slogan:
//!
//! ```text
//! =erl_crash_dump:0.5
//! Tue Nov 24 19:00:33 2026          (local time)
//! Slogan: my slogan
//! System version: beamr 0.1.0 (Erlang/OTP 25 library)
//! Taints:
//! Atoms: 8478
//! =end
//! ```
//!
//! None of erts's sections on schedulers, processes, ports, ETS tables,
//! timers, memory or loaded code follow.

use std::io::Write;

/// Whether the environment asks for a dump (`ERL_CRASH_DUMP_SECONDS` is
/// not 0).
fn wanted() -> bool {
    std::env::var("ERL_CRASH_DUMP_SECONDS").map_or(true, |s| s.trim() != "0")
}

/// The dump's text.
fn text(slogan: &str) -> String {
    format!(
        "=erl_crash_dump:0.5\n{}\nSlogan: {slogan}\nSystem version: beamr {} \
         (Erlang/OTP {} library)\nTaints: \nAtoms: {}\n=end\n",
        super::time::ctime_now(),
        env!("CARGO_PKG_VERSION"),
        crate::code::otp_release(),
        beamr_core::atom::Atom::count(),
    )
}

/// Says `slogan` on standard error and writes the dump, as erts does when
/// `halt/1,2` is given a string (the caller then exits with status 1).
pub(super) fn write(slogan: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{slogan}\r\n");
    if !wanted() {
        return;
    }
    let file = std::env::var("ERL_CRASH_DUMP").unwrap_or_else(|_| "erl_crash.dump".into());
    let _ = write!(err, "\r\nCrash dump is being written to: {file}...");
    let _ = err.flush();
    let written = std::fs::write(&file, text(slogan));
    let _ = match written {
        Ok(()) => write!(err, "done\r\n"),
        Err(e) => write!(err, "failed: {e}\r\n"),
    };
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_dump_names_its_format_and_slogan() {
        let text = super::text("a slogan");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "=erl_crash_dump:0.5");
        assert_eq!(lines[2], "Slogan: a slogan");
        assert_eq!(lines.last(), Some(&"=end"));
    }
}
