//! Files that are not traces, truncated, of another version, with a corrupt
//! header or corrupt ring data, and files left by a crashed writer.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use beamr_ringbuf::layout::{file_header, Geometry, MAGIC, VERSION};
use beamr_ringbuf::{Callbacks, Cursor, Error, Event, Options, Recorder, StringTable};

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("beamr-bad-{}-{name}.trace", std::process::id()))
}

fn poke(path: &PathBuf, word: usize, value: u64) {
    let mut f = OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(word as u64 * 8)).unwrap();
    f.write_all(&value.to_le_bytes()).unwrap();
}

fn peek(path: &PathBuf, word: usize) -> u64 {
    let mut f = std::fs::File::open(path).unwrap();
    f.seek(SeekFrom::Start(word as u64 * 8)).unwrap();
    let mut b = [0u8; 8];
    f.read_exact(&mut b).unwrap();
    u64::from_le_bytes(b)
}

/// A preserved file with `n` events in ring 0 (5 words each: header,
/// timestamp, two payload words, checksum), writer dropped.
fn good_file(name: &str, n: u64) -> PathBuf {
    let path = tmp(name);
    let rec = Recorder::create(Options::new(2).path(&path).ring_words(512).preserve(true)).unwrap();
    let mut w = rec.writer(0).unwrap();
    for i in 0..n {
        w.write(5, i, &[i, i + 1]);
    }
    path
}

#[derive(Default)]
struct Count {
    events: u64,
    lost: u64,
    damaged: Vec<(u64, u64)>,
    corrupt: Vec<String>,
}

impl Callbacks for Count {
    fn event(&mut self, _: &Event<'_>, _: &StringTable) {
        self.events += 1;
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.lost += n;
    }
    fn damaged(&mut self, _: usize, pos: u64, n: u64, _: &str) {
        self.damaged.push((pos, n));
        self.lost += n;
    }
    fn corrupt(&mut self, ring: usize, pos: u64, why: &str) {
        self.corrupt.push(format!("{ring}@{pos}: {why}"));
    }
}

#[test]
fn not_a_trace() {
    let path = tmp("text");
    std::fs::write(&path, "hello, this is not a trace file at all, it is a text file ........................................................................................").unwrap();
    assert!(matches!(Cursor::open(&path), Err(Error::NotATrace(_))));
    std::fs::write(&path, "").unwrap();
    assert!(matches!(Cursor::open(&path), Err(Error::NotATrace(_))));
    let err = Cursor::open(tmp("missing")).err().unwrap();
    assert!(matches!(err, Error::Io { .. }));
    assert!(err.to_string().contains("missing"));
}

#[test]
fn truncated() {
    let path = good_file("trunc", 3);
    let len = std::fs::metadata(&path).unwrap().len();
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 8)
        .unwrap();
    match Cursor::open(&path) {
        Err(Error::Truncated {
            actual, expected, ..
        }) => assert_eq!((actual, expected), (len - 8, len)),
        other => panic!("{:?}", other.err()),
    }
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(64)
        .unwrap();
    assert!(matches!(Cursor::open(&path), Err(Error::Truncated { .. })));
}

