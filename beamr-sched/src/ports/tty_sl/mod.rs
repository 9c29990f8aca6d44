//! `tty_sl`, erts's terminal driver, built in: what OTP's `user_drv`
//! opens (`open_port({spawn, "tty_sl -c -e"}, [eof])`) for the interactive
//! shell's line editing.
//!
//! The driver puts the terminal in raw mode (see [`super::terminal`]) and
//! then:
//! - sends each key the user types to the port's owner as `{Port, {data,
//!   Bytes}}` (UTF-8; a character split across two reads waits for its
//!   end), and `{Port, eof}` at the end of input;
//! - takes user_drv's commands, a byte each and its argument: `0` writes
//!   characters, `1` moves the cursor by a signed 16-bit count, `2`
//!   inserts characters, `3` deletes a count of them, `4` beeps, `5`
//!   writes and then answers `{Port, ok}` (what `put_chars_sync` waits
//!   for); [`line`] turns them into what the terminal is sent;
//! - answers three controls (erts's numbers, offset by its magic number):
//!   the window size as two native 32-bit integers, and the unicode state
//!   (read, and set returning the old one). In latin-1 state a character
//!   past 255 is written as `\x{H}`, as erts writes it, and typed bytes
//!   are latin-1 characters.
//!
//! Ctrl-C reaches user_drv as a key (byte 3), which interrupts the
//! shell's evaluation, where erts's break handler would stop the whole
//! runtime to show its menu: beamr has no break menu. The modes the
//! terminal had are put back when the port closes and when the runtime
//! halts.
//!
//! Opening it without a terminal on standard input and output fails
//! (`badarg`), and user_drv then starts the plain `user` shell instead, as
//! it does on erts.

mod line;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use self::line::Line;
use super::errno::os_error;
use super::terminal;
use crate::process::{Exception, Payload};
use crate::runtime::{Port, PortDriver, Runtime};

/// erts's `ERTS_TTYSL_DRV_CONTROL_MAGIC_NUMBER`, added to each control.
const CONTROL_MAGIC: u32 = 0x018b_0900;
/// Control: the window size.
const CTRL_GET_WINSIZE: u32 = CONTROL_MAGIC + 100;
/// Control: the unicode state.
const CTRL_GET_UNICODE_STATE: u32 = CONTROL_MAGIC + 101;
/// Control: set the unicode state, answering the old one.
const CTRL_SET_UNICODE_STATE: u32 = CONTROL_MAGIC + 102;

/// The commands user_drv sends (its first byte).
const OP_PUTC: u8 = 0;
const OP_MOVE: u8 = 1;
const OP_INSC: u8 = 2;
const OP_DELC: u8 = 3;
const OP_BEEP: u8 = 4;
const OP_PUTC_SYNC: u8 = 5;

/// Opens the driver for `owner`: the port's id, or `badarg` without a
/// terminal, or the OS's error from setting raw mode.
pub fn open(rt: &Runtime, owner: Term, command: &str) -> Result<Term, Exception> {
    if !terminal::present() {
        return Err(Exception::badarg());
    }
    let rt = rt
        .weak_self
        .get()
        .and_then(std::sync::Weak::upgrade)
        .ok_or_else(Exception::badarg)?;
    terminal::enter_raw(terminal::Keep {
        output_processing: true,
        ..terminal::Keep::default()
    })
    .map_err(|e| os_error(&e))?;
    let id = rt.ports.new_id()?;
    let driver = Arc::new(TtySl {
        id,
        screen: Mutex::new(Screen {
            line: Line::new(terminal::size().0 as usize),
            unicode: terminal::utf8_locale(),
        }),
        stopped: AtomicBool::new(false),
    });
    let mut port = Port::new(id, command.to_string(), owner, None);
    port.driver = Some(driver.clone());
    let port = Arc::new(port);
    rt.insert_port(port.clone());
    std::thread::spawn(move || read_keys(&rt, &port, &driver));
    Ok(id)
}

/// The driver of one open terminal port.
struct TtySl {
    id: Term,
    screen: Mutex<Screen>,
    stopped: AtomicBool,
}

/// What the driver knows of the terminal's state.
struct Screen {
    line: Line,
    /// Whether characters are UTF-8 (else latin-1) both ways.
    unicode: bool,
}

impl Screen {
    /// Carries out one command of user_drv; the text to write.
    fn command(&mut self, op: u8, arg: &[u8]) -> Vec<u8> {
        let count = || match arg {
            [hi, lo, ..] => i32::from(i16::from_be_bytes([*hi, *lo])),
            _ => 0,
        };
        let text = || self.visible(&String::from_utf8_lossy(arg));
        let out = match op {
            OP_PUTC | OP_PUTC_SYNC => {
                let t = text();
                self.line.put(&t)
            }
            OP_INSC => {
                let t = text();
                self.line.insert(&t)
            }
            OP_MOVE => self.line.move_by(count()),
            OP_DELC => self.line.delete(count()),
            OP_BEEP => "\x07".to_string(),
            _ => String::new(),
        };
        self.encode(&out)
    }

