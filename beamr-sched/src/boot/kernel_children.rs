//! Kernel's servers that `kernel:init([])` starts under `kernel_sup` (in its
//! order: `inet_db` first) and
//! that beamr's boot starts the same way, once the application controller
//! runs (they read the kernel application's environment), through a
//! process that asks `kernel_sup` with `supervisor:start_child/2`
//! (`beamr_kernel_sup:start_child/1`, which fails the boot with the reason
//! when a server does not start), so that each is linked to `kernel_sup`
//! as on the BEAM:
//!
//! - `kernel_safe_sup`, OTP's own `supervisor` running `kernel:init(safe)`:
//!   servers OTP's library starts on demand go under it (`disk_log_server`
//!   and `disk_log_sup` for `disk_log` and `ets:tab2file/2`, `dets_server`
//!   and `dets_sup` for `dets`, `inet_gethost_native_sup` for host names);
//! - `inet_db`, the table of host names and resolver settings that `inet`
//!   and `gen_tcp` read (its start reads the resolver configuration and
//!   the host's name, through the `udp_inet` driver);
//! - `erl_signal_server`, the `gen_event` manager the runtime tells of the
//!   OS signals it handles (`boot::os_signals`), with kernel's
//!   `erl_signal_handler` added as `kernel:start/2` adds it;
//! - `rex` (`rpc`'s server) and `global_name_server` (`global`), then
//!   `net_sup` (`erl_distribution`: `erl_epmd`, `auth`, `net_kernel`) when
//!   the command line has `-sname` or `-name`, then `global_group`: the
//!   children of kernel's `start_distribution/0`, which every node starts
//!   unless kernel's `start_distribution` is `false`.

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

/// A child of `kernel_sup`: `{Id, {Module, Function, Args}, permanent,
/// Shutdown, Type, [Module]}` where Args are atoms (a `{local, Name}`
/// first when `local` is given).
struct Child<'a> {
    id: &'a str,
    module: &'a str,
    function: &'a str,
    local: Option<&'a str>,
    args: &'a [&'a str],
    shutdown: Term,
    kind: &'a str,
    /// The module that must be on the code path for the child to start:
    /// the one the spec names in its module list, unless `dynamic`.
    callback: &'a str,
    /// The spec's module list is `dynamic` (a `gen_event` manager).
    dynamic: bool,
}

/// A permanent worker of `kernel_sup` started by `module:start_link()`
/// and shut down within 2000 ms, as kernel's specs for `rex`,
/// `global_name_server` and `global_group` say.
fn kernel_worker<'a>(id: &'a str, module: &'a str) -> Child<'a> {
    Child {
        id,
        module,
        function: "start_link",
        local: None,
        args: &[],
        shutdown: Term::small_unchecked(2000),
        kind: "worker",
        callback: module,
        dynamic: false,
    }
}

impl Runtime {
    /// Starts `inet_db` and then `kernel_safe_sup` under `kernel_sup`
    /// (kernel's order: the host name lookup `inet_db` makes as it starts
    /// finds no `kernel_safe_sup` yet and runs its resolver once, outside
    /// any supervisor) when OTP's modules are on the code path, and
    /// returns once they run.
    pub(super) fn start_kernel_children(&self, options: SpawnOptions) -> Result<(), LoadError> {
        // {inet_db, {inet_db, start_link, []}, permanent, 2000, worker,
        //  [inet_db]}
        self.start_kernel_child(
            &Child {
                id: "inet_db",
                module: "inet_db",
                function: "start_link",
                local: None,
                args: &[],
                shutdown: Term::small_unchecked(2000),
                kind: "worker",
                callback: "inet_db",
                dynamic: false,
            },
            options,
        )?;
        // {kernel_safe_sup, {supervisor, start_link,
        //   [{local, kernel_safe_sup}, kernel, safe]},
        //  permanent, infinity, supervisor, [kernel]}
        self.start_kernel_child(
            &Child {
                id: "kernel_safe_sup",
                module: "supervisor",
                function: "start_link",
                local: Some("kernel_safe_sup"),
                args: &["kernel", "safe"],
                shutdown: atom("infinity"),
                kind: "supervisor",
                callback: "kernel",
                dynamic: false,
            },
            options,
        )?;
        // {erl_signal_server, {gen_event, start_link,
        //   [{local, erl_signal_server}]}, permanent, 2000, worker, dynamic},
        // then, as kernel:start/2 does, erl_signal_handler:start() adds the
        // handler that turns a SIGTERM into init:stop().
        self.start_kernel_child(
            &Child {
                id: "erl_signal_server",
                module: "gen_event",
                function: "start_link",
                local: Some("erl_signal_server"),
                args: &[],
                shutdown: Term::small_unchecked(2000),
                kind: "worker",
                callback: "erl_signal_handler",
                dynamic: true,
            },
            options,
        )?;
        self.run_kernel_function("erl_signal_handler", "start", options)?;
        // Kernel's distribution children (kernel:start_distribution/0,
        // started on every node unless start_distribution is false):
        // {rex, {rpc, start_link, []}, permanent, 2000, worker, [rpc]} and
        // {global_name_server, {global, start_link, []}, ...}, then net_sup
        // and global_group.
        let start_distribution = self.kernel_env_is_not_false("start_distribution");
        if start_distribution {
            self.start_kernel_child(&kernel_worker("rex", "rpc"), options)?;
            self.start_kernel_child(&kernel_worker("global_name_server", "global"), options)?;
        }
        // With -sname or -name, kernel starts distribution:
        // {net_sup, {erl_distribution, start_link, []}, permanent,
        //  infinity, supervisor, [erl_distribution]} (erl_distribution reads
        // the name, -setcookie and -hidden with init:get_argument/1).
        if self.distribution_requested() {
            self.start_kernel_child(
                &Child {
                    id: "net_sup",
                    module: "erl_distribution",
                    function: "start_link",
                    local: None,
                    args: &[],
                    shutdown: atom("infinity"),
                    kind: "supervisor",
                    callback: "erl_distribution",
                    dynamic: false,
                },
                options,
            )?;
        }
        if start_distribution {
            // {global_group, {global_group, start_link, []}, permanent,
            //  2000, worker, [global_group]}
            self.start_kernel_child(&kernel_worker("global_group", "global_group"), options)?;
        }
        Ok(())
    }

