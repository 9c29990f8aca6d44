//! The terminal description prim_tty asks for, termcap style (`tgetent`,
//! `tgetnum`, `tgetflag`, `tgetstr`, `tgoto`), answered from the system's
//! terminfo database as ncurses answers termcap calls: a capability is
//! named by its first two letters (`tgetstr("clear")` is `cl`), and the
//! string capabilities come back unexpanded.

use std::sync::Mutex;

use terminfo::{Database, Value};

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

/// Capability `id` of the loaded description, looked up by its termcap
/// code (its first two letters).
fn value<T>(id: &str, read: impl FnOnce(&Value) -> Option<T>) -> Option<T> {
    let code: String = id.chars().take(2).collect();
    let loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.as_ref()?.raw(&code).and_then(read)
}

/// A numeric capability.
pub fn number(id: &str) -> Option<i32> {
    value(id, |v| match v {
        Value::Number(n) => Some(*n),
        _ => None,
    })
}

/// A boolean capability (absent is false).
pub fn flag(id: &str) -> bool {
    value(id, |v| matches!(v, Value::True).then_some(())).is_some()
}

/// A string capability, as stored.
pub fn string(id: &str) -> Option<Vec<u8>> {
    value(id, |v| match v {
        Value::String(s) => Some(s.clone()),
        _ => None,
    })
}

/// `tgoto`: the parameterized string `cap` with its parameters put in
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
    use super::expand;

    #[test]
    fn parameters_go_where_the_string_says() {
        assert_eq!(expand(b"\x1b[%p1%d@", &[3]), b"\x1b[3@");
        assert_eq!(expand(b"\x1b[%i%p1%d;%p2%dH", &[4, 9]), b"\x1b[5;10H");
        assert_eq!(expand(b"100%%", &[]), b"100%");
    }
}