    /// `text` as the terminal is to show it: in latin-1 state a character
    /// past 255 is spelt `\x{H}`.
    fn visible(&self, text: &str) -> String {
        if self.unicode || text.chars().all(|c| u32::from(c) < 256) {
            return text.to_string();
        }
        text.chars()
            .map(|c| match u32::from(c) {
                n if n < 256 => c.to_string(),
                n => format!("\\x{{{n:X}}}"),
            })
            .collect()
    }

    fn encode(&self, text: &str) -> Vec<u8> {
        if self.unicode {
            return text.as_bytes().to_vec();
        }
        text.chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect()
    }
}

impl TtySl {
    fn write(&self, op: u8, arg: &[u8]) {
        let bytes = self
            .screen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .command(op, arg);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&bytes).and_then(|()| out.flush());
    }
}

impl PortDriver for TtySl {
    fn output(&self, bytes: &[u8]) {
        if let Some((&op, arg)) = bytes.split_first() {
            self.write(op, arg);
        }
    }

    fn command(&self, _caller: Term, bytes: &[u8]) -> Vec<(usize, Payload)> {
        let Some((&op, arg)) = bytes.split_first() else {
            return Vec::new();
        };
        self.write(op, arg);
        if op != OP_PUTC_SYNC {
            return Vec::new();
        }
        let id = self.id;
        vec![(0, Payload::build(|h| h.tuple(&[id, Term::atom(Atom::OK)])))]
    }

    fn control(&self, command: u32, data: &[u8]) -> Option<(Vec<u8>, bool)> {
        let mut screen = self
            .screen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match command {
            CTRL_GET_WINSIZE => {
                let (cols, rows) = terminal::size();
                screen.line.set_width(cols as usize);
                let mut reply = cols.to_ne_bytes().to_vec();
                reply.extend_from_slice(&rows.to_ne_bytes());
                Some((reply, false))
            }
            CTRL_GET_UNICODE_STATE => Some((vec![u8::from(screen.unicode)], false)),
            CTRL_SET_UNICODE_STATE => {
                let old = screen.unicode;
                screen.unicode = data.first().is_some_and(|&b| b != 0);
                Some((vec![u8::from(old)], false))
            }
            _ => None,
        }
    }

    fn stop(&self, _reason: Term) {
        self.stopped.store(true, Ordering::Release);
        terminal::restore();
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// The port's input: keys typed, as UTF-8, until the end of input or the
/// port's close.
fn read_keys(rt: &Runtime, port: &Port, driver: &TtySl) {
    let mut stdin = std::io::stdin();
    let mut buf = [0u8; 1024];
    let mut pending = Vec::new();
    loop {
        let n = match stdin.read(&mut buf) {
            Ok(0) | Err(_) if driver.stopped() => return,
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let unicode = driver
            .screen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .unicode;
        pending.extend_from_slice(&buf[..n]);
        let keys = if unicode {
            take_utf8(&mut pending)
        } else {
            latin1_to_utf8(&std::mem::take(&mut pending))
        };
        if keys.is_empty() {
            continue;
        }
        let message = Payload::build(|h| {
            let data = h.byte_list(&keys, Term::NIL);
            let inner = h.tuple(&[Term::atom(Atom::DATA), data]);
            h.tuple(&[port.id, inner])
        });
        if !rt.port_deliver_all(port, vec![(keys.len(), message)]) {
            return;
        }
    }
    let eof = Payload::build(|h| h.tuple(&[port.id, Term::atom(Atom::new("eof").expect("atom"))]));
    rt.port_deliver_all(port, vec![(0, eof)]);
}

/// The complete UTF-8 at the front of `pending`, taken from it; a
/// character cut short at the end stays for the next read, and a byte
/// that is not UTF-8 is taken as its latin-1 character.
fn take_utf8(pending: &mut Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(pending.len());
    let mut rest: &[u8] = pending;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.extend_from_slice(s.as_bytes());
                rest = &[];
                break;
            }
            Err(e) => {
                let (good, after) = rest.split_at(e.valid_up_to());
                out.extend_from_slice(good);
                match e.error_len() {
                    None => {
                        rest = after;
                        break;
                    }
                    Some(bad) => {
                        out.extend(latin1_to_utf8(&after[..bad]));
                        rest = &after[bad..];
                    }
                }
            }
        }
    }
    *pending = rest.to_vec();
    out
}

fn latin1_to_utf8(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&b| char::from(b))
        .collect::<String>()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_across_reads_waits_for_its_end() {
        let mut pending = "aé".as_bytes()[..2].to_vec();
        assert_eq!(take_utf8(&mut pending), b"a");
        pending.extend_from_slice(&"é".as_bytes()[1..]);
        assert_eq!(take_utf8(&mut pending), "é".as_bytes());
        assert!(pending.is_empty());
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_its_latin1_character() {
        let mut pending = vec![b'x', 0xe9, b'y'];
        assert_eq!(take_utf8(&mut pending), "xéy".as_bytes());
    }

    #[test]
    fn latin1_state_spells_wide_characters_as_erts_does() {
        let mut screen = Screen {
            line: Line::new(80),
            unicode: false,
        };
        assert_eq!(screen.command(OP_PUTC, "é→".as_bytes()), b"\xe9\\x{2192}");
        screen.unicode = true;
        assert_eq!(screen.command(OP_PUTC, "→".as_bytes()), "→".as_bytes());
    }
}
