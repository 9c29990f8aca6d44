//! `Load` and `Purge`: `code:load_binary/3` and `code:purge/1`, run by the
//! agent so that the code server keeps the old version as on erl.

use beamr_core::atom::Atom;
use beamr_core::beam::BeamFile;
use beamr_core::term::Term;
use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::Reply;

/// Loads `beam` (the bytes of `file_name`) as `code:load_binary/3` does.
pub fn load(rt: &Runtime, file_name: &str, beam: &[u8]) -> Reply {
    let module = match BeamFile::parse(beam) {
        Ok(file) => file.module_name().to_string(),
        Err(e) => return failed(format!("{file_name}: {e}")),
    };
    let module_atom = match Atom::new_within_limit(&module) {
        Ok(a) => a,
        Err(e) => return failed(format!("{file_name}: {e}")),
    };
    let loaded = agent::call(rt, "load", |heap| {
        vec![
            Term::atom(module_atom),
            heap.string(file_name),
            heap.binary(beam),
        ]
    });
    match loaded {
        Ok(v) => match v.term().as_atom() {
            Some(m) => Reply::Loaded {
                module: m.name().to_string(),
            },
            None => failed("the agent's load/3 answered no module"),
        },
        Err(e) => failed(e),
    }
}

/// Purges `module`'s old code as `code:purge/1` does.
pub fn purge(rt: &Runtime, module: &str) -> Reply {
    match agent::call(rt, "purge", |heap| vec![heap.binary(module.as_bytes())]) {
        Ok(v) => Reply::Purged {
            module: module.to_string(),
            killed: v.term() == Term::TRUE,
        },
        Err(e) => failed(e),
    }
}
