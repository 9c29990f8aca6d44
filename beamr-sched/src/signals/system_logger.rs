//! The system logger: the process that receives what the runtime itself
//! logs (`erlang:system_flag(system_logger, P)`; `logger`, the process
//! registered under that name, until kernel's `logger_proxy` takes over;
//! `undefined` drops everything). The runtime logs two things, as erts
//! does: a process ending with an uncaught error or throw,
//!
//! ```text
//! {log, error, "Error in process ~p with exit value:~n~p~n", [Pid, Reason],
//!  #{error_logger => #{emulator => true, tag => error},
//!    gl => GroupLeader, pid => Pid, time => SystemTimeMicroseconds}}
//! ```
//!
//! a module that cannot be loaded (`beam/beam_load.c(144): Error loading
//! module M:\n  corrupt file header\n`, in the same `"~s~n"` form), and
//! output to a port that is not iodata (`port_command/2,3`, or
//! `Port ! {Pid, {command, Data}}`), with no group leader (`logger` adds
//! its own):
//!
//! ```text
//! {log, error, "~s~n", ["Bad value on output port 'Name'\n"],
//!  #{error_logger => #{emulator => true, tag => error},
//!    pid => Sender, time => SystemTimeMicroseconds}}
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::{Class, Payload, Process, Signal};
use crate::runtime::Runtime;

/// The format erts logs an uncaught error with.
const EXIT_VALUE_FORMAT: &str = "Error in process ~p with exit value:~n~p~n";

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

impl Runtime {
    /// The system logger: `logger`, `undefined` or a pid.
    pub fn system_logger(&self) -> Term {
        *self.system_logger.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the system logger to `logger`, `undefined` or a pid; returns
    /// the previous one.
    pub fn set_system_logger(&self, logger: Term) -> Term {
        let mut current = self.system_logger.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *current, logger)
    }

    /// The process the system logger names now, if it is alive.
    fn system_logger_pid(&self) -> Option<Term> {
        let logger = self.system_logger();
        if logger.is_pid() {
            Some(logger)
        } else if logger == atom("logger") {
            self.names.whereis(Atom::new("logger").expect("atom"))
        } else {
            None
        }
    }

    /// Logs the end of `p` by an uncaught exception of `class` with exit
    /// reason `reason`, as erts does: errors and throws only (an exit is a
    /// process's own choice).
    pub fn log_uncaught(&self, p: &Process, class: Class, reason: Term) {
        if class == Class::Exit {
            return;
        }
        self.log_emulator_error(p.pid, Some(p.group_leader), EXIT_VALUE_FORMAT, |heap| {
            let reason = heap.copy_term(reason);
            heap.list(&[p.pid, reason])
        });
    }

    /// Logs that `sender` gave port `port_name` output that is not iodata,
    /// as erts does (with no group leader: the system logger's is taken).
    pub fn log_bad_port_output(&self, sender: Term, port_name: &str) {
        let text = format!("Bad value on output port '{port_name}'\n");
        self.log_emulator_text(sender, None, &text);
    }

    /// Logs `text` about process `pid` (with group leader `gl`, if any) as
    /// erts logs its own messages: `{"~s~n", [Text]}`.
    pub fn log_emulator_text(&self, pid: Term, gl: Option<Term>, text: &str) {
        self.log_emulator_error(pid, gl, "~s~n", |heap| {
            let text = heap.string(text);
            heap.list(&[text])
        });
    }

    /// Logs that loading `file` failed with `reason`, as OTP 25's code
    /// server does: `{"Loading of ~ts failed: ~p\n", [File, Reason]}`.
    pub fn log_load_failure(&self, pid: Term, file: &str, reason: &str) {
        self.log_emulator_error(pid, None, "Loading of ~ts failed: ~p\n", |heap| {
            let file = heap.string(file);
            let reason = Term::atom(Atom::new(reason).expect("atom"));
            heap.list(&[file, reason])
        });
    }

    /// Logs `{format, Args}` about process `pid` (group leader `gl`) as
    /// erts logs its own reports, `Args` built on a heap by `args`.
    pub(crate) fn log_emulator_format(
        &self,
        pid: Term,
        gl: Option<Term>,
        format: &str,
        args: impl FnOnce(&mut Heap) -> Term,
    ) {
        self.log_emulator_error(pid, gl, format, args)
    }

    /// Sends the system logger `{log, error, Format, Args, Meta}` from the
    /// emulator about process `pid`, `Args` built by `args`.
    fn log_emulator_error(
        &self,
        pid: Term,
        gl: Option<Term>,
        format: &str,
        args: impl FnOnce(&mut Heap) -> Term,
    ) {
        let Some(logger) = self.system_logger_pid() else {
            return;
        };
        let mut heap = Heap::new();
        let args = args(&mut heap);
        let format = heap.string(format);
        let tag = heap.flat_map(
            &[atom("emulator"), atom("tag")],
            &[Term::TRUE, Term::atom(Atom::ERROR)],
        );
        let micros = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => d.as_micros() as i64,
            Err(e) => -(e.duration().as_micros() as i64),
        };
        let time = heap.int(micros);
        let meta = match gl {
            Some(gl) => heap.flat_map(
                &[atom("error_logger"), atom("gl"), atom("pid"), atom("time")],
                &[tag, gl, pid, time],
            ),
            None => heap.flat_map(
                &[atom("error_logger"), atom("pid"), atom("time")],
                &[tag, pid, time],
            ),
        };
        let message = heap.tuple(&[atom("log"), Term::atom(Atom::ERROR), format, args, meta]);
        self.send_signal(
            logger,
            Signal::Message(
                Payload {
                    term: message,
                    heap: Some(heap),
                },
                None,
            ),
        );
    }
}
