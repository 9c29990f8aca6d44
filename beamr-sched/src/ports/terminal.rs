//! The terminal under standard input and output, as OTP's line editing
//! uses it (the tty_sl driver up to OTP 25, the prim_tty NIF from OTP
//! 26): whether there is one, its raw mode (no line buffering, no echo,
//! no signals from keys: OTP's line editor does all of that) and the
//! modes it had before, put back when the terminal is let go and when
//! the runtime halts, and its size.

use std::io::IsTerminal;
use std::sync::{Mutex, Once};

use rustix::termios::{self, LocalModes, OptionalActions, OutputModes, SpecialCodeIndex, Termios};

/// The modes standard input had before raw mode, while raw mode is on.
static SAVED: Mutex<Option<Termios>> = Mutex::new(None);

/// Registers the restore with the halt hooks once.
static AT_HALT: Once = Once::new();

/// True when both standard input and standard output are a terminal, as
/// erts's driver requires.
pub fn present() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// What raw mode keeps of the terminal's own handling of keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keep {
    /// Line buffering (`ICANON`).
    pub canon: bool,
    /// Echo of what is typed.
    pub echo: bool,
    /// Output processing (`OPOST`: a newline written ends with a return),
    /// which tty_sl relies on and prim_tty, writing `\r\n` itself, turns
    /// off.
    pub output_processing: bool,
}

/// Puts standard input's terminal in raw mode, keeping its modes to put
/// back. Keys never raise signals (`ISIG` off): Ctrl-C reaches OTP's
/// line editor as a key, since beamr has no break handler.
pub fn enter_raw(keep: Keep) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let before = termios::tcgetattr(&stdin)?;
    let mut raw = before.clone();
    raw.local_modes -= LocalModes::ISIG;
    if !keep.canon {
        raw.local_modes -= LocalModes::ICANON;
    }
    if !keep.echo {
        raw.local_modes -=
            LocalModes::ECHO | LocalModes::ECHOE | LocalModes::ECHOK | LocalModes::ECHONL;
    }
    if !keep.output_processing {
        raw.output_modes -= OutputModes::OPOST;
    }
    raw.special_codes[SpecialCodeIndex::VMIN] = 1;
    raw.special_codes[SpecialCodeIndex::VTIME] = 0;
    termios::tcsetattr(&stdin, OptionalActions::Now, &raw)?;
    let mut saved = SAVED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if saved.is_none() {
        *saved = Some(before);
    }
    AT_HALT.call_once(|| crate::runtime::at_halt::register(|_| restore()));
    Ok(())
}

/// Puts back the modes raw mode replaced, if it is on.
pub fn restore() {
    let saved = SAVED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(before) = saved {
        let _ = termios::tcsetattr(std::io::stdin(), OptionalActions::Now, &before);
    }
}

/// The terminal's columns and rows (80 by 24 when it does not say).
pub fn size() -> (u32, u32) {
    match termios::tcgetwinsize(std::io::stdout()) {
        Ok(w) if w.ws_col > 0 && w.ws_row > 0 => (u32::from(w.ws_col), u32::from(w.ws_row)),
        _ => (80, 24),
    }
}

/// Whether the locale asks for UTF-8, as erts's driver decides its
/// starting unicode state (the first of `LC_ALL`, `LC_CTYPE` and `LANG`
/// that is set).
pub fn utf8_locale() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .is_some_and(|s| {
            let s = s.to_ascii_lowercase();
            s.contains("utf-8") || s.contains("utf8")
        })
}
