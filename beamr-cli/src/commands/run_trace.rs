//! `beamr run --trace FLAGS --trace-to DEST`: tracing a whole run.
//!
//! FLAGS are `erlang:trace/3`'s flag names, comma-separated (`send,receive,procs`,
//! `all`); every process of the run is traced with them, as
//! `erlang:trace(new, true, Flags)` before the first process starts would.
//! DEST is where the events go: `ring:FILE`, a ring-buffer trace file (one
//! ring per scheduler and one for other threads) that `beamr trace` reads.

use std::path::PathBuf;
use std::sync::Arc;

use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::ProcessTrace;
use beamr_trace::TraceFlags;

/// A parsed `--trace`/`--trace-to` pair.
#[derive(Debug, PartialEq, Eq)]
pub struct TraceSetup {
    /// The flags every process is traced with.
    pub flags: TraceFlags,
    /// Where the events go.
    pub destination: Destination,
}

/// Where a traced run's events go.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// A ring-buffer trace file.
    Ring(PathBuf),
}

impl TraceSetup {
    /// Parses the two options; `None` when neither is given.
    pub fn parse(flags: Option<&str>, to: Option<&str>) -> Result<Option<TraceSetup>, String> {
        let (flags, to) = match (flags, to) {
            (None, None) => return Ok(None),
            (Some(_), None) => return Err("--trace needs --trace-to ring:FILE".into()),
            (None, Some(_)) => return Err("--trace-to needs --trace FLAGS".into()),
            (Some(f), Some(t)) => (f, t),
        };
        let mut set = TraceFlags::empty();
        for name in flags.split(',').map(str::trim) {
            let name = name.trim_matches('\'');
            set |= TraceFlags::from_atom_name(name).ok_or_else(|| {
                format!("--trace: unknown trace flag `{name}` (erlang:trace/3's names, comma-separated, e.g. send,receive,procs)")
            })?;
        }
        let destination = match to.split_once(':') {
            Some(("ring", file)) if !file.is_empty() => Destination::Ring(PathBuf::from(file)),
            Some(("ring", _)) => {
                return Err("--trace-to ring: needs a file name (ring:FILE)".into())
            }
            _ if to == "text" || to == "otel" => {
                return Err(format!(
                    "--trace-to {to}: not implemented yet (only ring:FILE is)"
                ))
            }
            _ => return Err(format!("--trace-to `{to}`: expected ring:FILE")),
        };
        Ok(Some(TraceSetup {
            flags: set,
            destination,
        }))
    }

    /// Creates the destination and makes `rt` trace every new process with
    /// the flags. The returned tracer must outlive the run.
    pub fn install(&self, rt: &Runtime, schedulers: usize) -> Result<Arc<RingTracer>, String> {
        let Destination::Ring(path) = &self.destination;
        let options = Options::new(schedulers + 1).path(path).preserve(true);
        let recorder = Recorder::create(options)
            .map_err(|e| format!("--trace-to ring:{}: {e}", path.display()))?;
        let tracer = Arc::new(RingTracer::new(recorder));
        rt.trace
            .set_new_processes(ProcessTrace::new(self.flags, tracer.clone()));
        Ok(tracer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_a_ring_file_parse() {
        let s = TraceSetup::parse(Some("send,'receive',procs"), Some("ring:/tmp/x.trace"))
            .unwrap()
            .unwrap();
        assert_eq!(
            s.flags,
            TraceFlags::SEND | TraceFlags::RECEIVE | TraceFlags::PROCS
        );
        assert_eq!(s.destination, Destination::Ring("/tmp/x.trace".into()));
        assert_eq!(TraceSetup::parse(None, None).unwrap(), None);
    }

    #[test]
    fn bad_options_name_what_is_wrong() {
        let err = |f, t| TraceSetup::parse(f, t).unwrap_err();
        assert!(err(Some("send,bogus"), Some("ring:x")).contains("unknown trace flag `bogus`"));
        assert!(err(Some("send"), None).contains("--trace-to"));
        assert!(err(None, Some("ring:x")).contains("--trace FLAGS"));
        assert!(err(Some("send"), Some("ring:")).contains("file name"));
        assert!(err(Some("send"), Some("text")).contains("not implemented"));
        assert!(err(Some("send"), Some("file:x")).contains("expected ring:FILE"));
    }
}
