//! `ets` BIFs on objects: insertion, lookup, deletion, traversal
//! (`first`/`next`/...) and updates in place (`update_counter`,
//! `update_element`).

use super::access::{badarg, end_of_table, with_table, Access, KNOWN};

use beamr_core::order;
use beamr_core::term::Term;

use crate::ets::table::TableData;
use crate::ets::Kind;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("ets", "insert", 2, insert),
    ("ets", "insert_new", 2, insert_new),
    ("ets", "lookup", 2, lookup),
    ("ets", "lookup_element", 3, lookup_element),
    ("ets", "member", 2, member),
    ("ets", "take", 2, take),
    ("ets", "first", 1, first),
    ("ets", "last", 1, last),
    ("ets", "next", 2, next),
    ("ets", "prev", 2, prev),
    ("ets", "update_counter", 3, update_counter3),
    ("ets", "update_counter", 4, update_counter4),
    ("ets", "update_element", 3, update_element),
];

// ---- insertion and lookup ----

/// The objects of an `insert` argument (one tuple or a list of tuples),
/// each checked to have a key.
fn objects(d: &TableData, arg: Term) -> Result<Vec<Term>, Exception> {
    let objs = if arg.is_tuple() {
        vec![arg]
    } else {
        arg.list_to_vec().ok_or_else(Exception::badarg)?
    };
    if objs.iter().any(|&o| d.key_of(o).is_none()) {
        return badarg();
    }
    Ok(objs)
}

pub(super) fn insert(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        for o in objects(d, a[1])? {
            d.insert(o);
        }
        Ok(Term::TRUE)
    })
}

fn insert_new(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        let objs = objects(d, a[1])?;
        let taken = objs
            .iter()
            .any(|&o| d.contains(d.key_of(o).expect("checked")));
        if taken {
            return Ok(Term::FALSE);
        }
        for o in objs {
            d.insert(o);
        }
        Ok(Term::TRUE)
    })
}

pub(super) fn lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        let found = d.lookup(a[1]);
        let mut list = Term::NIL;
        for s in found.iter().rev() {
            let o = p.heap.copy_term(s.term());
            list = p.heap.cons(o, list);
        }
        Ok(list)
    })
}

pub(super) fn position(t: Term) -> Result<usize, Exception> {
    match t.as_small() {
        Some(n) if n >= 1 => Ok(n as usize),
        _ => badarg(),
    }
}

fn lookup_element(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    elements_or(rt, p, a, None)
}

/// `lookup_element(Tab, Key, Pos)`'s answer: element `Pos` of the object
/// under `Key` (of each, in a bag), and when there is none `default`
/// (`lookup_element/4`) or `badarg`.
pub(super) fn elements_or(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
    default: Option<Term>,
) -> Result<Term, Exception> {
    let pos = position(a[2])?;
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        let found = d.lookup(a[1]);
        if found.is_empty() {
            return default.map_or_else(badarg, Ok);
        }
        let mut elems = Vec::with_capacity(found.len());
        for s in found {
            let e = *s
                .term()
                .as_tuple()
                .expect("stored objects are tuples")
                .get(pos - 1)
                .ok_or_else(Exception::badarg)?;
            elems.push(e);
        }
        if t.kind.is_set() {
            return Ok(p.heap.copy_term(elems[0]));
        }
        let copies: Vec<Term> = elems.iter().map(|&e| p.heap.copy_term(e)).collect();
        Ok(p.heap.list(&copies))
    })
}

pub(super) fn member(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |_, _, d| {
        Ok(Term::bool(d.contains(a[1])))
    })
}

pub(super) fn take(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |p, _, d| {
        let group = d.remove_key(a[1]);
        let copies: Vec<Term> = group.iter().map(|s| p.heap.copy_term(s.term())).collect();
        Ok(p.heap.list(&copies))
    })
}

// ---- traversal ----

fn key_result(p: &mut Process, k: Option<Term>) -> Term {
    match k {
        Some(k) => p.heap.copy_term(k),
        None => end_of_table(),
    }
}

pub(super) fn first(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        let k = d.first();
        Ok(key_result(p, k))
    })
}

pub(super) fn last(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        // Only ordered sets have a last; for the others it is the first.
        let k = if t.kind == Kind::OrderedSet {
            d.last()
        } else {
            d.first()
        };
        Ok(key_result(p, k))
    })
}

pub(super) fn next(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        if t.kind != Kind::OrderedSet && d.fixed == 0 && !d.contains(a[1]) {
            return badarg();
        }
        let k = d.next(a[1]);
        Ok(key_result(p, k))
    })
}

