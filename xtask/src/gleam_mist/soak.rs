//! `cargo xtask soak --mist`: the mist app on beamr under a fixed rate of
//! requests for minutes, its resident memory sampled, every answer checked.
//!
//! [`CONNECTIONS`] keep-alive connections each send one request every
//! `CONNECTIONS / rate` seconds, in turn from [`REQUESTS`] (a text, JSON,
//! a POST echo, the CPU-bound endpoint). Every answer must be the one the
//! same request got first (its `date` header masked); anything else, a
//! failed read or write, a timeout or a closed connection is a failed
//! response (the connection is then made again). Resident memory
//! (`VmRSS`) is read every [`SAMPLE`]; after the warm-up (the first tenth
//! of the run, at least [`SAMPLE`]) it may grow at most 10% over what it
//! was at the warm-up's end. The run fails on a failed response, on that
//! growth, or if the server dies.

use super::{client, start, App};
use crate::{Error, Result};
use std::collections::HashMap;
use std::fs;
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Connections the load is spread over.
pub const CONNECTIONS: u32 = 50;

/// How often resident memory is read.
pub const SAMPLE: Duration = Duration::from_secs(5);

/// How much resident memory may grow after the warm-up: 10%.
const GROWTH_ALLOWED: f64 = 0.10;

/// The requests sent, in turn on each connection.
pub const REQUESTS: [&[u8]; 4] = [
    b"GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET /json?name=soak HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 26\r\n\r\nabcdefghijklmnopqrstuvwxyz",
    b"GET /work?n=500 HTTP/1.1\r\nHost: localhost\r\n\r\n",
];

/// How long one soak runs, and at what rate.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Plan {
    /// The run's length.
    pub duration: Duration,
    /// Requests per second, over all connections.
    pub rate: u32,
}

/// What a soak saw.
#[derive(Debug, Default)]
struct Tally {
    ok: AtomicU64,
    failed: AtomicU64,
    /// The first few failures, for the report.
    failures: Mutex<Vec<String>>,
    /// The first answer each request got, masked, by its index.
    expected: Mutex<HashMap<usize, String>>,
}

impl Tally {
    fn fail(&self, why: String) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() < 10 {
            failures.push(why);
        }
    }

    /// Records the answer to request `index`: the same as the first one's,
    /// or a failure.
    fn answer(&self, index: usize, answer: Vec<u8>) {
        let masked = client::masked(&answer);
        let mut expected = self.expected.lock().unwrap_or_else(|e| e.into_inner());
        let first = expected.entry(index).or_insert_with(|| masked.clone());
        if *first == masked {
            drop(expected);
            self.ok.fetch_add(1, Ordering::Relaxed);
        } else {
            let first = first.clone();
            drop(expected);
            self.fail(format!(
                "request {index} answered {masked:?} where it first answered {first:?}"
            ));
        }
    }
}

/// Serves `app` on `beamr` and soaks it as [`Plan`] says; prints the
/// memory samples and the tally.
pub fn run(app: &App, beamr: &Path, plan: Plan) -> Result<()> {
    let mut server = start("beamr", app.beamr(beamr))?;
    let pid = server.pid();
    let port = server.port;
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let interval = Duration::from_secs_f64(f64::from(CONNECTIONS) / f64::from(plan.rate.max(1)));
    println!(
        "soak: mist_app on beamr (pid {pid}, port {port}): {} requests/s over {CONNECTIONS} connections for {} s",
        plan.rate,
        plan.duration.as_secs()
    );
    let workers: Vec<_> = (0..CONNECTIONS)
        .map(|n| {
            let (tally, stop) = (Arc::clone(&tally), Arc::clone(&stop));
            // Spread the connections' sends over one interval.
            let offset = interval.mul_f64(f64::from(n) / f64::from(CONNECTIONS));
            thread::spawn(move || connection(port, offset, interval, &tally, &stop))
        })
        .collect();
    let started = Instant::now();
    let warm_up = (plan.duration / 10).max(SAMPLE);
    let mut samples = Vec::new();
    let mut baseline = None;
    let mut died = false;
    while started.elapsed() < plan.duration {
        thread::sleep(SAMPLE.min(plan.duration.saturating_sub(started.elapsed())));
        if !server.is_running() {
            died = true;
            break;
        }
        let Some(rss) = resident_kib(pid) else {
            continue;
        };
        let at = started.elapsed();
        println!(
            "soak: {:>5} s: resident {} KiB, {} answered, {} failed",
            at.as_secs(),
            rss,
            tally.ok.load(Ordering::Relaxed),
            tally.failed.load(Ordering::Relaxed)
        );
        if baseline.is_none() && at >= warm_up {
            baseline = Some(rss);
        }
        samples.push((at, rss));
    }
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        let _ = worker.join();
    }
    let output = server.stop();
    let ok = tally.ok.load(Ordering::Relaxed);
    let failed = tally.failed.load(Ordering::Relaxed);
    let peak = samples
        .iter()
        .filter(|(at, _)| *at >= warm_up)
        .map(|(_, rss)| *rss)
        .max();
    println!(
        "soak: {ok} answered as first answered, {failed} failed, {:.0} requests/s",
        ok as f64 / started.elapsed().as_secs_f64()
    );
    let mut problems = Vec::new();
    if died {
        problems.push(format!(
            "the server died; it printed:\n{}",
            output.join("\n")
        ));
    }
    if failed > 0 {
        let failures = tally.failures.lock().unwrap_or_else(|e| e.into_inner());
        problems.push(format!(
            "{failed} failed responses, the first: {}",
            failures.join("; ")
        ));
    }
    match (baseline, peak) {
        (Some(base), Some(peak)) => {
            let growth = peak as f64 / base as f64 - 1.0;
            println!(
                "soak: resident memory {base} KiB after the warm-up ({} s), at most {peak} KiB after: {:+.1}%",
                warm_up.as_secs(),
                growth * 100.0
            );
            if growth > GROWTH_ALLOWED {
                problems.push(format!(
                    "resident memory grew {:.1}% after the warm-up (allowed {:.0}%)",
                    growth * 100.0,
                    GROWTH_ALLOWED * 100.0
                ));
            }
        }
        _ if !died => problems.push("no memory sample after the warm-up".into()),
        _ => {}
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!("soak --mist: {}", problems.join("; "))))
    }
}

