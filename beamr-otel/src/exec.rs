//! [`Exec`]: where an exporter's future runs.
//!
//! The gRPC (tonic) and HTTP (hyper) exporters need a Tokio runtime: their
//! connections are tasks on it and their timeouts are its timers. The
//! pipeline owns one small multi-threaded runtime (one worker thread,
//! `beamr-otel-io`) and every export is driven from a batch thread with
//! [`Handle::block_on`](tokio::runtime::Handle::block_on), which blocks that
//! batch thread only. Exporters that need no runtime (in-memory ones, in
//! tests) run under [`futures_executor::block_on`].
//!
//! `block_on` must not be called on a thread of the Tokio runtime itself;
//! the batch threads and the SDK's metric reader thread are not.

use std::future::Future;

/// How to drive an exporter's future to completion.
#[derive(Clone, Debug)]
pub(crate) enum Exec {
    /// On the calling thread, without a runtime.
    Blocking,
    /// On the calling thread, inside the pipeline's Tokio runtime.
    Tokio(tokio::runtime::Handle),
}

impl Exec {
    /// Runs `f` to completion, blocking the calling thread.
    pub(crate) fn block_on<F: Future>(&self, f: F) -> F::Output {
        match self {
            Exec::Blocking => futures_executor::block_on(f),
            Exec::Tokio(h) => h.block_on(f),
        }
    }

    /// Runs `f` with the runtime entered (for code that spawns or makes
    /// timers synchronously, as building a tonic channel does).
    pub(crate) fn enter<R>(&self, f: impl FnOnce() -> R) -> R {
        match self {
            Exec::Blocking => f(),
            Exec::Tokio(h) => {
                let _guard = h.enter();
                f()
            }
        }
    }
}
