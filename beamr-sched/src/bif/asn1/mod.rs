//! `asn1rt_nif`, the NIF under OTP's `asn1` runtime, natively (the module
//! `asn1rt_nif.erl` runs as bytecode around it, as on the BEAM):
//!
//! - [`ber_decode`]: `decode_ber_tlv_raw/1`, a BER encoding read into
//!   nested `{Tag, Value}` terms, which `public_key` decodes certificates,
//!   keys and PEM entries with;
//! - [`ber_encode`]: `encode_ber_tlv/1`, the inverse;
//! - [`per_complete`]: `encode_per_complete/1`, the bit-packing of a PER
//!   encoder's intermediate form into bytes;
//! - [`nif`]: the rows and the conversion between terms and the three.

mod ber_decode;
mod ber_encode;
pub(super) mod nif;
mod per_complete;
