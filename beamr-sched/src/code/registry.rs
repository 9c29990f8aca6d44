//! [`CodeServer`]: the table of loaded modules.
//!
//! There is one code server per OS process ([`CodeServer::global`]), as
//! export and fun entries (which hold code addresses) are global too: every
//! runtime in the process shares loaded code, as a BEAM node's processes do.
//!
//! Loading makes the new version current and the previous one old, and
//! points every export entry at the new code. Old code keeps running in the
//! processes that are inside it; purging drops the old version from the
//! table. Code memory is never freed while the runtime lives (instruction
//! addresses are code pointers), so a purge cannot leave a process pointing
//! at freed code.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, RwLock};

use beamr_core::atom::Atom;
use beamr_core::beam::BeamFile;
use beamr_core::term::Export;

use super::path::CodePath;
use crate::loader::{self, Instr, LoadError, Module};

#[derive(Default)]
struct Versions {
    current: Option<Arc<Module>>,
    old: Option<Arc<Module>>,
}

/// What loading a module did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadOutcome {
    /// The module was loaded.
    Loaded(Atom),
    /// No such module on the code path.
    NotFound,
}

/// The loaded modules and the code path.
pub struct CodeServer {
    modules: RwLock<HashMap<Atom, Versions>>,
    /// Every version ever loaded, kept alive for the runtime's life.
    all: Mutex<Vec<Arc<Module>>>,
    path: RwLock<CodePath>,
    /// Serialises loads from the code path so a module is loaded once.
    loading: Mutex<()>,
}

static GLOBAL: std::sync::LazyLock<CodeServer> =
    std::sync::LazyLock::new(|| CodeServer::new(CodePath::new()));

impl CodeServer {
    /// The process-wide code server.
    pub fn global() -> &'static CodeServer {
        &GLOBAL
    }

    /// A code server searching `path`.
    pub fn new(path: CodePath) -> CodeServer {
        CodeServer {
            modules: RwLock::new(HashMap::new()),
            all: Mutex::new(Vec::new()),
            path: RwLock::new(path),
            loading: Mutex::new(()),
        }
    }

    /// Loads a module from the bytes of a `.beam` file, making it current.
    pub fn load_binary(&self, bytes: &[u8]) -> Result<Atom, LoadError> {
        let file = BeamFile::parse(bytes)?;
        let module = Arc::new(loader::load(&file)?);
        Ok(self.install(module))
    }

    fn install(&self, module: Arc<Module>) -> Atom {
        let name = module.name;
        self.all
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(module.clone());
        let mut modules = self.modules.write().unwrap_or_else(|e| e.into_inner());
        let versions = modules.entry(name).or_default();
        // Exports of the previous version that the new one lacks become undefined.
        if let Some(previous) = &versions.current {
            for &(f, a, _) in &previous.exports {
                Export::intern(name, f, a).code.store(0, Ordering::Release);
            }
        }
        for &(f, a, index) in &module.exports {
            let address = &module.code[index] as *const Instr as usize;
            Export::intern(name, f, a)
                .code
                .store(address, Ordering::Release);
        }
        versions.old = versions.current.take();
        versions.current = Some(module);
        name
    }

    /// Loads `module` from the code path unless it is loaded already.
    pub fn ensure_loaded(&self, module: Atom) -> Result<LoadOutcome, LoadError> {
        if self.current(module).is_some() {
            return Ok(LoadOutcome::Loaded(module));
        }
        let _guard = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if self.current(module).is_some() {
            return Ok(LoadOutcome::Loaded(module));
        }
        let found = self
            .path
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .find(module.name());
        let Some(path) = found else {
            return match super::embedded::fallback(module.name()) {
                Some(bytes) => self.load_binary(bytes).map(LoadOutcome::Loaded),
                None => Ok(LoadOutcome::NotFound),
            };
        };
        let bytes = std::fs::read(&path).map_err(|e| LoadError::Atom {
            module: module.name().to_string(),
            reason: format!("cannot read {}: {e}", path.display()),
        })?;
        self.load_binary(&bytes).map(LoadOutcome::Loaded)
    }

    /// The current version of `module`.
    pub fn current(&self, module: Atom) -> Option<Arc<Module>> {
        self.modules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&module)?
            .current
            .clone()
    }

    /// True if `module` has an old version.
    pub fn has_old(&self, module: Atom) -> bool {
        self.modules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&module)
            .is_some_and(|v| v.old.is_some())
    }

    /// Drops the old version of `module`; true if there was one.
    pub fn purge(&self, module: Atom) -> bool {
        let mut modules = self.modules.write().unwrap_or_else(|e| e.into_inner());
        modules
            .get_mut(&module)
            .and_then(|v| v.old.take())
            .is_some()
    }

    /// The module version whose code contains `ip`.
    pub fn module_at(&self, ip: *const Instr) -> Option<Arc<Module>> {
        let all = self.all.lock().unwrap_or_else(|e| e.into_inner());
        all.iter().find(|m| m.contains(ip)).cloned()
    }

    /// Adds a directory to the end of the code path.
    pub fn add_path(&self, dir: impl Into<std::path::PathBuf>) {
        self.path
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(dir);
    }
}
