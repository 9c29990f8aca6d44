//! Every native BIF file's rows in one list: the table `Runtime::new`
//! installs for the loader and the call resolver.

use crate::loader::Natives;

/// The table of every native BIF (a later row for the same MFA wins).
/// Releases without a `trace` module (before OTP 27) get beamr's.
pub fn natives() -> Natives {
    let mut rows: Vec<&[crate::loader::BifRow]> = ALL.to_vec();
    if crate::code::otp_release() < 27 {
        rows.push(super::trace_module::BIFS);
    }
    Natives::from_rows(&rows)
}

/// Every file's rows, whatever the release.
const ALL: &[&[crate::loader::BifRow]] = &[
    super::erlang_arith::BIFS,
    super::erlang_terms::BIFS,
    super::erlang_time::BIFS,
    super::erlang_convert::BIFS,
    super::erlang_misc::BIFS,
    super::erlang_phash::BIFS,
    super::lists::BIFS,
    super::maps::BIFS,
    super::math::BIFS,
    super::string::BIFS,
    super::io::BIFS,
    super::code::BIFS,
    super::erlang_checksum::BIFS,
    super::erlang_md5::BIFS,
    super::erlang_spawn::BIFS,
    super::erlang_signals::BIFS,
    super::erlang_names::BIFS,
    super::erlang_timers::BIFS,
    super::erlang_process::BIFS,
    super::erlang_identity::BIFS,
    super::erlang_trace::BIFS,
    super::erl_tracer::BIFS,
    super::erlang_trace_info::BIFS,
    super::erlang_trace_pattern::BIFS,
    super::trace_sessions::BIFS,
    super::seq_trace::BIFS,
    super::erlang_match_spec_test::BIFS,
    super::erlang_system::BIFS,
    super::erlang_memory::BIFS,
    super::erlang_system_flag::BIFS,
    super::beamr_io::BIFS,
    super::persistent_term::BIFS,
    super::os::BIFS,
    super::erlang_ports::BIFS,
    super::prim_file::BIFS,
    super::atomics::BIFS,
    super::zlib::BIFS,
    super::zlib_stream::BIFS,
    super::prim_buffer::BIFS,
    super::crypto::BIFS,
    super::erlang_halt::BIFS,
    super::erlang_binaries::BIFS,
    super::binary::BIFS,
    super::unicode::BIFS,
    super::ets_tables::BIFS,
    super::ets_objects::BIFS,
    super::ets_lookup_walk::BIFS,
    super::ets_select::BIFS,
    super::code_loading::BIFS,
    super::records::BIFS,
    super::erl_prim_loader::BIFS,
    super::re::BIFS,
];
