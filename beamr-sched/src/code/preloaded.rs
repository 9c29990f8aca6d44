//! The modules erts has preloaded (`erlang:pre_loaded/0`): their code is
//! built into the emulator, `code:which/1` names them `preloaded`, and
//! their copies carry no line information, so their stack frames have an
//! empty location (`{prim_file, read, 2, []}`).

use super::otp_release;

/// OTP 25's preloaded modules, in `erlang:pre_loaded/0`'s order.
const OTP25: &[&str] = &[
    "persistent_term",
    "counters",
    "atomics",
    "erts_dirty_process_signal_handler",
    "erts_literal_area_collector",
    "erl_tracer",
    "erts_internal",
    "erlang",
    "erl_prim_loader",
    "prim_zip",
    "prim_net",
    "prim_socket",
    "socket_registry",
    "zlib",
    "prim_file",
    "prim_inet",
    "prim_eval",
    "prim_buffer",
    "init",
    "erl_init",
    "erts_code_purger",
];

/// OTP 26's and later: `erts_trace_cleaner` is added after the dirty
/// signal handler.
const OTP26: &[&str] = &[
    "persistent_term",
    "counters",
    "atomics",
    "erts_dirty_process_signal_handler",
    "erts_trace_cleaner",
    "erts_literal_area_collector",
    "erl_tracer",
    "erts_internal",
    "erlang",
    "erl_prim_loader",
    "prim_zip",
    "prim_net",
    "prim_socket",
    "socket_registry",
    "zlib",
    "prim_file",
    "prim_inet",
    "prim_eval",
    "prim_buffer",
    "init",
    "erl_init",
    "erts_code_purger",
];

/// The preloaded modules of the release beamr runs, in
/// `erlang:pre_loaded/0`'s order.
pub fn preloaded() -> &'static [&'static str] {
    if otp_release() >= 26 {
        OTP26
    } else {
        OTP25
    }
}

/// Whether module `name` is preloaded in the release beamr runs.
pub fn is_preloaded(name: &str) -> bool {
    preloaded().contains(&name)
}
