//! The local node as the External Term Format sees it, and how beamr's
//! local pids, ports and references map to the encoded fields.
//!
//! Until distribution starts the local node is `nonode@nohost` with
//! creation 0, as an `erl` started without `-name`/`-sname`; `setnode/2`
//! names it ([`set_this_node`]). An encoded pid, port or reference of the
//! local node's name and creation decodes to a local one (an immediate pid
//! or port, a [`Subtag::Ref`](crate::term::Subtag::Ref) object); any other
//! node's decodes to an external one. The name and creation are one word,
//! read with a relaxed load: they change once, when distribution starts
//! (or stops), as in erts.
//!
//! ```text
//! local pid number (60 bits)   [ serial: 28 bits | id: 32 bits ]   printed <0.id.serial>
//! local port number (60 bits)  the port's id, as is                printed #Port<0.id>
//! local reference              three 32-bit id words               printed #Ref<0.w2.w1.w0>
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use crate::atom::Atom;

/// The local node's name before distribution starts.
pub const LOCAL_NODE: &str = "nonode@nohost";

/// The local node's creation before distribution starts.
pub const LOCAL_CREATION: u32 = 0;

/// The local node: its name's atom index in the high half, its creation
/// in the low half.
static THIS_NODE: AtomicU64 = AtomicU64::new((Atom::NONODE_NOHOST.index() as u64) << 32);

/// The local node's name and creation (`nonode@nohost` and 0 until
/// distribution starts).
#[inline]
pub fn this_node() -> (Atom, u32) {
    let w = THIS_NODE.load(Ordering::Relaxed);
    let name = Atom::from_index((w >> 32) as u32).unwrap_or(Atom::NONODE_NOHOST);
    (name, w as u32)
}

/// Names the local node (`erlang:setnode/2`), or returns it to
/// `nonode@nohost` with creation 0 when distribution stops.
pub fn set_this_node(name: Atom, creation: u32) {
    THIS_NODE.store(
        (u64::from(name.index()) << 32) | u64::from(creation),
        Ordering::Relaxed,
    );
}

/// Bits of a local pid number that hold the pid's serial, above its 32-bit id.
pub const PID_SERIAL_BITS: u32 = 28;

/// The local pid number of `<0.id.serial>`, or `None` if `serial` does not
/// fit in [`PID_SERIAL_BITS`] bits.
#[inline]
pub fn local_pid_number(id: u32, serial: u32) -> Option<u64> {
    if serial >> PID_SERIAL_BITS != 0 {
        return None;
    }
    Some((serial as u64) << 32 | id as u64)
}

/// The id and serial of a local pid number (the `N` and `S` of `<0.N.S>`).
#[inline]
pub fn local_pid_parts(number: u64) -> (u32, u32) {
    (number as u32, (number >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::tag::MAX_LOCAL_ID;

    #[test]
    fn pid_numbers_round_trip_through_id_and_serial() {
        for (id, serial) in [
            (0, 0),
            (9, 0),
            (u32::MAX, 0),
            (5, 7),
            (u32::MAX, (1 << 28) - 1),
        ] {
            let n = local_pid_number(id, serial).unwrap();
            assert!(n <= MAX_LOCAL_ID);
            assert_eq!(local_pid_parts(n), (id, serial));
        }
        assert_eq!(local_pid_number(0, 1 << 28), None);
    }
}
