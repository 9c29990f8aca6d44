//! Kernel's logger at boot: OTP's own (`logger_server`, `logger_sup`, the
//! default handler), started and flushed by the embedded `beamr_logger`
//! module, or, without OTP's library, a stand-in that keeps logging off.

use beamr_core::atom::Atom;
use beamr_core::format::PrettyOptions;
use beamr_core::term::Term;

use crate::interp::Outcome;
use crate::loader::LoadError;
use crate::process::{Payload, Process};
use crate::runtime::Runtime;
use crate::sched::{SpawnOptions, SpawnTarget};

/// `logger_server`: OTP's logger runs when the code path has it.
pub(super) fn logger_server() -> Atom {
    Atom::new("logger_server").expect("atom")
}

/// The embedded `beamr_logger` module.
fn beamr_logger() -> Atom {
    Atom::new(crate::code::embedded::LOGGER.0).expect("atom")
}

/// A failure of `beamr_logger`'s `what`.
fn failed(what: &str, reason: &str) -> LoadError {
    LoadError::Atom {
        module: crate::code::embedded::LOGGER.0.to_string(),
        reason: format!("{what} failed: {reason}"),
    }
}

impl Runtime {
    /// Without OTP's library: the primary level set to `none` and a
    /// stand-in registered as `logger`, spawned with `options`.
    pub(super) fn start_logger_stand_in(&self, options: SpawnOptions) -> Result<(), LoadError> {
        let module = beamr_logger();
        let mut boot = Process::new(self.processes.new_pid());
        let boot_fn = Atom::new("boot").expect("atom");
        if !matches!(
            self.call_in(&mut boot, module, boot_fn, &[])?,
            Outcome::Returned
        ) {
            return Err(failed("boot/0", "it raised an exception"));
        }
        let start = Atom::new("start").expect("atom");
        let (logger, _) = self
            .spawn(None, SpawnTarget::Mfa(module, start), &[], options)
            .map_err(|_| failed("start/0", "cannot spawn"))?;
        self.register_name(Atom::new("logger").expect("atom"), logger);
        Ok(())
    }

    /// Starts OTP's logger server as erl's boot does, before kernel's
    /// servers (`beamr_logger:start_logger_server/0`, in a process whose
    /// group leader is `gl`), once the schedulers run; returns when it is
    /// up.
    pub(super) fn start_otp_logger_server(&self, gl: Term) -> Result<(), LoadError> {
        self.run_logger_step("start_logger_server", gl)
    }

    /// Adds kernel's logger handlers (`beamr_logger:start_logger_handlers/0`)
    /// once kernel's servers run; returns when they are in place.
    pub(super) fn start_otp_logger_handlers(&self, gl: Term) -> Result<(), LoadError> {
        self.run_logger_step("start_logger_handlers", gl)
    }

    /// Runs `beamr_logger:function/0`, which must end normally.
    fn run_logger_step(&self, function: &str, gl: Term) -> Result<(), LoadError> {
        let reason = self.run_beamr_logger(function, gl)?;
        if reason.term == Term::atom(Atom::NORMAL) {
            Ok(())
        } else {
            let text = beamr_core::format::format_p(reason.term, &PrettyOptions::default());
            Err(failed(&format!("{function}/0"), &text))
        }
    }

    /// Waits until OTP's logger has written what was logged so far
    /// (`beamr_logger:flush/0`); a failure to flush is not the program's.
    pub(super) fn flush_otp_logger(&self, gl: Term) {
        let _ = self.run_beamr_logger("flush", gl);
    }

    /// Runs `beamr_logger:function()` in a process of its own and returns
    /// its exit reason.
    fn run_beamr_logger(&self, function: &str, gl: Term) -> Result<Payload, LoadError> {
        let function = Atom::new(function).expect("atom");
        let options = SpawnOptions {
            group_leader: Some(gl),
            watched: true,
            ..SpawnOptions::default()
        };
        let (pid, _) = self
            .spawn(
                None,
                SpawnTarget::Mfa(beamr_logger(), function),
                &[],
                options,
            )
            .map_err(|_| failed(function.name(), "cannot spawn"))?;
        Ok(self.wait_exit(pid))
    }
}
