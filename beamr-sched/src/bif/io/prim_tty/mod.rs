//! The prim_tty NIF of OTP 26 and later (kernel's `prim_tty`, under OTP's
//! interactive shell: user_drv, group and edlin run as bytecode on top):
//! the terminal's raw mode, its size and encoding, reading standard input
//! (a select and a read, see [`select`]), writing standard output,
//! character widths, and the termcap questions (see [`termcap`]).
//!
//! - `tty_create/0` gives the handle (a resource reference); there is one
//!   terminal, the runtime's own standard input and output.
//! - `tty_init/3` keeps the options (`canon`, `echo`), and `tty_set/1`
//!   puts the terminal in raw mode with them, output processing off
//!   (prim_tty writes its own `\r\n`); its modes are put back when
//!   the runtime halts (`ports::terminal`). Keys never raise signals:
//!   Ctrl-C reaches user_drv as a key, which interrupts the shell's
//!   evaluation, where erts's break handler would stop the whole runtime
//!   to show its menu.
//! - `setlocale/1` says whether the locale is UTF-8 (`LC_ALL`, `LC_CTYPE`,
//!   `LANG`), `tty_encoding/1` is `utf8`, `sizeof_wchar/0` is 4.
//! - `wcwidth/1` is the Unicode width (`{error, not_printable}` for a
//!   control character), `isprint/1` is ASCII's printable range.
//! - `tty_read_signal/2` is never reached: no signal is selected, so on
//!   OTP 26 and 27 a window resize is seen only when user_drv asks for the
//!   size again (OTP 28's prim_tty hears of it from `erl_signal_server`,
//!   through `os:set_signal(sigwinch, handle)`).
//!
//! OTP 28 changed the NIF (`tty_create/1`, `tty_init/2` with `input`
//! raw, cooked or disabled, `tty_select/2`, `read_nif/3`, terminfo calls
//! by terminfo name, `tputs`); both sets are here, and `erlang:load_nif/2`
//! answers `ok` for it. `tinfo/0` raises `beamr_unsupported`.

mod select;
mod termcap;

use self::termcap::Naming;
use std::io::Write;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::bif::common::resource::Resources;
use crate::bif::erlang::binaries::iodata_bytes;
use crate::loader::BifRow;
use crate::ports::terminal;
use crate::process::{Exception, Payload, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("prim_tty", "isatty", 1, isatty),
    ("prim_tty", "tty_create", 0, tty_create),
    ("prim_tty", "tty_init", 3, tty_init),
    ("prim_tty", "tty_set", 1, tty_set),
    ("prim_tty", "setlocale", 1, setlocale),
    ("prim_tty", "tty_select", 3, tty_select),
    ("prim_tty", "tty_encoding", 1, tty_encoding),
    ("prim_tty", "tty_window_size", 1, tty_window_size),
    ("prim_tty", "write_nif", 2, write_nif),
    ("prim_tty", "read_nif", 2, read_nif),
    ("prim_tty", "isprint", 1, isprint),
    ("prim_tty", "wcwidth", 1, wcwidth),
    ("prim_tty", "wcswidth", 1, wcswidth),
    ("prim_tty", "sizeof_wchar", 0, sizeof_wchar),
    ("prim_tty", "tgetent_nif", 1, tgetent_nif),
    ("prim_tty", "tgetnum_nif", 1, tgetnum_nif),
    ("prim_tty", "tgetflag_nif", 1, tgetflag_nif),
    ("prim_tty", "tgetstr_nif", 1, tgetstr_nif),
    ("prim_tty", "tgoto_nif", 1, tgoto_nif),
    ("prim_tty", "tgoto_nif", 2, tgoto_nif),
    ("prim_tty", "tgoto_nif", 3, tgoto_nif),
    ("prim_tty", "tty_read_signal", 2, tty_read_signal),
    // OTP 28 and later.
    ("prim_tty", "tty_create", 1, tty_create),
    ("prim_tty", "tty_init", 2, tty_init2),
    ("prim_tty", "tty_select", 2, tty_select2),
    ("prim_tty", "read_nif", 3, read_nif3),
    ("prim_tty", "tty_is_open", 2, tty_is_open),
    ("prim_tty", "setupterm_nif", 0, setupterm_nif),
    ("prim_tty", "tigetnum_nif", 1, tigetnum_nif),
    ("prim_tty", "tigetflag_nif", 1, tigetflag_nif),
    ("prim_tty", "tigetstr_nif", 1, tigetstr_nif),
    ("prim_tty", "tputs_nif", 2, tputs_nif),
    ("prim_tty", "tinfo_nif", 0, tinfo_nif),
];

