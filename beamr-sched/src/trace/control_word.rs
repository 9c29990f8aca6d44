//! The trace control word: a runtime-wide 32-bit word that tracing match
//! specifications read (`get_tcw/0`) and write (`set_tcw/1`), as
//! `erlang:system_flag(trace_control_word, N)` does.

use std::sync::atomic::{AtomicU32, Ordering};

static WORD: AtomicU32 = AtomicU32::new(0);

/// The trace control word.
pub fn control_word() -> u32 {
    WORD.load(Ordering::Acquire)
}

/// Sets the trace control word to `word`; returns the old one.
pub fn set_control_word(word: u32) -> u32 {
    WORD.swap(word, Ordering::AcqRel)
}
