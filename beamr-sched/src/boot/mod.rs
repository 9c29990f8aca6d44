//! Starting a runtime: [`Runtime::new`] installs the native BIFs and the
//! code path; [`Runtime::run_main`] starts the system processes and the
//! schedulers and runs a program; [`Runtime::call_in`] runs a call on the
//! calling thread (tests, tools).

use std::sync::Arc;
use std::time::{Duration, Instant};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::code::{resolve, CodePath, CodeServer};
use crate::interp::Outcome;
use crate::loader::LoadError;
use crate::process::{Payload, Process, RegisterFile};
use crate::runtime::Runtime;
use crate::sched::{spawn_schedulers, SpawnOptions, SpawnTarget};

mod kernel_children;
mod logger;
mod os_signals;

/// How long the boot waits for the application controller and the file
/// server to register: long enough for any loaded machine, short enough
/// that a boot that cannot finish says so.
const BOOT_WAIT: Duration = Duration::from_secs(120);

impl Runtime {
    /// A runtime loading code from `path` (appended to the process-wide code
    /// path). The first runtime of the OS process installs the native BIFs
    /// for the loader and the call resolver, and sets the release whose term
    /// semantics apply ([`beamr_core::release`]) to the library's.
    pub fn new(path: CodePath) -> Runtime {
        beamr_core::release::set_otp_release(crate::code::otp_release());
        resolve::install_natives(crate::bif::natives);
        crate::signals::message_trace::install_spec_runner(crate::interp::run_message_spec);
        crate::signals::remote::install(crate::dist::outgoing::HOOKS);
        let code = CodeServer::global();
        for dir in path.dirs() {
            code.add_path(dir.clone());
        }
        Runtime::empty()
    }

    /// Runs `module:function(args...)` to completion in `p`, on this thread,
    /// loading code as needed; no other process runs. The result is in
    /// [`Process::returned_value`] on return.
    pub fn call_in(
        &self,
        p: &mut Process,
        module: Atom,
        function: Atom,
        args: &[Term],
    ) -> Result<Outcome, LoadError> {
        let code = self.entry(module, function, args.len() as u32)?;
        p.prepare_call(code, args);
        let mut registers = RegisterFile::new();
        loop {
            match crate::interp::run(self, p, &mut registers, 4000) {
                Outcome::Yielded => continue,
                done => return Ok(done),
            }
        }
    }

    /// From OTP 26 on, `os:cmd/1,2` reads the shell kernel's start
    /// chose (`os:internal_init_cmd_shell/0` puts it in a persistent
    /// term); beamr's boot makes the same call, once the application
    /// environment it reads exists. A failure leaves `os:cmd` to fail as
    /// it would.
    fn init_cmd_shell(&self) {
        if crate::code::otp_release() < 26 {
            return;
        }
        let (os, init) = (
            Atom::new("os").expect("atom"),
            Atom::new("internal_init_cmd_shell").expect("atom"),
        );
        let mut p = Process::new(self.processes.new_pid());
        let _ = self.call_in(&mut p, os, init, &[]);
    }

    /// erts's `erl_init` runs `prim_socket:on_load/0` before the boot:
    /// it starts the socket registry and fills `prim_socket`'s tables
    /// (protocols, options, message flags) from the NIF, which the
    /// `socket` module reads. Without OTP's library there is no
    /// `prim_socket` and nothing to do; a failure leaves `socket` to
    /// fail as it would.
    fn init_socket(&self) {
        let Ok(prim_socket) = Atom::new("prim_socket") else {
            return;
        };
        if CodeServer::global().find(prim_socket).is_none() {
            return;
        }
        let Ok(on_load) = Atom::new("on_load") else {
            return;
        };
        let mut p = Process::new(self.processes.new_pid());
        let _ = self.call_in(&mut p, prim_socket, on_load, &[]);
    }

