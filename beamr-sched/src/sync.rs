//! The atomics and locks the scheduling protocols are built from: std's in
//! every build, loom's under `cfg(loom)`, so that `cargo xtask loom` can
//! run the protocols' models (`loom_models.rs`) through every
//! interleaving and every reordering the memory model allows. Only the
//! protocols' own types use this module: the process state word
//! (`process/run_state.rs`), the inbox (`process/inbox.rs`) and the
//! schedulers' sleep (`runtime/sleepers.rs`).

#[cfg(loom)]
pub(crate) use loom::sync::{
    atomic::{fence, AtomicU32, AtomicUsize},
    Condvar, Mutex, MutexGuard,
};
#[cfg(not(loom))]
pub(crate) use std::sync::{
    atomic::{fence, AtomicU32, AtomicUsize},
    Condvar, Mutex, MutexGuard,
};
