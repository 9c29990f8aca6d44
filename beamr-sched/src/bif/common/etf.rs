//! The external term format as the release beamr runs writes it by
//! default: `term_to_binary/1` and trace ports (`{tracer, Port}`) encode
//! with these options.

use beamr_core::etf;

/// `term_to_binary/1,2`'s defaults for the release beamr runs: OTP 26
/// made `minor_version` 2 (UTF-8 atoms) the default and writes every port
/// as `V4_PORT`.
pub(crate) fn encode_defaults() -> etf::EncodeOptions {
    let later = crate::code::otp_release() >= 26;
    etf::EncodeOptions {
        minor_version: if later { 2 } else { 1 },
        v4_ports: later,
        compression: 0,
    }
}
