//! The text backend: every event as one line of text, as OTP's `dbg`
//! prints it with its default handler (`dbg:dhandler/2`), written to any
//! [`Write`] (`beamr run --trace-to text`).
//!
//! Each event is first made the BEAM's trace message
//! ([`trace_message`], [`seq_trace_message`]), then printed as `dbg` prints
//! that message; the shapes, for a tracee `P`:
//!
//! ```text
//! {trace, P, 'receive', Msg}          (P) << Msg
//! {trace, P, send, Msg, To}           (P) To ! Msg
//! {trace, P, call, MFArgs}            (P) call M:F(A1,A2)
//! {trace, P, call, MFArgs, Extra}     (P) call M:F(A1,A2) (Extra)
//! {trace, P, return_from, MFA, V}     (P) returned from M:F/A -> V
//! {trace, P, return_to, MFA}          (P) returning to M:F/A
//! {trace, P, spawn, P2, MFArgs}       (P) spawn P2 as M:F(A1,A2)
//! {trace, P, Tag, E1, ..., En}        (P) Tag E1 ... En        (any other)
//! {seq_trace, L, {send, S, F, T, M}}  SeqTrace [L]: (F) T ! M [Serial: S]
//! {seq_trace, L, {'receive', ...}}    SeqTrace [L]: (T) << M [Serial: S, From: F] (*)
//! {seq_trace, L, {print, S, F, _, I}} SeqTrace [L]: -> I [Serial: S, From: F]
//! ```
//!
//! (*) `dbg` prints that message with `~s`, which fails for any message
//! but a string; here it prints as `~p`.
//!
//! Terms print as `~p` prints them where `dbg`'s format string has a `~p`:
//! pretty, broken at 80 columns, indented from the column they start at;
//! each call argument on its own from column 1 (`dbg` formats them one by
//! one before it joins them with commas). Pids print as `pid_to_list/1`
//! does (`<0.81.0>`). A tracee's events are written in the order they
//! happened; a line is written whole, under one lock, so lines of events
//! on different schedulers never mix.

use std::io::Write;
use std::sync::Mutex;

use beamr_core::format::{format_p, PrettyOptions};
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::event::TraceEvent;
use crate::message::{seq_trace_message, trace_message, Timestamp};
use crate::tag::TraceTag;
use crate::tracee::Tracee;
use crate::tracer::{Decision, Tracer};

/// A tracer that writes each event as `dbg`'s default handler prints it.
pub struct TextTracer {
    out: Mutex<Box<dyn Write + Send>>,
}

impl TextTracer {
    /// Writes to `out` (standard error, a file, a buffer).
    pub fn new(out: Box<dyn Write + Send>) -> TextTracer {
        TextTracer {
            out: Mutex::new(out),
        }
    }

    /// Flushes what was written.
    pub fn flush(&self) -> std::io::Result<()> {
        self.out.lock().unwrap_or_else(|e| e.into_inner()).flush()
    }
}

impl Tracer for TextTracer {
    fn enabled(&self, _tag: TraceTag, _tracee: Tracee) -> Decision {
        Decision::Trace
    }

    fn trace(&self, event: &TraceEvent<'_>) {
        let mut heap = Heap::new();
        let message = if event.tag.is_seq_trace() {
            seq_trace_message(&mut heap, event, Timestamp::None)
        } else {
            trace_message(&mut heap, event, Timestamp::None)
        };
        let Some(line) = message.and_then(dbg_line) else {
            return;
        };
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // A trace that cannot be written (a closed pipe) is lost, as the
        // program's run goes on.
        let _ = out.write_all(line.as_bytes());
    }
}

/// The line (with its newline) `dbg:dhandler/2` prints for the trace
/// message `trace`; `None` for a term that is no trace message.
pub fn dbg_line(trace: Term) -> Option<String> {
    let elems = trace.as_tuple()?;
    let first = elems.first()?.as_atom()?;
    let mut line = Line::default();
    match first.name() {
        "trace" if elems.len() >= 3 => trace_line(&mut line, elems),
        "seq_trace" if elems.len() >= 3 => seq_trace_line(&mut line, elems[1], elems[2]),
        _ => return None,
    }
    line.text.push('\n');
    Some(line.text)
}

