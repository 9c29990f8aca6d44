//! `ets` BIFs on whole tables: `new`, `delete/1`, `info`, `all`, `whereis`,
//! ownership (`give_away`, heirs, `setopts`) and naming (`rename`).

use super::access::{badarg, with_table, Access};
use crate::bif::common::atoms::atom;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::ets::table::TableData;
use crate::ets::{Kind, Protection, Stored, Table, Tables};
use crate::loader::BifRow;
use crate::process::{Exception, Payload, Process, Signal};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("ets", "new", 2, new),
    ("ets", "delete", 1, delete1),
    ("ets", "delete", 2, delete2),
    ("ets", "delete_object", 2, delete_object),
    ("ets", "delete_all_objects", 1, delete_all_objects),
    ("ets", "internal_delete_all", 2, internal_delete_all),
    ("ets", "info", 1, info1),
    ("ets", "info", 2, info2),
    ("ets", "rename", 2, rename),
    ("ets", "whereis", 1, whereis),
    ("ets", "all", 0, all),
    ("ets", "give_away", 3, give_away),
    ("ets", "setopts", 2, setopts),
    ("ets", "safe_fixtable", 2, safe_fixtable),
];

// ---- creation and deletion ----

pub(super) fn new(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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
    let tables = &rt.ets;
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
    let table = rt.ets.resolve(a[0]).ok_or_else(Exception::badarg)?;
    let name = {
        let mut data = table.lock();
        if data.deleted || (table.protection != Protection::Public && data.owner != p.pid) {
            return badarg();
        }
        data.deleted = true;
        data.clear();
        data.name
    };
    rt.ets.remove(&table, name);
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

// ---- information ----

fn info_item(p: &mut Process, t: &Table, d: &TableData, item: Atom) -> Option<Term> {
    Some(match item.name() {
        "id" => p.heap.local_ref(t.id),
        "decentralized_counters" | "compressed" => Term::FALSE,
        "read_concurrency" => Term::bool(t.read_concurrency),
        "write_concurrency" => Term::bool(t.write_concurrency),
        "memory" => Term::small_unchecked(d.memory_words() as i64),
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
    let Some(table) = rt.ets.resolve(a[0]) else {
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
    let Some(table) = rt.ets.resolve(a[0]) else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let data = table.lock();
    if data.deleted {
        return Ok(Term::atom(Atom::UNDEFINED));
    }
    info_item(p, &table, &data, item).ok_or_else(Exception::badarg)
}

pub(super) fn whereis(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    match rt.ets.resolve(Term::atom(name)) {
        Some(t) if !t.lock().deleted => Ok(p.heap.local_ref(t.id)),
        _ => Ok(Term::atom(Atom::UNDEFINED)),
    }
}

pub(super) fn all(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let list = rt.ets.all();
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

// ---- ownership and naming ----

fn rename(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let new_name = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let tables = &rt.ets;
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
        Signal::Message(
            Payload {
                term: msg,
                heap: Some(heap),
            },
            None,
        ),
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
