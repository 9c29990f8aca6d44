//! `ets` BIFs that run match specifications: `match`, `match_object`,
//! `select` and their variants, counting and deleting, and compiled
//! specifications (`match_spec_compile`, `match_spec_run`).

use super::access::{badarg, end_of_table, with_table, Access};
use crate::bif::common::atoms::atom;

use beamr_core::order;
use beamr_core::term::Term;

use crate::ets::Kind;
use crate::loader::BifRow;
use crate::matchspec::MatchSpec;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("ets", "match", 2, match2),
    ("ets", "match", 3, match3),
    ("ets", "match", 1, select1),
    ("ets", "match_object", 2, match_object2),
    ("ets", "match_object", 3, match_object3),
    ("ets", "match_object", 1, select1),
    ("ets", "select", 2, select2),
    ("ets", "select", 3, select3),
    ("ets", "select", 1, select1),
    ("ets", "select_reverse", 2, select_reverse2),
    ("ets", "select_reverse", 3, select_reverse3),
    ("ets", "select_reverse", 1, select1),
    ("ets", "select_count", 2, select_count),
    ("ets", "select_delete", 2, select_delete),
    ("ets", "internal_select_delete", 2, select_delete),
    ("ets", "tab2list", 1, tab2list),
    ("ets", "match_spec_compile", 1, match_spec_compile),
    ("ets", "is_compiled_ms", 1, is_compiled_ms),
    ("ets", "match_spec_run_r", 3, match_spec_run_r),
];

// ---- matching ----

pub(super) fn compile(spec: Term) -> Result<MatchSpec, Exception> {
    MatchSpec::compile(spec).map_err(|_| Exception::badarg())
}

pub(super) fn pattern(pattern: Term, whole: bool) -> Result<MatchSpec, Exception> {
    MatchSpec::from_pattern(pattern, whole).map_err(|_| Exception::badarg())
}

/// Every result of `ms` on the table, in table order (reversed when asked).
fn run_all(
    rt: &Runtime,
    p: &mut Process,
    tab: Term,
    ms: &MatchSpec,
    reverse: bool,
) -> Result<Vec<Term>, Exception> {
    with_table(rt, p, tab, Access::Read, |p, t, d| {
        let mut out = Vec::new();
        let mut scratch = Vec::new();
        if let Some(mut keys) = ms.bound_keys(t.keypos) {
            // Each object once, in table order.
            keys.sort_by(|&a, &b| order::compare_exact(a, b));
            keys.dedup_by(|a, b| order::exact_eq(*a, *b));
            if t.kind == Kind::OrderedSet {
                keys.sort_by(|&a, &b| order::compare(a, b));
                keys.dedup_by(|a, b| order::eq(*a, *b));
            }
            if reverse {
                keys.reverse();
            }
            for k in keys {
                for s in d.lookup(k) {
                    if let Some(r) = ms.run_with(rt, &mut scratch, p, s.term()) {
                        out.push(r);
                    }
                }
            }
            return Ok(out);
        }
        if reverse && t.kind == Kind::OrderedSet {
            for s in d.iter().rev() {
                if let Some(r) = ms.run_with(rt, &mut scratch, p, s.term()) {
                    out.push(r);
                }
            }
        } else {
            for s in d.iter() {
                if let Some(r) = ms.run_with(rt, &mut scratch, p, s.term()) {
                    out.push(r);
                }
            }
        }
        Ok(out)
    })
}

fn select_list(
    rt: &Runtime,
    p: &mut Process,
    tab: Term,
    ms: &MatchSpec,
    reverse: bool,
) -> Result<Term, Exception> {
    let out = run_all(rt, p, tab, ms, reverse)?;
    Ok(p.heap.list(&out))
}

/// The continuation of a chunked select: the results not yet returned.
fn continuation_tag() -> Term {
    atom("$beamr_ets_continuation")
}

/// `{First Limit results, Continuation}` or `'$end_of_table'`.
pub(super) fn chunk(p: &mut Process, results: &[Term], limit: usize) -> Term {
    if results.is_empty() {
        return end_of_table();
    }
    let n = limit.min(results.len());
    let head = p.heap.list(&results[..n]);
    let rest = p.heap.list(&results[n..]);
    let limit = Term::small_unchecked(limit as i64);
    let cont = p.heap.tuple(&[continuation_tag(), limit, rest]);
    p.heap.tuple(&[head, cont])
}

