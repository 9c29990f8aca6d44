//! The peer table: each workload of `../shared/bench` on the BEAM and on
//! beamr, untraced, and the ratio beamr/BEAM.
//!
//! Per workload and per repetition: `erl -noshell -pa DIR -s MOD main -s
//! init stop`, then `beamr run -e MOD DIR`, back to back so that both see
//! the same machine load. The table shows the median time of each side and
//! beamr/BEAM. A result that differs between the runtimes, a crash, a
//! timeout or output without a time fails the workload.

use super::runner::{human, measure, parse_line, ratio};
use super::Options;
use std::path::Path;
use std::process::Command;

/// A ratio above this gets a note in the table (issue 15 asks for the why).
const SLOW_RATIO: f64 = 5.0;

/// A workload's outcome over every repetition.
enum Outcome {
    /// Same result on both; median times.
    Ok {
        result: String,
        beamr: u64,
        beam: u64,
    },
    /// Different results, a crash, a timeout...
    Failed(String),
}

/// Runs `names` from `beam_dir` on both runtimes and prints the table;
/// returns the names of the workloads that failed.
pub fn run(beamr: &Path, beam_dir: &Path, names: &[String], options: &Options) -> Vec<String> {
    println!(
        "bench: {} workload(s), {} run(s) each on erl and on beamr ({}), median times",
        names.len(),
        options.repeat,
        beamr.display()
    );
    let mut outcomes = Vec::new();
    for name in names {
        let outcome = bench_one(name, beamr, beam_dir, options);
        match &outcome {
            Outcome::Ok { beamr, beam, .. } => println!(
                "  {name:<12} beamr {:>10}  BEAM {:>10}",
                human(*beamr),
                human(*beam)
            ),
            Outcome::Failed(why) => println!("  {name:<12} FAILED: {why}"),
        }
        outcomes.push((name.clone(), outcome));
    }
    print_table(&outcomes);
    outcomes
        .into_iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
        .map(|(n, _)| n)
        .collect()
}

/// `erl` running `module:function()` from `beam_dir`, then stopping.
pub fn erl(beam_dir: &Path, module: &str, function: &str) -> Command {
    let mut erl = Command::new("erl");
    erl.arg("-noshell")
        .arg("-pa")
        .arg(beam_dir)
        .args(["-s", module, function, "-s", "init", "stop"]);
    erl
}

/// `beamr run` with `options`' schedulers and `extra` arguments, running
/// `module:function()` from `beam_dir`.
pub fn beamr_run(
    beamr: &Path,
    beam_dir: &Path,
    entry: &str,
    extra: &[String],
    options: &Options,
) -> Command {
    let mut ours = Command::new(beamr);
    ours.arg("run");
    if let Some(n) = options.schedulers {
        ours.arg("-S").arg(n.to_string());
    }
    ours.args(extra).arg("-e").arg(entry).arg(beam_dir);
    ours
}

fn bench_one(name: &str, beamr: &Path, beam_dir: &Path, options: &Options) -> Outcome {
    let mut beamr_times = Vec::new();
    let mut beam_times = Vec::new();
    let mut result = None;
    for _ in 0..options.repeat {
        let mut erl = erl(beam_dir, name, "main");
        let mut ours = beamr_run(beamr, beam_dir, name, &[], options);
        let theirs = match measure("erl", &mut erl, options.timeout, parse_line) {
            Ok((line, _)) => line,
            Err(why) => return Outcome::Failed(why),
        };
        let mine = match measure("beamr", &mut ours, options.timeout, parse_line) {
            Ok((line, _)) => line,
            Err(why) => return Outcome::Failed(why),
        };
        if mine.result != theirs.result {
            return Outcome::Failed(format!(
                "results differ\n    erl:   {}\n    beamr: {}",
                theirs.result, mine.result
            ));
        }
        if let Some(previous) = &result {
            if *previous != theirs.result {
                return Outcome::Failed(format!(
                    "erl's result changed between runs: `{previous}`, then `{}`",
                    theirs.result
                ));
            }
        }
        result = Some(theirs.result);
        beamr_times.push(mine.micros);
        beam_times.push(theirs.micros);
    }
    Outcome::Ok {
        result: result.unwrap_or_default(),
        beamr: super::runner::median(&mut beamr_times),
        beam: super::runner::median(&mut beam_times),
    }
}

fn print_table(outcomes: &[(String, Outcome)]) {
    println!();
    println!(
        "| {:<12} | {:>10} | {:>10} | {:>7} | result",
        "workload", "beamr", "BEAM", "ratio"
    );
    println!("|{:-<14}|{:->12}|{:->12}|{:->9}|--------", "", "", "", "");
    let mut slow = Vec::new();
    for (name, outcome) in outcomes {
        match outcome {
            Outcome::Ok {
                result,
                beamr,
                beam,
            } => {
                let r = ratio(*beamr, *beam);
                if r > SLOW_RATIO {
                    slow.push(name.as_str());
                }
                println!(
                    "| {name:<12} | {:>10} | {:>10} | {:>6.2}x | {}",
                    human(*beamr),
                    human(*beam),
                    r,
                    result.replace('\n', " / ")
                );
            }
            Outcome::Failed(_) => println!(
                "| {name:<12} | {:>10} | {:>10} | {:>7} | FAILED (see above)",
                "-", "-", "-"
            ),
        }
    }
    if !slow.is_empty() {
        println!(
            "bench: more than {SLOW_RATIO}x slower than the BEAM: {}",
            slow.join(", ")
        );
    }
}
