//! `{capture, Values, Type}`: which groups a match reports and as what.
//!
//! As the BEAM: `all` and `all_but_first` report the groups up to the
//! highest one set; a group named in a list that is past it, or not in
//! the pattern, is reported unset (`{-1, 0}`, `<<>>` or `[]`); a name that
//! several groups share (`dupnames`) reports the first of them that is set.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::engine::Compiled;
use crate::bif::erlang::binaries::{iodata_bytes, sub_bytes};
use crate::process::Process;

/// One entry of a capture list.
#[derive(Clone, Debug)]
pub(super) enum Selector {
    /// A group number (negative or too large: unset).
    Index(i64),
    /// The groups carrying one name, in group order (none: unset).
    Named(Vec<usize>),
}

/// The `Values` part.
#[derive(Clone, Debug)]
pub(super) enum Values {
    /// `all`.
    All,
    /// `all_but_first`.
    AllButFirst,
    /// `first`.
    First,
    /// `none`, `[]`, or `all_names` when there are no names: the result
    /// is the atom `match`.
    None,
    /// A list of numbers and names (also `all_names`).
    List(Vec<Selector>),
}

/// The `Type` part.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `{Start, Length}` byte offsets.
    Index,
    /// Character (or byte) lists.
    List,
    /// Binaries.
    Binary,
}

/// A capture specification.
#[derive(Clone, Debug)]
pub(super) struct Spec {
    /// What to report.
    pub values: Values,
    /// How to report it.
    pub kind: Kind,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            values: Values::All,
            kind: Kind::Index,
        }
    }
}

/// A group's `(start, end)`, or `None` when unset.
pub(super) type Group = Option<(usize, usize)>;

fn name_bytes(t: Term) -> Option<Vec<u8>> {
    if let Some(a) = t.as_atom() {
        Some(a.name().as_bytes().to_vec())
    } else if t.as_binary().is_some() || t.as_cons().is_some() || t.is_nil() {
        iodata_bytes(t).ok()
    } else {
        None
    }
}

/// Reads a capture specification; `None` is `badarg`.
pub(super) fn parse(values: Term, kind: Term, compiled: &Compiled) -> Option<Spec> {
    let kind = match kind.as_atom().map(Atom::name)? {
        "index" => Kind::Index,
        "list" => Kind::List,
        "binary" => Kind::Binary,
        _ => return None,
    };
    let values = if values.is_nil() {
        Values::None
    } else if let Some(a) = values.as_atom() {
        match a.name() {
            "all" => Values::All,
            "all_but_first" => Values::AllButFirst,
            "first" => Values::First,
            "none" => Values::None,
            "all_names" => {
                let mut names: Vec<&[u8]> = compiled.names.iter().map(|(n, _)| &n[..]).collect();
                names.dedup();
                if names.is_empty() {
                    Values::None
                } else {
                    Values::List(
                        names
                            .into_iter()
                            .map(|n| Selector::Named(compiled.groups_named(n)))
                            .collect(),
                    )
                }
            }
            _ => return None,
        }
    } else {
        let mut sels = Vec::new();
        let mut rest = values;
        while let Some((item, tail)) = rest.as_cons() {
            rest = tail;
            if let Some(n) = item.as_small() {
                // The BEAM reads the number as unsigned: negative is badarg.
                if !(0..=i32::MAX as i64).contains(&n) {
                    return None;
                }
                sels.push(Selector::Index(n));
            } else {
                let name = name_bytes(item)?;
                sels.push(Selector::Named(compiled.groups_named(&name)));
            }
        }
        if !rest.is_nil() {
            return None;
        }
        Values::List(sels)
    };
    Some(Spec { values, kind })
}

fn pick(groups: &[Group], sel: &Selector) -> Group {
    match sel {
        Selector::Index(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| groups.get(i).copied().flatten()),
        Selector::Named(ids) => ids.iter().find_map(|&i| groups.get(i).copied().flatten()),
    }
}

/// The groups a match reports, before `all_but_first` and named lists
/// drop the whole match: the list OTP's global loop compares and steps by
/// (the whole match first).
pub(super) fn loop_list(groups: &[Group], values: &Values) -> Vec<Group> {
    match values {
        Values::All | Values::AllButFirst => groups.to_vec(),
        Values::First | Values::None => vec![groups[0]],
        Values::List(sels) => std::iter::once(groups[0])
            .chain(sels.iter().map(|s| pick(groups, s)))
            .collect(),
    }
}

/// The groups a single (not `global`) match reports.
pub(super) fn selected(groups: &[Group], values: &Values) -> Vec<Group> {
    let mut all = loop_list(groups, values);
    if matches!(values, Values::AllButFirst | Values::List(_)) {
        all.remove(0);
    }
    all
}

/// The subject a match ran on, for building captured parts.
pub(super) struct Subject<'a> {
    /// Its bytes.
    pub bytes: &'a [u8],
    /// The original term when it was a binary (parts are sub-binaries).
    pub binary: Option<Term>,
    /// UTF-8: list parts are characters, not bytes.
    pub unicode: bool,
}

/// The term for one reported group.
pub(super) fn part(p: &mut Process, g: Group, kind: Kind, s: &Subject<'_>) -> Term {
    match kind {
        Kind::Index => {
            let (start, len) = match g {
                Some((a, b)) => (a as i64, (b - a) as i64),
                None => (-1, 0),
            };
            p.heap
                .tuple(&[Term::small_unchecked(start), Term::small_unchecked(len)])
        }
        Kind::Binary => match (g, s.binary) {
            (Some((a, b)), Some(bin)) => sub_bytes(p, bin, a, b - a),
            (Some((a, b)), None) => p.heap.binary(&s.bytes[a..b]),
            (None, _) => p.heap.binary(&[]),
        },
        Kind::List => {
            let bytes = g.map_or(&[][..], |(a, b)| &s.bytes[a..b]);
            if s.unicode {
                let chars: Vec<Term> = String::from_utf8_lossy(bytes)
                    .chars()
                    .map(|c| Term::small_unchecked(c as i64))
                    .collect();
                p.heap.list(&chars)
            } else {
                p.heap.byte_list(bytes, Term::NIL)
            }
        }
    }
}

/// The list of terms for one match's reported groups.
pub(super) fn parts(p: &mut Process, groups: &[Group], kind: Kind, s: &Subject<'_>) -> Term {
    let items: Vec<Term> = groups.iter().map(|&g| part(p, g, kind, s)).collect();
    p.heap.list(&items)
}
