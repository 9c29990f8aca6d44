//! `beamr ctl PID trace ...`, `tp ...` and `trace stop`: the request made
//! from the command line, and the replies printed as they stream in (see
//! beamr-ctl's `server::trace_stream`). The lines of a text trace go to
//! standard output as they come; what the session is and why it ended go
//! to standard error (as JSON lines on standard output with `--json`).

use std::io::Write;
use std::path::Path;

use beamr_ctl::client::Client;
use beamr_ctl::protocol::{Reply, Request, TracePattern, TraceRequest, TraceTo};

/// The options `trace` and `tp` share.
#[derive(Debug, clap::Args)]
pub struct TraceOptions {
    /// Where the events go: text (a line per event on standard output, as
    /// dbg prints them), ring:FILE (a ring-buffer file, written by the
    /// runtime, that `beamr trace` reads) or otel (OTLP, exported by the
    /// runtime, configured by this command's OTEL_* variables over the
    /// runtime's).
    #[arg(long = "to", value_name = "DEST", default_value = "text")]
    pub to: String,
    /// End the trace after N events.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Record at most N events a second; the rest are dropped and counted.
    #[arg(long, value_name = "N")]
    pub rate: Option<u64>,
    /// End the trace after this long (10s, 500ms, 2m; a bare number is
    /// seconds).
    #[arg(long = "for", value_name = "DURATION")]
    pub duration: Option<String>,
    /// Print JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A duration as `--for` takes it, in milliseconds.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let bad = || format!("ctl: --for `{text}`: expected a duration such as 10s, 500ms or 2m");
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| bad())?;
    let scale = match unit {
        "" | "s" => 1000,
        "ms" => 1,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return Err(bad()),
    };
    n.checked_mul(scale).filter(|&ms| ms > 0).ok_or_else(bad)
}

/// The match specification text `x`, `c`, `cx` (as recon and dbg name
/// them) stand for; anything else is taken as a match specification.
pub fn spec_text(spec: Option<&str>) -> String {
    match spec {
        None => "true".into(),
        Some("x") => "[{'_',[],[{exception_trace}]}]".into(),
        Some("c") => "[{'_',[],[{message,{caller}}]}]".into(),
        Some("cx") | Some("xc") => "[{'_',[],[{exception_trace},{message,{caller}}]}]".into(),
        Some(other) => other.into(),
    }
}

/// `MOD:FUN/ARITY` or `MOD:FUN` (every arity) with its match
/// specification.
pub fn parse_pattern(mfa: &str, spec: Option<&str>) -> Result<TracePattern, String> {
    let bad = || format!("ctl: `{mfa}`: expected MOD:FUN/ARITY or MOD:FUN");
    let (module, fa) = mfa.split_once(':').ok_or_else(bad)?;
    let (function, arity) = match fa.split_once('/') {
        Some((f, a)) => (f, Some(a.parse::<u32>().map_err(|_| bad())?)),
        None => (fa, None),
    };
    if module.is_empty() || function.is_empty() || function.contains(':') {
        return Err(bad());
    }
    Ok(TracePattern {
        module: module.into(),
        function: function.into(),
        arity,
        spec: spec_text(spec),
    })
}

/// `--trace-call`'s `MFA[:x|:c|:cx]`, as `trace --tp` takes it.
pub fn parse_tp_option(text: &str) -> Result<TracePattern, String> {
    for suffix in ["cx", "xc", "x", "c"] {
        if let Some(mfa) = text.strip_suffix(&format!(":{suffix}")) {
            if mfa.contains(':') {
                return parse_pattern(mfa, Some(suffix));
            }
        }
    }
    parse_pattern(text, None)
}

/// The request for `flags`, `pids`, `patterns` and the options.
pub fn request(
    flags: Vec<String>,
    pids: Vec<String>,
    patterns: Vec<TracePattern>,
    options: &TraceOptions,
) -> Result<TraceRequest, String> {
    let to = match options.to.split_once(':') {
        Some(("ring", file)) if !file.is_empty() => {
            let path = Path::new(file);
            let path = if path.is_absolute() {
                path.to_path_buf()
            } else {
                std::env::current_dir()
                    .map_err(|e| format!("ctl: the current directory: {e}"))?
                    .join(path)
            };
            TraceTo::Ring {
                path: path.to_string_lossy().into_owned(),
            }
        }
        _ if options.to == "text" => TraceTo::Text,
        _ if options.to == "otel" => TraceTo::Otel {
            settings: std::env::vars()
                .filter(|(name, _)| name.starts_with("OTEL_"))
                .collect(),
        },
        _ => {
            return Err(format!(
                "ctl: --to `{}`: expected text, ring:FILE or otel",
                options.to
            ))
        }
    };
    let duration_ms = options
        .duration
        .as_deref()
        .map(parse_duration)
        .transpose()?;
    Ok(TraceRequest {
        flags,
        pids: if pids.is_empty() {
            vec!["all".into()]
        } else {
            pids
        },
        patterns,
        to,
        limit: options.limit,
        rate: options.rate,
        duration_ms,
    })
}

fn json_line(value: serde_json::Value) {
    println!("{value}");
}

/// Sends `request` and prints the replies until the session ends; an
/// error says what went wrong (without the `ctl: PID:` prefix).
pub fn stream(client: &mut Client, request: TraceRequest, json: bool) -> Result<(), String> {
    client.set_reply_timeout(None)?;
    let mut reply = client.request(&Request::Trace(request))?;
    let stdout = std::io::stdout();
    loop {
        match reply {
            Reply::TraceStarted {
                session,
                processes,
                functions,
            } => {
                if json {
                    json_line(serde_json::json!({
                        "session": session, "processes": processes, "functions": functions
                    }));
                } else {
                    eprintln!(
                        "beamr ctl: tracing in session {session}: {processes} processes, {functions} functions (Ctrl-C ends it)"
                    );
                }
            }
            Reply::TraceLines(lines) => {
                let mut out = stdout.lock();
                for line in lines {
                    if json {
                        let _ = writeln!(out, "{}", serde_json::json!({ "line": line.trim_end() }));
                    } else {
                        let _ = out.write_all(line.as_bytes());
                    }
                }
                let _ = out.flush();
            }
            Reply::TraceEnded {
                reason,
                events,
                dropped,
            } => {
                if json {
                    json_line(serde_json::json!({
                        "ended": reason, "events": events, "dropped": dropped
                    }));
                } else {
                    eprintln!(
                        "beamr ctl: trace ended ({reason}): {events} events, {dropped} dropped"
                    );
                }
                return Ok(());
            }
            Reply::Error(e) => return Err(e.message),
            other => return Err(format!("unexpected reply {other:?}")),
        }
        reply = client.reply()?;
    }
}
