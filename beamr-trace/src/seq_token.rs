//! [`SeqToken`]: a `seq_trace` token, as the BEAM keeps it and
//! `seq_trace:get_token/0` shows it.
//!
//! A token is the 5-tuple `{Flags, Label, Serial, From, LastCnt}`:
//!
//! ```text
//! element  name     what
//! 1        Flags    bits below (send 1, 'receive' 2, print 4, timestamp 8,
//!                   strict_monotonic_timestamp 16, monotonic_timestamp 32)
//! 2        Label    any term (seq_trace:set_token(label, L))
//! 3        Serial   the serial of the last send or print (`Current`)
//! 4        From     the process that last stamped the token (sent or printed)
//! 5        LastCnt  the serial received last (`Previous`)
//! ```
//!
//! The empty token is `[]`. A process also keeps two counters beside its
//! token, `clock` (`curr_cnt`) and `lastcnt` (`prev_cnt`); the rules that
//! move them (sending stamps the token with `{lastcnt, clock + 1}`, a
//! received token raises `clock` and sets `lastcnt`) live with the process
//! in beamr-sched. Here is only the term: reading it and building it.

use beamr_core::heap::Heap;
use beamr_core::term::Term;

/// The token's flag bits, as erts numbers them (`seq_trace.erl` decodes the
/// same numbers).
pub mod flags {
    /// `send`: a send with the token goes to the system tracer.
    pub const SEND: u32 = 1;
    /// `'receive'`: a receive of a message with the token does.
    pub const RECEIVE: u32 = 2;
    /// `print`: `seq_trace:print/1,2` does.
    pub const PRINT: u32 = 4;
    /// `timestamp`: messages carry `{MegaSecs, Secs, MicroSecs}`.
    pub const NOW_TIMESTAMP: u32 = 8;
    /// `strict_monotonic_timestamp`: `{Monotonic, Unique}` (wins over the others).
    pub const STRICT_MONOTONIC_TIMESTAMP: u32 = 16;
    /// `monotonic_timestamp`: Erlang monotonic time in nanoseconds.
    pub const MONOTONIC_TIMESTAMP: u32 = 32;

    /// The flag named by a `seq_trace:set_token/2` component, if it is one.
    pub fn from_name(name: &str) -> Option<u32> {
        Some(match name {
            "send" => SEND,
            "receive" => RECEIVE,
            "print" => PRINT,
            "timestamp" => NOW_TIMESTAMP,
            "strict_monotonic_timestamp" => STRICT_MONOTONIC_TIMESTAMP,
            "monotonic_timestamp" => MONOTONIC_TIMESTAMP,
            _ => return None,
        })
    }
}

/// A non-empty token, read out of its tuple.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SeqToken {
    /// The flag bits ([`flags`]).
    pub flags: u32,
    /// The label (a term on whatever heap the token lives on).
    pub label: Term,
    /// `Current`: the serial of the last send or print.
    pub serial: u64,
    /// The process that stamped the token last.
    pub from: Term,
    /// `Previous`: the serial received last.
    pub lastcnt: u64,
}

impl SeqToken {
    /// A fresh token for `from` (what the first `set_token/2` makes): no
    /// flags, label 0, serial 0, and `lastcnt` from the process's counter.
    pub fn new(from: Term, lastcnt: u64) -> SeqToken {
        SeqToken {
            flags: 0,
            label: Term::small_unchecked(0),
            serial: 0,
            from,
            lastcnt,
        }
    }

    /// Reads a token tuple; `None` for `[]` or anything that is not a
    /// well-formed token.
    pub fn read(term: Term) -> Option<SeqToken> {
        let &[flags, label, serial, from, lastcnt] = term.as_tuple()? else {
            return None;
        };
        let small = |t: Term| t.as_small().and_then(|n| u64::try_from(n).ok());
        Some(SeqToken {
            flags: u32::try_from(small(flags)?).ok()?,
            label,
            serial: small(serial)?,
            from,
            lastcnt: small(lastcnt)?,
        })
    }

    /// The token as its tuple on `heap` (the label is not copied: it must
    /// already live on `heap`, or be an immediate).
    pub fn build(&self, heap: &mut Heap) -> Term {
        let small = |n: u64| Term::small_unchecked(n as i64);
        heap.tuple(&[
            small(self.flags as u64),
            self.label,
            small(self.serial),
            self.from,
            small(self.lastcnt),
        ])
    }

    /// True if `flag` (one of [`flags`]) is set.
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_through_their_tuple() {
        let mut heap = Heap::new();
        let token = SeqToken {
            flags: flags::SEND | flags::PRINT,
            label: Term::small_unchecked(17),
            serial: 48,
            from: Term::pid(7),
            lastcnt: 47,
        };
        let t = token.build(&mut heap);
        assert_eq!(SeqToken::read(t), Some(token));
        assert!(token.has(flags::PRINT) && !token.has(flags::RECEIVE));
        assert_eq!(SeqToken::read(Term::NIL), None);
        let fresh = SeqToken::new(Term::pid(1), 3);
        assert_eq!((fresh.flags, fresh.serial, fresh.lastcnt), (0, 0, 3));
        assert_eq!(flags::from_name("receive"), Some(flags::RECEIVE));
        assert_eq!(flags::from_name("label"), None);
    }
}
