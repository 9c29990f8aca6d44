//! Everything about a socket but its bytes: `nif_setopt/5`,
//! `nif_getopt/3`, `nif_cancel/3`, `nif_info/0,1`, `nif_command/1`,
//! `nif_supports/0,1`.

use std::os::fd::AsRawFd;
use std::sync::Arc;

use beamr_core::term::Term;

use super::object::Op;
use super::options::{self, otp, Refused};
use super::{
    error, handle_arg, int, invalid, ok, ok_tuple, os_error, small, supports, with_open,
    with_socket, SOCKETS,
};
use crate::bif::common::atoms::atom;
use crate::process::{Exception, OwnedResource, Payload, Process, Signal};
use crate::runtime::Runtime;

/// `nif_supports()`.
pub(super) fn supports0(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(supports::all(&mut p.heap))
}

/// `nif_supports(Key)`.
pub(super) fn supports1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(supports::key(&mut p.heap, a[0]))
}

/// `nif_command(#{command := debug | socket_debug | use_registry, data
/// := Bool})`: beamr's NIF has no debug output, and every socket uses
/// the registry; `ok`.
pub(super) fn command(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_map() {
        return Err(Exception::badarg());
    }
    Ok(ok())
}

/// `nif_info()`: the NIF's global state, as erts reports it, with its
/// counts of the sockets open now (by domain, type and protocol).
pub(super) fn info0(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    let count = |keep: &dyn Fn(i32, i32, i32) -> bool| {
        let n = SOCKETS.count(|s| {
            let st = s.lock();
            let t = &st.tracked;
            st.os.is_some() && keep(t.domain, t.kind, t.protocol)
        });
        small(n as i64)
    };
    let counter_pairs = [
        (atom("num_cnt_bits"), small(64)),
        (atom("num_dinet"), count(&|d, _, _| d == libc::AF_INET)),
        (atom("num_dinet6"), count(&|d, _, _| d == libc::AF_INET6)),
        (atom("num_dlocal"), count(&|d, _, _| d == libc::AF_UNIX)),
        (atom("num_pip"), count(&|_, _, pr| pr == libc::IPPROTO_IP)),
        (
            atom("num_psctp"),
            count(&|_, _, pr| pr == libc::IPPROTO_SCTP),
        ),
        (atom("num_ptcp"), count(&|_, _, pr| pr == libc::IPPROTO_TCP)),
        (atom("num_pudp"), count(&|_, _, pr| pr == libc::IPPROTO_UDP)),
        (atom("num_sockets"), count(&|_, _, _| true)),
        (atom("num_tdgrams"), count(&|_, t, _| t == libc::SOCK_DGRAM)),
        (
            atom("num_tseqpkgs"),
            count(&|_, t, _| t == libc::SOCK_SEQPACKET),
        ),
        (
            atom("num_tstreams"),
            count(&|_, t, _| t == libc::SOCK_STREAM),
        ),
    ];
    let counters = beamr_core::map::from_pairs(&mut p.heap, &counter_pairs);
    let mut pairs = vec![
        (atom("debug"), Term::FALSE),
        (atom("socket_debug"), Term::FALSE),
        (atom("use_registry"), Term::TRUE),
        (atom("iow"), Term::FALSE),
        (atom("counters"), counters),
        (atom("iov_max"), small(1024)),
    ];
    // OTP 26 on report the I/O backend, which gen_tcp_socket reads.
    if beamr_core::release::otp_release() >= 26 {
        let name = [(atom("name"), atom("unix_essio"))];
        let backend = beamr_core::map::from_pairs(&mut p.heap, &name);
        pairs.push((atom("io_backend"), backend));
        pairs.push((atom("eei"), Term::TRUE));
    }
    Ok(beamr_core::map::from_pairs(&mut p.heap, &pairs))
}

/// `nif_info(SockRef)`: the socket's domain, type, protocol, owner,
/// states, counters and waiters, in erts's keys.
pub(super) fn info1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_socket(p, a[0], |p, s| {
        let guard = s.lock();
        let open = guard.os.is_some();
        let st = &guard.tracked;
        let count = |op: Op| small(st.waits.waiters.iter().filter(|w| w.op == op).count() as i64);
        let mut rstates = Vec::new();
        let mut wstates = Vec::new();
        if st.bound {
            rstates.push(atom("bound"));
        }
        if st.listening {
            rstates.push(atom("listening"));
        }
        if st.connecting() {
            wstates.push(atom("connecting"));
        }
        if st.connected {
            wstates.push(atom("connected"));
        }
        if !open {
            for states in [&mut rstates, &mut wstates] {
                states.push(atom("closing"));
                states.push(atom("closed"));
            }
        }
        let rstates = p.heap.list(&rstates);
        let wstates = p.heap.list(&wstates);
        let counters = st.counters.term(&mut p.heap);
        let owner = if open { st.owner } else { atom("undefined") };
        let pairs = [
            (atom("domain"), options::domain_name(st.domain)),
            (atom("type"), options::type_name(st.kind)),
            (atom("protocol"), small(i64::from(st.protocol))),
            (atom("owner"), owner),
            (atom("ctype"), atom("normal")),
            (atom("counters"), counters),
            (atom("num_readers"), count(Op::Recv)),
            (atom("num_writers"), count(Op::Send)),
            (atom("num_acceptors"), count(Op::Accept)),
            (atom("rstates"), rstates),
            (atom("wstates"), wstates),
        ];
        beamr_core::map::from_pairs(&mut p.heap, &pairs)
    })
}

