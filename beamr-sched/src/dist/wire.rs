//! Distribution frames as this node writes and reads them.
//!
//! Without the atom cache in the distribution header (not advertised, see
//! `flags`), every frame after the handshake is a pass-through frame, in
//! the socket's `{packet, 4}` packets:
//!
//! ```text
//! +-----+------------------------+-------------------------+
//! | 112 | 131, Control (ETF)     | 131, Message (ETF)      |
//! +-----+------------------------+-------------------------+
//!  1 byte  a tuple, its first       only for the control
//!          element the operation    messages that carry one
//! ```
//!
//! An empty packet is a tick. Anything else (another first byte, a
//! control that is not a tuple with an integer first, bytes left over)
//! is malformed: the connection is closed with the reason logged.

use beamr_core::etf::{decode_used, try_encode};
use beamr_core::heap::Heap;
use beamr_core::term::Term;

/// The pass-through frame's first byte.
pub const PASS_THROUGH: u8 = 112;

/// The control messages' operations (erts's `dist.h`).
pub mod op {
    /// `{1, FromPid, ToPid}`
    pub const LINK: i64 = 1;
    /// `{2, Unused, ToPid}` + Message
    pub const SEND: i64 = 2;
    /// `{3, FromPid, ToPid, Reason}`
    pub const EXIT: i64 = 3;
    /// `{6, FromPid, Unused, ToName}` + Message
    pub const REG_SEND: i64 = 6;
    /// `{7, FromPid, ToPid}`
    pub const GROUP_LEADER: i64 = 7;
    /// `{8, FromPid, ToPid, Reason}`
    pub const EXIT2: i64 = 8;
    /// `{12, Unused, ToPid, Token}` + Message
    pub const SEND_TT: i64 = 12;
    /// `{13, FromPid, ToPid, Token, Reason}`
    pub const EXIT_TT: i64 = 13;
    /// `{16, FromPid, Unused, ToName, Token}` + Message
    pub const REG_SEND_TT: i64 = 16;
    /// `{18, FromPid, ToPid, Token, Reason}`
    pub const EXIT2_TT: i64 = 18;
    /// `{19, FromPid, ToProc, Ref}`
    pub const MONITOR_P: i64 = 19;
    /// `{20, FromPid, ToProc, Ref}`
    pub const DEMONITOR_P: i64 = 20;
    /// `{21, FromProc, ToPid, Ref, Reason}`
    pub const MONITOR_P_EXIT: i64 = 21;
    /// `{22, FromPid, ToPid}` + Message
    pub const SEND_SENDER: i64 = 22;
    /// `{23, FromPid, ToPid, Token}` + Message
    pub const SEND_SENDER_TT: i64 = 23;
    /// `{24, FromPid, ToPid}` + Reason
    pub const PAYLOAD_EXIT: i64 = 24;
    /// `{25, FromPid, ToPid, Token}` + Reason
    pub const PAYLOAD_EXIT_TT: i64 = 25;
    /// `{26, FromPid, ToPid}` + Reason
    pub const PAYLOAD_EXIT2: i64 = 26;
    /// `{27, FromPid, ToPid, Token}` + Reason
    pub const PAYLOAD_EXIT2_TT: i64 = 27;
    /// `{28, FromProc, ToPid, Ref}` + Reason
    pub const PAYLOAD_MONITOR_P_EXIT: i64 = 28;
    /// `{29, ReqId, From, GroupLeader, {M, F, A}, OptList}` + ArgList
    pub const SPAWN_REQUEST: i64 = 29;
    /// `{30, ReqId, From, GroupLeader, {M, F, A}, OptList, Token}` + ArgList
    pub const SPAWN_REQUEST_TT: i64 = 30;
    /// `{31, ReqId, To, Flags, Result}`
    pub const SPAWN_REPLY: i64 = 31;
    /// `{32, ReqId, To, Flags, Result, Token}`
    pub const SPAWN_REPLY_TT: i64 = 32;
    /// `{33, FromPid, Alias}` + Message
    pub const ALIAS_SEND: i64 = 33;
    /// `{34, FromPid, Alias, Token}` + Message
    pub const ALIAS_SEND_TT: i64 = 34;
    /// `{35, Id, FromPid, ToPid}`
    pub const UNLINK_ID: i64 = 35;
    /// `{36, Id, FromPid, ToPid}`
    pub const UNLINK_ID_ACK: i64 = 36;
}

/// A frame: the control tuple `control` and, for the operations that
/// carry one, the message or reason after it. `None` for a value that has
/// no external format (never a term a process holds).
pub fn frame(control: Term, payload: Option<Term>) -> Option<Vec<u8>> {
    let mut out = vec![PASS_THROUGH];
    out.extend(try_encode(control).ok()?);
    if let Some(p) = payload {
        out.extend(try_encode(p).ok()?);
    }
    Some(out)
}

/// Why a frame is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadFrame(pub String);

/// Reads a non-empty frame onto `heap`: its operation, its control tuple
/// and the message or reason after it, if any.
pub fn decode(bytes: &[u8], heap: &mut Heap) -> Result<(i64, Term, Option<Term>), BadFrame> {
    match bytes.first() {
        Some(&PASS_THROUGH) => {}
        Some(b) => {
            return Err(BadFrame(format!(
                "a frame starting with byte {b} (only pass-through frames, 112, are accepted: the atom cache header was not negotiated)"
            )))
        }
        None => return Err(BadFrame("an empty frame".into())),
    }
    let rest = &bytes[1..];
    let (control, used) = decode_used(rest, heap)
        .map_err(|e| BadFrame(format!("a control message that does not decode: {e}")))?;
    let rest = &rest[used..];
    let payload = if rest.is_empty() {
        None
    } else {
        let (p, used) = decode_used(rest, heap)
            .map_err(|e| BadFrame(format!("a message that does not decode: {e}")))?;
        if used != rest.len() {
            return Err(BadFrame(format!(
                "{} bytes after the message",
                rest.len() - used
            )));
        }
        Some(p)
    };
    let op = control
        .as_tuple()
        .and_then(|t| t.first().copied())
        .and_then(Term::as_small)
        .ok_or_else(|| {
            BadFrame("a control message that is not a tuple with an integer first".into())
        })?;
    Ok((op, control, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_as_written() {
        let mut h = Heap::new();
        let ctl = h.tuple(&[
            Term::small_unchecked(op::SEND),
            Term::NIL,
            Term::small_unchecked(7),
        ]);
        let bytes = frame(ctl, Some(Term::small_unchecked(42))).unwrap();
        let mut h2 = Heap::new();
        let (op, control, payload) = decode(&bytes, &mut h2).unwrap();
        assert_eq!(op, op::SEND);
        assert_eq!(control.as_tuple().map(<[Term]>::len), Some(3));
        assert_eq!(payload, Some(Term::small_unchecked(42)));
    }

    #[test]
    fn malformed_frames_are_errors_not_panics() {
        let mut h = Heap::new();
        for bad in [
            &[][..],
            &[68, 1, 2][..],
            &[112][..],
            &[112, 131][..],
            &[112, 131, 97, 1][..],
            &[112, 131, 104, 1, 97, 1, 131][..],
            &[112, 131, 104, 1, 97, 1, 131, 97, 1, 0][..],
            &[112, 131, 104, 200][..],
        ] {
            assert!(decode(bad, &mut h).is_err(), "{bad:?}");
        }
    }
}
