//! The options of `cargo xtask bench` and which tables they ask for.

use crate::{Error, Result};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// The name that selects the traced table among the workload names: the
/// peer folder's `traced.erl`, which has no `main/0` of its own.
pub const TRACED: &str = "traced";

/// Options of one `cargo xtask bench`.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Runs per workload and runtime; the median time is reported.
    pub repeat: usize,
    /// Where the `.erl` workloads are (default `<root>/../shared/bench`).
    pub dir: Option<PathBuf>,
    /// Only these workloads (all when empty); `traced` names the traced
    /// table.
    pub only: Vec<String>,
    /// Longest a single run may take.
    pub timeout: Duration,
    /// `-S N` for beamr (default: its own, one scheduler per core).
    pub schedulers: Option<usize>,
    /// `--traced`: the traced table.
    pub traced: bool,
    /// `--probes`: the probes-on / probes-off table.
    pub probes: bool,
    /// `--flight`: the flight recorder's table.
    pub flight: bool,
    /// `--instructions` (with `--probes` or `--flight`): instructions
    /// counted under valgrind instead of time.
    pub instructions: bool,
    /// `--server`: the server table (the mist app under wrk), alone.
    pub server: bool,
    /// `-d SECS` (with `--server`): how long wrk loads each scenario.
    pub duration: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            repeat: 1,
            dir: None,
            only: Vec::new(),
            timeout: Duration::from_secs(300),
            schedulers: None,
            traced: false,
            probes: false,
            flight: false,
            instructions: false,
            server: false,
            duration: Duration::from_secs(10),
        }
    }
}

/// The tables one run prints.
#[derive(Debug, PartialEq, Eq)]
pub struct Tables {
    /// beamr against the BEAM, untraced, on the peer workloads.
    pub peer: bool,
    /// Tracing's cost on both runtimes.
    pub traced: bool,
    /// beamr with probes compiled in (and off) against beamr without them.
    pub probes: bool,
    /// beamr with its flight recorder on against beamr without it.
    pub flight: bool,
}

impl Options {
    /// Which tables to print: `--traced`, `--probes` and `--flight` ask for theirs
    /// alone; without them, the peer table (unless the names given are
    /// only `traced`) and the traced table (unless names are given without
    /// `traced`).
    pub fn tables(&self) -> Tables {
        if self.traced || self.probes || self.flight {
            return Tables {
                peer: false,
                traced: self.traced,
                probes: self.probes,
                flight: self.flight,
            };
        }
        let named_traced = self.only.iter().any(|n| n == TRACED);
        Tables {
            peer: self.only.is_empty() || self.only.iter().any(|n| n != TRACED),
            traced: self.only.is_empty() || named_traced,
            probes: false,
            flight: false,
        }
    }

    /// The workloads named for the peer and probes tables (without
    /// `traced`).
    pub fn peer_names(&self) -> Vec<String> {
        self.only.iter().filter(|n| *n != TRACED).cloned().collect()
    }
}

/// Parses the arguments after `bench`.
pub fn parse(args: &[OsString]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| Error::new(format!("bench: {name} needs a value")))
        };
        match arg.as_str() {
            "-n" | "--repeat" => {
                options.repeat = positive(&arg, &value(&arg)?)?;
            }
            "--dir" => options.dir = Some(PathBuf::from(value(&arg)?)),
            "--timeout" => {
                options.timeout = Duration::from_secs(positive(&arg, &value(&arg)?)? as u64);
            }
            "-S" | "--schedulers" => {
                options.schedulers = Some(positive(&arg, &value(&arg)?)?);
            }
            "--traced" => options.traced = true,
            "--probes" => options.probes = true,
            "--flight" => options.flight = true,
            "--instructions" => options.instructions = true,
            "--server" => options.server = true,
            "-d" | "--duration" => {
                options.duration = Duration::from_secs(positive(&arg, &value(&arg)?)? as u64);
            }
            flag if flag.starts_with('-') => {
                return Err(Error::new(format!("bench: unknown option `{flag}`")));
            }
            name => options.only.push(name.trim_end_matches(".erl").to_owned()),
        }
    }
    if options.instructions && !(options.probes || options.flight) {
        return Err(Error::new(
            "bench: --instructions goes with --probes or --flight",
        ));
    }
    if options.server && (options.traced || options.probes || options.flight) {
        return Err(Error::new("bench: --server runs its table alone"));
    }
    Ok(options)
}

fn positive(name: &str, value: &str) -> Result<usize> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Error::new(format!(
            "bench: {name} takes a positive number (got `{value}`)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_options_and_names() {
        let o = parse(&args(&["--server", "-d", "4"])).unwrap();
        assert!(o.server);
        assert_eq!(o.duration, Duration::from_secs(4));
        assert!(parse(&args(&["--server", "--flight"])).is_err());
        let o = parse(&args(&["-n", "3", "fib", "ring.erl", "--timeout", "9"])).unwrap();
        assert_eq!(o.repeat, 3);
        assert_eq!(o.only, vec!["fib".to_owned(), "ring".to_owned()]);
        assert_eq!(o.timeout, Duration::from_secs(9));
        assert_eq!(parse(&args(&[])).unwrap(), Options::default());
        assert!(parse(&args(&["-n", "0"])).is_err());
        assert!(parse(&args(&["-n"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
        assert!(
            parse(&args(&["--probes", "--instructions"]))
                .unwrap()
                .instructions
        );
        assert!(parse(&args(&["--instructions"])).is_err());
        let o = parse(&args(&["--traced", "--probes", "-S", "2"])).unwrap();
        assert!(o.traced && o.probes && !o.instructions);
        assert_eq!(o.schedulers, Some(2));
    }

    #[test]
    fn picks_the_tables() {
        let tables = |list: &[&str]| parse(&args(list)).unwrap().tables();
        let t = |peer, traced, probes| Tables {
            peer,
            traced,
            probes,
            flight: false,
        };
        assert_eq!(tables(&[]), t(true, true, false));
        assert_eq!(tables(&["fib"]), t(true, false, false));
        assert_eq!(tables(&["traced"]), t(false, true, false));
        assert_eq!(tables(&["fib", "traced.erl"]), t(true, true, false));
        assert_eq!(tables(&["--traced"]), t(false, true, false));
        assert_eq!(tables(&["--probes", "fib"]), t(false, false, true));
        assert_eq!(tables(&["--probes", "--traced"]), t(false, true, true));
        let flight = tables(&["--flight", "ring"]);
        assert!(flight.flight && !flight.peer && !flight.traced && !flight.probes);
        assert!(
            parse(&args(&["--flight", "--instructions"]))
                .unwrap()
                .instructions
        );
        let o = parse(&args(&["--probes", "fib", "traced", "ring"])).unwrap();
        assert_eq!(o.peer_names(), ["fib", "ring"]);
    }
}
