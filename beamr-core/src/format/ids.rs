//! Pids, ports, references and funs as `pid_to_list/1`, `port_to_list/1`,
//! `ref_to_list/1` and `fun_to_list/1` write them.
//!
//! # Node numbers
//!
//! The first number of `<0.80.0>`, `#Port<0.5>` and `#Ref<0.1.2.3>` is the
//! node's "channel": 0 for the local node, and for another node, as in the
//! BEAM (`dist_entry_channel_no`), the index of its node-name atom in the
//! atom table. Terms of node `nonode@nohost` count as local.
//!
//! # Local pids
//!
//! A local pid holds a 60-bit number, split by
//! [`local_pid_parts`](crate::etf::local::local_pid_parts), the one place
//! that defines it: the low 32 bits are the pid's *id*, the 28 bits above
//! them its *serial*, written `<0.ID.SERIAL>`. So pid 80 is `<0.80.0>` and
//! pid `(1 << 32) | 5` is `<0.5.1>`, and a pid decoded from `term_to_binary`
//! output prints as `erl` printed it. Local ports print their whole
//! number: `#Port<0.N>`.
//!
//! # Funs
//!
//! A closure is `#Fun<Module.OldIndex.OldUniq>` (the fun entry's old index
//! and old uniq, as OTP 25 prints them); an export fun is `fun M:F/A`.

use std::fmt::{self, Write};

use super::chars::{write_atom, CharMode};
use super::number::write_u64;
use crate::atom::Atom;
use crate::etf::local::local_pid_parts;
use crate::term::{Kind, Term};

/// The node number printed for terms of `node`.
fn channel(node: Atom) -> u64 {
    if node == Atom::NONODE_NOHOST {
        0
    } else {
        u64::from(node.index())
    }
}

/// Writes a pid, local or external.
pub(crate) fn write_pid<W: Write + ?Sized>(out: &mut W, t: Term) -> fmt::Result {
    let (chan, number, serial) = if let Some(n) = t.as_local_pid() {
        let (id, serial) = local_pid_parts(n);
        (0, u64::from(id), u64::from(serial))
    } else if let Some(p) = t.as_external_pid() {
        (channel(p.node), u64::from(p.id), u64::from(p.serial))
    } else {
        return out.write_str("#Pid<?>");
    };
    out.write_char('<')?;
    write_u64(out, chan)?;
    out.write_char('.')?;
    write_u64(out, number)?;
    out.write_char('.')?;
    write_u64(out, serial)?;
    out.write_char('>')
}

/// Writes a port, local or external.
pub(crate) fn write_port<W: Write + ?Sized>(out: &mut W, t: Term) -> fmt::Result {
    let (chan, number) = if let Some(n) = t.as_local_port() {
        (0, n)
    } else if let Some(p) = t.as_external_port() {
        (channel(p.node), p.id)
    } else {
        return out.write_str("#Port<?>");
    };
    out.write_str("#Port<")?;
    write_u64(out, chan)?;
    out.write_char('.')?;
    write_u64(out, number)?;
    out.write_char('>')
}

/// Writes a reference: its node number, then its id words, most
/// significant first.
pub(crate) fn write_ref<W: Write + ?Sized>(out: &mut W, t: Term) -> fmt::Result {
    let Some(r) = t.as_ref() else {
        return out.write_str("#Ref<?>");
    };
    out.write_str("#Ref<")?;
    write_u64(out, channel(r.node))?;
    for &id in r.ids().iter().rev() {
        out.write_char('.')?;
        write_u64(out, u64::from(id))?;
    }
    out.write_char('>')
}

/// Writes a closure or an export fun.
pub(crate) fn write_fun<W: Write + ?Sized>(out: &mut W, t: Term) -> fmt::Result {
    let atoms = CharMode::UnicodeAsLatin1;
    if let Some(c) = t.closure_parts() {
        out.write_str("#Fun<")?;
        write_atom(out, c.entry.module.name(), atoms)?;
        out.write_char('.')?;
        write_u64(out, u64::from(c.entry.old_index))?;
        out.write_char('.')?;
        write_u64(out, u64::from(c.entry.old_uniq))?;
        out.write_char('>')
    } else if let Some(e) = t.as_export() {
        out.write_str("fun ")?;
        write_atom(out, e.module.name(), atoms)?;
        out.write_char(':')?;
        write_atom(out, e.function.name(), atoms)?;
        out.write_char('/')?;
        write_u64(out, u64::from(e.arity))
    } else {
        out.write_str("#Fun<?>")
    }
}

/// Writes a term that only exists inside the runtime (a match context, a
/// catch label, the non-value, or a corrupt word); Erlang code never sees
/// these, but trace dumps and debuggers may.
pub(crate) fn write_internal<W: Write + ?Sized>(out: &mut W, t: Term) -> fmt::Result {
    match t.kind() {
        Kind::MatchContext => out.write_str("#MatchContext<>"),
        Kind::Catch => write!(out, "#Catch<{}>", t.as_catch().unwrap_or(0)),
        Kind::NonValue => out.write_str("THE_NON_VALUE"),
        _ => write!(out, "#Invalid<{:#x}>", t.raw()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pid(n: u64) -> String {
        let mut s = String::new();
        write_pid(&mut s, Term::pid(n)).unwrap();
        s
    }

    #[test]
    fn local_pids_split_into_id_and_serial() {
        assert_eq!(pid(80), "<0.80.0>");
        assert_eq!(pid((1 << 32) | 5), "<0.5.1>");
        assert_eq!(pid(u64::from(u32::MAX)), "<0.4294967295.0>");
    }

    #[test]
    fn local_ports_print_their_number() {
        let mut s = String::new();
        write_port(&mut s, Term::port(5)).unwrap();
        assert_eq!(s, "#Port<0.5>");
    }
}
