//! How `beamr ctl` prints replies: a table (or text) for people, JSON for
//! scripts.

use beamr_ctl::protocol::{ProcessRow, Reply, RuntimeInfo, Stats};

/// Columns padded to their widest cell, two spaces apart.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                out.push_str(cell);
            } else {
                out.push_str(&format!("{cell:<w$}  "));
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(headers.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

fn json(value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| format!("ctl: {e}"))?;
    println!("{text}");
    Ok(())
}

/// `1h02m03s` from milliseconds.
fn uptime(ms: u64) -> String {
    let s = ms / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// `beamr ctl list`.
pub fn list(runtimes: &[(u32, Result<RuntimeInfo, String>)], as_json: bool) -> Result<(), String> {
    if as_json {
        let entries: Vec<serde_json::Value> = runtimes
            .iter()
            .map(|(pid, info)| match info {
                Ok(info) => serde_json::json!(info),
                Err(e) => serde_json::json!({ "os_pid": pid, "error": e }),
            })
            .collect();
        return json(&entries);
    }
    let rows: Vec<Vec<String>> = runtimes
        .iter()
        .map(|(pid, info)| match info {
            Ok(i) => vec![
                pid.to_string(),
                uptime(i.uptime_ms),
                i.node.clone(),
                i.program.clone(),
            ],
            Err(e) => vec![pid.to_string(), "-".into(), String::new(), format!("({e})")],
        })
        .collect();
    print!("{}", table(&["PID", "UPTIME", "NODE", "PROGRAM"], &rows));
    Ok(())
}

fn stats(s: &Stats) -> String {
    let usage = |name: &str, u: &beamr_ctl::protocol::Usage| {
        vec![name.to_string(), u.count.to_string(), u.limit.to_string()]
    };
    let mut out = table(
        &["TABLE", "COUNT", "LIMIT"],
        &[
            usage("processes", &s.processes),
            usage("ports", &s.ports),
            usage("atoms", &s.atoms),
            usage("ets", &s.ets_tables),
        ],
    );
    out.push('\n');
    let memory: Vec<Vec<String>> = s
        .memory
        .iter()
        .map(|(k, v)| vec![k.clone(), v.to_string()])
        .collect();
    out.push_str(&table(&["MEMORY", "BYTES"], &memory));
    out.push('\n');
    let queues: Vec<String> = s.run_queues.iter().map(u64::to_string).collect();
    out.push_str(&format!("run queues  {}\n", queues.join(" ")));
    out.push_str(&format!("reductions  {}\n", s.reductions));
    out.push_str(&format!(
        "per second  {} reductions, {} collections, {} words reclaimed (over {} ms)\n",
        s.reductions_per_second, s.gcs_per_second, s.words_reclaimed_per_second, s.interval_ms
    ));
    let utilisation: Vec<String> = s
        .scheduler_utilisation
        .iter()
        .map(|u| format!("{:.1}%", u * 100.0))
        .collect();
    out.push_str(&format!("schedulers  {}\n", utilisation.join(" ")));
    out.push_str(&format!("uptime      {}\n", uptime(s.uptime_ms)));
    out
}

fn ps(rows: &[ProcessRow]) -> String {
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let num = |v: Option<u64>| v.map_or_else(|| "-".into(), |n| n.to_string());
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.pid.clone(),
                opt(&r.registered_name),
                opt(&r.current_function),
                opt(&r.initial_call),
                num(r.reductions),
                num(r.memory),
                num(r.message_queue_len),
                r.status.clone(),
            ]
        })
        .collect();
    table(
        &[
            "PID", "NAME", "CURRENT", "INITIAL", "REDS", "MEMORY", "MQ", "STATUS",
        ],
        &cells,
    )
}

/// A reply to a command for one runtime; an error reply is `Err`.
pub fn reply(reply: &Reply, as_json: bool) -> Result<(), String> {
    if let Reply::Error(e) = reply {
        return Err(format!("ctl: {}", e.message));
    }
    if as_json {
        return match reply {
            Reply::Hello(i) => json(i),
            Reply::Stats(s) => json(s),
            Reply::Ps(rows) => json(rows),
            Reply::Info(items) => json(
                &items
                    .iter()
                    .map(|i| (i.key.clone(), serde_json::Value::String(i.value.clone())))
                    .collect::<serde_json::Map<_, _>>(),
            ),
            Reply::State(v) => json(&serde_json::json!({ "state": v })),
            Reply::Eval { output, value } => {
                json(&serde_json::json!({ "output": output, "value": value }))
            }
            Reply::Loaded { module } => json(&serde_json::json!({ "loaded": module })),
            Reply::Purged { module, killed } => {
                json(&serde_json::json!({ "purged": module, "killed": killed }))
            }
            Reply::Stopping => json(&serde_json::json!({ "stopping": true })),
            Reply::FlightDumped { path, bytes } => {
                json(&serde_json::json!({ "dumped": path, "bytes": bytes }))
            }
            Reply::TraceStopped { sessions } => {
                json(&serde_json::json!({ "trace_sessions_stopped": sessions }))
            }
            Reply::TraceStarted { .. } | Reply::TraceLines(_) | Reply::TraceEnded { .. } => {
                Err("ctl: a trace reply to another request".into())
            }
            Reply::Error(_) => Ok(()),
        };
    }
    match reply {
        Reply::Hello(i) => println!("{} {}", i.os_pid, i.program),
        Reply::Stats(s) => print!("{}", stats(s)),
        Reply::Ps(rows) => print!("{}", ps(rows)),
        Reply::Info(items) => {
            for item in items {
                let mut lines = item.value.lines();
                println!("{:<20}{}", item.key, lines.next().unwrap_or(""));
                for line in lines {
                    println!("{:<20}{line}", "");
                }
            }
        }
        Reply::State(v) => println!("{v}"),
        Reply::Eval { output, value } => {
            print!("{output}");
            println!("{value}");
        }
        Reply::Loaded { module } => println!("loaded {module}"),
        Reply::Purged { module, killed } => {
            println!(
                "purged {module}{}",
                if *killed { " (processes killed)" } else { "" }
            )
        }
        Reply::Stopping => println!("stopping"),
        Reply::TraceStopped { sessions } => println!("stopped {sessions} trace sessions"),
        Reply::FlightDumped { path, bytes } => println!("dumped {bytes} bytes to {path}"),
        Reply::TraceStarted { .. } | Reply::TraceLines(_) | Reply::TraceEnded { .. } => {
            return Err("ctl: a trace reply to another request".into())
        }
        Reply::Error(_) => {}
    }
    Ok(())
}
