//! The `dist_frame` fuzz target's seeds (`fuzz/seeds/dist_frame/`: 14
//! well-formed control messages of different kinds and 2 malformed ones,
//! as erl's `term_to_binary` writes them, from a peer `peer@fuzz`) through `dist::incoming::handle`, as a connection
//! hands it each packet: the well-formed ones are taken, and the two that
//! break the protocol are refused with a reason naming what is wrong.

use std::path::Path;

use beamr_core::atom::Atom;
use beamr_sched::code::CodePath;
use beamr_sched::dist::{connection, incoming};
use beamr_sched::runtime::Runtime;

/// The seeds that break the protocol, and a word of each refusal.
const REFUSED: [(&str, &str); 2] = [("bad_arity", "elements"), ("not_a_tuple", "tuple")];

#[test]
fn each_seed_frame_is_taken_or_refused_by_name() {
    let rt = Runtime::new(CodePath::new());
    let peer = Atom::new("peer@fuzz").unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/dist_frame");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 16, "seeds in {}: {names:?}", dir.display());
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let outcome = incoming::handle(&rt, peer, &bytes);
        match REFUSED.iter().find(|(seed, _)| seed == name) {
            Some((_, word)) => {
                let why = outcome.expect_err(name).0;
                assert!(why.contains(word), "{name}: refused with {why:?}");
            }
            None => assert!(outcome.is_ok(), "{name}: {:?}", outcome.err().map(|b| b.0)),
        }
        connection::gone(&rt, peer, None);
    }
}
