//! Exceptions: class, reason, and what the stack trace is built from.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

/// The class of an exception.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// `error`: a run-time error or `erlang:error/1,2`.
    Error,
    /// `exit`: `erlang:exit/1`.
    Exit,
    /// `throw`: `erlang:throw/1`.
    Throw,
}

impl Class {
    /// The class as an atom.
    pub fn atom(self) -> Atom {
        match self {
            Class::Error => Atom::ERROR,
            Class::Exit => Atom::EXIT_CLASS,
            Class::Throw => Atom::THROW,
        }
    }

    /// The class named by an atom.
    pub fn from_atom(atom: Atom) -> Option<Class> {
        match atom {
            Atom::ERROR => Some(Class::Error),
            Atom::EXIT_CLASS => Some(Class::Exit),
            Atom::THROW => Some(Class::Throw),
            _ => None,
        }
    }
}

/// An exception being raised. Terms live on the raising process's heap.
#[derive(Copy, Clone, Debug)]
pub struct Exception {
    /// Class.
    pub class: Class,
    /// Reason.
    pub reason: Term,
    /// For an error raised by a BIF or `erlang:error/2`: the arguments, shown
    /// in the first stack frame; `NON_VALUE` otherwise.
    pub args: Term,
    /// A stack trace given explicitly (`erlang:raise/3`); `NON_VALUE` to
    /// build one from the stack.
    pub trace: Term,
    /// The function whose frame comes first in the stack trace, shown with
    /// `args` (a BIF that failed, or a function no clause matched).
    pub mfa: Option<(Atom, Atom)>,
    /// `erlang:error/3`'s `{error_info, Map}` option: the map, shown at the
    /// end of the raising frame's location; for an error raised by a BIF,
    /// the cause shown in its frame's `#{cause => Cause, module => M}`
    /// (as the BEAM's `EXF_HAS_EXT_INFO`). `NON_VALUE` when none. Consumed
    /// when the stack trace is built (it is not a GC root afterwards).
    pub error_info: Term,
}

impl Exception {
    /// An `error` with `reason`.
    pub fn error(reason: Term) -> Exception {
        Exception {
            class: Class::Error,
            reason,
            args: Term::NON_VALUE,
            trace: Term::NON_VALUE,
            mfa: None,
            error_info: Term::NON_VALUE,
        }
    }

    /// `error:badarg`.
    pub fn badarg() -> Exception {
        Exception::error(Term::atom(Atom::BADARG))
    }

    /// `error:badarg` from a BIF, with `cause` (an immediate, such as an
    /// atom) for its frame's `error_info`.
    pub fn badarg_cause(cause: Term) -> Exception {
        Exception {
            error_info: cause,
            ..Exception::badarg()
        }
    }

    /// `error:badarith`.
    pub fn badarith() -> Exception {
        Exception::error(Term::atom(Atom::BADARITH))
    }

    /// `error:system_limit`.
    pub fn system_limit() -> Exception {
        Exception::error(Term::atom(Atom::SYSTEM_LIMIT))
    }

    /// An `exit` with `reason`.
    pub fn exit(reason: Term) -> Exception {
        Exception {
            class: Class::Exit,
            reason,
            args: Term::NON_VALUE,
            trace: Term::NON_VALUE,
            mfa: None,
            error_info: Term::NON_VALUE,
        }
    }

    /// A `throw` of `value`.
    pub fn throw(value: Term) -> Exception {
        Exception {
            class: Class::Throw,
            reason: value,
            args: Term::NON_VALUE,
            trace: Term::NON_VALUE,
            mfa: None,
            error_info: Term::NON_VALUE,
        }
    }
}