    /// False when the kernel application's environment (the application
    /// controller's `ac_tab`, `{{env, kernel, Key}, Value}`) sets `key` to
    /// `false`, as `-kernel start_distribution false` does.
    fn kernel_env_is_not_false(&self, key: &str) -> bool {
        let Some(table) = self.ets.resolve(atom("ac_tab")) else {
            return true;
        };
        let mut heap = Heap::new();
        let key = heap.tuple(&[atom("env"), atom("kernel"), atom(key)]);
        let data = table.lock();
        !data
            .lookup(key)
            .iter()
            .any(|o| matches!(o.term().as_tuple(), Some([_, v]) if *v == Term::FALSE))
    }

    /// `ERL_EPMD_PORT` as the flag `-epmd_port N`, which `erl_epmd` reads,
    /// as erl's launcher passes it on (unless the command line gives one).
    pub(super) fn epmd_port_from_environment(&self) {
        let Ok(port) = std::env::var("ERL_EPMD_PORT") else {
            return;
        };
        let mut flags = self.init_flags.lock().unwrap_or_else(|e| e.into_inner());
        if !flags.iter().any(|(f, _)| f == "epmd_port") {
            flags.push(("epmd_port".to_string(), vec![port]));
        }
    }

    /// True when the command line names the node (`-sname` or `-name`).
    fn distribution_requested(&self) -> bool {
        let flags = self.init_flags.lock().unwrap_or_else(|e| e.into_inner());
        flags
            .iter()
            .any(|(f, v)| (f == "sname" || f == "name") && !v.is_empty())
    }

    /// Runs `module:function()` in a process of its own and waits for it,
    /// when the module is on the code path.
    fn run_kernel_function(
        &self,
        module: &str,
        function: &str,
        options: SpawnOptions,
    ) -> Result<(), LoadError> {
        let module_atom = Atom::new(module).expect("atom");
        if CodeServer::global().find(module_atom).is_none() {
            return Ok(());
        }
        let options = SpawnOptions {
            watched: true,
            ..options
        };
        let failed = |reason: String| LoadError::Atom {
            module: module.to_string(),
            reason: format!("{module}:{function}() failed: {reason}"),
        };
        let target = SpawnTarget::Mfa(module_atom, Atom::new(function).expect("atom"));
        let (pid, _) = self
            .spawn(None, target, &[], options)
            .map_err(|_| failed("cannot spawn".into()))?;
        let reason = self.wait_exit(pid);
        if reason.term == Term::atom(Atom::NORMAL) {
            Ok(())
        } else {
            Err(failed(beamr_core::format::format_p(
                reason.term,
                &PrettyOptions::default(),
            )))
        }
    }

    fn start_kernel_child(
        &self,
        child: &Child<'_>,
        options: SpawnOptions,
    ) -> Result<(), LoadError> {
        let callback = Atom::new(child.callback).expect("atom");
        if CodeServer::global().find(callback).is_none() {
            return Ok(());
        }
        let mut heap = Heap::new();
        let mut args: Vec<Term> = child.args.iter().map(|a| atom(a)).collect();
        if let Some(name) = child.local {
            args.insert(0, heap.tuple(&[atom("local"), atom(name)]));
        }
        let args = heap.list(&args);
        let start = heap.tuple(&[atom(child.module), atom(child.function), args]);
        let modules = match child.dynamic {
            true => atom("dynamic"),
            false => heap.list(&[Term::atom(callback)]),
        };
        let spec = heap.tuple(&[
            atom(child.id),
            start,
            atom("permanent"),
            child.shutdown,
            atom(child.kind),
            modules,
        ]);
        let options = SpawnOptions {
            watched: true,
            ..options
        };
        let failed = |reason: String| LoadError::Atom {
            module: child.callback.to_string(),
            reason: format!("starting {} failed: {reason}", child.id),
        };
        let (pid, _) = self
            .spawn(
                None,
                SpawnTarget::Mfa(
                    Atom::new("beamr_kernel_sup").expect("atom"),
                    Atom::new("start_child").expect("atom"),
                ),
                &[spec],
                options,
            )
            .map_err(|_| failed("cannot spawn".into()))?;
        let reason = self.wait_exit(pid);
        if reason.term == Term::atom(Atom::NORMAL) {
            Ok(())
        } else {
            // `{not_started, Reason}`: what supervisor:start_child/2 said
            // (which may be `normal`, a server whose init stopped).
            let said = match reason.term.as_tuple() {
                Some([tag, said]) if *tag == atom("not_started") => *said,
                _ => reason.term,
            };
            let text = beamr_core::format::format_p(said, &PrettyOptions::default());
            Err(failed(text))
        }
    }
}