/// `nif_setopt(SockRef, Level, Option, Value, NativeValue)`.
pub(super) fn setopt(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[4] != small(0) {
        return Ok(error(p, "notsup"));
    }
    if a[1] == atom("otp") {
        return setopt_otp(rt, p, a);
    }
    let Some(level) = options::level(a[1]) else {
        return Ok(invalid(p, "socket_option"));
    };
    let Some(opt) = int(a[2]).and_then(|n| i32::try_from(n).ok()) else {
        return Ok(invalid(p, "socket_option"));
    };
    with_open(p, a[0], |p, os, _| {
        match options::set(os, level, opt, a[3]) {
            Ok(()) => ok(),
            Err(refused) => refusal(p, refused),
        }
    })
}

fn boolean(b: bool) -> Term {
    if b {
        Term::TRUE
    } else {
        Term::FALSE
    }
}

fn refusal(p: &mut Process, refused: Refused) -> Term {
    match refused {
        Refused::Option => invalid(p, "socket_option"),
        Refused::Value => invalid(p, "value"),
        Refused::Os(e) => os_error(p, &e),
    }
}

/// `{error, {invalid, not_owner}}`: only the controlling process may.
fn not_owner(p: &mut Process) -> Term {
    let reason = p.heap.tuple(&[atom("invalid"), atom("not_owner")]);
    p.heap.tuple(&[atom("error"), reason])
}

fn setopt_otp(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let value = a[3];
    with_socket(p, a[0], |p, s| {
        let object: Arc<dyn OwnedResource> = s.clone();
        let set = s.with_open(|_, st| match int(a[2]) {
            Some(otp::CTRL_PROC) => {
                if st.owner != p.pid {
                    return not_owner(p);
                }
                if !value.is_local_pid() {
                    return invalid(p, "value");
                }
                if value == p.pid {
                    return ok();
                }
                if !rt.send_signal(value, Signal::Adopt(Arc::clone(&object))) {
                    return error(p, "badarg");
                }
                st.owner = value;
                p.owned.remove(&object);
                ok()
            }
            Some(otp::RCVBUF) => {
                // `N` or erts's `{Count, N}` (a count of reads per call).
                let size = match value.as_tuple() {
                    Some([_, n]) => int(*n),
                    _ => int(value),
                };
                match size
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|&n| n > 0)
                {
                    Some(n) => {
                        st.rcvbuf = n;
                        ok()
                    }
                    None => invalid(p, "value"),
                }
            }
            Some(otp::META) => {
                if st.owner != p.pid {
                    return not_owner(p);
                }
                st.meta = Payload::copy(value);
                ok()
            }
            Some(flag @ (otp::DEBUG | otp::IOW | otp::USE_REGISTRY)) => {
                let on = match value {
                    v if v == Term::TRUE => true,
                    v if v == Term::FALSE => false,
                    _ => return invalid(p, "value"),
                };
                match flag {
                    otp::DEBUG => st.debug = on,
                    otp::IOW => st.iow = on,
                    _ => st.use_registry = on,
                }
                ok()
            }
            Some(buf @ (otp::RCVCTRLBUF | otp::SNDCTRLBUF)) => {
                match int(value).and_then(|n| usize::try_from(n).ok()) {
                    Some(n) if n > 0 => {
                        if buf == otp::RCVCTRLBUF {
                            st.ctrl_bufs.0 = n;
                        } else {
                            st.ctrl_bufs.1 = n;
                        }
                        ok()
                    }
                    _ => invalid(p, "value"),
                }
            }
            _ => invalid(p, "socket_option"),
        });
        match set {
            Some(answer) => answer,
            None => error(p, "closed"),
        }
    })
}

/// `nif_getopt(SockRef, Level, Option)`: `{ok, Value}`.
pub(super) fn getopt3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let otp_level = a[1] == atom("otp");
    let level = options::level(a[1]);
    let opt = int(a[2]);
    with_open(p, a[0], |p, os, st| {
        if otp_level {
            let value = match opt {
                Some(otp::CTRL_PROC) => st.owner,
                Some(otp::RCVBUF) => small(st.rcvbuf as i64),
                Some(otp::META) => p.heap.copy_term(st.meta.term),
                Some(otp::FD) => small(i64::from(os.as_raw_fd())),
                Some(otp::DOMAIN) => options::domain_name(st.domain),
                Some(otp::DEBUG) => boolean(st.debug),
                Some(otp::IOW) => boolean(st.iow),
                Some(otp::USE_REGISTRY) => boolean(st.use_registry),
                Some(otp::RCVCTRLBUF) => small(st.ctrl_bufs.0 as i64),
                Some(otp::SNDCTRLBUF) => small(st.ctrl_bufs.1 as i64),
                _ => return invalid(p, "socket_option"),
            };
            return ok_tuple(p, value);
        }
        let (Some(level), Some(opt)) = (level, opt.and_then(|n| i32::try_from(n).ok())) else {
            return invalid(p, "socket_option");
        };
        match options::get(&mut p.heap, os, level, opt) {
            Ok(value) => ok_tuple(p, value),
            Err(refused) => refusal(p, refused),
        }
    })
}

/// `nif_cancel(SockRef, Op, Handle)`: `ok` when the wait was still
/// recorded (it is forgotten), `select_sent` when its select message has
/// gone out already, `not_found` otherwise.
pub(super) fn cancel(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let op = Op::named(a[1]).ok_or_else(Exception::badarg)?;
    let handle = handle_arg(a[2])?;
    with_open(p, a[0], |_, _, st| {
        let before = st.waits.waiters.len();
        st.waits
            .waiters
            .retain(|w| !(w.handle == handle && w.op == op));
        if st.waits.waiters.len() < before {
            return ok();
        }
        if st.waits.sent.contains(&handle) {
            st.waits.used(handle);
            return atom("select_sent");
        }
        atom("not_found")
    })
}
