//! Every native BIF file's rows in one list: the table `Runtime::new`
//! installs for the loader and the call resolver.

use crate::loader::Natives;

/// The table of every native BIF (a later row for the same MFA wins).
/// Releases without a `trace` module (before OTP 27) get beamr's.
pub fn natives() -> Natives {
    let mut rows: Vec<&[crate::loader::BifRow]> = ALL.to_vec();
    if crate::code::otp_release() < 27 {
        rows.push(super::trace::fallback_module::BIFS);
    }
    Natives::from_rows(&rows)
}

/// Every file's rows, whatever the release.
const ALL: &[&[crate::loader::BifRow]] = &[
    super::erlang::arith::BIFS,
    super::erlang::terms::BIFS,
    super::erlang::time::BIFS,
    super::erlang::convert::BIFS,
    super::erlang::misc::BIFS,
    super::erlang::phash::BIFS,
    super::data::lists::BIFS,
    super::data::maps::BIFS,
    super::data::math::BIFS,
    super::text::string::BIFS,
    super::io::printable_range::BIFS,
    super::io::prim_tty::BIFS,
    super::code::ensure_loaded::BIFS,
    super::code::load_nif::BIFS,
    super::erlang::checksum::BIFS,
    super::erlang::md5::BIFS,
    super::erlang::spawn::BIFS,
    super::erlang::spawn_request::BIFS,
    super::erlang::signals::BIFS,
    super::erlang::names::BIFS,
    super::erlang::timers::BIFS,
    super::erlang::process::BIFS,
    super::erlang::identity::BIFS,
    super::trace::flags::BIFS,
    super::trace::erl_tracer::BIFS,
    super::trace::info::BIFS,
    super::trace::patterns::BIFS,
    super::trace::sessions::BIFS,
    super::trace::seq_trace::BIFS,
    super::trace::match_spec_test::BIFS,
    super::erlang::system::BIFS,
    super::erlang::system_info::BIFS,
    super::erlang::memory::BIFS,
    super::erlang::system_flag::BIFS,
    super::io::beamr_io::BIFS,
    super::io::format::BIFS,
    super::global::persistent_term::BIFS,
    super::os::bifs::BIFS,
    super::os::set_signal::BIFS,
    super::erlang::ports::BIFS,
    super::file::prim_file::BIFS,
    super::global::atomics::BIFS,
    super::zlib::one_call::BIFS,
    super::zlib::stream::BIFS,
    super::file::prim_buffer::BIFS,
    super::crypto::nifs::BIFS,
    super::crypto::ossl::BIFS,
    super::asn1::nif::BIFS,
    super::erlang::halt::BIFS,
    super::erlang::binaries::BIFS,
    super::data::binary::BIFS,
    super::text::unicode::BIFS,
    super::ets::tables::BIFS,
    super::ets::objects::BIFS,
    super::ets::lookup_walk::BIFS,
    super::ets::select::BIFS,
    super::code::loading::BIFS,
    super::data::records::BIFS,
    super::file::erl_prim_loader::BIFS,
    super::text::re::BIFS,
    super::net::decode_packet::BIFS,
    super::net::socket::BIFS,
    super::dist::node::BIFS,
    super::dist::channel::BIFS,
];