/// `{trace, Tracee, Tag, ...}`.
fn trace_line(line: &mut Line, elems: &[Term]) {
    let from = elems[1];
    let tag = elems[2].as_atom().map(|a| a.name());
    let rest = &elems[3..];
    line.who(from);
    match (tag, rest) {
        (Some("receive"), [message]) => {
            line.push("<< ");
            line.p(*message);
        }
        (Some("send"), [message, to]) => {
            line.name(*to);
            line.push(" ! ");
            line.p(*message);
        }
        (Some("call"), [mfa]) => {
            line.push("call ");
            line.func(*mfa);
        }
        (Some("call"), [mfa, extra]) => {
            line.push("call ");
            line.func(*mfa);
            line.push(" (");
            line.p(*extra);
            line.push(")");
        }
        (Some("return_from"), [mfa, value]) => {
            line.push("returned from ");
            line.func(*mfa);
            line.push(" -> ");
            line.p(*value);
        }
        (Some("return_to"), [mfa]) => {
            line.push("returning to ");
            line.func(*mfa);
        }
        (Some("spawn"), [pid, mfa]) => {
            line.push("spawn ");
            line.p(*pid);
            line.push(" as ");
            line.func(*mfa);
        }
        _ => {
            line.p(elems[2]);
            line.push(" ");
            for (i, &e) in rest.iter().enumerate() {
                if i > 0 {
                    line.push(" ");
                }
                line.push(&alone(e));
            }
        }
    }
}

/// `{seq_trace, Label, Info}`.
fn seq_trace_line(line: &mut Line, label: Term, info: Term) {
    line.push("SeqTrace [");
    line.p(label);
    line.push("]: ");
    let kind = info
        .as_tuple()
        .and_then(|t| Some((t.first()?.as_atom()?, t)));
    match kind {
        Some((tag, &[_, serial, from, to, message])) if tag.name() == "send" => {
            line.who(from);
            line.name(to);
            line.push(" ! ");
            line.p(message);
            line.push(" [Serial: ");
            line.p(serial);
            line.push("]");
        }
        Some((tag, &[_, serial, from, to, message])) if tag.name() == "receive" => {
            line.who(to);
            line.push("<< ");
            line.p(message);
            line.push(" [Serial: ");
            line.p(serial);
            line.push(", From: ");
            line.name(from);
            line.push("]");
        }
        Some((tag, &[_, serial, from, _, what])) if tag.name() == "print" => {
            line.push("-> ");
            line.p(what);
            line.push(" [Serial: ");
            line.p(serial);
            line.push(", From: ");
            line.name(from);
            line.push("]");
        }
        _ => line.p(info),
    }
}

/// A line being built, which knows its column.
#[derive(Default)]
struct Line {
    text: String,
}

impl Line {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// The column the next character goes to, from 1.
    fn column(&self) -> usize {
        let start = self.text.rfind('\n').map_or(0, |i| i + 1);
        self.text[start..].chars().count() + 1
    }

    /// `term` as a `~p` at this point of the line.
    fn p(&mut self, term: Term) {
        let options = PrettyOptions {
            column: self.column(),
            ..PrettyOptions::default()
        };
        let text = format_p(term, &options);
        self.push(&text);
    }

    /// `(Pid) `, the prefix of a line about `pid`.
    fn who(&mut self, pid: Term) {
        self.push("(");
        self.name(pid);
        self.push(") ");
    }

    /// A pid (or port, or name) as `dbg` names it with `~s`.
    fn name(&mut self, t: Term) {
        self.push(&alone(t));
    }

