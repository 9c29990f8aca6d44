//! Native objects a process controls, released when it ends: erts's
//! resource monitors (`enif_monitor_process`), with which `prim_file`
//! closes a file whose controlling process dies.

use std::sync::Arc;

/// A native object (an open file) that its controlling process's end
/// releases.
pub trait OwnedResource: Send + Sync {
    /// The controlling process has ended: release what the object holds
    /// (close the file). Called once, by the exiting process's scheduler.
    fn owner_exited(&self);
}

/// The objects one process controls, in the order it took them.
#[derive(Default)]
pub struct OwnedResources(Vec<Arc<dyn OwnedResource>>);

impl OwnedResources {
    /// Records that the process controls `resource`.
    pub fn push(&mut self, resource: Arc<dyn OwnedResource>) {
        self.0.push(resource);
    }

    /// Forgets `resource` (closed by the process itself), if it is held.
    pub fn remove(&mut self, resource: &Arc<dyn OwnedResource>) {
        self.0.retain(|r| !Arc::ptr_eq(r, resource));
    }

    /// How many objects the process controls.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the process controls nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Releases every object: the process has ended.
    pub fn release_all(&mut self) {
        for resource in self.0.drain(..) {
            resource.owner_exited();
        }
    }
}
