//! [`TraceFlags`]: the flags of `erlang:trace/3`, one bit each.
//!
//! A process's trace-flag word in beamr-sched is one of these, set by
//! `erlang:trace/3` and `beamr run --trace`. The descriptions below say
//! what each flag means on the BEAM; not every flag has its probes yet
//! (see beamr-sched's `trace` module).
//!
//! `{tracer, ...}` is not a flag here: which tracer receives the events is
//! to be the business of trace sessions (planned; none exist yet), not a
//! bit. The bit positions are beamr's own and may be stored; they never
//! change.

use bitflags::bitflags;

bitflags! {
    /// Flags of `erlang:trace/3` (and of `erlang:trace_info/2`'s `flags`).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct TraceFlags: u32 {
        /// `send`: trace messages the tracee sends.
        const SEND = 1 << 0;
        /// `'receive'`: trace messages the tracee receives.
        const RECEIVE = 1 << 1;
        /// `procs`: spawn, exit, link, unlink, register, unregister.
        const PROCS = 1 << 2;
        /// `ports`: open, closed, link and unlink of ports.
        const PORTS = 1 << 3;
        /// `call`: calls of functions with a trace pattern.
        const CALL = 1 << 4;
        /// `arity`: report `{M, F, Arity}` instead of `{M, F, Args}`.
        const ARITY = 1 << 5;
        /// `return_to`: with `call`, trace returns to a traced function.
        const RETURN_TO = 1 << 6;
        /// `silent`: with `call`, trace calls but send no messages unless a
        /// match specification says so.
        const SILENT = 1 << 7;
        /// `running`: scheduling of processes (`in`, `out`).
        const RUNNING = 1 << 8;
        /// `exiting`: scheduling of exiting processes (`in_exiting`, ...).
        const EXITING = 1 << 9;
        /// `running_procs`: as `running`, also when the process exits.
        const RUNNING_PROCS = 1 << 10;
        /// `running_ports`: scheduling of ports.
        const RUNNING_PORTS = 1 << 11;
        /// `garbage_collection`: `gc_minor_start` ... `gc_major_end`.
        const GARBAGE_COLLECTION = 1 << 12;
        /// `timestamp`: a wall-clock timestamp in each trace message.
        const TIMESTAMP = 1 << 13;
        /// `cpu_timestamp`: a CPU-time timestamp.
        const CPU_TIMESTAMP = 1 << 14;
        /// `monotonic_timestamp`: an Erlang monotonic timestamp.
        const MONOTONIC_TIMESTAMP = 1 << 15;
        /// `strict_monotonic_timestamp`: monotonic time and a unique integer.
        const STRICT_MONOTONIC_TIMESTAMP = 1 << 16;
        /// `scheduler_id`: the scheduler id in each trace message.
        const SCHEDULER_ID = 1 << 17;
        /// `set_on_spawn`: processes the tracee spawns inherit its flags.
        const SET_ON_SPAWN = 1 << 18;
        /// `set_on_first_spawn`: the first process spawned inherits the flags.
        const SET_ON_FIRST_SPAWN = 1 << 19;
        /// `set_on_link`: processes the tracee links to inherit its flags.
        const SET_ON_LINK = 1 << 20;
        /// `set_on_first_link`: the first process linked inherits the flags.
        const SET_ON_FIRST_LINK = 1 << 21;
    }
}

/// Atom names of the flags, in bit order (what `erlang:trace/3` accepts).
const NAMES: &[(&str, TraceFlags)] = &[
    ("send", TraceFlags::SEND),
    ("receive", TraceFlags::RECEIVE),
    ("procs", TraceFlags::PROCS),
    ("ports", TraceFlags::PORTS),
    ("call", TraceFlags::CALL),
    ("arity", TraceFlags::ARITY),
    ("return_to", TraceFlags::RETURN_TO),
    ("silent", TraceFlags::SILENT),
    ("running", TraceFlags::RUNNING),
    ("exiting", TraceFlags::EXITING),
    ("running_procs", TraceFlags::RUNNING_PROCS),
    ("running_ports", TraceFlags::RUNNING_PORTS),
    ("garbage_collection", TraceFlags::GARBAGE_COLLECTION),
    ("timestamp", TraceFlags::TIMESTAMP),
    ("cpu_timestamp", TraceFlags::CPU_TIMESTAMP),
    ("monotonic_timestamp", TraceFlags::MONOTONIC_TIMESTAMP),
    (
        "strict_monotonic_timestamp",
        TraceFlags::STRICT_MONOTONIC_TIMESTAMP,
    ),
    ("scheduler_id", TraceFlags::SCHEDULER_ID),
    ("set_on_spawn", TraceFlags::SET_ON_SPAWN),
    ("set_on_first_spawn", TraceFlags::SET_ON_FIRST_SPAWN),
    ("set_on_link", TraceFlags::SET_ON_LINK),
    ("set_on_first_link", TraceFlags::SET_ON_FIRST_LINK),
];

impl TraceFlags {
    /// What the flag `all` sets: every flag but `cpu_timestamp` (as OTP 25's
    /// `erlang:trace(Pid, true, [all])` reports in `trace_info/2`).
    pub const ALL_ATOM: TraceFlags = TraceFlags::all().difference(TraceFlags::CPU_TIMESTAMP);

    /// The flag named by an atom of `erlang:trace/3` (`"send"`, `"procs"`,
    /// `"all"`, ...), if it is one.
    pub fn from_atom_name(name: &str) -> Option<TraceFlags> {
        if name == "all" {
            return Some(TraceFlags::ALL_ATOM);
        }
        NAMES.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
    }

    /// The atom names of the flags set, in bit order.
    pub fn atom_names(self) -> impl Iterator<Item = &'static str> {
        NAMES
            .iter()
            .filter(move |(_, f)| self.contains(*f))
            .map(|&(n, _)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_has_a_name_and_round_trips() {
        assert_eq!(NAMES.len(), TraceFlags::all().iter().count());
        for &(name, flag) in NAMES {
            assert_eq!(flag.bits().count_ones(), 1);
            assert_eq!(TraceFlags::from_atom_name(name), Some(flag));
            assert_eq!(flag.atom_names().collect::<Vec<_>>(), vec![name]);
        }
        assert_eq!(TraceFlags::from_atom_name("tracer"), None);
    }

    #[test]
    fn all_leaves_out_cpu_timestamp() {
        let all = TraceFlags::from_atom_name("all").unwrap();
        assert!(!all.contains(TraceFlags::CPU_TIMESTAMP));
        assert!(all.contains(TraceFlags::SEND | TraceFlags::SET_ON_FIRST_LINK));
        assert_eq!(all.atom_names().count(), NAMES.len() - 1);
    }
}