    /// Runs `module:function(args)` as the first process on `schedulers`
    /// scheduler threads until it exits; returns its exit reason (`normal`
    /// when the call returned). Other processes are stopped then.
    pub fn run_main(
        self: &Arc<Runtime>,
        module: Atom,
        function: Atom,
        args: &[Term],
        schedulers: usize,
    ) -> Result<Payload, LoadError> {
        let _ = self.weak_self.set(Arc::downgrade(self));
        self.entry(module, function, args.len() as u32)?;
        crate::code::embedded::ensure_embedded(CodeServer::global())?;
        let cannot_spawn = |_| LoadError::Atom {
            module: module.name().to_string(),
            reason: "cannot spawn".into(),
        };
        let start = Atom::new("start").expect("atom");
        // erl -noshell's group leader is the `user` process; io:format(user, ...) names it.
        let gl = self.start_registered(
            crate::code::embedded::GROUP_LEADER.0,
            "user",
            &[],
            SpawnOptions::default(),
        )?;
        self.start_registered(
            crate::code::embedded::STANDARD_ERROR.0,
            "standard_error",
            &[],
            SpawnOptions::default(),
        )?;
        let options = SpawnOptions {
            group_leader: Some(gl),
            ..SpawnOptions::default()
        };
        let mut argv_heap = beamr_core::heap::Heap::new();
        let argv: Vec<Term> = self
            .plain_arguments
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|a| argv_heap.string(a))
            .collect();
        let argv = argv_heap.list(&argv);
        self.epmd_port_from_environment();
        let flags = self.init_flags_term(&mut argv_heap);
        self.start_registered(
            crate::code::embedded::INIT.0,
            "init",
            &[argv, flags],
            options,
        )?;
        let otp_logger = CodeServer::global().find(logger::logger_server()).is_some();
        if !otp_logger {
            self.start_logger_stand_in(options)?;
        }
        self.start_registered(
            crate::code::embedded::KERNEL_SUP.0,
            "kernel_sup",
            &[],
            options,
        )?;
        self.start_registered(
            crate::code::embedded::CODE_SERVER.0,
            "code_server",
            &[],
            options,
        )?;
        // OTP's own application controller runs when OTP's library (its
        // kernel.app) is on the path; else beamr's stand-in.
        let kernel_app = CodeServer::global()
            .path_dirs()
            .into_iter()
            .map(|dir| dir.join("kernel.app"))
            .find(|file| file.is_file());
        let mut ac_heap = beamr_core::heap::Heap::new();
        let ac_arg = match &kernel_app {
            Some(file) => ac_heap.string(&file.to_string_lossy()),
            None => Term::atom(Atom::new("none").expect("atom")),
        };
        let ac_module = Atom::new(crate::code::embedded::APP_CONTROLLER.0).expect("atom");
        self.spawn(None, SpawnTarget::Mfa(ac_module, start), &[ac_arg], options)
            .map_err(cannot_spawn)?;
        let timer_rt = self.clone();
        let timer_thread = std::thread::Builder::new()
            .name("beamr-timers".into())
            .spawn(move || {
                let rt = timer_rt.clone();
                timer_rt.timers.run(|action| rt.fire_timer(action))
            })
            .expect("spawn timer thread");
        let threads = spawn_schedulers(self, schedulers.max(1));
        // The program may read the application environment and start
        // applications at once: with OTP's library, the application
        // controller's parent registers this name once kernel and stdlib
        // run; without, the stand-in registers as the application
        // controller once its table exists.
        let otp_applications = kernel_app.is_some();
        let apps_started = Atom::new(if otp_applications {
            "beamr_applications_started"
        } else {
            "application_controller"
        })
        .expect("atom");
        // kernel's file server (`file_server_2`), which `file` calls for
        // everything but raw files, when OTP's library is there to run it.
        let file_server = Atom::new("file_server").expect("atom");
        let file_server_name = Atom::new("file_server_2").expect("atom");
        let has_file_server = CodeServer::global().find(file_server).is_some();
        if has_file_server {
            self.spawn(None, SpawnTarget::Mfa(file_server, start), &[], options)
                .map_err(cannot_spawn)?;
        }
        // Kernel's servers read the application environment and open
        // files as they start: wait for both, however loaded the machine
        // (a 2 s limit here let kernel's servers start too early under
        // load, and inet_db's start then failed); a boot that never gets
        // there fails, naming which.
        let deadline = Instant::now() + BOOT_WAIT;
        let missing = |rt: &Runtime| {
            if rt.names.whereis(apps_started).is_none() {
                Some(apps_started.name())
            } else if has_file_server && rt.names.whereis(file_server_name).is_none() {
                Some(file_server_name.name())
            } else {
                None
            }
        };
        while let Some(what) = missing(self) {
            if Instant::now() >= deadline {
                return Err(LoadError::Atom {
                    module: what.to_string(),
                    reason: format!(
                        "the boot waited {} s for {what}, which never registered",
                        BOOT_WAIT.as_secs()
                    ),
                });
            }
            std::thread::sleep(Duration::from_micros(50));
        }
        let mut os_signals = None;
        if otp_logger {
            // Before kernel's servers, as on erl: one that fails to start
            // is reported through the logger.
            self.start_otp_logger_server(gl)?;
        }
        if otp_applications {
            self.names.unregister(apps_started);
            self.start_kernel_children(options)?;
            os_signals = os_signals::OsSignals::start(self);
        }
        if otp_logger {
            self.start_otp_logger_handlers(gl)?;
        }
        self.init_cmd_shell();
        self.init_socket();
        let options = SpawnOptions {
            group_leader: Some(gl),
            watched: true,
            // As erl's boot process, which runs the -s functions, does.
            trap_exit: true,
            program: true,
            ..SpawnOptions::default()
        };
        self.trace.start_program();
        let (pid, _) = self
            .spawn(None, SpawnTarget::Mfa(module, function), args, options)
            .map_err(cannot_spawn)?;
        let reason = self.wait_exit(pid);
        if otp_logger && reason.term == Term::atom(Atom::NORMAL) {
            // As erl's `-s init stop` after the program: the handlers write
            // what was logged before the runtime halts.
            self.flush_otp_logger(gl);
        }
        if let Some(forwarding) = os_signals {
            forwarding.stop();
        }
        self.run_queues.shutdown();
        self.timers.shutdown();
        for t in threads {
            let _ = t.join();
        }
        let _ = timer_thread.join();
        Ok(reason)
    }

    /// [`Runtime::init_flags`] as init keeps them: `[{Flag, [Value]}]`,
    /// the flag an atom, each value a string.
    fn init_flags_term(&self, heap: &mut beamr_core::heap::Heap) -> Term {
        let flags = self
            .init_flags
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let mut terms = Vec::with_capacity(flags.len());
        for (flag, values) in &flags {
            let values: Vec<Term> = values.iter().map(|v| heap.string(v)).collect();
            let values = heap.list(&values);
            // A flag that is no valid atom (too long) is left out, as no
            // init:get_argument/1 call could name it.
            if let Ok(name) = Atom::new(flag) {
                terms.push(heap.tuple(&[Term::atom(name), values]));
            }
        }
        heap.list(&terms)
    }

    /// Spawns `module:start(args...)` with `options` and registers it as
    /// `name` before it first runs (a system process of beamr's boot).
    fn start_registered(
        &self,
        module: &str,
        name: &str,
        args: &[Term],
        options: SpawnOptions,
    ) -> Result<Term, LoadError> {
        let module_atom = Atom::new(module).expect("atom");
        let start = Atom::new("start").expect("atom");
        let (pid, _) = self
            .spawn(None, SpawnTarget::Mfa(module_atom, start), args, options)
            .map_err(|_| LoadError::Atom {
                module: module.to_string(),
                reason: "cannot spawn".into(),
            })?;
        self.register_name(Atom::new(name).expect("atom"), pid);
        Ok(pid)
    }
}
