//! Fuzz target: the ring reader over any bytes, as a trace file. Opening
//! gives a cursor or an error; a cursor reads (ring by ring, merged in
//! time, and to the end as for a finished file) and decodes every trace
//! event without a panic, a hang or a runaway allocation, and never
//! delivers an event past what its ring's header counts.
//!
//! Run with `cargo xtask fuzz ring_reader`; the seed corpus is a small
//! recorded file (`cargo xtask fuzz` passes `-max_len` large enough for
//! one: the smallest file is 4,352 bytes).

#![no_main]

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

use beamr_ringbuf::{Callbacks, Cursor, Event, StringTable};
use libfuzzer_sys::fuzz_target;

/// The file each input is written to: one per fuzzing process.
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("beamr-fuzz-ring-{}.trace", std::process::id()))
    })
}

#[derive(Default)]
struct Books {
    delivered: Vec<u64>,
    lost: u64,
}

impl Callbacks for Books {
    fn event(&mut self, e: &Event<'_>, strings: &StringTable) {
        if self.delivered.len() <= e.ring {
            self.delivered.resize(e.ring + 1, 0);
        }
        self.delivered[e.ring] += 1;
        if let Some(Ok(record)) = e.trace() {
            // Render it as `beamr trace dump` would resolve its names.
            let _ = format!("{record:?}");
        }
        for &w in e.payload {
            let _ = strings.atom(w as u32);
        }
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.lost = self.lost.saturating_add(n);
    }
}

fuzz_target!(|data: &[u8]| {
    let path = path();
    {
        let mut f = std::fs::File::create(path).expect("the fuzzer's own scratch file");
        f.write_all(data).expect("the fuzzer's own scratch file");
    }
    let Ok(mut cursor) = Cursor::open(path) else {
        return;
    };
    let _ = cursor.info();
    let mut books = Books::default();
    cursor.poll(&mut books);
    let mut merged = Cursor::open(path).expect("opened once, opens again");
    merged.poll_merged(&mut Books::default());
    cursor.finish(&mut books);
    for (ring, &n) in books.delivered.iter().enumerate() {
        assert!(
            n <= cursor.written(ring),
            "ring {ring}: more read than written"
        );
    }
});
