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
use crate::trace::call_patterns::{self, LoadedCode, TracedModule};

#[derive(Default)]
struct Versions {
    current: Option<Arc<Module>>,
    old: Option<Arc<Module>>,
    /// Where the current version came from.
    origin: Option<Arc<Origin>>,
}

/// Where a loaded module version came from: what `code:is_loaded/1` reports
/// and what `module_info` reads its attributes from.
pub struct Origin {
    /// The file name given when loading (a path, or what `load_binary` was told).
    pub file: String,
    /// The `.beam` file's bytes.
    pub bytes: Arc<[u8]>,
}

/// Why [`CodeServer::load_checked`] did not load a module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadFailure {
    /// Not a valid `.beam` file, or one of another module.
    Badfile(BadfileCause),
    /// The module has old code that must be purged first.
    NotPurged,
}

/// Why a binary is not a loadable module, as far as erts's loader tells
/// it in its log ("Error loading module M: ...").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadfileCause {
    /// Not an IFF `BEAM` form, or its chunks run past its end: "corrupt
    /// file header".
    Header,
    /// A well-formed container without a `Code` chunk: "missing code chunk".
    NoCode,
    /// The code of another module: "module name in object code is M".
    OtherModule(Atom),
    /// Anything else beamr's parser or loader refuses.
    Invalid,
}

/// What [`CodeServer::delete`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// The current version became old.
    Deleted,
    /// The module has no current version.
    NotLoaded,
    /// The module already has old code.
    OldExists,
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
    /// Every version ever loaded, kept alive for the runtime's life, in
    /// the order of their code's addresses (so that [`Self::module_at`],
    /// which every stack trace calls for each frame, is a binary search).
    all: RwLock<Vec<Arc<Module>>>,
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
            all: RwLock::new(Vec::new()),
            path: RwLock::new(path),
            loading: Mutex::new(()),
        }
    }

    /// Loads a module from the bytes of a `.beam` file, making it current.
    pub fn load_binary(&self, bytes: &[u8]) -> Result<Atom, LoadError> {
        self.load_from(bytes, "in_memory".to_string())
    }

    /// Loads a module from the bytes of a `.beam` file read from `file`.
    pub fn load_from(&self, bytes: &[u8], file: String) -> Result<Atom, LoadError> {
        let parsed = BeamFile::parse(bytes)?;
        let module = Arc::new(loader::load(&parsed, super::resolve::natives())?);
        let origin = Arc::new(Origin {
            file,
            bytes: bytes.into(),
        });
        Ok(self.install(module, origin))
    }

    /// Loads `bytes` as module `expected` (`erlang:load_module/2`): fails
    /// with [`LoadFailure::Badfile`] if they are not a valid `.beam` file of
    /// that module, and with [`LoadFailure::NotPurged`] if the module has
    /// old code.
    pub fn load_checked(
        &self,
        expected: Atom,
        bytes: &[u8],
        file: String,
    ) -> Result<Atom, LoadFailure> {
        let badfile = LoadFailure::Badfile;
        match beamr_core::beam::split_chunks(bytes) {
            Err(_) => return Err(badfile(BadfileCause::Header)),
            Ok(chunks) if !chunks.iter().any(|c| &c.id.0 == b"Code") => {
                return Err(badfile(BadfileCause::NoCode))
            }
            Ok(_) => {}
        }
        let parsed = BeamFile::parse(bytes).map_err(|_| badfile(BadfileCause::Invalid))?;
        let module = loader::load(&parsed, super::resolve::natives())
            .map_err(|_| badfile(BadfileCause::Invalid))?;
        if module.name != expected {
            return Err(badfile(BadfileCause::OtherModule(module.name)));
        }
        let _guard = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if self.has_old(expected) {
            return Err(LoadFailure::NotPurged);
        }
        let origin = Arc::new(Origin {
            file,
            bytes: bytes.into(),
        });
        Ok(self.install(Arc::new(module), origin))
    }

    /// Makes the current version of `module` old (`erlang:delete_module/1`):
    /// its exports become undefined.
    pub fn delete(&self, module: Atom) -> DeleteOutcome {
        let mut modules = self.modules.write().unwrap_or_else(|e| e.into_inner());
        let Some(versions) = modules.get_mut(&module) else {
            return DeleteOutcome::NotLoaded;
        };
        if versions.old.is_some() {
            return DeleteOutcome::OldExists;
        }
        let Some(current) = versions.current.take() else {
            return DeleteOutcome::NotLoaded;
        };
        for &(f, a, _) in &current.exports {
            Export::intern(module, f, a)
                .code
                .store(0, Ordering::Release);
        }
        declare_records(Some(&current), None);
        versions.old = Some(current);
        versions.origin = None;
        DeleteOutcome::Deleted
    }

    /// The old version of `module`, if any.
    pub fn old(&self, module: Atom) -> Option<Arc<Module>> {
        self.modules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&module)?
            .old
            .clone()
    }

    /// Where the current version of `module` came from.
    pub fn origin(&self, module: Atom) -> Option<Arc<Origin>> {
        self.modules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&module)?
            .origin
            .clone()
    }

    /// Bytes of loaded code: every version ever loaded (none is freed),
    /// and the `.beam` files the current versions came from.
    pub fn memory_bytes(&self) -> usize {
        let versions: usize = self
            .all
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|m| m.memory_bytes())
            .sum();
        let files: usize = self
            .modules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter_map(|v| v.origin.as_ref())
            .map(|o| o.bytes.len() + o.file.capacity())
            .sum();
        versions + files
    }

    /// Every module with a current version, and where it came from.
    pub fn loaded(&self) -> Vec<(Atom, Arc<Origin>)> {
        let modules = self.modules.read().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<(Atom, Arc<Origin>)> = modules
            .iter()
            .filter_map(|(&m, v)| Some((m, v.origin.clone()?)))
            .collect();
        v.sort_by_key(|(m, _)| m.name());
        v
    }

    /// The first `MODULE.beam` on the code path.
    pub fn find(&self, module: Atom) -> Option<std::path::PathBuf> {
        self.path
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .find(module.name())
    }

    /// The code path's directories, in search order.
    pub fn path_dirs(&self) -> Vec<std::path::PathBuf> {
        self.path
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .dirs()
            .to_vec()
    }

    /// Adds a directory to the front of the code path.
    pub fn add_path_front(&self, dir: impl Into<std::path::PathBuf>) {
        let mut path = self.path.write().unwrap_or_else(|e| e.into_inner());
        let mut new = CodePath::new();
        new.push(dir);
        for d in path.dirs() {
            new.push(d.clone());
        }
        *path = new;
    }

    fn install(&self, module: Arc<Module>, origin: Arc<Origin>) -> Atom {
        let name = module.name;
        {
            let mut all = self.all.write().unwrap_or_else(|e| e.into_inner());
            let at = all.partition_point(|m| code_start(m) < code_start(&module));
            all.insert(at, module.clone());
        }
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
        module.publish_funs();
        declare_records(versions.current.as_deref(), Some(&module));
        // After a delete, the deleted version stays the old one.
        if versions.current.is_some() {
            versions.old = versions.current.take();
        }
        versions.current = Some(module);
        versions.origin = Some(origin);
        drop(modules);
        call_patterns::module_loaded(self, name);
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
        self.load_from(&bytes, path.display().to_string())
            .map(LoadOutcome::Loaded)
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

    /// `{Module, Function, Arity}` of the function whose code contains `ip`.
    pub fn function_at(&self, ip: *const Instr) -> Option<(Atom, Atom, u32)> {
        let module = self.module_at(ip)?;
        let f = module.function_at(module.index_of(ip))?;
        Some((module.name, f.name, f.arity))
    }

    /// The module version whose code contains `ip`.
    pub fn module_at(&self, ip: *const Instr) -> Option<Arc<Module>> {
        let all = self.all.read().unwrap_or_else(|e| e.into_inner());
        // The last module whose code starts at or before `ip`: the only
        // one that can hold it, since no two modules' code overlaps.
        let after = all.partition_point(|m| code_start(m) <= ip as usize);
        let module = all.get(after.checked_sub(1)?)?;
        module.contains(ip).then(|| module.clone())
    }

    /// Removes the first directory of the code path that is `name` or
    /// holds application `name` (`.../NAME[-VSN][/ebin]`), as OTP's code
    /// server's `del_path` does; false when none is.
    pub fn del_path(&self, name: &str) -> bool {
        let mut path = self.path.write().unwrap_or_else(|e| e.into_inner());
        let name = name.trim_end_matches('/');
        let dirs = path.dirs();
        let Some(at) = dirs.iter().position(|d| {
            let text = d.to_string_lossy();
            text.trim_end_matches('/') == name || app_name(d).is_some_and(|app| app == name)
        }) else {
            return false;
        };
        let mut new = CodePath::new();
        for (i, d) in dirs.iter().enumerate() {
            if i != at {
                new.push(d.clone());
            }
        }
        *path = new;
        true
    }

    /// Adds a directory to the end of the code path.
    pub fn add_path(&self, dir: impl Into<std::path::PathBuf>) {
        self.path
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(dir);
    }
}

