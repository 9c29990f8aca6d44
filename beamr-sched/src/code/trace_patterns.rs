//! Global call trace patterns: which exported functions have their
//! export's trace flag word set (the per-function word the `call` probe
//! tests; its bits are `trace::pattern`). Set by `erlang:trace_pattern/3`
//! and by `beamr run --trace-call`.

use std::sync::atomic::Ordering;

use beamr_core::atom::Atom;
use beamr_core::term::Export;

use super::CodeServer;

/// Sets the flag word of every exported function of a loaded module that
/// `module:function/arity` names (`None` is the wildcard `'_'`) to `word`
/// (0 turns tracing off); returns how many matched. A module that is not
/// loaded matches nothing.
pub fn set(module: Option<Atom>, function: Option<Atom>, arity: Option<u32>, word: u32) -> usize {
    let code = CodeServer::global();
    let modules: Vec<Atom> = match module {
        Some(m) => vec![m],
        None => code.loaded().into_iter().map(|(m, _)| m).collect(),
    };
    let mut matched = 0;
    for m in modules {
        let Some(loaded) = code.current(m) else {
            continue;
        };
        for &(name, n, _) in &loaded.exports {
            if function.is_none_or(|f| f == name) && arity.is_none_or(|a| a == n) {
                Export::intern(m, name, n)
                    .trace
                    .store(word, Ordering::Relaxed);
                matched += 1;
            }
        }
    }
    matched
}
