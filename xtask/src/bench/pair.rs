//! What the probes and flight tables share: one workload run on two
//! variants of beamr (two builds, or one build with and without a
//! setting), back to back in every repetition (which goes first
//! alternates), compared by the time the workload printed or by the
//! instructions the whole run executed under valgrind's cachegrind
//! (`--cache-sim=no`: slow, tens of times, but nearly the same from run to
//! run whatever the load). The results must match between the variants.

use super::options::Options;
use super::peer::beamr_run;
use super::runner::{human, measure, median, parse_line};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a table compares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Metric {
    /// The time the workload printed, in microseconds.
    Time,
    /// The instructions the whole run executed, as cachegrind counts them.
    Instructions,
}

impl Metric {
    /// The metric `--instructions` asks for.
    pub fn of(options: &Options) -> Metric {
        if options.instructions {
            Metric::Instructions
        } else {
            Metric::Time
        }
    }

    /// `value` for people.
    pub fn show(self, value: u64) -> String {
        match self {
            Metric::Time => human(value),
            Metric::Instructions => format!("{:.1} M", value as f64 / 1e6),
        }
    }

    /// What the medians are of.
    pub fn plural(self) -> &'static str {
        match self {
            Metric::Time => "times",
            Metric::Instructions => "instruction counts",
        }
    }
}

/// One side of the comparison.
pub struct Variant {
    /// Its name in errors (`beamr (probes in)`).
    pub label: &'static str,
    /// The beamr binary.
    pub beamr: PathBuf,
    /// Extra arguments of `beamr run`, before the workload.
    pub args: Vec<String>,
    /// Environment variables set for the run.
    pub env: Vec<(&'static str, &'static str)>,
}

/// The median of each variant and the workload's result, or why the
/// workload failed.
pub type Medians = std::result::Result<(u64, u64, String), String>;

/// `cmd` under cachegrind, counting instructions only.
fn under_cachegrind(cmd: &Command) -> Command {
    let mut counted = Command::new("valgrind");
    counted
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => counted.env(key, value),
            None => counted.env_remove(key),
        };
    }
    counted
}

/// The instructions cachegrind counted, from its report on standard
/// error (`==PID== I   refs:      1,713,554,195`).
fn parse_instructions(stderr: &str) -> Option<u64> {
    let line = stderr.lines().find(|l| l.contains("I   refs:"))?;
    let count = line.split("I   refs:").nth(1)?.trim().replace(',', "");
    count.parse().ok()
}

/// Runs workload `name` on both variants, `options.repeat` times each.
pub fn bench_pair(
    name: &str,
    variants: [&Variant; 2],
    beam_dir: &Path,
    options: &Options,
    metric: Metric,
) -> Medians {
    let mut values = [Vec::new(), Vec::new()];
    let mut result: Option<String> = None;
    for round in 0..options.repeat {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let variant = variants[i];
            let mut cmd = beamr_run(&variant.beamr, beam_dir, name, &variant.args, options);
            cmd.envs(variant.env.iter().copied());
            if metric == Metric::Instructions {
                cmd = under_cachegrind(&cmd);
            }
            let (line, out) = measure(variant.label, &mut cmd, options.timeout, parse_line)?;
            match &result {
                Some(r) if *r != line.result => {
                    return Err(format!(
                        "results differ: `{r}`, then `{}` ({})",
                        line.result, variant.label
                    ))
                }
                _ => result = Some(line.result),
            }
            values[i].push(match metric {
                Metric::Time => line.micros,
                Metric::Instructions => parse_instructions(&out.stderr).ok_or_else(|| {
                    format!("no instruction count from valgrind ({})", variant.label)
                })?,
            });
        }
    }
    Ok((
        median(&mut values[0]),
        median(&mut values[1]),
        result.unwrap_or_default(),
    ))
}

/// Runs each of `names` on both variants (see [`bench_pair`]), printing
/// each workload's medians as it ends, `short` naming the two.
pub fn bench_all(
    names: &[String],
    variants: [&Variant; 2],
    short: [&str; 2],
    beam_dir: &Path,
    options: &Options,
    metric: Metric,
) -> Vec<(String, Medians)> {
    let mut rows = Vec::new();
    for name in names {
        let row = bench_pair(name, variants, beam_dir, options, metric);
        match &row {
            Ok((a, b, _)) => println!(
                "  {name:<12} {} {:>10}  {} {:>10}",
                short[0],
                metric.show(*a),
                short[1],
                metric.show(*b)
            ),
            Err(why) => println!("  {name:<12} FAILED: {why}"),
        }
        rows.push((name.clone(), row));
    }
    rows
}

