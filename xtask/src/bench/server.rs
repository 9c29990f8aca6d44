//! The server table (`--server`): the Gleam web app of the gleam step
//! (`tests/gleam/mist_app`, on mist and glisten) served by erl 27 and by
//! beamr, both started once and loaded in turn by `wrk` on loopback, in
//! one run on one machine.
//!
//! Each scenario is an endpoint and a number of connections: `/hello` (a
//! fixed text) and `/work` (CPU-bound: a thousand numbers scrambled,
//! sorted and summed, answered as JSON), with 50 and with 500
//! connections. For each, `wrk` first warms the server up for
//! [`WARM_UP`], then measures for the run's duration with `--latency`;
//! the table shows requests per second and the 99th percentile of
//! latency on both runtimes, their ratios, and the errors `wrk` counted
//! (timeouts, failed reads and writes, non-2xx answers). Load generator
//! and servers share the machine's cores, on both runtimes alike.

use super::Options;
use crate::gleam_mist::{self, App};
use crate::{Error, Result};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long `wrk` loads a server before each measured run.
const WARM_UP: Duration = Duration::from_secs(2);

/// The endpoints and connection counts measured, in order.
const SCENARIOS: [(&str, u32); 4] = [
    ("/hello", 50),
    ("/hello", 500),
    ("/work", 50),
    ("/work", 500),
];

/// What `wrk --latency` reported for one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Load {
    /// Requests completed per second.
    pub requests_per_second: f64,
    /// The 99th percentile of latency, in milliseconds.
    pub p99_ms: f64,
    /// Requests that failed: socket errors (connect, read, write,
    /// timeout) and answers other than 2xx or 3xx.
    pub errors: u64,
}

/// Builds the mist app, serves it on erl 27 and on beamr (a release
/// build), runs every scenario against both and prints the table. Fails
/// if a server cannot be built or started, or dies during the run.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let app = match crate::gleam_suites::mist_app(root) {
        Ok(app) => app?,
        Err(skip) => return Err(Error::new(format!("bench --server: {}", skip.0))),
    };
    let beamr = super::build::beamr(root, &[])?;
    let duration = options.duration;
    let mut erl = gleam_mist::start("erl 27", app.erl())?;
    let mut ours = gleam_mist::start("beamr", serve_beamr(&app, &beamr, options))?;
    println!(
        "bench: server: mist_app on erl 27 (port {}) and beamr (port {}), wrk -t2, {} s each after {} s of warm-up",
        erl.port,
        ours.port,
        duration.as_secs(),
        WARM_UP.as_secs()
    );
    let mut rows = Vec::new();
    for (path, connections) in SCENARIOS {
        let e = load(erl.port, path, connections, duration)?;
        let b = load(ours.port, path, connections, duration)?;
        rows.push((path, connections, e, b));
        for (name, server) in [("erl 27", &mut erl), ("beamr", &mut ours)] {
            if !server.is_running() {
                return Err(Error::new(format!(
                    "bench --server: the mist app on {name} died during {path} with {connections} connections"
                )));
            }
        }
    }
    erl.stop();
    ours.stop();
    println!();
    println!("| endpoint | connections | erl 27 req/s | beamr req/s | beamr/erl | erl 27 p99 | beamr p99 | erl 27 errors | beamr errors |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (path, connections, e, b) in rows {
        println!(
            "| {path} | {connections} | {:.0} | {:.0} | {:.2}x | {:.1} ms | {:.1} ms | {} | {} |",
            e.requests_per_second,
            b.requests_per_second,
            b.requests_per_second / e.requests_per_second,
            e.p99_ms,
            b.p99_ms,
            e.errors,
            b.errors
        );
    }
    Ok(())
}

/// The app on beamr, with `-S N` when the run asks for it.
fn serve_beamr(app: &App, beamr: &Path, options: &Options) -> Command {
    let mut command = app.beamr(beamr);
    if let Some(n) = options.schedulers {
        command.args(["-S", &n.to_string()]);
    }
    command
}

/// Warms the server on `port` up, then loads `path` with `connections`
/// for `duration` and reads what wrk measured.
fn load(port: u16, path: &str, connections: u32, duration: Duration) -> Result<Load> {
    let url = format!("http://127.0.0.1:{port}{path}");
    wrk(&url, connections, WARM_UP)?;
    let out = wrk(&url, connections, duration)?;
    parse_wrk(&out)
        .ok_or_else(|| Error::new(format!("bench --server: cannot read wrk's report:\n{out}")))
}

/// `wrk --latency` run for `duration`; its report.
fn wrk(url: &str, connections: u32, duration: Duration) -> Result<String> {
    let out = Command::new("wrk")
        .args(["-t2", "--latency", "--timeout", "2s"])
        .arg(format!("-c{connections}"))
        .arg(format!("-d{}s", duration.as_secs().max(1)))
        .arg(url)
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                Error::new("bench --server: needs wrk (apt-get install wrk)")
            }
            _ => Error::new(format!("bench --server: cannot run wrk: {e}")),
        })?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(text)
    } else {
        Err(Error::new(format!(
            "bench --server: wrk failed ({}): {text}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )))
    }
}

/// Requests per second, the 99th percentile and the errors of a `wrk
/// --latency` report; `None` if a figure is missing.
pub fn parse_wrk(report: &str) -> Option<Load> {
    let mut requests_per_second = None;
    let mut p99_ms = None;
    let mut errors = 0;
    for line in report.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("Requests/sec:") {
            requests_per_second = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("99%") {
            p99_ms = milliseconds(v.trim());
        } else if let Some(v) = line.strip_prefix("Socket errors:") {
            // "connect 0, read 0, write 0, timeout 234"
            for part in v.split(',') {
                errors += part.split_whitespace().nth(1)?.parse::<u64>().ok()?;
            }
        } else if let Some(v) = line.strip_prefix("Non-2xx or 3xx responses:") {
            errors += v.trim().parse::<u64>().ok()?;
        }
    }
    Some(Load {
        requests_per_second: requests_per_second?,
        p99_ms: p99_ms?,
        errors,
    })
}

/// A wrk duration (`560.70us`, `5.00ms`, `1.35s`, `2.00m`) in milliseconds.
fn milliseconds(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let scale = match unit {
        "us" => 0.001,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    Some(number * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "Running 8s test @ http://127.0.0.1:33663/hello
  2 threads and 500 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    23.86ms   16.02ms  88.22ms   60.99%
  Latency Distribution
     50%   21.14ms
     75%   30.12ms
     90%   45.00ms
     99%    1.35s 
  107264 requests in 8.01s, 15.55MB read
  Socket errors: connect 0, read 2, write 0, timeout 234
  Non-2xx or 3xx responses: 3
Requests/sec:  13396.53
Transfer/sec:      1.94MB
";

    #[test]
    fn reads_a_wrk_report() {
        let load = parse_wrk(REPORT).unwrap();
        assert_eq!(load.requests_per_second, 13396.53);
        assert_eq!(load.p99_ms, 1350.0);
        assert_eq!(load.errors, 239);
    }

    #[test]
    fn a_report_without_figures_is_refused() {
        assert_eq!(parse_wrk("unable to connect to 127.0.0.1:1"), None);
    }

    #[test]
    fn reads_every_unit() {
        assert!((milliseconds("560.70us").unwrap() - 0.5607).abs() < 1e-9);
        assert_eq!(milliseconds("5.00ms"), Some(5.0));
        assert_eq!(milliseconds("2.00m"), Some(120_000.0));
        assert_eq!(milliseconds("5.00"), None);
        assert_eq!(milliseconds("5.00xs"), None);
    }
}
