//! The process-private message queue, with the save pointer that selective
//! receive walks and the receive markers that let it skip old messages.

use std::collections::VecDeque;

use beamr_core::term::Term;

/// Received messages not yet removed, oldest first.
#[derive(Default)]
pub struct Mailbox {
    messages: VecDeque<Term>,
    /// Index of the next message `loop_rec` looks at.
    cursor: usize,
    /// Receive markers: a reference's id words and the queue length when reserved.
    markers: Vec<([u32; 3], usize)>,
}

impl Mailbox {
    /// Appends a message.
    pub fn push(&mut self, message: Term) {
        self.messages.push_back(message);
    }

    /// The message under the cursor.
    pub fn current(&self) -> Option<Term> {
        self.messages.get(self.cursor).copied()
    }

    /// Moves the cursor to the next message.
    pub fn advance(&mut self) {
        self.cursor += 1;
    }

    /// Removes the message under the cursor and resets the cursor.
    pub fn remove_current(&mut self) {
        if self.cursor < self.messages.len() {
            self.messages.remove(self.cursor);
        }
        for (_, pos) in &mut self.markers {
            if *pos > self.cursor {
                *pos -= 1;
            }
        }
        self.cursor = 0;
    }

    /// Removes every message for which `pred` holds; true if any was removed.
    pub fn remove_where(&mut self, mut pred: impl FnMut(Term) -> bool) -> bool {
        let before = self.messages.len();
        self.messages.retain(|&m| !pred(m));
        self.cursor = 0;
        self.messages.len() != before
    }

    /// Resets the cursor to the oldest message (after a timeout).
    pub fn reset(&mut self) {
        self.cursor = 0;
    }

    /// True if some message has not been looked at by the current receive.
    pub fn has_unseen(&self) -> bool {
        self.cursor < self.messages.len()
    }

    /// Number of messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// The messages, oldest first, as one slice (for the collector's roots).
    pub fn as_mut_slice(&mut self) -> &mut [Term] {
        self.messages.make_contiguous()
    }

    /// Iterates the messages, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = Term> + '_ {
        self.messages.iter().copied()
    }

    /// `recv_marker_bind`: ties a position reserved by `recv_marker_reserve`
    /// (the queue length then) to a reference.
    pub fn bind_marker(&mut self, id: [u32; 3], pos: usize) {
        self.markers.retain(|(m, _)| *m != id);
        self.markers.push((id, pos));
    }

    /// `recv_marker_use`: starts the scan at the marked position (messages
    /// before it cannot contain the reference).
    pub fn use_marker(&mut self, id: [u32; 3]) {
        if let Some(&(_, pos)) = self.markers.iter().find(|(m, _)| *m == id) {
            self.cursor = self.cursor.max(pos.min(self.messages.len()));
        }
    }

    /// `recv_marker_clear`: forgets a marker.
    pub fn clear_marker(&mut self, id: [u32; 3]) {
        self.markers.retain(|(m, _)| *m != id);
    }
}
