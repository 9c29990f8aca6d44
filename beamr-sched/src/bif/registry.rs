//! Every native BIF file's rows in one list: the table `Runtime::new`
//! installs for the loader and the call resolver.

use crate::loader::Natives;

/// The table of every native BIF (a later row for the same MFA wins).
pub fn natives() -> Natives {
    Natives::from_rows(&[
        super::erlang_arith::BIFS,
        super::erlang_terms::BIFS,
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
        super::erlang_procs::BIFS,
        super::erlang_system::BIFS,
        super::beamr_io::BIFS,
        super::persistent_term::BIFS,
        super::os::BIFS,
        super::erlang_binaries::BIFS,
        super::binary::BIFS,
        super::unicode::BIFS,
        super::ets::BIFS,
        super::code_loading::BIFS,
    ])
}
