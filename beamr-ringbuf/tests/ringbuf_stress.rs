//! Writers on every core and a slow reader: for each ring, events written =
//! events delivered + events reported lost, and no delivered event is torn.

use std::sync::atomic::{AtomicBool, Ordering};

use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, StringTable};

struct Check {
    delivered: Vec<u64>,
    lost: Vec<u64>,
    last_seq: Vec<Option<u64>>,
    torn: u64,
}

impl Callbacks for Check {
    fn event(&mut self, e: &Event<'_>, _: &StringTable) {
        // Event `seq` of ring `r` has `seq % 6 + 1` payload words, each
        // `seq ^ (r << 56) ^ i`; its timestamp is `seq`.
        let r = e.ring as u64;
        let ok = e.payload.len() as u64 == e.seq % 6 + 1
            && e.timestamp_ns == e.seq
            && e.kind == (e.seq % 7) as u16
            && e.payload
                .iter()
                .enumerate()
                .all(|(i, &w)| w == e.seq ^ (r << 56) ^ i as u64);
        if !ok {
            self.torn += 1;
        }
        if let Some(prev) = self.last_seq[e.ring] {
            assert!(e.seq > prev, "ring {} went backwards", e.ring);
        }
        self.last_seq[e.ring] = Some(e.seq);
        self.delivered[e.ring] += 1;
    }
    fn lost(&mut self, ring: usize, n: u64) {
        self.lost[ring] += n;
    }
    fn corrupt(&mut self, ring: usize, pos: u64, why: &str) {
        panic!("ring {ring} corrupt at {pos}: {why}");
    }
}

#[test]
fn accounting_is_exact_under_contention() {
    let cores = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    let per_writer: u64 = if cfg!(debug_assertions) {
        200_000
    } else {
        2_000_000
    };
    let path = std::env::temp_dir().join(format!("beamr-stress-{}.trace", std::process::id()));
    let rec = Recorder::create(Options::new(cores).path(&path).ring_words(4096)).unwrap();
    let done = AtomicBool::new(false);
    let mut check = Check {
        delivered: vec![0; cores],
        lost: vec![0; cores],
        last_seq: vec![None; cores],
        torn: 0,
    };
    std::thread::scope(|s| {
        for r in 0..cores {
            let mut w = rec.writer(r).unwrap();
            s.spawn(move || {
                let mut buf = [0u64; 6];
                for seq in 0..per_writer {
                    let n = (seq % 6 + 1) as usize;
                    for (i, b) in buf[..n].iter_mut().enumerate() {
                        *b = seq ^ ((r as u64) << 56) ^ i as u64;
                    }
                    assert!(w.write((seq % 7) as u16, seq, &buf[..n]));
                }
            });
        }
        let mut cursor = Cursor::open(&path).unwrap();
        let done = &done;
        let check = &mut check;
        s.spawn(move || {
            let mut polls = 0u64;
            while !done.load(Ordering::Acquire) {
                cursor.poll(check);
                polls += 1;
                // A slow reader: let the writers lap it.
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            cursor.finish(check);
            assert!(polls > 0);
        });
        // Wait for the writers (every thread but the reader) by polling the
        // rings' counts, then stop the reader.
        while (0..cores).any(|r| rec.written(r) < per_writer) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        done.store(true, Ordering::Release);
    });
    assert_eq!(check.torn, 0, "torn or mixed-up events were delivered");
    for r in 0..cores {
        assert_eq!(rec.written(r), per_writer);
        assert_eq!(
            check.delivered[r] + check.lost[r],
            per_writer,
            "ring {r}: delivered {} + lost {}",
            check.delivered[r],
            check.lost[r]
        );
        assert_eq!(
            check.last_seq[r],
            Some(per_writer - 1),
            "ring {r}: newest event delivered"
        );
    }
    assert!(
        check.lost.iter().sum::<u64>() > 0,
        "the reader was slow enough to lose events"
    );
}
