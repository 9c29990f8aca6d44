//! The layout of a counters event (category [`Category::Counters`](crate::layout::Category::Counters)): what
//! a recorder that counts rather than records (the flight recorder's
//! messages and time slices) writes once an interval, one event per
//! scheduler. Encoding and decoding both live here.
//!
//! | kind | payload words |
//! |---|---|
//! | 0, `counters.scheduler` | scheduler (0: threads that are not schedulers), interval ns, reductions, time slices, messages, normal exits, idle ns, run-queue length |
//!
//! Every count is of the interval that ends at the event's timestamp.

/// The kind of a scheduler's counters.
pub const SCHEDULER: u16 = 0;

/// Words of a [`SchedulerCounters`] event's payload.
pub const SCHEDULER_WORDS: usize = 8;

/// One scheduler's counts over one interval.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SchedulerCounters {
    /// The scheduler, numbered from 1; 0 for the threads that are not
    /// schedulers (their messages only).
    pub scheduler: u64,
    /// How long the interval was, in nanoseconds.
    pub interval_ns: u64,
    /// Reductions executed.
    pub reductions: u64,
    /// Time slices run (a process scheduled in and out once).
    pub slices: u64,
    /// Messages that entered a mailbox.
    pub messages: u64,
    /// Processes that exited with reason `normal` (exits with any other
    /// reason are `exit` events).
    pub normal_exits: u64,
    /// Nanoseconds the scheduler slept for want of work.
    pub idle_ns: u64,
    /// Tasks in its run queue at the end.
    pub run_queue: u64,
}

impl SchedulerCounters {
    /// The payload words.
    pub fn encode(&self) -> [u64; SCHEDULER_WORDS] {
        [
            self.scheduler,
            self.interval_ns,
            self.reductions,
            self.slices,
            self.messages,
            self.normal_exits,
            self.idle_ns,
            self.run_queue,
        ]
    }

    /// Decodes a payload; `None` unless it has the layout's length.
    pub fn decode(payload: &[u64]) -> Option<SchedulerCounters> {
        let &[scheduler, interval_ns, reductions, slices, messages, normal_exits, idle_ns, run_queue] =
            payload
        else {
            return None;
        };
        Some(SchedulerCounters {
            scheduler,
            interval_ns,
            reductions,
            slices,
            messages,
            normal_exits,
            idle_ns,
            run_queue,
        })
    }

    /// The share of the interval the scheduler was busy, in percent.
    pub fn busy_percent(&self) -> u64 {
        let busy = self.interval_ns.saturating_sub(self.idle_ns);
        (busy.saturating_mul(100))
            .checked_div(self.interval_ns)
            .unwrap_or(0)
    }

    /// The text of the counts, as `beamr trace dump` shows them.
    pub fn text(&self) -> String {
        format!(
            "scheduler={} reductions={} slices={} messages={} normal_exits={} busy={}% run_queue={} interval_ms={}",
            self.scheduler,
            self.reductions,
            self.slices,
            self.messages,
            self.normal_exits,
            self.busy_percent(),
            self.run_queue,
            self.interval_ns / 1_000_000
        )
    }
}

/// The name of counters kind `kind`, as readers show it.
pub fn kind_name(kind: u16) -> String {
    match kind {
        SCHEDULER => "counters.scheduler".to_owned(),
        other => format!("counters:{other}"),
    }
}

/// The text of a counters event's payload, when its kind and length are
/// known.
pub fn text(kind: u16, payload: &[u64]) -> Option<String> {
    match kind {
        SCHEDULER => SchedulerCounters::decode(payload).map(|c| c.text()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheduler_counters_round_trip_and_read() {
        let c = SchedulerCounters {
            scheduler: 2,
            interval_ns: 100_000_000,
            reductions: 5_000,
            slices: 40,
            messages: 12,
            normal_exits: 4,
            idle_ns: 75_000_000,
            run_queue: 3,
        };
        assert_eq!(SchedulerCounters::decode(&c.encode()), Some(c));
        assert_eq!(SchedulerCounters::decode(&c.encode()[..7]), None);
        assert_eq!(c.busy_percent(), 25);
        assert_eq!(
            text(SCHEDULER, &c.encode()).unwrap(),
            "scheduler=2 reductions=5000 slices=40 messages=12 normal_exits=4 busy=25% run_queue=3 interval_ms=100"
        );
        assert_eq!(text(9, &c.encode()), None);
        assert_eq!(kind_name(SCHEDULER), "counters.scheduler");
        assert_eq!(kind_name(4), "counters:4");
        let idle_beyond = SchedulerCounters {
            idle_ns: u64::MAX,
            ..c
        };
        assert_eq!(idle_beyond.busy_percent(), 0);
        assert_eq!(SchedulerCounters::default().busy_percent(), 0);
    }
}