/// The workloads of `rows` that failed, as `TABLE: NAME`.
pub fn failed(rows: &[(String, Medians)], table: &str) -> Vec<String> {
    rows.iter()
        .filter(|(_, r)| r.is_err())
        .map(|(n, _)| format!("{table}: {n}"))
        .collect()
}

/// `met` when the ratio `r` is within `goal`.
pub fn verdict(r: f64, goal: f64) -> &'static str {
    if r <= goal {
        "met"
    } else {
        "NOT met"
    }
}

/// How a table is headed and judged.
pub struct Table {
    /// What the ratio is of (`... over ...`).
    pub title: &'static str,
    /// The two variants' column heads.
    pub columns: [&'static str; 2],
    /// The largest ratio that meets the goal.
    pub goal: f64,
    /// Whose goal it is (`Issue 10 point 2`).
    pub goal_name: &'static str,
    /// How far to trust the figures.
    pub caveat: &'static str,
}

/// Prints `rows` (each workload's medians) as a table of ratios against
/// the goal, with how many met it.
pub fn print_table(table: &Table, rows: &[(String, Medians)], options: &Options, metric: Metric) {
    let goal = table.goal;
    println!();
    println!(
        "{}, median {} of {} run(s).",
        table.title,
        metric.plural(),
        options.repeat
    );
    println!(
        "| {:<12} | {:>10} | {:>10} | {:>7} | goal <= {goal:.2}x",
        "workload", table.columns[0], table.columns[1], "ratio"
    );
    println!("|{:-<14}|{:->12}|{:->12}|{:->9}|------", "", "", "", "");
    let mut met = 0;
    let mut judged = 0;
    for (name, row) in rows {
        match row {
            Ok((a, b, _)) => {
                let r = super::runner::ratio(*a, *b);
                judged += 1;
                met += usize::from(r <= goal);
                println!(
                    "| {name:<12} | {:>10} | {:>10} | {:>6.3}x | {}",
                    metric.show(*a),
                    metric.show(*b),
                    r,
                    verdict(r, goal)
                );
            }
            Err(_) => println!(
                "| {name:<12} | {:>10} | {:>10} | {:>7} | FAILED (see above)",
                "-", "-", "-"
            ),
        }
    }
    let percent = (goal - 1.0) * 100.0;
    println!(
        "{}: {met} of {judged} within {percent:.0}%. {}",
        table.goal_name, table.caveat
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_the_goal_is_met() {
        assert_eq!(verdict(1.0, 1.02), "met");
        assert_eq!(verdict(0.97, 1.02), "met");
        assert_eq!(verdict(1.02, 1.02), "met");
        assert_eq!(verdict(1.021, 1.02), "NOT met");
        assert_eq!(verdict(1.03, 1.03), "met");
    }

    #[test]
    fn reads_cachegrinds_count() {
        let stderr = "==12063== \n==12063== I   refs:      1,713,554,195\n==12063== \n";
        assert_eq!(parse_instructions(stderr), Some(1_713_554_195));
        assert_eq!(parse_instructions("==1== I   refs: many"), None);
        assert_eq!(parse_instructions("ring 10000 100 done 1 us"), None);
        assert_eq!(Metric::Instructions.show(1_713_554_195), "1713.6 M");
    }

    #[test]
    fn cachegrind_wraps_the_whole_command_and_keeps_its_environment() {
        let mut cmd = Command::new("/t/beamr");
        cmd.args(["run", "-e", "fib", "/t/beam"])
            .env("BEAMR_FLIGHT", "1");
        let wrapped = under_cachegrind(&cmd);
        assert_eq!(wrapped.get_program(), "valgrind");
        let args: Vec<_> = wrapped.get_args().map(|a| a.to_string_lossy()).collect();
        assert_eq!(args[0], "--tool=cachegrind");
        assert_eq!(args[3..], ["/t/beamr", "run", "-e", "fib", "/t/beam"]);
        let envs: Vec<_> = wrapped.get_envs().collect();
        assert_eq!(envs, [("BEAMR_FLIGHT".as_ref(), Some("1".as_ref()))]);
    }
}
