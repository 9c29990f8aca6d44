//! The clients' trace sessions that are running, so that a `TraceStop`
//! from another client can end them all (`beamr ctl PID trace stop`). A
//! session's server loop registers its stop flag ([`register`]) and reads
//! it between events; the returned [`Registered`] unregisters it when
//! dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

static RUNNING: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());

/// A registered stop flag; dropping it unregisters it.
pub struct Registered {
    flag: Arc<AtomicBool>,
}

impl Registered {
    /// True once a `TraceStop` asked this session to end.
    pub fn stop_asked(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|f| !Arc::ptr_eq(f, &self.flag));
    }
}

/// Registers a running session.
pub fn register() -> Registered {
    let flag = Arc::new(AtomicBool::new(false));
    RUNNING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(flag.clone());
    Registered { flag }
}

/// Asks every running session to end; how many there are.
pub fn stop_all() -> u64 {
    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    for flag in running.iter() {
        flag.store(true, Ordering::Release);
    }
    running.len() as u64
}
