//! Other pure `erlang` BIFs: tuple building (`make_tuple/3`,
//! `append_element/2`, `insert_element/3`, `delete_element/2`), type tests
//! with arguments (`is_function/2`, `is_record/2,3`), `fun_info/2`,
//! `error/3`, `phash2/1,2` (the hash itself is in
//! [`super::phash2`]), `function_exported/3` and `module_loaded/1`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::phash2;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "make_tuple", 3, make_tuple3),
    ("erlang", "append_element", 2, append_element),
    ("erlang", "insert_element", 3, insert_element),
    ("erlang", "delete_element", 2, delete_element),
    ("erlang", "is_function", 2, is_function2),
    ("erlang", "is_record", 2, is_record2),
    ("erlang", "is_record", 3, is_record3),
    ("erlang", "make_fun", 3, make_fun),
    ("erlang", "hibernate", 0, hibernate0),
    ("erlang", "fun_info", 2, fun_info),
    ("erlang", "fun_to_list", 1, fun_to_list),
    ("erlang", "display", 1, display),
    ("erlang", "error", 3, error3),
    ("erlang", "phash2", 1, phash2_1),
    ("erlang", "phash2", 2, phash2_2),
    ("erlang", "function_exported", 3, function_exported),
    ("erlang", "module_loaded", 1, module_loaded),
];

/// `function_exported(M, F, A)`: `M` is loaded (it is not loaded here) and
/// exports `F/A`, or `M:F/A` is a BIF. Any small integer is an arity, as
/// erts takes it: cut to a C `int` (so 2^32 + 1 is 1), and false where no
/// function has it (negative, or above 255).
fn function_exported(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(m), Some(f), Some(arity)) = (a[0].as_atom(), a[1].as_atom(), a[2].as_small()) else {
        return Err(Exception::badarg());
    };
    let Ok(arity) = u8::try_from(arity as i32) else {
        return Ok(Term::bool(false));
    };
    let loaded = crate::code::CodeServer::global()
        .current(m)
        .is_some_and(|module| module.export_index(f, u32::from(arity)).is_some());
    Ok(Term::bool(
        loaded || crate::code::resolve::natives().get(m, f, arity).is_some(),
    ))
}

/// `module_loaded(M)`: `M` has current code (it is not loaded here).
fn module_loaded(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = a[0].as_atom().ok_or_else(Exception::badarg)?;
    Ok(Term::bool(
        crate::code::CodeServer::global().current(m).is_some(),
    ))
}

/// The largest tuple (the BEAM's `MAX_ARITY`).
const MAX_ARITY: usize = (1 << 24) - 1;

/// A 1-based position in `1..=limit`, as a 0-based index.
fn position(t: Term, limit: usize) -> Result<usize, Exception> {
    t.as_small()
        .and_then(|i| usize::try_from(i).ok())
        .filter(|&i| i >= 1 && i <= limit)
        .map(|i| i - 1)
        .ok_or_else(Exception::badarg)
}

/// `make_tuple(N, Default, [{Pos, Value}])`: later entries win.
fn make_tuple3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = a[0]
        .as_small()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    if n > MAX_ARITY {
        return Err(Exception::badarg());
    }
    let mut elements = vec![a[1]; n];
    let mut l = a[2];
    while let Some((h, t)) = l.as_cons() {
        let Some(&[pos, v]) = h.as_tuple() else {
            return Err(Exception::badarg());
        };
        elements[position(pos, n)?] = v;
        l = t;
    }
    if !l.is_nil() {
        return Err(Exception::badarg());
    }
    Ok(p.heap.tuple(&elements))
}

fn append_element(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let t = a[0].as_tuple().ok_or_else(Exception::badarg)?;
    if t.len() >= MAX_ARITY {
        return Err(Exception::badarg());
    }
    let mut elements = Vec::with_capacity(t.len() + 1);
    elements.extend_from_slice(t);
    elements.push(a[1]);
    Ok(p.heap.tuple(&elements))
}

fn insert_element(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let t = a[1].as_tuple().ok_or_else(Exception::badarg)?;
    let i = position(a[0], t.len() + 1)?;
    if t.len() >= MAX_ARITY {
        return Err(Exception::badarg());
    }
    let mut elements = Vec::with_capacity(t.len() + 1);
    elements.extend_from_slice(&t[..i]);
    elements.push(a[2]);
    elements.extend_from_slice(&t[i..]);
    Ok(p.heap.tuple(&elements))
}

fn delete_element(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let t = a[1].as_tuple().ok_or_else(Exception::badarg)?;
    let i = position(a[0], t.len())?;
    let mut elements = Vec::with_capacity(t.len() - 1);
    elements.extend_from_slice(&t[..i]);
    elements.extend_from_slice(&t[i + 1..]);
    Ok(p.heap.tuple(&elements))
}

/// The arity a fun is called with.
pub(super) fn fun_arity(f: Term) -> Option<u32> {
    if let Some(c) = f.as_closure() {
        return Some(c.entry.arity);
    }
    f.as_export().map(|e| e.arity)
}

fn is_function2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arity = match a[1].as_small() {
        Some(n) if n >= 0 => n as u64,
        None if a[1]
            .as_big()
            .is_some_and(|b| b.to_bigint().sign() != num_bigint::Sign::Minus) =>
        {
            u64::MAX
        }
        _ => return Err(Exception::badarg()),
    };
    Ok(Term::bool(
        fun_arity(a[0]).is_some_and(|n| n as u64 == arity),
    ))
}

