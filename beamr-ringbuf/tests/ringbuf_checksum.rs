//! Damage to a recorded file never makes the reader decode an event that
//! was not written: every bit of a sample of events (and of a padding
//! header, and of the ring header) is flipped in turn, and the file read.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use beamr_ringbuf::layout::{file_header, ring_header, Category, Geometry};
use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, StringTable};

const RING_WORDS: usize = 512;

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("beamr-sum-{}-{name}.trace", std::process::id()))
}

fn read_word(path: &Path, word: usize) -> u64 {
    let mut f = std::fs::File::open(path).unwrap();
    f.seek(SeekFrom::Start(word as u64 * 8)).unwrap();
    let mut b = [0u8; 8];
    f.read_exact(&mut b).unwrap();
    u64::from_le_bytes(b)
}

fn write_word(path: &Path, word: usize, value: u64) {
    let mut f = OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(word as u64 * 8)).unwrap();
    f.write_all(&value.to_le_bytes()).unwrap();
}

/// What the writer wrote, by sequence number: kind, timestamp, payload.
type Written = Vec<(u16, u64, Vec<u64>)>;

/// A file of one ring that has wrapped (so it holds padding and has lost
/// its oldest events), with events of 0 to 5 payload words.
fn recorded(name: &str) -> (PathBuf, Written) {
    let path = tmp(name);
    let rec = Recorder::create(
        Options::new(1)
            .path(&path)
            .ring_words(RING_WORDS)
            .preserve(true),
    )
    .unwrap();
    let mut w = rec.writer(0).unwrap();
    let mut written = Written::new();
    for i in 0..150u64 {
        let payload: Vec<u64> = (0..i % 6).map(|k| i * 1000 + k).collect();
        let kind = (i % 9) as u16;
        assert!(w.write(kind, 1_000_000 + i * 17, &payload));
        written.push((kind, 1_000_000 + i * 17, payload));
    }
    (path, written)
}

#[derive(Default)]
struct Read_ {
    seqs: Vec<u64>,
    wrong: Vec<String>,
    lost: u64,
    damaged: Vec<(u64, u64)>,
    corrupt: usize,
}

struct Check<'w> {
    written: &'w Written,
    got: Read_,
}

impl Callbacks for Check<'_> {
    fn event(&mut self, e: &Event<'_>, _: &StringTable) {
        self.got.seqs.push(e.seq);
        let same = self
            .written
            .get(e.seq as usize)
            .is_some_and(|(kind, ts, payload)| {
                e.category == Category::User
                    && e.kind == *kind
                    && e.timestamp_ns == *ts
                    && e.payload == payload.as_slice()
            });
        if !same {
            self.got.wrong.push(format!("{e:?}"));
        }
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.got.lost += n;
    }
    fn damaged(&mut self, _: usize, pos: u64, count: u64, _: &str) {
        self.got.damaged.push((pos, count));
        self.got.lost += count;
    }
    fn corrupt(&mut self, _: usize, _: u64, _: &str) {
        self.got.corrupt += 1;
    }
}

/// Reads `path` as a finished file; `None` if it does not open.
fn read(path: &Path, written: &Written) -> Option<Read_> {
    let mut c = Cursor::open(path).ok()?;
    let mut check = Check {
        written,
        got: Read_::default(),
    };
    c.finish(&mut check);
    Some(check.got)
}

/// The positions and lengths of the ring's events and of its padding.
fn layout(path: &Path, g: &Geometry) -> (Vec<(u64, usize)>, Vec<u64>) {
    let head = read_word(path, g.ring_header_word(0, ring_header::HEAD));
    let tail = read_word(path, g.ring_header_word(0, ring_header::TAIL));
    let (mut events, mut padding) = (Vec::new(), Vec::new());
    let mut pos = head;
    while pos < tail {
        let h = read_word(
            path,
            g.ring_data_word(0) + (pos % RING_WORDS as u64) as usize,
        );
        let len = (h & 0xff) as usize;
        if (h >> 8) & 0xff == 0 {
            padding.push(pos);
        } else {
            events.push((pos, len));
        }
        pos += len as u64;
    }
    (events, padding)
}

