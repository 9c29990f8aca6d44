//! Modules beamr carries inside its binary: its group leader, the
//! `standard_error` process, `init` and the boot of `beamr erl`, `code_server`, and
//! stand-ins for the logger server, `kernel_sup` and the application
//! controller, written in Erlang and compiled ahead of time (the `.beam`
//! files are committed beside their sources in `beamr-sched/erlang/`).

use beamr_core::atom::Atom;

use super::registry::CodeServer;
use crate::loader::LoadError;

/// The group leader serving standard output.
pub const GROUP_LEADER: (&str, &[u8]) = (
    "beamr_group_leader",
    include_bytes!("../../erlang/beamr_group_leader.beam"),
);

/// The output requests both output devices serve (group leader,
/// `standard_error`).
pub const OUTPUT: (&str, &[u8]) = (
    "beamr_output",
    include_bytes!("../../erlang/beamr_output.beam"),
);

/// The `standard_error` process: output requests to standard error.
pub const STANDARD_ERROR: (&str, &[u8]) = (
    "beamr_standard_error",
    include_bytes!("../../erlang/beamr_standard_error.beam"),
);

/// The `init` process: answers OTP's requests of it.
pub const INIT: (&str, &[u8]) = ("beamr_init", include_bytes!("../../erlang/beamr_init.beam"));

/// The boot of `beamr erl`: runs erl's `-s`, `-run` and `-eval`
/// instructions in order, as init's boot process does, and reports a
/// failure as init does.
pub const INIT_BOOT: (&str, &[u8]) = (
    "beamr_init_boot",
    include_bytes!("../../erlang/beamr_init_boot.beam"),
);

/// The stand-in for OTP's logger server: keeps logging off.
pub const LOGGER: (&str, &[u8]) = (
    "beamr_logger",
    include_bytes!("../../erlang/beamr_logger.beam"),
);

/// The stand-in for kernel's top supervisor: starts servers OTP's library
/// adds on demand (`timer_server`).
pub const KERNEL_SUP: (&str, &[u8]) = (
    "beamr_kernel_sup",
    include_bytes!("../../erlang/beamr_kernel_sup.beam"),
);

/// The stand-in for the application controller: owns `ac_tab` (the
/// application environment).
pub const APP_CONTROLLER: (&str, &[u8]) = (
    "beamr_app_controller",
    include_bytes!("../../erlang/beamr_app_controller.beam"),
);

/// The `code_server` process: answers the requests of OTP's `code` module
/// from beamr's code path.
pub const CODE_SERVER: (&str, &[u8]) = (
    "beamr_code_server",
    include_bytes!("../../erlang/beamr_code_server.beam"),
);

/// Every embedded module.
pub const EMBEDDED: &[(&str, &[u8])] = &[
    GROUP_LEADER,
    OUTPUT,
    STANDARD_ERROR,
    INIT,
    INIT_BOOT,
    LOGGER,
    KERNEL_SUP,
    APP_CONTROLLER,
    CODE_SERVER,
];

/// Stand-ins for OTP modules, loaded only when no OTP installation on the
/// code path provides the real module (see `beamr-sched/erlang/fallback/`).
pub const FALLBACKS: &[(&str, &[u8])] = &[
    ("io", include_bytes!("../../erlang/fallback/io.beam")),
    ("init", include_bytes!("../../erlang/fallback/init.beam")),
    (
        "application",
        include_bytes!("../../erlang/fallback/application.beam"),
    ),
];

/// The embedded stand-in for `module`, if there is one.
pub fn fallback(module: &str) -> Option<&'static [u8]> {
    FALLBACKS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, bytes)| *bytes)
}

/// Loads the embedded modules that are not loaded yet.
pub fn ensure_embedded(code: &CodeServer) -> Result<(), LoadError> {
    for (name, bytes) in EMBEDDED {
        let atom = Atom::new(name).expect("module name");
        if code.current(atom).is_none() {
            code.load_binary(bytes)?;
        }
    }
    Ok(())
}
