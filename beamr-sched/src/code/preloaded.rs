//! The modules erts has preloaded (`erlang:pre_loaded/0`): their code is
//! built into the emulator, `code:which/1` names them `preloaded`, and
//! their copies carry no line information, so their stack frames have an
//! empty location (`{prim_file, read, 2, []}`).

use super::otp_release;

/// Every release's preloaded modules, in `erlang:pre_loaded/0`'s order,
/// each with the release that first has it (`erts_trace_cleaner` came in
/// OTP 26).
const MODULES: &[(&str, u32)] = &[
    ("persistent_term", 25),
    ("counters", 25),
    ("atomics", 25),
    ("erts_dirty_process_signal_handler", 25),
    ("erts_trace_cleaner", 26),
    ("erts_literal_area_collector", 25),
    ("erl_tracer", 25),
    ("erts_internal", 25),
    ("erlang", 25),
    ("erl_prim_loader", 25),
    ("prim_zip", 25),
    ("prim_net", 25),
    ("prim_socket", 25),
    ("socket_registry", 25),
    ("zlib", 25),
    ("prim_file", 25),
    ("prim_inet", 25),
    ("prim_eval", 25),
    ("prim_buffer", 25),
    ("init", 25),
    ("erl_init", 25),
    ("erts_code_purger", 25),
];

/// The preloaded modules of the release beamr runs, in
/// `erlang:pre_loaded/0`'s order.
pub fn preloaded() -> impl Iterator<Item = &'static str> {
    let release = otp_release();
    MODULES
        .iter()
        .filter(move |&&(_, since)| since <= release)
        .map(|&(name, _)| name)
}

/// Whether module `name` is preloaded in the release beamr runs.
pub fn is_preloaded(name: &str) -> bool {
    preloaded().any(|m| m == name)
}