pub(super) fn limit(t: Term) -> Result<usize, Exception> {
    match t.as_small() {
        Some(n) if n >= 1 => Ok(n as usize),
        _ => badarg(),
    }
}

fn select1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0] == end_of_table() {
        return Ok(end_of_table());
    }
    let t = a[0].as_tuple().ok_or_else(Exception::badarg)?;
    match t {
        [tag, lim, rest] if *tag == continuation_tag() => {
            let results = rest.list_to_vec().ok_or_else(Exception::badarg)?;
            let lim = limit(*lim)?;
            Ok(chunk(p, &results, lim))
        }
        _ => badarg(),
    }
}

pub(super) fn match2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = pattern(a[1], false)?;
    select_list(rt, p, a[0], &ms, false)
}

pub(super) fn match3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let lim = limit(a[2])?;
    let ms = pattern(a[1], false)?;
    let out = run_all(rt, p, a[0], &ms, false)?;
    Ok(chunk(p, &out, lim))
}

fn match_object2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = pattern(a[1], true)?;
    select_list(rt, p, a[0], &ms, false)
}

fn match_object3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let lim = limit(a[2])?;
    let ms = pattern(a[1], true)?;
    let out = run_all(rt, p, a[0], &ms, false)?;
    Ok(chunk(p, &out, lim))
}

fn select2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = compile(a[1])?;
    select_list(rt, p, a[0], &ms, false)
}

fn select3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let lim = limit(a[2])?;
    let ms = compile(a[1])?;
    let out = run_all(rt, p, a[0], &ms, false)?;
    Ok(chunk(p, &out, lim))
}

fn select_reverse2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = compile(a[1])?;
    select_list(rt, p, a[0], &ms, true)
}

fn select_reverse3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let lim = limit(a[2])?;
    let ms = compile(a[1])?;
    let out = run_all(rt, p, a[0], &ms, true)?;
    Ok(chunk(p, &out, lim))
}

fn select_count(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = compile(a[1])?;
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        let mut scratch = Vec::new();
        let n = d
            .iter()
            .filter(|s| ms.test_with(rt, &mut scratch, p, s.term()))
            .count();
        Ok(Term::small_unchecked(n as i64))
    })
}

fn select_delete(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = compile(a[1])?;
    with_table(rt, p, a[0], Access::Write, |p, _, d| {
        let mut scratch = Vec::new();
        let n = d.retain(|o| !ms.test_with(rt, &mut scratch, p, o));
        Ok(Term::small_unchecked(n as i64))
    })
}

fn tab2list(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        let copies: Vec<Term> = d.iter().map(|s| p.heap.copy_term(s.term())).collect();
        Ok(p.heap.list(&copies))
    })
}

// ---- compiled match specifications ----

/// `ets:match_spec_compile/1`: beamr keeps the specification's term form
/// (wrapped so `is_compiled_ms` can tell it) and compiles it where it runs.
fn match_spec_compile(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    compile(a[0])?;
    Ok(p.heap.tuple(&[atom("$beamr_compiled_ms"), a[0]]))
}

fn compiled_source(t: Term) -> Option<Term> {
    match t.as_tuple()? {
        [tag, spec] if *tag == atom("$beamr_compiled_ms") => Some(*spec),
        _ => None,
    }
}

fn is_compiled_ms(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(compiled_source(a[0]).is_some()))
}

/// `ets:match_spec_run_r(List, CompiledMs, Acc)`: results prepended to `Acc`
/// in reverse order (`match_spec_run/2` reverses them).
fn match_spec_run_r(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let spec = compiled_source(a[1]).ok_or_else(Exception::badarg)?;
    let ms = compile(spec)?;
    let items = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut acc = a[2];
    let mut scratch = Vec::new();
    for item in items {
        if let Some(r) = ms.run_with(rt, &mut scratch, p, item) {
            acc = p.heap.cons(r, acc);
        }
    }
    Ok(acc)
}
