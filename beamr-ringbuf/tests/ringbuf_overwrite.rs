//! Flight-recorder behaviour: a full ring keeps the newest events, and the
//! reader reports exactly how many it lost.

use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, StringTable};

#[derive(Default)]
struct Collect {
    seqs: Vec<u64>,
    payload_ok: bool,
    lost: u64,
}

impl Callbacks for Collect {
    fn event(&mut self, e: &Event<'_>, _: &StringTable) {
        // Every payload word of event `seq` is `seq * 3 + i`.
        self.payload_ok &= e
            .payload
            .iter()
            .enumerate()
            .all(|(i, &w)| w == e.seq * 3 + i as u64);
        self.payload_ok &= e.timestamp_ns == e.seq;
        self.seqs.push(e.seq);
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.lost += n;
    }
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("beamr-ow-{}-{name}.trace", std::process::id()))
}

#[test]
fn a_full_ring_keeps_the_newest_events() {
    let path = tmp("newest");
    let rec = Recorder::create(Options::new(1).path(&path).ring_words(512)).unwrap();
    let mut w = rec.writer(0).unwrap();
    assert!(rec.writer(0).is_none(), "one writer per ring");
    for seq in 0..1000u64 {
        let len = (seq % 5 + 1) as usize; // 3..7-word events
        let payload: Vec<u64> = (0..len as u64).map(|i| seq * 3 + i).collect();
        assert!(w.write(1, seq, &payload));
    }
    let mut c = Collect {
        payload_ok: true,
        ..Default::default()
    };
    let mut cursor = Cursor::open(&path).unwrap();
    cursor.poll(&mut c);
    assert!(c.payload_ok);
    assert_eq!(*c.seqs.last().unwrap(), 999, "the newest event is kept");
    assert!(
        c.seqs.windows(2).all(|p| p[1] == p[0] + 1),
        "the rest is contiguous"
    );
    assert_eq!(
        c.lost, c.seqs[0],
        "everything before the oldest kept is lost"
    );
    assert_eq!(c.lost + c.seqs.len() as u64, 1000);
    // Nothing new: nothing delivered, nothing lost.
    let before = (c.seqs.len(), c.lost);
    cursor.poll(&mut c);
    assert_eq!((c.seqs.len(), c.lost), before);
    // A reader that keeps up loses nothing.
    for seq in 1000..1010u64 {
        w.write(1, seq, &[seq * 3]);
        cursor.poll(&mut c);
    }
    assert_eq!(c.lost, before.1);
    assert_eq!(*c.seqs.last().unwrap(), 1009);
}

#[test]
fn a_slow_reader_counts_what_was_overwritten_between_polls() {
    let path = tmp("slow");
    let rec = Recorder::create(Options::new(1).path(&path).ring_words(1024)).unwrap();
    let mut w = rec.writer(0).unwrap();
    let mut cursor = Cursor::open(&path).unwrap();
    let mut c = Collect {
        payload_ok: true,
        ..Default::default()
    };
    let mut seq = 0u64;
    for round in 0..20 {
        let n = if round % 2 == 0 { 50 } else { 2000 };
        for _ in 0..n {
            w.write(2, seq, &[seq * 3, seq * 3 + 1]);
            seq += 1;
        }
        cursor.poll(&mut c);
        assert_eq!(
            c.lost + c.seqs.len() as u64,
            seq,
            "exact after round {round}"
        );
    }
    assert!(c.payload_ok);
    assert!(c.lost > 0);
    let st = cursor.state(0).unwrap();
    assert_eq!((st.delivered, st.lost), (c.seqs.len() as u64, c.lost));
}

#[test]
fn user_strings_are_interned_once() {
    let path = tmp("strings");
    let rec = Recorder::create(Options::new(1).path(&path)).unwrap();
    let a = rec.intern_str("http.request").unwrap();
    let b = rec.intern_str("db.query").unwrap();
    assert_ne!(a, b);
    assert_eq!(rec.intern_str("http.request"), Some(a));
    let cursor = Cursor::open(&path).unwrap();
    assert_eq!(cursor.strings().string(a), Some("http.request"));
    assert_eq!(cursor.strings().string(b), Some("db.query"));
}

#[test]
fn a_full_string_table_drops_names_and_counts_them() {
    let path = tmp("fullstrings");
    let rec = Recorder::create(Options::new(1).path(&path).string_bytes(32)).unwrap();
    assert!(rec.intern_str("0123456789").is_some()); // 8 + 16 bytes
    assert!(rec.intern_str("abcdefghijk").is_none());
    let cursor = Cursor::open(&path).unwrap();
    assert_eq!(cursor.info().strings_dropped, 1);
    assert_eq!(cursor.strings().len(), 1);
}
