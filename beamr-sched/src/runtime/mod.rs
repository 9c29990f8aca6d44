//! The state one runtime shares between its processes and threads.
//!
//! - [`shared_state`]: [`Runtime`], the tables (processes, names, aliases,
//!   run queues, timers, ETS).
//! - [`port_table`]: [`PortTable`], the live ports and their state.
//! - [`pending_output`]: what ports' writer threads have yet to write,
//!   which the runtime waits for before it exits.
//! - [`run_queue`]: where runnable processes wait for a scheduler.
//! - [`timer_service`]: the thread that fires timers.
//! - [`stats`]: [`RuntimeStats`], a snapshot of the runtime for metrics.
//! - [`at_halt`]: work an embedder runs when the runtime halts.

pub mod at_halt;
pub mod pending_output;
mod port_table;
mod run_queue;
mod shared_state;
pub(crate) mod sleepers;
mod stats;
mod timer_service;
mod wake_other;

pub use port_table::{
    Port, PortData, PortDriver, PortLimitReached, PortSink, PortState, PortTable, Sent,
    DEFAULT_PORT_LIMIT,
};
pub use run_queue::{RunQueues, SLICE_REDUCTIONS};
pub use shared_state::{AliasMode, Runtime};
pub use stats::{RuntimeStats, SchedulerSnapshot};
pub use timer_service::{TimerAction, TimerService};

/// The size erts gives a process or port table asked to hold `requested`
/// entries (`+P`, `+Q`): a power of two, at least 1024, at most
/// 134,217,727 (what `system_info(process_limit)` and
/// `system_info(port_limit)` answer).
pub fn erts_table_size(requested: usize) -> usize {
    requested
        .max(1024)
        .checked_next_power_of_two()
        .map_or(ERTS_TABLE_MAX, |n| n.min(ERTS_TABLE_MAX))
}

/// The most entries an erts process or port table may have.
const ERTS_TABLE_MAX: usize = 134_217_727;

#[cfg(test)]
mod tests {
    use super::erts_table_size;

    #[test]
    fn table_sizes_round_as_erts_rounds_them() {
        // What erl 25 answers for +Q and +P of each.
        for (requested, size) in [
            (1024, 1024),
            (2000, 2048),
            (5000, 8192),
            (65_536, 65_536),
            (67_108_865, 134_217_727),
            (134_217_727, 134_217_727),
            (0, 1024),
            (usize::MAX, 134_217_727),
        ] {
            assert_eq!(erts_table_size(requested), size, "{requested}");
        }
    }
}
