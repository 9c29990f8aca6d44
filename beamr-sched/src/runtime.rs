//! [`Runtime`]: what every process shares: loaded code, and the clock.

use std::time::Instant;

use crate::code::{CodePath, CodeServer};

/// The shared state of one beamr runtime.
pub struct Runtime {
    /// Loaded modules and the code path.
    pub code: CodeServer,
    /// When the runtime started (the origin of monotonic time).
    pub started: Instant,
}

impl Runtime {
    /// A runtime loading code from `path`.
    pub fn new(path: CodePath) -> Runtime {
        Runtime {
            code: CodeServer::new(path),
            started: Instant::now(),
        }
    }
}

impl Runtime {
    /// Runs `module:function(args...)` to completion in `p`, on this thread,
    /// loading code as needed. The result is in `p.x[0]` on return.
    pub fn call_in(
        &self,
        p: &mut crate::process::Process,
        module: beamr_core::atom::Atom,
        function: beamr_core::atom::Atom,
        args: &[beamr_core::term::Term],
    ) -> Result<crate::interp::Outcome, crate::loader::LoadError> {
        use std::sync::atomic::Ordering;
        self.code.ensure_loaded(module)?;
        let export = beamr_core::term::Export::intern(module, function, args.len() as u32);
        let code = export.code.load(Ordering::Acquire);
        if code == 0 {
            return Err(crate::loader::LoadError::Atom {
                module: module.name().to_string(),
                reason: format!(
                    "function {}:{}/{} is not exported",
                    module,
                    function,
                    args.len()
                ),
            });
        }
        p.prepare_call(code as *const crate::loader::Instr, args);
        loop {
            match crate::interp::run(self, p, 4000) {
                crate::interp::Outcome::Yielded => continue,
                done => return Ok(done),
            }
        }
    }
}
