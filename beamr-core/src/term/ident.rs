//! Identifiers that name things: references, and pids and ports of other
//! nodes. (Local pids and ports are immediates; see [`Term::pid`].)

use super::header::Subtag;
use super::word::Term;
use crate::atom::Atom;

/// A reference's identity, local or external.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RefView {
    /// The node (`nonode@nohost` for a local reference).
    pub node: Atom,
    /// The node's creation (0 for a local reference).
    pub creation: u32,
    /// The 32-bit id words, least significant first (up to 5).
    pub ids: [u32; 5],
    /// How many of `ids` are used.
    pub len: usize,
}

impl RefView {
    /// The used id words.
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len]
    }
}

/// A pid of another node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExternalPidView {
    /// The node.
    pub node: Atom,
    /// The pid's number.
    pub id: u32,
    /// The pid's serial.
    pub serial: u32,
    /// The node's creation.
    pub creation: u32,
}

/// A port of another node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExternalPortView {
    /// The node.
    pub node: Atom,
    /// The port's number.
    pub id: u64,
    /// The node's creation.
    pub creation: u32,
}

/// Unpacks `len` 32-bit words stored two per 64-bit word, low half first.
pub(crate) fn unpack_u32s(words: &[u64], len: usize) -> [u32; 5] {
    let mut ids = [0u32; 5];
    for (i, id) in ids.iter_mut().enumerate().take(len.min(5)) {
        let w = words[i / 2];
        *id = if i % 2 == 0 {
            w as u32
        } else {
            (w >> 32) as u32
        };
    }
    ids
}

/// Packs 32-bit words two per 64-bit word, low half first.
pub(crate) fn pack_u32s(ids: &[u32]) -> Vec<u64> {
    ids.chunks(2)
        .map(|pair| pair[0] as u64 | (pair.get(1).copied().unwrap_or(0) as u64) << 32)
        .collect()
}

impl Term {
    /// A view of a reference, local or external.
    pub fn as_ref(self) -> Option<RefView> {
        match self.subtag()? {
            Subtag::Ref => Some(RefView {
                node: Atom::NONODE_NOHOST,
                creation: 0,
                ids: unpack_u32s(self.boxed_words(), 3),
                len: 3,
            }),
            Subtag::ExternalRef => {
                let w = self.boxed_words();
                let len = (w[2] as usize).min(5);
                Some(RefView {
                    node: Term::from_word(w[0]).as_atom()?,
                    creation: w[1] as u32,
                    ids: unpack_u32s(&w[3..], len),
                    len,
                })
            }
            _ => None,
        }
    }

    /// True for a reference.
    #[inline]
    pub fn is_reference(self) -> bool {
        matches!(self.subtag(), Some(Subtag::Ref | Subtag::ExternalRef))
    }

    /// A view of another node's pid.
    pub fn as_external_pid(self) -> Option<ExternalPidView> {
        if !self.is_boxed_with(Subtag::ExternalPid) {
            return None;
        }
        let w = self.boxed_words();
        Some(ExternalPidView {
            node: Term::from_word(w[0]).as_atom()?,
            id: w[1] as u32,
            serial: w[2] as u32,
            creation: w[3] as u32,
        })
    }

    /// A view of another node's port.
    pub fn as_external_port(self) -> Option<ExternalPortView> {
        if !self.is_boxed_with(Subtag::ExternalPort) {
            return None;
        }
        let w = self.boxed_words();
        Some(ExternalPortView {
            node: Term::from_word(w[0]).as_atom()?,
            id: w[1],
            creation: w[2] as u32,
        })
    }

    /// True for a pid, local or external.
    #[inline]
    pub fn is_pid(self) -> bool {
        self.is_local_pid() || self.is_boxed_with(Subtag::ExternalPid)
    }

    /// True for a port, local or external.
    #[inline]
    pub fn is_port(self) -> bool {
        self.is_local_port() || self.is_boxed_with(Subtag::ExternalPort)
    }
}
