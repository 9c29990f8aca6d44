//! Batching export of spans and log records on threads of their own.
//!
//! - [`queue`]: a bounded queue and the thread that drains it in batches;
//!   pushing never blocks, what does not fit is dropped and counted.
//! - [`spans`]: the SDK `SpanProcessor` over a queue.
//! - [`logs`]: the SDK `LogProcessor` over a queue.
//! - [`metrics`]: a metric exporter that runs on the pipeline's [`Exec`](crate::exec::Exec).

pub(crate) mod logs;
pub(crate) mod metrics;
pub(crate) mod queue;
pub(crate) mod spans;

pub use queue::QueueStats;
