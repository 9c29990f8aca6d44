//! Message passing: `send`, `loop_rec`, `loop_rec_end`, `remove_message`,
//! `wait`, `wait_timeout`, `timeout`, and the receive-marker instructions.
//!
//! Lowered here into [`RecvInstr`]; executed by `interp::ops::recv`.

use beamr_core::beam::{Instruction, Opcode};

use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, Target};

/// An executable message-passing instruction.
#[derive(Debug, Clone, Copy)]
pub enum RecvInstr {
    /// `x0 ! x1`; x0 becomes the message.
    Send,
    /// Puts the message under the cursor in `dst`, or jumps to `fail` when
    /// every message has been looked at.
    LoopRec {
        /// Where to go when no message is left.
        fail: Target,
        /// Destination of the message.
        dst: Dst,
    },
    /// Moves the cursor to the next message and jumps back to `loop_rec`.
    LoopRecEnd {
        /// The `loop_rec`.
        target: Target,
    },
    /// Removes the matched message.
    RemoveMessage,
    /// Waits for a message, then jumps to `loop_rec`.
    Wait {
        /// The `loop_rec`.
        target: Target,
    },
    /// Waits for a message or the timeout; on timeout falls through.
    WaitTimeout {
        /// The `loop_rec`.
        target: Target,
        /// Milliseconds (or `infinity`).
        timeout: Src,
    },
    /// After a timeout: resets the cursor.
    Timeout,
    /// Reserves a receive marker at the current end of the queue.
    MarkerReserve {
        /// The marker.
        dst: Dst,
    },
    /// Binds a reserved marker to a reference.
    MarkerBind {
        /// The marker.
        marker: Src,
        /// The reference.
        reference: Src,
    },
    /// Starts the next scan at the reference's marker.
    MarkerUse {
        /// The reference.
        reference: Src,
    },
    /// Forgets the reference's marker.
    MarkerClear {
        /// The reference.
        reference: Src,
    },
}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Send
            | O::LoopRec
            | O::LoopRecEnd
            | O::RemoveMessage
            | O::Wait
            | O::WaitTimeout
            | O::Timeout
            | O::RecvMarkerReserve
            | O::RecvMarkerBind
            | O::RecvMarkerUse
            | O::RecvMarkerClear
    )
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_recv(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<RecvInstr, LoadError> {
        use Opcode as O;
        Ok(match ins.opcode {
            O::Send => RecvInstr::Send,
            O::LoopRec => RecvInstr::LoopRec {
                fail: self.target(ins, 0, here)?,
                dst: self.dst(ins, 1)?,
            },
            O::LoopRecEnd => RecvInstr::LoopRecEnd {
                target: self.target(ins, 0, here)?,
            },
            O::RemoveMessage => RecvInstr::RemoveMessage,
            O::Wait => RecvInstr::Wait {
                target: self.target(ins, 0, here)?,
            },
            O::WaitTimeout => RecvInstr::WaitTimeout {
                target: self.target(ins, 0, here)?,
                timeout: self.src(ins, 1)?,
            },
            O::Timeout => RecvInstr::Timeout,
            O::RecvMarkerReserve => RecvInstr::MarkerReserve {
                dst: self.dst(ins, 0)?,
            },
            O::RecvMarkerBind => RecvInstr::MarkerBind {
                marker: self.src(ins, 0)?,
                reference: self.src(ins, 1)?,
            },
            O::RecvMarkerUse => RecvInstr::MarkerUse {
                reference: self.src(ins, 0)?,
            },
            _ => RecvInstr::MarkerClear {
                reference: self.src(ins, 0)?,
            },
        })
    }
}
