//! `erlang:match_spec_test/3`: a match specification compiled and run as
//! `erlang:trace_pattern/3` (`trace`) or `ets:select/2` (`table`) would,
//! with erts's answers (`dbg:tp` lints every pattern with it, and
//! `ets:test_ms/2` is it).
//!
//! - A specification that does not compile gives `{error, [{error,
//!   Message}]}`, with erts's message ([`MsError`]); beamr gives the first
//!   error only, where erts may list more.
//! - `trace`: the specification runs on the argument list (the elements of
//!   its cons cells; anything but a list or `[]` is badarg) as a test run
//!   ([`TraceRun::test`]: no caller, the trace control word, the
//!   sequential-trace token and the silent flag left alone), giving `{ok,
//!   Result, Flags, []}`: `Result` is `false` when no clause matches,
//!   else what `message/1` last set (`true` when it was not called), and
//!   `Flags` lists `return_trace` and `exception_trace` if the body called
//!   them.
//! - `table`: the specification runs on the object, giving `{ok, Result,
//!   [], []}`, `Result` the body's value (`false` when no clause matches).
//!
//! The fourth element holds erts's warnings; beamr has none to give.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::interp::TEST_HOST;
use crate::loader::BifRow;
use crate::matchspec::trace::TraceRun;
use crate::matchspec::{MatchSpec, MsError};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "match_spec_test", 3, match_spec_test)];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

/// `erlang:match_spec_test(MatchAgainst, MatchSpec, trace | table)`.
fn match_spec_test(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (against, spec, kind) = (a[0], a[1], a[2]);
    let (result, flags) = match kind.as_atom().map(Atom::name) {
        Some("trace") => {
            if against != Term::NIL && against.as_cons().is_none() {
                return Err(Exception::badarg());
            }
            let ms = match MatchSpec::compile_trace(spec) {
                Ok(ms) if spec != Term::NIL => ms,
                Ok(_) => return Ok(error(p, &MsError(NOT_A_LIST.into()))),
                Err(e) => return Ok(error(p, &e)),
            };
            let mut args = Vec::new();
            let mut rest = against;
            while let Some((head, tail)) = rest.as_cons() {
                args.push(head);
                rest = tail;
            }
            let mut run = TraceRun::test(&TEST_HOST);
            let result = match ms.run_trace(rt, p, &args, &mut run) {
                Some(()) => run.message.unwrap_or(Term::TRUE),
                None => Term::FALSE,
            };
            let flags = [
                (run.return_trace, "return_trace"),
                (run.exception_trace, "exception_trace"),
            ];
            let flags: Vec<Term> = flags
                .iter()
                .filter(|(on, _)| *on)
                .map(|&(_, name)| atom(name))
                .collect();
            (result, p.heap.list(&flags))
        }
        Some("table") => {
            let ms = match MatchSpec::compile(spec) {
                Ok(ms) if spec != Term::NIL => ms,
                Ok(_) => return Ok(error(p, &MsError(NOT_A_LIST.into()))),
                Err(e) => return Ok(error(p, &e)),
            };
            (ms.run(rt, p, against).unwrap_or(Term::FALSE), Term::NIL)
        }
        _ => return Err(Exception::badarg()),
    };
    Ok(p.heap.tuple(&[atom("ok"), result, flags, Term::NIL]))
}

/// erts's error for `[]`, which compiles for `trace_pattern/3` and
/// `ets:select/2` (both treat it on their own) but is no specification
/// here.
const NOT_A_LIST: &str = "Match programs are not in a list.";

/// `{error, [{error, Message}]}`.
fn error(p: &mut Process, e: &MsError) -> Term {
    let message = p.heap.string(&e.0);
    let item = p.heap.tuple(&[atom("error"), message]);
    let errors = p.heap.list(&[item]);
    p.heap.tuple(&[atom("error"), errors])
}