/// One connection's loop: a request every `interval`, starting `offset`
/// in, until `stop`; a connection that fails is made again.
fn connection(port: u16, offset: Duration, interval: Duration, tally: &Tally, stop: &AtomicBool) {
    let mut next = Instant::now() + offset;
    let mut stream: Option<TcpStream> = None;
    let mut index = 0;
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if next > now {
            thread::sleep(next - now);
        }
        next += interval;
        let conn = match stream.as_mut() {
            Some(conn) => conn,
            None => match client::keep_alive(port) {
                Ok(conn) => stream.insert(conn),
                Err(why) => {
                    tally.fail(why);
                    continue;
                }
            },
        };
        let request = index % REQUESTS.len();
        index += 1;
        match client::exchange(conn, REQUESTS[request]) {
            Ok(answer) => tally.answer(request, answer),
            Err(why) => {
                tally.fail(format!("request {request}: {why}"));
                stream = None;
            }
        }
    }
}

/// The resident memory of process `pid`, in KiB.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Parses `--mist [--minutes M] [--rate R]` (after `soak`).
pub fn parse(args: &[String]) -> Result<Plan> {
    let mut plan = Plan {
        duration: Duration::from_secs(600),
        rate: 2000,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = || -> Result<u64> {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| Error::new(format!("soak --mist: {arg} takes a positive number")))
        };
        match arg.as_str() {
            "--mist" => {}
            "--minutes" => plan.duration = Duration::from_secs(number()? * 60),
            "--seconds" => plan.duration = Duration::from_secs(number()?),
            "--rate" => plan.rate = u32::try_from(number()?).unwrap_or(u32::MAX),
            other => {
                return Err(Error::new(format!(
                    "usage: cargo xtask soak --mist [--minutes M | --seconds S] [--rate R] (not {other:?})"
                )))
            }
        }
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_a_plan() {
        assert_eq!(
            parse(&args(&["--mist"])).unwrap(),
            Plan {
                duration: Duration::from_secs(600),
                rate: 2000
            }
        );
        let plan = parse(&args(&["--mist", "--seconds", "30", "--rate", "500"])).unwrap();
        assert_eq!(plan.duration, Duration::from_secs(30));
        assert_eq!(plan.rate, 500);
        assert!(parse(&args(&["--mist", "--rate", "0"])).is_err());
        assert!(parse(&args(&["--mist", "--minutes"])).is_err());
        assert!(parse(&args(&["--mist", "fast"])).is_err());
    }

    #[test]
    fn a_changed_answer_is_a_failure() {
        let tally = Tally::default();
        tally.answer(0, b"HTTP/1.1 200 OK\r\ndate: a\r\n\r\n".to_vec());
        tally.answer(0, b"HTTP/1.1 200 OK\r\ndate: b\r\n\r\n".to_vec());
        assert_eq!(tally.ok.load(Ordering::Relaxed), 2);
        tally.answer(0, b"HTTP/1.1 500 Oops\r\ndate: b\r\n\r\n".to_vec());
        assert_eq!(tally.failed.load(Ordering::Relaxed), 1);
    }
}
