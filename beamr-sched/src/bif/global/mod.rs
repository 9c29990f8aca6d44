//! Values the whole runtime shares outside any process: `atomics` and
//! `counters` arrays, and `persistent_term`.

pub(super) mod atomics;
pub(super) mod persistent_term;