/// The application a code path directory holds, as OTP's code server
/// names it: the directory's name (its parent's, for an `ebin`), without
/// a `-VSN` suffix.
fn app_name(dir: &std::path::Path) -> Option<&str> {
    let last = dir.file_name()?.to_str()?;
    let named = if last == "ebin" {
        dir.parent()?.file_name()?.to_str()?
    } else {
        last
    };
    Some(named.rsplit_once('-').map_or(named, |(app, _)| app))
}

/// Makes the native records `new` declares the canonical ones of their
/// module (what `records:create/4` and `binary_to_term/1` resolve to), and
/// forgets those of `previous` that `new` no longer declares.
fn declare_records(previous: Option<&Module>, new: Option<&Module>) {
    use beamr_core::term::RecordDef;
    for r in previous.map_or(&[][..], |m| &m.records[..]) {
        if new.is_none_or(|n| n.record(r.def.name).is_none()) {
            RecordDef::declare(r.def.module, r.def.name, None);
        }
    }
    for r in new.map_or(&[][..], |m| &m.records[..]) {
        RecordDef::declare(r.def.module, r.def.name, Some(r.def));
    }
}

/// True if `p` runs code of `module`: its next instruction, its return
/// address, or a return address saved on its stack points into it
/// (`erlang:check_process_code/2`).
pub fn runs_code(p: &crate::process::Process, module: &Module) -> bool {
    module.contains(p.ip.cast())
        || module.contains(p.cp.cast())
        || p.stack
            .iter()
            .filter_map(|w| w.as_code_pointer())
            .any(|ra| module.contains(ra.cast()))
}

/// Where `module`'s code starts in memory: the order of
/// [`CodeServer::module_at`]'s search.
fn code_start(module: &Module) -> usize {
    module.code.as_ptr() as usize
}

/// The code server as the call pattern table sees it.
impl LoadedCode for CodeServer {
    fn current_module(&self, module: Atom) -> Option<Arc<dyn TracedModule>> {
        self.current(module).map(|m| m as Arc<dyn TracedModule>)
    }

    fn loaded_modules(&self) -> Vec<Atom> {
        self.loaded().into_iter().map(|(m, _)| m).collect()
    }
}
