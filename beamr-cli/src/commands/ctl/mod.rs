//! `beamr ctl`: attach to a running beamr (see beamr-ctl): `list` this
//! user's runtimes, or send one of them a command. Argument parsing and
//! printing only; the protocol, the client and the server are beamr-ctl's.

mod print;
mod top;
mod trace;

use std::path::PathBuf;

use beamr_ctl::client::{self, Client};
use beamr_ctl::protocol::{ProcessRow, Reply, Request};
use clap::{Parser, Subcommand, ValueEnum};

/// `beamr ctl`'s own subcommand.
#[derive(Debug, Subcommand)]
pub enum CtlCommand {
    /// This user's running beamr runtimes: pid, program, uptime (as jps).
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// PID|NAME COMMAND ...: a command for one runtime (stats, ps, info,
    /// state, eval, trace, tp, load, purge, stop), named by OS pid or by the
    /// module it runs.
    #[command(external_subcommand)]
    Target(Vec<String>),
}

/// `beamr ctl PID|NAME COMMAND ...`.
#[derive(Debug, Parser)]
#[command(name = "beamr ctl", no_binary_name = true)]
struct TargetCli {
    /// The runtime: its OS pid, or the module it runs (as `beamr ctl list`
    /// shows it) when one runtime runs it.
    target: String,
    #[command(subcommand)]
    command: TargetCommand,
}

