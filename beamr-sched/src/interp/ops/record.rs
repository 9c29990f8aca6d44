//! Execution of [`RecordInstr`](crate::loader::record::RecordInstr):
//! `update_record` copies a tuple and replaces some of its elements; OTP
//! 29's native-record instructions act as on a runtime where no value is a
//! native record (see [`crate::loader::record`]).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::{fail_or, get, put, Flow};
use crate::interp::unwind;
use crate::loader::record::RecordInstr;
use crate::process::{Exception, Process};

/// Executes one instruction.
pub fn exec(p: &mut Process, op: &RecordInstr) -> Flow {
    match op {
        RecordInstr::Update {
            size,
            src,
            dst,
            updates,
        } => {
            let tuple = get(p, *src);
            // erlc emits update_record only for a tuple it knows has `size`
            // elements; anything else is a compiler bug, raised as badarg.
            let Some(elements) = tuple.as_tuple().filter(|e| e.len() == *size as usize) else {
                return Flow::Raise(Exception::badarg());
            };
            let mut copy: Vec<_> = elements.to_vec();
            for &(index, value) in updates.iter() {
                copy[index as usize] = get(p, value);
            }
            let new = p.heap.tuple(&copy);
            put(p, *dst, new);
            Flow::Next
        }
        RecordInstr::NotNativeRecord { fail } => Flow::Jump(*fail),
        RecordInstr::GetField { fail, rec } => fail_or(*fail, || {
            let v = get(p, *rec);
            unwind::tagged_error(p, Atom::BADRECORD, v)
        }),
        RecordInstr::Put => Flow::Raise(native_records_unsupported(p)),
    }
}

/// `error:{beamr_unsupported, native_records}`: what making a native
/// record raises (`put_record` here, `records:create/4` and `update/4`).
pub fn native_records_unsupported(p: &mut Process) -> Exception {
    let reason = p.heap.tuple(&[
        Term::atom(Atom::new("beamr_unsupported").expect("atom")),
        Term::atom(Atom::new("native_records").expect("atom")),
    ]);
    Exception::error(reason)
}
