//! `beamr erl ARGS...`: erl's command line, so that what runs `erl` (Gleam's
//! `gleam run` and `gleam test`, scripts) runs on beamr through the
//! launchers `beamr shim` writes.
//!
//! [`args`] parses the command line as erlexec and init do. The runtime is
//! then set up as erl's would be: the code path is the `-pa` directories
//! (the last one first, as erl adds them), `.`, OTP's library, then the
//! `-pz` directories, keeping only those that exist, as erl does; the
//! `-env` variables are set; init answers the flags and the plain
//! arguments; the schedulers are `+S`'s. The program is
//! `beamr_init_boot:start(Instructions)` (embedded in beamr-sched), which
//! runs the `-s`, `-run` and `-eval` instructions in order as erl's boot
//! process does, reports a failure as erl's init does (halting with its
//! slogan, status 1) and otherwise keeps the system running until
//! something halts it, as erl does.
//!
//! Without `-noshell` or `-noinput` erl starts its interactive shell, and
//! so does beamr: the boot first starts OTP's `user_drv` (line editing on
//! beamr's built-in tty_sl driver for OTP 25, its prim_tty NIF from OTP
//! 26; the plain shell where standard input or output is not a terminal,
//! and always with `-oldshell`), with `-remsh NODE` a shell on another
//! node. A flag beamr does not take is a one-line error, status 2.

pub mod args;
mod run;

pub use run::main;
