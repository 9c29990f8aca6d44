//! What a trace file holds (`beamr trace stats FILE [--format text|json]`):
//! events per kind and per ring, the time span they cover, the events
//! lost (per ring, in events) and those the run's trace limits dropped
//! before writing them, with the file's header facts.
//!
//! For every ring, `delivered + lost = written` (the ring header's count of
//! events ever written to it).

use std::io::Write;
use std::path::Path;

use beamr_ringbuf::{Category, Cursor, FileInfo};
use serde_json::json;

use crate::error::Error;
use crate::read::{self, Item, Order, Totals};
use crate::render::{self, LineFormat};

/// The times of one ring's first and last events.
#[derive(Clone, Copy, Debug, Default)]
pub struct RingSpan {
    /// The earliest timestamp (nanoseconds), if the ring had events.
    pub first: Option<u64>,
    /// The latest timestamp (nanoseconds), if the ring had events.
    pub last: Option<u64>,
}

/// Everything `stats` reports about a file.
#[derive(Clone, Debug)]
pub struct Stats {
    /// The file's header facts.
    pub info: FileInfo,
    /// `(name, count)` per kind seen, trace tags first in tag order.
    pub kinds: Vec<(String, u64)>,
    /// Per ring: the time its events span.
    pub spans: Vec<RingSpan>,
    /// Per ring: the events ever written to it (its header's count).
    pub written: Vec<u64>,
    /// The books of the read: delivered, lost, corrupt.
    pub totals: Totals,
    /// Trace events whose payload could not be decoded.
    pub undecodable: u64,
}

impl Stats {
    /// The earliest timestamp in the file.
    pub fn first(&self) -> Option<u64> {
        self.spans.iter().filter_map(|s| s.first).min()
    }

    /// The latest timestamp in the file.
    pub fn last(&self) -> Option<u64> {
        self.spans.iter().filter_map(|s| s.last).max()
    }

    /// Reads everything `cursor` has not delivered yet and counts it.
    /// Corrupt rings are listed in [`Stats::totals`], not an error.
    pub fn collect(cursor: &mut Cursor) -> Stats {
        const KINDS: usize = 1 << 16;
        let rings = cursor.ring_count();
        // Counts by category (trace, user, counters) and kind.
        let categories = [Category::Trace, Category::User, Category::Counters];
        let mut counts = vec![0u64; categories.len() * KINDS];
        let mut spans = vec![RingSpan::default(); rings];
        let mut undecodable = 0;
        let totals = read::read_all(cursor, Order::Ring, |item| {
            if let Item::Event(e, _) = item {
                let cat = categories
                    .iter()
                    .position(|&c| c == e.category)
                    .unwrap_or(1);
                counts[cat * KINDS + e.kind as usize] += 1;
                if let Some(Err(_)) = e.trace() {
                    undecodable += 1;
                }
                let span = &mut spans[e.ring];
                span.first = Some(span.first.map_or(e.timestamp_ns, |f| f.min(e.timestamp_ns)));
                span.last = Some(span.last.map_or(e.timestamp_ns, |l| l.max(e.timestamp_ns)));
            }
            Ok(())
        })
        // The consumer above never fails.
        .unwrap_or_default();
        let kinds = counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, &n)| {
                (
                    render::kind_name(categories[i / KINDS], (i % KINDS) as u16),
                    n,
                )
            })
            .collect();
        Stats {
            info: cursor.info(),
            kinds,
            spans,
            written: (0..rings).map(|i| cursor.written(i)).collect(),
            totals,
            undecodable,
        }
    }

    /// The text report of the file at `path`, lines ending in `\n`.
    pub fn text(&self, path: &Path) -> String {
        text(path, self)
    }

    /// The JSON report of the file at `path`.
    pub fn json(&self, path: &Path) -> serde_json::Value {
        json(path, self)
    }
}

/// Writes the statistics of `cursor` (opened on `path`) to `out` and
/// flushes it; then fails with [`Error::Corrupt`] if a ring was corrupt.
pub fn write(
    cursor: &mut Cursor,
    path: &Path,
    format: LineFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let stats = Stats::collect(cursor);
    let text = match format {
        LineFormat::Text => stats.text(path),
        LineFormat::Json => format!("{}\n", stats.json(path)),
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Output)?;
    stats.totals.check(path)
}

