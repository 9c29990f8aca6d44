//! The flight table (`cargo xtask bench --flight`): what the always-on
//! flight recorder costs (issue 33 point 4: at most 3% on the process
//! workloads). One release build of beamr runs each workload with
//! `BEAMR_FLIGHT=1` and with `BEAMR_FLIGHT=0`, back to back in every
//! repetition; the table shows both medians and their ratio. Without
//! names it runs `ring`, `pingpong` and `spawn_many`, the workloads the
//! goal is about. With `--instructions` it counts instructions under
//! cachegrind instead of time (the runtime's start, which the recorder
//! makes a little longer, counts too).

use super::build;
use super::options::Options;
use super::pair::{self, Metric, Variant};
use crate::Result;
use std::path::Path;

/// Issue 33 point 4: a run with the recorder over one without, at most.
const GOAL: f64 = 1.03;

/// The workloads the goal names, run when none are given.
pub const WORKLOADS: [&str; 3] = ["ring", "pingpong", "spawn_many"];

/// The setting that turns the recorder on (`beamr_ctl::flight::ENV`).
const ENV: &str = "BEAMR_FLIGHT";

/// Runs `names` (or [`WORKLOADS`]) with and without the recorder and
/// prints the table; returns the workloads that failed.
pub fn run(
    root: &Path,
    beam_dir: &Path,
    names: &[String],
    options: &Options,
) -> Result<Vec<String>> {
    let metric = Metric::of(options);
    let names: Vec<String> = if names.is_empty() {
        WORKLOADS.iter().map(|n| n.to_string()).collect()
    } else {
        names.to_vec()
    };
    let beamr = build::beamr(root, &[])?;
    let variant = |label, value| Variant {
        label,
        beamr: beamr.clone(),
        args: Vec::new(),
        env: vec![(ENV, value)],
    };
    let on = variant("beamr (flight recorder)", "1");
    let off = variant("beamr (no flight recorder)", "0");
    println!(
        "bench: flight table, {} workload(s), {} run(s) each on beamr with {ENV}=1 and \
         {ENV}=0, median {}",
        names.len(),
        options.repeat,
        metric.plural()
    );
    let rows = pair::bench_all(
        &names,
        [&on, &off],
        ["on", "off"],
        beam_dir,
        options,
        metric,
    );
    let caveat = match metric {
        Metric::Time => {
            "A shared machine's noise is often larger than 3%: run with -n 5 or more, or \
             count instructions (--instructions)."
        }
        Metric::Instructions => {
            "Instructions are not time, but they are what the recorder adds, measured \
             without the machine's noise; the runtime's start is in both."
        }
    };
    pair::print_table(
        &pair::Table {
            title: "Flight recorder: beamr with BEAMR_FLIGHT=1 over beamr without it",
            columns: ["on", "off"],
            goal: GOAL,
            goal_name: "Issue 33 point 4",
            caveat,
        },
        &rows,
        options,
        metric,
    );
    Ok(pair::failed(&rows, "flight"))
}
