//! The native functions of OTP's `re` module: `version/0`, `compile/1,2`,
//! `run/2,3`, `internal_run/4` and `inspect/2`. `replace`, `split` and the
//! rest of `re` run as OTP's own bytecode on top of them.
//!
//! Where the BEAM traps to Erlang (`re:urun/3` for Unicode charlists,
//! `re:grun/3` for `global`, `re:ucompile/2`), beamr does the same work
//! natively: charlists are converted here and the global loop is
//! [`super::global`].

use std::borrow::Cow;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::capture::{self, Spec, Subject, Values};
use super::engine::{self, Compiled, Outcome};
use super::global::{self, Found};
use super::options::{self, Options};
use super::pattern_term;
use super::translate::{CompileOptions, MatchVariant};
use crate::bif::common::atoms::atom;
use crate::bif::erlang::binaries::iodata_bytes;
use crate::bif::io::beamr_io::chardata;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

fn badopt() -> Exception {
    Exception::badarg_cause(atom("badopt"))
}

/// The bytes of a pattern or subject given as text: UTF-8 from chardata
/// when `unicode`, else iodata bytes. A binary is borrowed, not copied:
/// terms do not move while a BIF runs (allocation goes on in fragments).
fn text_bytes(t: &Term, unicode: bool) -> Result<Cow<'_, [u8]>, Exception> {
    if let Some(v) = t.as_binary() {
        return v
            .as_bytes()
            .map(Cow::Borrowed)
            .ok_or_else(Exception::badarg);
    }
    if unicode {
        let mut chars = Vec::new();
        chardata(*t, true, &mut chars).ok_or_else(Exception::badarg)?;
        let mut out = String::with_capacity(chars.len());
        for c in chars {
            out.push(char::from_u32(c).ok_or_else(Exception::badarg)?);
        }
        Ok(Cow::Owned(out.into_bytes()))
    } else {
        iodata_bytes(*t).map(Cow::Owned)
    }
}

/// `{error, {Message, Offset}}` as a charlist and integer.
fn compile_error(p: &mut Process, e: &engine::CompileError) -> Term {
    let msg = p.heap.byte_list(e.message.as_bytes(), Term::NIL);
    p.heap.tuple(&[msg, Term::small_unchecked(e.offset as i64)])
}

fn compile_impl(p: &mut Process, re: Term, opts: Term) -> Result<Term, Exception> {
    let o = options::parse(opts).ok_or_else(badopt)?;
    if o.has_exec_opt {
        return Err(badopt());
    }
    let source = text_bytes(&re, o.compile.unicode)?;
    match engine::compile(&source, &o.compile, &MatchVariant::default()) {
        Ok(c) => {
            let mp = pattern_term::encode(p, &source, &o.compile, c.groups, c.newline.crlf());
            Ok(p.heap.tuple(&[Term::atom(Atom::OK), mp]))
        }
        Err(e) => {
            let err = compile_error(p, &e);
            Ok(p.heap.tuple(&[Term::atom(Atom::ERROR), err]))
        }
    }
}

fn compile1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    compile_impl(p, a[0], Term::NIL)
}

fn compile2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    compile_impl(p, a[0], a[1])
}

/// The pattern a run uses: its source and compile options, and whether it
/// came as text (compile errors are then `badarg` or reported).
fn pattern_of<'a>(
    re: &'a Term,
    o: &Options,
) -> Result<(Cow<'a, [u8]>, CompileOptions, bool), Exception> {
    if pattern_term::is_pattern_shaped(*re) {
        if o.has_compile_opt {
            return Err(Exception::badarg());
        }
        let (source, copts) = pattern_term::decode(re).ok_or_else(Exception::badarg)?;
        return Ok((Cow::Borrowed(source), copts, false));
    }
    if re.as_binary().is_none() && re.as_cons().is_none() && !re.is_nil() {
        return Err(Exception::badarg());
    }
    let source = text_bytes(re, o.compile.unicode)?;
    Ok((source, o.compile.clone(), true))
}

fn limit_error(p: &mut Process, outcome: &Outcome) -> Term {
    let what = match outcome {
        Outcome::DepthLimit => "match_limit_recursion",
        _ => "match_limit",
    };
    p.heap.tuple(&[Term::atom(Atom::ERROR), atom(what)])
}

