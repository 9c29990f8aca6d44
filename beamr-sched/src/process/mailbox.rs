//! The process-private message queue, with the save pointer that selective
//! receive walks and the receive markers that let it skip old messages.
//!
//! Each message also has a `seq_trace` token word: `[]` (the message carries
//! no token: receiving it empties the receiver's token, as on the BEAM),
//! `undefined` (a message of the runtime's own: receiving it leaves the
//! token alone) or the token tuple. The words live in a second list that
//! stays empty, meaning "all `[]`", until a message with another word
//! arrives; from then on it runs beside the messages, one word each. So a
//! program that never uses `seq_trace` pays one null-pointer test per
//! received message (the list is boxed: one word in every mailbox).

use std::collections::VecDeque;

use beamr_core::term::Term;
use thin_vec::ThinVec;

/// Received messages not yet removed, oldest first.
#[derive(Default)]
pub struct Mailbox {
    messages: VecDeque<Term>,
    /// The messages' token words (see the module docs): none, or exactly
    /// as long as `messages`.
    // Boxed on purpose: one word in every process's mailbox, where the
    // deque itself is four.
    #[allow(clippy::box_collection)]
    tokens: Option<Box<VecDeque<Term>>>,
    /// Index of the next message `loop_rec` looks at.
    cursor: usize,
    /// Receive markers: a reference's id words and the queue length when reserved.
    markers: ThinVec<([u32; 3], usize)>,
}

impl Mailbox {
    /// Appends a message that carries no token.
    pub fn push(&mut self, message: Term) {
        self.messages.push_back(message);
        if let Some(tokens) = self.tokens.as_mut() {
            tokens.push_back(Term::NIL);
        }
    }

    /// Appends a message with its token word (`[]`, `undefined` or a token
    /// tuple on the process's heap).
    pub fn push_with_token(&mut self, message: Term, token: Term) {
        if token == Term::NIL {
            return self.push(message);
        }
        let len = self.messages.len();
        let tokens = self
            .tokens
            .get_or_insert_with(|| Box::new(VecDeque::from(vec![Term::NIL; len])));
        tokens.push_back(token);
        self.messages.push_back(message);
    }

    /// The token word of the message under the cursor (`[]` when there is
    /// none).
    #[inline]
    pub fn current_token(&self) -> Term {
        match &self.tokens {
            None => Term::NIL,
            Some(tokens) => tokens.get(self.cursor).copied().unwrap_or(Term::NIL),
        }
    }

    /// How many token words the mailbox keeps: zero while every message's
    /// word is `[]`, else one per message (see the module docs).
    #[inline]
    pub fn token_words(&self) -> usize {
        self.tokens.as_ref().map_or(0, |tokens| tokens.len())
    }

    /// True once a message with a token word other than `[]` arrived
    /// (until [`clear_tokens`](Self::clear_tokens)): one pointer test, for
    /// the receive path's gate.
    #[inline]
    pub fn has_token_words(&self) -> bool {
        self.tokens.is_some()
    }

    /// Empties every message's token word (`seq_trace:reset_trace/0`).
    pub fn clear_tokens(&mut self) {
        self.tokens = None;
    }

    /// The messages and their token words (empty while every word is
    /// `[]`), each as one slice: the collector's roots.
    pub fn roots_mut(&mut self) -> (&mut [Term], &mut [Term]) {
        (
            self.messages.make_contiguous(),
            match self.tokens.as_mut() {
                Some(tokens) => tokens.make_contiguous(),
                None => &mut [],
            },
        )
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
            if let Some(tokens) = self.tokens.as_mut() {
                tokens.remove(self.cursor);
            }
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
        match self.tokens.as_mut() {
            None => self.messages.retain(|&m| !pred(m)),
            Some(tokens) => {
                let kept: Vec<(Term, Term)> = self
                    .messages
                    .iter()
                    .copied()
                    .zip(tokens.iter().copied())
                    .filter(|&(m, _)| !pred(m))
                    .collect();
                (self.messages, **tokens) = kept.into_iter().unzip();
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn small(n: i64) -> Term {
        Term::small_unchecked(n)
    }

    #[test]
    fn token_words_follow_their_messages() {
        let mut m = Mailbox::default();
        m.push(small(1));
        assert!(m.roots_mut().1.is_empty(), "no tokens: no second queue");
        let token = Term::atom(beamr_core::atom::Atom::UNDEFINED);
        m.push_with_token(small(2), token);
        m.push(small(3));
        assert_eq!(m.roots_mut().1.len(), 3);
        assert_eq!(m.current_token(), Term::NIL);
        m.advance();
        assert_eq!(m.current_token(), token);
        m.remove_current();
        assert_eq!(m.iter().collect::<Vec<_>>(), [small(1), small(3)]);
        assert_eq!(m.current_token(), Term::NIL);
        m.push_with_token(small(4), token);
        assert!(m.remove_where(|t| t == small(1)));
        m.advance();
        assert_eq!(m.current(), Some(small(4)));
        assert_eq!(m.current_token(), token);
        m.clear_tokens();
        assert_eq!(m.current_token(), Term::NIL);
    }
}
