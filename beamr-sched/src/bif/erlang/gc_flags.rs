//! The garbage-collection flags `spawn_opt` and `process_flag` take
//! (`min_heap_size`, `min_bin_vheap_size`, `fullsweep_after`,
//! `max_heap_size`, `message_queue_data`): checked as the BEAM checks
//! them, and turned back into the terms `process_info` shows.

use crate::bif::common::atoms::atom;
use beamr_core::term::Term;

use crate::process::gc_settings::{self, MaxHeapSize};
use crate::process::Exception;

/// A small non-negative integer (the BEAM takes no bignum for these
/// flags), else badarg.
fn non_negative(t: Term) -> Result<u64, Exception> {
    match t.as_small() {
        Some(n) if n >= 0 => Ok(n as u64),
        _ => Err(Exception::badarg()),
    }
}

/// `min_heap_size`: rounded up to the heap-size table, at least 233.
pub(super) fn min_heap_size(t: Term) -> Result<u64, Exception> {
    non_negative(t).map(gc_settings::min_heap_size)
}

/// `min_bin_vheap_size`: rounded up to the heap-size table, at least 46422.
pub(super) fn min_bin_vheap_size(t: Term) -> Result<u64, Exception> {
    non_negative(t).map(gc_settings::min_bin_vheap_size)
}

/// `fullsweep_after`: the BEAM keeps it in 16 bits.
pub(super) fn fullsweep_after(t: Term) -> Result<u32, Exception> {
    non_negative(t).map(|n| (n & 0xffff) as u32)
}

/// `message_queue_data`: `off_heap` (true) or `on_heap` (false).
pub(super) fn message_queue_data(t: Term) -> Result<bool, Exception> {
    match t.as_atom().map(|a| a.name()) {
        Some("off_heap") => Ok(true),
        Some("on_heap") => Ok(false),
        _ => Err(Exception::badarg()),
    }
}

/// `message_queue_data`'s atom.
pub(super) fn message_queue_data_term(off_heap: bool) -> Term {
    atom(if off_heap { "off_heap" } else { "on_heap" })
}

/// `max_heap_size`: a size, or a map with `size` and any of `kill`,
/// `error_logger` (and from OTP 27 `include_shared_binaries`); what the map
/// leaves out takes its default; another key is badarg for `process_flag`
/// (`strict`) and ignored by `spawn_opt`, as on the BEAM. A size other
/// than 0 below `min_heap` (the process's `min_heap_size`) is badarg.
pub(super) fn max_heap_size(
    t: Term,
    min_heap: u64,
    strict: bool,
) -> Result<MaxHeapSize, Exception> {
    let mut m = MaxHeapSize::default();
    if let Some(pairs) = beamr_core::map::iter(t) {
        let mut size = None;
        for (k, v) in pairs {
            let flag = || super::arith::boolean(v);
            match k.as_atom().map(|a| a.name()) {
                Some("size") => size = Some(non_negative(v)?),
                Some("kill") => m.kill = flag()?,
                Some("error_logger") => m.error_logger = flag()?,
                Some("include_shared_binaries") if crate::code::otp_release() >= 27 => {
                    m.include_shared_binaries = flag()?
                }
                _ if strict => return Err(Exception::badarg()),
                _ => {}
            }
        }
        m.size = size.ok_or_else(Exception::badarg)?;
    } else {
        m.size = non_negative(t)?;
    }
    if m.size != 0 && m.size < min_heap {
        return Err(Exception::badarg());
    }
    Ok(m)
}

/// The `max_heap_size` map `process_info` and `system_info` show (OTP 27
/// added `include_shared_binaries`).
pub(super) fn max_heap_size_term(heap: &mut beamr_core::heap::Heap, m: MaxHeapSize) -> Term {
    let mut pairs = vec![
        (atom("error_logger"), Term::bool(m.error_logger)),
        (atom("kill"), Term::bool(m.kill)),
        (atom("size"), heap.int(m.size as i64)),
    ];
    if crate::code::otp_release() >= 27 {
        pairs.push((
            atom("include_shared_binaries"),
            Term::bool(m.include_shared_binaries),
        ));
    }
    beamr_core::map::from_pairs(heap, &pairs)
}