#[test]
fn wrong_version() {
    let path = good_file("version", 1);
    poke(&path, file_header::VERSION, 99);
    let err = Cursor::open(&path).err().unwrap();
    assert!(
        matches!(
            err,
            Error::WrongVersion {
                found: 99,
                expected: VERSION,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("version 99"));
}

#[test]
fn corrupt_header_fields() {
    for (field, value) in [
        (file_header::RING_COUNT, 0),
        (file_header::RING_COUNT, 1 << 40),
        (file_header::RING_WORDS, 1000),
        (file_header::RING_WORDS, 1 << 50),
        (file_header::RINGS_OFFSET, 8),
        (file_header::STRINGS_CAPACITY, 7),
    ] {
        let path = good_file("hdr", 1);
        poke(&path, field, value);
        let err = Cursor::open(&path)
            .err()
            .unwrap_or_else(|| panic!("field {field} = {value} accepted"));
        assert!(
            matches!(err, Error::CorruptHeader { .. } | Error::Truncated { .. }),
            "{err}"
        );
    }
}

#[test]
fn corrupt_ring_data_is_reported_not_delivered() {
    let path = good_file("ringdata", 10);
    let g = Geometry::new(2, 512, peek(&path, file_header::STRINGS_CAPACITY) as usize);
    // Event 3's header word (events are 5 words): a zero length. The
    // reader finds event 4 after it; event 3 is lost to the damage.
    poke(&path, g.ring_data_word(0) + 3 * 5, 0);
    let mut c = Count::default();
    Cursor::open(&path).unwrap().finish(&mut c);
    assert_eq!(c.events, 9);
    assert_eq!(c.damaged, [(15, 1)]);
    assert!(c.corrupt.is_empty(), "{:?}", c.corrupt);
    assert_eq!(c.lost, 1);
    // Event 5's last payload word, one bit: its checksum no longer matches.
    let path = good_file("ringdata-bit", 10);
    let word = g.ring_data_word(0) + 5 * 5 + 3;
    poke(&path, word, peek(&path, word) ^ 1 << 17);
    let mut c = Count::default();
    Cursor::open(&path).unwrap().finish(&mut c);
    assert_eq!((c.events, c.lost, c.damaged.clone()), (9, 1, vec![(25, 1)]));
    // Damage that runs to the tail: the last two events.
    let path = good_file("ringdata-end", 10);
    for e in [8, 9] {
        poke(&path, g.ring_data_word(0) + e * 5 + 1, 0xdead);
    }
    let mut c = Count::default();
    Cursor::open(&path).unwrap().finish(&mut c);
    assert_eq!((c.events, c.lost, c.damaged.clone()), (8, 2, vec![(40, 2)]));
}

#[test]
fn impossible_ring_header_values_are_refused() {
    let g =
        |path: &PathBuf| Geometry::new(2, 512, peek(path, file_header::STRINGS_CAPACITY) as usize);
    for (field, value, needle) in [
        (0, 1 << 20, "ring 0 header: head 1048576 is past tail 50"),
        (
            8,
            10_000,
            "ring 0 header: head 0 is more than the ring's 512 words behind tail 10000",
        ),
        (8, u64::MAX, "past any position"),
        (
            9,
            u64::MAX,
            "tail_seq 18446744073709551615 counts more events",
        ),
        (10, 7, "claimed is 7"),
    ] {
        let path = good_file("ringhdr", 10);
        poke(&path, g(&path).ring_header_word(0, field), value);
        let err = Cursor::open(&path).err().expect("refused");
        assert!(matches!(err, Error::CorruptHeader { .. }), "{err}");
        assert!(err.to_string().contains(needle), "{err}");
    }
    for (field, value, needle) in [
        (
            file_header::EVENTS_DROPPED,
            u64::MAX,
            "events_dropped is 18446744073709551615",
        ),
        (file_header::STRINGS_DROPPED, 1 << 62, "strings_dropped"),
        (file_header::STRINGS_USED, 1 << 40, "strings_used"),
        (file_header::FLAGS, 6, "flags 0x6"),
    ] {
        let path = good_file("filehdr", 1);
        poke(&path, field, value);
        let err = Cursor::open(&path).err().expect("refused");
        assert!(err.to_string().contains(needle), "{err}");
    }
}

#[test]
fn a_count_the_ring_cannot_account_for_is_corruption_not_loss() {
    let path = good_file("count", 10);
    let g = Geometry::new(2, 512, peek(&path, file_header::STRINGS_CAPACITY) as usize);
    // 12 events counted, 10 in the ring: within the header's bounds, but
    // the ring's events end at number 10.
    poke(&path, g.ring_header_word(0, 9), 12);
    let mut c = Count::default();
    Cursor::open(&path).unwrap().finish(&mut c);
    assert_eq!((c.events, c.lost), (10, 0));
    assert_eq!(c.corrupt.len(), 1, "{:?}", c.corrupt);
    assert!(c.corrupt[0].contains("tail_seq) is 12"), "{:?}", c.corrupt);
}

#[test]
fn a_crashed_writers_file_is_readable() {
    let path = tmp("crash");
    let rec =
        Recorder::create(Options::new(2).path(&path).ring_words(512).preserve(false)).unwrap();
    {
        let mut w = rec.writer(1).unwrap();
        for i in 0..200u64 {
            w.write(1, i, &[i, i]);
        }
    }
    // The process "dies": no destructor runs, so the file stays.
    std::mem::forget(rec);
    let g = Geometry::new(2, 512, peek(&path, file_header::STRINGS_CAPACITY) as usize);
    // It died in the middle of the next event: the oldest event made room
    // for (head advanced), words stored, tail_seq bumped, tail not yet
    // published.
    let tail = peek(&path, g.ring_header_word(1, 8));
    let head = peek(&path, g.ring_header_word(1, 0));
    assert_eq!(tail - head, 512, "the ring is full");
    poke(&path, g.ring_header_word(1, 0), head + 5);
    poke(
        &path,
        g.ring_data_word(1) + (tail % 512) as usize,
        0xdead_beef,
    );
    poke(&path, g.ring_header_word(1, 9), 201);
    assert_eq!(peek(&path, file_header::MAGIC), MAGIC);
    let mut c = Count::default();
    let mut cursor = Cursor::open(&path).unwrap();
    cursor.finish(&mut c);
    assert!(c.corrupt.is_empty());
    // 200 events of 5 words in a 512-word ring: the newest 102 were there,
    // one of them was being overwritten.
    assert_eq!(c.events, 101);
    assert_eq!(
        c.lost,
        201 - 101,
        "overwritten ones and the unfinished one are lost"
    );
    let st = cursor.state(1).unwrap();
    assert_eq!(st.delivered + st.lost, 201);
    std::fs::remove_file(&path).unwrap();
}
