//! `beamr trace dump FILE [--format text|json]`: every event in the file,
//! one per line, merged into timestamp order, with a line for each loss.
//!
//! Text lines are `TIME RING PID TAG REST` (see
//! [`render::text_line`](super::render::text_line)), times in seconds since
//! the file was created; JSON lines are objects with a `"type"` of `"event"`
//! or `"lost"` (see [`render::json_line`](super::render::json_line)).

use std::io::{BufWriter, Write};
use std::path::Path;

use super::read::{self, Item, Order};
use super::{render, LineFormat};

/// Prints `path`'s events to standard output.
pub fn run(path: &Path, format: LineFormat) -> Result<(), String> {
    let mut cursor = read::open(path)?;
    let t0 = cursor.info().created_monotonic_ns;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let totals = read::read_all(&mut cursor, Order::Time, |item| {
        write_item(&mut out, &item, format, t0)
    });
    let totals = match totals.and_then(|t| {
        out.flush().map_err(read::ReadError::Output)?;
        Ok(t)
    }) {
        Ok(t) => t,
        Err(e) => return e.into_result(),
    };
    totals.check(path)
}

/// Writes one line for `item`.
pub fn write_item(
    out: &mut impl Write,
    item: &Item<'_, '_>,
    format: LineFormat,
    t0: u64,
) -> std::io::Result<()> {
    match (item, format) {
        (Item::Event(e, s), LineFormat::Text) => writeln!(out, "{}", render::text_line(e, s, t0)),
        (Item::Event(e, s), LineFormat::Json) => writeln!(out, "{}", render::json_line(e, s, t0)),
        (Item::Lost { ring, count }, LineFormat::Text) => {
            writeln!(out, "{}", render::lost_text(*ring, *count))
        }
        (Item::Lost { ring, count }, LineFormat::Json) => {
            writeln!(out, "{}", render::lost_json(*ring, *count))
        }
    }
}
