//! `ets`: the table BIFs (in OTP these are BIFs too; `ets:foldl/3`,
//! `foldr/3` and friends stay Erlang and call these).
//!
//! Every BIF resolves its table identifier (a name or a reference) in the
//! calling process's runtime, locks the table, checks access rights against
//! the owner, and raises `badarg` where OTP does: no such table, no access,
//! an object that is not a tuple or is shorter than the key position.

use std::sync::{Arc, LazyLock};

use beamr_core::atom::Atom;
use beamr_core::order;
use beamr_core::term::Term;

use crate::ets::table::TableData;
use crate::ets::{Kind, Protection, Stored, Table, Tables};
use crate::loader::BifRow;
use crate::matchspec::MatchSpec;
use crate::process::{Exception, Payload, Process, Signal};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("ets", "new", 2, new),
    ("ets", "insert", 2, insert),
    ("ets", "insert_new", 2, insert_new),
    ("ets", "lookup", 2, lookup),
    ("ets", "lookup_element", 3, lookup_element),
    ("ets", "member", 2, member),
    ("ets", "take", 2, take),
    ("ets", "delete", 1, delete1),
    ("ets", "delete", 2, delete2),
    ("ets", "delete_object", 2, delete_object),
    ("ets", "delete_all_objects", 1, delete_all_objects),
    ("ets", "internal_delete_all", 2, internal_delete_all),
    ("ets", "first", 1, first),
    ("ets", "last", 1, last),
    ("ets", "next", 2, next),
    ("ets", "prev", 2, prev),
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
    ("ets", "info", 1, info1),
    ("ets", "info", 2, info2),
    ("ets", "update_counter", 3, update_counter3),
    ("ets", "update_counter", 4, update_counter4),
    ("ets", "update_element", 3, update_element),
    ("ets", "rename", 2, rename),
    ("ets", "whereis", 1, whereis),
    ("ets", "all", 0, all),
    ("ets", "give_away", 3, give_away),
    ("ets", "setopts", 2, setopts),
    ("ets", "safe_fixtable", 2, safe_fixtable),
    ("ets", "match_spec_compile", 1, match_spec_compile),
    ("ets", "is_compiled_ms", 1, is_compiled_ms),
    ("ets", "match_spec_run_r", 3, match_spec_run_r),
];

fn tables(rt: &Runtime) -> &Tables {
    &rt.ets
}

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

fn badarg<T>() -> Result<T, Exception> {
    Err(Exception::badarg())
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// Runs `f` on the locked table `tab` after checking `p`'s access.
fn with_table<R>(
    rt: &Runtime,
    p: &mut Process,
    tab: Term,
    access: Access,
    f: impl FnOnce(&mut Process, &Table, &mut TableData) -> Result<R, Exception>,
) -> Result<R, Exception> {
    let table = tables(rt).resolve(tab).ok_or_else(Exception::badarg)?;
    let mut data = table.lock();
    if data.deleted {
        return badarg();
    }
    let allowed = match (table.protection, access) {
        (Protection::Public, _) | (Protection::Protected, Access::Read) => true,
        _ => data.owner == p.pid,
    };
    if !allowed {
        return badarg();
    }
    f(p, &table, &mut data)
}

/// Atoms and BIFs the hot paths use, looked up once.
struct Known {
    end_of_table: Term,
    plus: crate::loader::BifFn,
}

static KNOWN: LazyLock<Known> = LazyLock::new(|| Known {
    end_of_table: atom("$end_of_table"),
    plus: crate::code::resolve::arith(crate::loader::ArithOp::Add),
});

fn end_of_table() -> Term {
    KNOWN.end_of_table
}

// ---- creation and deletion ----

fn new(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let opts = a[1].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut kind = Kind::Set;
    let mut protection = Protection::Protected;
    let mut named = false;
    let mut keypos = 1usize;
    let mut heir = None;
    let (mut rc, mut wc) = (false, false);
    for o in opts {
        if let Some(at) = o.as_atom() {
            match at.name() {
                "set" => kind = Kind::Set,
                "ordered_set" => kind = Kind::OrderedSet,
                "bag" => kind = Kind::Bag,
                "duplicate_bag" => kind = Kind::DuplicateBag,
                "public" => protection = Protection::Public,
                "protected" => protection = Protection::Protected,
                "private" => protection = Protection::Private,
                "named_table" => named = true,
                "compressed" => {}
                _ => return badarg(),
            }
            continue;
        }
        let t = o.as_tuple().ok_or_else(Exception::badarg)?;
        let tag = t.first().and_then(|x| x.as_atom()).map(|x| x.name());
        match (tag, t.len()) {
            (Some("keypos"), 2) => match t[1].as_small() {
                Some(n) if n >= 1 => keypos = n as usize,
                _ => return badarg(),
            },
            (Some("heir"), 2) if t[1] == atom("none") => heir = None,
            (Some("heir"), 3) if t[1].is_local_pid() => heir = Some((t[1], Stored::new(t[2]))),
            (Some("read_concurrency"), 2) => rc = bool_opt(t[1])?,
            (Some("write_concurrency"), 2) => {
                wc = t[1] == atom("auto") || bool_opt(t[1])?;
            }
            (Some("decentralized_counters"), 2) => {
                bool_opt(t[1])?;
            }
            _ => return badarg(),
        }
    }
    let tables = tables(rt);
    let id = tables.new_id();
    let table = Arc::new(Table::new(
        id,
        name,
        kind,
        keypos,
        named,
        protection,
        p.pid,
        heir,
        (rc, wc),
    ));
    if !tables.insert(table.clone(), name) {
        return badarg();
    }
    Ok(Tables::tid(&mut p.heap, &table, name))
}

fn bool_opt(t: Term) -> Result<bool, Exception> {
    match t {
        Term::TRUE => Ok(true),
        Term::FALSE => Ok(false),
        _ => badarg(),
    }
}

fn delete1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let table = tables(rt).resolve(a[0]).ok_or_else(Exception::badarg)?;
    let name = {
        let mut data = table.lock();
        if data.deleted || (table.protection != Protection::Public && data.owner != p.pid) {
            return badarg();
        }
        data.deleted = true;
        data.clear();
        data.name
    };
    tables(rt).remove(&table, name);
    Ok(Term::TRUE)
}

