//! The terminal description prim_tty asks for, answered from the system's
//! terminfo database as ncurses answers: termcap style up to OTP 27
//! (`tgetent`, `tgetnum`, `tgetflag`, `tgetstr`, `tgoto`; a capability is
//! named by its first two letters, so `tgetstr("clear")` is `cl`) and
//! terminfo style from OTP 28 (`setupterm`, `tigetnum`, `tigetflag`,
//! `tigetstr`, `tputs`; a capability is named by its terminfo name, and a
//! termcap code such as `xn` is not one). String capabilities come back
//! unexpanded.

use std::sync::Mutex;

use terminfo::{names, Database, Value};

/// How a capability is named.
#[derive(Clone, Copy, Debug)]
pub enum Naming {
    /// By its termcap code (the first two letters of what is asked).
    Termcap,
    /// By its terminfo name.
    Terminfo,
}

/// The description `tgetent` loaded.
static LOADED: Mutex<Option<Database>> = Mutex::new(None);

/// Loads the description of terminal type `name`; false when the
/// database has none.
pub fn load(name: &str) -> bool {
    match Database::from_name(name) {
        Ok(db) => {
            *LOADED
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(db);
            true
        }
        Err(_) => false,
    }
}

/// Capability `id` of the loaded description, named as `naming` says.
fn value<T>(id: &str, naming: Naming, read: impl FnOnce(&Value) -> Option<T>) -> Option<T> {
    // The crate's tables map each full name to its short one.
    let full = match naming {
        Naming::Termcap => {
            let code: String = id.chars().take(2).collect();
            names::TERMCAP
                .entries()
                .find(|(_, short)| **short == code)
                .map(|(full, _)| *full)
        }
        Naming::Terminfo => names::TERMINFO
            .entries()
            .find(|(_, short)| **short == id)
            .map(|(full, _)| *full),
    }?;
    let loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.as_ref()?.raw(full).and_then(read)
}

/// A numeric capability.
pub fn number(id: &str, naming: Naming) -> Option<i32> {
    value(id, naming, |v| match v {
        Value::Number(n) => Some(*n),
        _ => None,
    })
}

/// A boolean capability (absent is false).
pub fn flag(id: &str, naming: Naming) -> bool {
    value(id, naming, |v| matches!(v, Value::True).then_some(())).is_some()
}

/// A string capability, as stored.
pub fn string(id: &str, naming: Naming) -> Option<Vec<u8>> {
    value(id, naming, |v| match v {
        Value::String(s) => Some(s.clone()),
        _ => None,
    })
}

/// `tgoto` and `tputs`: the parameterized string `cap` with its parameters put in
/// (terminfo's `%p1`/`%p2` and `%d`, `%i` and `%%`, which is what the
/// cursor and insert/delete strings use).
pub fn expand(cap: &[u8], params: &[i64]) -> Vec<u8> {
    let mut params: Vec<i64> = params.to_vec();
    let mut stack: Vec<i64> = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cap.len() {
        let c = cap[i];
        i += 1;
        if c != b'%' || i == cap.len() {
            out.push(c);
            continue;
        }
        let op = cap[i];
        i += 1;
        match op {
            b'%' => out.push(b'%'),
            b'i' => params.iter_mut().take(2).for_each(|p| *p += 1),
            b'p' if i < cap.len() => {
                let n = usize::from(cap[i].wrapping_sub(b'1'));
                i += 1;
                stack.push(params.get(n).copied().unwrap_or(0));
            }
            b'd' => {
                let v = stack.pop().unwrap_or_else(|| {
                    // termcap style: the parameters in order.
                    if params.is_empty() {
                        0
                    } else {
                        params.remove(0)
                    }
                });
                out.extend_from_slice(v.to_string().as_bytes());
            }
            other => {
                out.push(b'%');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{expand, load, number, string, Naming};

    #[test]
    fn xterm_answers_by_either_naming() {
        if !load("xterm") {
            return; // no terminfo database on this machine
        }
        assert_eq!(
            string("up", Naming::Termcap).as_deref(),
            Some(&b"\x1b[A"[..])
        );
        assert_eq!(
            string("cuu1", Naming::Terminfo).as_deref(),
            Some(&b"\x1b[A"[..])
        );
        assert_eq!(number("cols", Naming::Terminfo), Some(80));
        assert_eq!(number("co", Naming::Termcap), Some(80));
        // A termcap code is no terminfo name.
        assert_eq!(number("co", Naming::Terminfo), None);
    }

    #[test]
    fn parameters_go_where_the_string_says() {
        assert_eq!(expand(b"\x1b[%p1%d@", &[3]), b"\x1b[3@");
        assert_eq!(expand(b"\x1b[%i%p1%d;%p2%dH", &[4, 9]), b"\x1b[5;10H");
        assert_eq!(expand(b"100%%", &[]), b"100%");
    }
}
