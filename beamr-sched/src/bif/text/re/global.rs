//! `re:run/3` with `global`: every match, as OTP's `re:grun/3` loop finds
//! them (the BEAM traps to that Erlang loop; beamr runs it natively).
//!
//! After a non-empty match the next search starts at its end. After an
//! empty match at `A`, found searching from `X`, the loop tries a
//! non-empty match anchored at `X` (`notempty_atstart`); if that finds a
//! different match of length `N` the search goes on from `A + N`,
//! otherwise from one character past `A` (a `\r\n` pair is one character
//! when the newline convention counts it as one) when the empty match was
//! at `X` or at the end, and from `A` itself otherwise. A match equal to
//! the one just before it is not reported twice.
//!
//! Up to OTP 27 the loop was simpler (`legacy`): after an empty match it
//! always reported the anchored non-empty match if there was one, and
//! otherwise went on one character past `A`. beamr follows the release
//! whose library it runs.

use super::capture::{loop_list, Group, Values};
use super::engine::{Compiled, Outcome};

/// What the loop ends with.
pub(super) enum Found {
    /// Each match's groups (the whole match first), in order.
    Matches(Vec<Vec<Group>>),
    /// A limit was reached and `report_errors` asks to say so.
    Error(Outcome),
    /// The subject is not valid UTF-8, or the offset is bad.
    BadArg,
}

/// Runs the loop over `subject` from `offset`.
pub(super) fn run(
    base: &Compiled,
    nonempty_anchored: &Compiled,
    subject: &[u8],
    offset: usize,
    values: &Values,
    unicode: bool,
    report_errors: bool,
) -> Found {
    let legacy = crate::code::otp_release() < 28;
    let end = subject.len();
    let mut found: Vec<Vec<Group>> = Vec::new();
    let mut x = offset;
    let mut skip: Option<Vec<Group>> = None;
    while x <= end {
        let groups = match base.exec(subject, x) {
            Outcome::Match(g) => g,
            Outcome::NoMatch => break,
            Outcome::BadArg => return Found::BadArg,
            limit if report_errors => return Found::Error(limit),
            _ => break,
        };
        let list = loop_list(&groups, values);
        let (a, b) = groups[0].unwrap_or((x, x));
        let duplicate = skip.take().is_some_and(|s| s == list);
        if !duplicate {
            found.push(list.clone());
        }
        if b > a {
            x = b;
            continue;
        }
        let again = match nonempty_anchored.exec(subject, x) {
            Outcome::Match(g) => Some(loop_list(&g, values)).filter(|l| legacy || *l != list),
            _ => None,
        };
        let step = again.as_ref().and_then(|l| l[0]).map_or(0, |(s, e)| e - s);
        x = if step > 0 {
            a + step
        } else if legacy || x == a || a == end {
            forward(subject, a, unicode, base.newline.crlf())
        } else {
            a
        };
        match again {
            Some(l) => found.push(l),
            None if legacy => {}
            None => skip = Some(list),
        }
    }
    Found::Matches(found)
}

/// One character past `at`.
fn forward(subject: &[u8], at: usize, unicode: bool, crlf: bool) -> usize {
    let rest = subject.get(at..).unwrap_or_default();
    if crlf && rest.starts_with(b"\r\n") {
        return at + 2;
    }
    if !unicode {
        return at + 1;
    }
    at + match rest.first() {
        Some(&b) if b & 0xE0 == 0xC0 => 2,
        Some(&b) if b & 0xF0 == 0xE0 => 3,
        Some(&b) if b & 0xF8 == 0xF0 => 4,
        _ => 1,
    }
}
