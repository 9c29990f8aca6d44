//! Every native BIF file's rows in one list: the table `Runtime::new`
//! installs for the loader and the call resolver.

use crate::loader::Natives;

/// The table of every native BIF (a later row for the same MFA wins).
pub fn natives() -> Natives {
    Natives::from_rows(&[
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
        super::erlang_spawn::BIFS,
        super::erlang_signals::BIFS,
        super::erlang_names::BIFS,
        super::erlang_timers::BIFS,
        super::erlang_process::BIFS,
        super::erlang_identity::BIFS,
        super::erlang_trace::BIFS,
        super::erlang_system::BIFS,
        super::erlang_system_flag::BIFS,
        super::beamr_io::BIFS,
        super::persistent_term::BIFS,
        super::os::BIFS,
        super::erlang_ports::BIFS,
        super::prim_file::BIFS,
        super::atomics::BIFS,
        super::zlib::BIFS,
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
    ])
}
