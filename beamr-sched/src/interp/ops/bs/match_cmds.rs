//! Execution of `bs_match` (OTP 26): its commands run in order on one match
//! context, moving its position; the first that fails jumps to the fail
//! label (see [`crate::loader::bs_match`] for the commands).
//!
//! erlc puts an `ensure_*` command before the commands that read, so the
//! reads need no bounds check of their own on the BEAM; here every read
//! checks anyway, and a short context fails the match rather than reading
//! past its end.

use super::{context, equal_at, multiple_of, read_segment, set_position};
use crate::interp::ops::{put, Flow};
use crate::loader::bs_match::{BsMatch, MatchCmd};
use crate::process::Process;

/// Runs the commands of `m`.
pub fn exec(p: &mut Process, m: &BsMatch) -> Flow {
    let Some((ctx, view)) = context(p, m.ctx) else {
        return Flow::Jump(m.fail);
    };
    let (orig, end) = (view.orig, view.end);
    let mut pos = view.position;
    for cmd in m.cmds.iter() {
        let left = end - pos;
        match cmd {
            MatchCmd::EnsureAtLeast { bits, unit } => {
                if left < *bits || !multiple_of(left - bits, *unit) {
                    return Flow::Jump(m.fail);
                }
            }
            MatchCmd::EnsureExactly { bits } => {
                if left != *bits {
                    return Flow::Jump(m.fail);
                }
            }
            MatchCmd::Get {
                kind,
                bits: n,
                flags,
                dst,
            } => {
                if left < *n {
                    return Flow::Jump(m.fail);
                }
                let Some(v) = read_segment(p, *kind, orig, pos, *n, *flags) else {
                    return Flow::Jump(m.fail);
                };
                put(p, *dst, v);
                pos += n;
            }
            MatchCmd::Skip { bits: n } => {
                if left < *n {
                    return Flow::Jump(m.fail);
                }
                pos += n;
            }
            MatchCmd::GetTail { dst } => {
                let v = p.heap.sub_binary(orig, pos, left);
                put(p, *dst, v);
                pos = end;
            }
            MatchCmd::Equal { bits: n, bytes } => {
                if !equal_at(&orig, pos, left, bytes, *n) {
                    return Flow::Jump(m.fail);
                }
                pos += n;
            }
        }
    }
    set_position(ctx, pos);
    Flow::Next
}
