//! [`Tracee`]: the process or port a trace probe fired in.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

/// The identity of a tracee: a local process or port, by number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TraceeId {
    /// A local process: the number of its pid (`Term::pid(n)`).
    Pid(u64),
    /// A local port: the number of its port (`Term::port(n)`).
    Port(u64),
}

/// The traced process or port, with its registered name when it has one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tracee {
    /// Which process or port.
    pub id: TraceeId,
    /// Its registered name, if any (`register/2`).
    pub name: Option<Atom>,
}

impl Tracee {
    /// The local process with pid number `n`, unregistered.
    pub const fn pid(n: u64) -> Tracee {
        Tracee {
            id: TraceeId::Pid(n),
            name: None,
        }
    }

    /// The local port with number `n`, unregistered.
    pub const fn port(n: u64) -> Tracee {
        Tracee {
            id: TraceeId::Port(n),
            name: None,
        }
    }

    /// The same tracee, registered as `name`.
    pub const fn with_name(self, name: Atom) -> Tracee {
        Tracee {
            id: self.id,
            name: Some(name),
        }
    }

    /// The tracee as a term: its local pid or port.
    pub const fn term(self) -> Term {
        match self.id {
            TraceeId::Pid(n) => Term::pid(n),
            TraceeId::Port(n) => Term::port(n),
        }
    }

    /// The tracee a local pid or port term names (no registered name), or
    /// `None` for any other term.
    pub fn from_term(term: Term) -> Option<Tracee> {
        if let Some(n) = term.as_local_pid() {
            Some(Tracee::pid(n))
        } else {
            term.as_local_port().map(Tracee::port)
        }
    }

    /// True for a process.
    pub const fn is_pid(self) -> bool {
        matches!(self.id, TraceeId::Pid(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_round_trip() {
        let p = Tracee::pid(42);
        assert_eq!(p.term(), Term::pid(42));
        assert_eq!(Tracee::from_term(Term::pid(42)), Some(p));
        assert_eq!(Tracee::from_term(Term::port(3)), Some(Tracee::port(3)));
        assert_eq!(Tracee::from_term(Term::NIL), None);
        assert!(p.is_pid() && !Tracee::port(3).is_pid());
        let named = p.with_name(Atom::new("logger").unwrap());
        assert_eq!(named.name.map(Atom::name), Some("logger"));
        assert_eq!(named.id, p.id);
    }
}
