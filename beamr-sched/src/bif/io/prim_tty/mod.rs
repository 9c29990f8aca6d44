//! The prim_tty NIF of OTP 26 to 28 (kernel's `prim_tty`, under OTP's
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
//! - `tty_read_signal/2` is never reached: no signal is selected, so a
//!   window resize is seen only when user_drv asks for the size again.
//!
//! OTP 29's prim_tty has another NIF (terminfo calls, `tty_init/2`,
//! `read_nif/3`), which beamr does not have: its shell cannot start.

mod select;
mod termcap;

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
    tty(a[0])?;
    let message = Payload::build(|h| {
        let tty = h.copy_term(a[0]);
        let reference = h.copy_term(a[2]);
        h.tuple(&[atom("select"), tty, reference, atom("ready_input")])
    });
    select::select(rt, p.pid, message);
    Ok(Term::atom(Atom::OK))
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
fn read_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    if !select::readable_now() {
        select::rearm();
        let empty = p.heap.binary(&[]);
        return Ok(ok_tuple(p, empty));
    }
    let mut buf = [0u8; 4096];
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

/// A capability or terminal name: the NUL-terminated characters prim_tty
/// passes (`[Name, 0]`).
fn cap_name(t: Term) -> Result<String, Exception> {
    let mut bytes = iodata_bytes(t)?;
    if bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8(bytes).map_err(|_| Exception::badarg())
}

fn tgetent_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = cap_name(a[0])?;
    if termcap::load(&name) {
        Ok(Term::atom(Atom::OK))
    } else {
        Ok(error_tuple(p, "enoent"))
    }
}

fn tgetnum_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match termcap::number(&cap_name(a[0])?) {
        Some(n) => Ok(ok_tuple(p, Term::small_unchecked(i64::from(n)))),
        None => Ok(Term::atom(Atom::FALSE)),
    }
}

fn tgetflag_nif(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(boolean(termcap::flag(&cap_name(a[0])?)))
}

fn tgetstr_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match termcap::string(&cap_name(a[0])?) {
        Some(s) => {
            let bin = p.heap.binary(&s);
            Ok(ok_tuple(p, bin))
        }
        None => Ok(Term::atom(Atom::FALSE)),
    }
}

fn tgoto_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut cap = iodata_bytes(a[0])?;
    if cap.last() == Some(&0) {
        cap.pop();
    }
    let params = a[1..]
        .iter()
        .map(|t| t.as_small().ok_or_else(Exception::badarg))
        .collect::<Result<Vec<i64>, _>>()?;
    let bin = p.heap.binary(&termcap::expand(&cap, &params));
    Ok(ok_tuple(p, bin))
}

fn tty_read_signal(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    tty(a[0])?;
    Ok(ok_tuple(p, atom("winch")))
}