/// The resource tag of a terminal handle.
const TTY_TAG: u32 = 0x0077_7900;

/// A terminal handle's options, as `tty_init/3` gave them.
#[derive(Default)]
struct Tty {
    keep: std::sync::Mutex<terminal::Keep>,
}

static TTYS: Resources<Tty> = Resources::new(TTY_TAG);

fn tty(t: Term) -> Result<std::sync::Arc<Tty>, Exception> {
    TTYS.get(t).ok_or_else(Exception::badarg)
}

fn ok_tuple(p: &mut Process, value: Term) -> Term {
    p.heap.tuple(&[Term::atom(Atom::OK), value])
}

fn error_tuple(p: &mut Process, reason: &str) -> Term {
    p.heap.tuple(&[Term::atom(Atom::ERROR), atom(reason)])
}

fn boolean(b: bool) -> Term {
    Term::atom(if b { Atom::TRUE } else { Atom::FALSE })
}

fn isatty(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::io::IsTerminal;
    let name = a[0].as_atom().map(|x| x.name());
    let answer = match name {
        Some("stdin") => std::io::stdin().is_terminal(),
        Some("stdout") => std::io::stdout().is_terminal(),
        Some("stderr") => std::io::stderr().is_terminal(),
        _ => {
            tty(a[0])?;
            terminal::present()
        }
    };
    Ok(boolean(answer))
}

fn tty_create(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let handle = TTYS.insert(p, Tty::default());
    Ok(ok_tuple(p, handle))
}

/// `tty_init(TTY, Fd, #{canon := _, echo := _, ...})`: keeps the options;
/// `{error, enotsup}` without a terminal.
fn tty_init(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let handle = tty(a[0])?;
    let option = |name: &str| {
        beamr_core::map::get(a[2], atom(name)).is_some_and(|v| v == Term::atom(Atom::TRUE))
    };
    if !a[2].is_map() {
        return Err(Exception::badarg());
    }
    if !terminal::present() {
        return Ok(error_tuple(p, "enotsup"));
    }
    *handle
        .keep
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = terminal::Keep {
        canon: option("canon"),
        echo: option("echo"),
        output_processing: false,
    };
    Ok(Term::atom(Atom::OK))
}

fn tty_set(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let keep = *tty(a[0])?
        .keep
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match terminal::enter_raw(keep) {
        Ok(()) => Ok(Term::atom(Atom::OK)),
        Err(_) => Ok(error_tuple(p, "enotsup")),
    }
}

fn setlocale(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    Ok(boolean(terminal::utf8_locale()))
}

/// `tty_select(TTY, SignalRef, ReadRef)`: `{select, TTY, ReadRef,
/// ready_input}` to the caller when standard input can be read.
fn tty_select(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    select_input(rt, p, a[0], a[2])
}

/// OTP 28's `tty_select(TTY, ReadRef)`.
fn tty_select2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    select_input(rt, p, a[0], a[1])
}

fn select_input(
    rt: &Runtime,
    p: &mut Process,
    handle: Term,
    reference: Term,
) -> Result<Term, Exception> {
    tty(handle)?;
    let message = Payload::build(|h| {
        let tty = h.copy_term(handle);
        let reference = h.copy_term(reference);
        h.tuple(&[atom("select"), tty, reference, atom("ready_input")])
    });
    select::select(rt, p.pid, message);
    Ok(Term::atom(Atom::OK))
}

