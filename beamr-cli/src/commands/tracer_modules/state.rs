//! Reading a tracer module's `State`: a map of options with atom keys.

use beamr_core::atom::Atom;
use beamr_core::format::format_p;
use beamr_core::term::Term;

/// The options of `state`, a map whose keys are atoms named in `known`,
/// as `(name, value)` pairs; an error naming what is wrong.
pub fn options(state: Term, known: &[&'static str]) -> Result<Vec<(&'static str, Term)>, String> {
    let iter = beamr_core::map::iter(state)
        .ok_or_else(|| format!("the state is a map of options ({})", known.join(", ")))?;
    let mut out = Vec::new();
    for (key, value) in iter {
        let name = key.as_atom().map_or("", Atom::name);
        let Some(&known_name) = known.iter().find(|&&k| k == name) else {
            return Err(format!(
                "unknown option {} (options: {})",
                format_p(key, &Default::default()),
                known.join(", ")
            ));
        };
        out.push((known_name, value));
    }
    Ok(out)
}

/// The text `t` is: a string (a list of characters), a binary (UTF-8) or an
/// atom.
pub fn text(t: Term) -> Option<String> {
    if let Some(a) = t.as_atom() {
        return Some(a.name().to_owned());
    }
    if let Some(b) = t.as_binary() {
        return String::from_utf8(b.to_vec()).ok();
    }
    t.list_to_vec()?
        .into_iter()
        .map(|c| {
            c.as_small()
                .and_then(|n| u32::try_from(n).ok())
                .and_then(char::from_u32)
        })
        .collect()
}
