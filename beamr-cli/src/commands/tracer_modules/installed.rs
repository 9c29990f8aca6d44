//! [`TracerModules`]: beamr's tracer modules, registered for one run.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_sched::trace::tracer_module;

use super::otel::OtelModule;
use super::ring::RingModule;

/// The tracer modules a run registered, to close at its end.
pub struct TracerModules {
    ring: Arc<RingModule>,
    otel: Arc<OtelModule>,
}

impl TracerModules {
    /// Registers `beamr_ring_tracer` and `beamr_otel_tracer` for a run on
    /// `schedulers` schedulers.
    pub fn install(schedulers: usize) -> TracerModules {
        let ring = Arc::new(RingModule::new(schedulers));
        let otel = Arc::new(OtelModule::default());
        let name = |n: &str| Atom::new(n).expect("a short atom name");
        tracer_module::register(name("beamr_ring_tracer"), ring.clone());
        tracer_module::register(name("beamr_otel_tracer"), otel.clone());
        TracerModules { ring, otel }
    }

    /// Closes the ring files and flushes the OpenTelemetry pipeline (the
    /// program has ended); an error says what could not be exported.
    pub fn finish(self) -> Result<(), String> {
        self.ring.close_all();
        self.otel.finish()
    }
}
