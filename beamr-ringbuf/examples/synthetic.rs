//! Writes N synthetic BEAM-like trace events into a ring-buffer file, so the
//! whole pipeline (`beamr trace dump|stats|tail|export|flame`) can be tried
//! without the runtime.
//!
//! ```text
//! cargo run --release -p beamr-ringbuf --example synthetic -- FILE N [RING_WORDS]
//! ```
//!
//! Four "schedulers" (threads) each run processes in turn: spawns, time
//! slices, nested calls, sends to processes on other schedulers which
//! receive them, links, collections and exits (see
//! [`beamr_ringbuf::synthetic`]). The rings are sized to keep all N events
//! unless RING_WORDS (a power of two) says otherwise, in which case the
//! oldest events are overwritten. The file is kept (it is the output).

use beamr_ringbuf::synthetic::{self, Config};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: synthetic FILE N [RING_WORDS]");
        std::process::exit(2);
    };
    let mut config = Config::new(path, n);
    if let Some(words) = args.get(3) {
        match words.parse() {
            Ok(w) => config.ring_words = w,
            Err(_) => {
                eprintln!("synthetic: RING_WORDS must be a number, not {words:?}");
                std::process::exit(2);
            }
        }
    }
    match synthetic::write_with(&config) {
        Ok(written) => println!(
            "{path}: {} events on {} schedulers ({} words per ring)",
            written.total(),
            config.schedulers,
            config.ring_words
        ),
        Err(e) => {
            eprintln!("synthetic: {e}");
            std::process::exit(1);
        }
    }
}
