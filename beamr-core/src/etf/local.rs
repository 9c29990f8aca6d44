//! The local node as the External Term Format sees it, and how beamr's
//! local pids, ports and references map to the encoded fields.
//!
//! beamr is not distributed: the local node is `nonode@nohost` with
//! creation 0, as an `erl` started without `-name`/`-sname`. An encoded pid,
//! port or reference of that node and creation decodes to a local one (an
//! immediate pid or port, a [`Subtag::Ref`](crate::term::Subtag::Ref)
//! object); any other node's decodes to an external one.
//!
//! ```text
//! local pid number (60 bits)   [ serial: 28 bits | id: 32 bits ]   printed <0.id.serial>
//! local port number (60 bits)  the port's id, as is                printed #Port<0.id>
//! local reference              three 32-bit id words               printed #Ref<0.w2.w1.w0>
//! ```

/// The local node's name.
pub const LOCAL_NODE: &str = "nonode@nohost";

/// The local node's creation.
pub const LOCAL_CREATION: u32 = 0;

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