/// OTP 28's `tty_init(TTY, #{input := raw | cooked | disabled, ...})`:
/// raw input is the terminal's raw mode (`{error, enotsup}` without a
/// terminal); cooked or disabled input gives the terminal its own modes
/// back.
fn tty_init2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    if !a[1].is_map() {
        return Err(Exception::badarg());
    }
    let input = beamr_core::map::get(a[1], atom("input")).and_then(|v| v.as_atom());
    if input.is_some_and(|i| i.name() == "raw") {
        if !terminal::present() {
            return Ok(error_tuple(p, "enotsup"));
        }
        let keep = terminal::Keep::default();
        return match terminal::enter_raw(keep) {
            Ok(()) => Ok(Term::atom(Atom::OK)),
            Err(_) => Ok(error_tuple(p, "enotsup")),
        };
    }
    terminal::restore();
    Ok(Term::atom(Atom::OK))
}

/// OTP 28's `read_nif(TTY, Ref, N)`: at most `N` bytes.
fn read_nif3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let most = a[2]
        .as_small()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or_else(Exception::badarg)?;
    read_at_most(rt, p, a[0], most)
}

/// `tty_is_open(TTY, Fd)`: the runtime's standard streams are open.
fn tty_is_open(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    let stream = a[1].as_atom().map(|x| x.name());
    Ok(boolean(matches!(
        stream,
        Some("stdin" | "stdout" | "stderr")
    )))
}

fn tty_encoding(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    Ok(atom("utf8"))
}

fn tty_window_size(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    if !terminal::present() {
        return Ok(error_tuple(p, "enotsup"));
    }
    let (cols, rows) = terminal::size();
    let size = p.heap.tuple(&[
        Term::small_unchecked(i64::from(cols)),
        Term::small_unchecked(i64::from(rows)),
    ]);
    Ok(ok_tuple(p, size))
}

fn write_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    let bytes = iodata_bytes(a[1])?;
    let mut out = std::io::stdout().lock();
    match out.write_all(&bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Term::atom(Atom::OK)),
        Err(e) => Ok(error_tuple(
            p,
            crate::ports::errno_name(e.raw_os_error().unwrap_or(libc::EIO)),
        )),
    }
}

/// `read_nif(TTY, Ref)`: what standard input has (`{ok, <<>>}` when
/// nothing yet), `{error, closed}` at its end; arms the select again.
fn read_nif(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    read_at_most(rt, p, a[0], 4096)
}

fn read_at_most(
    _rt: &Runtime,
    p: &mut Process,
    handle: Term,
    most: usize,
) -> Result<Term, Exception> {
    tty(handle)?;
    if !select::readable_now() {
        select::rearm();
        let empty = p.heap.binary(&[]);
        return Ok(ok_tuple(p, empty));
    }
    let mut buf = vec![0u8; most.min(64 * 1024)];
    match rustix::io::read(std::io::stdin(), &mut buf) {
        Ok(0) => Ok(error_tuple(p, "closed")),
        Ok(n) => {
            select::rearm();
            let data = p.heap.binary(&buf[..n]);
            Ok(ok_tuple(p, data))
        }
        Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {
            select::rearm();
            let empty = p.heap.binary(&[]);
            Ok(ok_tuple(p, empty))
        }
        Err(_) => Ok(error_tuple(p, "closed")),
    }
}

fn char_arg(t: Term) -> Result<char, Exception> {
    t.as_small()
        .and_then(|n| u32::try_from(n).ok())
        .and_then(char::from_u32)
        .ok_or_else(Exception::badarg)
}

fn isprint(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let c = char_arg(a[0])?;
    Ok(boolean(c.is_ascii_graphic() || c == ' '))
}

fn wcwidth(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let c = char_arg(a[0])?;
    match unicode_width::UnicodeWidthChar::width(c) {
        Some(w) => Ok(Term::small_unchecked(w as i64)),
        None => Ok(error_tuple(p, "not_printable")),
    }
}

fn wcswidth(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    let text = String::from_utf8(bytes).map_err(|_| Exception::badarg())?;
    let width = unicode_width::UnicodeWidthStr::width(text.as_str());
    Ok(ok_tuple(p, Term::small_unchecked(width as i64)))
}