pub(super) fn prev(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        if t.kind != Kind::OrderedSet {
            if d.fixed == 0 && !d.contains(a[1]) {
                return badarg();
            }
            let k = d.next(a[1]);
            return Ok(key_result(p, k));
        }
        let k = d.prev(a[1]);
        Ok(key_result(p, k))
    })
}

// ---- updates in place ----

/// `{Pos, Incr}`, `{Pos, Incr, Threshold, SetValue}` or a bare increment.
struct CounterOp {
    pos: usize,
    incr: Term,
    threshold: Option<(Term, Term)>,
}

fn counter_op(op: Term, keypos: usize) -> Result<CounterOp, Exception> {
    if op.is_integer() {
        return Ok(CounterOp {
            pos: keypos + 1,
            incr: op,
            threshold: None,
        });
    }
    let t = op.as_tuple().ok_or_else(Exception::badarg)?;
    let (pos, incr, threshold) = match *t {
        [pos, incr] => (pos, incr, None),
        [pos, incr, th, set] => {
            if !th.is_integer() || !set.is_integer() {
                return badarg();
            }
            (pos, incr, Some((th, set)))
        }
        _ => return badarg(),
    };
    let pos = position(pos)?;
    if pos == keypos || !incr.is_integer() {
        return badarg();
    }
    Ok(CounterOp {
        pos,
        incr,
        threshold,
    })
}

fn update_counter_with(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
    default: Option<Term>,
) -> Result<Term, Exception> {
    let plus = KNOWN.plus;
    with_table(rt, p, a[0], Access::Write, |p, t, d| {
        if !t.kind.is_set() {
            return badarg();
        }
        let (ops, many) = if a[2].is_list() {
            let v = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
            let ops = v
                .iter()
                .map(|&o| counter_op(o, t.keypos))
                .collect::<Result<Vec<_>, _>>()?;
            (ops, true)
        } else {
            (vec![counter_op(a[2], t.keypos)?], false)
        };
        let current = match d.lookup(a[1]).first() {
            Some(s) => s.term(),
            None => {
                let Some(def) = default else { return badarg() };
                let elems = def.as_tuple().ok_or_else(Exception::badarg)?;
                if elems.len() < t.keypos {
                    return badarg();
                }
                let mut v = elems.to_vec();
                v[t.keypos - 1] = a[1];
                p.heap.tuple(&v)
            }
        };
        let mut elems = current.as_tuple().expect("tuple").to_vec();
        let mut results = Vec::with_capacity(ops.len());
        for op in &ops {
            let Some(&old) = elems.get(op.pos - 1) else {
                return badarg();
            };
            if !old.is_integer() {
                return badarg();
            }
            let mut new = plus(rt, p, &[old, op.incr])?;
            if let Some((th, set)) = op.threshold {
                let negative = order::compare(op.incr, Term::small_unchecked(0)).is_lt();
                let crossed = if negative {
                    order::compare(new, th).is_lt()
                } else {
                    order::compare(new, th).is_gt()
                };
                if crossed {
                    new = set;
                }
            }
            elems[op.pos - 1] = new;
            results.push(new);
        }
        let object = p.heap.tuple(&elems);
        d.replace(object);
        let results: Vec<Term> = results.iter().map(|&r| p.heap.copy_term(r)).collect();
        Ok(if many {
            p.heap.list(&results)
        } else {
            results[0]
        })
    })
}

fn update_counter3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    update_counter_with(rt, p, a, None)
}

fn update_counter4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    update_counter_with(rt, p, a, Some(a[3]))
}

fn update_element(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |p, t, d| {
        if !t.kind.is_set() {
            return badarg();
        }
        let specs = if a[2].is_tuple() {
            vec![a[2]]
        } else {
            a[2].list_to_vec().ok_or_else(Exception::badarg)?
        };
        let mut changes = Vec::with_capacity(specs.len());
        for s in specs {
            match s.as_tuple() {
                Some(&[pos, value]) => {
                    let pos = position(pos)?;
                    if pos == t.keypos {
                        return badarg();
                    }
                    changes.push((pos, value));
                }
                _ => return badarg(),
            }
        }
        let Some(current) = d.lookup(a[1]).first().map(|s| s.term()) else {
            return Ok(Term::FALSE);
        };
        let mut elems = current.as_tuple().expect("tuple").to_vec();
        for (pos, value) in changes {
            let slot = elems.get_mut(pos - 1).ok_or_else(Exception::badarg)?;
            *slot = value;
        }
        let object = p.heap.tuple(&elems);
        d.replace(object);
        Ok(Term::TRUE)
    })
}
