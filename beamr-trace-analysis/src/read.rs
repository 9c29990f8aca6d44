//! Reading a trace file: opening it (a bad file is an [`Error::Open`]),
//! delivering its events and losses to a consumer, and keeping the
//! per-ring books (delivered, lost, corrupt).

use std::io;
use std::path::Path;

use beamr_ringbuf::{Callbacks, Cursor, Event, StringTable};

use crate::error::Error;

/// What a consumer is handed, in order.
pub enum Item<'a, 'e> {
    /// A complete event, with the names to resolve its atom keys.
    Event(&'a Event<'e>, &'a StringTable),
    /// `count` events of `ring` could not be delivered (overwritten before
    /// they were read, or never completed by a writer that died).
    Lost {
        /// The ring.
        ring: usize,
        /// How many events.
        count: u64,
    },
}

/// In which order [`read_all`] delivers events.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Merged across rings into timestamp order.
    Time,
    /// Ring after ring, each in write order (cheaper).
    Ring,
}

/// The books of one read, per ring.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Events delivered, per ring.
    pub delivered: Vec<u64>,
    /// Events reported lost, per ring (those damaged included).
    pub lost: Vec<u64>,
    /// Of the lost events, those lost to damaged words (a bad checksum, an
    /// impossible header), per ring.
    pub damaged: Vec<u64>,
    /// One line per corrupt ring and per damaged stretch of a ring.
    pub corrupt: Vec<String>,
}

impl Totals {
    fn new(rings: usize) -> Totals {
        Totals {
            delivered: vec![0; rings],
            lost: vec![0; rings],
            damaged: vec![0; rings],
            corrupt: Vec::new(),
        }
    }

    /// [`Error::Corrupt`], naming the first corrupt ring or damaged stretch
    /// of `path` (and how many more there are), if there was any.
    pub fn check(&self, path: &Path) -> Result<(), Error> {
        check_corrupt(path, &self.corrupt)
    }
}

/// [`Error::Corrupt`] naming the first of `corrupt` (lines saying where
/// `path` is corrupt) and how many more there are; `Ok` when there is none.
pub(crate) fn check_corrupt(path: &Path, corrupt: &[String]) -> Result<(), Error> {
    match corrupt.split_first() {
        None => Ok(()),
        Some((first, more)) => Err(Error::Corrupt {
            path: path.to_path_buf(),
            first: first.clone(),
            more: more.len(),
        }),
    }
}

/// Opens `path` as a trace file; the error says what is wrong with it.
pub fn open(path: &Path) -> Result<Cursor, Error> {
    Ok(Cursor::open(path)?)
}

/// Adapts a consumer to [`Callbacks`], keeping the books and the first
/// output error (after which nothing more is handed to the consumer).
pub struct Sink<F> {
    consume: F,
    /// The books so far.
    pub totals: Totals,
    /// The consumer's first error.
    pub error: Option<io::Error>,
}

impl<F: FnMut(Item<'_, '_>) -> io::Result<()>> Sink<F> {
    /// A sink for a file of `rings` rings.
    pub fn new(rings: usize, consume: F) -> Sink<F> {
        Sink {
            consume,
            totals: Totals::new(rings),
            error: None,
        }
    }

    fn hand(&mut self, item: Item<'_, '_>) {
        if self.error.is_none() {
            if let Err(e) = (self.consume)(item) {
                self.error = Some(e);
            }
        }
    }
}

impl<F: FnMut(Item<'_, '_>) -> io::Result<()>> Callbacks for Sink<F> {
    fn event(&mut self, event: &Event<'_>, strings: &StringTable) {
        if let Some(d) = self.totals.delivered.get_mut(event.ring) {
            *d += 1;
        }
        self.hand(Item::Event(event, strings));
    }

    fn lost(&mut self, ring: usize, count: u64) {
        if let Some(l) = self.totals.lost.get_mut(ring) {
            *l += count;
        }
        self.hand(Item::Lost { ring, count });
    }

    fn damaged(&mut self, ring: usize, pos: u64, count: u64, why: &str) {
        if let Some(d) = self.totals.damaged.get_mut(ring) {
            *d += count;
        }
        let events = match count {
            0 => "no event".to_owned(),
            1 => "1 event".to_owned(),
            n => format!("{n} events"),
        };
        self.totals.corrupt.push(format!(
            "ring {ring} is corrupt at word {pos}: {why} ({events} lost to it, not decoded)"
        ));
        self.lost(ring, count);
    }

    fn corrupt(&mut self, ring: usize, pos: u64, why: &str) {
        self.totals
            .corrupt
            .push(format!("ring {ring} is corrupt at word {pos}: {why}"));
    }
}

/// Reads everything `cursor` has not delivered yet, once, in `order`, then
/// closes the books as for a file whose writer is gone: events the writers
/// counted but that could not be delivered are reported lost. (With a writer
/// still running this is a snapshot, and events it is writing at that very
/// moment may be counted lost.) Corrupt rings are listed in the totals. The
/// consumer's first error stops the delivery and is returned as
/// [`Error::Output`].
pub fn read_all(
    cursor: &mut Cursor,
    order: Order,
    consume: impl FnMut(Item<'_, '_>) -> io::Result<()>,
) -> Result<Totals, Error> {
    let mut sink = Sink::new(cursor.ring_count(), consume);
    match order {
        Order::Time => cursor.poll_merged(&mut sink),
        Order::Ring => cursor.poll(&mut sink),
    };
    cursor.finish(&mut sink);
    match sink.error {
        Some(e) => Err(Error::Output(e)),
        None => Ok(sink.totals),
    }
}
