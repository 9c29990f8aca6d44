//! `beamr trace dump FILE [--format text|json]`: every event in the file,
//! one per line, merged into timestamp order, with a line for each loss.
//!
//! Text lines are `TIME RING PID TAG REST` (see
//! [`render::text_line`]), times in seconds since
//! the file was created; JSON lines are objects with a `"type"` of `"event"`
//! or `"lost"` (see [`render::json_line`]).

use std::io::Write;
use std::path::Path;

use beamr_ringbuf::Cursor;

use crate::error::Error;
use crate::read::{self, Item, Order};
use crate::render::{self, LineFormat};

/// Writes the events of `cursor` (opened on `path`) to `out`, one line
/// each, and flushes it; then fails with [`Error::Corrupt`] if a ring was
/// corrupt.
pub fn write(
    cursor: &mut Cursor,
    path: &Path,
    format: LineFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let t0 = cursor.info().created_monotonic_ns;
    let totals = read::read_all(cursor, Order::Time, |item| {
        write_item(out, &item, format, t0)
    })?;
    out.flush().map_err(Error::Output)?;
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