    /// `M:F(A1,A2)` for `{M, F, Args}`, `M:F/A` for `{M, F, Arity}`,
    /// anything else as `~p`.
    fn func(&mut self, mfa: Term) {
        match mfa.as_tuple() {
            Some(&[m, f, args]) if args.is_list() => {
                let args: Vec<String> = args
                    .list_to_vec()
                    .unwrap_or_default()
                    .into_iter()
                    .map(alone)
                    .collect();
                let text = format!("{}:{}({})", alone(m), alone(f), args.join(","));
                self.push(&text);
            }
            Some(&[m, f, arity]) => {
                let text = format!("{}:{}/{}", alone(m), alone(f), alone(arity));
                self.push(&text);
            }
            _ => self.p(mfa),
        }
    }
}

/// `term` as `io_lib:format("~p", [Term])` prints it: from column 1.
fn alone(term: Term) -> String {
    format_p(term, &PrettyOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::atom::Atom;

    fn atom(s: &str) -> Term {
        Term::atom(Atom::new(s).unwrap())
    }

    fn line(elems: &[Term], heap: &mut Heap) -> String {
        let t = heap.tuple(elems);
        dbg_line(t).unwrap()
    }

    #[test]
    fn messages_calls_and_returns_print_as_dbg_does() {
        let mut heap = Heap::new();
        let pid = Term::pid(81);
        let other = Term::pid(82);
        let trace = atom("trace");
        let hello = atom("hello");
        assert_eq!(
            line(&[trace, pid, atom("receive"), hello], &mut heap),
            "(<0.81.0>) << hello\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("send"), hello, other], &mut heap),
            "(<0.81.0>) <0.82.0> ! hello\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("send"), hello, atom("srv")], &mut heap),
            "(<0.81.0>) srv ! hello\n"
        );
        let args = heap.list(&[Term::small_unchecked(1), hello]);
        let mfa = heap.tuple(&[atom("m"), atom("f"), args]);
        assert_eq!(
            line(&[trace, pid, atom("call"), mfa], &mut heap),
            "(<0.81.0>) call m:f(1,hello)\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("call"), mfa, pid], &mut heap),
            "(<0.81.0>) call m:f(1,hello) (<0.81.0>)\n"
        );
        let mfa2 = heap.tuple(&[atom("m"), atom("f"), Term::small_unchecked(2)]);
        assert_eq!(
            line(
                &[
                    trace,
                    pid,
                    atom("return_from"),
                    mfa2,
                    Term::small_unchecked(3)
                ],
                &mut heap
            ),
            "(<0.81.0>) returned from m:f/2 -> 3\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("return_to"), mfa2], &mut heap),
            "(<0.81.0>) returning to m:f/2\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("spawn"), other, mfa], &mut heap),
            "(<0.81.0>) spawn <0.82.0> as m:f(1,hello)\n"
        );
        assert_eq!(
            line(&[trace, other, atom("spawned"), pid, mfa], &mut heap),
            "(<0.82.0>) spawned <0.81.0> {m,f,[1,hello]}\n"
        );
        assert_eq!(
            line(&[trace, pid, atom("exit"), atom("normal")], &mut heap),
            "(<0.81.0>) exit normal\n"
        );
    }

    #[test]
    fn long_terms_break_from_the_column_they_start_at() {
        let mut heap = Heap::new();
        let pid = Term::pid(81);
        let items: Vec<Term> = (1..=30).map(Term::small_unchecked).collect();
        let list = heap.list(&items);
        let value = heap.tuple(&[Term::small_unchecked(1), list]);
        let mfa = heap.tuple(&[atom("dh"), atom("f"), Term::small_unchecked(1)]);
        let text = line(
            &[atom("trace"), pid, atom("return_from"), mfa, value],
            &mut heap,
        );
        assert_eq!(
            text,
            "(<0.81.0>) returned from dh:f/1 -> {1,\n\
             \x20                                   [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,\n\
             \x20                                    17,18,19,20,21,22,23,24,25,26,27,28,29,\n\
             \x20                                    30]}\n"
        );
    }

    #[test]
    fn other_terms_are_not_lines() {
        assert_eq!(dbg_line(atom("trace")), None);
        let mut heap = Heap::new();
        let t = heap.tuple(&[atom("other"), atom("x"), atom("y")]);
        assert_eq!(dbg_line(t), None);
    }
}