#[test]
fn no_single_bit_flip_in_event_data_changes_an_event() {
    let (path, written) = recorded("flips");
    let strings = read_word(&path, file_header::STRINGS_CAPACITY) as usize;
    let g = Geometry::new(1, RING_WORDS, strings);
    let clean = read(&path, &written).unwrap();
    assert!(clean.wrong.is_empty() && clean.damaged.is_empty() && clean.corrupt == 0);
    assert_eq!(clean.seqs.len() as u64 + clean.lost, written.len() as u64);
    let (events, padding) = layout(&path, &g);
    assert_eq!(events.len(), clean.seqs.len());
    assert_eq!(padding.len(), 1, "the ring has wrapped once");

    let word_at = |pos: u64| g.ring_data_word(0) + (pos % RING_WORDS as u64) as usize;
    let mut flips = 0;
    // Every fifth event but the oldest (damage there is counted with the
    // events overwritten before it), every word of it (header, timestamp, payload,
    // checksum), every bit: that event is damaged, every other one read.
    for (i, &(pos, len)) in events.iter().enumerate().skip(1).step_by(5) {
        for k in 0..len as u64 {
            let word = word_at(pos + k);
            let good = read_word(&path, word);
            for bit in 0..64 {
                write_word(&path, word, good ^ 1 << bit);
                let got = read(&path, &written).unwrap();
                write_word(&path, word, good);
                flips += 1;
                let what = format!("event {i} word {k} bit {bit}");
                assert!(got.wrong.is_empty(), "{what}: decoded {:?}", got.wrong);
                let mut expected = clean.seqs.clone();
                expected.remove(i);
                assert_eq!(got.seqs, expected, "{what}: not exactly that event lost");
                assert_eq!(got.damaged, vec![(pos, 1)], "{what}: damage not reported");
                assert_eq!(got.lost, clean.lost + 1, "{what}");
                assert_eq!(got.corrupt, 0, "{what}");
            }
        }
    }
    // The padding header: no event is lost, but the damage is reported.
    let word = word_at(padding[0]);
    let good = read_word(&path, word);
    for bit in 0..64 {
        write_word(&path, word, good ^ 1 << bit);
        let got = read(&path, &written).unwrap();
        write_word(&path, word, good);
        flips += 1;
        assert!(got.wrong.is_empty(), "padding bit {bit}: {:?}", got.wrong);
        assert_eq!(got.seqs, clean.seqs, "padding bit {bit}");
        assert_eq!(got.damaged, vec![(padding[0], 0)], "padding bit {bit}");
    }
    assert!(flips > 1500, "{flips} flips");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn no_single_bit_flip_in_a_header_makes_up_an_event() {
    let (path, written) = recorded("header-flips");
    let strings = read_word(&path, file_header::STRINGS_CAPACITY) as usize;
    let g = Geometry::new(1, RING_WORDS, strings);
    let clean = read(&path, &written).unwrap();
    let words: Vec<usize> = (0..16)
        .chain((0..16).map(|f| g.ring_header_word(0, f)))
        .collect();
    let mut noticed = 0;
    for word in words {
        let good = read_word(&path, word);
        for bit in 0..64 {
            write_word(&path, word, good ^ 1 << bit);
            let got = read(&path, &written);
            write_word(&path, word, good);
            let Some(got) = got else {
                noticed += 1;
                continue; // refused at open, naming the field
            };
            assert!(
                got.wrong.is_empty(),
                "word {word} bit {bit}: {:?}",
                got.wrong
            );
            let unique: BTreeSet<u64> = got.seqs.iter().copied().collect();
            assert_eq!(unique.len(), got.seqs.len(), "word {word} bit {bit}: twice");
            if !got.damaged.is_empty() || got.corrupt > 0 {
                noticed += 1;
            } else {
                // Read without complaint: no event beyond the clean read's.
                let extra: Vec<&u64> = got
                    .seqs
                    .iter()
                    .filter(|s| !clean.seqs.contains(s))
                    .collect();
                assert!(extra.is_empty(), "word {word} bit {bit}: {extra:?}");
            }
        }
    }
    // Head, tail and count: every flip of a high bit is refused.
    for field in [ring_header::HEAD, ring_header::TAIL, ring_header::TAIL_SEQ] {
        let word = g.ring_header_word(0, field);
        let good = read_word(&path, word);
        for bit in 20..64 {
            write_word(&path, word, good ^ 1 << bit);
            let refused = Cursor::open(&path).is_err();
            write_word(&path, word, good);
            assert!(refused, "ring header field {field} bit {bit} believed");
        }
    }
    // Magic, version and the layout's fields: every bit of them noticed.
    assert!(noticed >= 64 * 8, "{noticed}");
    std::fs::remove_file(&path).unwrap();
}

/// The ring reader's fuzz seeds (`fuzz/seeds/ring_reader/`) are good
/// files of this format version: made by `synthetic` with one scheduler,
/// 512-word rings and a small string table; remade when the format changes.
#[test]
fn the_fuzz_seeds_are_good_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/ring_reader");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        files += 1;
        #[derive(Default)]
        struct Books(u64, u64, usize);
        impl Callbacks for Books {
            fn event(&mut self, e: &Event<'_>, _: &StringTable) {
                assert!(matches!(e.trace(), Some(Ok(_))), "{e:?}");
                self.0 += 1;
            }
            fn lost(&mut self, _: usize, n: u64) {
                self.1 += n;
            }
            fn damaged(&mut self, _: usize, _: u64, _: u64, _: &str) {
                self.2 += 1;
            }
            fn corrupt(&mut self, _: usize, _: u64, _: &str) {
                self.2 += 1;
            }
        }
        let mut c = Cursor::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut books = Books::default();
        c.finish(&mut books);
        let written: u64 = (0..c.ring_count()).map(|i| c.written(i)).sum();
        assert_eq!(books.2, 0, "{}", path.display());
        assert!(books.0 > 0, "{}", path.display());
        assert_eq!(books.0 + books.1, written, "{}", path.display());
        assert!(std::fs::metadata(&path).unwrap().len() <= 16 * 1024);
    }
    assert!(files > 0);
}
