//! The probes table (`cargo xtask bench --probes`): what beamr's probe
//! sites cost while nothing is traced.
//!
//! beamr is built twice in release mode: as always (every probe compiled
//! in, each a load and a branch that nothing sets), and with beamr-cli's
//! `probes-off` feature (beamr-sched's `trace::PROBES` false: every probe
//! site compiled out). Each peer workload runs on both, back to back in
//! every repetition (which goes first alternates), untraced; the table
//! shows both medians and in/out, against issue 10 point 2's goal (within
//! 2%). The results must match between the builds.
//!
//! Time is what the goal is about, but a 2% difference drowns in a shared
//! machine's noise. With `--instructions` the table counts the
//! instructions each run executes instead, under valgrind's cachegrind
//! (`--cache-sim=no`): slow (tens of times slower), but nearly the same
//! from run to run whatever the load (`-S 1` makes it steadier still: no
//! work stealing). The runtime's start counts too, the same in both builds.

use super::build;
use super::options::Options;
use super::pair::{self, Medians, Metric, Variant};
use crate::Result;
use std::path::Path;

/// Issue 10 point 2: probes compiled in and off cost at most this ratio.
const GOAL: f64 = 1.02;

/// The feature that compiles the probes out.
const FEATURE: &str = "probes-off";

/// Builds both beamrs, runs `names` on them and prints the table; returns
/// the workloads that failed.
pub fn run(
    root: &Path,
    beam_dir: &Path,
    names: &[String],
    options: &Options,
) -> Result<Vec<String>> {
    let metric = Metric::of(options);
    let keep = root.join("target").join("bench");
    let variant = |label, beamr| Variant {
        label,
        beamr,
        args: Vec::new(),
        env: Vec::new(),
    };
    let on = variant(
        "beamr (probes in)",
        build::keep_copy(&build::beamr(root, &[])?, &keep, "beamr-probes-on")?,
    );
    let off = variant(
        "beamr (probes out)",
        build::keep_copy(&build::beamr(root, &[FEATURE])?, &keep, "beamr-probes-off")?,
    );
    println!(
        "bench: probes table, {} workload(s), {} run(s) each on beamr with probes \
         compiled in (off) and compiled out ({FEATURE}), median {}",
        names.len(),
        options.repeat,
        metric.plural()
    );
    let rows = pair::bench_all(names, [&on, &off], ["in", "out"], beam_dir, options, metric);
    print_table(&rows, options, metric);
    Ok(pair::failed(&rows, "probes"))
}

fn print_table(rows: &[(String, Medians)], options: &Options, metric: Metric) {
    let caveat = match metric {
        Metric::Time => {
            "A shared machine's noise is often larger than 2%: run with -n 5 or more, or \
             count instructions (--instructions), before reading much into one ratio."
        }
        Metric::Instructions => {
            "Instructions are not time (a probe's load may miss the cache; code layout \
             moves), but they are what the probes add, measured without the machine's noise."
        }
    };
    pair::print_table(
        &pair::Table {
            title: "Probes: beamr with probes compiled in (nothing traced) over beamr with them \
                    compiled out",
            columns: ["in (off)", "out"],
            goal: GOAL,
            goal_name: "Issue 10 point 2",
            caveat,
        },
        rows,
        options,
        metric,
    );
}
