//! The OTP release whose semantics the data layer follows, where releases
//! differ in what a program can observe of a term.
//!
//! beamr-sched finds the release of the library it runs and sets it once,
//! before any code is loaded ([`set_otp_release`]); until then, and in
//! programs that never set it, the data layer behaves as OTP 25.
//!
//! | release | change                                                        |
//! |---------|---------------------------------------------------------------|
//! | 26      | map internals: hash tries placed by a 64-bit MurmurHash3-style hash ([`crate::map`]); atoms in flat maps by atom index, that is by erl's creation order ([`crate::order::compare_map_keys`], [`crate::atom::install_erl_boot_order`]) |
//! | 29      | `maps:to_list/1`, `maps:keys/1` and `maps:values/1` walk a hash trie in `maps:next/1`'s order (28 not checked) |
//! | 27      | `0.0` and `-0.0` are different terms for `=:=`, matching and map keys (`==` and the term order still equate them) |
//!
//! The release must not change once terms exist: a map built under one
//! release's hash is searched with the same hash. Reading it is one relaxed
//! load.

use std::sync::atomic::{AtomicU32, Ordering};

/// The release assumed until one is set.
pub const DEFAULT_OTP_RELEASE: u32 = 25;

static RELEASE: AtomicU32 = AtomicU32::new(DEFAULT_OTP_RELEASE);

/// Sets the OTP release whose term semantics apply (call once, before any
/// term is built).
pub fn set_otp_release(release: u32) {
    RELEASE.store(release, Ordering::Relaxed);
    crate::atom::install_erl_boot_order(release);
}

/// The OTP release whose term semantics apply.
#[inline]
pub fn otp_release() -> u32 {
    RELEASE.load(Ordering::Relaxed)
}

/// OTP 27 and later: `0.0 =:= -0.0` is false.
#[inline]
pub fn signed_zeros_differ() -> bool {
    otp_release() >= 27
}

/// OTP 29 and later: `maps:to_list/1` and its kin list a hash trie in the
/// iterator's order rather than the reverse.
#[inline]
pub fn to_list_as_iterator() -> bool {
    otp_release() >= 29
}

/// OTP 26 and later: two atom keys of a flat map in atom-index order
/// ([`crate::atom::Atom::map_key_rank`]), not by name.
#[inline]
pub fn atom_keys_by_index() -> bool {
    otp_release() >= 26
}

/// OTP 26 and later: binary construction checks a `utf8` segment's value
/// with the sizes, before any other segment's value (OTP 25 checks it in
/// segment order, with the values).
#[inline]
pub fn utf8_checked_with_sizes() -> bool {
    otp_release() >= 26
}

/// OTP 26 and later: hash tries placed by the 64-bit internal hash.
#[inline]
pub fn maps_v26() -> bool {
    otp_release() >= 26
}
