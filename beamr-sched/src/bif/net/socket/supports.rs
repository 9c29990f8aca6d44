//! `nif_supports/0,1`: what the platform has, in the lists
//! `prim_socket:init/0` turns into its persistent tables (protocols by
//! name and number, option numbers, message flags).

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::{options, small};
use crate::bif::common::atoms::atom;

/// `nif_supports()`: `[{sctp, false}, {ipv6, true}, {local, true},
/// {netns, false}, {sendfile, false}]`, what erts reports on Linux less
/// what beamr does not do (SCTP, network namespaces, sendfile).
pub(super) fn all(h: &mut Heap) -> Term {
    let items: Vec<Term> = [
        ("sctp", false),
        ("ipv6", true),
        ("local", true),
        ("netns", false),
        ("sendfile", false),
    ]
    .iter()
    .map(|&(k, v)| h.tuple(&[atom(k), if v { Term::TRUE } else { Term::FALSE }]))
    .collect();
    h.list(&items)
}

/// `nif_supports(Key)`; `[]` for a key erts does not know.
pub(super) fn key(h: &mut Heap, key: Term) -> Term {
    match key.as_atom().map(|a| a.name()) {
        Some("protocols") => protocols(h),
        Some("options") => options::supports(h),
        Some("msg_flags") => msg_flags(h),
        _ => Term::NIL,
    }
}

/// The message flags, by erts's names.
const MSG_FLAGS: &[(&str, i32)] = &[
    ("cmsg_cloexec", libc::MSG_CMSG_CLOEXEC),
    ("confirm", libc::MSG_CONFIRM),
    ("ctrunc", libc::MSG_CTRUNC),
    ("dontroute", libc::MSG_DONTROUTE),
    ("eor", libc::MSG_EOR),
    ("errqueue", libc::MSG_ERRQUEUE),
    ("more", libc::MSG_MORE),
    ("nosignal", libc::MSG_NOSIGNAL),
    ("oob", libc::MSG_OOB),
    ("peek", libc::MSG_PEEK),
    ("trunc", libc::MSG_TRUNC),
];

fn msg_flags(h: &mut Heap) -> Term {
    let items: Vec<Term> = MSG_FLAGS
        .iter()
        .map(|&(name, n)| h.tuple(&[atom(name), small(i64::from(n))]))
        .collect();
    h.list(&items)
}

/// `[{[Name | Aliases], Number}]`: `ip`, `ipv6`, `tcp` and `udp` first
/// (erts's defaults, which the entries after them override), then
/// `/etc/protocols` as `getprotoent(3)` reads it, last entry first.
fn protocols(h: &mut Heap) -> Term {
    let mut entries: Vec<(Vec<String>, i64)> = vec![
        (vec!["ip".into()], i64::from(libc::IPPROTO_IP)),
        (vec!["ipv6".into()], i64::from(libc::IPPROTO_IPV6)),
        (vec!["tcp".into()], i64::from(libc::IPPROTO_TCP)),
        (vec!["udp".into()], i64::from(libc::IPPROTO_UDP)),
    ];
    let file = std::fs::read_to_string("/etc/protocols").unwrap_or_default();
    let mut read = Vec::new();
    for line in file.lines() {
        let line = line.split('#').next().unwrap_or("");
        let mut fields = line.split_whitespace();
        let (Some(name), Some(number)) = (fields.next(), fields.next()) else {
            continue;
        };
        // Protocol numbers are small (getprotoent's `int`); a line with
        // anything else is skipped.
        let Ok(number) = number.parse::<i32>().map(i64::from) else {
            continue;
        };
        // erts lists the aliases last first, after the name.
        let mut names = vec![name.to_string()];
        let mut aliases: Vec<String> = fields.map(str::to_string).collect();
        aliases.reverse();
        names.extend(aliases);
        read.push((names, number));
    }
    read.reverse();
    entries.extend(read);
    // A name the atom table refuses (over 255 characters) drops its entry.
    let items: Vec<Term> = entries
        .iter()
        .filter_map(|(names, number)| {
            let names: Vec<Term> = names
                .iter()
                .map(|n| Atom::new_within_limit(n).map(Term::atom))
                .collect::<Result<_, _>>()
                .ok()?;
            let names = h.list(&names);
            Some(h.tuple(&[names, small(*number)]))
        })
        .collect();
    h.list(&items)
}
