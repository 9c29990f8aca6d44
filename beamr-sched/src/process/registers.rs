//! Register files per scheduler thread, as the BEAM keeps them.
//!
//! A process holds a full register file ([`MAX_X_REGS`] X registers and
//! [`MAX_FLOAT_REGS`] float registers, 10 KB) only while it runs. Between
//! slices it keeps just its live X registers ([`Process::saved_x`]): the
//! arguments of the function it was about to enter when its reductions ran
//! out, the timeout register of a `receive ... after` it waits in, or
//! nothing. Float registers are never live across a call or a wait (the
//! compiler keeps them within one block of float instructions), so none
//! are saved.
//!
//! Each scheduler thread owns one [`RegisterFile`] and lends it to the
//! process it runs for a slice ([`RegisterFile::lend`]), taking it back
//! after ([`RegisterFile::take_back`]). A process that is not running has
//! empty register slices: anything that sets a parked process's registers
//! (a spawn's arguments) writes `saved_x`.

use beamr_core::term::Term;

use super::Process;

/// Number of X registers (the BEAM's 1024).
pub const MAX_X_REGS: usize = 1024;

/// Number of float registers.
pub const MAX_FLOAT_REGS: usize = 256;

/// One full register file, owned by a scheduler thread between slices.
pub struct RegisterFile {
    x: Box<[Term]>,
    fr: Box<[f64]>,
}

impl Default for RegisterFile {
    fn default() -> RegisterFile {
        RegisterFile::new()
    }
}

impl RegisterFile {
    /// A register file with every X register `[]`.
    pub fn new() -> RegisterFile {
        RegisterFile {
            x: vec![Term::NIL; MAX_X_REGS].into_boxed_slice(),
            fr: vec![0.0; MAX_FLOAT_REGS].into_boxed_slice(),
        }
    }

    /// Lends the file to `p` for a slice, with `p`'s saved registers
    /// copied in. Until [`take_back`](Self::take_back), `p.x` holds
    /// [`MAX_X_REGS`] registers and `p.fr` [`MAX_FLOAT_REGS`], which the
    /// interpreter's unchecked register accesses rely on.
    #[inline]
    pub fn lend(&mut self, p: &mut Process) {
        debug_assert!(p.x.is_empty(), "a process runs on one scheduler at a time");
        std::mem::swap(&mut self.x, &mut p.x);
        std::mem::swap(&mut self.fr, &mut p.fr);
        let saved = p.saved_x.len();
        if saved > 0 {
            p.x[..saved].copy_from_slice(&p.saved_x);
        }
    }

    /// Takes the file back from `p` after a slice, keeping X registers
    /// `0..live` in `p.saved_x`.
    #[inline]
    pub fn take_back(&mut self, p: &mut Process, live: usize) {
        p.saved_x.clear();
        if live > 0 {
            p.saved_x.extend_from_slice(&p.x[..live]);
        }
        std::mem::swap(&mut self.x, &mut p.x);
        std::mem::swap(&mut self.fr, &mut p.fr);
    }
}
