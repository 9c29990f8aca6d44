//! Running one benchmark program and reading the time it printed.
//!
//! A program prints its result, then its time: its output ends with
//! `<digits> us`, the microseconds its work took as measured inside the
//! program (so the runtime's start and stop never count). Everything
//! before the time is the result, which must be the same on every runtime.

use crate::process;
use crate::{Error, Result};
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// One run's output split into the result and the time.
#[derive(Debug, PartialEq, Eq)]
pub struct Line {
    /// What the program printed before its time.
    pub result: String,
    /// The time it printed.
    pub micros: u64,
}

/// Splits `text` (a program's standard output) into its result and time:
/// it must end with `<digits> us`; the result is everything before that, so
/// that any other output a runtime prints differently counts as a mismatch.
pub fn parse_line(text: &str) -> Option<Line> {
    let rest = text.trim_end().strip_suffix(" us")?;
    let digits_at = rest
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let micros = rest[digits_at..].parse().ok()?;
    let result = rest[..digits_at].trim().to_owned();
    Some(Line { result, micros })
}

/// [`parse_line`] of the last non-blank line of `text` alone: for programs
/// whose earlier lines are not theirs (a workload that prints a time of its
/// own, inside a driver that times more).
pub fn parse_last_line(text: &str) -> Option<Line> {
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    parse_line(last)
}

/// The median of `times` (the mean of the middle two for an even count).
pub fn median(times: &mut [u64]) -> u64 {
    times.sort_unstable();
    let n = times.len();
    if n == 0 {
        0
    } else if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// `1234567` microseconds as `1.235 s`, `12.3 ms`...
pub fn human(micros: u64) -> String {
    if micros >= 1_000_000 {
        format!("{:.3} s", micros as f64 / 1e6)
    } else if micros >= 1_000 {
        format!("{:.1} ms", micros as f64 / 1e3)
    } else {
        format!("{micros} us")
    }
}

/// `a / b` as a float, `b` at least 1.
pub fn ratio(a: u64, b: u64) -> f64 {
    a as f64 / b.max(1) as f64
}

/// What one run printed, or why it did not count.
#[derive(Debug)]
pub struct RunOutput {
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Exited with status 0 in time.
    pub success: bool,
    /// Killed after the timeout.
    pub timed_out: bool,
    /// How it ended (`None` when that could not be read).
    pub status: Option<ExitStatus>,
}

/// Runs `cmd` with its output captured, killing it after `timeout`.
pub fn run_captured(cmd: &mut Command, timeout: Duration) -> Result<RunOutput> {
    let shown = process::display(cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| Error::new(format!("could not start `{shown}`: {err}")))?;
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("piped")));
    let err = reader(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + timeout;
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                break (child.wait().ok(), true);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(err) => return Err(Error::new(format!("waiting for `{shown}`: {err}"))),
        }
    };
    Ok(RunOutput {
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        success: status.is_some_and(|s| s.success()) && !timed_out,
        timed_out,
        status,
    })
}

/// The last `n` lines of `text`, indented, for an error message.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(n);
    lines[start..]
        .iter()
        .map(|l| format!("      {l}\n"))
        .collect()
}

/// One run of a program on `runtime` (a name for messages): its output,
/// read by `parse`, or why it does not count (a crash, a timeout, output
/// without a time).
pub fn measure(
    runtime: &str,
    cmd: &mut Command,
    timeout: Duration,
    parse: fn(&str) -> Option<Line>,
) -> std::result::Result<(Line, RunOutput), String> {
    let shown = process::display(cmd);
    let out = run_captured(cmd, timeout).map_err(|e| e.to_string())?;
    if out.timed_out {
        return Err(format!(
            "{runtime} took longer than {}s: `{shown}`",
            timeout.as_secs()
        ));
    }
    if !out.success {
        return Err(format!(
            "{runtime} failed: `{shown}`\n    stdout:\n{}    stderr:\n{}",
            tail(&out.stdout, 10),
            tail(&out.stderr, 10)
        ));
    }
    match parse(&out.stdout) {
        Some(line) => Ok((line, out)),
        None => Err(format!(
            "{runtime}'s output does not end in `<N> us`: `{shown}`\n    stdout:\n{}",
            tail(&out.stdout, 10)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_result_and_time() {
        assert_eq!(
            parse_line("fib 30 = 832040 22486 us\n"),
            Some(Line {
                result: "fib 30 = 832040".into(),
                micros: 22486
            })
        );
        assert_eq!(
            parse_line("noise\nring 10000 100 done 1263104 us\n\n"),
            Some(Line {
                result: "noise\nring 10000 100 done".into(),
                micros: 1263104
            })
        );
        assert_eq!(parse_line("fib 30 = many us"), None);
        assert_eq!(parse_line("fib 30 = 832040 ms"), None);
        assert_eq!(parse_line("no time here"), None);
        assert_eq!(parse_line(""), None);
    }

    #[test]
    fn the_last_line_alone_is_the_drivers() {
        let out = "ring 10000 100 done 2569821 us\nring_file 10000 100, trace file over 1 MB 10783896 us\n\n";
        assert_eq!(
            parse_last_line(out),
            Some(Line {
                result: "ring_file 10000 100, trace file over 1 MB".into(),
                micros: 10783896
            })
        );
        assert_eq!(parse_last_line("ring 1 us\nno time\n"), None);
        assert_eq!(parse_last_line("\n \n"), None);
    }

    #[test]
    fn medians_ratios_and_units() {
        assert_eq!(median(&mut [5, 1, 3]), 3);
        assert_eq!(median(&mut [4, 1, 3, 2]), 2);
        assert_eq!(median(&mut []), 0);
        assert_eq!(human(999), "999 us");
        assert_eq!(human(22_486), "22.5 ms");
        assert_eq!(human(1_263_104), "1.263 s");
        assert_eq!(ratio(30, 10), 3.0);
        assert_eq!(ratio(5, 0), 5.0);
    }

    #[cfg(unix)]
    #[test]
    fn captures_output_and_times_out() {
        let out = run_captured(
            Command::new("sh").args(["-c", "echo hi; echo err >&2"]),
            Duration::from_secs(10),
        )
        .unwrap();
        assert!(out.success && !out.timed_out);
        assert_eq!(out.stdout, "hi\n");
        assert_eq!(out.stderr, "err\n");
        let out = run_captured(
            Command::new("sh").args(["-c", "exec sleep 5"]),
            Duration::from_millis(100),
        )
        .unwrap();
        assert!(out.timed_out && !out.success);
    }

    #[cfg(unix)]
    #[test]
    fn measure_reads_the_time_or_says_why_not() {
        let mut ok = Command::new("sh");
        ok.args(["-c", "echo 'fib 30 = 832040 12 us'"]);
        let (line, _) = measure("sh", &mut ok, Duration::from_secs(10), parse_line).unwrap();
        assert_eq!(line.micros, 12);
        let mut bad = Command::new("sh");
        bad.args(["-c", "echo no time"]);
        let err = measure("sh", &mut bad, Duration::from_secs(10), parse_line).unwrap_err();
        assert!(err.contains("does not end in"), "{err}");
        let mut failing = Command::new("sh");
        failing.args(["-c", "echo boom >&2; exit 3"]);
        let err = measure("sh", &mut failing, Duration::from_secs(10), parse_line).unwrap_err();
        assert!(err.contains("failed") && err.contains("boom"), "{err}");
    }
}