fn delete2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        d.remove_key(a[1]);
        Ok(Term::TRUE)
    })
}

fn delete_object(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        if d.key_of(a[1]).is_none() {
            return badarg();
        }
        d.remove_object(a[1]);
        Ok(Term::TRUE)
    })
}

fn delete_all_objects(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        d.clear();
        Ok(Term::TRUE)
    })
}

fn internal_delete_all(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Write, |_, _, d| {
        let n = d.size();
        d.clear();
        Ok(Term::small_unchecked(n as i64))
    })
}

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

fn insert(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

fn lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

fn position(t: Term) -> Result<usize, Exception> {
    match t.as_small() {
        Some(n) if n >= 1 => Ok(n as usize),
        _ => badarg(),
    }
}

fn lookup_element(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let pos = position(a[2])?;
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        let found = d.lookup(a[1]);
        if found.is_empty() {
            return badarg();
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

fn member(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |_, _, d| {
        Ok(Term::bool(d.contains(a[1])))
    })
}

fn take(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

fn first(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        let k = d.first();
        Ok(key_result(p, k))
    })
}

fn last(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

fn next(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_table(rt, p, a[0], Access::Read, |p, t, d| {
        if t.kind != Kind::OrderedSet && d.fixed == 0 && !d.contains(a[1]) {
            return badarg();
        }
        let k = d.next(a[1]);
        Ok(key_result(p, k))
    })
}

fn prev(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

// ---- matching ----

fn compile(spec: Term) -> Result<MatchSpec, Exception> {
    MatchSpec::compile(spec).map_err(|_| Exception::badarg())
}

fn pattern(pattern: Term, whole: bool) -> Result<MatchSpec, Exception> {
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
fn chunk(p: &mut Process, results: &[Term], limit: usize) -> Term {
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

fn limit(t: Term) -> Result<usize, Exception> {
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

fn match2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ms = pattern(a[1], false)?;
    select_list(rt, p, a[0], &ms, false)
}

fn match3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

// ---- information ----

fn info_item(p: &mut Process, t: &Table, d: &TableData, item: Atom) -> Option<Term> {
    Some(match item.name() {
        "id" => p.heap.local_ref(t.id),
        "decentralized_counters" | "compressed" => Term::FALSE,
        "read_concurrency" => Term::bool(t.read_concurrency),
        "write_concurrency" => Term::bool(t.write_concurrency),
        "memory" => Term::small_unchecked((d.words() + 300) as i64),
        "owner" => d.owner,
        "heir" => d.heir.as_ref().map_or(atom("none"), |(h, _)| *h),
        "name" => Term::atom(d.name),
        "size" => Term::small_unchecked(d.size() as i64),
        "node" => Term::atom(Atom::NONODE_NOHOST),
        "named_table" => Term::bool(t.named),
        "type" => atom(t.kind.name()),
        "keypos" => Term::small_unchecked(t.keypos as i64),
        "protection" => atom(t.protection.name()),
        "fixed" | "safe_fixed" | "safe_fixed_monotonic_time" => Term::FALSE,
        "stats" => return None,
        _ => return None,
    })
}

const INFO_ITEMS: &[&str] = &[
    "id",
    "decentralized_counters",
    "read_concurrency",
    "write_concurrency",
    "compressed",
    "memory",
    "owner",
    "heir",
    "name",
    "size",
    "node",
    "named_table",
    "type",
    "keypos",
    "protection",
];

fn info1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_atom() && !a[0].is_reference() {
        return badarg();
    }
    let Some(table) = tables(rt).resolve(a[0]) else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let data = table.lock();
    if data.deleted {
        return Ok(Term::atom(Atom::UNDEFINED));
    }
    let mut items = Vec::with_capacity(INFO_ITEMS.len());
    for name in INFO_ITEMS {
        let key = Atom::new(name).expect("atom");
        let v = info_item(p, &table, &data, key).expect("known item");
        items.push(p.heap.tuple(&[Term::atom(key), v]));
    }
    Ok(p.heap.list(&items))
}

fn info2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_atom() && !a[0].is_reference() {
        return badarg();
    }
    let item = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let Some(table) = tables(rt).resolve(a[0]) else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let data = table.lock();
    if data.deleted {
        return Ok(Term::atom(Atom::UNDEFINED));
    }
    info_item(p, &table, &data, item).ok_or_else(Exception::badarg)
}

fn whereis(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    match tables(rt).resolve(Term::atom(name)) {
        Some(t) if !t.lock().deleted => Ok(p.heap.local_ref(t.id)),
        _ => Ok(Term::atom(Atom::UNDEFINED)),
    }
}

fn all(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let list = tables(rt).all();
    let mut ids = Vec::with_capacity(list.len());
    for t in list {
        let name = {
            let d = t.lock();
            if d.deleted {
                continue;
            }
            d.name
        };
        ids.push(Tables::tid(&mut p.heap, &t, name));
    }
    Ok(p.heap.list(&ids))
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

// ---- ownership and naming ----

fn rename(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let new_name = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let tables = tables(rt);
    let table = tables.resolve(a[0]).ok_or_else(Exception::badarg)?;
    let mut data = table.lock();
    if data.deleted || (table.protection != Protection::Public && data.owner != p.pid) {
        return badarg();
    }
    if !tables.rename(&table, data.name, new_name) {
        return badarg();
    }
    if !table.named {
        // Renaming an unnamed table changes nothing; its identifier is returned.
        return Ok(p.heap.local_ref(table.id));
    }
    data.name = new_name;
    Ok(a[1])
}

fn transfer(rt: &Runtime, to: Term, tab: Term, from: Term, gift: Term) {
    let mut heap = beamr_core::heap::Heap::new();
    let tab = heap.copy_term(tab);
    let gift = heap.copy_term(gift);
    let msg = heap.tuple(&[atom("ETS-TRANSFER"), tab, from, gift]);
    rt.send_signal(
        to,
        Signal::Message(Payload {
            term: msg,
            heap: Some(heap),
        }),
    );
}

fn give_away(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let to = a[1];
    if !to.is_local_pid() || to == p.pid {
        return badarg();
    }
    if rt.processes.get(to).is_none() {
        return badarg();
    }
    let tab = with_table(rt, p, a[0], Access::Read, |p, t, d| {
        if d.owner != p.pid {
            return badarg();
        }
        d.owner = to;
        Ok(Tables::tid(&mut p.heap, t, d.name))
    })?;
    transfer(rt, to, tab, p.pid, a[2]);
    Ok(Term::TRUE)
}

fn setopts(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let opts = if a[1].is_tuple() {
        vec![a[1]]
    } else {
        a[1].list_to_vec().ok_or_else(Exception::badarg)?
    };
    with_table(rt, p, a[0], Access::Read, |p, _, d| {
        if d.owner != p.pid {
            return badarg();
        }
        for o in opts {
            match o.as_tuple() {
                Some(&[tag, none]) if tag == atom("heir") && none == atom("none") => d.heir = None,
                Some(&[tag, pid, data]) if tag == atom("heir") && pid.is_local_pid() => {
                    d.heir = Some((pid, Stored::new(data)));
                }
                Some(&[tag, _]) if tag == atom("protection") => {}
                _ => return badarg(),
            }
        }
        Ok(Term::TRUE)
    })
}

fn safe_fixtable(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let on = bool_opt(a[1])?;
    with_table(rt, p, a[0], Access::Read, |_, _, d| {
        if on {
            d.fixed += 1;
        } else {
            d.fixed = d.fixed.saturating_sub(1);
        }
        Ok(Term::TRUE)
    })
}