/// `YYYY-MM-DDTHH:MM:SSZ` for nanoseconds since the Unix epoch.
fn utc(unix_ns: u64) -> String {
    let secs = unix_ns / 1_000_000_000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn text(path: &Path, s: &Stats) -> String {
    let i = &s.info;
    let t0 = i.created_monotonic_ns;
    let delivered: u64 = s.totals.delivered.iter().sum();
    let lost: u64 = s.totals.lost.iter().sum();
    let mut o = String::new();
    let mut line = |l: String| {
        o.push_str(&l);
        o.push('\n');
    };
    line(format!("file      {}", path.display()));
    line(format!(
        "layout    {} rings of {} words; writer pid {}; created {}{}",
        i.ring_count,
        i.ring_words,
        i.writer_pid,
        utc(i.created_unix_ns),
        if i.paused { "; paused" } else { "" }
    ));
    let damaged: u64 = s.totals.damaged.iter().sum();
    if damaged > 0 {
        line(format!(
            "events    {delivered} read, {lost} lost ({damaged} of them damaged: bad checksum or impossible header, not decoded)"
        ));
    } else {
        line(format!("events    {delivered} read, {lost} lost"));
    }
    if i.events_dropped > 0 {
        line(format!(
            "dropped   {} events, unwritten: the run's trace limits (--trace-limit, --trace-rate)",
            i.events_dropped
        ));
    }
    match (s.first(), s.last()) {
        (Some(first), Some(last)) => line(format!(
            "span      {} s (from {} to {} s after creation)",
            render::seconds(last, first),
            render::seconds(first, t0),
            render::seconds(last, t0)
        )),
        _ => line("span      - (no events)".to_owned()),
    }
    if s.undecodable > 0 {
        line(format!("undecodable trace events: {}", s.undecodable));
    }
    if i.strings_dropped > 0 {
        line(format!(
            "names that did not fit the string table: {}",
            i.strings_dropped
        ));
    }
    line(String::new());
    line(format!("{:<22} {:>12}", "kind", "events"));
    for (name, n) in &s.kinds {
        line(format!("{name:<22} {n:>12}"));
    }
    line(String::new());
    line(format!(
        "{:<5} {:>12} {:>12} {:>12} {:>15} {:>15}",
        "ring", "read", "lost", "written", "first (s)", "last (s)"
    ));
    for (r, span) in s.spans.iter().enumerate() {
        let t = |ts: Option<u64>| ts.map_or("-".to_owned(), |ts| render::seconds(ts, t0));
        line(format!(
            "{:<5} {:>12} {:>12} {:>12} {:>15} {:>15}",
            format!("s{r}"),
            s.totals.delivered[r],
            s.totals.lost[r],
            s.written[r],
            t(span.first),
            t(span.last)
        ));
    }
    o
}

fn json(path: &Path, s: &Stats) -> serde_json::Value {
    let i = &s.info;
    let kinds: serde_json::Map<String, serde_json::Value> =
        s.kinds.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
    let rings: Vec<_> = s
        .spans
        .iter()
        .enumerate()
        .map(|(r, span)| {
            json!({
                "ring": r,
                "read": s.totals.delivered[r],
                "lost": s.totals.lost[r],
                "damaged": s.totals.damaged[r],
                "written": s.written[r],
                "first_ts_ns": span.first,
                "last_ts_ns": span.last,
            })
        })
        .collect();
    json!({
        "file": path.display().to_string(),
        "rings": i.ring_count,
        "ring_words": i.ring_words,
        "writer_pid": i.writer_pid,
        "created_unix_ns": i.created_unix_ns,
        "created_monotonic_ns": i.created_monotonic_ns,
        "paused": i.paused,
        "strings_dropped": i.strings_dropped,
        "dropped": i.events_dropped,
        "events": s.totals.delivered.iter().sum::<u64>(),
        "lost": s.totals.lost.iter().sum::<u64>(),
        "damaged": s.totals.damaged.iter().sum::<u64>(),
        "first_ts_ns": s.first(),
        "last_ts_ns": s.last(),
        "span_ns": s.first().zip(s.last()).map(|(f, l)| l - f),
        "undecodable": s.undecodable,
        "kinds": kinds,
        "per_ring": rings,
        "corrupt": s.totals.corrupt,
    })
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400_000_000_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_700_000_000_123_456_789), "2023-11-14T22:13:20Z");
    }
}
