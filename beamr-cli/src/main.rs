//! beamr: the command-line front end. Runs programs (also from erl's
//! command line), disassembles `.beam` files, reads and exports traces.
//!
//! This file holds only the clap definitions and the dispatch; each
//! subcommand lives in `commands/<name>.rs`. A failing command prints one
//! line to stderr and exits with status 2.
#![forbid(unsafe_code)]

mod commands;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The beamr command line.
#[derive(Debug, Parser)]
#[command(name = "beamr", version, about = "A Rust runtime for BEAM files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run MOD:FUN() from .beam files, as `erl -noshell -s MOD FUN -s init stop` does,
    /// or a Gleam build as `gleam run` does.
    Run {
        /// The function to call: MOD or MOD:FUN (FUN defaults to main); for a
        /// Gleam build, the Gleam module whose main/0 to run (as `gleam run -m`).
        #[arg(short = 'e', value_name = "MOD[:FUN]")]
        entry: Option<String>,
        /// Number of scheduler threads (default: one per core).
        #[arg(short = 'S', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        schedulers: Option<u16>,
        /// Trace every process with these erlang:trace/3 flags, comma-separated
        /// (send,receive,procs,running,...; all).
        #[arg(long = "trace", value_name = "FLAGS")]
        trace: Option<String>,
        /// Trace every call of MOD:FUN[/ARITY], local calls included (a trailing
        /// :x also traces returns and exceptions, as --trace-to otel always does);
        /// repeatable; implies the call flag.
        #[arg(long = "trace-call", value_name = "MFA[:x]")]
        trace_call: Vec<String>,
        /// Where trace events go: ring:FILE (a ring-buffer file for `beamr trace`),
        /// text (a line per event on standard error, as dbg prints it), text:FILE
        /// (those lines in FILE) or otel (OTLP, configured by the OTEL_* variables).
        #[arg(long = "trace-to", value_name = "DEST")]
        trace_to: Option<String>,
        /// Which processes --trace traces: all (the default: every process, the
        /// runtime's own too), main (the process running MOD:FUN; add set_on_spawn
        /// to the flags to follow what it spawns) or new (every process spawned
        /// once MOD:FUN starts).
        #[arg(long = "trace-pids", value_name = "WHO")]
        trace_pids: Option<String>,
        /// Record at most N trace events in all; the rest are dropped and counted.
        #[arg(long = "trace-limit", value_name = "N")]
        trace_limit: Option<u64>,
        /// Record at most N trace events a second; the rest are dropped and counted.
        #[arg(long = "trace-rate", value_name = "N")]
        trace_rate: Option<u64>,
        /// Open no control socket (`beamr ctl` cannot attach); BEAMR_CTL=off
        /// does the same.
        #[arg(long = "no-ctl")]
        no_ctl: bool,
        /// Keep a flight recorder: process lifecycle, sends and receives,
        /// scheduling and GC in a ring, the oldest overwritten; dumped by
        /// `beamr ctl PID flight dump FILE`, on SIGUSR2, and when the run
        /// crashes or halts with an error (beamr-flight-PID.ring). BEAMR_FLIGHT=1
        /// turns it on too.
        #[arg(long = "flight")]
        flight: bool,
        /// Start distribution with the short node name NAME (as erl -sname).
        #[arg(long = "sname", value_name = "NAME")]
        sname: Option<String>,
        /// Start distribution with the long node name NAME[@HOST] (as erl -name).
        #[arg(long = "name", value_name = "NAME")]
        name: Option<String>,
        /// The distribution cookie (else ~/.erlang.cookie, created as erl creates it).
        #[arg(long = "setcookie", value_name = "COOKIE")]
        setcookie: Option<String>,
        /// A hidden node (as erl -hidden).
        #[arg(long = "hidden")]
        hidden: bool,
        /// .beam files and directories of .beam files (added to the code path),
        /// or one Gleam build directory (build/dev/erlang, build/erlang-shipment).
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Plain arguments (init:get_plain_arguments/0), also passed to
        /// FUN as one list of strings when the module has FUN/1.
        #[arg(last = true, value_name = "ARGS")]
        args: Vec<String>,
    },
    /// Attach to a running beamr: `list` this user's runtimes, or
    /// `PID|NAME stats|ps|top|info|state|eval|trace|tp|load|purge|flight|stop`.
    #[command(
        after_help = "Commands for one runtime: beamr ctl PID|NAME COMMAND ...; \
                            `beamr ctl PID help` lists them."
    )]
    Ctl {
        #[command(subcommand)]
        command: commands::ctl::CtlCommand,
    },
    /// Print a module's exports and instructions in `erlc -S` notation.
    Disasm {
        /// The `.beam` file to disassemble.
        file: PathBuf,
    },
    /// Read ring-buffer trace files: dump, stats, tail, export, flame, seq.
    Trace {
        #[command(subcommand)]
        command: commands::trace::TraceCommand,
    },
    /// Run erl's command line: -pa/-pz DIR..., -s/-run MOD [FUN [ARG...]], -eval EXPR,
    /// -noshell, -noinput, -extra ARG..., -env VAR VALUE, -config FILE, +S N[:M], ...
    #[command(disable_help_flag = true)]
    Erl {
        /// erl's arguments, as erl takes them.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ERL-ARGS"
        )]
        args: Vec<String>,
    },
    /// Run an escript as erl's escript does: its %%! emulator flags, main/1 with the
    /// arguments as strings, escript's exit statuses.
    #[command(disable_help_flag = true)]
    Escript {
        /// escript's options, the script, and its arguments.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "FILE ARGS"
        )]
        args: Vec<String>,
    },
    /// An EPMD of beamr's own (for a machine without erts's epmd), with
    /// epmd's flags: -port N, -daemon, -names, -kill.
    Epmd {
        /// epmd's flags.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "FLAGS"
        )]
        args: Vec<String>,
    },
    /// Write launchers named erl and escript into DIR that run this beamr
    /// (put DIR first on the PATH to run erl's callers, such as Gleam, on beamr).
    Shim {
        /// The directory to write them into (made if missing).
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    // erl's and escript's command lines are theirs, not clap's (`--`,
    // `-extra`, `+S`).
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match argv.get(1).and_then(|a| a.to_str()) {
        Some("erl") => return commands::erl::main(&argv[2..]),
        Some("escript") => return commands::escript::main(&argv[2..]),
        Some("epmd") => return commands::epmd::main(&argv[2..]),
        _ => {}
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as every other beamr error: clap's first line names
            // the problem; `beamr help` has the rest.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("beamr: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Run {
            entry,
            schedulers,
            trace,
            trace_call,
            trace_to,
            trace_pids,
            trace_limit,
            trace_rate,
            no_ctl,
            flight,
            sname,
            name,
            setcookie,
            hidden,
            paths,
            args,
        } => {
            let setup = commands::run_trace::TraceSetup::parse(
                trace.as_deref(),
                &trace_call,
                trace_to.as_deref(),
            )
            .and_then(|setup| match setup {
                Some(setup) => setup
                    .with_limits(trace_limit, trace_rate)
                    .and_then(|s| s.with_pids(trace_pids.as_deref()))
                    .map(Some),
                None if trace_limit.is_some() || trace_rate.is_some() => {
                    Err("--trace-limit and --trace-rate need --trace FLAGS or --trace-call".into())
                }
                None if trace_pids.is_some() => {
                    Err("--trace-pids needs --trace FLAGS or --trace-call".into())
                }
                None => Ok(None),
            });
            let trace = match setup {
                Ok(setup) => setup,
                Err(message) => {
                    eprintln!("beamr: {message}");
                    return ExitCode::from(2);
                }
            };
            let args = commands::run::RunArgs {
                entry,
                schedulers: schedulers.map(usize::from),
                trace,
                ctl: !no_ctl && !beamr_ctl::server::off_by_env(),
                flight: flight || beamr_ctl::flight::asked_by_env(),
                node: commands::node::NodeArgs {
                    sname,
                    name,
                    setcookie,
                    hidden,
                },
                paths,
                args,
            };
            match commands::run::run(args) {
                Ok(commands::run::RunEnd::Returned) => Ok(()),
                Ok(commands::run::RunEnd::Crashed) => return ExitCode::from(1),
                Err(e) => Err(e),
            }
        }
        Command::Ctl { command } => commands::ctl::run(command),
        Command::Disasm { file } => commands::disasm::run(&file),
        Command::Trace { command } => commands::trace::run(command),
        Command::Erl { args } => {
            let words: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
            return commands::erl::main(&words);
        }
        Command::Escript { args } => {
            let words: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
            return commands::escript::main(&words);
        }
        Command::Epmd { args } => {
            let words: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
            return commands::epmd::main(&words);
        }
        Command::Shim { dir } => commands::shim::run(&dir),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("beamr: {message}");
            ExitCode::from(2)
        }
    }
}