/// The commands for one runtime.
#[derive(Debug, Subcommand)]
enum TargetCommand {
    /// Processes, ports, atoms, ETS tables against their limits; memory by
    /// kind; run-queue lengths; reductions; reductions and collections a
    /// second and each scheduler's utilisation over an interval.
    Stats {
        /// The interval the rates are measured over, in milliseconds.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        interval: u32,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Every process: pid, registered name, current function, initial
    /// call, reductions, memory, message-queue length, status.
    Ps {
        /// Sort by this column (numbers largest first).
        #[arg(long, value_enum, default_value = "pid")]
        sort: SortField,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// A live view of the processes, refreshed every interval, sorted by
    /// the change of their reductions (memory, queue length) over it, as
    /// recon's proc_window.
    Top {
        #[command(flatten)]
        options: top::TopOptions,
    },
    /// One process: process_info's items, its stack trace, its first
    /// queued messages.
    Info {
        /// A pid (<0.N.0>) or a registered name.
        process: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// A process's state, as sys:get_state/2 gives it.
    State {
        /// A pid (<0.N.0>) or a registered name.
        process: String,
        /// How long the process may take to answer, in milliseconds (at
        /// most 9000).
        #[arg(long, default_value_t = 5000)]
        timeout: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Evaluate an Erlang expression on the runtime (erl_eval, in a fresh
    /// process); print its value with ~p.
    Eval {
        /// The expression.
        expr: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load a .beam file as code:load_binary/3 does (the old version is
    /// kept, as on erl).
    Load {
        /// The .beam file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Purge a module's old code as code:purge/1 does.
    Purge {
        /// The module.
        module: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Trace in a session of this client's own, which never touches the
    /// program's own tracing or another client's: FLAGS (erlang:trace/3's
    /// names, comma-separated: send,receive,procs,call,...) on PIDS (all,
    /// new, existing, pids <0.N.0> or registered names; all by default).
    /// It ends when this command ends (Ctrl-C), after --for or --limit, or
    /// on `trace stop`. `trace stop` ends every client's trace.
    Trace {
        /// The flags, comma-separated; or `stop`.
        flags: String,
        /// What to trace: all, new, existing, pids, registered names.
        pids: Vec<String>,
        /// A call pattern MOD:FUN[/ARITY][:x|:c|:cx] (as tp), repeatable.
        #[arg(long = "tp", value_name = "MFA")]
        patterns: Vec<String>,
        #[command(flatten)]
        options: trace::TraceOptions,
    },
    /// Trace calls of MOD:FUN/ARITY (local calls too, as dbg:tpl) in a
    /// session of this client's own: with x its returns and exceptions
    /// too, with c its caller, cx both, or a match specification.
    Tp {
        /// MOD:FUN/ARITY, or MOD:FUN for every arity.
        mfa: String,
        /// x, c, cx, or a match specification ([{'_',[],[{return_trace}]}]).
        spec: Option<String>,
        /// Which processes' calls: all, new, existing, pids, registered
        /// names (repeatable; all by default).
        #[arg(long = "pids", value_name = "WHO")]
        pids: Vec<String>,
        #[command(flatten)]
        options: trace::TraceOptions,
    },
    /// The flight recorder (beamr run --flight): `flight dump FILE` writes
    /// its rings to FILE, which every `beamr trace` command reads.
    Flight {
        /// `dump`.
        action: FlightAction,
        /// The file to write.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Stop the runtime cleanly (init:stop/0).
    Stop {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// What `flight` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FlightAction {
    /// Write the rings to a file.
    Dump,
}

/// The columns `ps --sort` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SortField {
    Pid,
    Name,
    Current,
    Initial,
    Reductions,
    Memory,
    Mq,
    Status,
}

/// Runs `beamr ctl ...`.
pub fn run(command: CtlCommand) -> Result<(), String> {
    match command {
        CtlCommand::List { json } => {
            let runtimes = client::list();
            print::list(&runtimes, json)
        }
        CtlCommand::Target(words) => {
            let cli = match TargetCli::try_parse_from(&words) {
                Ok(cli) => cli,
                Err(e) if !e.use_stderr() => {
                    let _ = e.print();
                    return Ok(());
                }
                Err(e) => {
                    let text = e.render().to_string();
                    let first = text.lines().next().unwrap_or("invalid arguments");
                    return Err(format!("ctl: {}", first.trim_start_matches("error: ")));
                }
            };
            target(cli)
        }
    }
}

/// The OS pid `target` names: a number, or the module a single runtime
/// runs.
fn resolve(target: &str) -> Result<u32, String> {
    if let Ok(pid) = target.parse::<u32>() {
        return Ok(pid);
    }
    let matching: Vec<u32> = client::list()
        .into_iter()
        .filter_map(|(pid, info)| {
            let info = info.ok()?;
            let module = info.program.split([':', ' ']).next()?;
            (module == target).then_some(pid)
        })
        .collect();
    match matching.as_slice() {
        [pid] => Ok(*pid),
        [] => Err(format!("ctl: no runtime of this user runs {target}")),
        _ => Err(format!(
            "ctl: several runtimes run {target} ({}); give a pid",
            matching
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn target(cli: TargetCli) -> Result<(), String> {
    let pid = resolve(&cli.target)?;
    let mut client = Client::connect(pid).map_err(|e| format!("ctl: {e}"))?;
    let (request, json) = match &cli.command {
        TargetCommand::Trace {
            flags,
            pids,
            options,
            ..
        } if flags == "stop" && pids.is_empty() => (Request::TraceStop, options.json),
        TargetCommand::Trace {
            flags,
            pids,
            patterns,
            options,
        } => {
            let patterns = patterns
                .iter()
                .map(|p| trace::parse_tp_option(p))
                .collect::<Result<Vec<_>, _>>()?;
            let mut flags: Vec<String> = flags
                .split(',')
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .collect();
            if !patterns.is_empty() && !flags.iter().any(|f| f == "call") {
                flags.push("call".into());
            }
            let request = trace::request(flags, pids.clone(), patterns, options)?;
            return trace::stream(&mut client, request, options.json)
                .map_err(|e| format!("ctl: {pid}: {e}"));
        }
        TargetCommand::Top { options } => {
            return top::run(&mut client, pid, options).map_err(|e| format!("ctl: {pid}: {e}"));
        }
        TargetCommand::Tp {
            mfa,
            spec,
            pids,
            options,
        } => {
            let pattern = trace::parse_pattern(mfa, spec.as_deref())?;
            let request =
                trace::request(vec!["call".into()], pids.clone(), vec![pattern], options)?;
            return trace::stream(&mut client, request, options.json)
                .map_err(|e| format!("ctl: {pid}: {e}"));
        }
        TargetCommand::Stats { json, interval } => (
            Request::Stats {
                interval_ms: *interval,
            },
            *json,
        ),
        TargetCommand::Ps { json, .. } => (Request::Ps, *json),
        TargetCommand::Info { process, json } => (
            Request::Info {
                process: process.clone(),
            },
            *json,
        ),
        TargetCommand::State {
            process,
            timeout,
            json,
        } => (
            Request::State {
                process: process.clone(),
                timeout_ms: *timeout,
            },
            *json,
        ),
        TargetCommand::Eval { expr, json } => (Request::Eval { expr: expr.clone() }, *json),
        TargetCommand::Load { file, json } => {
            let beam = std::fs::read(file)
                .map_err(|e| format!("ctl: cannot read {}: {e}", file.display()))?;
            let file_name = std::fs::canonicalize(file)
                .unwrap_or_else(|_| file.clone())
                .to_string_lossy()
                .into_owned();
            (Request::Load { file_name, beam }, *json)
        }
        TargetCommand::Purge { module, json } => (
            Request::Purge {
                module: module.clone(),
            },
            *json,
        ),
        TargetCommand::Stop { json } => (Request::Stop, *json),
        TargetCommand::Flight {
            action: FlightAction::Dump,
            file,
            json,
        } => {
            let path = if file.is_absolute() {
                file.clone()
            } else {
                std::env::current_dir()
                    .map_err(|e| format!("ctl: the current directory: {e}"))?
                    .join(file)
            };
            (
                Request::FlightDump {
                    path: path.to_string_lossy().into_owned(),
                },
                *json,
            )
        }
    };
    let reply = client
        .request(&request)
        .map_err(|e| format!("ctl: {pid}: {e}"))?;
    let reply = match (reply, &cli.command) {
        (Reply::Ps(mut rows), TargetCommand::Ps { sort, .. }) => {
            sort_rows(&mut rows, *sort);
            Reply::Ps(rows)
        }
        (reply, _) => reply,
    };
    print::reply(&reply, json)
}

/// Sorts `rows` by `field`: text columns ascending, numbers largest first,
/// a row without the value last.
fn sort_rows(rows: &mut [ProcessRow], field: SortField) {
    let number = |r: &ProcessRow| match field {
        SortField::Reductions => r.reductions,
        SortField::Memory => r.memory,
        SortField::Mq => r.message_queue_len,
        _ => None,
    };
    match field {
        SortField::Reductions | SortField::Memory | SortField::Mq => {
            rows.sort_by_key(|r| std::cmp::Reverse(number(r)));
        }
        SortField::Pid => rows.sort_by_key(|r| pid_numbers(&r.pid)),
        SortField::Name => rows.sort_by(|a, b| {
            (a.registered_name.is_none(), &a.registered_name)
                .cmp(&(b.registered_name.is_none(), &b.registered_name))
        }),
        SortField::Current => rows.sort_by(|a, b| a.current_function.cmp(&b.current_function)),
        SortField::Initial => rows.sort_by(|a, b| a.initial_call.cmp(&b.initial_call)),
        SortField::Status => rows.sort_by(|a, b| a.status.cmp(&b.status)),
    }
}

/// `<A.B.C>`'s numbers, for sorting pids as numbers.
fn pid_numbers(pid: &str) -> Vec<u64> {
    pid.trim_matches(['<', '>'])
        .split('.')
        .map(|n| n.parse().unwrap_or(u64::MAX))
        .collect()
}
