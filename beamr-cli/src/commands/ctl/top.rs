//! `beamr ctl PID top`: a live view of the processes, refreshed every
//! interval, sorted by how much each one's reductions (or memory, or
//! message-queue length) changed over the last interval, as recon's
//! `proc_window/3` sorts them: the processes busy now come first, not those
//! that were busy once. On a terminal each frame replaces the last; into a
//! pipe the frames follow one another, a blank line between.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::Duration;

use beamr_ctl::client::Client;
use beamr_ctl::protocol::{ProcessRow, Reply, Request};
use clap::ValueEnum;

/// What `top` sorts by the change of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TopField {
    /// Reductions executed over the interval.
    Reductions,
    /// The change of its memory.
    Memory,
    /// The change of its message-queue length.
    Mq,
}

/// `top`'s options.
#[derive(Debug, clap::Args)]
pub struct TopOptions {
    /// Sort by the change of this over the interval.
    #[arg(long, value_enum, default_value = "reductions")]
    pub sort: TopField,
    /// The interval between frames, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(100..=60_000))]
    pub interval: u64,
    /// Stop after this many frames (default: until Ctrl-C).
    #[arg(long)]
    pub count: Option<u64>,
    /// Rows of processes in a frame (default: what fits the terminal, or 20).
    #[arg(long)]
    pub rows: Option<usize>,
}

fn processes(client: &mut Client) -> Result<Vec<ProcessRow>, String> {
    match client.request(&Request::Ps)? {
        Reply::Ps(rows) => Ok(rows),
        Reply::Error(e) => Err(e.message),
        other => Err(format!("unexpected reply {other:?}")),
    }
}

/// A row's value of `field`, where it was read.
fn value(row: &ProcessRow, field: TopField) -> Option<i64> {
    let v = match field {
        TopField::Reductions => row.reductions,
        TopField::Memory => row.memory,
        TopField::Mq => row.message_queue_len,
    }?;
    i64::try_from(v).ok()
}

/// One frame's rows: each process of `now` with the change of `field`
/// since `before` (a process new since then changed by its whole value),
/// largest change first; a process whose value could not be read (it was
/// running) last.
pub fn window(
    before: &[ProcessRow],
    now: Vec<ProcessRow>,
    field: TopField,
) -> Vec<(Option<i64>, ProcessRow)> {
    let earlier: HashMap<&str, i64> = before
        .iter()
        .filter_map(|r| Some((r.pid.as_str(), value(r, field)?)))
        .collect();
    let mut rows: Vec<(Option<i64>, ProcessRow)> = now
        .into_iter()
        .map(|r| {
            let change =
                value(&r, field).map(|v| v - earlier.get(r.pid.as_str()).copied().unwrap_or(0));
            (change, r)
        })
        .collect();
    rows.sort_by_key(|(change, _)| std::cmp::Reverse(change.map(i64::abs)));
    rows
}

fn frame(
    pid: u32,
    rows: &[(Option<i64>, ProcessRow)],
    options: &TopOptions,
    shown: usize,
) -> String {
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let num = |v: Option<u64>| v.map_or_else(|| "-".into(), |n| n.to_string());
    let field = match options.sort {
        TopField::Reductions => "reductions",
        TopField::Memory => "memory",
        TopField::Mq => "queue length",
    };
    let total: i64 = rows
        .iter()
        .filter_map(|(c, _)| *c)
        .filter(|_| options.sort == TopField::Reductions)
        .sum();
    let mut out = format!(
        "beamr ctl {pid} top: {} processes; sorted by the change of {field} over {} ms",
        rows.len(),
        options.interval
    );
    if options.sort == TopField::Reductions {
        out.push_str(&format!("; {total} reductions"));
    }
    out.push('\n');
    let cells: Vec<Vec<String>> = rows
        .iter()
        .take(shown)
        .map(|(change, r)| {
            vec![
                r.pid.clone(),
                opt(&r.registered_name),
                change.map_or_else(|| "-".into(), |c| c.to_string()),
                num(r.reductions),
                num(r.memory),
                num(r.message_queue_len),
                opt(&r.current_function),
                r.status.clone(),
            ]
        })
        .collect();
    out.push_str(&super::print::table(
        &[
            "PID", "NAME", "CHANGE", "REDS", "MEMORY", "MQ", "CURRENT", "STATUS",
        ],
        &cells,
    ));
    out
}

/// Runs `top` until `--count` frames are shown, or the client is stopped.
pub fn run(client: &mut Client, pid: u32, options: &TopOptions) -> Result<(), String> {
    let terminal = std::io::stdout().is_terminal();
    let shown = options.rows.unwrap_or_else(|| {
        terminal_size::terminal_size()
            .filter(|_| terminal)
            .map_or(20, |(_, terminal_size::Height(h))| {
                usize::from(h).saturating_sub(3).max(1)
            })
    });
    let mut before = processes(client)?;
    let mut frames = 0;
    while options.count.is_none_or(|n| frames < n) {
        std::thread::sleep(Duration::from_millis(options.interval));
        let now = processes(client)?;
        let rows = window(&before, now.clone(), options.sort);
        before = now;
        let text = frame(pid, &rows, options, shown);
        let mut out = std::io::stdout().lock();
        let written = if terminal {
            write!(out, "\x1b[H\x1b[2J{text}")
        } else if frames > 0 {
            write!(out, "\n{text}")
        } else {
            write!(out, "{text}")
        };
        if written.and_then(|()| out.flush()).is_err() {
            // The reader went (a closed pipe): nothing more to show.
            return Ok(());
        }
        frames += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pid: &str, reductions: Option<u64>) -> ProcessRow {
        ProcessRow {
            pid: pid.into(),
            registered_name: None,
            status: "waiting".into(),
            current_function: None,
            initial_call: None,
            reductions,
            memory: Some(100),
            message_queue_len: Some(0),
        }
    }

    #[test]
    fn the_window_sorts_by_the_change_not_the_total() {
        let before = [row("<0.1.0>", Some(1_000_000)), row("<0.2.0>", Some(10))];
        let now = vec![
            row("<0.1.0>", Some(1_000_005)),
            row("<0.2.0>", Some(5_010)),
            row("<0.3.0>", Some(50)),
            row("<0.4.0>", None),
        ];
        let rows = window(&before, now, TopField::Reductions);
        let order: Vec<(&str, Option<i64>)> =
            rows.iter().map(|(c, r)| (r.pid.as_str(), *c)).collect();
        assert_eq!(
            order,
            [
                ("<0.2.0>", Some(5000)),
                ("<0.3.0>", Some(50)),
                ("<0.1.0>", Some(5)),
                ("<0.4.0>", None),
            ]
        );
    }
}
