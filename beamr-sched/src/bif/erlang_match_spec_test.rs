//! `erlang:match_spec_test/3` for trace match specifications of the kind
//! beamr's `erlang:trace_pattern/3` runs today (`dbg` lints every pattern
//! with it): clauses whose head matches any arguments (`'_'`, or a list of
//! `'_'` of the call's arity) with no guards, and a body of
//! `{return_trace}` and `{exception_trace}` (dbg's `x`). Anything else
//! (heads that bind, guards, the other actions, `table` specifications)
//! raises `{notsup, What}` until the whole match-spec language is in.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "match_spec_test", 3, match_spec_test)];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

/// `erlang:match_spec_test(Args, MatchSpec, trace)`: `{ok, Result, Flags,
/// Warnings}`, `Result` `true` when a clause matches `Args` (and asks for
/// nothing else), `Flags` the trace actions of that clause.
fn match_spec_test(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (args, spec, kind) = (a[0], a[1], a[2]);
    match kind.as_atom().map(Atom::name) {
        Some("trace") => {}
        Some("table") => return Err(notsup(p, "match_spec_test/3 of table specifications")),
        _ => return Err(Exception::badarg()),
    }
    let args = args.list_to_vec().ok_or_else(Exception::badarg)?;
    let clauses = spec.list_to_vec().ok_or_else(Exception::badarg)?;
    let any = atom("_");
    let mut parsed = Vec::with_capacity(clauses.len());
    for clause in clauses {
        let Some(&[head, guards, body]) = clause.as_tuple() else {
            return Err(unsupported(p));
        };
        let heads = if head == any {
            None
        } else {
            let items = head.list_to_vec().ok_or_else(|| unsupported(p))?;
            if items.iter().any(|&t| t != any) {
                return Err(unsupported(p));
            }
            Some(items.len())
        };
        if guards != Term::NIL {
            return Err(unsupported(p));
        }
        let mut actions = Vec::new();
        for action in body.list_to_vec().ok_or_else(|| unsupported(p))? {
            match action.as_tuple() {
                Some(&[name])
                    if name.as_atom().is_some_and(|n| {
                        matches!(n.name(), "return_trace" | "exception_trace")
                    }) =>
                {
                    actions.push(name)
                }
                _ => return Err(unsupported(p)),
            }
        }
        parsed.push((heads, actions));
    }
    let matched = parsed
        .iter()
        .find(|(arity, _)| arity.is_none_or(|n| n == args.len()));
    let (result, flags) = match matched {
        Some((_, actions)) => (Term::TRUE, p.heap.list(actions)),
        None => (Term::FALSE, Term::NIL),
    };
    Ok(p.heap.tuple(&[atom("ok"), result, flags, Term::NIL]))
}

fn unsupported(p: &mut Process) -> Exception {
    notsup(
        p,
        "match specifications beyond '_' heads and return/exception_trace",
    )
}

/// `error:{notsup, What}`.
fn notsup(p: &mut Process, what: &str) -> Exception {
    let what = Atom::new(what).map_or(Term::NIL, Term::atom);
    Exception::error(p.heap.tuple(&[atom("notsup"), what]))
}