fn is_record2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[1].is_atom() {
        return Err(Exception::badarg());
    }
    Ok(Term::bool(a[0].as_tuple().is_some_and(|t| {
        t.first().is_some_and(|&tag| tag == a[1])
    })))
}

/// `make_fun(Module, Function, Arity)`: the external fun
/// `fun Module:Function/Arity` (OTP 23; gen_server uses it since OTP 26).
fn make_fun(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(m), Some(f), Some(arity)) = (a[0].as_atom(), a[1].as_atom(), a[2].as_small()) else {
        return Err(Exception::badarg());
    };
    let arity = u8::try_from(arity).map_err(|_| Exception::badarg())?;
    let export = beamr_core::term::Export::intern(m, f, arity.into());
    Ok(p.heap.export(export))
}

/// `erlang:hibernate/0` (OTP 28): `ok`. The BEAM returns once a message
/// is in the queue, having shrunk the process; beamr keeps no hibernated
/// state and returns at once, and every caller (gen_server's loop, OTP 28
/// on) goes on to wait in a `receive`, which is where the wait happens.
fn hibernate0(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::OK)
}

fn is_record3(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = a[2].as_small().ok_or_else(Exception::badarg)?;
    if !a[1].is_atom() {
        return Err(Exception::badarg());
    }
    Ok(Term::bool(a[0].as_tuple().is_some_and(|t| {
        t.len() as i64 == size && t.first().is_some_and(|&tag| tag == a[1])
    })))
}

/// `erlang:fun_info(Fun, Item)`.
/// `display(Term)`: writes the term to standard output directly, as the
/// runtime's C printer does (see [`beamr_core::format::display_erts`]),
/// with erts' `\r\n` line end; `true`.
fn display(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::io::Write;
    let mut line = beamr_core::format::display_erts(a[0]);
    line.extend_from_slice(b"\r\n");
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&line).and_then(|()| out.flush());
    Ok(Term::TRUE)
}

/// `fun_to_list(Fun)`: the fun as `~w` writes it (`#Fun<M.I.U>`, `fun M:F/A`).
fn fun_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_fun() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

fn fun_info(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let item = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let undefined = Term::atom(Atom::UNDEFINED);
    let value = if let Some(c) = a[0].as_closure() {
        match item.name() {
            "arity" => Term::small_unchecked(c.entry.arity as i64),
            "module" => Term::atom(c.entry.module),
            "name" => Term::atom(c.entry.function),
            "env" => p.heap.list(c.free),
            "type" => Term::atom(Atom::new("local").map_err(|_| Exception::badarg())?),
            "pid" => c.creator,
            "index" => Term::small_unchecked(c.entry.old_index as i64),
            "uniq" => p.heap.int(c.entry.old_uniq as i64),
            "new_index" => Term::small_unchecked(c.entry.index as i64),
            "new_uniq" => p.heap.binary(&c.entry.uniq),
            _ => return Err(Exception::badarg()),
        }
    } else if let Some(e) = a[0].as_export() {
        match item.name() {
            "arity" => Term::small_unchecked(e.arity as i64),
            "module" => Term::atom(e.module),
            "name" => Term::atom(e.function),
            "env" => Term::NIL,
            "type" => Term::atom(Atom::new("external").map_err(|_| Exception::badarg())?),
            "pid" | "index" | "uniq" | "new_index" | "new_uniq" => undefined,
            _ => return Err(Exception::badarg()),
        }
    } else {
        return Err(Exception::badarg());
    };
    Ok(p.heap.tuple(&[a[1], value]))
}

/// `erlang:error(Reason, Args, Options)`: as `error/2`; `Options` must be a
/// list (its `error_info` only decorates the stack trace).
/// `error(Reason, Args, Options)`: as `error/2`; an `{error_info, Map}`
/// option ends the raising frame's location. As in the BEAM, options that
/// are not a proper list of such tuples are ignored (and the last one wins).
fn error3(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut e = Exception::error(a[0]);
    e.args = a[1];
    let mut error_info = Term::NON_VALUE;
    let mut l = a[2];
    while let Some((h, t)) = l.as_cons() {
        match h.as_tuple() {
            Some(&[key, map])
                if key.as_atom().is_some_and(|k| k.name() == "error_info") && map.is_map() =>
            {
                error_info = map;
            }
            _ => return Err(e),
        }
        l = t;
    }
    if l.is_nil() {
        e.error_info = error_info;
    }
    Err(e)
}

fn phash2_1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::small_unchecked(
        (phash2::phash2(a[0]) & ((1 << 27) - 1)) as i64,
    ))
}

fn phash2_2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let range = hash_range(a[1])?;
    let h = phash2::phash2(a[0]) as u64;
    let v = match range {
        Some(r) if r & (r - 1) == 0 => h & (r - 1),
        Some(r) => h % r,
        None => h,
    };
    Ok(p.heap.int(v as i64))
}

/// A hash range: an integer in 1..=2^32; `None` means 2^32 (no reduction).
fn hash_range(t: Term) -> Result<Option<u64>, Exception> {
    let r = if let Some(v) = t.as_small() {
        v
    } else {
        return Err(Exception::badarg());
    };
    if !(1..=1 << 32).contains(&r) {
        return Err(Exception::badarg());
    }
    Ok(if r == 1 << 32 { None } else { Some(r as u64) })
}