fn sizeof_wchar(_rt: &Runtime, _p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::small_unchecked(4))
}

/// The bytes prim_tty passes NUL-terminated (`[Name, 0]`), without the NUL.
fn nul_terminated(t: Term) -> Result<Vec<u8>, Exception> {
    let mut bytes = iodata_bytes(t)?;
    if bytes.last() == Some(&0) {
        bytes.pop();
    }
    Ok(bytes)
}

/// A capability or terminal name.
fn cap_name(t: Term) -> Result<String, Exception> {
    String::from_utf8(nul_terminated(t)?).map_err(|_| Exception::badarg())
}

/// Loads the description of terminal `name`: `ok`, or `{error, enoent}`.
fn load_description(p: &mut Process, name: &str) -> Term {
    if !name.is_empty() && termcap::load(name) {
        Term::atom(Atom::OK)
    } else {
        error_tuple(p, "enoent")
    }
}

/// A numeric capability: `{ok, N}`, or `false`.
fn number_reply(p: &mut Process, cap: Term, naming: Naming) -> Result<Term, Exception> {
    Ok(match termcap::number(&cap_name(cap)?, naming) {
        Some(n) => ok_tuple(p, Term::small_unchecked(i64::from(n))),
        None => Term::atom(Atom::FALSE),
    })
}

/// A string capability: `{ok, Binary}`, or `false`.
fn string_reply(p: &mut Process, cap: Term, naming: Naming) -> Result<Term, Exception> {
    Ok(match termcap::string(&cap_name(cap)?, naming) {
        Some(s) => {
            let bin = p.heap.binary(&s);
            ok_tuple(p, bin)
        }
        None => Term::atom(Atom::FALSE),
    })
}

/// `{ok, Binary}`: the parameterized capability string `cap` with
/// `params` put in.
fn expanded(p: &mut Process, cap: Term, params: &[i64]) -> Result<Term, Exception> {
    let bin = p
        .heap
        .binary(&termcap::expand(&nul_terminated(cap)?, params));
    Ok(ok_tuple(p, bin))
}

fn tgetent_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = cap_name(a[0])?;
    Ok(load_description(p, &name))
}

fn tgetnum_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    number_reply(p, a[0], Naming::Termcap)
}

fn tgetflag_nif(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(boolean(termcap::flag(&cap_name(a[0])?, Naming::Termcap)))
}

fn tgetstr_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    string_reply(p, a[0], Naming::Termcap)
}

fn tgoto_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let params = a[1..]
        .iter()
        .map(|t| t.as_small().ok_or_else(Exception::badarg))
        .collect::<Result<Vec<i64>, _>>()?;
    expanded(p, a[0], &params)
}

/// OTP 28's `setupterm()`: the description of `$TERM`.
fn setupterm_nif(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let name = std::env::var("TERM").unwrap_or_default();
    Ok(load_description(p, &name))
}

fn tigetnum_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    number_reply(p, a[0], Naming::Terminfo)
}

fn tigetflag_nif(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(boolean(termcap::flag(&cap_name(a[0])?, Naming::Terminfo)))
}

fn tigetstr_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    string_reply(p, a[0], Naming::Terminfo)
}

/// `tputs(Cap, Args)`: the capability string `Cap` with `Args` put in.
fn tputs_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut params = Vec::new();
    let mut rest = a[1];
    while let Some((head, tail)) = rest.as_cons() {
        params.push(head.as_small().ok_or_else(Exception::badarg)?);
        rest = tail;
    }
    if rest != Term::NIL {
        return Err(Exception::badarg());
    }
    expanded(p, a[0], &params)
}

/// `tinfo()` (a listing of the whole description, for people) is not
/// built: `error:{beamr_unsupported, {prim_tty, tinfo, 0}}`.
fn tinfo_nif(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let what = p
        .heap
        .tuple(&[atom("prim_tty"), atom("tinfo"), Term::small_unchecked(0)]);
    let reason = p.heap.tuple(&[atom("beamr_unsupported"), what]);
    Err(Exception::error(reason))
}

fn tty_read_signal(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    Ok(ok_tuple(p, atom("winch")))
}
