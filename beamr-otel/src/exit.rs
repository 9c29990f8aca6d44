//! How an exit reason reads: its class, whether it is a crash, and the
//! exception inside it.
//!
//! | reason | class | crash |
//! |---|---|---|
//! | `normal` | `normal` | no |
//! | `shutdown`, `{shutdown, _}` | `shutdown` | no |
//! | `killed` | `killed` | yes |
//! | `{{nocatch, V}, Stack}` | `throw` (reason `V`) | yes |
//! | `{R, Stack}`, `Stack` a list of `{M, F, A, Location}` | `error` (reason `R`) | yes |
//! | anything else | `exit` | yes |

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::render;

/// An exit reason, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExitInfo {
    /// `normal`, `shutdown`, `killed`, `error`, `exit` or `throw`.
    pub(crate) class: &'static str,
    /// True unless the class is `normal` or `shutdown`.
    pub(crate) crashed: bool,
    /// The exception's reason, printed.
    pub(crate) reason: String,
    /// The stack trace, one frame a line, when the reason holds one.
    pub(crate) stacktrace: Option<String>,
}

fn atom_is(t: Term, name: &str) -> bool {
    t.as_atom().is_some_and(|a| a.name() == name)
}

/// Reads `reason` as the module's table says.
pub(crate) fn classify(reason: Term) -> ExitInfo {
    let info = |class, crashed, r: Term, stack| ExitInfo {
        class,
        crashed,
        reason: render::term(r),
        stacktrace: stack,
    };
    if atom_is(reason, "normal") {
        return info("normal", false, reason, None);
    }
    if atom_is(reason, "shutdown") {
        return info("shutdown", false, reason, None);
    }
    if atom_is(reason, "killed") {
        return info("killed", true, reason, None);
    }
    if let Some(&[first, second]) = reason.as_tuple() {
        if atom_is(first, "shutdown") {
            return info("shutdown", false, reason, None);
        }
        if let Some(stack) = stacktrace(second) {
            if let Some(&[tag, value]) = first.as_tuple() {
                if atom_is(tag, "nocatch") {
                    return info("throw", true, value, Some(stack));
                }
            }
            return info("error", true, first, Some(stack));
        }
    }
    info("exit", true, reason, None)
}

/// A stack trace (`[{M, F, ArityOrArgs, Location}]`) as `m:f/a (file:line)`
/// lines, or `None` if `t` is not one.
fn stacktrace(t: Term) -> Option<String> {
    let frames = t.list_to_vec()?;
    if frames.is_empty() {
        return None;
    }
    let mut out = String::new();
    for frame in frames {
        let &[m, f, a, loc] = frame.as_tuple()? else {
            return None;
        };
        let (m, f) = (m.as_atom()?, f.as_atom()?);
        let arity = match a.as_small() {
            Some(n) => n,
            None => a.list_len()? as i64,
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{}:{}/{}", m.name(), f.name(), arity));
        if let Some(l) = location(loc) {
            out.push_str(&format!(" ({l})"));
        }
    }
    Some(out)
}

/// `file:line` from a location list `[{file, F}, {line, L}]`.
fn location(loc: Term) -> Option<String> {
    let mut file = None;
    let mut line = None;
    for item in loc.list_to_vec()? {
        if let Some(&[k, v]) = item.as_tuple() {
            match k.as_atom().map(Atom::name) {
                Some("file") => file = Some(charlist(v).unwrap_or_else(|| render::term(v))),
                Some("line") => line = v.as_small(),
                _ => {}
            }
        }
    }
    match (file, line) {
        (Some(f), Some(l)) => Some(format!("{f}:{l}")),
        (Some(f), None) => Some(f),
        _ => None,
    }
}

/// A list of character codes as a string.
fn charlist(t: Term) -> Option<String> {
    t.list_to_vec()?
        .into_iter()
        .map(|c| c.as_small().and_then(|c| char::from_u32(c as u32)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::heap::Heap;

    fn atom(h: &str) -> Term {
        Term::atom(Atom::new(h).unwrap())
    }

    #[test]
    fn classifies_the_table() {
        let mut h = Heap::new();
        assert_eq!(classify(atom("normal")).class, "normal");
        assert!(!classify(atom("shutdown")).crashed);
        let sd = h.tuple(&[atom("shutdown"), atom("restart")]);
        assert_eq!(classify(sd).class, "shutdown");
        assert!(classify(atom("killed")).crashed);
        let file = h.string("w.erl");
        let ft = h.tuple(&[atom("file"), file]);
        let lt = h.tuple(&[atom("line"), Term::small_unchecked(7)]);
        let loc = h.list(&[ft, lt]);
        let frame = h.tuple(&[atom("w"), atom("go"), Term::small_unchecked(1), loc]);
        let stack = h.list(&[frame]);
        let err = h.tuple(&[atom("badarith"), stack]);
        let e = classify(err);
        assert_eq!(
            (e.class, e.crashed, e.reason.as_str()),
            ("error", true, "badarith")
        );
        assert_eq!(e.stacktrace.as_deref(), Some("w:go/1 (w.erl:7)"));
        let nocatch = h.tuple(&[atom("nocatch"), Term::small_unchecked(3)]);
        let thrown = h.tuple(&[nocatch, stack]);
        assert_eq!(classify(thrown).class, "throw");
        assert_eq!(classify(thrown).reason, "3");
        let plain = h.tuple(&[atom("bad"), atom("thing")]);
        assert_eq!(classify(plain).class, "exit");
        assert_eq!(classify(plain).stacktrace, None);
    }
}
