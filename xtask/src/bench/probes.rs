//! The probes table (`cargo xtask bench --probes`): what beamr's probe
//! sites cost while nothing is traced.
//!
//! beamr is built twice in release mode: as always (every probe compiled
//! in, each a load and a branch that nothing sets), and with beamr-cli's
//! `probes-off` feature (beamr-sched's `trace::PROBES` false: every probe
//! site compiled out). Each peer workload runs on both, back to back in
//! every repetition (which goes first alternates), untraced; the table
//! shows both medians and on/off, against issue 10 point 2's goal (within
//! 2%). The results must match between the builds.

use super::build;
use super::options::Options;
use super::peer::beamr_run;
use super::runner::{human, measure, median, parse_line, ratio};
use crate::Result;
use std::path::{Path, PathBuf};

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
    let keep = root.join("target").join("bench");
    let on = build::keep_copy(&build::beamr(root, &[])?, &keep, "beamr-probes-on")?;
    let off = build::keep_copy(&build::beamr(root, &[FEATURE])?, &keep, "beamr-probes-off")?;
    println!(
        "bench: probes table, {} workload(s), {} run(s) each on beamr with probes \
         compiled in (off) and compiled out ({FEATURE}), median times",
        names.len(),
        options.repeat
    );
    let mut rows = Vec::new();
    for name in names {
        let row = bench_one(name, [&on, &off], beam_dir, options);
        match &row {
            Ok((a, b, _)) => println!("  {name:<12} in {:>10}  out {:>10}", human(*a), human(*b)),
            Err(why) => println!("  {name:<12} FAILED: {why}"),
        }
        rows.push((name.clone(), row));
    }
    print_table(&rows, options);
    Ok(rows
        .into_iter()
        .filter(|(_, r)| r.is_err())
        .map(|(n, _)| format!("probes: {n}"))
        .collect())
}

/// Medians on `[on, off]` and the result, or why the workload failed.
fn bench_one(
    name: &str,
    beamrs: [&PathBuf; 2],
    beam_dir: &Path,
    options: &Options,
) -> std::result::Result<(u64, u64, String), String> {
    let mut times = [Vec::new(), Vec::new()];
    let mut result: Option<String> = None;
    for round in 0..options.repeat {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let label = ["beamr (probes in)", "beamr (probes out)"][i];
            let mut cmd = beamr_run(beamrs[i], beam_dir, name, &[], options);
            let (line, _) = measure(label, &mut cmd, options.timeout, parse_line)?;
            match &result {
                Some(r) if *r != line.result => {
                    return Err(format!(
                        "results differ: `{r}`, then `{}` ({label})",
                        line.result
                    ))
                }
                _ => result = Some(line.result),
            }
            times[i].push(line.micros);
        }
    }
    Ok((
        median(&mut times[0]),
        median(&mut times[1]),
        result.unwrap_or_default(),
    ))
}

/// The goal column: met or not.
fn verdict(r: f64) -> &'static str {
    if r <= GOAL {
        "met"
    } else {
        "NOT met"
    }
}

type Row = (String, std::result::Result<(u64, u64, String), String>);

fn print_table(rows: &[Row], options: &Options) {
    println!();
    println!(
        "Probes: beamr with probes compiled in (nothing traced) over beamr with them compiled \
         out, medians of {} run(s).",
        options.repeat
    );
    println!(
        "| {:<12} | {:>10} | {:>10} | {:>7} | goal <= {GOAL:.2}x",
        "workload", "in (off)", "out", "ratio"
    );
    println!("|{:-<14}|{:->12}|{:->12}|{:->9}|------", "", "", "", "");
    let mut met = 0;
    let mut judged = 0;
    for (name, row) in rows {
        match row {
            Ok((on, off, _)) => {
                let r = ratio(*on, *off);
                judged += 1;
                met += usize::from(r <= GOAL);
                println!(
                    "| {name:<12} | {:>10} | {:>10} | {:>6.3}x | {}",
                    human(*on),
                    human(*off),
                    r,
                    verdict(r)
                );
            }
            Err(_) => println!(
                "| {name:<12} | {:>10} | {:>10} | {:>7} | FAILED (see above)",
                "-", "-", "-"
            ),
        }
    }
    println!(
        "Issue 10 point 2: {met} of {judged} within 2%. A shared machine's noise is often \
         larger than 2%: run with -n 5 or more before reading much into one ratio."
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_two_percent_is_met() {
        assert_eq!(verdict(1.0), "met");
        assert_eq!(verdict(0.97), "met");
        assert_eq!(verdict(1.02), "met");
        assert_eq!(verdict(1.021), "NOT met");
    }
}
