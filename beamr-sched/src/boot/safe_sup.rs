//! Kernel's `kernel_safe_sup` at boot, as `kernel:init([])` starts it: a
//! child of `kernel_sup`, OTP's own `supervisor` running `kernel:init(safe)`.
//! Servers OTP's library starts on demand go under it (`disk_log_server`
//! and `disk_log_sup` for `disk_log` and `ets:tab2file/2`, `dets_server`
//! and `dets_sup` for `dets`).
//!
//! It starts once the application controller runs (`kernel:init(safe)`
//! reads the kernel application's environment), through a process that
//! asks `kernel_sup` with `supervisor:start_child/2`, so that the
//! supervisor is linked to `kernel_sup` as on the BEAM.

use beamr_core::atom::Atom;
use beamr_core::format::PrettyOptions;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::code::CodeServer;
use crate::loader::LoadError;
use crate::runtime::Runtime;
use crate::sched::{SpawnOptions, SpawnTarget};

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

impl Runtime {
    /// Starts `kernel_safe_sup` under `kernel_sup` when OTP's `kernel`
    /// module is on the code path, and returns once it runs.
    pub(super) fn start_kernel_safe_sup(&self, options: SpawnOptions) -> Result<(), LoadError> {
        let kernel = Atom::new("kernel").expect("atom");
        if CodeServer::global().find(kernel).is_none() {
            return Ok(());
        }
        // {kernel_safe_sup, {supervisor, start_link,
        //   [{local, kernel_safe_sup}, kernel, safe]},
        //  permanent, infinity, supervisor, [kernel]}
        let mut heap = Heap::new();
        let local = heap.tuple(&[atom("local"), atom("kernel_safe_sup")]);
        let args = heap.list(&[local, Term::atom(kernel), atom("safe")]);
        let start = heap.tuple(&[atom("supervisor"), atom("start_link"), args]);
        let modules = heap.list(&[Term::atom(kernel)]);
        let spec = heap.tuple(&[
            atom("kernel_safe_sup"),
            start,
            atom("permanent"),
            atom("infinity"),
            atom("supervisor"),
            modules,
        ]);
        let options = SpawnOptions {
            watched: true,
            ..options
        };
        let failed = |reason: String| LoadError::Atom {
            module: "kernel".to_string(),
            reason: format!("starting kernel_safe_sup failed: {reason}"),
        };
        let (pid, _) = self
            .spawn(
                None,
                SpawnTarget::Mfa(
                    Atom::new("supervisor").expect("atom"),
                    Atom::new("start_child").expect("atom"),
                ),
                &[atom("kernel_sup"), spec],
                options,
            )
            .map_err(|_| failed("cannot spawn".into()))?;
        let reason = self.wait_exit(pid);
        if reason.term == Term::atom(Atom::NORMAL) {
            Ok(())
        } else {
            let text = beamr_core::format::format_p(reason.term, &PrettyOptions::default());
            Err(failed(text))
        }
    }
}