fn run_impl(p: &mut Process, subject: Term, re: Term, opts: Term) -> Result<Term, Exception> {
    let o = options::parse(opts).ok_or_else(badopt)?;
    let (source, copts, from_text) = pattern_of(&re, &o)?;
    let base = match engine::compile(&source, &copts, &MatchVariant::default()) {
        Ok(c) => c,
        Err(e) if from_text && o.report_errors => {
            let err = compile_error(p, &e);
            let err = p.heap.tuple(&[atom("compile"), err]);
            return Ok(p.heap.tuple(&[Term::atom(Atom::ERROR), err]));
        }
        Err(_) => return Err(Exception::badarg()),
    };
    let spec = match o.capture {
        Some((values, kind)) => {
            capture::parse(values, kind, &base).ok_or_else(Exception::badarg)?
        }
        None => Spec::default(),
    };
    let bytes = text_bytes(&subject, copts.unicode)?;
    let subj = Subject {
        bytes: &bytes,
        binary: subject.as_binary().is_some().then_some(subject),
        unicode: copts.unicode,
    };
    let variant = |v: MatchVariant| -> Result<std::sync::Arc<Compiled>, Exception> {
        if v == MatchVariant::default() {
            Ok(std::sync::Arc::clone(&base))
        } else {
            engine::compile(&source, &copts, &v).map_err(|_| Exception::badarg())
        }
    };
    let matcher = variant(o.variant)?;
    if o.global {
        let nonempty = variant(MatchVariant {
            anchored: true,
            notempty_atstart: true,
            ..o.variant
        })?;
        let found = global::run(
            &matcher,
            &nonempty,
            &bytes,
            o.offset,
            &spec.values,
            copts.unicode,
            o.report_errors,
        );
        return match found {
            Found::BadArg => Err(Exception::badarg()),
            Found::Error(limit) => Ok(limit_error(p, &limit)),
            Found::Matches(all) if all.is_empty() => Ok(atom("nomatch")),
            Found::Matches(_) if matches!(spec.values, Values::None) => Ok(atom("match")),
            Found::Matches(all) => {
                let strip = matches!(spec.values, Values::AllButFirst | Values::List(_));
                let items: Vec<Term> = all
                    .iter()
                    .map(|m| capture::parts(p, &m[strip as usize..], spec.kind, &subj))
                    .collect();
                let list = p.heap.list(&items);
                Ok(p.heap.tuple(&[atom("match"), list]))
            }
        };
    }
    match matcher.exec(&bytes, o.offset) {
        Outcome::Match(groups) => {
            if matches!(spec.values, Values::None) {
                return Ok(atom("match"));
            }
            let chosen = capture::selected(&groups, &spec.values);
            let list = capture::parts(p, &chosen, spec.kind, &subj);
            Ok(p.heap.tuple(&[atom("match"), list]))
        }
        Outcome::NoMatch => Ok(atom("nomatch")),
        Outcome::BadArg => Err(Exception::badarg()),
        limit if o.report_errors => Ok(limit_error(p, &limit)),
        _ => Ok(atom("nomatch")),
    }
}

fn run2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    run_impl(p, a[0], a[1], Term::NIL)
}

fn run3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    run_impl(p, a[0], a[1], a[2])
}

/// `re:internal_run/4`: `run/3` for OTP's global loop; the fourth argument
/// (`true` on the first call) only spares the BEAM a UTF-8 check.
fn internal_run4(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[3] != Term::atom(Atom::TRUE) && a[3] != Term::atom(Atom::FALSE) {
        return Err(Exception::badarg());
    }
    run_impl(p, a[0], a[1], a[2])
}

/// `re:inspect(MP, namelist)`: `{namelist, Names}`, the group names as
/// binaries in PCRE's name-table order, each once.
fn inspect2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (source, copts) = pattern_term::decode(&a[0]).ok_or_else(Exception::badarg)?;
    if a[1].as_atom().map(Atom::name) != Some("namelist") {
        return Err(Exception::badarg());
    }
    let c = engine::compile(source, &copts, &MatchVariant::default())
        .map_err(|_| Exception::badarg())?;
    let mut names: Vec<&[u8]> = c.names.iter().map(|(n, _)| &n[..]).collect();
    names.dedup();
    let items: Vec<Term> = names.iter().map(|n| p.heap.binary(n)).collect();
    let list = p.heap.list(&items);
    Ok(p.heap.tuple(&[atom("namelist"), list]))
}

/// `re:version/0`.
fn version0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.binary(engine::version().as_bytes()))
}

/// `re:import/1` (OTP 28.1+): patterns exported with `export` are not
/// supported.
fn import1(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Err(Exception::error(atom("notsup")))
}

/// The BIFs of this file.
pub(crate) const BIFS: &[crate::loader::BifRow] = &[
    ("re", "version", 0, version0),
    ("re", "compile", 1, compile1),
    ("re", "compile", 2, compile2),
    ("re", "run", 2, run2),
    ("re", "run", 3, run3),
    ("re", "internal_run", 4, internal_run4),
    ("re", "inspect", 2, inspect2),
    ("re", "import", 1, import1),
];
